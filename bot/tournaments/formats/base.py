"""The one protocol every tournament format follows, and what formats share.

A format is bound to an event's choices and its game. It says what it accepts (options,
games, late entries), how many rounds it plans, what a result is worth, how it pairs the
next round, when the event is over and in what order it ends, all from a ``Progress``
(what is stored), so nothing here waits or writes. A new format is one subclass,
registered in ``bot.tournaments.formats.FORMATS``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar, Literal

from bot.errors import UserError
from bot.ratings import Rating
from bot.tournaments import elimination as elim
from bot.tournaments.groups import GroupRounds
from bot.tournaments.lots import lot, rated_lot
from bot.tournaments.progress import Pairing, Progress, to_table_result
from bot.tournaments.results import Player, TableResult
from bot.tournaments.scoring import (
    MATCH_POINTS,
    POD_SCORES,
    Scoring,
    organiser_scores,
    parse_place_scores,
    place_scores_text,
)
from bot.tournaments.standings import Standing, pairing_order, pod_standings, swiss_standings
from bot.tournaments.top_cut import cut
from games.core.text import Text, t

if TYPE_CHECKING:
    from bot.tournaments.config import TournamentConfig, TournamentPace
    from games.core.protocol import Game

UNRATED = Rating().display  # a bot, or a player never rated in the game here
# What the organiser may set beyond the common choices; each format lists those it takes.
Option = Literal[
    "top_cut", "advance", "default_cut", "larger_tables", "reset", "scores", "group_size"
]


class Format(ABC):
    """An event's format, bound to its choices and game."""

    key: ClassVar[str]  # stored in ``TournamentConfig.format``
    label: ClassVar[str]  # shown when the organiser picks one (a Text)
    short: ClassVar[str]  # the label without its explanation ("Swiss")
    two_player: ClassVar[bool] = True  # two seats a table, else 3–8
    options: ClassVar[frozenset[Option]] = frozenset()
    most_players: ClassVar[int] = 64  # the default ``max_players``
    # Why nobody may join once it runs (None: players join late until round ⌈R/2⌉, with a
    # loss for each round played, by themselves or added by the organiser).
    no_late_entry: ClassVar[str | None] = None
    # A rating-seeded event reads the ratings once at the start (kept in ``seed_ratings``,
    # as the bracket is rebuilt from its seeds each time), not as each round starts.
    seeded_at_start: ClassVar[bool] = False
    # What a bye is: a round won unplayed, a rest (round robin), a pass to the next round.
    bye: ClassVar[Literal["win", "rest", "pass"]] = "win"
    shows_rematches: ClassVar[bool] = False  # the pairings say which tables met before
    # A player may sit at several tables of one round, all played at once (group events).
    tables_at_once: ClassVar[bool] = False
    # The pace an event takes when the organiser names none.
    default_pace: ClassVar[TournamentPace] = "casual"

    def __init__(self, config: TournamentConfig, game: Game) -> None:
        self.config, self.game = config, game

    @classmethod
    def short_label(cls) -> str:
        return cls.short

    # --- what it accepts -------------------------------------------------------------------
    def check_game(self) -> None:
        """Refuse a game this format cannot seat (or a seeding it cannot use)."""
        game = self.game
        if self.two_player and game.min_players > 2:
            raise UserError(
                t(
                    "{game} needs {n} or more at a table: pick the pods format or "
                    "multiplayer elimination.",
                    game=game.name,
                    n=game.min_players,
                )
            )
        if not self.two_player and game.max_players < 3:
            raise UserError(
                t("{game} is played by two: pick Swiss or an elimination.", game=game.name)
            )

    def check(self) -> None:
        """The format's own refusals of the options it takes (none by default)."""
        return None

    def checked(self) -> TournamentConfig:
        """The choices as kept: what the format cannot run is refused, and the place
        scores are kept in their canonical text."""
        config, game = self.config, self.game
        if config.top_cut and "top_cut" not in self.options:
            raise UserError(t("A top cut follows Swiss or pod rounds, not a bracket."))
        self.check()
        if config.advance is not None and "advance" not in self.options:
            raise UserError(
                t(
                    "Advance is for multiplayer elimination and group events: how many of "
                    "each table or group go on."
                )
            )
        if config.group_size is not None and "group_size" not in self.options:
            raise UserError(t("A group size is for group events: leave group_size out."))
        if config.default_cut and ("default_cut" not in self.options or config.top_cut):
            raise UserError(
                t(
                    "The default cut sizes a Swiss event's bracket by its field: pick Swiss "
                    "and leave top_cut out."
                )
            )
        if config.larger_tables and "larger_tables" not in self.options:
            raise UserError(t("Larger tables are for pod events: leave larger_tables out."))
        if not config.reset and "reset" not in self.options:
            raise UserError(t("The grand-final reset is for double elimination: leave reset out."))
        if config.scores is not None:
            if "scores" not in self.options:
                raise UserError(t("Place scores are for pod events: leave scores out."))
            sizes = range(game.min_players, game.max_players + 1)
            try:
                tables = parse_place_scores(config.scores, sizes)
            except ValueError as error:
                raise UserError(
                    t("{problem} For example: 4:6/4/2/0, 3:6/3/0.", problem=error.args[0])
                ) from None
            config = config.model_copy(update={"scores": place_scores_text(tables)})
        return config

    @classmethod
    def takes_late_entries(cls) -> bool:
        return cls.no_late_entry is None

    # --- its shape -------------------------------------------------------------------------
    @abstractmethod
    def rounds(self, players: int) -> int | None:
        """Rounds planned for a field of ``players`` (None: a bracket's, as it goes)."""

    @property
    def pod_size(self) -> int:
        """Players a table of 3–8 seats: the organiser's, else 4, within the game's."""
        game = self.game
        preferred = self.config.pod_size or min(4, game.max_players)
        return max(game.min_players, min(preferred, game.max_players))

    @property
    def least_at_table(self) -> int:
        """The fewest players a table seats (fewer left: byes, or the event is over)."""
        return 2

    @property
    def scoring(self) -> Scoring:
        """What a result is worth."""
        return MATCH_POINTS

    # --- standings -------------------------------------------------------------------------
    def standings(self, p: Progress) -> list[Standing]:
        """Standings from the stored results. A final table or a bracket decides the top:
        its finishing order goes first, the rest by their points."""
        if not p.players:
            return []
        # A final table or a cut's bracket decides the top; it scores no points.
        finals = {(t.round, t.table_no) for t in p.tables if t.bracket_id and self.config.top_cut}
        scored = [to_table_result(r) for r in p.results if (r.round, r.table_no) not in finals]
        base = self.points_standings(p, scored)
        top = self.decided_top(p)
        if not top:
            return base
        rest = [s for s in base if s.player not in top]
        by_player = {s.player: s for s in base}
        ordered = [by_player[q] for q in top] + rest
        return [
            Standing(i + 1, s.player, s.points, s.tiebreakers, s.dropped)
            for i, s in enumerate(ordered)
        ]

    def points_standings(self, p: Progress, scored: Sequence[TableResult]) -> list[Standing]:
        """Everyone by points and tiebreakers (two-player tables: MTR's OMW%, GW%, OGW%)."""
        return swiss_standings(
            p.players,
            scored,
            p.seed,
            max(p.round, 1),
            best_of=self.config.best_of,
            dropped=p.withdrawn,
        )

    def decided_top(self, p: Progress) -> list[Player]:
        """The order a final table or a finished bracket gives the top (none by default)."""
        return []

    def standing_notes(self, p: Progress) -> dict[Player, Text]:
        """What explains a player's place where points and tiebreakers do not (a group
        event's: the round reached and the place in its group); none by default."""
        return {}

    def waiting(self, p: Progress, number: int) -> list[Player]:
        """Players still in the event with neither a table nor a recorded bye in round
        ``number`` (a bracket's bye): told they wait, not merely that they have no table."""
        return []

    # --- rounds ----------------------------------------------------------------------------
    def pairs_by_rating(self, p: Progress, number: int) -> bool:
        """Whether round ``number`` is paired by the entrants' ratings, read as it starts."""
        return False

    @abstractmethod
    def pair(self, p: Progress, number: int) -> Pairing:
        """Round ``number``'s tables for the active entrants (``p.active``), in seat order,
        its byes and each table's bracket match; ``p.ratings`` when ``pairs_by_rating``."""

    def is_over(self, p: Progress) -> bool:
        """Every table of the round has a result: is the event over?"""
        return p.round >= (self.rounds(len(p.players)) or 0) or self.too_few_left(p)

    def too_few_left(self, p: Progress) -> bool:
        active = [e for e in p.entrants if e.state == "entered" and not e.forfeited]
        return len(active) < self.least_at_table

    # --- for players -----------------------------------------------------------------------
    def describe(self, signup: bool) -> list[tuple[str, str]]:
        """What the format means for a player, as (heading, text) lines: table sizes, who
        goes on, what places score. ``signup``: before the start."""
        return []

    # --- what brackets and cuts share ------------------------------------------------------
    def seed_draw(self, p: Progress, players: Sequence[Player]) -> dict[Player, int]:
        """Round 0's draw, which seeds a bracket: the lot, or in a rating-seeded event the
        ratings read at the start (``seed_ratings``), then the lot."""
        if self.config.seed_ratings is None:
            return lot(players, p.seed, 0)
        ratings = {q: self.config.seed_ratings.get(q, UNRATED) for q in players}
        return rated_lot(players, ratings, p.seed, 0)

    def new_bracket(self, seeds: Sequence[Player]) -> elim.Bracket:
        return elim.single_elimination(seeds)

    def bracket(
        self, p: Progress, players: Sequence[Player], seeds: Sequence[Player] | None = None
    ) -> tuple[elim.Bracket, elim.BracketState]:
        tree = self.tree(p, players, seeds)
        return tree.bracket, tree.state

    def tree(
        self, p: Progress, players: Sequence[Player], seeds: Sequence[Player] | None = None
    ) -> elim.Tree:
        """The bracket, where it stands, and the results of its played matches."""
        if seeds is None:
            # Seeds: a seeded shuffle of the field (the lot of round 0), so nobody's
            # sign-up order decides their side of the bracket; or by rating.
            drawn = self.seed_draw(p, players)
            seeds = sorted(players, key=drawn.__getitem__)
        bracket = self.new_bracket(seeds)
        by_table = {(t.round, t.table_no): t.bracket_id for t in p.tables if t.bracket_id}
        played = {
            by_table[(r.round, r.table_no)]: to_table_result(r)
            for r in p.results
            if (r.round, r.table_no) in by_table and r.kind == "table"
        }
        return elim.Tree(bracket, elim.progress(bracket, played), played)

    def drawn_bracket(self, p: Progress) -> elim.Tree | elim.PodRounds | GroupRounds | None:
        """What a bracket picture draws of the event (None: no bracket, or none yet)."""
        return None


