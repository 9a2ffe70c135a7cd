"""What the tournament cog shows, drawn from an event's view: the sign-up embed, the
standings, a round's pairings pages, thread names. Plain functions, no buttons."""

from __future__ import annotations

import json
import math
from typing import Any

import discord

from bot.service.tournaments import TournamentView, rematches_in
from bot.store.tournament_records import AuditRecord, TournamentTable
from bot.timing import PACE_LABELS, duration
from bot.tournaments import best_of as bo
from bot.tournaments.config import TournamentConfig
from bot.tournaments.formats import format_class
from bot.tournaments.groups import GroupRounds
from bot.tournaments.pictures.groups import group_label
from bot.tournaments.standings import Standing
from bot.tournaments.tiebreakers import tiebreak_figures, tiebreak_words
from cogs import render
from cogs.speech import say
from games.core.text import Text, joined, plain, t, tc, tn
from games.core.translations import ENGLISH
from games.core.words import points

STANDINGS_SHOWN = 25
PAIRINGS_A_PAGE = 20  # lines (tables, byes) a page of the pairings message


def shown_breakers(view: TournamentView) -> int:
    return 3 if view.config.best_of > 1 else 2  # OMW%, and GW% and OGW% for best of three


def who_stands(view: TournamentView, s: Standing, gone: dict[int, Text]) -> str | Text:
    """A standing's name, and why they left if they did ("dropped", "disqualified")."""
    if not s.dropped:
        return view.name(s.player)
    why = gone.get(s.player, tc("standings", "dropped"))
    return t("{name} *({why})*", name=view.name(s.player), why=why)


def standing_lines(
    view: TournamentView, standings: list[Standing], shown_at_most: int = STANDINGS_SHOWN
) -> list[Text]:
    lines = []
    shown, gone, notes = shown_breakers(view), view.gone_words(), view.standing_notes()
    for s in standings[:shown_at_most]:
        breakers = tiebreak_figures(s.tiebreakers[:shown])
        who = who_stands(view, s, gone)
        pts = points(float(s.points), short=True)
        if s.player in notes:
            # A group event: the round and group reached explain the place, and the points
            # are that round's (a later round's last is above an earlier round's best).
            line = t(
                "**{rank}.** {who} — {where} · {points}",
                rank=s.rank,
                who=who,
                where=notes[s.player],
                points=pts,
            )
        elif breakers:
            line = t(
                "**{rank}.** {who} — {points} · {breakers}",
                rank=s.rank,
                who=who,
                points=pts,
                breakers=breakers,
            )
        else:
            line = t("**{rank}.** {who} — {points}", rank=s.rank, who=who, points=pts)
        lines.append(line)
    return lines


PLAYING = tc("groups", "playing")


def group_lines(view: TournamentView, round_no: int) -> list[Text] | None:
    """A group event's standings during (or just after) round ``round_no``: each group of
    the round as the group picture has it (place, points, who goes on; no places before a
    result), then those out in earlier rounds by their final place. None: not a group
    event's round."""
    drawn = view.drawn_bracket()
    if not isinstance(drawn, GroupRounds) or not 1 <= round_no <= len(drawn.rounds):
        return None
    lines: list[Text] = []
    gone = view.gone_words()
    for group in drawn.rounds[round_no - 1]:
        if group.started and group.playing:
            lines.append(t("**{group}** · {state}", group=group_label(group), state=PLAYING))
        else:
            lines.append(t("**{group}**", group=group_label(group)))
        if not group.started:  # no order yet: no places
            lines += [plain(name) for name in sorted(view.name(q) for q in group.members)]
            continue
        for place, s in enumerate(group.standings, start=1):
            said = {"rank": place, "who": who_stands(view, s, gone)}
            pts = points(float(s.points), short=True)
            if group.playing or s.player not in group.going_on:
                lines.append(t("**{rank}.** {who} — {points}", points=pts, **said))
            elif group.final:
                lines.append(t("**{rank}.** {who} — {points} · wins 🏆", points=pts, **said))
            else:
                lines.append(t("**{rank}.** {who} — {points} · goes on ➡️", points=pts, **said))
    here = {s.player for group in drawn.rounds[round_no - 1] for s in group.standings}
    out = [s for s in view.standings if s.player not in here]
    if out:
        lines.append(t("**Out in earlier rounds**"))
        room = max(STANDINGS_SHOWN - len(lines), 5)
        lines += standing_lines(view, out, room)
        if len(out) > room:
            lines.append(more_line(len(out) - room))
    return lines


