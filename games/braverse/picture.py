"""Braverse pictures: the board and a hand, drawn from a view (never the state).

``table_picture`` reads only what everyone sees (a seat's view gives the same bytes as a
spectator's); ``hand_picture`` reads the viewer's own hand, starting Cookie and search.
Each colour has its own shape as well as its hue (red circle, yellow triangle, green
square, blue diamond; a grey hexagon is "any colour"), so no colour is told by hue alone.
"""

from __future__ import annotations

from collections import Counter
from typing import NamedTuple

from games.braverse.cards import COLOURS, Card, CardPool, parse_cost
from games.braverse.state import WIN_LEVEL
from games.braverse.view import PHASES, BraverseView, CookieLine, SideView
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
from games.core.words import plural

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


def cost_row(canvas: Canvas, xy: tuple[int, int], cost: str, size: int = 14) -> int:
    """A cost as symbols (then "+ discard", "+ rest"); returns the x after it."""
    x, y = xy
    parts = parse_cost(cost)
    for letter in parts.symbols:
        symbol(canvas, (x + size // 2, y + size // 2), size, letter)
        x += size + 3
    extras = [w for w, on in (("discard", parts.discard), ("rest", parts.rest_self)) if on]
    if extras or not parts.symbols:
        words = " + ".join(extras) if extras else "free"
        words = f"+ {words}" if parts.symbols else words
        canvas.text((x + 2, y), words, 12, PALETTE.card_muted)
        x += canvas.measure(words, 12) + 4
    return x


def label_row(canvas: Canvas, xy: tuple[int, int], label: str, cost: str) -> None:
    """A bold label, then the cost's symbols after it."""
    x, y = xy
    canvas.text((x, y), label, 13, PALETTE.card_text, bold=True)
    cost_row(canvas, (x + canvas.measure(label, 13, bold=True) + 6, y), cost, 14)


def attack_row(canvas: Canvas, xy: tuple[int, int], damage: int, cost: str) -> None:
    label_row(canvas, xy, f"Attack {damage}", cost)


def ability_text(card: Card) -> str:
    """What the card does beyond its cost and plain attack, in words (card_text's lines
    after the heading; a plain attack is already drawn as symbols)."""
    lines = card.text.split("\n")[1:]
    if card.attack is not None and not card.attack.then:
        lines = lines[1:]
    return " ".join(lines)


def effect_lines(canvas: Canvas, card: Card, box: tuple[int, int, int, int]) -> None:
    """The card's effect in small type, as many lines as fit in ``box`` (at most three);
    the full text is in the hand's and the table's text panels and /card."""
    x0, y0, x1, y1 = box
    effect = ability_text(card)
    room = min(3, (y1 - y0 - 6) // 14)  # 13 px a line, and room for the last descent
    if effect and room > 0:
        canvas.paragraph(
            (x0 + 10, y0 + 2), effect, 11, PALETTE.card_muted, width=x1 - x0 - 20, lines=room
        )


# --- the table ---------------------------------------------------------------------------
def table_picture(pool: CardPool, view: BraverseView) -> bytes:
    height = HEADER + len(view.sides) * (BAND + GAP) + PAD - GAP
    canvas = Canvas(height)
    header(canvas, pool, view)
    y = HEADER
    for seat, side in enumerate(view.sides):
        side_band(canvas, pool, view, seat, side, y)
        y += BAND + GAP
    return canvas.png()


def status_text(pool: CardPool, view: BraverseView) -> str:
    names = [s.name for s in view.sides]
    if view.over:
        return f"Game over. {view.result}"
    parts = []
    if view.round and view.to_move:
        parts.append(f"{names[view.turn]}'s turn.")
    if view.phase == "starting" and view.to_move:
        waiting = [s.name for s in view.sides if not s.chosen]
        parts.append(f"Waiting for {', '.join(waiting)} to choose a starting Cookie.")
    if view.attack is not None:
        a = view.attack
        attacker = pool[a.attacker].name if a.attacker else "a Cookie that left"
        target = pool[a.target].name if a.target else "a Cookie that left"
        locked = " (locked)" if a.locked else ""
        parts.append(
            f"{names[a.seat]}'s {attacker} attacks {target}: {max(0, a.damage)} damage{locked}."
        )
    if view.doing:
        parts.append(view.doing)
    return " ".join(parts)


def header(canvas: Canvas, pool: CardPool, view: BraverseView) -> None:
    where = PHASES[view.phase] + (f" · turn {view.round}" if view.round else "")
    hue = PALETTE.danger if view.attack is not None else PALETTE.accent
    draw_header(canvas, "CookieRun: Braverse", where, status_text(pool, view), hue)


def side_band(
    canvas: Canvas, pool: CardPool, view: BraverseView, seat: int, side: SideView, y: int
) -> None:
    moving = seat in view.to_move and not view.over
    won = view.over and view.winner == seat
    counts = f"Deck {side.deck} · Hand {side.hand_count} · Discard {len(side.discard)}"
    if side.attack_bonus:
        counts = f"+{side.attack_bonus} attack this turn · " + counts
    band = (PAD, y, WIDTH - PAD, y + BAND)
    player_band(canvas, band, side.name, counts, moving=moving, won=won, name_width=330)
    x = PAD + 14
    top = y + 42
    for slot in range(2):
        box = (x + slot * (CARD_W + 10), top, x + slot * (CARD_W + 10) + CARD_W, top + CARD_H)
        if slot < len(side.battle):
            cookie_card(canvas, pool, view, side.battle[slot], box)
        elif slot == 0 and view.phase == "starting" and side.chosen:
            card_back(canvas, box, "Chosen, face down")
        else:
            empty_slot(canvas, box, "Battle Area")
    stage_x = x + 2 * (CARD_W + 10) + 6
    stage_card(canvas, pool, side, (stage_x, top, stage_x + STAGE_W, top + CARD_H))
    support_column(canvas, pool, side, stage_x + STAGE_W + 18, top)
    break_row(canvas, side, x, top + CARD_H + 12)


def cookie_card(
    canvas: Canvas,
    pool: CardPool,
    view: BraverseView,
    cookie: CookieLine,
    box: tuple[int, int, int, int],
) -> None:
    card = pool[cookie.card]
    assert card.level is not None and card.hp is not None and card.attack is not None
    attack = view.attack
    outline, tag = None, ""
    if attack is not None and attack.target_uid == cookie.uid:
        outline, tag = PALETTE.danger, "TARGET"
    elif attack is not None and attack.attacker_uid == cookie.uid:
        outline, tag = PALETTE.accent, "ATTACKING"
    below = canvas.card(
        box, title=card.name, corner=f"LV{card.level}", dimmed=cookie.rested, outline=outline
    )
    x0, _, x1, y1 = box
    effect_lines(canvas, card, (x0, below, x1, y1 - 64))
    attack_row(canvas, (x0 + 10, y1 - 62), card.attack.damage, card.attack.cost)
    symbol(canvas, (x0 + 19, y1 - 31), 18, card.colour)
    canvas.text((x0 + 32, y1 - 38), f"HP {cookie.hp_left}/{card.hp}", 13, PALETTE.card_text)
    canvas.pips((x0 + 10, y1 - 18), cookie.hp_left, card.hp, size=9, gap=3)
    if cookie.rested:
        ribbon(canvas, (x1 - 8, y1 - 38), "REST", (70, 70, 80))
    if tag:  # on the card's top edge, where no line of the card is
        ribbon(canvas, (x1 - 12, box[1] - 9), tag, outline)


def stage_card(
    canvas: Canvas, pool: CardPool, side: SideView, box: tuple[int, int, int, int]
) -> None:
    if side.stage is None:
        empty_slot(canvas, box, "No Stage")
        return
    card = pool[side.stage]
    canvas.card(box, title=card.name, lines=("Stage",), dimmed=side.stage_rested)
    x0, _, x1, y1 = box
    symbol(canvas, (x0 + 19, y1 - 19), 18, card.colour)
    if side.stage_rested:
        ribbon(canvas, (x1 - 8, y1 - 28), "REST", (70, 70, 80))


def support_column(canvas: Canvas, pool: CardPool, side: SideView, x: int, y: int) -> None:
    """Support as one stack per colour: how many, and how many are still active (pay)."""
    total: Counter[str] = Counter()
    active: Counter[str] = Counter()
    for each in side.support:
        colour = pool[each.card].colour
        total[colour] += 1
        active[colour] += not each.rested
    canvas.text((x, y), f"Support ({len(side.support)})", 15, PALETTE.text, bold=True)
    row = y + 26
    if not side.support:
        canvas.text((x, row + 4), "empty", 14, PALETTE.muted)
    for colour in "RYGB":
        if not total[colour]:
            continue
        stack(canvas, (x, row), total[colour])
        symbol(canvas, (x + 16, row + 15), 18, colour)
        canvas.text(
            (x + 40, row + 2), f"{COLOURS[colour]} ×{total[colour]}", 14, PALETTE.text, bold=True
        )
        canvas.text((x + 40, row + 18), f"{active[colour]} active", 12, PALETTE.muted)
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


def break_row(canvas: Canvas, side: SideView, x: int, y: int) -> None:
    label = f"Break Area LV {side.break_level}/{WIN_LEVEL}"
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


def draw_hand(pool: CardPool, scene: BraverseHand) -> bytes:
    counted = sorted(Counter(scene.hand).items())
    sections = [(f"Your hand ({plural(len(scene.hand), 'card')})", counted)]
    if scene.start:
        sections.append(("Your starting Cookie", [(scene.start, 1)]))
    if scene.looked:
        sections.append(("You are looking at", sorted(Counter(scene.looked).items())))
    height = PAD + sum(
        section_height(len(cards), HAND_COLUMNS, CARD_H, GAP) for _, cards in sections
    )
    canvas = Canvas(height)
    y = PAD
    for title, cards in sections:

        def draw(item: tuple[str, int], box: Box) -> None:
            hand_card(canvas, pool, *item, box)

        y = cards_section(canvas, y, title, cards, HAND_COLUMNS, CARD_H, draw, GAP)
    return canvas.png()


def hand_card(
    canvas: Canvas, pool: CardPool, number: str, count: int, box: tuple[int, int, int, int]
) -> None:
    card = pool[number]
    x0, _, x1, y1 = box
    if card.type == "cookie":
        assert card.attack is not None
        below = canvas.card(
            box, title=card.name, lines=(f"Cookie · HP {card.hp}",), corner=f"LV{card.level}"
        )
        attack_row(canvas, (x0 + 10, y1 - 48), card.attack.damage, card.attack.cost)
        if card.is_flip:
            ribbon(canvas, (x1 - 8, y1 - 26), "FLIP", (120, 70, 170))
    else:
        below = canvas.card(box, title=card.name, lines=(card.type.capitalize(),))
        label_row(canvas, (x0 + 10, y1 - 48), "Cost", card.cost)
    effect_lines(canvas, card, (x0, below, x1, y1 - 50))
    symbol(canvas, (x0 + 19, y1 - 17), 18, card.colour)
    canvas.text((x0 + 34, y1 - 25), COLOURS[card.colour], 12, PALETTE.card_muted)
    if count > 1:  # copies: on the top edge, clear of the card's lines
        ribbon(canvas, (x1 - 12, box[1] - 9), f"×{count}", (40, 40, 48))
