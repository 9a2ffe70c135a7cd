"""Pictures of the Cover family (Cover Your Assets, Cover Your Cookies), drawn from a view.

One module for both games: what differs (the name, the words, the money, the Crumb
Collector, Mixers, the discard row) comes from the game and its view. ``table_picture``
reads only what everyone sees (every seat's view gives the same bytes as a spectator's);
``hand_picture`` adds the viewer's own hand. A card's kind has its own look: an asset (a
Cookie) is light paper with a band whose hue tells its value tier and its name written on
it, a wild (a Milk) is tinted like what it is, an action (a Mixer) is dark.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import cache
from typing import NamedTuple

from games.core.pictures import (
    HUES,
    PAD,
    PALETTE,
    WIDTH,
    Box,
    Canvas,
    CardLook,
    card_back,
    empty_slot,
    grid,
    grid_height,
    player_band,
    ribbon,
    text_width,
)
from games.core.text import Text, joined, plain, t, tc, tn
from games.core.translations import ENGLISH, render
from games.cover.cookies_state import CRUMB_STEPS
from games.cover.view import CoverRules, CoverView, PlayerView, SetView, situation

GAP = 12
HEADER = 102
MIDDLE = 168  # the draw pile, the discard and the draft piles
EVENT = 196  # a challenge, a drafted set or a Mixer: the cards in play
BAND_W = (WIDTH - 2 * PAD - GAP) // 2  # two players a row: six fit in three rows
BAND_H = 206
FACE_W, FACE_H = 124, 150  # a top set
PILE_H = 104  # the discard's and a draft pile's top card
SMALL_W, SMALL_H = 118, 124  # a card played in a challenge
INFO = 17  # a line beside a stack: legible at half size, on a phone
HAND_COLUMNS = 3
HAND_H = 104
CHIP_H = 34  # a kind of card in the discard row
ROW_W = WIDTH - 2 * PAD - FACE_W - 30  # the discard row's width, right of the deck

TIERS = ("green", "blue", "purple", "red")  # an asset's band, by its value among assets
WILD_LOOKS = {
    "silver": CardLook(paper=(208, 212, 220), band=(120, 126, 140)),
    "gold": CardLook(paper=(240, 208, 112), band=(176, 128, 16)),
    "penny_jar": CardLook(paper=(218, 160, 112), band=(140, 80, 40)),
    "fresh_milk": CardLook(paper=(236, 243, 250), band=(110, 160, 220)),
    "chocolate_milk": CardLook(
        paper=(128, 84, 56), ink=(255, 246, 236), muted=(236, 214, 196), band=(250, 214, 170)
    ),
}
ACTION_LOOK = CardLook(
    paper=(72, 52, 110), ink=(252, 248, 255), muted=(214, 204, 236), band=PALETTE.accent
)
WILD_LOOK = CardLook(paper=(214, 214, 226), band=(120, 120, 140))


# --- cards ---------------------------------------------------------------------------------
@cache
def looks(game: CoverRules) -> dict[str, CardLook]:
    """Every card's look; assets share a band hue with the others of their value."""
    specs = game.cards.cards
    values = sorted({c.value for c in specs if c.kind == "asset"})
    out = {}
    for spec in specs:
        if spec.kind == "asset":
            tier = TIERS[values.index(spec.value) % len(TIERS)]
            out[spec.key] = CardLook(band=HUES[tier])
        elif spec.kind == "wild":
            out[spec.key] = WILD_LOOKS.get(spec.key, WILD_LOOK)
        else:
            out[spec.key] = ACTION_LOOK
    return out


def kind_word(game: CoverRules, card: str) -> Text:
    kind = game.cards[card].kind
    if kind == "asset":
        return game.words.asset_kind()
    if kind == "wild":
        return tc("card kind", "Wild")
    return game.words.action_kind()


def about(game: CoverRules, card: str) -> tuple[Text, ...]:
    """What a card says under its name: its worth (an action's is none) and its kind."""
    value = game.cards[card].value
    return (game.short_money(value),) * bool(value) + (kind_word(game, card),)


def fitting_size(text: str, width: int, largest: int, smallest: int = 12) -> int:
    """The largest bold size from ``largest`` down to ``smallest`` at which ``text`` fits."""
    size = largest
    while size > smallest and text_width(text, size, True) > width:
        size -= 1
    return size


