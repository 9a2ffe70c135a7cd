"""Which font draws which letter: every script and emoji a name may hold, never a box.

The pictures' own font is DejaVu Sans (Latin, Greek, Cyrillic). Beside it, in
``data/fonts``, subsets of Noto made by ``devtools/fonts.py`` (docs/design.md, "Fonts"):
Arabic, Thai, Korean, Japanese, Chinese and colour emoji. A line of text is cut into runs,
each drawn by the first face in ``CHAIN`` that has every letter of a cluster (a letter
with its marks, an emoji sequence); each run is shaped whole (raqm: Thai marks, Arabic
joining and direction, emoji sequences). A cluster no face has is drawn as a placeholder:
a small rounded box with a question mark, faded, never the font's empty box.

Kanji shared by Japanese and Chinese take the Japanese form, unless the stretch of CJK
they stand in has no kana and a hanzi only the Chinese face has: then it is Chinese and
takes the Chinese forms where they differ.

Fonts come from this repository only, never the system's, so every machine draws alike.
"""

from __future__ import annotations

import logging
import struct
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont, features

from games.core.cards import DATA_DIR

FONTS = DATA_DIR / "fonts"
EMOJI_PPEM = 40  # the emoji font's one bitmap strike, in pixels (devtools/fonts.py)
EMOJI_SCALE = 1.0  # an emoji's em against the text's: Noto's are 1.25 em wide
PLACEHOLDER_SHADE = 190  # the placeholder's ink, of 255: muted beside the letters


@dataclass(frozen=True)
class Face:
    name: str
    regular: str
    bold: str
    colour: bool = False  # a bitmap colour font (emoji), drawn in its own colours

    def path(self, bold: bool) -> Path:
        return FONTS / (self.bold if bold else self.regular)


LATIN = Face("latin", "DejaVuSans.ttf", "DejaVuSans-Bold.ttf")
ARABIC = Face("arabic", "NotoSansArabic-Regular.ttf", "NotoSansArabic-Bold.ttf")
THAI = Face("thai", "NotoSansThai-Regular.ttf", "NotoSansThai-Bold.ttf")
KOREAN = Face("korean", "NotoSansKR-Regular.otf", "NotoSansKR-Bold.otf")
JAPANESE = Face("japanese", "NotoSansJP-Regular.otf", "NotoSansJP-Bold.otf")
CHINESE = Face("chinese", "NotoSansSC-Regular.otf", "NotoSansSC-Bold.otf")
EMOJI = Face("emoji", "NotoColorEmoji.ttf", "NotoColorEmoji.ttf", colour=True)
# Arabic first: DejaVu Sans has Arabic letters too, Noto's are better drawn and joined
# (the Arabic subset holds nothing else, so it claims nothing else).
CHAIN: tuple[Face, ...] = (ARABIC, LATIN, THAI, KOREAN, JAPANESE, CHINESE, EMOJI)
FACES = {face.name: face for face in CHAIN}

Run = tuple[Face | None, str]  # None: clusters no face has, drawn as the placeholder


@cache
def layout_engine() -> ImageFont.Layout:
    """Raqm (HarfBuzz and FriBiDi) shapes Thai marks, Arabic joining and emoji sequences.
    Pillow's wheels carry it but load FriBiDi from the system (Debian: libfribidi0, which
    the Dockerfile installs); without it letters are drawn unshaped, and we say so once."""
    if features.check_feature("raqm"):
        return ImageFont.Layout.RAQM
    logging.getLogger(__name__).warning(
        "Pillow has no raqm (install libfribidi0): Thai and Arabic names are drawn unshaped"
    )
    return ImageFont.Layout.BASIC


@cache
def font(face: Face, size: int, bold: bool) -> ImageFont.FreeTypeFont:
    path = str(face.path(bold))
    if face.colour:  # a bitmap font loads at its strike's size only; drawings scale it
        return ImageFont.truetype(path, EMOJI_PPEM, layout_engine=layout_engine())
    return ImageFont.truetype(path, size, layout_engine=layout_engine())


@cache
def coverage(path: Path) -> frozenset[int]:
    """The code points a font file maps to a glyph (its best Unicode cmap)."""
    return frozenset(read_cmap(path.read_bytes()))


