"""Braverse in its readers' languages: prompts, options, log lines, card texts, panels,
/rules and the pictures' words come from the catalog, so Korean reads as written there and
the pseudo-locale shows no English word outside names, numbers and card numbers."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from games.braverse import picture, rules_text
from games.braverse.state import BraverseState
from games.core.panels import Panel, Panels
from games.core.pictures import Canvas
from games.core.protocol import Event
from games.core.text import Text
from games.core.translations import LANGUAGES, PSEUDO, render

from .conftest import GAME

NAMES = ("Ana", "Ben")
# What a pseudo-translation keeps as written: the players' names, card numbers (S1-009),
# slash commands and code in backticks, the product's name, LV and HP figures' digits.
KEPT = re.compile(r"`[^`]*`|S1-\d{3}|\b(?:Ana|Ben)\b|CookieRun: Braverse")
WORD = re.compile(r"[A-Za-z]{2,}")


def english_words(text: str) -> list[str]:
    return WORD.findall(KEPT.sub("", text))


def played(steps: int, seed: int = 7) -> Iterator[tuple[BraverseState, list[Event]]]:
    """A bot-played match, state by state."""
    state = GAME.setup(GAME.options_model(), NAMES, seed)
    yield state, list(state.log)
    for _ in range(steps):
        decisions = GAME.decided(state)
        if not decisions:
            return
        decision = decisions[0]
        state, events = GAME.apply(
            state, decision.seat, GAME.bot_action(state, decision.seat, decision=decision)
        )
        yield state, events


def panel_words(panel: Panel | None) -> Iterator[str]:
    if panel is None:
        return
    yield from (panel.title, panel.description, panel.footer, panel.brief)
    for field in panel.fields:
        yield from (field.name, field.value, field.brief)


def everything_said(state: BraverseState, events: list[Event]) -> Iterator[str]:
    yield from (e.text for e in events)
    yield state.reason
    for decision in GAME.decided(state):
        yield decision.prompt
        for option in decision.options:
            yield from (option.label, option.group, option.description)
    for seat in (None, 0, 1):
        panels: Panels = GAME.panels(GAME.view(state, seat))
        for panel in (panels.table, panels.hand, panels.details):
            yield from panel_words(panel)


def test_a_decision_is_asked_in_korean_from_the_catalog() -> None:
    state = GAME.setup(GAME.options_model(), NAMES, 7)
    (decision,) = GAME.decided(state)
    assert render(decision.prompt, "ko") == "가위바위보에서 이겼어요. 선공할까요, 후공할까요?"
    assert [render(o.label, "ko") for o in decision.options] == ["선공", "후공"]


def test_a_log_line_reads_in_korean_with_the_name_as_written() -> None:
    state = GAME.setup(GAME.options_model(), ("김철수", "Ben"), 7)
    chooser = state.names[state.chooser]
    (line,) = state.log
    # The subject particle follows the name: 김철수가 (a vowel), Ben이 (a consonant).
    particle = "가" if chooser == "김철수" else "이"
    assert render(line.text, "ko") == f"✊ {chooser}{particle} 가위바위보에서 이겨서 선공을 정해요."
    assert (
        render(line.text, "es")
        == f"✊ {chooser} gana piedra, papel o tijera y elige quién empieza."
    )


def test_a_card_text_reads_in_korean_line_by_line() -> None:
    assert render(GAME.pool["S1-009"].text, "ko") == (
        "S1-009 화산 공작부인 — 쿠키 · 빨강 · LV3 · HP 4 · FLIP\n"
        "공격 (빨강 2 + 아무 색 1): 3 피해.\n"
        "FLIP (무료): 상대의 쿠키 최대 2장에게 1 피해를 줘요."
    )
    assert render(GAME.pool["S1-006"].text, "ja").splitlines()[1] == (
        "攻撃（赤1 + 任意の色1）：2ダメージ。その後：相手のLV1クッキー1枚に1ダメージを与える。"
    )


def test_a_card_name_is_the_catalogs_wherever_the_card_is_named() -> None:
    card = GAME.pool["S1-009"]
    assert render(card.title, "ja") == "火山の公爵夫人"
    assert render(card.label, "pt_BR") == "🟥 Duquesa Vulcânica"
    assert card.title == "Volcano Duchess"  # the English is the card list's own


@pytest.mark.parametrize("language", ["ko", "ja", "es", "pt_BR"])
def test_every_card_text_is_translated(language: str) -> None:
    """No line of any card falls back to English: each sentence is in the catalog."""
    for card in GAME.pool.cards:
        text = render(card.text, language)
        if language in ("ko", "ja"):  # no Latin letters but the game's own symbols
            leftover = [w for w in english_words(text) if w not in ("LV", "HP", "FLIP")]
            assert not leftover, (card.number, leftover, text)
        for line, english in zip(text.splitlines(), str(card.text).splitlines(), strict=True):
            assert line != english, (card.number, line)


def test_a_played_match_says_nothing_in_english_in_pseudo() -> None:
    """Every log line, prompt, option, panel and the result, rendered in the pseudo-locale,
    keeps no English word: whatever skipped the catalog would show as plain English."""
    said = 0
    for state, events in played(400):
        for words in everything_said(state, events):
            if not words:
                continue
            text = render(words, PSEUDO)
            assert not english_words(text), (str(words), text)
            said += 1
    assert said > 1000


def test_rules_and_cards_say_nothing_in_english_in_pseudo() -> None:
    # The rulebook's own paragraphs; its opening "How to play here" is games.core's.
    for words in (GAME.quick_start, rules_text.game_rules(GAME.pool), GAME.rulings_text()):
        assert not english_words(render(words, PSEUDO)), render(words, PSEUDO)
    for card in GAME.pool.cards:
        assert not english_words(render(card.text, PSEUDO))
    assert GAME.rulebook() == GAME.rules_text() + "\n" + GAME.rulings_text()


def test_deck_problems_are_sentences_of_the_catalog() -> None:
    problems = GAME.list_problems(["S1-009"] * 5)
    assert [render(p, "ko") for p in problems] == [
        "덱이 5장이에요. 정확히 60장이어야 해요.",
        "S1-009 화산 공작부인: 5장이에요. 같은 카드 번호는 최대 4장이에요.",
    ]


def test_the_pictures_draw_their_words_in_the_language_asked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Checked at the drawing calls: every word the table and a hand draw, in pseudo."""
    drawn: list[str] = []
    text, paragraph = Canvas.text, Canvas.paragraph

    def record_text(self: Canvas, xy: object, words: str, *args: object, **kw: object) -> object:
        drawn.append(words)
        return text(self, xy, words, *args, **kw)  # type: ignore[arg-type]

    def record_paragraph(
        self: Canvas, xy: object, words: str, *args: object, **kw: object
    ) -> object:
        drawn.append(words)
        return paragraph(self, xy, words, *args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(Canvas, "text", record_text)
    monkeypatch.setattr(Canvas, "paragraph", record_paragraph)
    states = [state for state, _ in played(120)]
    for state in states[20::25]:
        picture.table_picture(GAME.pool, GAME.view(state, None), PSEUDO)
        scene = picture.hand_scene(GAME.view(state, 0))
        assert scene is not None
        picture.draw_hand(GAME.pool, scene, PSEUDO)
    assert len(drawn) > 100
    for words in drawn:
        assert not isinstance(words, Text)  # rendered before it is drawn
        assert not english_words(words), words
    drawn.clear()
    picture.table_picture(GAME.pool, GAME.view(states[40], None))
    assert "Battle Area" in drawn or any("Break Area" in w for w in drawn)  # English by default


def test_a_stored_match_with_plain_english_lines_still_shows() -> None:
    """Matches stored before kept their log as English text: they load, and show as such."""
    state = next(s for s, _ in played(60) if s.round >= 2)
    data = state.model_dump(mode="json")
    data["log"] = [{**line, "text": str(Text.from_data(line["text"]))} for line in data["log"]]
    old = GAME.load_state(BraverseState.model_validate(data).model_dump_json())
    assert all(type(line.text) is str for line in old.log)
    panels = GAME.panels(GAME.view(old, None))
    log = next(f for f in panels.table.fields if f.name == "Log")
    public = [line.text for line in old.log if line.visible_for(None)]
    assert render(log.value, "ko").splitlines()[-1] == public[-1]


def test_the_table_fits_discords_fields_in_every_language() -> None:
    """A field holds 1,024 characters: the log keeps the last lines that fit in the longest
    language, and every other field of the table fits as well."""
    for state, _ in played(300):
        panels = GAME.panels(GAME.view(state, 0))
        for panel in (panels.table, panels.hand, panels.details):
            if panel is None:
                continue
            for field in panel.fields:
                for language in LANGUAGES:
                    assert len(render(field.value, language)) <= 1024, field.name
                    assert len(render(field.name, language)) <= 256, field.name


def test_a_pile_of_every_card_fits_a_field_in_every_language() -> None:
    """The whole pool in one Discard Pile: the field says as many cards as fit, then …"""
    state = next(s for s, _ in played(40) if s.round >= 1)
    state.sides[1].discard = [c.number for c in GAME.pool.cards] * 2
    details = GAME.panels(GAME.view(state, None)).details
    assert details is not None
    pile = details.fields[3].value
    for language in LANGUAGES:
        shown = render(pile, language)
        assert len(shown) <= 1024 and shown.endswith("…"), language
    assert render(pile, "ko").startswith("불씨 정찰병 ×2, 잉걸불 강아지 ×2")