def title_size(name: str, width: int) -> int:
    """The size at which each word of a card's name (as drawn) fits its width:
    "Snickerdoodle" is one word, and cut it would not read."""
    return fitting_size(max(name.split() or [""], key=len), width, 16)


def face(
    canvas: Canvas,
    game: CoverRules,
    card: str,
    box: Box,
    *,
    lines: Sequence[str] = (),
    outline: tuple[int, int, int] | None = None,
) -> int:
    """A card's face: its name (up to three lines) and, under it, its value and kind (or
    the ``lines`` given). Returns the y under the text."""
    name = canvas.words(game.title(card))
    return canvas.card(
        box,
        title=name,
        lines=lines or about(game, card),
        look=looks(game)[card],
        size=title_size(name, box[2] - box[0] - 20),
        title_lines=3,
        outline=outline,
    )


def under_card(canvas: Canvas, box: Box, text: str, size: int, hue: tuple[int, int, int]) -> None:
    """A word centred under a card: who played it, who may draft from it."""
    x0, _, x1, y1 = box
    canvas.text(((x0 + x1) // 2, y1 + 5), text, size, hue, anchor="ma", width=x1 - x0 + 8)


def pile_label(canvas: Canvas, xy: tuple[int, int], text: str, width: int) -> None:
    canvas.text(xy, text, 15, PALETTE.muted, bold=True, width=width)


# --- the table -----------------------------------------------------------------------------
def table_picture(game: CoverRules, view: CoverView, language: str = ENGLISH) -> bytes:
    event = has_event(view)
    mid = middle_height(game, view, language)
    bands = grid_height(len(view.players), 2, BAND_H, GAP)
    height = HEADER + mid + (EVENT if event else 0) + bands + PAD - GAP
    canvas = Canvas(height, language=language)
    header(canvas, game, view)
    y = HEADER
    middle(canvas, game, view, y, mid)
    y += mid
    if event:
        event_strip(canvas, game, view, y)
        y += EVENT
    for seat, box in enumerate(grid(len(view.players), 2, y, BAND_H, GAP)):
        seat_band(canvas, game, view, seat, box)
    return canvas.png()


def has_event(view: CoverView) -> bool:
    return not view.end_reason and bool(view.battle or view.draft or view.mixer)


def status_text(game: CoverRules, view: CoverView) -> Text:
    if view.end_reason:
        return t("Game over. {reason}", reason=view.end_reason)
    if not view.to_move:
        return plain("")
    now = situation(game, view, [p.name for p in view.players], strong=plain)
    return joined((now.headline, now.waiting), " ") if now.waiting else now.headline


def header(canvas: Canvas, game: CoverRules, view: CoverView) -> None:
    canvas.text((PAD + 4, PAD), game.name, 24, PALETTE.text, bold=True, width=470)
    where = t("Round {n}", n=view.round)
    canvas.text((WIDTH - PAD - 4, PAD + 4), where, 18, PALETTE.muted, anchor="ra", width=260)
    hue = PALETTE.danger if view.battle and not view.end_reason else PALETTE.accent
    text = status_text(game, view)
    canvas.paragraph((PAD + 4, PAD + 38), text, 18, hue, width=WIDTH - 2 * PAD - 8, lines=2)


def middle(canvas: Canvas, game: CoverRules, view: CoverView, y: int, height: int) -> None:
    """The middle of the table: the draw pile, the discard (a pile, or a row with three
    players of Cover Your Cookies) and the draft piles (two and three players)."""
    canvas.panel((PAD, y, WIDTH - PAD, y + height - GAP), PALETTE.band)
    top, x = y + 36, PAD + 12
    pile_label(canvas, (x, y + 10), t("Deck"), FACE_W)
    deck_box = (x, top, x + FACE_W - 16, top + PILE_H)
    if view.deck_count:
        card_back(canvas, deck_box, str(view.deck_count), 22)
    else:
        empty_slot(canvas, deck_box, t("empty"), 15)
    x += FACE_W + 2
    if view.discard_row:
        discard_row(canvas, game, view.discard_row, (x, y + 10), ROW_W)
        return
    pile_label(canvas, (x, y + 10), t("Discard ({n})", n=view.discard_count), FACE_W + 30)
    small = (x, top, x + FACE_W, top + PILE_H)
    if view.discard_top:
        face(canvas, game, view.discard_top, small)
    else:
        empty_slot(canvas, small, t("empty"), 15)
    x += FACE_W + 34
    names = [p.name for p in view.players]
    for number, pile in enumerate(view.drafts):
        label = t("Draft {number} ({n})", number=number + 1, n=pile.size)
        pile_label(canvas, (x, y + 10), label, FACE_W + 10)
        box = (x, top, x + FACE_W, top + PILE_H)
        if pile.top:
            face(canvas, game, pile.top, box)
        else:
            empty_slot(canvas, box, t("empty"), 15)
        if len(names) == 3:  # only the two players beside a pile may draft from it
            beside = f"{names[pile.between[0]]}–{names[pile.between[1]]}"
            under_card(canvas, box, beside, 13, PALETTE.muted)
        x += FACE_W + 14


def discard_row(
    canvas: Canvas, game: CoverRules, row: list[str], xy: tuple[int, int], width: int
) -> None:
    """Every card of the discard row may be taken: each kind once, as a chip in its look
    with how many, flowing onto as many lines as it needs (``row_lines`` counts them)."""
    x, y = xy
    pile_label(canvas, (x, y), t("Discard row ({n})", n=len(row)), width)
    for (left, top, right), card, count in chip_places(game, row, x, width, canvas.language):
        look = looks(game)[card]
        box = (left, y + 26 + top, right, y + 26 + top + CHIP_H)
        canvas.draw.rounded_rectangle(box, 8, fill=look.paper, outline=(60, 56, 52), width=2)
        canvas.draw.rounded_rectangle(
            (left + 5, box[1] + 6, left + 11, box[3] - 6), 3, fill=look.band or look.ink
        )
        text = chip_text(game, card, count, canvas.language)
        canvas.text(
            (left + 18, box[1] + CHIP_H // 2),
            text,
            16,
            look.ink,
            bold=True,
            anchor="lm",
            width=right - left - 24,
        )


def chip_text(game: CoverRules, card: str, count: int, language: str) -> str:
    """A chip's words: the card's name in ``language``, and how many."""
    name = render(game.title(card), language)
    return name + (f" ×{count}" if count > 1 else "")


def chip_places(
    game: CoverRules, row: list[str], x: int, width: int, language: str = ENGLISH
) -> list[tuple[tuple[int, int, int], str, int]]:
    """Where each chip of the discard row goes: (left, top, right), left to right."""
    counts = Counter(row)
    places, left, top = [], x, 0
    for card in game.cards.sort(counts):
        text = chip_text(game, card, counts[card], language)
        chip = min(width, text_width(text, 16, True) + 28)
        if left + chip > x + width and left > x:
            left, top = x, top + CHIP_H + 6
        places.append(((left, top, left + chip), card, counts[card]))
        left += chip + 8
    return places


def middle_height(game: CoverRules, view: CoverView, language: str = ENGLISH) -> int:
    if not view.discard_row:
        return MIDDLE
    places = chip_places(game, view.discard_row, 0, ROW_W, language)
    lines = places[-1][0][1] // (CHIP_H + 6) + 1 if places else 1
    return max(MIDDLE, 36 + lines * (CHIP_H + 6) + 20)


def event_strip(canvas: Canvas, game: CoverRules, view: CoverView, y: int) -> None:
    """The cards in play: a challenge's cards in the order played (with who played each),
    a set just drafted, or the Mixer just drawn."""
    names = [p.name for p in view.players]
    canvas.panel((PAD, y, WIDTH - PAD, y + EVENT - GAP), PALETTE.band, outline=PALETTE.danger)
    if view.battle:
        b = view.battle
        title = game.words.battle_title(names[b.challenger], names[b.defender], game.title(b.asset))
        played: list[tuple[str, str]] = [(c, names[s]) for s, c in b.played]
        if b.drafted:
            played = [(c, t("drafted")) for c in reversed(b.drafted)] + played
    elif view.draft:
        d = view.draft
        title = t("{name} drafted a set", name=names[d.drafter])  # only Assets drafts
        played = [(c, names[d.drafter]) for c in reversed(d.cards)]
    else:
        assert view.mixer is not None
        seat, card = view.mixer
        title = t("{name} drew a Mixer", name=names[seat])
        played = [(card, names[seat])]
    canvas.text((PAD + 12, y + 10), title, 18, PALETTE.text, bold=True, width=WIDTH - 2 * PAD - 24)
    space, step = WIDTH - 2 * PAD - 24, SMALL_W + 10
    if len(played) * step > space:  # the count of the earlier cards takes 44 px
        space -= 44
    hidden = max(0, len(played) - space // step)
    x, top = PAD + 12, y + 40
    if hidden:  # the earliest cards give way: the latest decide what happens next
        canvas.text(
            (x, top + SMALL_H // 2), f"+{hidden}", 18, PALETTE.muted, bold=True, anchor="lm"
        )
        x += 44
        played = played[hidden:]
    for card, who in played:
        box = (x, top, x + SMALL_W, top + SMALL_H)
        face(canvas, game, card, box)
        under_card(canvas, box, who, 14, PALETTE.text)
        x += SMALL_W + 10


def seat_band(canvas: Canvas, game: CoverRules, view: CoverView, seat: int, box: Box) -> None:
    x, y, x1, _ = box
    player = view.players[seat]
    moving = seat in view.to_move and not view.end_reason
    tag, hue = band_tag(game, view, seat)
    counts = t("Hand {n}", n=player.hand_count)
    outline = hue if tag else None
    player_band(
        canvas,
        box,
        player.name,
        counts,
        moving=moving,
        outline=outline,
        name_width=x1 - x - 120,
        counts_size=18,
    )
    if tag:
        ribbon(canvas, (x1 - 12, y - 10), tag, hue, 13)
    stack_picture(canvas, game, player.stack, (x + 12, y + 44), challenged(view, seat))
    stack_lines(canvas, game, view, seat, (x + FACE_W + 48, y + 46))


def band_tag(game: CoverRules, view: CoverView, seat: int) -> tuple[str, tuple[int, int, int]]:
    """A ribbon on a player's band: their place once the game is over, their part in a
    challenge while one is on."""
    if view.end_reason:
        place = dict(view.placements).get(seat)
        if place == 1:
            return tc("ribbon", "WINNER"), PALETTE.good
        return (f"#{place}", (70, 74, 92)) if place else ("", PALETTE.muted)
    b = view.battle
    if b and seat == b.challenger:
        return game.words.challenging_tag(), (196, 140, 20)
    if b and seat == b.defender:
        return tc("ribbon", "DEFENDING"), PALETTE.danger
    return "", PALETTE.muted


def challenged(view: CoverView, seat: int) -> int | None:
    """How deep in ``seat``'s stack the challenge on is (None: not on this stack; a
    freshly drafted set is in no stack yet)."""
    b = view.battle
    if b is None or b.defender != seat or b.drafted or view.end_reason:
        return None
    return b.depth


def stack_picture(
    canvas: Canvas,
    game: CoverRules,
    stack: list[SetView],
    xy: tuple[int, int],
    target: int | None = None,
) -> None:
    """The stack as on a table: the top set face up, the set under it lying across (as the
    rules stack them), and how many more lie below. The set a challenge is on (``target``:
    0 the top, 1 the one under it) is outlined in red."""
    x, y = xy
    box = (x + 14, y, x + 14 + FACE_W, y + FACE_H)
    if not stack:
        empty_slot(canvas, box, game.words.no_sets(), 15)
        return
    if len(stack) > 1:
        under = stack[-2]
        look = looks(game)[under.asset]
        across = (x, y + 34, x + FACE_W + 28, y + FACE_H - 34)
        edge = PALETTE.danger if target == 1 else look.band or (60, 56, 52)
        canvas.draw.rounded_rectangle(across, 10, fill=look.paper, outline=edge, width=5)
    top = stack[-1]
    name = canvas.words(game.title(top.asset))
    size = title_size(name, FACE_W - 20)
    outline = PALETTE.danger if target == 0 else None
    below = canvas.card(
        box, title=name, look=looks(game)[top.asset], size=size, title_lines=3, outline=outline
    )
    set_pips(canvas, game, top.cards, (box[0] + 10, max(below + 2, box[3] - 50)))
    worth = game.short_money(top.value)
    look = looks(game)[top.asset]
    canvas.text((box[0] + 10, box[3] - 26), worth, 17, look.ink, bold=True, width=FACE_W - 20)
    if len(stack) == 1:  # the bottom set may never be taken
        ribbon(canvas, (box[2] - 6, box[1] - 9), tc("ribbon", "SAFE"), PALETTE.good, 12)


def set_pips(canvas: Canvas, game: CoverRules, cards: Sequence[str], xy: tuple[int, int]) -> None:
    """A small card for each card in the set, top first, in its look: wilds show apart."""
    x, y = xy
    room = (FACE_W - 20) // 14
    shown = list(reversed(cards))
    extra = len(shown) - room
    if extra > 0:
        shown = shown[: room - 2]
    for card in shown:
        look = looks(game)[card]
        canvas.draw.rounded_rectangle(
            (x, y, x + 11, y + 16), 3, fill=look.band or look.paper, outline=(40, 36, 34)
        )
        x += 14
    if extra > 0:
        canvas.text((x + 1, y), f"+{extra + 2}", 13, PALETTE.card_muted, bold=True)


def stack_lines(
    canvas: Canvas, game: CoverRules, view: CoverView, seat: int, xy: tuple[int, int]
) -> None:
    x, y = xy
    player = view.players[seat]
    width = BAND_W - FACE_W - 58  # from the column's left to the band's edge
    lines: list[tuple[str, int, tuple[int, int, int], bool]] = []
    under = len(player.stack) - 1
    if under > 0:
        lines.append((game.words.under_it(under), INFO, PALETTE.text, False))
        below = t("next: {card}", card=game.title(player.stack[-2].asset))
        target = challenged(view, seat) == 1
        lines.append((below, INFO, PALETTE.danger if target else PALETTE.muted, target))
    elif under == 0:
        lines.append((game.words.first_safe(), INFO, PALETTE.muted, False))
    stack = canvas.words(t("Stack {money}", money=game.short_money(player.stack_value)))
    lines.append((stack, fitting_size(stack, width, 22, INFO), PALETTE.text, True))
    if view.crumbs:
        crumbs = t("Crumbs {n}/{total}", n=view.crumbs[seat], total=CRUMB_STEPS)
        lines.append((crumbs, INFO, PALETTE.text, False))
    if view.enhance_waiting and view.enhance_waiting[seat]:
        waiting = t("Enhance ×{n} waiting", n=view.enhance_waiting[seat])
        lines.append((waiting, INFO, PALETTE.accent, False))
    if view.rounds:
        total = t("Total {money}", money=game.short_money(player.total))
        lines.append((total, INFO, PALETTE.accent, True))
        if player.round_wins:
            won = tn("{n} round won", "{n} rounds won", n=player.round_wins)
            lines.append((won, INFO, PALETTE.accent, False))
    for text, size, hue, bold in lines:
        canvas.text((x, y), text, size, hue, bold=bold, width=width)
        y += size + 7


# --- a hand --------------------------------------------------------------------------------
class CoverHand(NamedTuple):
    """What a hand's picture shows (and so the key it is kept by)."""

    hand: tuple[str, ...]  # sorted: the picture groups copies
    stack_value: int
    stack_sets: int


def hand_scene(view: CoverView) -> CoverHand | None:
    if view.viewer is None or view.hand is None:
        return None
    me: PlayerView = view.players[view.viewer]
    return CoverHand(tuple(sorted(view.hand)), me.stack_value, len(me.stack))


def draw_hand(game: CoverRules, scene: CoverHand, language: str = ENGLISH) -> bytes:
    counts = Counter(scene.hand)
    cards = game.cards.sort(counts)
    height = PAD + 40 + grid_height(len(cards), HAND_COLUMNS, HAND_H, GAP) + PAD - GAP
    canvas = Canvas(height, language=language)
    mine_title = t("Your hand ({n})", n=len(scene.hand))
    canvas.text((PAD + 4, PAD), mine_title, 22, PALETTE.text, bold=True)
    mine = game.words.stack_short(game.short_money(scene.stack_value), scene.stack_sets)
    canvas.text((WIDTH - PAD - 4, PAD + 4), mine, 17, PALETTE.muted, anchor="ra", width=440)
    top = PAD + 40
    if not cards:
        canvas.text((PAD + 4, top + 8), t("No cards."), 18, PALETTE.muted)
    for card, box in zip(cards, grid(len(cards), HAND_COLUMNS, top, HAND_H, GAP), strict=True):
        _, y0, x1, _ = box
        lines = (joined(reversed(about(game, card)), " · "),)
        title = game.title(card)
        canvas.card(box, title=title, lines=lines, look=looks(game)[card], size=23)
        if counts[card] > 1:  # copies: on the top edge, clear of the card's lines
            ribbon(canvas, (x1 - 10, y0 - 9), f"×{counts[card]}", (40, 40, 48), 14)
    return canvas.png()