class ScoreGroupRounds(Format):
    """Rounds paired within score groups (by the lot, or by rating in a rating-seeded
    event), then an optional cut once the planned rounds are played."""

    def in_cut(self, p: Progress, number: int) -> bool:
        """Round ``number`` comes after the planned rounds: the cut's."""
        return bool(self.config.top_cut) and number > (self.rounds(len(p.players)) or 1)

    def pairs_by_rating(self, p: Progress, number: int) -> bool:
        return self.config.seeding == "rating" and not self.in_cut(p, number)

    def pairing_order(self, p: Progress, number: int) -> list[Player]:
        """The active entrants by points, then the lot (or ratings) of this round."""
        return pairing_order(p.active, p.scored, self.scoring, p.seed, number, ratings=p.ratings)


def bracket_pairing(state: elim.BracketState) -> Pairing:
    """The bracket's matches ready to play, better seed first."""
    return Pairing("bracket", [q for _, q in state.ready], [], [m for m, _ in state.ready])


def bracket_order(bracket: elim.Bracket, state: elim.BracketState) -> list[Player]:
    """A finished bracket's order: the champion first, then by how far each got (the last
    match each one played); none before it is finished."""
    if not state.finished or state.champion is None:
        return []
    last: dict[int, int] = {}
    for index, match in enumerate(bracket.matches):
        for player in state.decided.get(match.id, (None, None)):
            if player is not None:
                last[player] = index
    return sorted(last, key=lambda q: (q != state.champion, -last[q]))


