"""The Cover games in every language: sentences come from the catalog whole, in Korean as a
Korean player reads them, and the pseudo-locale shows no English word anywhere a player
looks (prompts, buttons, log lines, panels, pictures, /rules); old English logs still load."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

import pytest
from pydantic import BaseModel

from games.core import pictures
from games.core.panels import Panel
from games.core.protocol import Action, Decision, Event
from games.core.translations import LANGUAGES, PSEUDO, render
from games.cover import CoverYourAssets, CoverYourCookies
from games.cover.engine import CoverYourAssets as Engine
from games.cover.state import CoverOptions, CoverState

from .conftest import NAMES, Table, cathys_piano_set_exposed

GAMES = (CoverYourAssets(), CoverYourCookies())
# Data, never translated: the players' names and the games' published names.
KEPT = {*NAMES, "Ana", "Ben", "Cleo", "Dev", "Cover", "Your", "Assets", "Cookies"}
ENGLISH_WORD = re.compile(r"[A-Za-z]{2,}")


def english_words(text: str) -> set[str]:
    return {word for word in ENGLISH_WORD.findall(text) if word not in KEPT}


def challenged_piano() -> Table:
    """Ezra challenges Cathy's Piano set with a Piano; Cathy holds another."""
    game = CoverYourAssets()
    state = game.setup(CoverOptions(), NAMES, seed=1)
    for seat, name in enumerate(NAMES):
        state.players[seat].stack = list(cathys_piano_set_exposed().get(name, []))
    state.players[0].hand = ["piano", "gold", "jewels"]
    state.players[1].hand = ["piano", "toy_train"]
    state.turn = 0
    table = Table(game, state)
    table.play("Ezra", "challenge", 1, "piano")
    return table


def test_a_challenge_reads_in_korean_from_the_catalog() -> None:
    table = challenged_piano()
    decision = table.game.decision_for(table.state, 1)
    assert decision is not None
    assert render(decision.prompt, "ko") == (
        "Ezra 님이 내 피아노 세트에 🎹 피아노로 도전해요. 방어할까요, 내줄까요?"
    )
    assert [render(o.label, "ko") for o in decision.options] == ["🎹 피아노 내기", "내주기"]
    # The English is the same sentence as before the catalog.
    assert decision.prompt == (
        "Ezra challenges your Piano set with 🎹 Piano. Defend it, or let it go?"
    )


def test_a_log_line_reads_in_korean_with_its_count_and_money() -> None:
    table = challenged_piano()
    table.play("Cathy", "counter", "piano")
    events = table.play("Ezra", "concede")
    public = [render(e.text, "ko") for e in events if e.visible_to is None]
    assert public[:2] == [
        "Ezra 님이 도전을 포기했어요.",
        "Cathy 님이 피아노 세트를 지켰어요(카드 4장, $20,000).",
    ]
    assert (
        render(events[1].text, "es") == "Cathy conservó el conjunto de Piano (4 cartas, $20.000)."
    )


def test_a_hand_panel_reads_in_korean() -> None:
    table = challenged_piano()
    table.play("Cathy", "counter", "piano")
    table.play("Ezra", "concede")
    hand = table.game.panels(table.game.view(table.state, 1)).hand
    assert hand is not None
    assert render(hand.title, "ko") == "🃏 내 손패"
    assert render(hand.footer, "ko") == "내 스택: 세트 2개에 $60k"
    assert render(hand.description, "ko").splitlines()[0] == "🎹 피아노 · $5k"


def test_a_cookies_swipe_reads_in_each_language_as_its_own_sentence() -> None:
    game = CoverYourCookies()
    assert (
        render(game.words.turn(), "ko")
        == "내 차례: 배치를 시작하거나, 맨 위 배치를 가로채거나, 버리세요."
    )
    assert render(game.money(1500), "es") == "1.500 de Masa"
    assert render(game.money(1500), "en") == "1,500 Dough"
    assert render(CoverYourAssets().words.turn(), "ja") == (
        "あなたの手番：セットを作るか、一番上のセットにチャレンジするか、捨ててください。"
    )


def play_through(game: Engine, seed: int) -> Iterator[tuple[CoverState, list[Event]]]:
    """A whole match of random legal moves: each state with the lines its move logged."""
    rng = random.Random(seed)
    players = ("Ana", "Ben", "Cleo", "Dev")[: rng.choice([3, 4]) if game.min_players > 2 else 2]
    options = game.options_model.model_validate(
        {
            name: True
            for name, field in game.options_model.model_fields.items()
            if field.annotation is bool and field.default is False
        }
    )
    state = game.setup(options, players, seed)
    yield state, []
    for _ in range(3000):
        decisions = game.decided(state)
        if not decisions:
            return
        decision: Decision = rng.choice(list(decisions))
        action: Action = (
            decision.pick(rng.sample(list(decision.options), decision.min_picks))
            if decision.options
            else decision.default
        )
        state, events = game.apply(state, decision.seat, action)
        yield state, events


def panel_words(panel: Panel | None) -> Iterator[str]:
    if panel is None:
        return
    yield from (panel.title, panel.description, panel.footer, panel.brief)
    for field in panel.fields:
        yield from (field.name, field.value, field.brief)


