"""Panels and records -> embeds and component layouts. No rules and no I/O here."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.service.decks import MINE
from bot.store import MatchRecord, SeatRecord
from bot.store.tournament_records import EntrantRecord
from bot.timing import MatchSettings
from games.core.levels import LEVEL_NAMES
from games.core.options import choice_text, describe, summary, switches
from games.core.panels import Panel
from games.core.protocol import Decision, Game, Option, SeatChoosing
from games.core.words import bullets

COLOURS = {
    "neutral": discord.Colour.from_rgb(201, 146, 84),  # cookie brown
    "turn": discord.Colour.from_rgb(88, 160, 96),
    "battle": discord.Colour.from_rgb(214, 78, 66),
    "done": discord.Colour.from_rgb(230, 180, 40),
}

# Discord's limits (an embed over them is an HTTP 400 "Invalid Form Body").
TITLE, DESCRIPTION, FIELDS, FIELD_NAME, FIELD_VALUE, FOOTER, EMBEDS_TOTAL = (
    256,
    4096,
    25,
    256,
    1024,
    2048,
    6000,
)
ROWS, BUTTONS_PER_ROW, SELECT_OPTIONS, LABEL, SELECT_LABEL = 5, 5, 25, 80, 100
CONTENT = 2000  # a message's text


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


MEDALS = {1: "🥇", 2: "🥈", 3: "🥉"}


def place_mark(place: int, places: Sequence[int]) -> str:
    """A result's place as shown: a medal for the first three, its number below them.
    Ties share a place; a last place several share (everyone the game did not tell apart:
    the losers of a one-round Toss) takes no medal, since nobody came second."""
    shared_last = place > 1 and place == max(places) and list(places).count(place) > 1
    return f"{place}." if shared_last or place not in MEDALS else MEDALS[place]


def jump_link(record: MatchRecord) -> str | None:
    if record.message_id is None:
        return None
    return f"https://discord.com/channels/{record.guild_id}/{record.channel_id}/{record.message_id}"


def embed_from_panel(panel: Panel) -> discord.Embed:
    embed = discord.Embed(
        title=clip(panel.title, TITLE),
        description=clip(panel.description, DESCRIPTION) or None,
        colour=COLOURS[panel.accent],
    )
    budget = EMBEDS_TOTAL - len(embed.title or "") - len(embed.description or "") - 200
    for field in panel.fields[:FIELDS]:
        name, value = clip(field.name, FIELD_NAME), clip(field.value or "\u200b", FIELD_VALUE)
        if len(name) + len(value) > budget:
            break
        budget -= len(name) + len(value)
        embed.add_field(name=name, value=value, inline=field.inline)
    if panel.footer:
        embed.set_footer(text=clip(panel.footer, min(FOOTER, max(budget, 0) + 150)))
    return embed


# --- lobby ---------------------------------------------------------------------------------
def problem_lines(problems: list[str]) -> str:
    """What keeps a deck from play, one bullet a line."""
    return bullets(problems)


def deck_picked(name: str, problems: list[str]) -> str:
    """A player's own deck picked for a table, with what keeps a draft from Start."""
    text = f"You play **{name}** at this table."
    if problems:
        text += (
            " It is a draft, so the match cannot start with it until it is fixed:\n"
            + problem_lines(problems)
            + "\nFix it with /deck import under the same name, or pick another with "
            "**Choose deck**."
        )
    return clip(text, CONTENT)


def pace_line(record: MatchRecord) -> str:
    return MatchSettings.model_validate_json(record.settings or "{}").pace_label


def deadline_lines(record: MatchRecord, deadlines: dict[int, float]) -> str:
    """Discord timestamps: every reader sees the deadline in their own time zone."""
    names = {s.seat: s.name for s in record.seats}
    return "\n".join(
        f"{names.get(seat, seat)} — <t:{int(due)}:R>" for seat, due in sorted(deadlines.items())
    )


def seat_name(seat: SeatRecord | EntrantRecord) -> str:
    """A seat (or a tournament's entrant) as the lobby and the table's lines name it: a bot
    with its level."""
    return f"{seat.name} ({LEVEL_NAMES[seat.level]})" if seat.is_bot else seat.name


def bot_levels(record: MatchRecord) -> str:
    """The match's bots and how hard each plays ("🤖 Abe (Hard), 🤖 Bea (Easy)"), or ""."""
    return ", ".join(seat_name(s) for s in record.seats if s.is_bot)


