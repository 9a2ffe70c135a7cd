"""Cookie Chomper pictures: the table and a hand, drawn from a view (never the state).

The table shows the Stack token by token (top first, the poison or golden cookie where it
lies, the tokens this turn's number would take ringed), or in Cookie Hoarder the face-down
Stack and what is left in it; the cards played this turn and the Produced Number; every
player's hand size, points and whether they are out; the Played Cards Pile and the bandits'
pile. Tokens differ by mark as well as colour: chips, a skull, a star, a mask, a "?".
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from games.chomper.cards import ChomperCards
from games.chomper.queue import produced
from games.chomper.state import COOKIE, GOLDEN, POISON, Entry
from games.chomper.view import MODE_TITLES, ChomperView
from games.core.pictures import (
    PAD,
    PALETTE,
    RGB,
    WIDTH,
    Box,
    Canvas,
    backs,
    cards_section,
    empty_slot,
    grid,
    grid_height,
    header,
    player_band,
    ribbon,
    section_height,
)
from games.core.text import Names, Text, joined, t, tn
from games.core.translations import ENGLISH, render

HEADER = 92
TOKEN = 24
TOKEN_STEP = 30
TOKENS_A_ROW = 25
GAP = 12
TILE_COLUMNS = 3
TILE_H = 84
QUEUE_COLUMNS = 6
QUEUE_H = 96
PILE_SHOWN = 6
HAND_COLUMNS = 3
CARD_H = 180

INK: RGB = (34, 30, 28)
ACTIVE = t("ACTIVE PLAYER")
# A mark for each action the font can draw (the cards' emoji have no glyph in it).
MARKS = {
    "add": "+",
    "subtract": "−",
    "multiply": "×",
    "double": "×2",
    "negate": "±",
    "reverse": "↩",
    "opposites": "≠",
    "again": "↻",
    "veto": "⊘",
    "copy": "≡",
    "flip": "⇅",
    "roll": "⚄",
    "seek": "◎",
    "skip": "»",
    "mulligan": "♻",
}


# --- tokens ------------------------------------------------------------------------------
def token(canvas: Canvas, centre: tuple[int, int], size: int, kind: str) -> None:
    """One token: a cookie (chips), the poison (a skull), the golden cookie (a star), a
    bandit (a mask) or a face-down token ("?")."""
    cx, cy = centre
    r = size // 2
    box = (cx - r, cy - r, cx + r, cy + r)
    fill, mark, ink = {
        COOKIE: ((214, 160, 92), "", INK),
        POISON: ((120, 40, 150), "☠", (255, 255, 255)),
        GOLDEN: ((246, 196, 40), "★", INK),
        "b": ((70, 70, 80), "", (255, 255, 255)),
        "?": ((120, 124, 140), "?", (255, 255, 255)),
    }[kind]
    canvas.draw.ellipse(box, fill=fill, outline=(20, 20, 24), width=2)
    if kind == COOKIE:
        chip = max(1, size // 10)
        for dx, dy in ((-0.2, -0.15), (0.18, -0.05), (-0.05, 0.22)):
            x, y = cx + dx * size, cy + dy * size
            canvas.draw.ellipse((x - chip, y - chip, x + chip, y + chip), fill=(70, 42, 30))
    elif kind == "b":  # a bandit's mask: a dark band with two eyes
        band = (cx - r + 2, cy - size // 7, cx + r - 2, cy + size // 7)
        canvas.draw.rectangle(band, fill=(20, 20, 24))
        eye = max(1, size // 9)
        for dx in (-size // 5, size // 5):
            canvas.draw.ellipse((cx + dx - eye, cy - eye, cx + dx + eye, cy + eye), fill=ink)
    if mark:
        canvas.text(centre, mark, int(size * 0.7), ink, bold=True, anchor="mm")


def stack_section(canvas: Canvas, view: ChomperView, y: int, language: str = ENGLISH) -> int:
    """The Stack, top first, in rows; returns the y under it."""
    if view.stack is None:
        left = view.stack_left
        kinds = ["?"] * sum(left.values())
        title = tn("Stack: {n} token, face down", "Stack: {n} tokens, face down", n=len(kinds))
    else:
        kinds = list(view.stack)
        title = tn("Stack: {n} token, top first", "Stack: {n} tokens, top first", n=len(kinds))
    canvas.text((PAD + 4, y), render(title, language), 18, PALETTE.text, bold=True)
    taking = view.amount if view.queue and view.stack is not None and not view.no_number else 0
    # A Flip settles before the cookies are taken: an odd number of them takes from the end
    flipped = produced(view.queue).flips % 2 == 1
    if taking:
        if taking < 0:
            words = t("This turn gives back {n}", n=-taking)
        elif flipped:
            words = t("This turn takes {n} from the bottom (flipped)", n=taking)
        else:
            words = t("This turn takes {n}", n=taking)
        canvas.text(
            (WIDTH - PAD - 4, y + 2),
            render(words, language),
            16,
            PALETTE.accent,
            bold=True,
            anchor="ra",
        )
    y += 30
    if not kinds:
        canvas.text((PAD + 4, y + 4), render(t("Empty."), language), 15, PALETTE.muted)
    for index, kind in enumerate(kinds):
        row, column = divmod(index, TOKENS_A_ROW)
        centre = (PAD + 4 + TOKEN // 2 + column * TOKEN_STEP, y + TOKEN // 2 + row * TOKEN_STEP)
        token(canvas, centre, TOKEN, "b" if kind.startswith("b") else kind)
        if (len(kinds) - 1 - index if flipped else index) < taking:  # what the number takes
            r = TOKEN // 2 + 3
            ring = (centre[0] - r, centre[1] - r, centre[0] + r, centre[1] + r)
            canvas.draw.ellipse(ring, outline=PALETTE.accent, width=3)
    y += tokens_height(view)
    if view.stack is None:
        y = left_row(canvas, view, y, language)
    return y


def tokens_height(view: ChomperView) -> int:
    size = len(view.stack) if view.stack is not None else sum(view.stack_left.values())
    return grid_height(size, TOKENS_A_ROW, TOKEN_STEP, 0)


def left_row(canvas: Canvas, view: ChomperView, y: int, language: str = ENGLISH) -> int:
    """Cookie Hoarder: what the face-down Stack still holds, by kind."""
    x = PAD + 4
    for kind in (COOKIE, "b", POISON, GOLDEN):
        count = view.stack_left.get(kind, 0)
        if not count and kind in (POISON, GOLDEN):
            continue
        token(canvas, (x + 10, y + 12), 20, kind)
        said = {
            COOKIE: tn("{n} cookie", "{n} cookies", n=count),
            "b": tn("{n} bandit", "{n} bandits", n=count),
            POISON: t("{n} poison", n=count),
            GOLDEN: t("{n} golden", n=count),
        }[kind]
        text = render(said, language)
        canvas.text((x + 26, y + 3), text, 16, PALETTE.text)
        x += 26 + canvas.measure(text, 16) + 24
    return y + 32


# --- cards -------------------------------------------------------------------------------
def card_face(
    canvas: Canvas,
    cards: ChomperCards,
    card: str,
    box: Box,
    *,
    small: bool = False,
    choice: int | None = None,
    dimmed: bool = False,
    words: Text | str = "",
    language: str = ENGLISH,
) -> None:
    """A number card shows its numbers as big digits in circles (the chosen one filled); an
    action card its mark and its name; ``words`` (in a hand: what the card does) under them."""
    x0, y0, x1, y1 = box
    paper = (150, 146, 138) if dimmed else PALETTE.card
    canvas.draw.rounded_rectangle(box, 10, fill=paper, outline=(60, 56, 52), width=2)
    middle = (x0 + x1) // 2
    cy = y0 + (22 if small else 40)
    if cards.is_number(card):
        numbers = cards.numbers_on(card)
        size = 22 if small else 40
        step = min(size + 6, (x1 - x0 - 12) // len(numbers))
        size = min(size, step - 3)
        left = middle - step * len(numbers) // 2 + step // 2
        for index, number in enumerate(numbers):
            cx = left + index * step
            chosen = choice == number
            ring = (cx - size // 2, cy - size // 2, cx + size // 2, cy + size // 2)
            canvas.draw.ellipse(ring, fill=INK if chosen else None, outline=INK, width=2)
            hue = PALETTE.card if chosen else INK
            canvas.text((cx, cy), str(number), size * 2 // 3, hue, bold=True, anchor="mm")
        name = render(t("Number"), language)
    else:
        mark = MARKS.get(card, "?")
        canvas.text((middle, cy), mark, 24 if small else 40, INK, bold=True, anchor="mm")
        name = render(cards.actions[card].title, language)
    below = cy + (20 if small else 30)
    title = 13 if small else 20
    canvas.text((middle, below), name, title, INK, bold=True, anchor="ma", width=x1 - x0 - 10)
    if words:
        room = max(1, (y1 - below - 40) // 19)
        canvas.paragraph(
            (x0 + 12, below + 32),
            render(words, language),
            15,
            PALETTE.card_muted,
            width=x1 - x0 - 24,
            lines=room,
        )


def hand_words(cards: ChomperCards, card: str) -> Text | str:
    if not cards.is_number(card):
        return cards.brief(card)
    return t("Choose one of its numbers.") if len(card) > 1 else t("Produces this number.")


# --- the table ---------------------------------------------------------------------------
def table_picture(cards: ChomperCards, view: ChomperView, language: str = ENGLISH) -> bytes:
    """The table in ``language``: every word is rendered right where it is drawn."""
    chain = view.options.mode == "chain"
    middle = chain_height() if chain else stack_height(view) + queue_height(view)
    tiles = grid_height(len(view.players), TILE_COLUMNS, TILE_H, GAP)
    canvas = Canvas(HEADER + middle + tiles + 40 + PAD, language=language)
    status = status_text(view)
    header(
        canvas,
        "Cookie Chomper",  # the product's name, as published in every language
        render(MODE_TITLES[view.options.mode], language),
        render(status, language) if status is not None else "",
        PALETTE.good if view.over else PALETTE.accent,
    )
    y = HEADER
    if chain:
        y = chain_section(canvas, cards, view, y, language)
    else:
        y = stack_section(canvas, view, y, language) + 8
        y = queue_section(canvas, cards, view, y, language)
    for seat, box in enumerate(grid(len(view.players), TILE_COLUMNS, y, TILE_H, gap=GAP)):
        tile(canvas, view, seat, box, language)
    y += tiles
    piles_row(canvas, cards, view, y, language)
    return canvas.png()


def stack_height(view: ChomperView) -> int:
    return 30 + tokens_height(view) + (32 if view.stack is None else 0) + 8


def queue_height(view: ChomperView) -> int:
    if view.queue:
        return section_height(len(view.queue), QUEUE_COLUMNS, QUEUE_H + 18) + 34
    return 34 if view.last_trail else 0


def chain_height() -> int:
    return 34 + 130 + GAP


def status_text(view: ChomperView) -> Text | None:
    names = [p.name for p in view.players]
    if view.over:
        return t("Game over. {result}", result=view.result)
    if not view.to_move:
        return None
    deciding = Names(names[s] for s in view.to_move)
    if view.options.mode == "chain":
        return t("{names}: play on the chain.", names=deciding)
    if view.phase == "round":
        return t("Modifier round: {names} may play a modifier or pass.", names=deciding)
    if view.to_move == (view.turn,):
        return t("{names} plays a card.", names=deciding)
    return t("{name}'s turn: {names} plays a card.", name=names[view.turn], names=deciding)


def queue_section(
    canvas: Canvas, cards: ChomperCards, view: ChomperView, y: int, language: str = ENGLISH
) -> int:
    names = [p.name for p in view.players]
    if not view.queue:
        if view.last_trail:
            canvas.text(
                (PAD + 4, y),
                render(t("Last turn: {trail}", trail=view.last_trail), language),
                16,
                PALETTE.muted,
                width=WIDTH - 2 * PAD - 8,
            )
            return y + 34
        return y

    def draw(entry: Entry, box: Box) -> None:
        x0, y0, x1, y1 = box
        card = (x0, y0, x1, y1 - 18)
        card_face(
            canvas,
            cards,
            entry.acts_as if entry.card == "copy" else entry.card,
            card,
            small=True,
            choice=entry.choice,
            dimmed=entry.vetoed,
            language=language,
        )
        lines = render(entry_lines(cards, entry, view.queue, names), language)
        canvas.text(
            ((x0 + x1) // 2, y1 - 40), lines, 12, PALETTE.card_text, anchor="ma", width=x1 - x0 - 8
        )
        canvas.text(
            ((x0 + x1) // 2, y1 - 14),
            names[entry.owner],
            13,
            PALETTE.muted,
            anchor="ma",
            width=x1 - x0,
        )
        if entry.vetoed:
            ribbon(canvas, (x1 - 6, y0 - 9), render(t("VETOED"), language), PALETTE.danger)

    trail = view.trail or t("no number yet")
    title = render(t("This turn: {trail}", trail=trail), language)
    bottom = cards_section(canvas, y, title, view.queue, QUEUE_COLUMNS, QUEUE_H + 18, draw)
    number = view.no_number or t("Produced Number: {n}", n=view.amount)
    canvas.text((PAD + 4, bottom), render(number, language), 20, PALETTE.accent, bold=True)
    return bottom + 34


def entry_lines(
    cards: ChomperCards, entry: Entry, queue: Sequence[Entry], names: Sequence[str]
) -> Text:
    """What a played card did, under it: its choice, what a Copy copied, a Seek's pick,
    the card a Veto, Opposites or Think Again! was aimed at, and an opposite set."""
    parts: list[Text | str] = []
    if entry.target is not None and entry.target < len(queue):
        aimed = queue[entry.target]
        parts.append(
            t("on {name}'s {card}", name=names[aimed.owner], card=plain_label(cards, aimed.acts_as))
        )
    if entry.opposite:
        parts.append(t("opposite"))
    if entry.card == "copy":
        parts.append(cards.actions["copy"].title)
    if entry.companion:
        companion = plain_label(cards, entry.companion)
        parts.append(t("with {card}", card=companion))
    if entry.choice is not None:
        parts.append(f"= {entry.choice}")
    if entry.pick:
        parts.append(t("took {card}", card=plain_label(cards, entry.pick)))
    return joined(parts, " ")


def plain_label(cards: ChomperCards, card: str) -> Text | str:
    """A card without its emoji (the font has none): "1/3/5", or the action's name."""
    return "/".join(card) if cards.is_number(card) else cards.actions[card].title


