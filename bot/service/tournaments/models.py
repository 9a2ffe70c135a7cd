"""What the tournament service hands out and shares: the change told to listeners, the view
of an event shown to players, and the small rules about places and names."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Literal

from bot.errors import UserError
from bot.store import MatchRecord, Store
from bot.store.tournament_records import (
    EntrantRecord,
    ResultRecord,
    TournamentRecord,
    TournamentTable,
)
from bot.tournaments.config import DAY, TournamentConfig
from bot.tournaments.elimination import PodRounds, Tree
from bot.tournaments.entries import late_entry_open
from bot.tournaments.formats import Format, format_of
from bot.tournaments.groups import GroupRounds
from bot.tournaments.progress import Progress, to_table_result
from bot.tournaments.results import meetings
from bot.tournaments.standings import Standing
from games.core.protocol import Game
from games.core.text import Text, t, tc, tn

# Pause between rounds, so players can read the standings (async events go straight on).
GRACE: dict[str, float] = {"live": 120.0, "casual": 0.0, "async": 0.0, "correspondence": 0.0}
# Timeouts in a row before a seat forfeits: the slower the pace, the fewer it takes.
FORFEIT_AFTER: dict[str, int] = {"live": 3, "casual": 3, "async": 2, "correspondence": 2}
HELD = 100 * 365 * DAY  # a paused event's clocks are set this far ahead until it resumes
# Why a paused event's table takes no move: on the table, and the answer to a click.
PAUSED = t("The event is paused by the organiser; play resumes when they press Resume.")


@dataclass
class TournamentChange:
    """What changed in an event, for the Discord layer to show."""

    kind: Literal[
        "signup",
        "round",
        "table",
        "result",
        "standings",
        "finished",
        "cancelled",
        "forfeit",
        "dropped",  # the organiser dropped ``entrant``, who loses ``tables[0]``
        "reminder",
        "paused",
        "resumed",
        "repaired",
    ]
    event: TournamentRecord
    round: int = 0
    tables: list[TournamentTable] = field(default_factory=list)
    byes: list[int] = field(default_factory=list)
    # Swiss: the tables of this round whose players met before (no pairing avoided them).
    rematches: list[tuple[int, ...]] = field(default_factory=list)
    match: MatchRecord | None = None
    entrant: EntrantRecord | None = None
    text: str = ""
    # Standings between rounds: when the next round starts by itself (the organiser may
    # start it sooner); None when it starts at once or the event is over.
    next_round_at: float | None = None


TournamentListener = Callable[[TournamentChange], Awaitable[None]]
OpenThread = Callable[[TournamentRecord, int, int, list[str]], Awaitable[int]]


@dataclass(frozen=True)
class TournamentView:
    """Everything shown about an event: its record, config, entrants and standings."""

    event: TournamentRecord
    config: TournamentConfig
    game: Game
    entrants: list[EntrantRecord]
    results: list[ResultRecord]
    tables: list[TournamentTable]
    standings: list[Standing]
    rounds: int | None  # planned rounds (None: a bracket's, decided as it goes)

    @property
    def format(self) -> Format:
        return format_of(self.config, self.game)

    @property
    def progress(self) -> Progress:
        """The event as its format reads it."""
        event = self.event
        return Progress(
            self.config, self.game, event.seed, event.round, event.status,
            self.entrants, self.results, self.tables,
        )  # fmt: skip

    def drawn_bracket(self) -> Tree | PodRounds | GroupRounds | None:
        """What the bracket picture draws (None: the event has no bracket, or none yet)."""
        return self.format.drawn_bracket(self.progress)

    def standing_notes(self) -> dict[int, Text]:
        """What explains each player's place beyond their points (a group event's round
        and group reached); empty for most formats."""
        return self.format.standing_notes(self.progress)

    @property
    def late_entry_open(self) -> bool:
        """Whether a player may still join the running event (Swiss and pods, until
        round ⌈R/2⌉, with a loss for each round played)."""
        if self.event.status != "running" or not self.format.takes_late_entries():
            return False
        return self.rounds is not None and late_entry_open(self.event.round + 1, self.rounds)

    def entrant(self, number: int) -> EntrantRecord:
        return next(e for e in self.entrants if e.entrant == number)

    def gone_words(self) -> dict[int, Text]:
        """What the standings say of a player who is out by the organiser's hand:
        "disqualified" (the rest who left are "dropped")."""
        gone = tc("standings", "disqualified")
        return {e.entrant: gone for e in self.entrants if e.state == "disqualified"}

    def name(self, number: int) -> str:
        return self.entrant(number).name

    def of_user(self, user_id: int) -> EntrantRecord | None:
        return next((e for e in self.entrants if e.user_id == user_id), None)

    @property
    def entered(self) -> list[EntrantRecord]:
        return [e for e in self.entrants if e.state == "entered"]

    @property
    def waitlist(self) -> list[EntrantRecord]:
        return [e for e in self.entrants if e.state == "waitlist"]

    @property
    def round_under_way(self) -> bool:
        """Whether a table of the current round still has no result."""
        return bool(undecided_tables(self.tables, self.results, self.event.round))

    def champion(self) -> EntrantRecord | None:
        if self.event.status != "finished" or not self.standings:
            return None
        return self.entrant(self.standings[0].player)


def progress_of(
    event: TournamentRecord,
    config: TournamentConfig,
    game: Game,
    entrants: Sequence[EntrantRecord],
    results: Sequence[ResultRecord],
    tables: Sequence[TournamentTable],
) -> Progress:
    """The event as stored, for its format to read."""
    return Progress(config, game, event.seed, event.round, event.status, entrants, results, tables)


EventRecords = tuple[list[EntrantRecord], list[ResultRecord], list[TournamentTable]]


async def event_records(store: Store, event: TournamentRecord) -> EventRecords:
    """What an event's view is computed from: its entrants, results and tables."""
    entrants = await store.entrants(event.tournament_id)
    results = await store.results(event.tournament_id)
    tables = await store.tournament_tables(event.tournament_id)
    return entrants, results, tables


