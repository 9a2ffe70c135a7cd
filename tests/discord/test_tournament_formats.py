"""Round robin, multiplayer elimination, pods cut to 16 and organiser place scores,
through the real discord.py code: what /tournament create accepts or refuses, what the
sign-up embed says, and events that run to their winner."""

from __future__ import annotations

import pytest

from tests.discord.conftest import make_bot
from tests.discord.harness import FakeDiscord
from tests.discord.test_tournaments import (
    PatientDiscord,
    create_event,
    settle_all,
    the_event,
    until_round,
    use_manual_clock,
)


@pytest.fixture
def fake() -> FakeDiscord:
    return PatientDiscord()


async def test_create_refuses_a_format_that_cannot_run_and_nothing_is_made(fake, db) -> None:
    mod = fake.add_user("mod", manage_guild=True)
    async with fake.running(make_bot(db)) as bot:
        refusals = [
            (
                {"game": "toss_your_cookies", "format": "round_robin"},
                "A round robin is for two-player tables and Toss Your Cookies needs 3 or "
                "more: pick the pods format or multiplayer elimination.",
            ),
            (
                {"game": "braverse", "format": "double_round_robin", "max_players": 20},
                "A round robin takes at most 16 players: set max_players to 16 or fewer.",
            ),
            (
                {"game": "toss_your_cookies", "format": "multiplayer_elimination", "advance": 4},
                "Fewer than a whole table must go on: with tables of 4, advance 1 to 3.",
            ),
            (
                {"game": "toss_your_cookies", "format": "pods", "scores": "4:6/4/2/0, 3:6/0/3"},
                "Scores go from first place down and never rise (3:6/0/3). "
                "For example: 4:6/4/2/0, 3:6/3/0.",
            ),
            (
                {"game": "toss_your_cookies", "format": "pods", "scores": "9:1/0"},
                "Tables seat 3 to 8 here: there is no table of 9. For example: 4:6/4/2/0, 3:6/3/0.",
            ),
        ]
        for options, sentence in refusals:
            await fake.slash(mod, "tournament create", **options)
            reply = fake.last_reply(mod)
            assert reply.ephemeral and reply.text() == sentence
        assert fake.public_messages() == []
        assert await bot.tournaments.store.tournaments(None, open_only=False) == []
    fake.assert_clean()


async def test_the_sign_up_embed_describes_each_new_format(fake, db) -> None:
    mod = fake.add_user("mod", manage_guild=True)
    async with fake.running(make_bot(db)):
        robin = await create_event(fake, mod, game="braverse", format="double_round_robin")
        assert "Double round robin (2 a table, up to 16: everyone meets twice)" in robin.text()
        assert "everyone plays everyone twice" in robin.text()
        assert "Entrants (0/16)" in robin.text()  # a round robin's default field
        await fake.click(mod, robin, robin.find_button("Cancel"))  # one open event a channel
        knockout = await create_event(
            fake, mod, game="toss_your_cookies", format="multiplayer_elimination", pod_size=5
        )
        assert "Multiplayer elimination" in knockout.text()
        assert "Tables of:** 5 players; the top 2 of each go on" in knockout.text()
        await fake.click(mod, knockout, knockout.find_button("Cancel"))
        pods = await create_event(
            fake,
            mod,
            game="toss_your_cookies",
            format="pods",
            scores="4:9/5/2/0, 3:6/3/0",
            top_cut=16,
        )
        assert "Place scores:** 3 seats 6/3/0 · 4 seats 9/5/2/0 (other sizes" in pods.text()
        assert "top 16 in four semi-final tables" in pods.text()
    fake.assert_clean()


async def test_a_round_robin_with_a_person_rests_them_once_and_ends_with_a_winner(fake, db) -> None:
    mod = fake.add_user("mod", manage_guild=True)
    ana = fake.add_user("ana")
    async with fake.running(make_bot(db)) as bot:
        clock = use_manual_clock(bot)
        signup = await create_event(
            fake, mod, game="cover_your_assets", format="round_robin", pace="live"
        )
        await fake.click(ana, signup, signup.find_button("Join"))
        for _ in range(4):
            await fake.click(mod, signup, signup.find_button("Add bot"))
        assert "5 rounds" in signup.text()
        await fake.click(mod, signup, signup.find_button("Start"))
        await settle_all(fake, bot)
        rested = 0
        for round_no in range(1, 6):
            await until_round(fake, bot, clock, round_no)
            event = await the_event(bot)
            assert event.round == round_no
            view = await bot.tournaments.view(event.tournament_id)
            mine = view.of_user(ana.id)
            pairings = [
                m for m in fake.public_messages() if f"Round {round_no} pairings" in m.text()
            ]
            assert len(pairings) == 1
            table = next(
                (t for t in view.tables if t.round == round_no and mine.entrant in t.seats),  # type: ignore[union-attr]
                None,
            )
            await fake.click(ana, pairings[0], pairings[0].find_button("My table"))
            answer = fake.last_reply(ana).text()
            if table is None:
                rested += 1
                assert "Ana rests this round" in pairings[0].text()
                assert answer == (
                    f"☕ You rest in round {round_no}: everyone rests once in an odd field."
                )
            else:
                assert f"Round {round_no}, table {table.table_no}" in answer
                order = " > ".join(view.name(p) for p in table.seats)
                await fake.slash(mod, "tournament result", order=order)
            await settle_all(fake, bot)
        await until_round(fake, bot, clock, 6)
        assert rested == 1
        event = await the_event(bot)
        assert event.status == "finished" and event.round == 5
        view = await bot.tournaments.view(event.tournament_id)
        pairs = {frozenset(r.players) for r in view.results if r.kind == "table"}
        assert len(pairs) == 10  # every pair of five met once
        final = fake.public_messages()[-1]
        winner = view.entrant(view.standings[0].player)
        assert "tournament is over" in final.text() and f"{winner.name}" in final.text()
        assert "H2H" in final.text() and "SB" in final.text()
    fake.assert_clean()


