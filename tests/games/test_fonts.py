"""Every script and emoji a name may hold is drawn with a real glyph: which face draws which
letter (games/core/fonts.py), and pictures with such names checked at the drawing call."""

from __future__ import annotations

import io
import random
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont
from PIL import Image, ImageDraw

from games import GAMES
from games.core import contract, fonts, pictures
from games.core.fonts import ARABIC, CHAIN, CHINESE, EMOJI, JAPANESE, KOREAN, LATIN, THAI
from games.core.pictures import PALETTE, Canvas

# The names: Hangul, Japanese, Thai, Cyrillic, Greek, Arabic, emoji.
WORLD = ("김철수", "田中太郎", "สมชาย", "Привет", "Γιάννης", "محمد", "Ana 🍪")
NOBODY_HAS = "\U00013000"  # an Egyptian hieroglyph: in none of the pictures' fonts


@cache
def cmap(path: str) -> frozenset[int]:
    """The font's code points as fontTools reads them: the check does not trust our reader."""
    return frozenset(TTFont(path).getBestCmap())


def files() -> list[Path]:
    return sorted({face.path(bold) for face in CHAIN for bold in (False, True)})


@pytest.mark.parametrize("path", files(), ids=lambda p: p.name)
def test_each_font_ships_and_our_cmap_reader_reads_what_fonttools_reads(path: Path) -> None:
    assert path.parent == pictures.FONTS and path.stat().st_size < 4 * 1024 * 1024
    assert fonts.coverage(path) == cmap(str(path))


def test_the_noto_fonts_ship_with_their_licence() -> None:
    text = (pictures.FONTS / "LICENSE-Noto.txt").read_text()
    assert "SIL OPEN FONT LICENSE Version 1.1" in text and "Reserved Font Name" in text
    for face in CHAIN[1:]:
        if face is not LATIN:
            assert face.regular.split("-")[0] in text, face.name


def faces(text: str) -> list[tuple[str | None, str]]:
    return [(face.name if face else None, run) for face, run in fonts.layout(text)]


def test_each_name_is_drawn_by_the_face_of_its_script() -> None:
    assert faces("김철수") == [("korean", "김철수")]
    assert faces("田中太郎") == [("japanese", "田中太郎")]
    assert faces("สมชาย") == [("thai", "สมชาย")]
    assert faces("Привет") == [("latin", "Привет")]
    assert faces("Γιάννης") == [("latin", "Γιάννης")]
    assert faces("محمد علي") == [("arabic", "محمد علي")]  # the space keeps the run whole
    assert faces("Ana 🍪") == [("latin", "Ana "), ("emoji", "🍪")]
    assert faces("▶ 김철수") == [("latin", "▶ "), ("korean", "김철수")]


def test_kanji_take_the_chinese_form_only_in_a_stretch_that_reads_as_chinese() -> None:
    # 张 is simplified Chinese, in no Japanese set: the stretch is Chinese, and 伟 with it.
    assert faces("张伟") == [("chinese", "张伟")]
    # 骨 is drawn otherwise in Chinese and Japanese: kana make the stretch Japanese.
    assert fonts.covers(CHINESE, ord("骨")) and faces("骨のある") == [("japanese", "骨のある")]
    assert faces("骨") == [("japanese", "骨")]  # alone, the shipped language's form
    # Two stretches, two readings.
    assert [(face, run.strip()) for face, run in faces("骨张 田中さん")] == [
        ("chinese", "骨张"),
        ("japanese", "田中さん"),
    ]


def test_emoji_sequences_stay_whole_and_text_symbols_stay_text() -> None:
    for sequence in ("👍🏽", "🇰🇷", "👩\u200d💻", "1\ufe0f\u20e3", "❤\ufe0f"):
        assert fonts.clusters(sequence) == [sequence]
        assert faces(sequence) == [("emoji", sequence)], sequence
    assert faces("❤") == [("latin", "❤")]  # without VS16, the text form DejaVu has
    # Invisible marks that open a name are no missing letter.
    for invisible in ("\u200e", "\ufe0f", "\U000e0041", "\u2066"):
        assert None not in [face for face, _ in faces(invisible + "김철수")], invisible
    assert fonts.clusters("ที่นี่") == ["ที่", "นี่"]  # Thai marks stay on their letter


def test_a_letter_no_face_has_is_the_placeholder_and_only_that() -> None:
    assert faces(f"Ana{NOBODY_HAS}{NOBODY_HAS}") == [("latin", "Ana"), (None, NOBODY_HAS * 2)]
    assert all(ord(NOBODY_HAS) not in cmap(str(path)) for path in files())
    canvas = Canvas(60)
    canvas.text((20, 20), NOBODY_HAS, 20, PALETTE.text)
    inked = canvas.image.crop((20, 20, 40, 44)).convert("L").getextrema()
    assert inked[1] > max(PALETTE.panel) + 40  # something is drawn: the box and its "?"


@pytest.mark.parametrize("anchor", ["la", "ma", "mm", "ra", "rm", "rb", "lm", "ls", "rd", "lt"])
def test_run_by_run_lettering_sits_where_one_call_would(anchor: str) -> None:
    for size, bold in ((20, True), (15, False)):
        face = pictures.font(size, bold=bold)
        left, top, _, _ = face.getbbox("Ana Ben", anchor=anchor)
        drawn = fonts.lettering("Ana Ben", size, bold, anchor)
        assert drawn is not None
        assert abs(drawn.left - left) <= 1 and abs(drawn.top - top) <= 1, (size, anchor)


