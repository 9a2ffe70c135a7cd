"""Panels and records -> embeds and component layouts. No rules and no I/O here."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.service.decks import MINE
from bot.store import MatchRecord, SeatRecord
from bot.store.tournament_records import EntrantRecord
from bot.timing import MatchSettings
from cogs.speech import say
from games.core.levels import LEVEL_NAMES
from games.core.options import choice_text, describe, summary, switches
from games.core.panels import Panel
from games.core.protocol import Decision, Game, Option, SeatChoosing
from games.core.text import Text, joined, plain, t, tc, tn

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


def embed_from_panel(panel: Panel, language: str) -> discord.Embed:
    """A game's panel as an embed in ``language``, inside every limit Discord sets."""
    embed = discord.Embed(
        title=clip(say(panel.title, language), TITLE),
        description=clip(say(panel.description, language), DESCRIPTION) or None,
        colour=COLOURS[panel.accent],
    )
    budget = EMBEDS_TOTAL - len(embed.title or "") - len(embed.description or "") - 200
    for field in panel.fields[:FIELDS]:
        name = clip(say(field.name, language), FIELD_NAME)
        value = clip(say(field.value, language) or "\u200b", FIELD_VALUE)
        if len(name) + len(value) > budget:
            break
        budget -= len(name) + len(value)
        embed.add_field(name=name, value=value, inline=field.inline)
    if panel.footer:
        footer = say(panel.footer, language)
        embed.set_footer(text=clip(footer, min(FOOTER, max(budget, 0) + 150)))
    return embed


# --- lobby ---------------------------------------------------------------------------------
def lines(texts: list[str], language: str) -> str:
    """Lines, each a sentence of its own, rendered and put one under the other."""
    return "\n".join(say(text, language) for text in texts)


def bullets(texts: list[str], language: str) -> str:
    """One bullet a line ("• ..."), each rendered."""
    return "\n".join(say(t("• {line}", line=text), language) for text in texts)


def problem_lines(problems: list[str], language: str) -> str:
    """What keeps a deck from play, one bullet a line."""
    return bullets(problems, language)


def deck_picked(name: str, problems: list[str], language: str) -> str:
    """A player's own deck picked for a table, with what keeps a draft from Start."""
    if not problems:
        return clip(say(t("You play **{deck}** at this table.", deck=name), language), CONTENT)
    said = [
        say(
            t(
                "You play **{deck}** at this table. It is a draft, so the match cannot start "
                "with it until it is fixed:",
                deck=name,
            ),
            language,
        ),
        problem_lines(problems, language),
        say(
            t(
                "Fix it with /deck import under the same name, or pick another with "
                "**Choose deck**."
            ),
            language,
        ),
    ]
    return clip("\n".join(said), CONTENT)


def pace_line(record: MatchRecord) -> str:
    return MatchSettings.model_validate_json(record.settings or "{}").pace_label


def deadline_lines(record: MatchRecord, deadlines: dict[int, float]) -> Text:
    """Discord timestamps: every reader sees the deadline in their own time zone."""
    names = {s.seat: s.name for s in record.seats}
    return stacked(
        [
            t("{name} — <t:{due}:R>", name=names.get(seat, str(seat)), due=int(due))
            for seat, due in sorted(deadlines.items())
        ]
    )


def stacked(texts: Sequence[str]) -> Text:
    """Lines, each a whole sentence of its own, one under the other, as one Text (a panel's
    field holds one): each line is rendered in the reader's language."""
    return joined(texts, "\n")


def commas(items: Sequence[str]) -> Text:
    """Names or Texts one after another, comma-separated the reader's way ("Ana, Ben";
    "Ana、Ben"): a series, not a sentence's list."""
    return joined(items, COMMA)


def spaced(items: Sequence[str]) -> Text:
    """Texts side by side, a space apart (mentions, one after another)."""
    return joined(items, " ")


def dotted(items: Sequence[str]) -> Text:
    """Parts of one line kept apart by a middle dot ("🥇1st ×3 · 🥈2nd ×1")."""
    return joined(items, " · ")


# A series' separator, which each language writes its own way ("、" in Japanese).
COMMA = tc("separator", ", ")


def seat_name(seat: SeatRecord | EntrantRecord) -> Text:
    """A seat (or a tournament's entrant) as the lobby and the table's lines name it: a bot
    with its level."""
    if seat.is_bot:
        return t("{name} ({level})", name=seat.name, level=LEVEL_NAMES[seat.level])
    return plain(seat.name)


def bot_levels(record: MatchRecord) -> Text:
    """The match's bots and how hard each plays ("🤖 Abe (Hard), 🤖 Bea (Easy)")."""
    return commas([seat_name(s) for s in record.seats if s.is_bot])