def chain_section(
    canvas: Canvas, cards: ChomperCards, view: ChomperView, y: int, language: str = ENGLISH
) -> int:
    title = render(t("On the chain · deck {n}", n=view.deck_count), language)
    canvas.text((PAD + 4, y), title, 18, PALETTE.text, bold=True)
    box = (PAD + 4, y + 34, PAD + 164, y + 34 + 130)
    if view.chain_top is None:
        empty_slot(canvas, box, render(t("Nothing yet"), language))
    else:
        card_face(canvas, cards, view.chain_top, box, language=language)
    return y + chain_height()


def tile(canvas: Canvas, view: ChomperView, seat: int, box: Box, language: str = ENGLISH) -> None:
    player = view.players[seat]
    x0, y0, x1, _ = box
    moving = seat in view.to_move
    won = view.over and not player.out and is_winner(view, seat)
    # In the modifier round others act: whose turn it is stays marked, clear of the name
    active = seat == view.turn and not view.over and not player.out
    active = active and view.options.mode != "chain"
    marked = render(ACTIVE, language)
    room = x1 - x0 - 28 - (canvas.measure(marked, 11, bold=True) + 16 if active else 0)
    player_band(canvas, box, player.name, "", moving=moving, won=won, name_width=room)
    if player.out:
        ribbon(canvas, (x1 - 10, y0 + 50), render(t("OUT"), language), PALETTE.danger)
    elif active:
        ribbon(canvas, (x1 - 10, y0 + 12), marked, (70, 74, 96))
    right = backs(canvas, (x0 + 14, y0 + 42), player.cards, most=8, size=28)
    held = render(tn("{n} card", "{n} cards", n=player.cards), language)
    canvas.text((right + 8, y0 + 48), held, 15, PALETTE.text)
    if player.score is not None:
        canvas.text(
            (x1 - 14 - (50 if player.out else 0), y0 + 48),
            render(tn("{n} pt", "{n} pts", n=player.score), language),
            15,
            PALETTE.accent,
            bold=True,
            anchor="ra",
        )


