"""Toss Your Cookies pictures: the table and a hand, drawn from a view (never the state).

The table shows only what the whole table sees: the dice, each player's card count (as
card backs), who must act and how (who passes how many to whom, who swaps with whom, who
takes blindly from whom), round wins, and the cards lying face up in a scramble. A hand
shows the viewer's cards as cards, grouped by kind, and how close it is to winning.
Each cookie is drawn as its own biscuit (icing, chips, a swirl, a sandwich...), so kinds
are told apart by pattern and not by hue alone.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from typing import NamedTuple

from games.core.pictures import (
    PAD,
    PALETTE,
    RGB,
    WIDTH,
    Box,
    Canvas,
    backs,
    cards_section,
    grid,
    grid_height,
    header,
    plain,
    player_band,
    section_height,
    shape_points,
)
from games.core.text import Text, t, tc, tn
from games.core.translations import ENGLISH, render
from games.toss.cards import HALF, MILK, WILD, TossCards
from games.toss.view import FACES, TossView, champion, milk_marked, moved_count, phase_text

HEADER = 92
DICE = 84  # the dice strip
TILE_H = 100  # one player's area
GAP = 12
TILE_COLUMNS = 2
MIDDLE_COLUMNS = 7
MIDDLE_H = 100
HAND_COLUMNS = 4
CARD_H = 150
GOAL = 44  # the hand's goal line

INK: RGB = (34, 30, 28)
Drawer = Callable[[Canvas, tuple[int, int], int], None]


# --- the cookies, drawn ------------------------------------------------------------------
def biscuit(canvas: Canvas, centre: tuple[int, int], size: int, dough: RGB) -> Box:
    cx, cy = centre
    r = size // 2
    box = (cx - r, cy - r, cx + r, cy + r)
    canvas.draw.ellipse(box, fill=dough, outline=INK, width=max(1, size // 24))
    return box


def dots(canvas: Canvas, centre: tuple[int, int], size: int, hue: RGB) -> None:
    """Five chips or nuts, placed the same on every card."""
    cx, cy = centre
    r = max(1, size // 10)
    for dx, dy in ((-0.22, -0.18), (0.2, -0.22), (0.0, 0.05), (-0.2, 0.24), (0.22, 0.2)):
        x, y = cx + dx * size, cy + dy * size
        canvas.draw.ellipse((x - r, y - r, x + r, y + r), fill=hue)


def iced(canvas: Canvas, centre: tuple[int, int], size: int) -> None:
    biscuit(canvas, centre, size, (240, 226, 196))
    cx, cy = centre
    r = size * 0.32
    canvas.draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(236, 128, 170))


def gingerbread(canvas: Canvas, centre: tuple[int, int], size: int) -> None:
    """A gingerbread man: a head and a body, iced buttons."""
    cx, cy = centre
    s = size / 2
    body = (176, 100, 48)
    head = s * 0.3
    canvas.draw.ellipse((cx - head, cy - s, cx + head, cy - s + 2 * head), fill=body, outline=INK)
    arms = [(cx - s, cy - s * 0.3), (cx + s, cy - s * 0.3), (cx + s, cy + s * 0.05)]
    arms += [(cx + s * 0.3, cy + s * 0.05), (cx + s * 0.7, cy + s), (cx + s * 0.1, cy + s)]
    arms += [(cx, cy + s * 0.6), (cx - s * 0.1, cy + s), (cx - s * 0.7, cy + s)]
    arms += [(cx - s * 0.3, cy + s * 0.05), (cx - s, cy + s * 0.05)]
    canvas.draw.polygon(arms, fill=body, outline=INK)
    r = max(1, size // 16)
    for dy in (-0.2, 0.1):
        canvas.draw.ellipse(
            (cx - r, cy + dy * s - r, cx + r, cy + dy * s + r), fill=(250, 250, 250)
        )


def fortune(canvas: Canvas, centre: tuple[int, int], size: int) -> None:
    """A folded fortune cookie: a half moon with its fold."""
    cx, cy = centre
    r = size // 2
    box = (cx - r, cy - r + size // 6, cx + r, cy + r + size // 6)
    canvas.draw.chord(box, 180, 360, fill=(236, 186, 84), outline=INK, width=max(1, size // 24))
    canvas.draw.line((cx, cy + size // 6, cx, cy - r // 2), fill=INK, width=max(1, size // 20))
    canvas.draw.rectangle((cx + 2, cy, cx + r * 0.7, cy + size // 10), fill=(250, 250, 250))


def sandwich(canvas: Canvas, centre: tuple[int, int], size: int) -> None:
    """Two dark biscuits with a band of cream between them."""
    biscuit(canvas, centre, size, (58, 40, 34))
    cx, cy = centre
    h = max(2, size // 9)
    canvas.draw.rectangle(
        (cx - size * 0.45, cy - h, cx + size * 0.45, cy + h), fill=(245, 240, 230)
    )


def chip(canvas: Canvas, centre: tuple[int, int], size: int) -> None:
    biscuit(canvas, centre, size, (214, 160, 92))
    dots(canvas, centre, size, (70, 42, 30))


def macadamia(canvas: Canvas, centre: tuple[int, int], size: int) -> None:
    biscuit(canvas, centre, size, (222, 190, 130))
    dots(canvas, centre, size, (252, 248, 226))


def fudge(canvas: Canvas, centre: tuple[int, int], size: int) -> None:
    """A dark biscuit with a light swirl."""
    biscuit(canvas, centre, size, (118, 70, 42))
    cx, cy = centre
    width = max(2, size // 14)
    for step, reach in enumerate((0.36, 0.24, 0.12)):
        r = size * reach
        start = 90 * step
        box = (cx - r, cy - r, cx + r, cy + r)
        canvas.draw.arc(box, start, start + 270, fill=(240, 214, 170), width=width)


def fruit(canvas: Canvas, centre: tuple[int, int], size: int) -> None:
    """A biscuit with a jam heart in its centre: a red square, turned."""
    biscuit(canvas, centre, size, (226, 178, 112))
    canvas.draw.polygon(
        shape_points(centre, size * 0.42, "diamond"), fill=(200, 30, 60), outline=INK
    )


def wild(canvas: Canvas, centre: tuple[int, int], size: int) -> None:
    canvas.draw.polygon(
        shape_points(centre, size * 1.05, "star"), fill=(246, 196, 40), outline=INK, width=2
    )


def half(canvas: Canvas, centre: tuple[int, int], size: int) -> None:
    """A chip cookie with a big bite out of it: worth nothing."""
    chip(canvas, centre, size)
    cx, cy = centre
    for dx, dy, reach in ((0.44, -0.22, 0.2), (0.5, 0.04, 0.16), (0.32, -0.38, 0.16)):
        r = size * reach
        x, y = cx + dx * size, cy + dy * size
        canvas.draw.ellipse((x - r, y - r, x + r, y + r), fill=PALETTE.card)


def milk(canvas: Canvas, centre: tuple[int, int], size: int) -> None:
    """A glass of milk: white with a blue rim, narrower at the bottom."""
    cx, cy = centre
    s = size / 2
    glass = [
        (cx - s * 0.6, cy - s),
        (cx + s * 0.6, cy - s),
        (cx + s * 0.45, cy + s),
        (cx - s * 0.45, cy + s),
    ]
    canvas.draw.polygon(
        glass, fill=(252, 252, 255), outline=(40, 90, 200), width=max(2, size // 16)
    )
    canvas.draw.line(
        (cx - s * 0.55, cy - s * 0.6, cx + s * 0.55, cy - s * 0.6),
        fill=(40, 90, 200),
        width=max(1, size // 24),
    )


LOOKS: dict[str, Drawer] = {
    "sugar": iced,
    "ginger": gingerbread,
    "fortune": fortune,
    "sandwich": sandwich,
    "chip": chip,
    "macadamia": macadamia,
    "fudge": fudge,
    "fruit": fruit,
    WILD: wild,
    HALF: half,
    MILK: milk,
}
NOTES = {WILD: t("counts as any cookie"), HALF: t("worth nothing"), MILK: t("needed to win")}


def emblem(
    canvas: Canvas,
    cards: TossCards,
    card: str,
    centre: tuple[int, int],
    size: int,
    language: str = ENGLISH,
) -> None:
    """The card's picture; a cookie a server added in the data gets a plain biscuit and its
    initial, so it is still told apart from the printed ones."""
    draw = LOOKS.get(card)
    if draw is not None:
        draw(canvas, centre, size)
        return
    biscuit(canvas, centre, size, (200, 170, 120))
    initial = render(cards.looks[card].title, language)[:1].upper()
    canvas.text(centre, initial, max(10, size // 2), INK, bold=True, anchor="mm")


def face(
    canvas: Canvas,
    cards: TossCards,
    card: str,
    count: int,
    box: Box,
    *,
    size: int,
    language: str = ENGLISH,
) -> None:
    """A card face: the cookie drawn large, its name under it, how many copies in a badge."""
    x0, y0, x1, _ = box
    canvas.draw.rounded_rectangle(box, 10, fill=PALETTE.card, outline=(60, 56, 52), width=2)
    emblem(canvas, cards, card, ((x0 + x1) // 2, y0 + 10 + size // 2), size, language)
    name = render(cards.looks[card].title, language)
    text = 17 if size >= 60 else 12
    lines = canvas.wrap(name, text, x1 - x0 - 12, 2, bold=True)
    y = y0 + 18 + size
    for line in lines:
        canvas.text(((x0 + x1) // 2, y), line, text, PALETTE.card_text, bold=True, anchor="ma")
        y += int(text * 1.2)
    if card in NOTES and size >= 60:
        note = render(NOTES[card], language)
        canvas.text(((x0 + x1) // 2, y + 2), note, 13, PALETTE.card_muted, anchor="ma")
    if count > 1:  # a big count in the corner: copies are what a Toss hand is about
        badge = 15 if size >= 60 else 11
        centre = (x1 - badge - 4, y0 + badge + 4)
        canvas.draw.ellipse(
            (centre[0] - badge, centre[1] - badge, centre[0] + badge, centre[1] + badge),
            fill=(40, 40, 48),
        )
        text = f"×{count}"
        canvas.text(centre, text, badge + 2, (255, 255, 255), bold=True, anchor="mm")


# --- the table ---------------------------------------------------------------------------
def table_picture(cards: TossCards, view: TossView, language: str = ENGLISH) -> bytes:
    """The table in ``language``: every word is rendered right where it is drawn."""
    tiles = grid_height(len(view.players), TILE_COLUMNS, TILE_H, GAP)
    middle = section_height(len(set(view.middle)), MIDDLE_COLUMNS, MIDDLE_H) if view.middle else 0
    canvas = Canvas(HEADER + DICE + tiles + middle + PAD - GAP, language=language)
    header(
        canvas,
        "Toss Your Cookies",  # the product's name, as published in every language
        render(round_text(view), language),
        status_text(view, language),
        status_hue(view),
    )
    dice(canvas, view, HEADER, language)
    y = HEADER + DICE
    for seat, box in enumerate(grid(len(view.players), TILE_COLUMNS, y, TILE_H, gap=GAP)):
        tile(canvas, view, seat, box, language)
    if view.middle:
        counted = sorted(Counter(view.middle).items(), key=lambda item: cards.rank(item[0]))

        def draw(item: tuple[str, int], box: Box) -> None:
            face(canvas, cards, *item, box, size=44, language=language)

        title = tn(
            "In the middle: {n} card, face up",
            "In the middle: {n} cards, face up",
            n=len(view.middle),
        )
        cards_section(
            canvas, y + tiles, render(title, language), counted, MIDDLE_COLUMNS, MIDDLE_H, draw
        )
    return canvas.png()


def round_text(view: TossView) -> Text:
    rounds = int(view.options.rounds)
    if rounds == 1:
        return t("One round")
    if view.round > rounds:
        return t("Round {round} (extra) · best of {rounds}", round=view.round, rounds=rounds)
    return t("Round {round} · best of {rounds}", round=view.round, rounds=rounds)


def status_text(view: TossView, language: str = ENGLISH) -> str:
    """The table's own words for what happens now, without its Markdown and emoji."""
    if view.over:
        name = view.players[champion(view)].name
        said = t("Game over: {name} wins! {result}", name=name, result=view.result)
        return render(said, language)
    phase = phase_text(view) if view.to_move else None
    return plain(render(phase, language).replace("**", "")) if phase is not None else ""


