"""What the tournament cog shows, drawn from an event's view: the sign-up embed, the
standings, a round's pairings pages, thread names. Plain functions, no buttons."""

from __future__ import annotations

import json
import math
from typing import Any

import discord

from bot.service.tournaments import TournamentView, points_text, rematches_in
from bot.store.tournament_records import AuditRecord, TournamentTable
from bot.timing import PACE_LABELS, duration
from bot.tournaments import best_of as bo
from bot.tournaments.config import TournamentConfig
from bot.tournaments.formats import format_class
from bot.tournaments.standings import Standing
from bot.tournaments.tiebreakers import tiebreak_words, tiebreaker_text
from cogs import render
from games.core.words import plural, points_word

STANDINGS_SHOWN = 25
PAIRINGS_A_PAGE = 20  # lines (tables, byes) a page of the pairings message


def shown_breakers(view: TournamentView) -> int:
    return 3 if view.config.best_of > 1 else 2  # OMW%, and GW% and OGW% for best of three


def standing_lines(view: TournamentView, standings: list[Standing]) -> list[str]:
    lines = []
    shown, gone = shown_breakers(view), view.gone_words()
    for s in standings[:STANDINGS_SHOWN]:
        breakers = " · ".join(
            f"{name} {tiebreaker_text(name, value)}" for name, value in s.tiebreakers[:shown]
        )
        dropped = f" *({gone.get(s.player, 'dropped')})*" if s.dropped else ""
        pts = points_word(float(s.points), short=True)
        lines.append(
            f"**{s.rank}.** {view.name(s.player)}{dropped} — {points_text(s.points)} {pts}"
            + (f" · {breakers}" if breakers else "")
        )
    return lines


def signup_embed(view: TournamentView) -> discord.Embed:
    event, config, game = view.event, view.config, view.game
    title = f"🏆 {game.name} tournament"
    state = {
        "signup": "Sign-up is open: press **Join**.",
        "running": f"Round {event.round} is being played.",
        "paused": f"Paused by the organiser in round {event.round}.",
        "finished": "This tournament is over.",
        "cancelled": "This tournament was cancelled.",
    }[event.status]
    deadline = config.round_length
    lines = [
        state,
        f"**Format:** {view.format.label}"
        + (f", {plural(view.rounds, 'round')}" if view.rounds else ""),
        f"**Pace:** {PACE_LABELS[config.pace]} · rounds last "
        + (duration(deadline) if deadline else "until every table is done"),
    ]
    lines += format_lines(view)
    if view.late_entry_open and view.rounds:
        lines.append(
            f"**Late entry:** press Join until round {math.ceil(view.rounds / 2)}, "
            "with a loss for each round played"
        )
    if config.best_of > 1:
        lines.append(
            f"**Tables:** best of {config.best_of}, the first to win "
            f"{bo.wins_needed(config.best_of)} games takes the table"
        )
    if config.starts_at:
        lines.append(f"**Starts:** <t:{int(config.starts_at)}:F> (<t:{int(config.starts_at)}:R>)")
    if config.checkin:
        lines.append("**Check-in:** required; unchecked players drop at the start.")
    if config.seeding == "rating":
        lines.append(
            "**Seeding:** by rating: round 1 and ties in points pair by the players' "
            "ratings, brackets are seeded by them"
        )
    lines.append(f"**Organiser:** <@{event.organiser_id}>")
    embed = discord.Embed(
        title=title, description="\n".join(lines), colour=render.COLOURS["neutral"]
    )
    entered = view.entered if event.status == "signup" else []
    if event.status == "signup":
        names = [
            f"{render.seat_name(e)}{' ✅' if config.checkin and e.checked_in else ''}"
            for e in entered
        ]
        embed.add_field(
            name=f"Entrants ({len(entered)}/{config.max_players})",
            value=render.clip(", ".join(names) or "Nobody yet.", render.FIELD_VALUE),
            inline=False,
        )
        if view.waitlist:
            embed.add_field(
                name=f"Waitlist ({len(view.waitlist)})",
                value=render.clip(", ".join(e.name for e in view.waitlist), render.FIELD_VALUE),
                inline=False,
            )
    elif view.standings:
        champion = view.champion()
        if champion is not None:
            embed.add_field(name="🏆 Winner", value=champion.name, inline=False)
        embed.add_field(
            name="Standings",
            value=render.clip("\n".join(standing_lines(view, view.standings[:10])), 1024),
            inline=False,
        )
    embed.set_footer(text=f"Event {event.tournament_id} · /tournament standings")
    return embed


def format_lines(view: TournamentView) -> list[str]:
    """What the format means for a player: table sizes, who goes on, what places score."""
    signup = view.event.status == "signup"
    return [f"**{heading}:** {text}" for heading, text in view.format.describe(signup)]


def rematch_line(view: TournamentView, tables: list[tuple[int, ...]]) -> str:
    """Swiss rematches no pairing could avoid, said with the pairings."""
    pairs = ", ".join(" – ".join(view.name(p) for p in seats) for seats in tables)
    many = len(tables) != 1
    return (
        f"🔁 {len(tables)} rematch{'es' if many else ''} could not be avoided this round: " + pairs
    )