@cache
def face_coverage(face: Face, bold: bool) -> frozenset[int]:
    # Kept per face: building the file's path on every letter was a twentieth of a picture.
    return coverage(face.path(bold))


def covers(face: Face, point: int, bold: bool = False) -> bool:
    return point in face_coverage(face, bold)


def read_cmap(data: bytes) -> Iterator[int]:
    """The code points of an OpenType file's Unicode cmap (formats 4 and 12): read here
    because Pillow does not tell which letters a font has."""
    (count,) = struct.unpack_from(">H", data, 4)
    tables = {}
    for index in range(count):
        tag, _, offset, _ = struct.unpack_from(">4sIII", data, 12 + 16 * index)
        tables[tag] = offset
    cmap = tables[b"cmap"]
    _, records = struct.unpack_from(">HH", data, cmap)
    subtables = {}
    for index in range(records):
        platform, encoding, offset = struct.unpack_from(">HHI", data, cmap + 4 + 8 * index)
        subtables[(platform, encoding)] = cmap + offset
    for key in ((3, 10), (0, 6), (0, 4), (3, 1), (0, 3)):
        if key in subtables and struct.unpack_from(">H", data, subtables[key])[0] in (4, 12):
            yield from _cmap_points(data, subtables[key])
            return


def _cmap_points(data: bytes, at: int) -> Iterator[int]:
    (kind,) = struct.unpack_from(">H", data, at)
    if kind == 12:
        (groups,) = struct.unpack_from(">I", data, at + 12)
        for index in range(groups):
            start, end, glyph = struct.unpack_from(">III", data, at + 16 + 12 * index)
            yield from range(start if glyph else start + 1, end + 1)
        return
    (doubled,) = struct.unpack_from(">H", data, at + 6)
    segments = doubled // 2
    ends = struct.unpack_from(f">{segments}H", data, at + 14)
    starts = struct.unpack_from(f">{segments}H", data, at + 16 + doubled)
    deltas = struct.unpack_from(f">{segments}h", data, at + 16 + 2 * doubled)
    ranges_at = at + 16 + 3 * doubled
    ranges = struct.unpack_from(f">{segments}H", data, ranges_at)
    for index in range(segments):
        for point in range(starts[index], ends[index] + 1):
            if point == 0xFFFF:
                continue
            if ranges[index] == 0:
                glyph = (point + deltas[index]) & 0xFFFF
            else:
                where = ranges_at + 2 * index + ranges[index] + 2 * (point - starts[index])
                (glyph,) = struct.unpack_from(">H", data, where)
                glyph = (glyph + deltas[index]) & 0xFFFF if glyph else 0
            if glyph:
                yield point


# --- clusters: what must stay together ---------------------------------------------------
ZWJ = "\u200d"


def ignorable(char: str) -> bool:
    """Drawn as nothing by any shaper, in a font or not: joiners, variation selectors,
    direction marks, tags."""
    point = ord(char)
    return (
        unicodedata.category(char) == "Cf"
        or 0xFE00 <= point <= 0xFE0F
        or 0xE0100 <= point <= 0xE01EF
        or 0xE0020 <= point <= 0xE007F
    )


def _regional(char: str) -> bool:
    return 0x1F1E6 <= ord(char) <= 0x1F1FF


def clusters(text: str) -> list[str]:
    """The text cut where a cut may fall: never between a letter and its marks, inside an
    emoji sequence (joiners, skin tones, keycaps, tags) or a flag's pair of letters."""
    out: list[str] = []
    for char in text:
        if out:
            last = out[-1]
            joined = (
                unicodedata.category(char) in ("Mn", "Mc", "Me")
                or ignorable(char)
                or 0x1F3FB <= ord(char) <= 0x1F3FF  # a skin tone
                or last.endswith(ZWJ)
                or (_regional(char) and len(last) == 1 and _regional(last))
            )
            if joined:
                out[-1] = last + char
                continue
        out.append(char)
    return out


def _emoji_first(cluster: str) -> bool:
    """An emoji drawn as a picture: a pictograph past U+1F000, or any sequence asking for
    emoji presentation (VS16, a keycap, a joiner); ☺ alone stays a letter of the text."""
    return ord(cluster[0]) >= 0x1F000 or any(c in cluster for c in "\ufe0f\u20e3\u200d")


