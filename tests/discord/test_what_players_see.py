"""What a table of players sees around the moves: the end of a match posted where they look,
pings that say what happened and until when, one truth about whose turn it is, and hand
views that replace each other instead of piling up."""

from __future__ import annotations

from typing import Any

from bot.clock import ManualClock
from bot.store.models import LoggedAction, MatchRecord
from cogs.components import OOPS
from cogs.table.reach import EDITABLE as HAND_EDITABLE
from games import GAMES
from games.core.protocol import Action, Placement
from games.core.words import points_word
from games.cover import CoverYourAssets
from games.cover.state import CoverOptions, CoverSet, CoverState
from tests.discord.conftest import looked_away, make_bot, open_game, show_hand, table_of
from tests.discord.harness import FakeDiscord, FakeMessage, FakeUser
from tests.discord.test_toss_your_cookies import play_to_the_end


def link_buttons(message: FakeMessage) -> dict[str, str]:
    """Link buttons as label -> url (they carry no custom_id)."""
    found: dict[str, str] = {}
    for row in message.components:
        for item in row.get("components", []):
            if item.get("type") == 2 and item.get("url"):
                found[item["label"]] = item["url"]
    return found


def table_link(fake: FakeDiscord) -> str:
    table = table_of(fake)
    return f"https://discord.com/channels/{fake.guild_id}/{table.channel_id}/{table.id}"


def sent_allowed_mentions(fake: FakeDiscord, content_part: str) -> dict[str, Any]:
    """The allowed mentions of the one channel message (not an ephemeral answer, which
    may say "This match is over." too) whose content holds ``content_part``."""
    (request,) = [
        r
        for r in fake.requests
        if r.method == "POST"
        and r.path.startswith("/channels/")
        and content_part in str((r.body or {}).get("content"))
    ]
    return request.body.get("allowed_mentions", {})


class ChallengeReady(CoverYourAssets):
    """Two players; Ana to move, holding a Piano, and Ben's Piano set on top of his stack."""

    def setup(self, options: CoverOptions, players, seed: int) -> CoverState:  # type: ignore[no-untyped-def, override]
        state = super().setup(options, players, seed)
        state.players[0].hand = ["piano", "cabin", "toy_train", "jewels"]
        state.players[0].stack = [CoverSet(asset="cabin", cards=["cabin", "cabin"])]
        state.players[1].hand = ["gold", "toy_train", "jewels", "cash"]
        state.players[1].stack = [
            CoverSet(asset="cabin", cards=["cabin", "cabin"]),
            CoverSet(asset="piano", cards=["piano", "piano"]),
        ]
        state.turn = 0
        return state


async def test_the_end_of_a_match_is_posted_at_the_bottom_for_everyone(fake, db) -> None:
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)) as bot:
        await open_game(fake, "toss_your_cookies", ana, ben, bots=1)
        await play_to_the_end(fake, [ana, ben])
        await fake.settle()
        record = await bot.service.store.open_in_channel(fake.general.id)
        assert record is None  # over: nothing open in the channel any more
        final = fake.public_messages()[-1]
        assert final.id != table_of(fake).id  # a new message at the bottom, not the table
        # Everyone is mentioned (so it notifies), and the mentions are allowed through.
        assert ana.mention in final.content and ben.mention in final.content
        assert "is over" in final.content and "wins!" in final.content
        assert "users" in sent_allowed_mentions(fake, "is over")["parse"]
        # The ranking names all three seats, the winner first with a gold medal, the two
        # others (one round: not told apart) sharing the next line and place.
        embed = final.embeds[0]
        assert "final result" in embed["title"]
        ranking = embed["description"].split("\n\n")[1].splitlines()
        assert len(ranking) == 2 and ranking[0].startswith("🥇") and ranking[1].startswith("2. ")
        assert {"Ana", "Ben", "Abe"} == {
            name for line in ranking for name in ("Ana", "Ben", "Abe") if name in line
        }
        assert final.find_button("Rematch")
        assert link_buttons(final) == {"Jump to table": table_link(fake)}
        # The finished table shows no turn: no marker, no one "grabbing" or "choosing".
        table = table_of(fake).text()
        for turn_word in ("▶️", "grabbing", "choosing", "rolls the dice"):
            assert turn_word not in table, turn_word
        # Finished tables: My last hand, Spectate and Rematch.
        labels = [b.label for b in table_of(fake).buttons()]
        assert labels == ["My last hand", "Spectate", "Rematch"]
    fake.assert_clean()