def more_line(n: int) -> Text:
    """Under standings cut short: how many more there are, and where to see one's own."""
    return tn(
        "… and {n} more: My standing shows yours.", "… and {n} more: My standing shows yours.", n=n
    )


STATES = {
    "signup": t("Sign-up is open: press **Join**."),
    "finished": t("This tournament is over."),
    "cancelled": t("This tournament was cancelled."),
}


def signup_embed(view: TournamentView, language: str = ENGLISH) -> discord.Embed:
    event, config, game = view.event, view.config, view.game
    title = t("🏆 {game} tournament", game=game.name)
    if event.status == "running":
        state = t("Round {round} is being played.", round=event.round)
    elif event.status == "paused":
        state = t("Paused by the organiser in round {round}.", round=event.round)
    else:
        state = STATES[event.status]
    deadline = config.round_length
    pace = PACE_LABELS[config.pace]
    lines = [
        state,
        t(
            "**Format:** {format}, {rounds}",
            format=view.format.label,
            rounds=tn("{n} round", "{n} rounds", n=view.rounds),
        )
        if view.rounds
        else t("**Format:** {format}", format=view.format.label),
        t("**Pace:** {pace} · rounds last {time}", pace=pace, time=duration(deadline))
        if deadline
        else t("**Pace:** {pace} · rounds last until every table is done", pace=pace),
    ]
    lines += format_lines(view)
    if view.late_entry_open and view.rounds:
        lines.append(
            t(
                "**Late entry:** press Join until round {round}, with a loss for each round played",
                round=math.ceil(view.rounds / 2),
            )
        )
    if config.best_of > 1:
        lines.append(
            tn(
                "**Tables:** best of {best_of}, the first to win {n} game takes the table",
                "**Tables:** best of {best_of}, the first to win {n} games takes the table",
                n=bo.wins_needed(config.best_of),
                best_of=config.best_of,
            )
        )
    if config.starts_at:
        lines.append(t("**Starts:** <t:{at}:F> (<t:{at}:R>)", at=int(config.starts_at)))
    if config.checkin and config.checkin_opens:
        lines.append(
            t(
                "**Check-in:** required, open from <t:{at}:t> (<t:{at}:R>); unchecked players "
                "drop at the start.",
                at=int(config.checkin_opens),
            )
        )
    elif config.checkin:
        lines.append(t("**Check-in:** required; unchecked players drop at the start."))
    if config.seeding == "rating":
        lines.append(
            t(
                "**Seeding:** by rating: round 1 and ties in points pair by the players' "
                "ratings, brackets are seeded by them"
            )
        )
    lines.append(t("**Organiser:** <@{id}>", id=event.organiser_id))
    embed = discord.Embed(
        title=render.clip(say(title, language), render.TITLE),
        description=say(joined(lines), language),
        colour=render.COLOURS["neutral"],
    )
    entered = view.entered if event.status == "signup" else []
    if event.status == "signup":
        names = [
            t("{name} ✅", name=render.seat_name(e))
            if config.checkin and e.checked_in
            else render.seat_name(e)
            for e in entered
        ]
        embed.add_field(
            name=say(t("Entrants ({n}/{max})", n=len(entered), max=config.max_players), language),
            value=render.clip(
                say(joined(names, ", ") if names else t("Nobody yet."), language),
                render.FIELD_VALUE,
            ),
            inline=False,
        )
        if view.waitlist:
            embed.add_field(
                name=say(t("Waitlist ({n})", n=len(view.waitlist)), language),
                value=render.clip(
                    say(joined([e.name for e in view.waitlist], ", "), language),
                    render.FIELD_VALUE,
                ),
                inline=False,
            )
    elif view.standings:
        champion = view.champion()
        if champion is not None:
            embed.add_field(
                name=say(t("🏆 Winner"), language), value=say(champion.name, language), inline=False
            )
        embed.add_field(
            name=say(tc("heading", "Standings"), language),
            value=render.clip(
                say(joined(standing_lines(view, view.standings[:10])), language), 1024
            ),
            inline=False,
        )
    footer = t("Event {id} · /tournament standings", id=event.tournament_id)
    embed.set_footer(text=say(footer, language))
    return embed


def format_lines(view: TournamentView) -> list[Text]:
    """What the format means for a player: table sizes, who goes on, what places score."""
    signup = view.event.status == "signup"
    return [
        t("**{heading}:** {text}", heading=heading, text=text)
        for heading, text in view.format.describe(signup)
    ]


