"""Cookie Chomper's search hints: a playout ends at the next poisoning, valued by who took it."""

from __future__ import annotations

import random

import pytest

from games.chomper import CookieChomper
from games.chomper.search import ChomperSearch
from games.chomper.state import ChomperOptions, ChomperState
from games.core import contract
from games.core.search import Search

from .conftest import Table


class Recording(ChomperSearch):
    """Keeps where each playout ended."""

    def __init__(self, game: CookieChomper) -> None:
        super().__init__(game)
        self.ends: list[ChomperState] = []

    def value(self, sim: ChomperState, seat: int) -> float:
        self.ends.append(sim)
        return super().value(sim, seat)


def playout_end(mode: str) -> tuple[CookieChomper, Recording, float, int]:
    """One playout of the heuristic's move from the first decision of a four-player match."""
    game = CookieChomper()
    state = game.setup(ChomperOptions(mode=mode), ("A", "B", "C", "D"), seed=5)  # type: ignore[arg-type]
    decision = game.decisions(state)[0]
    searcher = Recording(game)
    world = searcher.deal_world(state, decision.seat, random.Random(1))
    action = game.choose(game.view(state, decision.seat), decision)
    value = searcher.playout(world, decision.seat, action, None)
    assert value is not None
    return game, searcher, value, decision.seat


def test_a_playout_stops_when_someone_takes_the_poison_and_values_who_did() -> None:
    game, searcher, value, seat = playout_end("standard")
    (end,) = searcher.ends
    # one player out of four and the match goes on: the playout stopped there
    assert len(end.eliminated) == 1 and game.outcome(end) is None
    poisoned = end.eliminated[0]
    assert value == (0.0 if seat == poisoned else 1.0)
    assert [searcher.value(end, s) for s in range(4)] == [float(s != poisoned) for s in range(4)]


def test_modes_without_a_poison_that_puts_players_out_play_to_the_end() -> None:
    game, searcher, _, _ = playout_end("hoarder")
    (end,) = searcher.ends
    assert game.outcome(end) is not None


@pytest.mark.parametrize("mode", ["standard", "middle", "hoarder_plus", "chain"])
def test_the_playouts_cheaper_policy_plays_as_the_heuristic_on_the_seats_view(mode: str) -> None:
    """Random moves reach vetoes, choices made again and mulligans; at every decision the
    playout's policy (the main card from the decision's default, the rest from the state's
    public parts) answers as the heuristic does on the seat's own view."""
    game = CookieChomper()
    searcher = ChomperSearch(game)
    rng = random.Random(mode)
    for seed in range(3):
        state = game.setup(ChomperOptions(mode=mode), ("A", "B", "C", "D"), seed)  # type: ignore[arg-type]
        for _ in range(400):
            decisions = game.decisions(state)
            if not decisions:
                break
            decision = decisions[0]
            expected = Search.policy(searcher, state, decision, decisions)
            assert searcher.policy(state, decision, decisions) == expected
            state, _ = game.apply(state, decision.seat, contract.random_pick(decision, rng))


DECK = ["4", "5", "13", "24", "135", "double", "negate", "reverse", "skip", "1"]


def hands_in_worlds(t: Table, seat: int, viewer: int) -> list[list[str]]:
    """``seat``'s hand in 30 worlds dealt for ``viewer``, each sorted."""
    rng = random.Random(3)
    return [sorted(t.game.scramble_hidden(t.state, viewer, rng).hands[seat]) for _ in range(30)]


def vetoed_add(last_drawn: str = "1") -> Table:
    """Ana's Add and its 3 vetoed back to her hand by Ben, the round then passed out."""
    t = Table(
        {"Ana": ["2", "add", "3"], "Ben": ["veto", "seek", "1"], "Cleo": ["0", "12", "2"]},
        deck=[*DECK, last_drawn],
    )
    t.play("Ana", "number", "2", 2)
    t.play("Ana", "play", "add", "3", 3)
    t.play("Ana", "pass")
    t.play("Ben", "aim", "veto", 1)
    t.passes("Ben", "Cleo", "Ana")
    return t


def bots_until_anas_turn(t: Table) -> None:
    while not (t.deciding() == "Ana" and t.state.phase == "main"):
        seat = t.game.decisions(t.state)[0].seat
        t.state, _ = t.game.apply(t.state, seat, t.game.bot_action(t.state, seat))


def test_worlds_keep_the_cards_everyone_saw_go_back_to_a_hand_or_a_seek_take() -> None:
    t = vetoed_add()
    # Add and the 3 went back to Ana before every eye; the card she drew, nobody saw
    worlds = hands_in_worlds(t, seat=0, viewer=2)
    assert all("add" in hand and "3" in hand and len(hand) == 3 for hand in worlds)
    assert len({tuple(hand) for hand in worlds}) > 1
    # Ben seeks Ana's 2 from the pile, "allowing all other players to see": his in every world
    t.play("Ben", "seek", "2")
    t.passes("Ben", "Cleo", "Ana")
    worlds = hands_in_worlds(t, seat=1, viewer=2)
    assert all("2" in hand and len(hand) == 3 for hand in worlds)
    assert len({tuple(hand) for hand in worlds}) > 1
    # the seat's own hand is its own: nothing of it is re-dealt
    assert hands_in_worlds(t, seat=1, viewer=1) == [sorted(t.state.hands[1])] * 30


def test_a_known_card_played_is_known_no_more_and_a_mulligan_forgets_the_hand() -> None:
    t = vetoed_add(last_drawn="mulligan")  # the card Ana draws after her turn
    assert t.game.shown(t.state, 0) == ["add", "3"]
    bots_until_anas_turn(t)
    t.play("Ana", "number", "3", 3)
    assert t.game.shown(t.state, 0) == ["add"]
    t.passes("Ana", "Ben", "Cleo")
    bots_until_anas_turn(t)
    assert "mulligan" in t.state.hands[0] and "add" in t.state.hands[0]
    t.play("Ana", "mulligan")
    t.passes("Ana", "Ben", "Cleo")
    assert "add" in t.state.played and t.game.shown(t.state, 0) == []
