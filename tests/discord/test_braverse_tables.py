"""Braverse tables set by hand, through the real discord.py code: answers on the
opponent's turn (a Trap, a FLIP) and a full board inside Discord's limits."""

from __future__ import annotations

import re
from collections.abc import Sequence
from contextlib import asynccontextmanager
from typing import Any

from games import GAMES
from games.braverse import Braverse
from games.braverse.state import BraverseOptions, BraverseState
from tests.discord.conftest import looked_away, make_bot, open_game, show_hand, table_of
from tests.discord.harness import FakeDiscord
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
    """Both players ask to be asked always, so a lone choice waits for their click; then
    they look away from the new table, so a move that calls on the other pings them."""
    monkeypatch.setitem(GAMES, "braverse", rigged)
    await open_game(fake, "braverse", ana, ben)
    await looked_away(fake)


def move_labels(hand) -> list[str]:  # type: ignore[no-untyped-def]
    """Every move offered in a hand view, as buttons or as select options."""
    buttons = [b.label for b in hand.buttons() if b.custom_id.startswith("cj:do:")]
    return buttons + [o["label"] for s in hand.selects() for o in s["options"]]


async def choose(fake, user, hand, part: str) -> None:  # type: ignore[no-untyped-def]
    """Make the move whose label holds ``part``: a button, or an option of a select (moves
    that carry a description are offered in selects, so the description shows)."""
    for button in hand.buttons():
        if part in button.label:
            await fake.click(user, hand, button)
            return
    for select in hand.selects():
        for offered in select["options"]:
            if part in offered["label"]:
                await fake.select(user, hand, select["custom_id"], [offered["value"]])
                return
    raise LookupError(f"no move {part!r} in {move_labels(hand)}")


def ember_knight_attacks(ben: dict[str, Any]) -> RiggedBraverse:
    """Ana's Ember Knight (3 damage, paid R R Y) may attack Ben's Oakheart Warden."""
    ana = side(battle=[("S1-005", [FILLER] * 3)], support=["S1-001", "S1-001", "S1-016"])
    return RiggedBraverse(ana, ben)


async def attack(fake, ana, ben=None) -> None:  # type: ignore[no-untyped-def]
    """Ana attacks; ``ben``, asked always, then lets the trap window go himself."""
    hand = await show_hand(fake, ana)
    # a button, or a select's option where some language's label is too long for a button
    await choose(fake, ana, hand, "Ember Knight → Oakheart Warden")
    if ben is not None:
        hand = await show_hand(fake, ben)
        await fake.click(ben, hand, hand.find_button("No response"))


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
        assert sorted(move_labels(hand)) == [
            "No response",
            "Trap: Smoke Screen (pay 1 Red + 1 Green)",
        ]
        await choose(fake, ben, hand, "Trap: Smoke Screen")
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
        await attack(fake, ana, ben)
        # Still his to answer, now the FLIP his flipped card offers: the ping says so.
        assert "FLIP: Spark Tumbler" in last_ping(fake, ben)
        assert "Oakheart Warden LV2 — HP 3/4" in table_of(fake).text()  # one flip so far
        hand = await show_hand(fake, ben)
        assert "FLIP: Spark Tumbler" in hand.text()
        await choose(fake, ben, hand, "Use FLIP")
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
        await attack(fake, ana, ben)
        hand = await show_hand(fake, ben)
        await choose(fake, ben, hand, "Decline")
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
        assert (
            "Break Area LV 9/10" in text
            and (
                "Support (pays costs): 🟥 Red 3 of 3 active · 🟨 Yellow 3 of 3 active · "
                "🟩 Green 3 of 3 active · 🟦 Blue 3 of 3 active"
            )
            in text
        )
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
            [
                "Stage Forge Arena (pay 1 Red)",
                "Ember Knight → Oakheart Warden (HP 4): 3 dmg (pay 2 Red + 1 Yellow)",
            ],
            ["End turn"],
            ["Refresh"],
        ]
        items = shown.selects()[0]["options"]
        # One per card it may discard (named, never by number), not one per copy.
        assert len(items) == 6
        assert items[0]["label"] == "Use Kindling Toss (pay 1 Red, discard Cinder Scout)"
    fake.assert_clean()