def pairings_pages(view: TournamentView, round_no: int) -> list[str]:
    """A round's tables and byes, a page at most PAIRINGS_A_PAGE lines and within an
    embed's description; rebuilt from the store on every page click."""
    lines = []
    for table in sorted((t for t in view.tables if t.round == round_no), key=lambda t: t.table_no):
        names = " vs ".join(view.name(p) for p in table.seats)
        where = f" · <#{table.thread_id}>" if table.thread_id else ""
        lines.append(render.clip(f"**T{table.table_no}** {names}{where}", 400))
    rest = "rests this round" if view.format.bye == "rest" else "has the bye"
    byes = sorted(
        (r for r in view.results if r.round == round_no and r.kind == "bye"),
        key=lambda r: r.table_no,
    )
    lines += [f"☕ {view.name(r.players[0])} {rest}" for r in byes]
    lines += [
        f"⏳ {view.name(q)} waits for an opponent to come through"
        for q in view.format.waiting(view.progress, round_no)
    ]
    if view.format.shows_rematches:
        earlier = [r for r in view.results if r.round < round_no]
        swiss = [t for t in view.tables if t.round == round_no and t.bracket_id is None]
        if rematches := rematches_in(earlier, swiss):
            lines.append(rematch_line(view, rematches))
    pages: list[list[str]] = []
    for line in lines:
        page = pages[-1] if pages else None
        if (
            page is None
            or len(page) >= PAIRINGS_A_PAGE
            or sum(len(x) + 1 for x in page) + len(line) > render.DESCRIPTION - 200
        ):
            pages.append([line])
        else:
            page.append(line)
    return ["\n".join(page) for page in pages]


def thread_name(round_no: int, table_no: int, names: list[str]) -> str:
    return render.clip(f"R{round_no} · T{table_no} · {', '.join(names)}", 100)


def game_score(view: TournamentView, table: TournamentTable) -> str:
    """A best-of-three table's games so far: ``Ana 1–0 Ben`` (drawn games after)."""
    score = bo.score(table.seats, [game.winner for game in table.games])
    a, b = table.seats
    text = f"{view.name(a)} {score.wins[0]}–{score.wins[1]} {view.name(b)}"
    return text + (f", {score.draws} drawn" if score.draws else "")


def standings_title(
    view: TournamentView, round_no: int, *, final: bool, during: bool = False
) -> str:
    """``during``: round ``round_no`` is still being played (its results so far count)."""
    if final:
        what = "final standings"
    elif round_no == 0:  # asked during sign-up: there is no "round 0"
        what = "standings before round 1"
    else:
        what = f"standings {'during' if during else 'after'} round {round_no}"
    return f"{view.game.name} · {what}"


def standings_embed(
    view: TournamentView,
    round_no: int,
    *,
    final: bool,
    next_round_at: float | None = None,
    during: bool = False,
) -> discord.Embed:
    """The standings; between rounds, when the next one starts (``next_round_at``)."""
    title = "🏆 " + standings_title(view, round_no, final=final, during=during)
    lines = standing_lines(view, view.standings)
    if len(view.standings) > STANDINGS_SHOWN:
        lines.append(
            f"… and {len(view.standings) - STANDINGS_SHOWN} more: My standing shows yours."
        )
    description = "\n".join(lines) or "No results yet."
    if view.event.status == "signup":
        description = (
            "Sign-up is open: nothing is played until the organiser presses **Start**.\n\n"
            + "\n".join(lines)
        ).strip()
    if next_round_at is not None:
        description = (
            f"⏭️ **Round {round_no + 1} starts <t:{int(next_round_at)}:R>**; the organiser "
            "can press **Start now**.\n\n" + description
        )
    embed = discord.Embed(
        title=render.clip(title, render.TITLE),
        description=render.clip(description, render.DESCRIPTION),
        colour=render.COLOURS["done" if final else "neutral"],
    )
    names = [name for name, _ in view.standings[0].tiebreakers] if view.standings else []
    if words := tiebreak_words(names[: shown_breakers(view)]):
        embed.set_footer(text=words)
    return embed


# --- /tournament log ---------------------------------------------------------------------------
def log_line(row: AuditRecord) -> str:
    """One line of /tournament log: when, who, and what they did, in words."""
    return (
        f"<t:{int(row.at)}:f> **{row.actor_name}** {log_words(row.action, json.loads(row.after))}"
    )


def log_words(action: str, after: dict[str, Any]) -> str:
    """What the organiser (or the clock) did, from the action and its stored after-state."""
    name = after.get("name", "")
    fixed = {
        "pause": "paused the tournament",
        "resume": "let the tournament go on",
        "end": "ended the tournament",
        "cancel": "cancelled the tournament",
        "drop": f"dropped {name}",
        "undrop": f"took {name} back in",
        "disqualify": f"disqualified {name}",
        "add bot": f"added {name}",
        "add player": f"added {name}",
    }
    if action in fixed:
        return fixed[action]
    if action == "create":
        return "created the tournament: " + config_words(after)
    if action == "start":
        return f"started the tournament with {plural(after.get('players', 0), 'player')}"
    if action == "start now":
        return f"started round {after.get('round')} early"
    if action == "set result":
        where = f"round {after.get('round')}, table {after.get('table')}"
        return f"set the result of {where}: {after.get('result')}"
    if action == "re-pair":
        return f"paired round {after.get('round')} again"
    if action == "extend":
        return f"gave table {after.get('table')} until <t:{int(after.get('until') or 0)}:f>"
    said = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in after.items() if v is not None)
    return action + (f": {said}" if said else "")


def config_words(after: dict[str, Any]) -> str:
    """An event's settings as the organiser chose them, in words: only what is set."""
    try:
        config = TournamentConfig.model_validate(after)
    except ValueError:
        return "settings of an older version"
    parts = [format_class(config.format).label]
    if config.rounds:
        parts.append(plural(config.rounds, "round"))
    parts.append(PACE_LABELS[config.pace].split(":")[0].lower() + " pace")
    if config.best_of > 1:
        parts.append(f"tables best of {config.best_of}")
    if config.top_cut:
        parts.append(f"top {config.top_cut} play on")
    if config.checkin:
        parts.append("check-in")
    if config.seeding == "rating":
        parts.append("seeded by rating")
    return ", ".join(parts)
