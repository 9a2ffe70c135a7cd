"""Braverse tables set by hand, through the real discord.py code: answers on the
opponent's turn (a Trap, a FLIP) and a full board inside Discord's limits."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games import GAMES
from games.braverse import Braverse
from games.braverse.state import BraverseOptions, BraverseState
from tests.discord.conftest import make_bot, show_hand, table_of
from tests.games.braverse.conftest import FILLER, Table, side


class RiggedBraverse(Braverse):
    """Deals the table given, whatever the lobby chose (names and seed from the lobby)."""

    def __init__(self, ana: dict[str, Any], ben: dict[str, Any], **table: Any) -> None:
        super().__init__()
        self.sides, self.table = (ana, ben), table

    def setup(self, options: BraverseOptions, players: Sequence[str], seed: int) -> BraverseState:
        state = Table(*self.sides, game=self, **self.table).state
        return state.model_copy(update={"names": tuple(players), "seed": seed, "options": options})


async def start(fake, monkeypatch, rigged: RiggedBraverse, ana, ben) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setitem(GAMES, "braverse", rigged)
    await fake.slash(ana, "play", game="braverse")
    lobby = table_of(fake)
    await fake.click(ben, lobby, lobby.find_button("Join"))
    await fake.click(ana, lobby, lobby.find_button("Start"))


def ember_knight_attacks(ben: dict[str, Any]) -> RiggedBraverse:
    """Ana's Ember Knight (3 damage, paid R R Y) may attack Ben's Oakheart Warden."""
    ana = side(battle=[("S1-005", [FILLER] * 3)], support=["S1-001", "S1-001", "S1-016"])
    return RiggedBraverse(ana, ben)


async def attack(fake, ana) -> None:  # type: ignore[no-untyped-def]
    hand = await show_hand(fake, ana)
    await fake.click(ana, hand, hand.find_button("Ember Knight → Oakheart Warden"))


def last_ping(fake, user) -> str:  # type: ignore[no-untyped-def]
    pings = [m for m in fake.public_messages(fake.general)[1:] if f"<@{user.id}>" in m.text()]
    assert pings, "nobody pinged"
    return pings[-1].text()


async def test_a_trap_is_answered_on_the_opponents_turn_after_a_ping(fake, db, monkeypatch) -> None:
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    rigged = ember_knight_attacks(
        side(battle=[("S1-035", [FILLER] * 4)], hand=["S1-014"], support=["S1-001", "S1-032"])
    )
    async with fake.running(make_bot(db)):
        await start(fake, monkeypatch, rigged, ana, ben)
        await attack(fake, ana)
        assert "You are attacked (3 damage): answer with a Trap or not?" in last_ping(fake, ben)
        table = table_of(fake).text()
        assert "▶️ Ben" in table and "▶️ Ana" not in table  # the table waits on Ben now
        assert "🪤 Ben may answer the attack." in table
        hand = await show_hand(fake, ben)
        assert [b.label for b in hand.buttons() if b.custom_id.startswith("cj:do:")] == [
            "No response",
            "Trap: Smoke Screen (pay RG)",
        ]
        await fake.click(ben, hand, hand.find_button("Trap: Smoke Screen"))
        table = table_of(fake).text()
        # Smoke Screen takes 2 off the 3 damage: one HP card flipped of four.
        assert "Oakheart Warden LV2 — HP 3/4" in table and "▶️ Ana" in table
        assert any("Smoke Screen" in line for line in table.splitlines())
    fake.assert_clean()


async def test_a_flip_is_used_on_the_opponents_turn_between_two_flips(
    fake, db, monkeypatch
) -> None:
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    # Ben's top HP card is Spark Tumbler (FLIP: 1 damage to an opponent's Cookie).
    rigged = ember_knight_attacks(side(battle=[("S1-035", ["S1-003"] + [FILLER] * 3)]))
    async with fake.running(make_bot(db)):
        await start(fake, monkeypatch, rigged, ana, ben)
        await attack(fake, ana)
        assert "FLIP: Spark Tumbler" in last_ping(fake, ben)
        assert "Oakheart Warden LV2 — HP 3/4" in table_of(fake).text()  # one flip so far
        hand = await show_hand(fake, ben)
        await fake.click(ben, hand, hand.find_button("Use FLIP"))
        table = table_of(fake).text()
        assert "Ember Knight LV2 — HP 2/3" in table  # the FLIP hit Ana's Knight
        assert "Oakheart Warden LV2 — HP 1/4" in table  # then the last two points flipped
        assert "🔁 FLIP! Spark Tumbler activates." in table
    fake.assert_clean()


async def test_a_declined_flip_leaves_the_attacker_alone(fake, db, monkeypatch) -> None:
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    rigged = ember_knight_attacks(side(battle=[("S1-035", ["S1-003"] + [FILLER] * 3)]))
    async with fake.running(make_bot(db)):
        await start(fake, monkeypatch, rigged, ana, ben)
        await attack(fake, ana)
        hand = await show_hand(fake, ben)
        await fake.click(ben, hand, hand.find_button("Decline"))
        table = table_of(fake).text()
        assert "Ember Knight LV2 — HP 3/3" in table and "Oakheart Warden LV2 — HP 1/4" in table
    fake.assert_clean()


ALL = [f"S1-{n:03}" for n in range(1, 61)]


async def test_a_full_board_and_a_long_hand_fit_discord(fake, db, monkeypatch) -> None:
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    support = ["S1-001", "S1-016", "S1-031", "S1-046"] * 3
    full = {
        "battle": [("S1-008", [FILLER] * 5), ("S1-053", [FILLER] * 6)],
        "support": support,
        "stage": "S1-015",
        "discard": ALL[:40],
        "break_area": ["S1-053", "S1-038", "S1-023"],  # LV 9
    }
    cookies = [n for n in ALL if GAMES["braverse"].pool[n].type == "cookie"]
    # Ana holds two of every Cookie and a Kindling Toss (which may discard any of them):
    # over ninety moves, more than Discord's rows hold as groups.
    rigged = RiggedBraverse(
        side(**{**full, "battle": full["battle"][:1]}, hand=[*cookies, *cookies, "S1-012"]),  # type: ignore[arg-type]
        side(**full, hand=["S1-014"] * 8),  # type: ignore[arg-type]
    )
    async with fake.running(make_bot(db)):
        await start(fake, monkeypatch, rigged, ana, ben)
        table = table_of(fake)
        text = table.text()
        assert "Break Area LV 9/10" in text and "Support: 🟥 3/3 🟨 3/3 🟩 3/3 🟦 3/3" in text
        assert "Stage: Forge Arena" in text
        await fake.click(ana, table, table.find_button("Discard Piles and Break Areas"))
        details = fake.last_reply(ana).text()
        assert "Ana: Break Area (LV 9/10)" in details and "Ben: Discard Pile (40)" in details
        hand = await show_hand(fake, ana)
        assert f"Your hand ({2 * len(cookies) + 1} cards)" in hand.text()
        labels = [o["label"] for s in hand.selects() for o in s["options"]]
        # One option per card number, never one per copy, and every move reachable.
        places = [label for label in labels if label.startswith("Place ")]
        assert len(places) == len(set(places)) == len(cookies)
        assert sum(label.startswith("Use Kindling Toss") for label in labels) == len(cookies)
        assert "End turn" in labels and "Activate Forge Arena (free)" in labels
    fake.assert_clean()


async def test_a_hand_shows_its_moves_in_the_games_groups(fake, db, monkeypatch) -> None:
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    hand = ["S1-001", "S1-001", "S1-005", "S1-008", "S1-016", "S1-035", "S1-012", "S1-015"]
    rigged = RiggedBraverse(
        side(battle=[("S1-005", [FILLER] * 3)], support=["S1-001", "S1-001", "S1-016"], hand=hand),
        side(battle=[("S1-035", [FILLER] * 4)]),
    )
    async with fake.running(make_bot(db)):
        await start(fake, monkeypatch, rigged, ana, ben)
        shown = await show_hand(fake, ana)
        rows = [
            [c.get("label") or c.get("placeholder") for c in row["components"]]
            for row in shown.components
        ]
        # Cookies: one button per card number (two Cinder Scouts, one button); Items: a
        # select (a discard to choose); Stage and Attacks share a row; End has its own.
        assert rows == [
            [
                "Place Cinder Scout (LV1, HP 2)",
                "Place Ember Knight (LV2, HP 3)",
                "Place Inferno Baron (LV3, HP 5)",
                "Place Honey Page (LV1, HP 2)",
                "Place Oakheart Warden (LV2, HP 4)",
            ],
            ["Items"],
            ["Stage Forge Arena (pay R)", "Ember Knight → Oakheart Warden: 3 dmg (pay RRY)"],
            ["End turn"],
            ["Refresh"],
        ]
        items = shown.selects()[0]["options"]
        # One per card it may discard (named, never by number), not one per copy.
        assert len(items) == 6
        assert items[0]["label"] == "Use Kindling Toss (pay R, discard Cinder Scout)"
    fake.assert_clean()


async def test_re_placement_on_the_opponents_turn_pings_its_player(fake, db, monkeypatch) -> None:
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    # One HP card left: Oakheart Warden faints and Ben's Battle Area is empty.
    rigged = ember_knight_attacks(side(battle=[("S1-035", [FILLER])], hand=["S1-031"]))
    async with fake.running(make_bot(db)):
        await start(fake, monkeypatch, rigged, ana, ben)
        await attack(fake, ana)
        assert "Your Battle Area is empty: place a Cookie." in last_ping(fake, ben)
        assert "▶️ Ben" in table_of(fake).text()
        hand = await show_hand(fake, ben)
        await fake.click(ben, hand, hand.find_button("Sprout Tender"))
        table = table_of(fake).text()
        assert "Sprout Tender LV1 — HP 2/2" in table and "▶️ Ana" in table
    fake.assert_clean()
