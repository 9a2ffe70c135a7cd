"""The shared drawing kit for table and hand pictures: Pillow only, no Discord.

A picture is drawn at Discord's embed width on an opaque rounded panel, so it reads the
same on the dark (#313338) and the light (#ffffff) theme: only the four corners outside
the panel are transparent. Fonts come from ``data/fonts`` (DejaVu Sans, licence beside
it), never from the system, so every machine draws the same bytes. Colour symbols differ
by SHAPE as well as hue, for colour-blind players. Cards are drawn, never copied.
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from types import ModuleType
from typing import Any, ClassVar, Literal, TypeVar

from PIL import Image, ImageChops, ImageDraw, ImageFont, ImageStat
from pydantic import BaseModel

from games.core import fonts
from games.core.protocol import Picturing
from games.core.text import t, tc
from games.core.translations import ENGLISH, render

WIDTH = 800  # Discord shows an embed image at up to ~400-520 px: 800 halves to phone size
PAD = 16
RADIUS = 18
FONTS = fonts.FONTS
DISCORD_LIMIT = 10 * 1024 * 1024  # the smallest attachment limit (an unboosted server)

RGB = tuple[int, int, int]
T = TypeVar("T")
Box = tuple[int, int, int, int]
Box2 = tuple[int, int]
Shape = Literal["circle", "triangle", "square", "diamond", "star", "hexagon"]


@dataclass(frozen=True)
class Palette:
    """Colours chosen to read on a dark panel whatever the theme around it."""

    panel: RGB = (30, 33, 44)
    border: RGB = (92, 99, 122)  # keeps the panel's edge visible on the dark theme
    band: RGB = (42, 46, 60)  # a side's area, a shade off the panel
    card: RGB = (236, 230, 216)  # cards are light, like paper
    card_text: RGB = (34, 30, 28)
    card_muted: RGB = (110, 104, 96)
    text: RGB = (236, 238, 244)
    muted: RGB = (160, 166, 184)
    accent: RGB = (250, 196, 70)  # whose turn, the attacker
    danger: RGB = (236, 84, 84)  # the attack's target, lost HP, Break Area
    good: RGB = (96, 200, 120)
    empty: RGB = (70, 75, 92)  # an empty slot, a spent pip


PALETTE = Palette()


@dataclass(frozen=True)
class CardLook:
    """How a kind of card is printed: its paper, its ink, and a coloured band (or none)."""

    paper: RGB = PALETTE.card
    ink: RGB = PALETTE.card_text
    muted: RGB = PALETTE.card_muted
    band: RGB | None = None


PAPER = CardLook()  # the plain light card

# Hues for symbols: strong enough on the light card and on the dark panel alike.
HUES: dict[str, RGB] = {
    "red": (222, 56, 56),
    "yellow": (238, 190, 30),
    "green": (48, 160, 72),
    "blue": (52, 110, 230),
    "purple": (150, 80, 200),
    "grey": (140, 140, 150),
}


def font(size: int, *, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The pictures' own face (DejaVu Sans); other scripts and emoji come from the faces
    beside it (``games.core.fonts``), run by run."""
    return fonts.font(fonts.LATIN, size, bold)


def plain(text: str) -> str:
    """One line: runs of spaces and line breaks become one space."""
    return " ".join(text.split())