def _has(face: Face, cluster: str, bold: bool) -> bool:
    have = face_coverage(face, bold)
    return all(ord(c) in have or ignorable(c) for c in cluster) and ord(cluster[0]) in have


def _neutral(cluster: str) -> bool:
    # Spaces and punctuation belong to the run around them: "محمد علي" stays one run, and
    # a Japanese "、" is drawn by the Japanese face, not the Korean one before it.
    return unicodedata.category(cluster[0])[0] in "ZP"


def _punctuation(cluster: str) -> bool:
    return unicodedata.category(cluster[0])[0] == "P"


def _face_for(cluster: str, current: Face | None, bold: bool) -> Face | None:
    if all(ignorable(c) for c in cluster):  # a stray mark of direction or a lone VS16:
        return current or LATIN  # drawn as nothing by whichever run it joins
    if _neutral(cluster):
        for face in (current, LATIN):
            if face is not None and not face.colour and _has(face, cluster, bold):
                return face
    if _emoji_first(cluster) and _has(EMOJI, cluster, bold):
        return EMOJI
    for face in CHAIN:
        if _has(face, cluster, bold):
            return face
    return None


def _kana(cluster: str) -> bool:
    return 0x3040 <= ord(cluster[0]) <= 0x30FF or 0x31F0 <= ord(cluster[0]) <= 0x31FF


def _cjk(face: Face | None) -> bool:
    return face in (JAPANESE, CHINESE)


def _chinese_stretches(parts: list[str], faces: list[Face | None], bold: bool) -> None:
    """Gives a stretch of kanji the Chinese face when it reads as Chinese (no kana, a
    hanzi only the Chinese face has): its other hanzi take the Chinese forms too."""
    index = 0
    while index < len(parts):
        if not _cjk(faces[index]) or parts[index].isspace():
            index += 1
            continue
        end = index
        # punctuation stays in the stretch, a space ends it (names are written apart)
        while (
            end < len(parts)
            and not parts[end].isspace()
            and (_cjk(faces[end]) or _punctuation(parts[end]))
        ):
            end += 1
        stretch = range(index, end)
        chinese = not any(_kana(parts[i]) for i in stretch) and any(
            faces[i] is CHINESE for i in stretch
        )
        if chinese:
            for i in stretch:
                if faces[i] is JAPANESE and _has(CHINESE, parts[i], bold):
                    faces[i] = CHINESE
        index = end


@lru_cache(maxsize=8192)
def layout(text: str, bold: bool = False) -> tuple[Run, ...]:
    """The text in runs, each with the face that draws it (None: the placeholder)."""
    parts = clusters(unicodedata.normalize("NFC", text))
    faces: list[Face | None] = []
    current: Face | None = None
    for part in parts:
        current = _face_for(part, current, bold)
        faces.append(current)
    _chinese_stretches(parts, faces, bold)
    runs: list[Run] = []
    for part, face in zip(parts, faces, strict=True):
        if runs and runs[-1][0] is face:
            runs[-1] = (face, runs[-1][1] + part)
        else:
            runs.append((face, part))
    return tuple(runs)


@lru_cache(maxsize=8192)
def latin_only(text: str, bold: bool = False) -> bool:
    """Whether DejaVu Sans draws the whole line: the common case, drawn as it always was."""
    have = face_coverage(LATIN, bold)
    return all(ord(c) in have for c in text) and not any(0x600 <= ord(c) < 0x700 for c in text)


# --- drawing ------------------------------------------------------------------------------
def _placeholder_width(size: int) -> int:
    return max(7, round(size * 0.72)) + 2


def run_width(face: Face | None, run: str, size: int, bold: bool) -> float:
    if face is None:
        return _placeholder_width(size) * len(clusters(run))
    if face.colour:
        return font(face, size, bold).getlength(run) * size / EMOJI_PPEM * EMOJI_SCALE
    return font(face, size, bold).getlength(run)


@lru_cache(maxsize=8192)
def width(text: str, size: int, bold: bool) -> float:
    """How far the text advances, drawn by its runs."""
    return sum(run_width(face, run, size, bold) for face, run in layout(text, bold))


