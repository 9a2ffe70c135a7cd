"""Event options and paths an audit found missing: announced Swiss rematches, the default top
cut, larger pod tables, the grand-final reset, the organiser's round length, pods of three
at least, a drop during sign-up filling the place, and a player's own late entry."""

from __future__ import annotations

from itertools import count

import pytest

from bot.errors import UserError
from bot.service import MatchService
from bot.service.tournaments import TournamentChange, TournamentConfig, Tournaments, TournamentView
from cogs.tournaments.buttons import signup_buttons
from cogs.tournaments.embeds import rematch_line, signup_embed
from tests.bot.conftest import ANA, BEN, CLEO, MOD

pytestmark = pytest.mark.parametrize("backend", ["sqlite"])  # no store code changed


@pytest.fixture
def events(service: MatchService) -> Tournaments:
    return Tournaments(service)


CHANNELS = count(5)  # each event its own channel: tables play in channels derived from it


async def bots_event(events: Tournaments, game: str, bots: int, **options: object) -> str:
    event = await events.create(
        guild_id=1,
        channel_id=next(CHANNELS),
        organiser=MOD,
        game_key=game,
        config=TournamentConfig(pace="async", **options),  # type: ignore[arg-type]
    )
    for _ in range(bots):
        await events.add_bot(event.tournament_id, MOD)
    return event.tournament_id


def embed_text(view: TournamentView) -> str:
    return signup_embed(view).description or ""


def verbs(view: TournamentView) -> list[str]:
    """The sign-up message's buttons, by what they do."""
    buttons = signup_buttons(view)
    assert buttons is not None
    return [str(getattr(item, "custom_id", "")).rsplit(":", 1)[-1] for item in buttons.children]


async def finish_round(events: Tournaments, tid: str) -> None:
    """The organiser decides every table of the round: seat order is the finishing order
    (the bots have no driver here, so nothing else moves)."""
    view = await events.view(tid)
    for table in view.tables:
        if table.round == view.event.round and table.status == "playing":
            await events.set_result(tid, MOD, " > ".join(view.name(p) for p in table.seats))


async def test_swiss_rematches_no_pairing_avoids_are_announced_with_the_pairings(
    events: Tournaments,
) -> None:
    rounds: list[TournamentChange] = []

    async def listen(change: TournamentChange) -> None:
        if change.kind == "round":
            rounds.append(change)

    events.listeners.append(listen)
    tid = await bots_event(events, "cover_your_assets", 4, format="swiss", rounds=5)
    await events.start(tid, MOD)
    for _ in range(5):
        await finish_round(events, tid)
    view = await events.view(tid)
    assert view.event.status == "finished" and [c.round for c in rounds] == [1, 2, 3, 4, 5]
    # Three rounds meet everyone once; rounds 4 and 5 can only repeat, and say so.
    assert [len(c.rematches) for c in rounds] == [0, 0, 0, 2, 2]
    assert all(c.rematches == [tuple(t.seats) for t in c.tables] for c in rounds[3:])
    seats = rounds[3].rematches[0]
    line = rematch_line(view, rounds[3].rematches[:1])
    assert line == (
        "🔁 1 rematch could not be avoided this round: "
        f"{view.name(seats[0])} – {view.name(seats[1])}"
    )
    assert rematch_line(view, rounds[3].rematches).startswith("🔁 2 rematches could not")


async def test_the_default_cut_is_sized_by_the_field_at_the_start(events: Tournaments) -> None:
    nine = await bots_event(events, "cover_your_assets", 9, format="swiss", default_cut=True)
    eight = await bots_event(events, "cover_your_assets", 8, format="swiss", default_cut=True)
    assert "top 4 from 9 players, the top 8 from 17" in embed_text(await events.view(nine))
    await events.start(nine, MOD)
    await events.start(eight, MOD)
    assert events.config_of(await events.get(nine)).top_cut == 4
    assert events.config_of(await events.get(eight)).top_cut == 0
    with pytest.raises(UserError, match="leave top_cut out"):
        await bots_event(
            events, "cover_your_assets", 0, format="swiss", default_cut=True, top_cut=2
        )
    with pytest.raises(UserError, match="pick Swiss"):
        await bots_event(events, "toss_your_cookies", 0, format="pods", default_cut=True)