def is_winner(view: ChomperView, seat: int) -> bool:
    """Hoarder: the most points; otherwise the last player standing."""
    scores = [p.score for p in view.players]
    if all(s is not None for s in scores):
        return scores[seat] == max(s or 0 for s in scores)
    return sum(not p.out for p in view.players) == 1 and not view.players[seat].out


def piles_row(
    canvas: Canvas, cards: ChomperCards, view: ChomperView, y: int, language: str = ENGLISH
) -> None:
    """The deck, the public Played Cards Pile (its newest cards) and the bandits' pile."""
    x = PAD + 4
    said = t("Deck {deck} · Played {played}", deck=view.deck_count, played=len(view.played))
    text = render(said, language)
    canvas.text((x, y + 4), text, 15, PALETTE.muted, bold=True)
    x += canvas.measure(text, 15, bold=True) + 10
    newest = [plain_label(cards, c) for c in reversed(view.played[-PILE_SHOWN:])]
    if newest:
        shown = render(t("newest: {cards}", cards=joined(newest, ", ")), language)
        room = WIDTH - PAD - x - (130 if view.bandit_pile else 8)
        canvas.text((x, y + 4), shown, 15, PALETTE.muted, width=room)
    if view.bandit_pile:
        token(canvas, (WIDTH - PAD - 118, y + 13), 20, "b")
        stole = render(t("stole {n}", n=view.bandit_pile), language)
        canvas.text((WIDTH - PAD - 104, y + 4), stole, 15, PALETTE.text)