async def test_a_multiplayer_elimination_of_nine_bots_ends_at_a_final_table(fake, db) -> None:
    mod = fake.add_user("mod", manage_guild=True)
    async with fake.running(make_bot(db)) as bot:
        signup = await create_event(
            fake, mod, game="toss_your_cookies", format="multiplayer_elimination", advance=1
        )
        for _ in range(9):
            await fake.click(mod, signup, signup.find_button("Add bot"))
        await fake.click(mod, signup, signup.find_button("Start"))
        await settle_all(fake, bot)
        event = await the_event(bot)
        assert event.status == "finished"
        view = await bot.tournaments.view(event.tournament_id)
        # Nine at tables of four, one of each goes on: 3/3/3, then the three winners
        # at the final table.
        sizes = [[len(t.seats) for t in view.tables if t.round == n] for n in (1, 2)]
        assert sizes == [[3, 3, 3], [3]] and event.round == 2
        final = next(t for t in view.tables if t.round == 2)
        assert final.bracket_id == "final"
        assert any("Final 2 pairings" in m.text() for m in fake.public_messages())
        champion = view.champion()
        assert champion is not None and champion.entrant in final.seats
        assert f"{champion.name}** wins" in fake.public_messages()[-1].text()
    fake.assert_clean()


async def test_pods_cut_to_sixteen_post_semi_finals_then_a_final(fake, db) -> None:
    mod = fake.add_user("mod", manage_guild=True)
    async with fake.running(make_bot(db)) as bot:
        signup = await create_event(
            fake, mod, game="toss_your_cookies", format="pods", rounds=1, top_cut=16
        )
        for _ in range(16):
            await fake.click(mod, signup, signup.find_button("Add bot"))
        await fake.click(mod, signup, signup.find_button("Start"))
        await settle_all(fake, bot)
        event = await the_event(bot)
        assert event.status == "finished" and event.round == 3
        view = await bot.tournaments.view(event.tournament_id)
        titles = [m.text() for m in fake.public_messages()]
        semis = next(t for t in titles if "Semi-final 2 pairings" in t)
        assert semis.count("**T") == 4
        assert any("Final 3 pairings" in t for t in titles)
        final = next(t for t in view.tables if t.round == 3)
        assert len(final.seats) == 4 and view.champion().entrant in final.seats  # type: ignore[union-attr]
        assert "tournament is over" in titles[-1]
    fake.assert_clean()


async def test_a_seat_that_forfeits_a_multiplayer_elimination_table_never_goes_on(fake, db) -> None:
    mod = fake.add_user("mod", manage_guild=True)
    ana = fake.add_user("ana")
    async with fake.running(make_bot(db)) as bot:
        clock = use_manual_clock(bot)
        signup = await create_event(
            fake, mod, game="cover_your_assets", format="multiplayer_elimination", pace="live"
        )
        await fake.click(ana, signup, signup.find_button("Join"))
        for _ in range(8):
            await fake.click(mod, signup, signup.find_button("Add bot"))
        await fake.click(mod, signup, signup.find_button("Start"))
        await settle_all(fake, bot)
        event = await the_event(bot)
        view = await bot.tournaments.view(event.tournament_id)
        mine = view.of_user(ana.id)
        assert mine is not None
        table = next(t for t in view.tables if t.round == 1 and mine.entrant in t.seats)
        # Ana never moves: three live timeouts in a row and her seat is gone; the others
        # play the table out.
        await until_round(fake, bot, clock, 2)
        view = await bot.tournaments.view(event.tournament_id)
        result = next(r for r in view.results if (r.round, r.table_no) == (1, table.table_no))
        assert result.gone == [mine.entrant]
        assert result.places[result.players.index(mine.entrant)] == len(table.seats)
        assert not any(mine.entrant in t.seats for t in view.tables if t.round >= 2)
        notice = next(
            m for m in fake.public_messages(fake.channels[table.thread_id]) if "Stay in" in m.text()
        )
        assert ana.mention in notice.content
        standing = next(s for s in view.standings if s.player == mine.entrant)
        assert standing.rank > 2 * len([t for t in view.tables if t.round == 1])
    fake.assert_clean()