def status_hue(view: TossView) -> RGB:
    if view.over:
        return PALETTE.good
    return PALETTE.danger if view.phase == "scramble" else PALETTE.accent


ARROWS = {"swap": "⇄", "left": "←", "right": "→", "toss": "↑"}
ALL = tc("die", "All")  # the number die's face that hands over every card
DIE_FACE = 60  # the widest word a die's 64-pixel face shows


def dice(canvas: Canvas, view: TossView, y: int, language: str = ENGLISH) -> None:
    """The two dice as they lie, and what the roll means in words beside them."""
    x = PAD + 4
    roll = view.roll
    action_box = (x, y + 4, x + 64, y + 68)
    number_box = (x + 76, y + 4, x + 140, y + 68)
    for box in (action_box, number_box):
        canvas.draw.rounded_rectangle(box, 12, fill=PALETTE.card, outline=(60, 56, 52), width=2)
    if roll is None:
        for box in (action_box, number_box):
            centre = ((box[0] + box[2]) // 2, (box[1] + box[3]) // 2)
            canvas.text(centre, "?", 30, PALETTE.card_muted, bold=True, anchor="mm")
        headline = t("Not rolled yet")
    else:
        centre = ((action_box[0] + action_box[2]) // 2, (action_box[1] + action_box[3]) // 2)
        canvas.text(centre, ARROWS[roll.action], 40, PALETTE.card_text, bold=True, anchor="mm")
        middle = ((number_box[0] + number_box[2]) // 2, (number_box[1] + number_box[3]) // 2)
        if roll.milk:
            milk(canvas, middle, 40)
        else:
            # The die's word in the picture's language, capitals as printed on the die;
            # smaller where the language's word is longer ("TODAS").
            shown = canvas.words(ALL).upper() if roll.number == "all" else roll.number
            size = 30 if len(shown) == 1 else 22
            if canvas.measure(shown, size, bold=True) > DIE_FACE:
                size = 15
            canvas.text(
                middle, shown, size, PALETTE.card_text, bold=True, anchor="mm", width=DIE_FACE
            )
        action = FACES[roll.action]
        if roll.milk:
            headline = t("{face} · the milk", face=action)
        elif roll.number == "all":
            headline = t("{face} · all", face=action)
        else:
            headline = t("{face} · {number}", face=action, number=int(roll.number))
    left = x + 160
    canvas.text(
        (left, y + 8),
        render(headline, language),
        22,
        PALETTE.text,
        bold=True,
        width=WIDTH - left - PAD,
    )
    meaning = render(roll_meaning(view), language)
    canvas.text((left, y + 42), meaning, 15, PALETTE.muted, width=WIDTH - left - PAD - 8)


def roll_meaning(view: TossView) -> Text:
    roll = view.roll
    if roll is None:
        return t("Win: five of one cookie (wilds count) and the milk.")
    if roll.milk:
        return {
            "left": t("Whoever has the milk passes it to the left."),
            "right": t("Whoever has the milk passes it to the right."),
            "swap": t("Whoever has the milk swaps it with the roller."),
            "toss": t("Whoever has the milk tosses it: the others grab."),
        }[roll.action]
    n = view.count
    if roll.number == "all":
        return {
            "left": t("Everyone passes their whole hand face down to the left."),
            "right": t("Everyone passes their whole hand face down to the right."),
            "swap": t("The roller swaps their whole hand with a player of their choice."),
            "toss": t("Everyone tosses their whole hand face up, then grabs as many back."),
        }[roll.action]
    if roll.action == "left":
        return tn(
            "Everyone passes {n} card face down to the left.",
            "Everyone passes {n} cards face down to the left.",
            n=n,
        )
    if roll.action == "right":
        return tn(
            "Everyone passes {n} card face down to the right.",
            "Everyone passes {n} cards face down to the right.",
            n=n,
        )
    if roll.action == "swap":
        return tn(
            "The roller swaps {n} card with a player of their choice.",
            "The roller swaps {n} cards with a player of their choice.",
            n=n,
        )
    return tn(
        "Everyone tosses {n} card face up, then grabs as many back.",
        "Everyone tosses {n} cards face up, then grabs as many back.",
        n=n,
    )


def tile(canvas: Canvas, view: TossView, seat: int, box: Box, language: str = ENGLISH) -> None:
    player = view.players[seat]
    x0, y0, x1, _ = box
    moving = seat in view.to_move
    won = view.over and seat == champion(view)
    player_band(canvas, box, player.name, "", moving=moving, won=won, name_width=230)
    wins(canvas, view, player.round_wins, (x1 - 12, y0 + 12))
    right = backs(canvas, (x0 + 14, y0 + 40), player.cards, most=12, size=30)
    counted = render(tn("{n} card", "{n} cards", n=player.cards), language)
    canvas.text((right + 8, y0 + 46), counted, 16, PALETTE.text)
    if seat == milk_marked(view):  # what everyone saw, not where it is
        x = right + 8 + canvas.measure(counted, 16) + 22
        milk(canvas, (x, y0 + 55), 22)
        canvas.text((x + 14, y0 + 47), render(t("seen"), language), 14, PALETTE.muted)
    if player.status and view.to_move:
        # The view's status starts with an emoji the font has no glyph for: our own mark
        status = render(player.status, language)
        done = "✅" in status
        words = ("✓ " if done else "") + status.split(" ", 1)[-1]
        hue = PALETTE.good if done else PALETTE.accent
        canvas.text((x1 - 14, y0 + 46), words, 15, hue, bold=True, anchor="ra", width=150)
    flow = flow_text(view, seat)
    if flow is not None:
        words = render(flow, language)
        canvas.text((x0 + 14, y0 + 75), words, 15, PALETTE.muted, width=x1 - x0 - 28)


def wins(canvas: Canvas, view: TossView, won: int, right_top: tuple[int, int]) -> None:
    """Round wins as stars against the wins a match needs (one round: only a winner's)."""
    needed = int(view.options.rounds) // 2 + 1
    shown = max(won, needed) if int(view.options.rounds) > 1 else won
    x, y = right_top
    for index in range(shown):  # won stars first, left to right
        hue = (246, 196, 40) if index < won else PALETTE.empty
        centre = (x - 8 - (shown - 1 - index) * 20, y + 8)
        canvas.draw.polygon(shape_points(centre, 18, "star"), fill=hue)


def flow_text(view: TossView, seat: int) -> Text | None:
    """What this player gives or takes right now, said publicly: counts, never cards."""
    names = [p.name for p in view.players]
    size = len(names)
    roll = view.roll
    rolled = t("rolled the dice")
    if view.over or not view.to_move or roll is None:
        return rolled if seat == view.turn and roll is not None and not view.over else None
    count = moved_count(view)
    if view.blind is not None and view.phase in ("swap_take", "milk_take"):
        source, taker = names[view.blind.source], names[view.blind.taker]
        if seat == view.blind.taker:
            return tn(
                "takes {n} card blindly from {name}",
                "takes {n} cards blindly from {name}",
                n=view.blind.count,
                name=source,
            )
        if seat == view.blind.source:
            return t("{name} takes from this hand", name=taker)
    if view.phase == "choose" and roll.action in ("left", "right"):
        to = names[(seat + (1 if roll.action == "left" else -1)) % size]
        if count is None:
            return t("passes their whole hand → {name}", name=to)
        return tn("passes {n} card → {name}", "passes {n} cards → {name}", n=count, name=to)
    if view.phase in ("swap_target", "swap_give") and seat == view.turn:
        target = names[view.target] if view.target is not None else "?"
        if count is None:
            return t("swaps all their cards with {name}", name=target)
        return tn("swaps {n} card with {name}", "swaps {n} cards with {name}", n=count, name=target)
    if view.phase == "swap_give" and seat == view.target:
        return t("{name} swaps with this hand", name=names[view.turn])
    if view.phase == "scramble" and seat == view.tosser:
        return t("tossed the milk: may not grab it")
    if seat == view.turn:
        return rolled
    return None


# --- a hand ------------------------------------------------------------------------------
class TossHand(NamedTuple):
    """What a hand's picture shows (and so the key it is kept by)."""

    hand: tuple[str, ...]  # sorted: the picture groups copies
    pick: tuple[str, ...]  # the cards picked to pass, swap or toss, sorted
    pick_title: Text | None
    can_shout: bool


def hand_scene(view: TossView) -> TossHand | None:
    if view.hand is None:
        return None
    picked = tuple(sorted(view.my_pick))
    return TossHand(
        tuple(sorted(view.hand)), picked, pick_title(view) if picked else None, view.can_shout
    )


def draw_hand(cards: TossCards, scene: TossHand, language: str = ENGLISH) -> bytes:
    """A hand in ``language``: every word is rendered right where it is drawn."""
    hand = grouped(cards, scene.hand)
    pick = grouped(cards, scene.pick)
    shout = 56 if scene.can_shout else 0
    height = PAD + shout + GOAL + section_height(len(hand), HAND_COLUMNS, CARD_H)
    if pick:
        height += section_height(len(pick), HAND_COLUMNS, CARD_H)
    canvas = Canvas(height, language=language)
    y = PAD
    if scene.can_shout:
        box = (PAD, y, WIDTH - PAD, y + 44)
        canvas.panel(box, PALETTE.good)
        canvas.text(
            (WIDTH // 2, y + 22),
            render(t("Snickerdoodle! Press the button to win!"), language),
            20,
            (20, 30, 20),
            bold=True,
            anchor="mm",
        )
        y += shout
    goal_line(canvas, cards, list(scene.hand), y, language)
    y += GOAL

    def draw(item: tuple[str, int], box: Box) -> None:
        face(canvas, cards, *item, box, size=64, language=language)

    title = render(tn("Your hand ({n} card)", "Your hand ({n} cards)", n=len(scene.hand)), language)
    y = cards_section(canvas, y, title, hand, HAND_COLUMNS, CARD_H, draw)
    if pick and scene.pick_title is not None:
        picking = render(scene.pick_title, language)
        cards_section(canvas, y, picking, pick, HAND_COLUMNS, CARD_H, draw)
    return canvas.png()


def grouped(cards: TossCards, hand: Iterable[str]) -> list[tuple[str, int]]:
    return sorted(Counter(hand).items(), key=lambda item: cards.rank(item[0]))


def pick_title(view: TossView) -> Text:
    names = [p.name for p in view.players]
    if view.phase == "swap_give" or view.phase == "swap_take":
        if view.target is None:
            return t("You give them")
        return t("You give {name}", name=names[view.target])
    if view.roll is not None and view.roll.action == "toss":
        return t("You are tossing")
    return t("You are passing")


def goal_line(
    canvas: Canvas, cards: TossCards, hand: list[str], y: int, language: str = ENGLISH
) -> None:
    """How close the hand is to winning: the best cookie's count against five, and the milk."""
    best, count = cards.best_cookie(hand)
    target = cards.win_count
    what = cards.looks[best].title if best is not None else t("any cookie")
    said = t("{n}/{target} of {cookie}", n=min(count, target), target=target, cookie=what)
    label = render(said, language)
    x = PAD + 4
    if best is not None:
        emblem(canvas, cards, best, (x + 14, y + 14), 26, language)
        x += 36
    canvas.text((x, y + 3), label, 18, PALETTE.text, bold=True, width=330)
    left = x + min(330, canvas.measure(label, 18, bold=True)) + 14
    canvas.meter((left, y + 6, left + 150, y + 22), min(count, target), target, PALETTE.good)
    has_milk = MILK in hand
    milk(canvas, (WIDTH - PAD - 140, y + 14), 26)
    canvas.text(
        (WIDTH - PAD - 122, y + 3),
        render(t("milk: yes") if has_milk else t("milk: no"), language),
        18,
        PALETTE.good if has_milk else PALETTE.muted,
        bold=True,
    )