async def test_a_cancelled_match_says_who_cancelled_quietly_and_shows_no_turn(
    fake, db, monkeypatch
) -> None:
    monkeypatch.setitem(GAMES, "cover_your_assets", ChallengeReady())
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)):
        await open_game(fake, "cover_your_assets", ana, ben)
        assert "🎯 **Ana**'s turn." in table_of(fake).text() and "▶ Ana" in table_of(fake).text()
        await fake.slash(ana, "cancel")
        assert fake.last_reply(ana).ephemeral and "You cancelled" in fake.last_reply(ana).text()
        closing = fake.public_messages()[-1]
        assert closing.content == "✖️ The **Cover Your Assets** match was cancelled by **Ana**."
        assert sent_allowed_mentions(fake, "was cancelled by") == {"parse": []}
        assert link_buttons(closing) == {"Jump to table": table_link(fake)}
        table = table_of(fake).text()
        assert "This match was cancelled" in table
        for turn_word in ("🎯", "▶", "'s turn", "Waiting for"):
            assert turn_word not in table, turn_word
    fake.assert_clean()


async def test_a_challenge_ping_names_the_challenge_and_its_deadline_and_a_miss_is_no_absence(
    fake, db, monkeypatch
) -> None:
    monkeypatch.setitem(GAMES, "cover_your_assets", ChallengeReady())
    mod = fake.add_user("mod", manage_guild=True)
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)) as bot:
        clock = ManualClock(start=bot.service.clock.now())
        bot.service.clock = bot.scheduler.clock = clock
        # The harshest policy: a missed turn hands the seat to a bot.
        await fake.slash(mod, "settings", on_timeout="bot")
        await open_game(fake, "cover_your_assets", ana, ben)
        await looked_away(fake)  # Ben is not looking at the table: he is pinged
        hand = await show_hand(fake, ana)
        await fake.click(ana, hand, hand.find_button("Challenge Ben's Piano"))
        (ping,) = [m for m in fake.public_messages() if "⚔️" in m.content]
        due = int(clock.now() + 600)  # casual pace: ten minutes to answer
        assert ping.content == (
            f"⚔️ {ben.mention}: Ana challenges your Piano set with 🎹 Piano. "
            f"Defend it, or let it go? — answer <t:{due}:R>"
        )
        assert "Your hand" not in ping.text() and "Gold" not in ping.text()  # nothing hidden
        assert ping.find_button("Show hand")
        assert link_buttons(ping) == {"Jump to table": table_link(fake)}
        # Ben lets the clock run out: his answer's default (let it go) is played, and his
        # seat stays his: only a missed turn brings a bot in.
        await clock.advance(601)
        await fake.settle_with(bot.scheduler.fire_due())
        record = await bot.service.get(ping.find_button("Show hand").custom_id.split(":")[2])
        ben_seat = record.seats[1]
        assert (ben_seat.away, ben_seat.missed) == (0, 0)
        state = bot.service.load_state(record)
        assert [s.asset for s in state.players[1].stack] == ["cabin"]  # the Piano set is gone
        assert any("Ben ran out of time, so the default move" in t for t in fake.all_public_text())
        assert "Bots standing in" not in table_of(fake).text()
    fake.assert_clean()


async def test_a_turn_ping_names_the_last_public_move_and_the_deadline(
    fake, db, monkeypatch
) -> None:
    monkeypatch.setitem(GAMES, "cover_your_assets", ChallengeReady())
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)) as bot:
        clock = ManualClock(start=bot.service.clock.now())
        bot.service.clock = bot.scheduler.clock = clock
        await fake.slash(ben, "notify", on=True)
        await open_game(fake, "cover_your_assets", ana, ben)
        await looked_away(fake)  # Ben is not looking at the table: he is pinged
        hand = await show_hand(fake, ana)
        await fake.click(ana, hand, hand.find_button("Discard 💎 Jewels"))
        # Ten minutes a move is watched from the channel: no DM, even for those who asked.
        assert fake.dms(ben) == []
        ping = fake.public_messages()[-1]
        assert ping.content == (
            f"🎯 {ben.mention}, your move in **Cover Your Assets** — "
            f"<t:{int(clock.now() + 600)}:R>.\n> Ana discarded 💎 Jewels. Ana drew 3 cards."
        )
        assert ping.find_button("Show hand") and "Jump to table" in link_buttons(ping)
    fake.assert_clean()