async def test_larger_pod_tables_seat_nine_at_two_tables_instead_of_three(
    events: Tournaments,
) -> None:
    plain = await bots_event(events, "toss_your_cookies", 9, format="pods")
    larger = await bots_event(events, "toss_your_cookies", 9, format="pods", larger_tables=True)
    for tid in (plain, larger):
        await events.start(tid, MOD)
    sizes = {
        tid: sorted(len(t.seats) for t in (await events.view(tid)).tables)
        for tid in (plain, larger)
    }
    assert sizes == {plain: [3, 3, 3], larger: [4, 5]}
    assert "or 5 where the field does not divide" in embed_text(await events.view(larger))
    with pytest.raises(UserError, match="Larger tables are for pod events"):
        await bots_event(events, "cover_your_assets", 0, format="swiss", larger_tables=True)


async def test_the_grand_final_reset_is_the_organisers_and_shown_at_sign_up(
    events: Tournaments,
) -> None:
    reset = await bots_event(events, "braverse", 0, format="double_elimination")
    single = await bots_event(events, "braverse", 0, format="double_elimination", reset=False)
    text = {tid: embed_text(await events.view(tid)) for tid in (reset, single)}
    assert "**Grand final:** replayed once if the player from the losers' bracket wins it" in (
        text[reset] or ""
    )
    assert "**Grand final:** one match, no reset" in (text[single] or "")
    assert events.config_of(await events.get(single)).reset is False
    with pytest.raises(UserError, match="reset is for double elimination"):
        await bots_event(events, "braverse", 0, format="swiss", reset=False)


async def test_the_organisers_round_length_sets_the_deadline_instead_of_the_paces(
    events: Tournaments,
) -> None:
    tid = await bots_event(events, "cover_your_assets", 2, format="swiss", round_hours=6)
    assert "rounds last 6 hours" in embed_text(await events.view(tid))
    await events.start(tid, MOD)
    (first,) = await events.store.rounds(tid)
    assert first.deadline == first.started_at + 6 * 3600  # async pace alone: 14 days
    timers = {t.kind: t.due_at for t in await events.store.tournament_timers(tid)}
    assert timers == {"deadline": first.deadline, "remind_half": first.started_at + 3 * 3600}


async def test_pods_of_a_game_two_can_play_seat_three_at_least(events: Tournaments) -> None:
    five = await bots_event(events, "cover_your_assets", 5, format="pods")
    await events.start(five, MOD)
    view = await events.view(five)
    # Tables of 4 would split five into 3 and 2: one table of five instead.
    assert [len(t.seats) for t in view.tables] == [5] and not view.results
    two = await bots_event(events, "cover_your_assets", 2, format="pods")
    with pytest.raises(UserError, match="at least 3 players"):
        await events.start(two, MOD)


async def test_a_drop_during_sign_up_lets_the_first_waiting_in(events: Tournaments) -> None:
    event = await events.create(
        guild_id=1,
        channel_id=5,
        organiser=MOD,
        game_key="cover_your_assets",
        config=TournamentConfig(format="swiss", max_players=2),
    )
    tid = event.tournament_id
    for who in (ANA, BEN, CLEO):
        await events.join(tid, who)
    assert [e.name for e in (await events.view(tid)).waitlist] == ["Cleo"]
    await events.drop(tid, BEN)
    view = await events.view(tid)
    assert [e.name for e in view.entered] == ["Ana", "Cleo"] and view.waitlist == []


async def test_a_player_joins_a_running_swiss_late_until_half_way_with_losses(
    events: Tournaments,
) -> None:
    tid = await bots_event(events, "cover_your_assets", 4, format="swiss", rounds=4)
    await events.start(tid, MOD)
    view = await events.view(tid)
    assert view.late_entry_open and "join" in verbs(view)
    ana = await events.join(tid, ANA)
    assert ana.state == "entered"
    missed = [r for r in (await events.view(tid)).results if ana.entrant in r.players]
    assert [(r.round, r.kind, r.places) for r in missed] == [(1, "missed", [1])]
    with pytest.raises(UserError, match="already playing"):
        await events.join(tid, ANA)
    await finish_round(events, tid)
    view = await events.view(tid)
    assert view.event.round == 2 and any(ana.entrant in t.seats for t in view.tables[-3:])
    # Round 2 is on: late entry was open until round ⌈4/2⌉ = 2.
    assert not view.late_entry_open
    assert "join" not in verbs(view)
    closed = "Late entry is closed: round 2 was the last a late player could start in."
    with pytest.raises(UserError, match=closed):
        await events.join(tid, BEN)
    assert (await events.view(tid)).of_user(BEN.user_id) is None


async def test_a_bracket_takes_no_late_entry_from_a_player(events: Tournaments) -> None:
    tid = await bots_event(events, "braverse", 4, format="single_elimination")
    await events.start(tid, MOD)
    assert not (await events.view(tid)).late_entry_open
    with pytest.raises(UserError, match="Sign-up is closed"):
        await events.join(tid, ANA)