def rematch_line(view: TournamentView, tables: list[tuple[int, ...]]) -> Text:
    """Swiss rematches no pairing could avoid, said with the pairings."""
    pairs = joined([joined([view.name(p) for p in seats], " – ") for seats in tables], ", ")
    return tn(
        "🔁 {n} rematch could not be avoided this round: {pairs}",
        "🔁 {n} rematches could not be avoided this round: {pairs}",
        n=len(tables),
        pairs=pairs,
    )


def pairings_pages(view: TournamentView, round_no: int, language: str = ENGLISH) -> list[str]:
    """A round's tables and byes in ``language``, a page at most PAIRINGS_A_PAGE lines and
    within an embed's description; rebuilt from the store on every page click."""
    lines: list[Text] = []
    heading = None
    for table in sorted((x for x in view.tables if x.round == round_no), key=lambda x: x.table_no):
        group = table.bracket_id or ""
        if group.startswith("group-") and group != heading:
            # A group event's tables come group by group: each under its group's name.
            heading = group
            lines.append(t("**Group {n}**", n=int(group.removeprefix("group-"))))
        names = joined([view.name(p) for p in table.seats], t(" vs "))
        if table.thread_id:
            lines.append(
                t(
                    "**T{table}** {names} · <#{thread}>",
                    table=table.table_no,
                    names=names,
                    thread=table.thread_id,
                )
            )
        else:
            lines.append(t("**T{table}** {names}", table=table.table_no, names=names))
    rests = view.format.bye == "rest"
    byes = sorted(
        (r for r in view.results if r.round == round_no and r.kind == "bye"),
        key=lambda r: r.table_no,
    )
    for r in byes:
        name = view.name(r.players[0])
        lines.append(
            t("☕ {name} rests this round", name=name)
            if rests
            else t("☕ {name} has the bye", name=name)
        )
    lines += [
        t("⏳ {name} waits for an opponent to come through", name=view.name(q))
        for q in view.format.waiting(view.progress, round_no)
    ]
    if view.format.shows_rematches:
        earlier = [r for r in view.results if r.round < round_no]
        swiss = [x for x in view.tables if x.round == round_no and x.bracket_id is None]
        if rematches := rematches_in(earlier, swiss):
            lines.append(rematch_line(view, rematches))
    pages: list[list[str]] = []
    for line in (render.clip(say(line, language), 400) for line in lines):
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


def game_score(view: TournamentView, table: TournamentTable) -> Text:
    """A best-of-three table's games so far: ``Ana 1–0 Ben`` (drawn games after)."""
    score = bo.score(table.seats, [game.winner for game in table.games])
    a, b = table.seats
    said = {"a": view.name(a), "x": score.wins[0], "y": score.wins[1], "b": view.name(b)}
    if score.draws:
        return tn("{a} {x}–{y} {b}, {n} drawn", "{a} {x}–{y} {b}, {n} drawn", n=score.draws, **said)
    return t("{a} {x}–{y} {b}", **said)


def standings_title(
    view: TournamentView, round_no: int, *, final: bool, during: bool = False
) -> Text:
    """``during``: round ``round_no`` is still being played (its results so far count)."""
    game = view.game.name
    if final:
        return t("{game} · final standings", game=game)
    if round_no == 0:  # asked during sign-up: there is no "round 0"
        return t("{game} · standings before round 1", game=game)
    if during:
        return t("{game} · standings during round {round}", game=game, round=round_no)
    return t("{game} · standings after round {round}", game=game, round=round_no)


def standings_embed(
    view: TournamentView,
    round_no: int,
    *,
    final: bool,
    next_round_at: float | None = None,
    during: bool = False,
    language: str = ENGLISH,
) -> discord.Embed:
    """The standings; between rounds, when the next one starts (``next_round_at``)."""
    title = "🏆 " + say(standings_title(view, round_no, final=final, during=during), language)
    grouped = None if final else group_lines(view, round_no)
    lines: list[Text] = grouped or standing_lines(view, view.standings)
    if grouped is None and len(view.standings) > STANDINGS_SHOWN:
        lines.append(more_line(len(view.standings) - STANDINGS_SHOWN))
    paragraphs: list[Text] = []
    if next_round_at is not None:
        paragraphs.append(
            t(
                "⏭️ **Round {round} starts <t:{at}:R>**; the organiser can press **Start now**.",
                round=round_no + 1,
                at=int(next_round_at),
            )
        )
    if view.event.status == "signup":
        paragraphs.append(
            t("Sign-up is open: nothing is played until the organiser presses **Start**.")
        )
        if lines:
            paragraphs.append(joined(lines))
    else:
        paragraphs.append(joined(lines) if lines else t("No results yet."))
    embed = discord.Embed(
        title=render.clip(title, render.TITLE),
        description=render.clip(say(joined(paragraphs, "\n\n"), language), render.DESCRIPTION),
        colour=render.COLOURS["done" if final else "neutral"],
    )
    names = [name for name, _ in view.standings[0].tiebreakers] if view.standings else []
    if words := tiebreak_words(names[: shown_breakers(view)]):
        embed.set_footer(text=say(words, language))
    return embed


