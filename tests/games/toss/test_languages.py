"""Toss Your Cookies speaks the reader's language: decisions, log lines, panels, pictures
and /rules come from the catalog, and older stored matches (plain English lines) still load."""

from __future__ import annotations

import json

import pytest

from games import GAMES
from games.core.options import describe
from games.core.translations import LANGUAGES, PSEUDO, render
from games.toss.picture import draw_hand, hand_scene, table_picture
from games.toss.rules_text import rules_text
from games.toss.state import TossOptions
from tests.games.speaking import (
    english_words,
    over_the_limits,
    played_through,
    record_drawing,
    untranslated,
)
from tests.games.toss.conftest import NAMES, Table, seven

HANDS = {
    "Ana": seven("chip", "chip", "fudge", "fudge", "half", "sugar", "milk"),
    "Ben": seven("ginger", "ginger", "ginger", "ginger", "fudge", "fudge", "wild"),
    "Cleo": seven("sugar", "sugar", "sugar", "sugar", "chip", "ginger", "wild"),
    "Dev": seven("chip", "chip", "chip", "ginger", "sugar", "fudge", "fudge"),
}


def tossed() -> Table:
    """Everyone tossed one card: the scramble is on."""
    t = Table(dict(HANDS))
    t.roll("Ana", "toss", "1")
    for name, card in (("Ana", "half"), ("Ben", "wild"), ("Cleo", "sugar"), ("Dev", "fudge")):
        t.play(name, "toss", card)
    return t


def test_a_decision_a_log_line_and_a_panel_in_korean() -> None:
    t = Table(dict(HANDS))
    t.roll("Ana", "toss", "2")
    assert render(t.decision("Ben").prompt, "ko") == "던질 카드 2장을 고르세요."
    assert render(t.public_log()[-1], "ko") == "🎲 Ana 님이 굴림: 던지기 · 2."
    table = t.game.panels(t.game.view(t.state, None)).table
    assert render(table.description, "ko") == (
        "🎲 **던지기 · 2**\n"
        "🤫 모두 던질 카드 2장을 골라요. 모두 고를 때까지 아무것도 움직이지 않아요."
    )
    hand = t.game.panels(t.game.view(t.state, t.seat("Ana"))).hand
    assert hand is not None
    assert render(hand.title, "ko") == "내 패 (7장)"
    assert render(hand.fields[0].value, "ko") == "최고: 🍪 초코칩 5장 중 2장 · 우유 ✅"


def test_the_middle_is_listed_in_each_language() -> None:
    t = tossed()
    line = next(line for line in t.public_log() if line.startswith("🤾"))
    assert line == "🤾 Toss! In the middle: 🧁 Iced Sugar, 🌀 Fudge Swirl, 🌟 Wild, 🥮 Half-eaten."
    assert render(line, "ko") == (
        "🤾 던지기! 가운데: 🧁 아이싱 슈거, 🌀 퍼지 스월, 🌟 와일드, 🥮 먹다 남은 쿠키."
    )
    assert render(line, "es") == (
        "🤾 ¡Lanzamiento! En el centro: 🧁 Azúcar glaseado, 🌀 Remolino de fudge, 🌟 Comodín, "
        "🥮 Mordida."
    )


def test_a_grab_that_lost_says_who_took_the_card() -> None:
    t = tossed()
    t.play("Cleo", "grab", "wild")
    with pytest.raises(Exception) as lost:
        t.play("Ben", "grab", "wild")
    said = lost.value.text  # type: ignore[attr-defined]
    assert said == "Too slow: Cleo grabbed that one first."
    assert render(said, "ko") == "늦었어요: Cleo 님이 먼저 잡았어요."
    assert render(said, "ja") == "遅かった：Cleoさんが先に取りました。"


