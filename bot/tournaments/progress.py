"""What a format reads of an event: its choices, game, lot seed, round and status, and the
entrants, results and tables stored so far; and what it answers when asked to pair.

The service reads these from the store and hands them over whole; a format only reads
them (the store's records are plain frozen values), so everything it decides follows from
what is stored.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

from bot.tournaments.results import Player, TableResult

if TYPE_CHECKING:
    from bot.store.tournament_records import EntrantRecord, ResultRecord, TournamentTable
    from bot.tournaments.config import TournamentConfig
    from games.core.protocol import Game


def participants(entrants: Sequence[EntrantRecord], status: str) -> list[int]:
    """Who is in the event's standings: everyone who played or is playing (dropped and
    disqualified players stay listed), not the waitlist, not those gone before round 1."""
    if status == "signup":
        return [e.entrant for e in entrants if e.state == "entered"]
    return [
        e.entrant
        for e in entrants
        if e.state in ("entered", "disqualified") or (e.state == "dropped" and e.dropped_round)
    ]


def to_table_result(result: ResultRecord) -> TableResult:
    return TableResult(
        round=result.round,
        players=tuple(result.players),
        places=tuple(result.places),
        kind=result.kind,
        gone=frozenset(result.gone),
        game_wins=None if result.game_wins is None else tuple(result.game_wins),
        game_draws=result.game_draws,
    )


@dataclass(frozen=True)
class Progress:
    """An event as stored, for its format to read: standings, pairings and whether it is
    over are all worked out from this alone."""

    config: TournamentConfig
    game: Game
    seed: int
    round: int  # the round being played (0: none yet)
    status: str
    entrants: Sequence[EntrantRecord]
    results: Sequence[ResultRecord]
    tables: Sequence[TournamentTable]
    # A round paired by rating (``Format.pairs_by_rating``): the entrants' ratings then.
    ratings: Mapping[Player, int] | None = None

    @cached_property
    def players(self) -> list[Player]:
        """Everyone in the standings (``participants``)."""
        return participants(self.entrants, self.status)

    @cached_property
    def active(self) -> list[Player]:
        """Who is paired next: the entrants still entered."""
        return [e.entrant for e in self.entrants if e.state == "entered"]

    @cached_property
    def withdrawn(self) -> list[Player]:
        """Dropped and disqualified entrants, in entry order."""
        return [e.entrant for e in self.entrants if e.state in ("dropped", "disqualified")]

    @cached_property
    def bots(self) -> set[Player]:
        return {e.entrant for e in self.entrants if e.is_bot}

    @cached_property
    def scored(self) -> list[TableResult]:
        return [to_table_result(r) for r in self.results]

    def result_at(self, round: int, table_no: int) -> ResultRecord | None:
        return next((r for r in self.results if (r.round, r.table_no) == (round, table_no)), None)


@dataclass(frozen=True)
class Pairing:
    """A round as a format pairs it: its stage (``swiss``, ``pods``, ``bracket``, ``final``,
    …), the tables in seat order, the byes, and each table's bracket match (None: none)."""

    stage: str
    tables: list[tuple[Player, ...]]
    byes: list[Player]
    brackets: list[str | None]

    @classmethod
    def unbracketed(
        cls, stage: str, tables: list[tuple[Player, ...]], byes: list[Player]
    ) -> Pairing:
        return cls(stage, tables, byes, [None] * len(tables))