async def test_re_placement_on_the_opponents_turn_is_asked_of_its_player(
    fake, db, monkeypatch
) -> None:
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    # One HP card left: Oakheart Warden faints and Ben's Battle Area is empty.
    rigged = ember_knight_attacks(side(battle=[("S1-035", [FILLER])], hand=["S1-031"]))
    async with fake.running(make_bot(db)):
        await start(fake, monkeypatch, rigged, ana, ben)
        await attack(fake, ana, ben)
        assert "▶️ Ben" in table_of(fake).text()
        hand = await show_hand(fake, ben)
        assert "Your Battle Area is empty: place a Cookie." in hand.text()
        await choose(fake, ben, hand, "Sprout Tender")
        table = table_of(fake).text()
        assert "Sprout Tender LV1 — HP 2/2" in table and "▶️ Ana" in table
    fake.assert_clean()


# --- the trap window opens after every attack ------------------------------------------------
PAUSE = (30.0, 40.0)  # the forced pass's pause, longer than the harness fast-forwards
SMOKE_SCREEN, TAX_COLLECTOR = "S1-014", FILLER  # a Trap Ben can pay (R G), an Item


def defender_holding(card: str) -> RiggedBraverse:
    """Ben holds one card and a Support that pays a Smoke Screen, in either case."""
    return ember_knight_attacks(
        side(battle=[("S1-035", [FILLER] * 4)], hand=[card], support=["S1-001", "S1-032"])
    )


def public_words(fake) -> list[str]:  # type: ignore[no-untyped-def]
    """Every public message as the attacker reads it, minus who is who and the clock."""
    texts = [m.text() for m in fake.public_messages(fake.general)]
    return [re.sub(r"<(@|t:)\d+(:R)?>", "<…>", t) for t in texts]


@asynccontextmanager
async def attacked(fake, db, monkeypatch, card: str):  # type: ignore[no-untyped-def]
    """Ana has attacked Ben, who holds ``card``; neither asked to be asked always."""
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)) as bot:
        bot.bots.forced_pause = PAUSE
        monkeypatch.setitem(GAMES, "braverse", defender_holding(card))
        await open_game(fake, "braverse", ana, ben, always_ask=False)
        await looked_away(fake)  # Ben is away: the attack pings him
        await attack(fake, ana)
        yield bot, ana, ben


async def what_ana_sees_after_her_attack(fake, db, monkeypatch, card: str):  # type: ignore[no-untyped-def]
    async with attacked(fake, db, monkeypatch, card) as (_, ana, _):
        hand = await show_hand(fake, ana)
        return public_words(fake), hand.text()


async def test_the_trap_window_opens_and_passes_for_a_defender_with_no_answer(
    fake, db, monkeypatch
) -> None:
    """Ben holds no Trap: the game waits on him as if he did, pings him, and after the
    forced decision's pause passes for him: no click, no missed turn."""
    async with attacked(fake, db, monkeypatch, TAX_COLLECTOR) as (bot, _, ben):
        table = table_of(fake).text()
        assert "▶️ Ben" in table and "🪤 Ben may answer the attack." in table
        assert "You are attacked (3 damage): answer with a Trap or not?" in last_ping(fake, ben)
        match_id = table_of(fake).find_button("hand").custom_id.split(":")[2]
        before = await bot.service.store.actions(match_id)
        await fake.advance(PAUSE[1])
        actions = await bot.service.store.actions(match_id)
        assert [(a.seat, a.action) for a in actions[len(before) :]] == [(1, "pass")]
        table = table_of(fake).text()
        assert "Oakheart Warden LV2 — HP 1/4" in table and "▶️ Ana" in table
        assert "Ben does not respond." in table
        seat = (await bot.service.get(match_id)).seats[1]
        assert (seat.away, seat.missed) == (0, 0)
    fake.assert_clean()


async def test_the_attacker_sees_the_same_whether_the_defender_can_answer_or_not(
    fake, db, monkeypatch, tmp_path
) -> None:
    """The table, the pings and the attacker's own hand read alike whether Ben holds a
    Trap he can pay or nothing that answers."""
    nothing = await what_ana_sees_after_her_attack(fake, db, monkeypatch, TAX_COLLECTOR)
    fake.assert_clean()
    other = FakeDiscord()
    trap = await what_ana_sees_after_her_attack(
        other, tmp_path / "other.db", monkeypatch, SMOKE_SCREEN
    )
    other.assert_clean()
    assert any("🪤 Ben may answer the attack." in t for t in trap[0])
    assert nothing == trap