def test_a_scramble_saved_before_grabs_were_kept_still_says_someone() -> None:
    t = tossed()
    t.play("Cleo", "grab", "wild")
    data = json.loads(t.state.model_dump_json())
    del data["scramble"]["taken"]
    t.state = t.game.load_state(json.dumps(data))
    with pytest.raises(Exception, match=r"^Too slow: someone grabbed that one first\.$"):
        t.play("Ben", "grab", "wild")


def test_a_match_stored_with_plain_english_lines_loads_and_plays_on() -> None:
    t = Table(dict(HANDS))
    t.roll("Ana", "left", "1")
    data = json.loads(t.state.model_dump_json())
    assert all(isinstance(e["text"], dict) for e in data["log"])  # stored as id and arguments
    # An older row: its lines were stored as the English they said.
    for event in data["log"]:
        event["text"] = str(t.game.load_state(t.state.model_dump_json()).log[0].text)
    data["log"][-1]["text"] = "🎲 Ana rolled Pass Left · 1."
    old = t.game.load_state(json.dumps(data))
    assert old.log[-1].text == "🎲 Ana rolled Pass Left · 1."
    assert render(old.log[-1].text, "ko") == "🎲 Ana rolled Pass Left · 1."  # shown as it was
    t.state = old
    for name in ("Ana", "Ben", "Cleo", "Dev"):
        t.play(name, "pass", t.hand(name)[0])
    view = t.game.view(t.state, t.seat("Ana"))
    assert view.news and view.news[0].startswith("You passed")  # the new lines: Texts


@pytest.mark.parametrize("seed", [3, 8])
def test_a_whole_match_in_the_pseudo_locale_shows_no_english(seed: int) -> None:
    game = GAMES["toss_your_cookies"]
    leaks: dict[str, list[str]] = {}
    over = False
    for state, words in played_through(game, TossOptions(), NAMES, seed):
        leaks |= untranslated(words, NAMES)
        over = game.outcome(state) is not None
    assert over
    assert leaks == {}


def test_rules_and_options_in_the_pseudo_locale_show_no_english() -> None:
    game = GAMES["toss_your_cookies"]
    # (the "How to play here" lines that open /rules are games.core's)
    texts = [game.quick_start, rules_text(game.cards), game.rulings_text()]
    for field in describe(TossOptions):
        texts += [field.title, field.description, *(c.label for c in field.choices)]
    # the switches' On/Off are games.core's words
    assert untranslated([t for t in texts if t not in ("On", "Off")], ()) == {}
    assert render(game.rulings_text(), "ko").startswith("**우리의 판정.**\n• 첫 번째로 굴릴 사람은")


def test_pictures_draw_their_words_in_the_language_asked(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    t = tossed()
    t.play("Cleo", "grab", "wild")
    game = t.game
    said = record_drawing(monkeypatch)
    table_picture(game.cards, game.view(t.state, None), PSEUDO)
    scene = hand_scene(game.view(t.state, t.seat("Ana")))
    draw_hand(game.cards, scene, PSEUDO)
    assert said and all(not english_words(words, NAMES) for words in said), said
    said.clear()
    table_picture(game.cards, game.view(t.state, None), "ko")
    # The picture draws the line's emoji too (the emoji font), not its markdown.
    assert "🏃 쟁탈전! 아래 카드 잡기를 누르세요: 던진 수만큼 잡을 수 있어요." in said


def test_the_number_die_showing_all_is_drawn_in_the_pictures_language(monkeypatch) -> None:
    t = Table(dict(HANDS))
    t.roll("Ana", "toss", "all")
    game = t.game
    said = record_drawing(monkeypatch)
    table_picture(game.cards, game.view(t.state, None), PSEUDO)
    assert said and all(not english_words(words, NAMES) for words in said), said
    said.clear()
    table_picture(game.cards, game.view(t.state, None), "ko")
    assert "전부" in said  # the die's face, as the catalog has it ("All")


def test_every_option_fits_discord_in_every_language_among_long_names() -> None:
    game = GAMES["toss_your_cookies"]
    assert over_the_limits(game, TossOptions(), LANGUAGES, 4) == []