def fill_cut(order: Sequence[Player], size: int, excluded: set[Player]) -> list[Player]:
    """The top ``size`` of ``order`` skipping ``excluded``; those fill it only when the
    rest are too few. In ``order``."""
    chosen = cut(order, size, excluded)
    chosen += [q for q in order if q not in chosen][: size - len(chosen)]
    return sorted(chosen, key=list(order).index)


class MultiplayerFormat(Format):
    """Tables of 3–8 scored by place (the organiser's place scores, if set)."""

    two_player = False

    @property
    def scoring(self) -> Scoring:
        if self.config.scores is None:
            return POD_SCORES
        sizes = range(self.game.min_players, self.game.max_players + 1)
        return organiser_scores(parse_place_scores(self.config.scores, sizes), sizes)

    def points_standings(self, p: Progress, scored: Sequence[TableResult]) -> list[Standing]:
        """Everyone by place points, then their tiebreakers."""
        return pod_standings(
            p.players, scored, p.seed, max(p.round, 1), dropped=p.withdrawn, scoring=self.scoring
        )


def earlier_seats(p: Progress, number: int) -> list[tuple[int, list[Player]]]:
    """Each table before round ``number`` as (round, seats), for sharing seat 0 out."""
    return [(t.round, t.seats) for t in p.tables if t.round < number]
