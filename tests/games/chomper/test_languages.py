"""Cookie Chomper speaks the reader's language: decisions, log lines, panels, pictures and
/rules come from the catalog (card names and texts from the data file's words), and older
stored matches (plain English lines) still load."""

from __future__ import annotations

import json

import pytest

from games import GAMES
from games.chomper.picture import draw_hand, hand_scene, table_picture
from games.chomper.rules_text import QUICK_START, rules_text, rulings_text
from games.chomper.state import COOKIE, POISON, ChomperOptions
from games.core.options import describe
from games.core.translations import LANGUAGES, PSEUDO, render
from tests.games.speaking import (
    english_words,
    over_the_limits,
    played_through,
    record_drawing,
    untranslated,
)

from .conftest import Table

NAMES = ("Ana", "Ben", "Cleo")


def table(**kw: object) -> Table:
    return Table(
        {"Ana": ["2", "add", "3"], "Ben": ["multiply", "5", "1"], "Cleo": ["0", "1", "2"]}, **kw
    )


def test_a_decision_an_option_a_log_line_and_a_panel_in_korean() -> None:
    t = table()
    (line,) = t.play("Ana", "number", "2", 2)
    assert render(line.text, "ko") == "Ana 님이 🔢 2를 내고 2를 골랐어요."  # 2 is 이: 를
    ana = t.game.decision_for(t.state, t.seat("Ana"))
    assert ana is not None
    assert render(ana.prompt, "ko") == "수정 카드를 내거나 패스하세요(현재 숫자는 2)."
    add = next(o for o in ana.options if o.action.encode() == "play.add.3.3")
    assert render(add.label, "ko") == "➕ 더하기 3 (🔢 3 사용)"
    assert render(add.group, "ko") == "더하기"
    assert render(add.description, "ko") == (
        "숫자 카드(또는 주사위)와 함께: 그 숫자 하나(또는 굴린 수)를 생성 숫자에 더해요."
    )
    t.play("Ana", "play", "add", "3", 3)
    turn = t.game.panels(t.game.view(t.state, None)).table.fields[2]
    assert render(turn.name, "ko") == "이번 차례: 2 → +3 = 5"
    assert render(turn.value, "ko") == "🔢 2 (2), ➕ 더하기 (3)\n**숫자: 5**"


def test_an_outcome_in_korean_and_japanese() -> None:
    t = Table({"Ana": ["5", "0", "1"], "Ben": ["1", "2", "4"]}, stack=[COOKIE, POISON])
    t.play("Ana", "number", "5", 5)
    t.passes("Ana", "Ben")
    outcome = t.game.outcome(t.state)
    assert outcome is not None
    assert render(outcome.reason, "ko") == "Ben 님이 마지막까지 남았어요."
    assert render(outcome.reason, "ja") == "Benさんが最後まで残りました。"
    assert render(t.public_log()[-1], "pt_BR") == "☠️ Ana pega o cookie envenenado e está fora!"


def test_a_match_stored_with_plain_english_lines_loads_and_plays_on() -> None:
    t = table()
    t.play("Ana", "number", "2", 2)
    data = json.loads(t.state.model_dump_json())
    assert isinstance(data["log"][-1]["text"], dict)  # stored as its id and arguments
    data["log"][-1]["text"] = "Ana plays 🔢 2 and chooses 2."  # as an older row has it
    data["trail"] = "2 → reversed"
    t.state = t.game.load_state(json.dumps(data))
    assert render(t.state.log[-1].text, "ko") == "Ana plays 🔢 2 and chooses 2."
    t.passes("Ana", "Ben", "Cleo")
    assert render(t.state.log[-1].text, "ko") == "🍪 Ana 님이 스택에서 2개를 가져가요."
    shown = t.game.panels(t.game.view(t.state, None)).table
    assert render(shown.fields[-1].value, "ko").endswith("🍪 Ana 님이 스택에서 2개를 가져가요.")


@pytest.mark.parametrize("mode", ["standard", "golden", "middle", "hoarder_plus", "chain"])
def test_a_whole_match_in_the_pseudo_locale_shows_no_english(mode: str) -> None:
    game = GAMES["cookie_chomper"]
    leaks: dict[str, list[str]] = {}
    over = False
    for state, words in played_through(game, ChomperOptions(mode=mode), NAMES, 5):  # type: ignore[arg-type]
        leaks |= untranslated(words, NAMES)
        over = game.outcome(state) is not None
    assert over
    assert leaks == {}


def test_rules_options_and_card_texts_in_the_pseudo_locale_show_no_english() -> None:
    game = GAMES["cookie_chomper"]
    # (the "How to play here" lines that open /rules are games.core's)
    texts = [QUICK_START, rules_text(game.cards), rulings_text()]
    for field in describe(ChomperOptions):
        texts += [field.title, field.description, *(c.label for c in field.choices)]
    texts += [game.cards.brief(key) for key in game.cards.actions]
    assert untranslated(texts, ()) == {}
    assert render(game.cards.brief("opposites"), "es") == (
        "Contra una carta de número jugada: su dueño debe elegir un número del 1 al 5 que no "
        "esté en ella."
    )


def test_pictures_draw_their_words_in_the_language_asked(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    t = Table(
        {"Ana": ["2", "add", "3"], "Ben": ["veto", "5", "copy"], "Cleo": ["0", "1", "2"]},
        played=["seek", "135"],
    )
    t.play("Ana", "number", "2", 2)
    t.play("Ana", "play", "add", "3", 3)
    t.play("Ana", "pass")
    t.play("Ben", "aim", "veto", 1)
    game = t.game
    said = record_drawing(monkeypatch)
    table_picture(game.cards, game.view(t.state, None), PSEUDO)
    draw_hand(game.cards, hand_scene(game.view(t.state, t.seat("Ana"))), PSEUDO)
    assert said and [w for w in said if english_words(w, NAMES)] == []
    said.clear()
    draw_hand(game.cards, hand_scene(game.view(t.state, t.seat("Ana"))), "ja")
    assert "このターン拒否済み" in said and "足し算" in said


@pytest.mark.parametrize("mode", ["standard", "hoarder_plus"])
def test_every_option_fits_discord_in_every_language_among_long_names(mode: str) -> None:
    game = GAMES["cookie_chomper"]
    assert over_the_limits(game, ChomperOptions(mode=mode), LANGUAGES, 4) == []  # type: ignore[arg-type]