class Canvas:
    """An image of WIDTH and a fixed height with the panel drawn, and drawing helpers.
    Words given as a ``Text`` are drawn in ``language`` (names as written)."""

    def __init__(
        self,
        height: int,
        width: int = WIDTH,
        palette: Palette = PALETTE,
        language: str = ENGLISH,
    ) -> None:
        self.width, self.height, self.palette = width, height, palette
        self.language = language
        # Drawn opaque (true colour with alpha is a third more to carry and to reduce);
        # the corners outside the panel become transparent in the PNG (``corners``).
        self.image = Image.new("RGB", (width, height), palette.panel)
        self.draw = ImageDraw.Draw(self.image)
        panel(self.draw, width, height, palette.panel, palette.border)

    # --- text --------------------------------------------------------------------------
    def words(self, text: str) -> str:
        """``text`` as this picture's reader reads it (a Text in their language)."""
        return render(text, self.language)

    def measure(self, text: str, size: int, *, bold: bool = False) -> int:
        return text_width(self.words(text), size, bold)

    def fit(self, text: str, size: int, width: int, *, bold: bool = False) -> str:
        """The text, cut with an ellipsis if it is wider than ``width``."""
        return fitted(self.words(text), size, width, bold)

    def text(
        self,
        xy: tuple[int, int],
        text: str,
        size: int,
        fill: RGB,
        *,
        bold: bool = False,
        width: int | None = None,
        anchor: str = "la",
    ) -> None:
        shown = self.fit(text, size, width, bold=bold) if width else plain(self.words(text))
        self.lettering(xy, shown, size, fill, bold, anchor)

    def lettering(
        self, xy: tuple[int, int], text: str, size: int, fill: RGB, bold: bool, anchor: str = "la"
    ) -> None:
        """One line of text, from its rendered letters when the same words at the same
        size were drawn before: rendering them is a third of a table's drawing time, and
        names, counts and labels repeat from picture to picture."""
        x, y = xy
        if (x != int(x) or y != int(y)) and fonts.latin_only(text, bold):
            # a fraction of a pixel renders differently
            self.draw.text(xy, text, font=font(size, bold=bold), fill=fill, anchor=anchor)
            return
        mask, (left, top), colour = letters(text, size, bold, anchor)
        at = (round(x) + left, round(y) + top)
        if mask is not None:
            self.draw.bitmap(at, mask, fill=fill)
        if colour is not None:  # emoji, in their own colours
            self.image.paste(colour, at, colour)

    def wrap(
        self, text: str, size: int, width: int, lines: int, *, bold: bool = False
    ) -> list[str]:
        """Word-wrapped to ``lines`` lines at most; the last one ends in … if cut."""
        return list(wrapped(self.words(text), size, width, lines, bold))

    def paragraph(
        self,
        xy: tuple[int, int],
        text: str,
        size: int,
        fill: RGB,
        *,
        width: int,
        lines: int,
        bold: bool = False,
    ) -> int:
        """Draws wrapped text; returns the y under it."""
        x, y = xy
        for line in self.wrap(text, size, width, lines, bold=bold):
            self.lettering((x, y), line, size, fill, bold)
            y += int(size * 1.25)
        return y

    # --- shapes ------------------------------------------------------------------------
    def panel(self, box: Box, fill: RGB, *, outline: RGB | None = None, width: int = 2) -> None:
        self.draw.rounded_rectangle(box, 10, fill=fill, outline=outline, width=width)

    def symbol(self, centre: tuple[int, int], size: int, shape: Shape, hue: RGB) -> None:
        """A colour symbol, told apart by its outline as well as its hue."""
        outline = (20, 20, 24)
        self.draw.polygon(shape_points(centre, size, shape), fill=hue, outline=outline, width=2)

    def pips(
        self, xy: tuple[int, int], filled: int, total: int, *, size: int = 10, gap: int = 3
    ) -> int:
        """A row of ``total`` pips, the first ``filled`` full (dark: no hue, so no colour is
        implied); returns the x after them.
        More than ``total`` filled (HP added by an effect) draws the extra ones too."""
        x, y = xy
        for index in range(max(filled, total)):
            full = index < filled
            box = (x, y, x + size, y + size)
            self.draw.ellipse(
                box,
                fill=PALETTE.card_text if full else PALETTE.card,
                outline=PALETTE.card_text if full else PALETTE.card_muted,
                width=1,
            )
            x += size + gap
        return x

    def meter(self, box: Box, value: int, total: int, hue: RGB) -> None:
        """``total`` segments, ``value`` of them lit: the Break Area against its limit."""
        x0, y0, x1, y1 = box
        step = (x1 - x0) / total
        for index in range(total):
            left = int(x0 + index * step) + 1
            right = int(x0 + (index + 1) * step) - 2
            fill = hue if index < value else PALETTE.empty
            self.draw.rectangle((left, y0, right, y1), fill=fill)

    def card(
        self,
        box: Box,
        *,
        title: str,
        lines: Sequence[str] = (),
        corner: str = "",
        dimmed: bool = False,
        outline: RGB | None = None,
        look: CardLook | None = None,
        size: int = 15,
        title_lines: int = 2,
    ) -> int:
        """A card: a light rounded rectangle, a bold title that wraps to two lines, smaller
        lines under it, and a value in the top right corner. A dimmed card (rested) is
        greyed so a glance tells it from an active one. A ``look`` gives a kind of card its
        own paper, ink and a coloured band above the title (``size`` is the title's).
        Returns the y under the lines."""
        x0, y0, x1, y1 = box
        look = look or PAPER
        paper = (150, 146, 138) if dimmed else look.paper
        self.draw.rounded_rectangle(
            box, 10, fill=paper, outline=outline or (60, 56, 52), width=4 if outline else 2
        )
        if look.band is not None:  # a strip at the top, inside the rounded corners
            self.draw.rounded_rectangle((x0 + 5, y0 + 5, x1 - 5, y0 + 11), 3, fill=look.band)
            y0 += 8
        inner = x1 - x0 - 20
        corner_width = self.measure(corner, size, bold=True) + 8 if corner else 0
        if corner:
            self.text((x1 - 8, y0 + 8), corner, size, look.ink, bold=True, anchor="ra")
        y = self.paragraph(
            (x0 + 10, y0 + 8),
            title,
            size,
            look.ink,
            width=inner - corner_width,
            lines=title_lines,
            bold=True,
        )
        small = size - 2
        for line in lines:
            if y > y1 - small - 5:
                break
            self.text((x0 + 10, y), line, small, look.muted, width=inner)
            y += small + 4
        return y

    # --- output ------------------------------------------------------------------------
    def png(self) -> bytes:
        return encode_png(self.image, corners(self.width, self.height))


