"""The card pool, its loader's refusals, the schema file, card text and deck rules."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from games.braverse import Braverse
from games.braverse.cards import (
    OP_NAMES,
    POOL_FILE,
    CardListError,
    braverse_pool,
    card_schema_text,
    load_pool,
)
from games.braverse.decks import deck_problems, export_deck, parse_deck, ready_decks
from games.braverse.state import BraverseOptions
from games.core.cards import DATA_DIR

POOL = braverse_pool()
HERE = Path(__file__).parent
GOOD = {
    "number": "S1-031",
    "name": "Test Sprite",
    "type": "cookie",
    "colour": "G",
    "level": 1,
    "hp": 2,
    "attack": {"cost": "G", "damage": 1},
}


def refusal(tmp_path: Path, **changes: object) -> str:
    card = {**GOOD, **changes}
    path = tmp_path / "mine.json"
    path.write_text(json.dumps({"cards": [card]}))
    with pytest.raises(CardListError) as caught:
        load_pool(path)
    return str(caught.value)


def test_the_pool_has_60_cards_4_colours_of_15_in_the_published_shape() -> None:
    assert len(POOL.cards) == 60
    for colour in "RYGB":
        mine = [c for c in POOL.cards if c.colour == colour]
        kinds = Counter(c.type for c in mine)
        assert kinds == {"cookie": 9, "item": 3, "trap": 2, "stage": 1}
        cookies = [c for c in mine if c.type == "cookie"]
        assert Counter(c.level for c in cookies) == {1: 4, 2: 3, 3: 2}
        assert sum(c.is_flip for c in cookies) == 3
        assert sum(not c.effects() and not c.is_flip for c in cookies) >= 4  # about half vanilla
    for card in POOL.cards:
        if card.type == "cookie":
            low, high = {1: (1, 3), 2: (2, 4), 3: (3, 6)}[card.level]
            assert low <= card.hp <= high, card.number
            assert 1 <= len(card.attack.cost) <= 4 and 1 <= card.attack.damage <= 4


def test_every_op_of_the_language_is_used_by_a_pool_card() -> None:
    used = {op.op for card in POOL.cards for _, ops in card.effects() for op in ops}
    assert used == set(OP_NAMES)


def test_every_trigger_is_used_by_a_pool_card() -> None:
    used = {trigger for card in POOL.cards for trigger, _ in card.effects()}
    assert used == {
        "attack.then",
        "on_reveal",
        "flip",
        "when_attacked",
        "item",
        "trap",
        "activate",
        "end_of_turn",
    }


def test_the_schema_file_is_generated_from_the_models() -> None:
    assert (DATA_DIR / "braverse" / "card-schema.json").read_text() == card_schema_text()


def test_card_text_is_generated_from_the_data_snapshot() -> None:
    expected = (HERE / "card_text.txt").read_text()
    assert "\n\n".join(c.text for c in POOL.cards) + "\n" == expected


def test_card_text_says_what_the_card_does() -> None:
    assert POOL["S1-052"].text == (
        "S1-052 Ripple Sage — Cookie · Blue · LV2 · HP 3\n"
        "Attack (1 Blue + 1 any colour): 2 damage.\n"
        "When attacked (1 Blue, rest this): The attack deals 1 less damage."
    )
    assert POOL["S1-012"].text.splitlines()[0] == (
        "S1-012 Kindling Toss — Item · Red · cost 1 Red, discard a card"
    )


def test_loader_refuses_an_unknown_op_naming_file_card_and_path(tmp_path: Path) -> None:
    text = refusal(tmp_path, flip={"do": [{"op": "heal_all"}]})
    assert text.startswith("mine.json: S1-031 flip.do[0]: unknown op 'heal_all'; known: draw,")


def test_loader_refuses_an_unknown_field(tmp_path: Path) -> None:
    text = refusal(tmp_path, flip={"do": [{"op": "draw", "n": 1, "cards": 2}]})
    assert text == "mine.json: S1-031 flip.do[0].cards: unknown field 'cards'"


def test_loader_refuses_an_unknown_colour_letter(tmp_path: Path) -> None:
    text = refusal(tmp_path, colour="P")
    assert text == "mine.json: S1-031 colour: unknown colour letter 'P'; known: R, Y, G, B"


def test_loader_refuses_an_unknown_trigger(tmp_path: Path) -> None:
    text = refusal(tmp_path, on_death={"do": [{"op": "draw"}]})
    assert text.startswith("mine.json: S1-031 on_death: unknown field or trigger 'on_death'")


def test_loader_refuses_an_op_its_trigger_does_not_allow(tmp_path: Path) -> None:
    text = refusal(tmp_path, flip={"do": [{"op": "draw"}, {"op": "modify_attack", "n": 1}]})
    assert text == "mine.json: S1-031 flip.do[1]: op 'modify_attack' is not allowed in flip"


def test_loader_refuses_a_trigger_the_card_type_has_not(tmp_path: Path) -> None:
    text = refusal(tmp_path, item={"do": [{"op": "draw"}]})
    assert text == "mine.json: S1-031 item: a cookie has no such trigger"


def test_loader_refuses_a_level_outside_1_to_3(tmp_path: Path) -> None:
    assert refusal(tmp_path, level=4) == "mine.json: S1-031 level: 4 is outside 1-3"


def test_loader_refuses_an_unreadable_cost(tmp_path: Path) -> None:
    text = refusal(tmp_path, attack={"cost": "GX", "damage": 1})
    assert text.startswith("mine.json: S1-031 attack.cost: cannot read the cost 'GX'")


def test_loader_refuses_a_number_used_twice(tmp_path: Path) -> None:
    path = tmp_path / "twice.json"
    path.write_text(json.dumps({"cards": [GOOD, GOOD]}))
    with pytest.raises(CardListError, match=r"^twice.json: S1-031 number: used twice$"):
        load_pool(path)


def test_a_broken_host_list_fails_at_start_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "broken.toml"
    path.write_text('[[cards]]\nnumber = "X1-001"\nname = "Bad"\ntype = "cookie"\n')
    path.write_text(path.read_text() + 'colour = "R"\nlevel = 0\nhp = 1\n')
    path.write_text(path.read_text() + 'attack = { cost = "R", damage = 1 }\n')
    monkeypatch.setenv("BRAVERSE_CARDS", str(path))
    braverse_pool.cache_clear()
    try:
        with pytest.raises(CardListError, match=r"^broken.toml: X1-001 level: 0 is outside 1-3$"):
            braverse_pool()
    finally:
        braverse_pool.cache_clear()


def renumbered(tmp_path: Path, old: str, new: str) -> Path:
    """A copy of our pool with ``old`` (a number or a prefix) renumbered ``new``."""
    path = tmp_path / "host.toml"
    text = POOL_FILE.read_text()
    path.write_text(text.replace(f'number = "{old}', f'number = "{new}'))
    return path


def test_a_host_list_offers_only_the_ready_decks_legal_under_it(tmp_path: Path) -> None:
    pool = load_pool(renumbered(tmp_path, "S1-001", "H1-001"))  # R+Y Rush needs S1-001
    game = Braverse(pool)
    assert game.seat_choice.ready == (("tempo", "B+G Tempo"), ("fort", "Y+G Fort"))
    assert [game.default_choice(seat) for seat in (0, 1)] == ["fort", "tempo"]
    assert game.ready_list("rush") is None
    state = game.setup(BraverseOptions(), ["Ana", "Ben"], seed=3)  # the default set-up
    for seat, key in enumerate(("fort", "tempo")):
        side = state.sides[seat]
        assert Counter(side.deck + side.hand) == Counter(game.ready[key].cards)


def test_a_host_list_without_any_legal_ready_deck_fails_at_start_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BRAVERSE_CARDS", str(renumbered(tmp_path, "S1-", "H1-")))
    braverse_pool.cache_clear()
    ready_decks.cache_clear()
    try:
        with pytest.raises(CardListError) as refused:
            Braverse()
    finally:
        braverse_pool.cache_clear()
        ready_decks.cache_clear()
    assert str(refused.value) == (
        "host.toml: no ready deck can be played with this card list "
        "(Y+G Fort (fort.txt) needs S1-016; R+Y Rush (rush.txt) needs S1-001; "
        "B+G Tempo (tempo.txt) needs S1-031), so it cannot be used."
    )


def test_a_host_list_in_json_loads_and_has_its_own_digest(tmp_path: Path) -> None:
    path = tmp_path / "host.json"
    path.write_text(json.dumps({"cards": [GOOD]}))
    pool = load_pool(path)
    assert [c.number for c in pool.cards] == ["S1-031"] and pool.digest != POOL.digest


@pytest.mark.parametrize("key", ["rush", "tempo", "fort"])
def test_each_ready_deck_is_legal_with_16_to_20_cards_and_12_flip_at_most(key: str) -> None:
    deck = ready_decks()[key]
    assert deck_problems(deck.cards, POOL) == []
    assert 16 <= len(set(deck.cards)) <= 20
    assert sum(POOL[c].is_flip for c in deck.cards) <= 12
    assert len({POOL[c].colour for c in deck.cards}) == 2


def test_deck_rules_report_every_problem_at_once() -> None:
    cards = ["S1-005"] * 5 + ["S1-003"] * 4 + ["S1-007"] * 4 + ["S1-009"] * 4
    cards += ["S1-018"] * 4 + ["S1-021"] * 2 + ["S1-010"] * 35
    assert deck_problems(cards, POOL) == [
        "The deck has 58 cards; it needs exactly 60.",
        "S1-005 Ember Knight: 5 copies; at most 4 of one card number.",
        "S1-010 Hot Sauce Flask: 35 copies; at most 4 of one card number.",
        "18 FLIP cards; at most 16.",
    ]
    assert deck_problems(["S1-010"] * 60, POOL)[-1] == "No Cookie card; a deck needs at least one."


def test_deck_text_reads_every_count_form_names_and_skips_comments() -> None:
    text = "# mine\nCookies:\n\n4 S1-001 Cinder Scout\n2x s1-002\nx3 Ember Knight\n"
    text += "spark tumbler x2\nS1-010\nS9-999 Nothing\n"
    parsed = parse_deck(text, POOL)
    assert Counter(parsed.cards) == {
        "S1-001": 4,
        "S1-002": 2,
        "S1-005": 3,
        "S1-003": 2,
        "S1-010": 1,
    }
    assert parsed.problems == ("Line 9: 'S9-999' is not a card here.",)


def test_deck_export_reads_back_the_same_deck() -> None:
    deck = ready_decks()["tempo"]
    text = export_deck(deck.cards, POOL)
    assert text.startswith("# Cookies\n4 S1-031 Sprout Tender\n")
    assert Counter(parse_deck(text, POOL).cards) == Counter(deck.cards)


def test_lookup_finds_a_card_by_number_or_name_in_any_case() -> None:
    game = Braverse()
    assert game.lookup("s1-007") == POOL["S1-007"].text
    assert game.lookup("  flare JUGGLER ") == POOL["S1-007"].text
    assert game.lookup("Heal All") is None
