"""What the tournament cog shows, drawn from an event's view: the sign-up embed, the
standings, a round's pairings pages, thread names. Plain functions, no buttons."""

from __future__ import annotations

import math

import discord

from bot.service.tournaments import TournamentView, points_text, rematches_in
from bot.store.tournament_records import TournamentTable
from bot.timing import PACE_LABELS, duration
from bot.tournaments import best_of as bo
from bot.tournaments.standings import Standing
from bot.tournaments.tiebreakers import percent
from cogs import render

STANDINGS_SHOWN = 25
PAIRINGS_A_PAGE = 20  # lines (tables, byes) a page of the pairings message


def standing_lines(view: TournamentView, standings: list[Standing]) -> list[str]:
    lines = []
    shown = 3 if view.config.best_of > 1 else 2  # OMW%, and GW% and OGW% for best of three
    for s in standings[:STANDINGS_SHOWN]:
        breakers = " · ".join(f"{name} {percent(value)}" for name, value in s.tiebreakers[:shown])
        dropped = " *(dropped)*" if s.dropped else ""
        lines.append(
            f"**{s.rank}.** {view.name(s.player)}{dropped} — {points_text(s.points)} pts"
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
        f"**Format:** {view.format.label}" + (f", {view.rounds} rounds" if view.rounds else ""),
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
        names = [f"{e.name}{' ✅' if config.checkin and e.checked_in else ''}" for e in entered]
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


def standings_embed(view: TournamentView, round_no: int, *, final: bool) -> discord.Embed:
    title = f"🏆 {view.game.name} · " + (
        "final standings" if final else f"standings after round {round_no}"
    )
    lines = standing_lines(view, view.standings)
    if len(view.standings) > STANDINGS_SHOWN:
        lines.append(
            f"… and {len(view.standings) - STANDINGS_SHOWN} more: My standing shows yours."
        )
    embed = discord.Embed(
        title=render.clip(title, render.TITLE),
        description=render.clip("\n".join(lines) or "No results yet.", render.DESCRIPTION),
        colour=render.COLOURS["done" if final else "neutral"],
    )
    return embed