def panel(
    draw: ImageDraw.ImageDraw, width: int, height: int, fill: int | RGB, edge: int | RGB
) -> None:
    """The rounded panel every picture is drawn on (and, in one colour, its mask)."""
    draw.rounded_rectangle((0, 0, width - 1, height - 1), RADIUS, fill=fill, outline=edge, width=2)


@lru_cache(maxsize=64)
def corners(width: int, height: int) -> Image.Image:
    """The pixels outside the panel of a picture this size (mode "1"): the same pixels the
    panel leaves out, drawn by the same call. Pictures come in few heights: kept."""
    mask = Image.new("1", (width, height), 1)
    panel(ImageDraw.Draw(mask), width, height, 0, 0)
    return mask


def shape_points(centre: tuple[int, int], size: int, shape: Shape) -> list[tuple[float, float]]:
    """The outline of a symbol ``size`` pixels across, centred."""
    cx, cy = centre
    r = size / 2
    if shape == "square":
        s = r * 0.85
        return [(cx - s, cy - s), (cx + s, cy - s), (cx + s, cy + s), (cx - s, cy + s)]
    corners = {"triangle": 3, "diamond": 4, "hexagon": 6, "star": 10, "circle": 24}[shape]
    points = []
    for index in range(corners):
        angle = -math.pi / 2 + 2 * math.pi * index / corners
        reach = r * (0.45 if shape == "star" and index % 2 else 1.0)
        if shape == "triangle":
            reach = r * 1.1
            cy_shift = r * 0.15  # a triangle's weight sits low; lift it to look centred
        else:
            cy_shift = 0.0
        points.append((cx + reach * math.cos(angle), cy + cy_shift + reach * math.sin(angle)))
    return points


