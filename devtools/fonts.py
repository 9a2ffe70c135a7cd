"""Build the pictures' fallback fonts in ``data/fonts`` from Debian's Noto packages.

    apt-get install fonts-noto-cjk fonts-noto-core fonts-noto-color-emoji
    python -m devtools.fonts [/usr/share/fonts]

The fonts are made once here and committed (``make run`` needs nothing from a system):
subsets, so the checkout and the Docker image stay small (docs/design.md, "Fonts"):

- Korean: the 11,172 Hangul syllables and the compatibility jamo (Noto Sans CJK KR);
- Japanese: kana and the 6,355 kanji of JIS X 0208 levels 1 and 2 (Noto Sans CJK JP);
- Chinese: the hanzi of GB 2312 whose simplified form Japanese lacks or draws otherwise
  (Noto Sans CJK SC); those drawn alike come from the Japanese font;
- Thai, Arabic: their blocks whole (Noto Sans Thai, Noto Sans Arabic);
- emoji: Noto Color Emoji, every emoji, its one bitmap strike scaled from 109 to
  ``EMOJI_PPEM`` pixels an em (bitmaps of about 50 pixels, 64 colours): the pictures draw
  emoji 30 pixels wide at most.

Each CJK, Thai and Arabic subset keeps the space, so a name's words stay in one run.
Needs fontTools (a dev dependency: nothing at run time reads these sources).
"""

from __future__ import annotations

import io
import sys
from collections.abc import Iterable
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection, TTFont
from PIL import Image

from games.core.fonts import EMOJI_PPEM, FONTS

CJK = "opentype/noto/NotoSansCJK-{weight}.ttc"
CORE = "truetype/noto/{name}-{weight}.ttf"
EMOJI = "truetype/noto/NotoColorEmoji.ttf"
# Faces in the Noto Sans CJK collection.
JP, KR, SC = 0, 1, 2
WEIGHTS = ("Regular", "Bold")
SPACES = [0x20, 0xA0, 0x3000]  # kept in every subset: a name's words stay in one run
CJK_PUNCTUATION = [*range(0x3001, 0x3040), *range(0xFF01, 0xFF5F)]
HANGUL = [*range(0xAC00, 0xD7A4), *range(0x3131, 0x318F)]
KANA = [*range(0x3040, 0x3100), *range(0x31F0, 0x3200), *range(0xFF61, 0xFFA0)]
THAI = [*range(0x0E01, 0x0E5C)]
ARABIC = [
    *range(0x0600, 0x0700),
    *range(0x0750, 0x0780),
    *range(0x08A0, 0x0900),
    *range(0xFB50, 0xFE00),
    *range(0xFE70, 0xFF00),
    0x200C,  # zero width non-joiner and joiner: they decide a letter's joined form
    0x200D,
]


def double_byte(codec: str) -> list[int]:
    """The CJK ideographs a legacy double-byte character set holds: its whole repertoire of
    them (JIS X 0208 through Shift JIS: levels 1 and 2; GB 2312: both levels)."""
    found = []
    for point in range(0x4E00, 0xA000):
        try:
            encoded = chr(point).encode(codec)
        except UnicodeEncodeError:
            continue
        if len(encoded) == 2:
            found.append(point)
    return found


def chinese_only(collection: TTCollection) -> list[int]:
    """GB 2312's hanzi that the Japanese face lacks or draws with another glyph (the
    collection shares glyphs between faces: the same glyph id is the same drawing)."""
    japanese = collection.fonts[JP].getBestCmap()
    chinese = collection.fonts[SC].getBestCmap()
    jis = set(double_byte("shift_jis"))
    return [
        point
        for point in double_byte("gb2312")
        if point not in jis or japanese.get(point) != chinese.get(point)
    ]


def cut(font: TTFont, points: Iterable[int], out: Path, *, shaped: bool = False) -> None:
    options = subset.Options()
    options.hinting = False  # FreeType's auto-hinter does as well at these sizes
    options.name_IDs = ["*"]  # the names carry the copyright and licence
    options.name_languages = ["*"]
    options.notdef_outline = True
    if not shaped:
        # Kanji, kana and Hangul are drawn as the cmap maps them. The collection's locl
        # and alternates (jp78, trad, aalt...) would pull in every other region's form
        # of each ideograph: twice the size, never drawn.
        options.layout_features = []
    # (fontTools' default features keep Thai marks and Arabic joining.)
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=sorted(set(points) | set(SPACES)))
    subsetter.subset(font)
    font.save(str(out))
    print(f"{out.name}: {out.stat().st_size // 1024} KB")


def scale_emoji(font: TTFont, ppem: int) -> None:
    """Noto Color Emoji's one bitmap strike scaled down to ``ppem``: each PNG resized and
    reduced to a palette, its metrics scaled, so Pillow loads the font at ``ppem``."""
    strike = font["CBLC"].strikes[0].bitmapSizeTable
    ratio = ppem / strike.ppemY
    for line in (strike.hori, strike.vert):
        for field in ("ascender", "descender", "widthMax", "minOriginSB", "minAdvanceSB"):
            setattr(line, field, round(getattr(line, field) * ratio))
        line.maxBeforeBL = round(line.maxBeforeBL * ratio)
        line.minAfterBL = round(line.minAfterBL * ratio)
    strike.ppemX = strike.ppemY = ppem
    for glyph in font["CBDT"].strikeData[0].values():
        image = Image.open(io.BytesIO(glyph.imageData)).convert("RGBA")
        metrics = glyph.metrics
        size = (max(1, round(image.width * ratio)), max(1, round(image.height * ratio)))
        small = image.resize(size, Image.Resampling.LANCZOS)
        out = io.BytesIO()
        small.quantize(colors=64, method=Image.Quantize.FASTOCTREE).save(out, "PNG", optimize=True)
        glyph.imageData = out.getvalue()
        metrics.width, metrics.height = size
        metrics.BearingX = round(metrics.BearingX * ratio)
        metrics.BearingY = round(metrics.BearingY * ratio)
        metrics.Advance = round(metrics.Advance * ratio)


def build(root: Path) -> None:
    for weight in WEIGHTS:
        collection = TTCollection(str(root / CJK.format(weight=weight)))
        faces = {
            "KR": (KR, HANGUL + CJK_PUNCTUATION),
            "JP": (JP, KANA + double_byte("shift_jis") + CJK_PUNCTUATION),
            "SC": (SC, chinese_only(collection)),
        }
        for name, (face, points) in faces.items():
            fresh = TTCollection(str(root / CJK.format(weight=weight))).fonts[face]
            cut(fresh, points, FONTS / f"NotoSans{name}-{weight}.otf")
        for name, points in (("NotoSansThai", THAI), ("NotoSansArabic", ARABIC)):
            source = TTFont(str(root / CORE.format(name=name, weight=weight)))
            cut(source, points, FONTS / f"{name}-{weight}.ttf", shaped=True)
    emoji = TTFont(str(root / EMOJI))
    scale_emoji(emoji, EMOJI_PPEM)
    out = FONTS / "NotoColorEmoji.ttf"
    emoji.save(str(out))
    print(f"{out.name}: {out.stat().st_size // 1024} KB")


if __name__ == "__main__":
    build(Path(sys.argv[1] if len(sys.argv) > 1 else "/usr/share/fonts"))