def test_cutting_keeps_clusters_and_wrapping_breaks_between_japanese_letters() -> None:
    cut = pictures.fitted("👩\u200d💻👩\u200d💻👩\u200d💻 Ana the programmer", 20, 70, True)
    assert cut.endswith("…") and "\u200d…" not in cut and cut.count("👩\u200d💻") >= 1
    sentence = "田中太郎さんがカードを三枚引きました。次は王さんの番です。"
    lines = pictures.wrapped(sentence, 16, 200, 3, False)
    assert len(lines) >= 2 and "".join(lines).replace("…", "") in sentence
    assert all(pictures.text_width(line, 16, False) <= 200 for line in lines)
    assert not any(line.startswith(("。", "、")) for line in lines)
    # Latin wraps between words as it always did
    assert pictures.wrapped("Ana draws a card", 16, 80, 3, False) == ("Ana", "draws a", "card")
    long = "Ana draws a card and then another one"
    assert pictures.wrapped(long, 16, 120, 2, True) == ("Ana draws a", "card and th…")


# --- pictures with the world's names, checked at the drawing call ------------------------
Drawn = list[tuple[str, str]]


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Drawn, list[str]]]:
    """Every string handed to Pillow with the font file drawing it, and every cluster drawn
    as the placeholder: the caches are emptied so nothing drawn before hides a call."""
    calls: Drawn = []
    placeholders: list[str] = []
    real_text = ImageDraw.ImageDraw.text
    real_placeholders = fonts._placeholders

    def text(self: ImageDraw.ImageDraw, xy, text, fill=None, font=None, *args, **kwargs):  # type: ignore[no-untyped-def]
        calls.append((text, font.path))
        return real_text(self, xy, text, fill, font, *args, **kwargs)

    def placeholder(pen, x, baseline, run, size):  # type: ignore[no-untyped-def]
        placeholders.extend(fonts.clusters(run))
        return real_placeholders(pen, x, baseline, run, size)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", text)
    monkeypatch.setattr(fonts, "_placeholders", placeholder)
    for cached in (pictures.letters, pictures.fitted, pictures.wrapped, fonts.layout):
        cached.cache_clear()
    yield calls, placeholders
    for cached in (pictures.letters, pictures.fitted, pictures.wrapped, fonts.layout):
        cached.cache_clear()


def real_glyphs(calls: Drawn) -> None:
    """Each letter reaching Pillow is one its font maps to a glyph (joiners and variation
    selectors excepted: no shaper draws them)."""
    for text, path in calls:
        have = cmap(path)
        missing = [c for c in text if ord(c) not in have and not fonts.ignorable(c)]
        assert not missing, (text, Path(path).name, missing)


def tables(names: tuple[str, ...]) -> dict[str, bytes]:
    out = {}
    for key in ("toss_your_cookies", "cover_your_assets"):
        game = GAMES[key]
        players = names[: game.max_players]
        state = game.setup(game.options_model(), players, 7)
        rng = random.Random(3)
        for _ in range(6):  # a few moves in: turns, counts and the log under way
            decision = rng.choice(game.decisions(state))
            move = contract.next_move(game, state, decision, rng)
            state, _ = game.apply(state, decision.seat, move)
        out[key] = game.table_picture(game.view(state, None))
    return out


def test_the_worlds_names_are_drawn_with_real_glyphs_and_no_placeholder(
    drawn: tuple[Drawn, list[str]],
) -> None:
    calls, placeholders = drawn
    pngs = tables(WORLD)
    assert all(Image.open(io.BytesIO(png)).size[0] == pictures.WIDTH for png in pngs.values())
    real_glyphs(calls)
    assert placeholders == []
    used = {Path(path).name for _, path in calls}
    for face in (KOREAN, JAPANESE, THAI, ARABIC, EMOJI, LATIN):
        assert face.path(True).name in used or face.path(False).name in used, face.name
    shown = "".join(text for text, _ in calls)
    for name in WORLD:  # each name drawn whole, as written (in one call or one per run)
        for _, run in fonts.layout(name):
            assert run.strip() in shown, name


def test_only_a_letter_no_font_has_becomes_the_placeholder(
    drawn: tuple[Drawn, list[str]],
) -> None:
    calls, placeholders = drawn
    tables((f"Ana{NOBODY_HAS}", "김철수", "Ben 🍪"))
    real_glyphs(calls)
    assert placeholders and set(placeholders) == {NOBODY_HAS}


def test_without_raqm_the_names_are_still_drawn_and_the_log_says_why(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A machine whose Pillow cannot load FriBiDi draws unshaped letters, never nothing."""
    from PIL import ImageFont, features

    monkeypatch.setattr(features, "check_feature", lambda name: False)
    for cached in (fonts.layout_engine, fonts.font, fonts.width, fonts.layout, pictures.letters):
        cached.cache_clear()
    try:
        assert fonts.layout_engine() == ImageFont.Layout.BASIC
        assert "libfribidi0" in caplog.text
        drawn = fonts.lettering("สมชาย محمد", 20, True, "la")
        assert drawn is not None and drawn.mask.getbbox() is not None
    finally:
        for cached in (fonts.layout_engine, fonts.font, fonts.width, fonts.layout):
            cached.cache_clear()
        pictures.letters.cache_clear()