# --- /tournament log ---------------------------------------------------------------------------
PACE_WORDS = {
    "live": t("live pace"),
    "casual": t("casual pace"),
    "async": t("async pace"),
    "correspondence": t("correspondence pace"),
    "custom": t("custom pace"),
}


def log_line(row: AuditRecord) -> Text:
    """One line of /tournament log: when, who, and what they did, in words."""
    after: dict[str, Any] = json.loads(row.after)
    said: dict[str, Any] = {"at": int(row.at), "actor": row.actor_name}
    name = str(after.get("name", ""))
    action = row.action
    if action == "pause":
        return t("<t:{at}:f> **{actor}** paused the tournament", **said)
    if action == "resume":
        return t("<t:{at}:f> **{actor}** let the tournament go on", **said)
    if action == "end":
        return t("<t:{at}:f> **{actor}** ended the tournament", **said)
    if action == "cancel":
        return t("<t:{at}:f> **{actor}** cancelled the tournament", **said)
    if action == "drop":
        return t("<t:{at}:f> **{actor}** dropped {name}", name=name, **said)
    if action == "undrop":
        return t("<t:{at}:f> **{actor}** took {name} back in", name=name, **said)
    if action == "disqualify":
        return t("<t:{at}:f> **{actor}** disqualified {name}", name=name, **said)
    if action in ("add bot", "add player"):
        return t("<t:{at}:f> **{actor}** added {name}", name=name, **said)
    if action == "create":
        return t(
            "<t:{at}:f> **{actor}** created the tournament: {settings}",
            settings=config_words(after),
            **said,
        )
    if action == "start":
        return tn(
            "<t:{at}:f> **{actor}** started the tournament with {n} player",
            "<t:{at}:f> **{actor}** started the tournament with {n} players",
            n=int(after.get("players", 0)),
            **said,
        )
    if action == "start now":
        return t(
            "<t:{at}:f> **{actor}** started round {round} early",
            round=int(after.get("round") or 0),
            **said,
        )
    if action == "set result":
        return t(
            "<t:{at}:f> **{actor}** set the result of round {round}, table {table}: {result}",
            round=int(after.get("round") or 0),
            table=int(after.get("table") or 0),
            result=str(after.get("result")),
            **said,
        )
    if action == "re-pair":
        return t(
            "<t:{at}:f> **{actor}** paired round {round} again",
            round=int(after.get("round") or 0),
            **said,
        )
    if action == "extend":
        return t(
            "<t:{at}:f> **{actor}** gave table {table} until <t:{until}:f>",
            table=int(after.get("table") or 0),
            until=int(after.get("until") or 0),
            **said,
        )
    # an action of a later version: its name and stored values, as they are
    shown = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in after.items() if v is not None)
    what = f"{action}: {shown}" if shown else action
    return t("<t:{at}:f> **{actor}** {what}", what=plain(what), **said)


def config_words(after: dict[str, Any]) -> Text:
    """An event's settings as the organiser chose them, in words: only what is set."""
    try:
        config = TournamentConfig.model_validate(after)
    except ValueError:
        return t("settings of an older version")
    parts = [format_class(config.format).label]
    if config.rounds:
        parts.append(tn("{n} round", "{n} rounds", n=config.rounds))
    parts.append(PACE_WORDS[config.pace])
    if config.best_of > 1:
        parts.append(t("tables best of {n}", n=config.best_of))
    if config.top_cut:
        parts.append(t("top {n} play on", n=config.top_cut))
    if config.checkin:
        parts.append(t("check-in"))
    if config.seeding == "rating":
        parts.append(t("seeded by rating"))
    return joined(parts, render.COMMA)