@dataclass(frozen=True)
class Lettering:
    """A line of text drawn by several faces: ``mask`` takes the text's colour, ``colour``
    (emoji) is pasted over in its own; ``left``/``top`` place them from the anchor."""

    mask: Image.Image
    colour: Image.Image | None
    left: int
    top: int


def _baseline_shift(anchor: str, size: int, bold: bool) -> int:
    """From the anchor's y to the baseline, by the text face's metrics as Pillow uses them."""
    ascent, descent = font(LATIN, size, bold).getmetrics()
    vertical = anchor[1]
    if vertical == "a":
        return ascent
    if vertical == "m":
        return (ascent - descent) // 2
    if vertical == "d":
        return -descent
    return 0  # "s": the baseline


def lettering(text: str, size: int, bold: bool, anchor: str) -> Lettering | None:
    """A line drawn run by run on a common baseline; None for nothing to draw."""
    runs = layout(text, bold)
    total = sum(run_width(face, run, size, bold) for face, run in runs)
    if total <= 0:
        return None
    room = size * 2  # above and below the baseline: marks and emoji stand out of the line
    height = room * 2
    mask = Image.new("L", (int(total) + room * 2, height), 0)
    colour: Image.Image | None = None
    pen = ImageDraw.Draw(mask)
    x = float(room)
    for face, run in runs:
        advance = run_width(face, run, size, bold)
        if face is None:
            _placeholders(pen, x, room, run, size)
        elif face.colour:
            colour = colour or Image.new("RGBA", mask.size, (0, 0, 0, 0))
            _emoji(colour, x, room, run, size, bold)
        else:
            pen.text((x, room), run, font=font(face, size, bold), fill=255, anchor="ls")
        x += advance
    box = _union(mask.getbbox(), colour.getbbox() if colour else None)
    if box is None:
        return None
    mask = mask.crop(box)
    colour = colour.crop(box) if colour else None
    horizontal = {"l": 0.0, "m": total / 2, "r": total}[anchor[0]]
    left = box[0] - room - round(horizontal)
    if anchor[1] in "tb":  # Pillow's top and bottom are the ink's
        top = 0 if anchor[1] == "t" else box[1] - box[3]
    else:
        top = box[1] - room + _baseline_shift(anchor, size, bold)
    return Lettering(mask, colour, left, top)


def _union(one: tuple[int, ...] | None, other: tuple[int, ...] | None) -> tuple[int, ...] | None:
    if one is None or other is None:
        return one or other
    return (
        min(one[0], other[0]),
        min(one[1], other[1]),
        max(one[2], other[2]),
        max(one[3], other[3]),
    )


def _emoji(target: Image.Image, x: float, baseline: int, run: str, size: int, bold: bool) -> None:
    face = font(EMOJI, size, bold)
    left, top, right, bottom = face.getbbox(run, anchor="ls")
    if right <= left or bottom <= top:
        return
    drawn = Image.new("RGBA", (right - left, bottom - top), (0, 0, 0, 0))
    ImageDraw.Draw(drawn).text((-left, -top), run, font=face, embedded_color=True, anchor="ls")
    scale = size / EMOJI_PPEM * EMOJI_SCALE
    small = drawn.resize(
        (max(1, round(drawn.width * scale)), max(1, round(drawn.height * scale))),
        Image.Resampling.LANCZOS,
    )
    target.alpha_composite(small, (round(x + left * scale), round(baseline + top * scale)))


def _placeholders(pen: ImageDraw.ImageDraw, x: float, baseline: int, run: str, size: int) -> None:
    """A faded rounded box with "?" for each cluster no font has: the reader sees that a
    letter is there and that the picture cannot draw it, where a font would draw an empty
    box that looks like a letter of its own."""
    step = _placeholder_width(size)
    box_height = round(size * 0.8)
    mark = font(LATIN, max(6, round(size * 0.7)), True)
    for index in range(len(clusters(run))):
        x0 = round(x) + index * step + 1
        box = (x0, baseline - box_height, x0 + step - 3, baseline)
        pen.rounded_rectangle(box, max(2, size // 6), outline=PLACEHOLDER_SHADE, width=1)
        middle = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
        pen.text(middle, "?", font=mark, fill=PLACEHOLDER_SHADE, anchor="mm")