async def test_a_new_hand_view_replaces_the_previous_one_while_discord_allows(fake, db) -> None:
    ana = fake.add_user("ana")
    async with fake.running(make_bot(db)):
        await open_game(fake, "cover_your_assets", ana, bots=2)
        first = await show_hand(fake, ana)
        second = await show_hand(fake, ana)
        assert first.deleted and not second.deleted
        hands = [m for m in fake.ephemerals(ana) if "Your hand" in m.text()]
        assert [m.id for m in hands] == [second.id]
        # Past Discord's 15 minutes the old one cannot be touched: a new one is added.
        await fake.advance(HAND_EDITABLE)
        third = await show_hand(fake, ana)
        assert not second.deleted and not third.deleted
        # The newest one is replaced again by the next.
        fourth = await show_hand(fake, ana)
        assert third.deleted and not fourth.deleted
    fake.assert_clean()


async def test_a_stranger_pressing_rematch_is_told_what_they_can_do(fake, db) -> None:
    ana, eve = fake.add_user("ana"), fake.add_user("eve")
    async with fake.running(make_bot(db)):
        await open_game(fake, "toss_your_cookies", ana, bots=2)
        await play_to_the_end(fake, [ana])
        await fake.settle()
        final = fake.public_messages()[-1]
        await fake.click(eve, final, final.find_button("Rematch"))
        reply = fake.last_reply(eve)
        assert reply.ephemeral
        assert "Only this match's players can call a rematch" in reply.text()
        assert "/play" in reply.text() and "Spectate" in reply.text()
        await fake.click(eve, table_of(fake), table_of(fake).find_button("Spectate"))
        assert "Game over" in fake.last_reply(eve).text()
    fake.assert_clean()


def test_every_game_names_its_scores_as_players_count_them() -> None:
    toss, chomper = GAMES["toss_your_cookies"], GAMES["cookie_chomper"]
    cover = GAMES["cover_your_assets"]
    names = ("Ana", "Ben", "Cleo")
    placement = Placement(seat=0, place=1, score=2)
    three = toss.setup(toss.options_model(rounds="3"), names, 1)
    assert toss.score_text(three, placement) == "🏆 2"
    money = Placement(seat=0, place=1, score=1_250_000)
    assert cover.score_text(cover.setup(cover.options_model(), names, 1), money) == "$1.25M"
    chain = chomper.setup(chomper.options_model(mode="chain"), names, 1)
    assert chomper.score_text(chain, placement) == "2 cards left"
    standard = chomper.setup(chomper.options_model(), names, 1)
    assert chomper.score_text(standard, placement) == ""  # the place says it all
    hoard = chomper.setup(chomper.options_model(mode="hoarder"), names, 1)
    assert chomper.score_text(hoard, placement) == "2 pts"
    assert chomper.score_text(hoard, Placement(seat=1, place=2, score=1)) == "1 pt"
    # Tournament points may be halves (a draw): only exactly one is singular.
    said = [points_word(p) for p in (0, 0.5, 1, 1.5)]
    assert said == ["points", "points", "point", "points"]
    assert points_word(1, short=True) == "pt" and points_word(3, short=True) == "pts"


async def a_finished_match(  # type: ignore[no-untyped-def]
    fake: FakeDiscord, bot, game: str, *people: FakeUser
) -> tuple[FakeMessage, str, MatchRecord, Any]:
    """``game`` played to the end by ``people`` and two bots: its final table, the match's
    id, record and final state."""
    await open_game(fake, game, *people, bots=2)
    await play_to_the_end(fake, list(people))
    table = table_of(fake)
    match_id = table.find_button("Rematch").custom_id.split(":")[2]
    record = await bot.service.get(match_id)
    return table, match_id, record, bot.service.load_state(record)