def lobby_embed(record: MatchRecord, game: Game) -> discord.Embed:
    seats = (
        "\n".join(
            f"{s.seat + 1}. {seat_name(s)}" + (" · host" if s.user_id == record.host_id else "")
            for s in record.seats
        )
        or "*nobody yet*"
    )
    options = game.load_options(record.options)  # type: ignore[attr-defined]
    embed = discord.Embed(
        title=f"🍪 {game.name} · lobby",
        description=(
            f"Hosted by <@{record.host_id}>. Press **Join** to take a seat. The host can add "
            f"bots, pick the options and **Start** with {player_count(game)}."
        ),
        colour=COLOURS["neutral"],
    )
    if isinstance(game, SeatChoosing) and record.seats:
        seats = "\n".join(
            f"{line} · {seat_pick(record, game, seat)}"
            for line, seat in zip(seats.splitlines(), record.seats, strict=True)
        )
        if any(unpicked(record, seat) for seat in record.seats):
            seats += f"\n*Pick yours with **{game.seat_choice.title}**.*"
    embed.add_field(name=f"Seats ({len(record.seats)}/{game.max_players})", value=seats)
    embed.add_field(name="Options", value=summary(options) or "standard rules", inline=False)
    embed.add_field(name="Pace", value=pace_line(record), inline=False)
    embed.set_footer(text="/rules explains the game · Only the host or Manage Server can start.")
    return embed


def player_count(game: Game) -> str:
    """ "2 players" for a game of two, "2–6 players" for a range: never "2–2"."""
    low, high = game.min_players, game.max_players
    return f"{low} players" if low == high else f"{low}–{high} players"


def unpicked(record: MatchRecord, seat: SeatRecord) -> bool:
    """A person's seat still playing the ready choice it was given, not one they picked."""
    picks = MatchSettings.model_validate_json(record.settings or "{}").picks
    return seat.user_id is not None and seat.user_id not in picks


def seat_pick(record: MatchRecord, game: SeatChoosing, seat: SeatRecord) -> str:
    """What the seat plays: its player's pick, else the ready list it gets (said so)."""
    picks = MatchSettings.model_validate_json(record.settings or "{}").picks
    ready = dict(game.seat_choice.ready)
    value = picks.get(seat.user_id) if seat.user_id is not None else None
    if value is None:
        chosen = ready.get(game.default_choice(seat.seat), "?")
        return f"{chosen} (ready {game.seat_choice.noun}" + (
            ")" if seat.user_id is None else ", none chosen)"
        )
    if value.startswith(MINE):
        return f"{game.seat_choice.noun} '{value.removeprefix(MINE)}'"
    return ready.get(value, value)


def closed_embed(record: MatchRecord, game: Game) -> discord.Embed:
    return discord.Embed(
        title=f"🍪 {game.name}",
        description="This match was cancelled. Start a new one with /play.",
        colour=COLOURS["neutral"],
    )


SWITCHES = "_switches"  # the one multi-select holding every on/off rule of a game
PACE = "_pace"  # how long a move may take: a setting of the match, not a rule of the game
MORE = "_more"  # choice fields that find no row of their own share one select: field=value
LOBBY_SELECTS = ROWS - 1  # the lobby's buttons take one row


def titled(title: str, label: str) -> str:
    """ "Stack: Stack of 39" says its title twice: a label that names it stands alone. A
    title's aside in brackets ("Modifier round (live)") is not needed for the match."""
    named = title.split(" (")[0].lower()
    return label if label.lower().startswith(named) else f"{title}: {label}"


def option_select_choices(
    record: MatchRecord, game: Game, rows: int = LOBBY_SELECTS
) -> list[tuple[str, list[tuple[str, str, bool, str]]]]:
    """One entry per select: ``(field, [(value, label, is_current, description)])``.

    Choice fields get a select each; all on/off rules share one multi-select, ``SWITCHES``.
    """
    current = game.load_options(record.options)  # type: ignore[attr-defined]
    on_off = switches(game.options_model)
    selects = [
        (
            field.name,
            [
                (
                    c.value,
                    titled(field.title, c.label),
                    c.value == choice_text(current, field.name),
                    field.description,
                )
                for c in field.choices
            ],
        )
        for field in describe(game.options_model)
        if field not in on_off
    ]
    if on_off:
        selects.append(
            (
                SWITCHES,
                [(f.name, f.title, bool(getattr(current, f.name)), f.description) for f in on_off],
            )
        )
    settings = MatchSettings.model_validate_json(record.settings or "{}")
    selects.append(
        (PACE, [(k, f"Pace: {v}", k == settings.pace, "") for k, v in settings.pace_choices()])
    )
    return fit_selects(selects, rows)


def fit_selects(
    selects: list[tuple[str, list[tuple[str, str, bool, str]]]], rows: int = LOBBY_SELECTS
) -> list[tuple[str, list[tuple[str, str, bool, str]]]]:
    """At most ``rows`` selects: when a game has more choice fields than rows, its last ones
    share one select (``MORE``, values ``field=value``), so the rules and the pace keep
    their own."""
    if len(selects) <= rows:
        return selects
    own = [s for s in selects if s[0] not in (SWITCHES, PACE)]
    tail = [s for s in selects if s[0] in (SWITCHES, PACE)]
    keep = max(0, rows - len(tail) - 1)
    shared = [
        (f"{name}={value}", label, current, description)
        for name, choices in own[keep:]
        for value, label, current, description in choices
    ]
    return [*own[:keep], (MORE, shared[:SELECT_OPTIONS]), *tail]