# --- a hand ------------------------------------------------------------------------------
class ChomperHand(NamedTuple):
    """What a hand's picture shows (and so the key it is kept by)."""

    hand: tuple[str, ...]  # in the hand's order
    barred: frozenset[str]  # vetoed this turn


def hand_scene(view: ChomperView) -> ChomperHand | None:
    if view.hand is None:
        return None
    return ChomperHand(tuple(view.hand), frozenset(view.barred))


def draw_hand(cards: ChomperCards, scene: ChomperHand, language: str = ENGLISH) -> bytes:
    """A hand in ``language``: every word is rendered right where it is drawn."""
    hand: Sequence[str] = scene.hand
    canvas = Canvas(PAD + section_height(len(hand), HAND_COLUMNS, CARD_H) + 4, language=language)
    vetoed = render(t("VETOED THIS TURN"), language)

    def draw(card: str, box: Box) -> None:
        barred = card in scene.barred
        words = hand_words(cards, card)
        card_face(canvas, cards, card, box, dimmed=barred, words=words, language=language)
        if barred:
            ribbon(canvas, (box[2] - 8, box[1] - 9), vetoed, PALETTE.danger)

    title = render(tn("Your hand ({n} card)", "Your hand ({n} cards)", n=len(hand)), language)
    cards_section(canvas, PAD, title, hand, HAND_COLUMNS, CARD_H, draw)
    return canvas.png()