async def test_my_last_hand_on_a_finished_table_shows_the_cards_held_not_empty(fake, db) -> None:
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)) as bot:
        table, match_id, _, state = await a_finished_match(fake, bot, "cookie_chomper", ana, ben)
        out = [p for p, seat in ((ana, 0), (ben, 1)) if not state.hands[seat]]
        assert out  # of four players three are out, so Ana or Ben ended empty-handed
        for person in (ana, ben):
            await fake.click(person, table, table.find_button("My last hand"))
            last = fake.last_reply(person)
            assert last.ephemeral and "This match is over." in last.text()
            assert "*empty*" not in last.text() and "Your hand (" in last.text()
            assert ("The last cards you held" in last.text()) == (person in out)
        # Asked again, the same player's earlier view is replaced (and the replay is kept).
        first = fake.last_reply(out[0])
        await fake.click(out[0], table, table.find_button("My last hand"))
        assert first.deleted and "The last cards you held" in fake.last_reply(out[0]).text()
        # Kept as text, not as parsed states: nothing for the garbage collector to walk.
        kept = bot.service._last_held[(match_id, [ana, ben].index(out[0]))]
        assert isinstance(kept, str) and '"hands"' in kept
    fake.assert_clean()


async def test_players_asking_for_their_last_hands_at_once_share_one_replay(fake, db) -> None:
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)) as bot:
        table, match_id, record, state = await a_finished_match(
            fake, bot, "cover_your_assets", ana, ben
        )
        game = GAMES["cover_your_assets"]
        assert not state.players[0].hand and not state.players[1].hand  # all played out
        # The last state each seat held cards in, replayed the long way, one seat at a time.
        logged = await bot.store.actions(match_id)
        names = [s.name for s in record.seats]
        replayed = game.setup(game.load_options(record.options), names, record.seed)
        expected: dict[int, int] = {}
        for action in logged:
            for seat in (0, 1):
                if replayed.players[seat].hand:
                    expected[seat] = replayed.version
            replayed, _ = game.apply(replayed, action.seat, Action.decode(action.action))
        reads = 0
        real_actions = bot.store.actions

        async def counted(match_id: str) -> list[LoggedAction]:
            nonlocal reads
            reads += 1
            return await real_actions(match_id)

        bot.store.actions = counted  # type: ignore[method-assign]
        bot.service._last_held.clear()  # a look at the end of play may have replayed it
        await fake.click_at_once([ana, ben], table, table.find_button("My last hand"))
        assert reads == 1
        for person, seat in ((ana, 0), (ben, 1)):
            last = fake.last_reply(person)
            assert "The last cards you held" in last.text()
            kept = game.load_state(bot.service._last_held[(match_id, seat)])
            assert kept.version == expected[seat] and kept.players[seat].hand
        # Asked again, from memory.
        await fake.click(ana, table, table.find_button("My last hand"))
        assert reads == 1 and "The last cards you held" in fake.last_reply(ana).text()
    fake.assert_clean()


async def test_a_last_hand_whose_log_does_not_replay_shows_the_final_hand_and_logs_it(
    fake, db
) -> None:
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db), check_errors=False) as bot:
        table, match_id, record, _ = await a_finished_match(
            fake, bot, "cover_your_assets", ana, ben
        )
        bot.service._last_held.clear()
        real_actions = bot.store.actions

        async def shuffled(match_id: str) -> list[LoggedAction]:
            return list(reversed(await real_actions(match_id)))  # out of order

        bot.store.actions = shuffled  # type: ignore[method-assign]
        await fake.click(ana, table, table.find_button("My last hand"))
        last = fake.last_reply(ana)
        assert last.ephemeral and "This match is over." in last.text()
        assert "The last cards you held" not in last.text() and OOPS not in last.text()
    # Reversed, the log starts with the last move: the replay stops there.
    assert [r.getMessage() for r in fake.error_logs] == [
        f"match {match_id} does not replay: Move {record.version} is out of order in the log."
    ]