# --- decisions -------------------------------------------------------------------------------
def grouped(decision: Decision) -> list[tuple[str, list[tuple[int, Option]]]]:
    groups: dict[str, list[tuple[int, Option]]] = {}
    for index, option in enumerate(decision.options):
        groups.setdefault(option.group or "Choose", []).append((index, option))
    return list(groups.items())


def layout(
    decision: Decision, rows_available: int = ROWS - 1
) -> list[tuple[str, str, list[tuple[int, Option]]]]:
    """Plan the rows for a decision: ``(kind, title, options)`` with kind button|select|multi.

    Best: a group of up to five options is a row of buttons, a bigger one a select of up to
    25. If that needs more rows than there are, neighbouring groups share rows; if even that
    does not fit, all the moves share selects of 25, in order. Nothing is ever left out
    below 25 options a row.
    """
    if decision.max_picks > 1:
        chunk = list(enumerate(decision.options))[:SELECT_OPTIONS]
        return [("multi", decision.prompt, chunk)]
    groups = grouped(decision)
    plan: list[tuple[str, str, list[tuple[int, Option]]]] = []
    for title, options in groups:
        # Buttons cannot show a description: moves that carry one go in a select.
        if len(options) <= BUTTONS_PER_ROW and not any(o.description for _, o in options):
            plan.append(("button", title, options))
        else:
            plan += [("select", title, part) for part in chunks(options)]
    if len(plan) <= rows_available:
        return plan
    plan = merged(plan, rows_available)
    if len(plan) <= rows_available:
        return plan
    everything = [pair for _, options in groups for pair in options]
    return [("select", "Your moves", part) for part in chunks(everything)][:rows_available]


def select_choices(options: list[tuple[int, Option]], picks: int) -> list[tuple[str, str, str]]:
    """A select's ``(value, label, description)`` rows, at most 25, each naming one of the
    decision's options by its number. Identical cards (the same action) say how many are
    held; in a pick of one they are one row ("⚫ Chocolate Sandwich ×2"), in a pick of
    several one row a card, up to ``picks`` of them: a row is one card, so the select
    itself asks for exactly the number of cards due (Discord counts rows, not cards)."""
    same: dict[str, list[tuple[int, Option]]] = {}
    for index, option in options:
        same.setdefault(option.action.encode(), []).append((index, option))
    rows = []
    for copies in same.values():
        first = copies[0][1]
        held = len(copies)
        note = f"You hold {held}." if held > 1 else ""
        description = " ".join(t for t in (first.description, note) if t)
        if picks == 1:
            rows.append(
                (str(copies[0][0]), first.label + (f" ×{held}" if held > 1 else ""), description)
            )
            continue
        for number, (index, option) in enumerate(copies[:picks], start=1):
            label = option.label
            if number > 1 and label == first.label:  # the game did not tell copies apart
                label = f"{label} ({number})"
            rows.append((str(index), label, description))
    return rows[:SELECT_OPTIONS]


def merged(
    plan: list[tuple[str, str, list[tuple[int, Option]]]], rows: int
) -> list[tuple[str, str, list[tuple[int, Option]]]]:
    """Neighbouring groups share a row, the smallest pair first, until the plan fits: a
    row of buttons while five fit, else a select of up to 25, titled by both groups (a
    Braverse Main Phase has six groups for four rows)."""
    plan = list(plan)
    while len(plan) > rows:
        pairs = [
            (len(plan[i][2]) + len(plan[i + 1][2]), i)
            for i in range(len(plan) - 1)
            if len(plan[i][2]) + len(plan[i + 1][2]) <= SELECT_OPTIONS
        ]
        if not pairs:
            break
        size, i = min(pairs)
        kind = "button" if size <= BUTTONS_PER_ROW else "select"
        plan[i : i + 2] = [(kind, f"{plan[i][1]} · {plan[i + 1][1]}", plan[i][2] + plan[i + 1][2])]
    return plan


def chunks(options: list[tuple[int, Option]]) -> list[list[tuple[int, Option]]]:
    return [options[i : i + SELECT_OPTIONS] for i in range(0, len(options), SELECT_OPTIONS)]


def button_style(style: str) -> discord.ButtonStyle:
    return getattr(discord.ButtonStyle, style, discord.ButtonStyle.secondary)


def paged(text: str, title: str, footer: str) -> list[list[discord.Embed]]:
    """Long text as messages of embeds: paragraphs kept whole, every Discord limit kept."""
    pages: list[str] = []
    for paragraph in text.split("\n\n"):
        if pages and len(pages[-1]) + len(paragraph) + 2 <= DESCRIPTION - 96:
            pages[-1] += "\n\n" + paragraph
        else:
            pages.append(clip(paragraph, DESCRIPTION - 96))
    messages: list[list[discord.Embed]] = [[]]
    used = 0
    for number, page in enumerate(pages):
        embed = discord.Embed(
            title=title if number == 0 else None, description=page, colour=COLOURS["neutral"]
        )
        size = len(page) + len(title)
        if messages[-1] and used + size > EMBEDS_TOTAL - len(footer) - 100:
            messages.append([])
            used = 0
        messages[-1].append(embed)
        used += size
    messages[-1][-1].set_footer(text=footer)
    return messages