def lobby_embed(record: MatchRecord, game: Game, language: str) -> discord.Embed:
    rows: list[Text] = []
    for s in record.seats:
        if s.user_id == record.host_id:
            row = t("{number}. {name} · host", number=s.seat + 1, name=seat_name(s))
        else:
            row = t("{number}. {name}", number=s.seat + 1, name=seat_name(s))
        if isinstance(game, SeatChoosing):
            row = t("{seat} · {pick}", seat=row, pick=seat_pick(record, game, s))
        rows.append(row)
    seats = lines(rows, language) or say(t("*nobody yet*"), language)
    if isinstance(game, SeatChoosing) and any(unpicked(record, seat) for seat in record.seats):
        seats += "\n" + say(
            t("*Pick yours with **{select}**.*", select=game.seat_choice.title), language
        )
    options = game.load_options(record.options)  # type: ignore[attr-defined]
    embed = discord.Embed(
        title=say(t("🍪 {game} · lobby", game=game.name), language),
        description=say(
            t(
                "Hosted by <@{host}>. Press **Join** to take a seat. The host can add bots, "
                "pick the options and **Start** with {players}.",
                host=record.host_id,
                players=player_count(game),
            ),
            language,
        ),
        colour=COLOURS["neutral"],
    )
    embed.add_field(
        name=say(
            t("Seats ({taken}/{most})", taken=len(record.seats), most=game.max_players), language
        ),
        value=clip(seats, FIELD_VALUE),
    )
    rules = summary(options)
    embed.add_field(
        name=say(t("Options"), language),
        value=clip(
            say(rules, language) if rules else say(t("standard rules"), language), FIELD_VALUE
        ),
        inline=False,
    )
    embed.add_field(
        name=say(t("Pace"), language), value=say(pace_line(record), language), inline=False
    )
    embed.set_footer(
        text=say(
            t("/rules explains the game · Only the host or Manage Server can start."), language
        )
    )
    return embed


def player_count(game: Game) -> Text:
    """ "2 players" for a game of two, "2–6 players" for a range: never "2–2"."""
    low, high = game.min_players, game.max_players
    if low == high:
        return tn("{n} player", "{n} players", n=low)
    return t("{low}–{high} players", low=low, high=high)


def unpicked(record: MatchRecord, seat: SeatRecord) -> bool:
    """A person's seat still playing the ready choice it was given, not one they picked."""
    picks = MatchSettings.model_validate_json(record.settings or "{}").picks
    return seat.user_id is not None and seat.user_id not in picks


def seat_pick(record: MatchRecord, game: SeatChoosing, seat: SeatRecord) -> Text:
    """What the seat plays: its player's pick, else the ready list it gets (said so)."""
    picks = MatchSettings.model_validate_json(record.settings or "{}").picks
    ready = dict(game.seat_choice.ready)
    value = picks.get(seat.user_id) if seat.user_id is not None else None
    noun = game.seat_choice.noun
    if value is None:
        chosen = ready.get(game.default_choice(seat.seat), "?")
        if seat.user_id is None:
            return t("{choice} (ready {noun})", choice=chosen, noun=noun)
        return t("{choice} (ready {noun}, none chosen)", choice=chosen, noun=noun)
    if value.startswith(MINE):
        return t("{noun} '{name}'", noun=noun, name=value.removeprefix(MINE))
    return _as_text(ready[value]) if value in ready else plain(value)


def _as_text(words: str) -> Text:
    return words if isinstance(words, Text) else plain(words)


def game_words(words: str) -> Text:
    """A game's words as an argument: a Text as it is; an older plain line (a stored
    match's) is the game's English, shown as written."""
    return _as_text(words)


def closed_embed(record: MatchRecord, game: Game, language: str) -> discord.Embed:
    return discord.Embed(
        title=say(t("🍪 {game}", game=game.name), language),
        description=say(t("This match was cancelled. Start a new one with /play."), language),
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
    return (
        label
        if label.lower().startswith(named)
        else t("{title}: {label}", title=title, label=label)
    )


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
        (
            PACE,
            [
                (k, t("Pace: {pace}", pace=v), k == settings.pace, "")
                for k, v in settings.pace_choices()
            ],
        )
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
CHOOSE = tc("select", "Choose")  # a decision's moves that name no group of their own


def grouped(decision: Decision) -> list[tuple[str, list[tuple[int, Option]]]]:
    groups: dict[str, list[tuple[int, Option]]] = {}
    for index, option in enumerate(decision.options):
        groups.setdefault(option.group or CHOOSE, []).append((index, option))
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
    moves = t("Your moves")
    return [("select", moves, part) for part in chunks(everything)][:rows_available]


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
        description: str = first.description
        if held > 1:
            note = tn("You hold {n}.", "You hold {n}.", n=held)
            description = (
                t("{description} {note}", description=first.description, note=note)
                if first.description
                else note
            )
        if picks == 1:
            label = t("{label} ×{n}", label=first.label, n=held) if held > 1 else first.label
            rows.append((str(copies[0][0]), label, description))
            continue
        for number, (index, option) in enumerate(copies[:picks], start=1):
            label = option.label
            if number > 1 and label == first.label:  # the game did not tell copies apart
                label = t("{label} ({n})", label=label, n=number)
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
        both = t("{first} · {second}", first=plan[i][1], second=plan[i + 1][1])
        plan[i : i + 2] = [(kind, both, plan[i][2] + plan[i + 1][2])]
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
