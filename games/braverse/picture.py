"""Braverse pictures: the board and a hand, drawn from a view (never the state).

``table_picture`` reads only what everyone sees (a seat's view gives the same bytes as a
spectator's); ``hand_picture`` reads the viewer's own hand, starting Cookie and search.
Each colour has its own shape as well as its hue (red circle, yellow triangle, green
square, blue diamond; a grey hexagon is "any colour"), so no colour is told by hue alone.
"""

from __future__ import annotations

from collections import Counter
from typing import NamedTuple

from games.braverse.cards import Card, CardPool, card_lines, colour_word, parse_cost, type_word
from games.braverse.phrases import commas, sentences
from games.braverse.state import WIN_LEVEL
from games.braverse.view import PHASES, BraverseView, CookieLine, SideView, attack_line, hand_title
from games.core.pictures import (
    HUES,
    PAD,
    PALETTE,
    WIDTH,
    Box,
    Canvas,
    Shape,
    card_back,
    cards_section,
    empty_slot,
    player_band,
    ribbon,
    section_height,
)
from games.core.pictures import header as draw_header
from games.core.text import Text, plain, t, tc
from games.core.translations import ENGLISH, render

SYMBOLS: dict[str, tuple[Shape, str]] = {
    "R": ("circle", "red"),
    "Y": ("triangle", "yellow"),
    "G": ("square", "green"),
    "B": ("diamond", "blue"),
    "N": ("hexagon", "grey"),  # a cost's "any colour"
}
HEADER = 92
BAND = 238  # one side's area
GAP = 12
CARD_W, CARD_H = 170, 150
STAGE_W = 140
HAND_COLUMNS = 4


def symbol(canvas: Canvas, centre: tuple[int, int], size: int, colour: str) -> None:
    shape, hue = SYMBOLS[colour]
    canvas.symbol(centre, size, shape, HUES[hue])


def cost_words(cost: str) -> Text | None:
    """What a cost asks beyond its symbols, in words: "+ discard", "free"."""
    parts = parse_cost(cost)
    extras: list[Text | str] = []
    if parts.discard:
        extras.append(tc("cost", "discard"))
    if parts.rest_self:
        extras.append(tc("cost", "rest"))
    if not extras:
        return None if parts.symbols else tc("cost", "free")
    joined = extras[0] if len(extras) == 1 else t("{a} + {b}", a=extras[0], b=extras[1])
    return t("+ {more}", more=joined) if parts.symbols else joined


