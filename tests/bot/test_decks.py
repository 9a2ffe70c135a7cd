"""Saved decks and the lobby's per-seat deck choice: limits, drafts, and what Start writes."""

from __future__ import annotations

import pytest

from bot.errors import UserError
from bot.service import MatchService
from bot.service.decks import MINE, MOST_DECKS
from games import GAMES
from games.braverse.decks import ready_decks
from games.core.protocol import Action
from tests.bot.conftest import ANA, BEN

RUSH = list(ready_decks()["rush"].cards)
FORT = list(ready_decks()["fort"].cards)


async def braverse_lobby(service: MatchService) -> str:
    record = await service.open_lobby(guild_id=1, channel_id=10, host=ANA, game_key="braverse")
    return record.match_id


async def test_a_deck_follows_its_owner_and_a_name_is_found_in_any_case(
    service: MatchService,
) -> None:
    await service.save_deck(ANA.user_id, "braverse", "Red  Storm", RUSH)
    assert [d.name for d in await service.decks(ANA.user_id)] == ["Red Storm"]
    assert (await service.deck(ANA.user_id, "red storm")).cards == RUSH
    assert await service.decks(BEN.user_id) == []
    with pytest.raises(UserError, match="You have no deck called 'Red Storm'"):
        await service.deck(BEN.user_id, "Red Storm")


async def test_names_are_checked_and_a_same_name_import_replaces_the_deck(
    service: MatchService,
) -> None:
    with pytest.raises(UserError, match="at most 32 characters; that one has 33"):
        await service.save_deck(ANA.user_id, "braverse", "x" * 33, RUSH)
    with pytest.raises(UserError, match="formatting characters"):
        await service.save_deck(ANA.user_id, "braverse", "**bold**", RUSH)
    first = await service.save_deck(ANA.user_id, "braverse", "Mine", RUSH)
    again = await service.save_deck(ANA.user_id, "braverse", "MINE", FORT)
    assert again.name == "Mine" and again.created_at == first.created_at
    assert [d.cards for d in await service.decks(ANA.user_id)] == [FORT]


async def test_twenty_five_decks_a_player_and_the_twenty_sixth_is_refused(
    service: MatchService,
) -> None:
    for n in range(MOST_DECKS):
        await service.save_deck(ANA.user_id, "braverse", f"Deck {n:02}", RUSH)
    with pytest.raises(UserError, match="You already have 25 decks"):
        await service.save_deck(ANA.user_id, "braverse", "One more", RUSH)
    # Replacing one of the 25 is still allowed, and deleting makes room.
    await service.save_deck(ANA.user_id, "braverse", "Deck 00", FORT)
    await service.delete_deck(ANA.user_id, "deck 01")
    await service.save_deck(ANA.user_id, "braverse", "One more", RUSH)
    names = [d.name for d in await service.decks(ANA.user_id)]
    assert len(names) == MOST_DECKS and "Deck 01" not in names and "One more" in names


async def test_an_illegal_import_is_saved_as_a_draft_with_every_problem(
    service: MatchService,
) -> None:
    text = "4 S1-001\n4 S1-002\n\n# a comment\n5x S1-003\nS9-999\n"
    deck, problems = await service.import_deck(ANA.user_id, "braverse", "Short", text)
    assert deck.cards == ["S1-001"] * 4 + ["S1-002"] * 4 + ["S1-003"] * 5
    assert problems == [
        "Line 6: 'S9-999' is not a card here.",
        "The deck has 13 cards; it needs exactly 60.",
        "S1-003 Spark Tumbler: 5 copies; at most 4 of one card number.",
    ]
    assert service.deck_problems(await service.deck(ANA.user_id, "short")) == problems[1:]
    with pytest.raises(UserError, match="No line of that text names a card here"):
        await service.import_deck(ANA.user_id, "braverse", "Nothing", "S9-999\n")


