"""Choices people can read: identical cards say how many are held, a description under
every card with an effect and every lobby switch, and a Toss swap in four clicks."""

from __future__ import annotations

from collections import Counter

from games import GAMES
from games.toss.state import Roll
from tests.discord.conftest import (
    looked_away,
    make_bot,
    move_components,
    open_game,
    show_hand,
    table_of,
)
from tests.discord.harness import FakeDiscord, FakeUser
from tests.discord.test_toss_your_cookies import rigged_table

SANDWICH = "⚫ Chocolate Sandwich"


def clicks_by(fake: FakeDiscord, user: FakeUser) -> int:
    return sum(1 for i in fake.interactions if i.user.id == user.id and i.type == 3)


async def test_a_toss_swap_takes_four_clicks_and_asks_for_exactly_the_cards_due(
    fake, db, monkeypatch
) -> None:
    people = [fake.add_user(n) for n in ("ana", "ben", "cleo")]
    later = [Roll(action="left", number="1")] * 5  # the next turns' rolls
    game = await rigged_table(
        fake, db, monkeypatch, people, Roll(action="swap", number="2"), *later
    )
    real_setup = game.setup

    def setup(options, players, seed):  # type: ignore[no-untyped-def]
        """The real deal, with three Chocolate Sandwiches in the first player's hand."""
        state = real_setup(options, players, seed)
        if "sandwich" not in state.cookies:
            state.cookies[0] = "sandwich"
        everything = Counter(game.cards.deck(len(players), state.cookies))
        mine = ["sandwich"] * 3 + ["wild", "half", "milk"]
        rest = list((everything - Counter(mine)).elements())
        mine.append(next(c for c in rest if c != "sandwich"))  # four and a wild would win
        rest.remove(mine[-1])
        state.hands = [game.cards.sort(mine)] + [
            game.cards.sort(rest[i * 7 : i * 7 + 7]) for i in range(len(players) - 1)
        ]
        return state.model_copy(update={"turn": 0, "first": 0})  # and Ana rolls first

    monkeypatch.setattr(game, "setup", setup)
    async with fake.running(make_bot(db)) as bot:
        await open_game(fake, "toss_your_cookies", *people, always_ask=False)
        await looked_away(fake)  # her mention waited while she looked at the new table
        ana = people[0]
        before = clicks_by(fake, ana)
        assert "Swap · 2" in table_of(fake).text()  # the lone Roll was made for Ana
        pings = [m.content for m in fake.public_messages() if ana.mention in m.content]
        assert len(pings) == 1  # pinged once: for the swap, not for the roll made for her
        hand = await show_hand(fake, ana)  # 1
        await fake.click(ana, hand, hand.find_button("Swap with"))  # 2
        hand = fake.last_reply(ana)
        _, selects = move_components(hand)
        rows = {o["label"]: o for o in selects[0]["options"]}
        # "Pick 2 cards": the select itself takes exactly two rows, a row a card, so
        # Discord never sends one card where two are due. Three identical cards show two
        # rows (no more can be given) and say how many are held.
        assert (selects[0]["min_values"], selects[0]["max_values"]) == (2, 2)
        assert [label for label in rows if label.startswith(SANDWICH)] == [
            SANDWICH,
            f"{SANDWICH} (2)",
        ]
        assert rows[SANDWICH]["description"] == "You hold 3."
        assert "any cookie" in next(o for k, o in rows.items() if "Wild" in k)["description"]
        sandwiches = [rows[SANDWICH]["value"], rows[f"{SANDWICH} (2)"]["value"]]
        await fake.select(ana, hand, selects[0]["custom_id"], sandwiches)
        hand = fake.last_reply(ana)  # 3: two cards given
        _, selects = move_components(hand)
        places = [o["value"] for o in selects[0]["options"][:2]]
        await fake.select(ana, hand, selects[0]["custom_id"], places)  # 4
        record = await bot.service.store.open_in_channel(fake.general.id)
        state = bot.service.load_state(record)
        actions = [a.action for a in await bot.service.store.actions(record.match_id)]
        assert "give.sandwich.sandwich" in actions and state.phase != "swap_take"
        assert clicks_by(fake, ana) - before == 4
    fake.assert_clean()


async def test_every_lobby_switch_says_what_it_does(fake, db) -> None:
    ana = fake.add_user("ana")
    async with fake.running(make_bot(db)):
        for key in GAMES:
            await fake.slash(ana, "play", game=key)
            lobby = fake.public_messages(fake.general)[-1]
            switches = [s for s in lobby.selects() if s["custom_id"].endswith(":_switches")]
            for select in switches:
                for row in select["options"]:
                    assert 0 < len(row.get("description") or "") <= 100, row
            await fake.slash(ana, "cancel")
        assert fake.public_messages(fake.general)  # lobbies were shown
    fake.assert_clean()


async def test_chomper_cards_with_an_effect_carry_a_description_in_the_hand(fake, db) -> None:
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    chomper = GAMES["cookie_chomper"]
    seed = next(  # a deal whose first player holds a Special card (Roll, Seek, Skip...)
        s
        for s in range(1, 200)
        if any(
            o.group == "Special"
            for o in chomper.decisions(chomper.setup(chomper.options_model(), ["Ana", "Ben"], s))[
                0
            ].options
        )
    )
    async with fake.running(make_bot(db)) as bot:
        bot.service.new_seed = lambda: seed
        await open_game(fake, "cookie_chomper", ana, ben)
        record = await bot.service.store.open_in_channel(fake.general.id)
        mover = (ana, ben)[bot.service.load_state(record).turn]
        hand = await show_hand(fake, mover)
        _, selects = move_components(hand)
        special = next(s for s in selects if "Special" in (s.get("placeholder") or ""))
        for row in special["options"]:
            assert 0 < len(row.get("description") or "") <= 100, row
    fake.assert_clean()