def encode_png(image: Image.Image, outside: Image.Image | None = None) -> bytes:
    """A small PNG, quickly: the picture's few colours fit a palette (anti-aliased text
    included, to the eye), which cuts the file to a third of true colour. ``outside``
    (mode "1") marks the pixels to leave transparent: the corners around the panel.

    Choosing the palette from every pixel took two thirds of a table's drawing time; one
    pixel in four finds the same colours (shapes are not anti-aliased and text shades
    repeat), and mapping every pixel onto a given palette is cheap. The transparent
    pixels take a palette entry of their own.
    """
    rgb = image.convert("RGB") if image.mode != "RGB" else image
    sample = rgb.resize((max(1, rgb.width // 2), max(1, rgb.height // 2)), Image.Resampling.NEAREST)
    chosen = sample.quantize(
        colors=CLEAR, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
    )
    quantized = rgb.quantize(palette=chosen, dither=Image.Dither.NONE)
    colours = (chosen.getpalette() or [])[: CLEAR * 3]
    quantized.putpalette(colours + [0] * (CLEAR * 3 - len(colours)) + [0, 0, 0])
    if outside is None and image.mode == "RGBA":
        outside = image.getchannel("A").point(OUTSIDE, "1")
    extra = {}
    if outside is not None:
        quantized.paste(CLEAR, mask=outside)
        extra["transparency"] = CLEAR
    out = io.BytesIO()
    # zlib's level 3 takes half the time of level 6 for a fifth more bytes.
    quantized.save(out, format="PNG", optimize=False, compress_level=3, **extra)
    return out.getvalue()


CLEAR = 127  # the palette's entry for transparent pixels, after the picture's 127 colours
OUTSIDE = [255] + [0] * 255  # from an alpha channel: a fully transparent pixel is outside


def on_background(png: bytes, hue: RGB) -> Image.Image:
    """The picture as Discord would show it on a theme's background (for looking at it and
    for tests of the transparent corners)."""
    picture = Image.open(io.BytesIO(png)).convert("RGBA")
    ground = Image.new("RGBA", picture.size, (*hue, 255))
    return Image.alpha_composite(ground, picture).convert("RGB")


def difference(one: bytes, other: bytes) -> float:
    """Mean absolute difference per channel (0-255) between two pictures of one size, on a
    dark background; a different size counts as totally different."""
    a, b = on_background(one, (49, 51, 56)), on_background(other, (49, 51, 56))
    if a.size != b.size:
        return 255.0
    return sum(ImageStat.Stat(ImageChops.difference(a, b)).mean) / 3


def ribbon(canvas: Canvas, right_top: tuple[int, int], text: str, hue: RGB, size: int = 11) -> None:
    """A small label on a card or a band, right-aligned, white on ``hue``."""
    x1, y0 = right_top
    width = canvas.measure(text, size, bold=True) + 10
    height = size + 7
    canvas.draw.rounded_rectangle((x1 - width, y0, x1, y0 + height), 5, fill=hue)
    middle = (x1 - width // 2, y0 + height // 2)
    canvas.text(middle, text, size, (255, 255, 255), bold=True, anchor="mm")


def card_back(canvas: Canvas, box: Box, label: str = "", size: int = 13) -> None:
    """A face-down card: everyone sees that it is there, nobody what it is. Its frame
    shrinks with a small card (a hand's fan of backs) so the back still reads as one."""
    x0, y0, x1, y1 = box
    inset = max(2, min(8, (x1 - x0) // 6))
    canvas.draw.rounded_rectangle(
        box,
        min(10, inset + 2),
        fill=(96, 62, 44),
        outline=(60, 40, 30),
        width=2 if inset > 4 else 1,
    )
    inner = (x0 + inset, y0 + inset, x1 - inset, y1 - inset)
    canvas.draw.rounded_rectangle(inner, max(2, inset - 2), outline=(200, 160, 110))
    if label:
        middle = ((x0 + x1) // 2, (y0 + y1) // 2)
        canvas.text(middle, label, size, (250, 236, 214), bold=size > 13, anchor="mm")


def empty_slot(canvas: Canvas, box: Box, label: str, size: int = 13) -> None:
    """Where a card would lie: an outline with what belongs there."""
    canvas.draw.rounded_rectangle(box, 10, outline=PALETTE.empty, width=2)
    cx, cy = (box[0] + box[2]) // 2, (box[1] + box[3]) // 2
    canvas.text((cx, cy), label, size, PALETTE.muted, anchor="mm")


def grid(count: int, columns: int, top: int, height: int, gap: int = 12) -> list[Box]:
    """Boxes for ``count`` things in rows of ``columns`` across the picture (cards of a
    hand, players' bands), left to right, then down."""
    width = (WIDTH - 2 * PAD - (columns - 1) * gap) // columns
    boxes = []
    for index in range(count):
        row, column = divmod(index, columns)
        x0, y0 = PAD + column * (width + gap), top + row * (height + gap)
        boxes.append((x0, y0, x0 + width, y0 + height))
    return boxes


def grid_height(count: int, columns: int, height: int, gap: int = 12) -> int:
    """The height ``grid`` fills, a gap under each row (an empty grid keeps one row)."""
    return max(1, -(-count // columns)) * (height + gap)


def player_band(
    canvas: Canvas,
    box: Box,
    name: str,
    counts: str,
    *,
    moving: bool,
    lit: bool = False,
    outline: RGB | None = None,
    name_width: int,
    counts_size: int = 15,
    won: bool = False,
) -> None:
    """A player's area: a panel outlined in ``outline`` (the accent on their move), their
    name (after ▶ on their move; in the accent then or when ``lit``) and their counts at
    the right. A winner's band is lit and outlined, with a WINNER badge after the name (cut
    to make room, so a long name never hides who won)."""
    x0, y0, x1, _ = box
    if won:
        lit, outline, name_width = True, outline or PALETTE.accent, name_width - 80
    canvas.panel(
        box, PALETTE.band, outline=outline or (PALETTE.accent if moving else None), width=3
    )
    shown = ("▶ " if moving else "") + name
    hue = PALETTE.accent if moving or lit else PALETTE.text
    canvas.text((x0 + 14, y0 + 10), shown, 20, hue, bold=True, width=name_width)
    if counts:
        canvas.text((x1 - 14, y0 + 14), counts, counts_size, PALETTE.muted, anchor="ra", width=400)
    if won:
        cut = canvas.measure(canvas.fit(shown, 20, name_width, bold=True), 20, bold=True)
        ribbon(canvas, (x0 + 14 + cut + 80, y0 + 13), tc("ribbon", "WINNER"), PALETTE.good)


def header(canvas: Canvas, title: str, right: str, status: str, hue: RGB) -> None:
    """The game's name, where the match stands (at the right), and what happens now in up
    to two lines, in ``hue``: the first thing a player reads."""
    canvas.text((PAD + 4, PAD), title, 22, PALETTE.text, bold=True)
    canvas.text((WIDTH - PAD - 4, PAD + 4), right, 16, PALETTE.muted, anchor="ra", width=420)
    canvas.paragraph((PAD + 4, PAD + 34), status, 16, hue, width=WIDTH - 2 * PAD - 8, lines=2)


def backs(
    canvas: Canvas, xy: tuple[int, int], count: int, *, most: int = 10, size: int = 22
) -> int:
    """``count`` face-down cards fanned (at most ``most`` drawn): a hand's size at a glance.
    Returns the x after the fan."""
    x, y = xy
    width, step = size * 2 // 3, size // 3
    for _ in range(min(count, most)):
        card_back(canvas, (x, y, x + width, y + size))
        x += step
    return x + (width - step if count else 0)


TITLE = 34  # a section title's line


def section_height(count: int, columns: int, height: int, gap: int = 12) -> int:
    """A titled grid's height: its title and its rows of cards."""
    return TITLE + grid_height(count, columns, height, gap)


def cards_section(
    canvas: Canvas,
    y: int,
    title: str,
    items: Sequence[T],
    columns: int,
    height: int,
    draw: Callable[[T, Box], None],
    gap: int = 12,
) -> int:
    """A titled grid of cards, ``draw`` drawing each in its box; returns the y under it."""
    canvas.text((PAD + 4, y), title, 20, PALETTE.text, bold=True)
    top = y + TITLE
    if not items:
        canvas.text((PAD + 4, top + 4), t("No cards."), 15, PALETTE.muted)
    for item, box in zip(items, grid(len(items), columns, top, height, gap), strict=True):
        draw(item, box)
    return y + section_height(len(items), columns, height, gap)


def patch_difference(one: bytes, other: bytes, patch: int = 32) -> float:
    """The largest mean difference (0-255) over ``patch``-pixel squares: one changed word
    stands out here while it vanishes in the whole picture's mean, and anti-aliasing that
    moves a little everywhere stays low in every square."""
    a, b = on_background(one, (49, 51, 56)), on_background(other, (49, 51, 56))
    if a.size != b.size:
        return 255.0
    changed = ImageChops.difference(a, b).convert("L")
    size = (max(1, a.width // patch), max(1, a.height // patch))
    return float(changed.resize(size, Image.Resampling.BOX).getextrema()[1])


# Names and card texts come back in every picture: measuring, cutting and wrapping them once
# keeps a board's drawing to its pixels (these caches are bounded, and hold only strings).
@lru_cache(maxsize=8192)
def letters(
    text: str, size: int, bold: bool, anchor: str
) -> tuple[Image.Image | None, Box2, Image.Image | None]:
    """A line of text rendered as a mask, where its top left sits from the anchor point
    (None: nothing to draw, as for an empty line), and its emoji in colour (or None).
    A line DejaVu Sans draws whole is drawn by it in one call; any other line run by run,
    each run by the face that has its letters (``games.core.fonts``)."""
    if not fonts.latin_only(text, bold):
        drawn = fonts.lettering(text, size, bold, anchor)
        if drawn is None:
            return None, (0, 0), None
        return drawn.mask, (drawn.left, drawn.top), drawn.colour
    face = font(size, bold=bold)
    left, top, right, bottom = face.getbbox(text, anchor=anchor)
    if right <= left or bottom <= top:
        return None, (0, 0), None
    mask = Image.new("L", (right - left, bottom - top), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=face, fill=255, anchor=anchor)
    return mask, (left, top), None


def text_width(text: str, size: int, bold: bool) -> int:
    if fonts.latin_only(text, bold):
        return int(font(size, bold=bold).getlength(text))
    return int(fonts.width(text, size, bold))


@lru_cache(maxsize=4096)
def fitted(text: str, size: int, width: int, bold: bool) -> str:
    """The text, or as much of it as fits before an ellipsis: cut between clusters, so a
    letter keeps its marks and an emoji sequence stays whole."""
    text = plain(text)
    if text_width(text, size, bold) <= width:
        return text
    parts = fonts.clusters(text)
    while parts and text_width("".join(parts) + "…", size, bold) > width:
        parts.pop()
    return "".join(parts).rstrip() + "…"


@lru_cache(maxsize=4096)
def wrapped(text: str, size: int, width: int, lines: int, bold: bool) -> tuple[str, ...]:
    out: list[list[tuple[str, bool]]] = []
    line: list[tuple[str, bool]] = []
    for piece in words(plain(text)):
        if not line or text_width(joined([*line, piece]), size, bold) <= width:
            line.append(piece)
            continue
        out.append(line)
        line = [piece]
    if line:
        out.append(line)
    if len(out) > lines:
        out = [*out[: lines - 1], [piece for rest in out[lines - 1 :] for piece in rest]]
    return tuple(fitted(joined(each), size, width, bold) for each in out)


def joined(pieces: list[tuple[str, bool]]) -> str:
    """Pieces of a line put back together, spaced where a space stood between them."""
    return "".join(
        (" " if spaced and index else "") + word for index, (word, spaced) in enumerate(pieces)
    )


# Japanese and Chinese put no spaces between words: a line may break between any two of
# their letters, except before closing punctuation and small kana or after an opening one.
_NO_BREAK_BEFORE = set(
    "、。，．,.!?！？）」』】〕〉》〗〙〛ー…‥々ゝゞヽヾぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ"
)
_NO_BREAK_AFTER = set("（「『【〔〈《〖〘〚")


def _breakable(cluster: str) -> bool:
    point = ord(cluster[0])
    return 0x2E80 <= point <= 0x9FFF or 0xF900 <= point <= 0xFAFF or 0xFF00 <= point <= 0xFF60


def words(text: str) -> list[tuple[str, bool]]:
    """The pieces a line may break between, each with whether a space stood before it."""
    out: list[tuple[str, bool]] = []
    for word in text.split():
        spaced = True
        piece = ""
        for cluster in fonts.clusters(word):
            cut = (
                piece
                and (_breakable(cluster) or _breakable(piece[-1]))
                and cluster[0] not in _NO_BREAK_BEFORE
                and piece[-1] not in _NO_BREAK_AFTER
            )
            if cut:
                out.append((piece, spaced))
                piece, spaced = "", False
            piece += cluster
        if piece:
            out.append((piece, spaced))
    return out


def hand_picture(game: Picturing, view: BaseModel, language: str = ENGLISH) -> bytes | None:
    """The viewing seat's hand picture, drawn from its scene; None for a spectator."""
    scene = game.hand_scene(view)
    if scene is None:
        return None
    return game.draw_hand(scene, language) if language != ENGLISH else game.draw_hand(scene)


class DrawnBy:
    """Picturing for an engine whose pictures are plain functions in one module (its
    ``picture.py``): ``table_picture(source, view)``, ``hand_scene(view)`` and
    ``draw_hand(source, scene)``, where ``source`` is what the drawings read beside the
    view (``picture_source``: the card catalogue, the pool, or the engine itself)."""

    picture_module: ClassVar[ModuleType]

    def picture_source(self) -> object:
        return self

    def table_picture(self, view: BaseModel, language: str = ENGLISH) -> bytes:
        return self._draw("table_picture", view, language)

    def hand_scene(self, view: BaseModel) -> Hashable | None:
        return self.picture_module.hand_scene(view)  # type: ignore[no-any-return]

    def draw_hand(self, scene: Any, language: str = ENGLISH) -> bytes:
        return self._draw("draw_hand", scene, language)

    def _draw(self, name: str, shown: Any, language: str) -> bytes:
        draw = getattr(self.picture_module, name)
        # A game whose drawings do not take a language yet draws in English (games move to
        # the catalog one by one): only another language is passed on.
        if language == ENGLISH:
            return draw(self.picture_source(), shown)  # type: ignore[no-any-return]
        return draw(self.picture_source(), shown, language)  # type: ignore[no-any-return]