def shown_words(game: Engine, state: CoverState, events: list[Event]) -> Iterator[str]:
    """Everything a player reads at this point: the move's lines, every decision (prompt,
    buttons, groups, descriptions), every seat's table and hand panels, the outcome."""
    for event in events:
        yield event.text
    for decision in game.decided(state):
        yield decision.prompt
        for option in decision.options:
            yield from (option.label, option.group, option.description)
    for seat in (None, *range(len(state.names))):
        panels = game.panels(game.view(state, seat))
        yield from panel_words(panels.table)
        yield from panel_words(panels.hand)
    outcome = game.outcome(state)
    if outcome is not None:
        yield outcome.reason
        for placement in outcome.placements:
            yield game.score_text(state, placement)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.key)
def test_a_whole_match_in_pseudo_shows_no_english_word(game: Engine) -> None:
    seen = 0
    for state, events in play_through(game, seed=11):
        for words in shown_words(game, state, events):
            shown = render(words, PSEUDO)
            assert not english_words(shown), (words, shown)
            seen += 1
    assert seen > 500


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.key)
def test_every_button_fits_discord_in_every_language(game: Engine) -> None:
    """A button's label fits Discord's 80 characters in every shipped language, or where
    the English is longer already (a front end clips: a long name, four cards drafted) is
    at most a fifth longer; a select option's description fits its 100."""
    for seed in (5, 6, 7):
        for state, _ in play_through(game, seed=seed):
            for decision in game.decided(state):
                for option in decision.options:
                    for language in LANGUAGES:
                        label = render(option.label, language)
                        assert len(label) <= max(80, len(option.label) * 6 // 5), (language, label)
                        assert len(render(option.description, language)) <= 100, language
                        assert len(render(option.group, language)) <= 80, language


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.key)
def test_the_rules_in_pseudo_are_all_from_the_catalog(game: Engine) -> None:
    for text in (game.quick_start, game.rules_text(), game.rulings_text()):
        assert not english_words(render(text, PSEUDO))
        # One message a paragraph or list item: Korean comes back whole, markdown kept.
        korean = render(text, "ko")
        assert not english_words(korean) - {"Show", "hand"}
        assert korean.count("**") == str(text).count("**")


def test_the_korean_rules_open_with_how_to_play_here() -> None:
    rules = render(CoverYourCookies().rules_text(), "ko")
    assert rules.startswith("**여기서 하는 법**\n1. 테이블에서 **패 보기**를 눌러요")
    assert "**Cover Your Cookies** — 쿠키 배치를 굽고" in rules


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.key)
def test_pictures_draw_their_words_in_the_language_asked(
    game: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn: list[str] = []
    original = pictures.Canvas.lettering

    def lettering(self: pictures.Canvas, xy: tuple[int, int], text: str, *args: object) -> None:
        drawn.append(text)
        original(self, xy, text, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(pictures.Canvas, "lettering", lettering)
    states = [state for state, _ in play_through(game, seed=3)]
    for state in states[:: max(1, len(states) // 12)] + states[-1:]:
        view = game.view(state, 0)
        game.table_picture(view, PSEUDO)
        pictures.hand_picture(game, view, PSEUDO)
    assert drawn
    for text in drawn:
        assert not english_words(text), text
    drawn.clear()
    game.table_picture(game.view(states[0], 0), "ko")
    assert any("라운드" in text for text in drawn), drawn


def test_a_picture_in_english_is_the_same_picture_as_before() -> None:
    game = CoverYourAssets()
    state = game.setup(CoverOptions(), NAMES, seed=4)
    view = game.view(state, None)
    assert game.table_picture(view) == game.table_picture(view, "en")
    assert game.table_picture(view, "ko") != game.table_picture(view)


def old_english(state: BaseModel) -> str:
    """A state as stored before the catalog: every log line and the end a plain string."""
    data = state.model_dump(mode="json")
    data["log"] = [
        {**event, "text": str(text)}
        for event, text in zip(
            data["log"],
            (e.text for e in state.log),
            strict=True,  # type: ignore[attr-defined]
        )
    ]
    if data.get("end_reason") is not None:
        data["end_reason"] = str(state.end_reason)  # type: ignore[attr-defined]
    return type(state).model_validate(data).model_dump_json()


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.key)
def test_a_state_stored_in_plain_english_still_loads_and_shows(game: Engine) -> None:
    *_, (last, _) = play_through(game, seed=2)
    assert last.end_reason is not None and last.log
    stored = old_english(last)
    assert '"t":' not in stored  # nothing of the catalog in it
    loaded = game.load_state(stored)
    assert [e.text for e in loaded.log] == [e.text for e in last.log]
    table = game.panels(game.view(loaded, None)).table
    # Old lines stay in the English they were written in; the rest is Korean.
    assert render(table.title, "ko").endswith("라운드")
    assert str(loaded.end_reason) in render(table.description, "ko")


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.key)
def test_a_stored_log_keeps_its_messages(game: Engine) -> None:
    """Log lines are stored as a message and its arguments, and come back in any language."""
    *_, (last, _) = play_through(game, seed=2)
    loaded = game.load_state(last.model_dump_json())
    for before, after in zip(last.log, loaded.log, strict=True):
        assert render(after.text, "ja") == render(before.text, "ja")
        assert render(after.text, "ja") != str(after.text) or not english_words(str(after.text))