async def test_copy_starts_from_a_ready_deck_or_ones_own_and_delete_removes(
    service: MatchService,
) -> None:
    copied = await service.copy_deck(ANA.user_id, "braverse", "Y+G Fort", "My Fort")
    assert copied.cards == FORT
    again = await service.copy_deck(ANA.user_id, "braverse", "my fort", "Fort 2")
    assert again.cards == FORT
    gone = await service.delete_deck(ANA.user_id, "MY FORT")
    assert gone.name == "My Fort"
    assert [d.name for d in await service.decks(ANA.user_id)] == ["Fort 2"]
    with pytest.raises(UserError, match="no deck called"):
        await service.delete_deck(ANA.user_id, "My Fort")


async def test_start_writes_each_seats_full_list_and_the_card_digest_and_it_replays(
    service: MatchService,
) -> None:
    game = GAMES["braverse"]
    await service.copy_deck(BEN.user_id, "braverse", "fort", "Ben's Fort")
    match_id = await braverse_lobby(service)
    await service.join(match_id, BEN)
    await service.choose(match_id, BEN, MINE + "ben's fort")
    await service.start(match_id, ANA)
    record = await service.get(match_id)
    options = game.load_options(record.options)
    # Ana picked nothing: the first seat's ready deck; Ben: his own deck, in full.
    assert [list(d) for d in options.decks] == [RUSH, FORT]
    assert options.cards == game.pool.digest
    state = service.load_state(record)
    assert sorted(state.sides[1].deck + state.sides[1].hand) == sorted(FORT)
    # Deleting the saved deck later changes nothing: seed + options + log replay.
    await service.delete_deck(BEN.user_id, "Ben's Fort")
    decision = game.decisions(state)[0]
    seat_user = {0: ANA.user_id, 1: BEN.user_id}[decision.seat]
    await service.act(match_id, seat_user, stamp=decision.stamp, action=decision.default)
    record = await service.get(match_id)
    replayed = game.setup(
        game.load_options(record.options), [s.name for s in record.seats], record.seed
    )
    for logged in await service.store.actions(match_id):
        replayed, _ = game.apply(replayed, logged.seat, Action.decode(logged.action))
    assert replayed.model_dump_json() == record.state


async def test_a_draft_is_refused_at_start_and_a_ready_pick_then_starts(
    service: MatchService,
) -> None:
    await service.import_deck(BEN.user_id, "braverse", "Half", "4 S1-001\n")
    match_id = await braverse_lobby(service)
    await service.join(match_id, BEN)
    await service.choose(match_id, BEN, MINE + "Half")
    with pytest.raises(UserError) as refused:
        await service.start(match_id, ANA)
    assert str(refused.value) == (
        "Ben's deck 'Half' is a draft and cannot be played: The deck has 4 cards; it needs "
        "exactly 60. Ben can pick another with **Choose deck**, or fix it with /deck import."
    )
    assert (await service.get(match_id)).status == "lobby"
    await service.choose(match_id, BEN, "fort")
    await service.start(match_id, ANA)
    options = GAMES["braverse"].load_options((await service.get(match_id)).options)
    assert [list(d) for d in options.decks] == [RUSH, FORT]


async def test_only_seated_players_choose_and_only_decks_on_offer(
    service: MatchService,
) -> None:
    match_id = await braverse_lobby(service)
    with pytest.raises(UserError, match=r"Press \*\*Join\*\* first, then choose your deck"):
        await service.choose(match_id, BEN, "fort")
    with pytest.raises(UserError, match="That deck is not on offer"):
        await service.choose(match_id, ANA, "nope")
    with pytest.raises(UserError, match="no deck called"):
        await service.choose(match_id, ANA, MINE + "Ghost")
    cover = await service.open_lobby(
        guild_id=1, channel_id=11, host=ANA, game_key="cover_your_assets"
    )
    with pytest.raises(UserError, match="nothing to choose per player"):
        await service.choose(cover.match_id, ANA, "fort")


async def test_a_bot_seat_plays_its_ready_deck(service: MatchService) -> None:
    match_id = await braverse_lobby(service)
    await service.choose(match_id, ANA, "fort")
    await service.add_bot(match_id, ANA)
    await service.start(match_id, ANA)
    options = GAMES["braverse"].load_options((await service.get(match_id)).options)
    assert [list(d) for d in options.decks] == [FORT, list(ready_decks()["tempo"].cards)]
