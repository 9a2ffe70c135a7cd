"""Names as people wrote them (issue 38): the service keeps a player's display name as
Discord gives it, markdown characters, brackets and all, up to Discord's 32 characters;
only what would break a line is made a space. Where it is shown it is made safe instead
(escaped at the Discord edge, by the pages' autoescape, drawn as written in pictures)."""

from __future__ import annotations

import pytest

from bot.service import MatchService, Person, clean_name
from bot.service.tournaments import Tournaments
from bot.tournaments.config import TournamentConfig
from tests.bot.conftest import MOD

AS_WRITTEN = ("dark_knight", "Ana (EU)", "<img src=x onerror=alert(1)>", "김철수 🍪", "**Ben**")


@pytest.mark.parametrize("name", AS_WRITTEN)
def test_a_name_is_kept_as_written(name: str) -> None:
    assert clean_name(name) == name


def test_only_line_breaks_and_control_characters_change_and_32_characters_are_kept() -> None:
    assert clean_name("Ana\nBen\tCleo\x00\u2028Dev") == "Ana Ben Cleo Dev"
    assert clean_name("  Ana  Ben ") == "Ana  Ben"  # Discord trims; inner spaces are theirs
    assert clean_name("x" * 32) == "x" * 32 and clean_name("y" * 40) == "y" * 32
    assert clean_name("\n\t") == "Player"


async def test_seats_and_entrants_carry_the_names_as_written(service: MatchService) -> None:
    record = await service.open_lobby(
        guild_id=1, channel_id=5, host=Person(1, AS_WRITTEN[0]), game_key="cover_your_assets"
    )
    for number, name in enumerate(AS_WRITTEN[1:], start=2):
        record = await service.join(record.match_id, Person(number, name))
    assert [seat.name for seat in record.seats] == list(AS_WRITTEN)
    started = await service.start(record.match_id, Person(1, AS_WRITTEN[0]))
    state = service.games["cover_your_assets"].load_state(started.state)
    assert list(state.names) == list(AS_WRITTEN)

    events = Tournaments(service)
    event = await events.create(
        guild_id=1,
        channel_id=6,
        organiser=MOD,
        game_key="cover_your_assets",
        config=TournamentConfig(),
    )
    entrant = await events.join(event.tournament_id, Person(7, "dark_knight"))
    assert entrant.name == "dark_knight"


async def test_an_export_shows_a_name_that_looks_like_a_formula_as_text(
    service: MatchService,
) -> None:
    """A name is kept as written, so it may read as a spreadsheet formula: the organiser's
    CSV files write it as text."""
    import csv
    import io

    events = Tournaments(service)
    event = await events.create(
        guild_id=1,
        channel_id=6,
        organiser=MOD,
        game_key="cover_your_assets",
        config=TournamentConfig(),
    )
    tid = event.tournament_id
    for number, name in enumerate(("=HYPERLINK(1)", "@SUM(A1)", "dark_knight", "-Ana")):
        await events.join(tid, Person(40 + number, name))
    await events.start(tid, MOD)
    files = await events.export(tid)
    standings = [row["player"] for row in csv.DictReader(io.StringIO(files["standings.csv"]))]
    results = {row["player"] for row in csv.DictReader(io.StringIO(files["results.csv"]))}
    assert sorted(standings) == ["'-Ana", "'=HYPERLINK(1)", "'@SUM(A1)", "dark_knight"]
    assert results <= set(standings)