def cost_row(
    canvas: Canvas, xy: tuple[int, int], cost: str, size: int = 14, language: str = ENGLISH
) -> int:
    """A cost as symbols (then "+ discard", "+ rest"); returns the x after it."""
    x, y = xy
    parts = parse_cost(cost)
    for letter in parts.symbols:
        symbol(canvas, (x + size // 2, y + size // 2), size, letter)
        x += size + 3
    said = cost_words(cost)
    if said is not None:
        words = render(said, language)
        canvas.text((x + 2, y), words, 12, PALETTE.card_muted)
        x += canvas.measure(words, 12) + 4
    return x


def label_row(
    canvas: Canvas, xy: tuple[int, int], label: Text, cost: str, language: str = ENGLISH
) -> None:
    """A bold label, then the cost's symbols after it."""
    x, y = xy
    words = render(label, language)
    canvas.text((x, y), words, 13, PALETTE.card_text, bold=True)
    cost_row(canvas, (x + canvas.measure(words, 13, bold=True) + 6, y), cost, 14, language)


def attack_row(
    canvas: Canvas, xy: tuple[int, int], damage: int, cost: str, language: str = ENGLISH
) -> None:
    label_row(canvas, xy, t("Attack {n}", n=damage), cost, language)


def ability_text(card: Card) -> Text:
    """What the card does beyond its cost and plain attack, in words (card_text's lines
    after the heading; a plain attack is already drawn as symbols)."""
    lines = card_lines(card)[1:]
    if card.attack is not None and not card.attack.then:
        lines = lines[1:]
    return sentences(lines) if lines else plain("")


def effect_lines(
    canvas: Canvas, card: Card, box: tuple[int, int, int, int], language: str = ENGLISH
) -> None:
    """The card's effect in small type, as many lines as fit in ``box`` (at most three);
    the full text is in the hand's and the table's text panels and /card."""
    x0, y0, x1, y1 = box
    effect = render(ability_text(card), language)
    room = min(3, (y1 - y0 - 6) // 14)  # 13 px a line, and room for the last descent
    if effect and room > 0:
        canvas.paragraph(
            (x0 + 10, y0 + 2), effect, 11, PALETTE.card_muted, width=x1 - x0 - 20, lines=room
        )


# --- the table ---------------------------------------------------------------------------
def table_picture(pool: CardPool, view: BraverseView, language: str = ENGLISH) -> bytes:
    """The board as everyone sees it, its words in ``language``."""
    height = HEADER + len(view.sides) * (BAND + GAP) + PAD - GAP
    canvas = Canvas(height, language=language)
    header(canvas, pool, view, language)
    y = HEADER
    for seat, side in enumerate(view.sides):
        side_band(canvas, pool, view, seat, side, y, language)
        y += BAND + GAP
    return canvas.png()


def status_text(pool: CardPool, view: BraverseView) -> Text | str:
    names = [s.name for s in view.sides]
    if view.over:
        return t("Game over. {result}", result=view.result)
    parts: list[Text | str] = []
    if view.round and view.to_move:
        parts.append(t("{player}'s turn.", player=names[view.turn]))
    if view.phase == "starting" and view.to_move:
        waiting = [s.name for s in view.sides if not s.chosen]
        parts.append(
            t("Waiting for {players} to choose a starting Cookie.", players=commas(waiting))
        )
    attack = attack_line(pool, view)
    if attack is not None:
        parts.append(t("{attack}.", attack=attack))
    if view.doing:
        parts.append(view.doing)
    return sentences(parts) if parts else ""


def header(canvas: Canvas, pool: CardPool, view: BraverseView, language: str = ENGLISH) -> None:
    phase = PHASES[view.phase]
    where = t("{phase} · turn {n}", phase=phase, n=view.round) if view.round else phase
    hue = PALETTE.danger if view.attack is not None else PALETTE.accent
    draw_header(
        canvas,
        "CookieRun: Braverse",
        render(where, language),
        render(status_text(pool, view), language),
        hue,
    )


def side_band(
    canvas: Canvas,
    pool: CardPool,
    view: BraverseView,
    seat: int,
    side: SideView,
    y: int,
    language: str = ENGLISH,
) -> None:
    def say(text: Text) -> str:
        return render(text, language)

    moving = seat in view.to_move and not view.over
    won = view.over and view.winner == seat
    counts = t(
        "Deck {deck} · Hand {hand} · Discard {discard}",
        deck=side.deck,
        hand=side.hand_count,
        discard=len(side.discard),
    )
    if side.attack_bonus:
        counts = t("+{n} attack this turn · {counts}", n=side.attack_bonus, counts=counts)
    band = (PAD, y, WIDTH - PAD, y + BAND)
    player_band(canvas, band, side.name, say(counts), moving=moving, won=won, name_width=330)
    x = PAD + 14
    top = y + 42
    for slot in range(2):
        box = (x + slot * (CARD_W + 10), top, x + slot * (CARD_W + 10) + CARD_W, top + CARD_H)
        if slot < len(side.battle):
            cookie_card(canvas, pool, view, side.battle[slot], box, language)
        elif slot == 0 and view.phase == "starting" and side.chosen:
            card_back(canvas, box, say(t("Chosen, face down")))
        else:
            empty_slot(canvas, box, say(t("Battle Area")))
    stage_x = x + 2 * (CARD_W + 10) + 6
    stage_card(canvas, pool, side, (stage_x, top, stage_x + STAGE_W, top + CARD_H), language)
    support_column(canvas, pool, side, stage_x + STAGE_W + 18, top, language)
    break_row(canvas, side, x, top + CARD_H + 12, language)


def cookie_card(
    canvas: Canvas,
    pool: CardPool,
    view: BraverseView,
    cookie: CookieLine,
    box: tuple[int, int, int, int],
    language: str = ENGLISH,
) -> None:
    card = pool[cookie.card]
    assert card.level is not None and card.hp is not None and card.attack is not None
    attack = view.attack
    outline, tag = None, None
    if attack is not None and attack.target_uid == cookie.uid:
        outline, tag = PALETTE.danger, tc("ribbon", "TARGET")
    elif attack is not None and attack.attacker_uid == cookie.uid:
        outline, tag = PALETTE.accent, tc("ribbon", "ATTACKING")
    below = canvas.card(
        box,
        title=render(card.title, language),
        corner=render(t("LV{n}", n=card.level), language),
        dimmed=cookie.rested,
        outline=outline,
    )
    x0, _, x1, y1 = box
    effect_lines(canvas, card, (x0, below, x1, y1 - 64), language)
    attack_row(canvas, (x0 + 10, y1 - 62), card.attack.damage, card.attack.cost, language)
    symbol(canvas, (x0 + 19, y1 - 31), 18, card.colour)
    hp = render(t("HP {hp}/{most}", hp=cookie.hp_left, most=card.hp), language)
    canvas.text((x0 + 32, y1 - 38), hp, 13, PALETTE.card_text)
    canvas.pips((x0 + 10, y1 - 18), cookie.hp_left, card.hp, size=9, gap=3)
    if cookie.rested:
        ribbon(canvas, (x1 - 8, y1 - 38), render(tc("ribbon", "REST"), language), (70, 70, 80))
    if tag is not None:  # on the card's top edge, where no line of the card is
        ribbon(canvas, (x1 - 12, box[1] - 9), render(tag, language), outline)


def stage_card(
    canvas: Canvas,
    pool: CardPool,
    side: SideView,
    box: tuple[int, int, int, int],
    language: str = ENGLISH,
) -> None:
    if side.stage is None:
        empty_slot(canvas, box, render(t("No Stage"), language))
        return
    card = pool[side.stage]
    canvas.card(
        box,
        title=render(card.title, language),
        lines=(render(type_word("stage"), language),),
        dimmed=side.stage_rested,
    )
    x0, _, x1, y1 = box
    symbol(canvas, (x0 + 19, y1 - 19), 18, card.colour)
    if side.stage_rested:
        ribbon(canvas, (x1 - 8, y1 - 28), render(tc("ribbon", "REST"), language), (70, 70, 80))


def support_column(
    canvas: Canvas, pool: CardPool, side: SideView, x: int, y: int, language: str = ENGLISH
) -> None:
    """Support as one stack per colour: how many, and how many are still active (pay)."""
    total: Counter[str] = Counter()
    active: Counter[str] = Counter()
    for each in side.support:
        colour = pool[each.card].colour
        total[colour] += 1
        active[colour] += not each.rested
    title = render(t("Support ({n})", n=len(side.support)), language)
    canvas.text((x, y), title, 15, PALETTE.text, bold=True)
    row = y + 26
    if not side.support:
        canvas.text((x, row + 4), render(tc("pile", "empty"), language), 14, PALETTE.muted)
    for colour in "RYGB":
        if not total[colour]:
            continue
        stack(canvas, (x, row), total[colour])
        symbol(canvas, (x + 16, row + 15), 18, colour)
        many = render(t("{colour} ×{n}", colour=colour_word(colour), n=total[colour]), language)
        canvas.text((x + 40, row + 2), many, 14, PALETTE.text, bold=True)
        still = render(t("{n} active", n=active[colour]), language)
        canvas.text((x + 40, row + 18), still, 12, PALETTE.muted)
        row += 30


def stack(canvas: Canvas, xy: tuple[int, int], count: int) -> None:
    """Card backs fanned a little behind a colour symbol: a pile, thicker as it grows."""
    x, y = xy
    for index in range(min(count, 4) - 1, -1, -1):
        offset = index * 2
        canvas.draw.rounded_rectangle(
            (x + offset + 4, y + offset, x + offset + 28, y + offset + 28),
            4,
            fill=PALETTE.card,
            outline=(60, 56, 52),
        )


def break_row(canvas: Canvas, side: SideView, x: int, y: int, language: str = ENGLISH) -> None:
    label = render(
        t("Break Area LV {level}/{win}", level=side.break_level, win=WIN_LEVEL), language
    )
    canvas.text((x, y + 1), label, 15, PALETTE.text, bold=True)
    left = x + canvas.measure(label, 15, bold=True) + 14
    canvas.meter(
        (left, y + 3, WIDTH - PAD - 14, y + 17), side.break_level, WIN_LEVEL, PALETTE.danger
    )


# --- a hand ------------------------------------------------------------------------------
class BraverseHand(NamedTuple):
    """What a hand's picture shows (and so the key it is kept by): card numbers, sorted."""

    hand: tuple[str, ...]
    start: str | None  # the starting Cookie, while it is set aside
    looked: tuple[str, ...]  # cards an effect lets the seat look at


def hand_scene(view: BraverseView) -> BraverseHand | None:
    if view.viewer is None:
        return None
    hand = view.sides[view.viewer].hand or []
    return BraverseHand(
        tuple(sorted(hand)), view.my_start or None, tuple(sorted(view.looked or ()))
    )


def draw_hand(pool: CardPool, scene: BraverseHand, language: str = ENGLISH) -> bytes:
    """A hand's picture, its words in ``language``."""
    counted = sorted(Counter(scene.hand).items())
    sections = [(hand_title(len(scene.hand)), counted)]
    if scene.start:
        sections.append((t("Your starting Cookie"), [(scene.start, 1)]))
    if scene.looked:
        sections.append((t("You are looking at"), sorted(Counter(scene.looked).items())))
    height = PAD + sum(
        section_height(len(cards), HAND_COLUMNS, CARD_H, GAP) for _, cards in sections
    )
    canvas = Canvas(height, language=language)
    y = PAD
    for title, cards in sections:

        def draw(item: tuple[str, int], box: Box) -> None:
            hand_card(canvas, pool, *item, box, language)

        y = cards_section(
            canvas, y, render(title, language), cards, HAND_COLUMNS, CARD_H, draw, GAP
        )
    return canvas.png()


def hand_card(
    canvas: Canvas,
    pool: CardPool,
    number: str,
    count: int,
    box: tuple[int, int, int, int],
    language: str = ENGLISH,
) -> None:
    card = pool[number]
    x0, _, x1, y1 = box
    title = render(card.title, language)
    if card.type == "cookie":
        assert card.attack is not None
        below = canvas.card(
            box,
            title=title,
            lines=(render(t("Cookie · HP {n}", n=card.hp), language),),
            corner=render(t("LV{n}", n=card.level), language),
        )
        attack_row(canvas, (x0 + 10, y1 - 48), card.attack.damage, card.attack.cost, language)
        if card.is_flip:
            ribbon(
                canvas, (x1 - 8, y1 - 26), render(tc("ribbon", "FLIP"), language), (120, 70, 170)
            )
    else:
        below = canvas.card(box, title=title, lines=(render(type_word(card.type), language),))
        label_row(canvas, (x0 + 10, y1 - 48), tc("cost", "Cost"), card.cost, language)
    effect_lines(canvas, card, (x0, below, x1, y1 - 50), language)
    symbol(canvas, (x0 + 19, y1 - 17), 18, card.colour)
    colour = render(colour_word(card.colour), language)
    canvas.text((x0 + 34, y1 - 25), colour, 12, PALETTE.card_muted)
    if count > 1:  # copies: on the top edge, clear of the card's lines
        ribbon(canvas, (x1 - 12, box[1] - 9), f"×{count}", (40, 40, 48))