# --- re-placement is asked whether or not a Cookie is in hand ---------------------------------
SPROUT_TENDER = "S1-031"  # a Cookie Ben could place


async def what_ana_sees_after_a_faint(fake, db, monkeypatch, card: str):  # type: ignore[no-untyped-def]
    """Ana's attack makes one of Ben's two Cookies faint; Ben holds ``card`` and asked to
    be asked always by nobody. Seen once the trap window has passed for him."""
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    two = side(battle=[("S1-035", [FILLER]), ("S1-046", [FILLER] * 2)], hand=[card])
    async with fake.running(make_bot(db)) as bot:
        bot.bots.forced_pause = PAUSE
        monkeypatch.setitem(GAMES, "braverse", ember_knight_attacks(two))
        await open_game(fake, "braverse", ana, ben, always_ask=False)
        await attack(fake, ana)
        await fake.advance(PAUSE[1])  # Ben's forced pass in the trap window
        table = table_of(fake).text()
        assert "🍪 Ben may place Cookies." in table and "▶️ Ben" in table
        seen = public_words(fake), (await show_hand(fake, ana)).text()
        if card != SPROUT_TENDER:  # nothing to place: "Place no more" after the pause
            await fake.advance(PAUSE[1])
            assert "▶️ Ana" in table_of(fake).text()
        return seen


async def test_re_placement_reads_alike_whether_or_not_the_player_holds_a_cookie(
    fake, db, monkeypatch, tmp_path
) -> None:
    """Skipped for a hand with no Cookie, the game went straight on, and the table and
    the missing ping told Ana that Ben's hand held none."""
    nothing = await what_ana_sees_after_a_faint(fake, db, monkeypatch, TAX_COLLECTOR)
    fake.assert_clean()
    other = FakeDiscord()
    cookie = await what_ana_sees_after_a_faint(
        other, tmp_path / "other.db", monkeypatch, SPROUT_TENDER
    )
    other.assert_clean()
    assert nothing == cookie


async def test_a_hand_with_one_kind_of_cookie_is_pinged_for_its_starting_cookie(
    fake, db, monkeypatch
) -> None:
    """A hand holding one kind of Cookie has one starting choice, played for it after the
    pause: were it treated apart, the table would learn that hand held no other Cookie.
    Both players just pressed Start: neither is mentioned while they look; Ben's choice is
    played after the pause, as a quick click would be; once they looked away, one ping
    calls on whoever still owes a move, Ana among them."""
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    rigged = RiggedBraverse(
        side(hand=["S1-031", "S1-035", FILLER]),
        side(hand=["S1-031", "S1-031", FILLER]),
        phase="starting",
        round=0,
    )
    async with fake.running(make_bot(db)) as bot:
        bot.bots.forced_pause = PAUSE
        monkeypatch.setitem(GAMES, "braverse", rigged)
        await open_game(fake, "braverse", ana, ben, always_ask=False)
        assert not [m for m in fake.public_messages() if "your move" in m.content]
        await fake.advance(PAUSE[1])
        assert "Ben has chosen a starting Cookie." in table_of(fake).text()
        await looked_away(fake)
        (ping,) = [m.content for m in fake.public_messages() if "your move" in m.content]
        assert ping.startswith(f"🎯 <@{ana.id}>") and ", your move" in ping
    fake.assert_clean()


async def test_the_attackers_hand_waits_on_the_answer_without_saying_it_is_not_her_turn(
    fake, db, monkeypatch
) -> None:
    """After her attack, Ana's hand said "Your moves show here on your turn", on her own
    turn, while the table said it was hers: it now says the moves come back when she has
    one to make."""
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    rigged = ember_knight_attacks(side(battle=[("S1-035", [FILLER] * 4)]))
    async with fake.running(make_bot(db)):
        await start(fake, monkeypatch, rigged, ana, ben)
        await attack(fake, ana)
        hand = await show_hand(fake, ana)
        assert "Waiting for **Ben**. Your moves show here when you have one to make." in (
            hand.text()
        )
        assert "on your turn" not in hand.text()
    fake.assert_clean()