def view_of(game: Game, event: TournamentRecord, records: EventRecords) -> TournamentView:
    """The view of an event from its records: pure, so a caller may compute a large
    event's standings off the event loop (the web page does)."""
    entrants, results, tables = records
    config = TournamentConfig.model_validate_json(event.config)
    progress = progress_of(event, config, game, entrants, results, tables)
    kind = format_of(config, game)
    standings = kind.standings(progress)
    rounds = kind.rounds(len(progress.players))
    return TournamentView(event, config, game, entrants, results, tables, standings, rounds)


async def read_view(store: Store, game: Game, event: TournamentRecord) -> TournamentView:
    """The view of an event, read from the store alone: the tournament service shows it,
    and the read-only web page (which holds none of the service's writing parts) too."""
    return view_of(game, event, await event_records(store, event))


def undecided_tables(
    tables: Sequence[TournamentTable], results: Sequence[ResultRecord], round_no: int
) -> list[TournamentTable]:
    """The round's tables without a result (a cancelled one waits for the organiser's)."""
    decided = {r.table_no for r in results if r.round == round_no}
    return [t for t in tables if t.round == round_no and t.table_no not in decided]


def signed_up(entrants: Sequence[EntrantRecord], user_id: int) -> EntrantRecord | None:
    """The user's entry while it counts: entered or waiting for a place."""
    return next(
        (e for e in entrants if e.user_id == user_id and e.state in ("entered", "waitlist")),
        None,
    )


def rematches_in(
    earlier: Sequence[ResultRecord], tables: Sequence[TournamentTable]
) -> list[tuple[int, ...]]:
    """The tables whose players met before: Swiss pairs a rematch only when no pairing
    avoids it (the fewest), and the pairings say so."""
    met = meetings([to_table_result(r) for r in earlier])
    return [tuple(t.seats) for t in tables if met.get(frozenset(t.seats))]


def places_from_groups(groups: Sequence[Sequence[int]]) -> dict[int, int]:
    """Competition ranking of finishing groups, best first: ties share the best place."""
    places: dict[int, int] = {}
    done = 0
    for group in groups:
        for player in group:
            places[player] = done + 1
        done += len(group)
    return places


def gone_last(players: Sequence[int], places: Sequence[int], gone: set[int]) -> list[int]:
    """A seat that forfeited is last, tied with other quitters; the rest keep their order."""
    staying = sorted({p for player, p in zip(players, places, strict=True) if player not in gone})
    groups = [
        [pl for pl, p in zip(players, places, strict=True) if p == place and pl not in gone]
        for place in staying
    ]
    if gone:
        groups.append([p for p in players if p in gone])
    ranked = places_from_groups(groups)
    return [ranked[p] for p in players]


class TooFewPlayers(UserError):
    """Too few players to start. With check-in, ``found`` counts only those checked in:
    the rest (``unchecked``) are named as a count, or the organiser would read "there are
    0" above a list of entrants and not know what to wait for."""

    def __init__(self, needed: int, found: int, unchecked: int = 0) -> None:
        self.needed, self.found, self.unchecked = needed, found, unchecked
        if unchecked:
            said = tn(
                "A tournament needs at least {needed} players checked in; there is {n} "
                "({unchecked}: they press **Check in**). Add bots or wait.",
                "A tournament needs at least {needed} players checked in; there are {n} "
                "({unchecked}: they press **Check in**). Add bots or wait.",
                n=found,
                needed=needed,
                unchecked=tn(
                    "{n} more player signed up but has not checked in",
                    "{n} more players signed up but have not checked in",
                    n=unchecked,
                ),
            )
        else:
            said = tn(
                "A tournament needs at least {needed} players; there is {n}. Add bots or wait.",
                "A tournament needs at least {needed} players; there are {n}. Add bots or wait.",
                n=found,
                needed=needed,
            )
        super().__init__(said)


def points_text(points: Fraction) -> str:
    return f"{float(points):g}"
