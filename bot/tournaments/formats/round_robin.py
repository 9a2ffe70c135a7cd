"""Round robins: two a table, everyone meets everyone once (or twice), up to 16 players,
on a schedule fixed at the start by the circle method."""

from __future__ import annotations

from collections.abc import Sequence

from bot.errors import UserError
from bot.tournaments.formats.base import Format
from bot.tournaments.lots import lot
from bot.tournaments.progress import Pairing, Progress
from bot.tournaments.results import Player, TableResult
from bot.tournaments.round_robin import MAX_PLAYERS, effective_results, round_robin_rounds, schedule
from bot.tournaments.scoring import MatchPoints, Scoring
from bot.tournaments.standings import Standing, round_robin_standings
from games.core.text import t

# A round robin's rest round scores nothing: everyone has one in an odd field, and a bye
# worth a win would count for the leaver's opponents when a drop voids a result.
ROUND_ROBIN_POINTS = MatchPoints(bye=0)


class RoundRobin(Format):
    key = "round_robin"
    label = t("Round robin (2 a table, up to 16: everyone meets once)")
    short = t("Round robin")
    most_players = MAX_PLAYERS
    no_late_entry = t("A round robin's schedule is fixed at the start: no late entries.")
    bye = "rest"
    double = False  # everyone meets twice

    def check_game(self) -> None:
        game = self.game
        if game.min_players > 2:
            raise UserError(
                t(
                    "A round robin is for two-player tables and {game} needs {n} or more: "
                    "pick the pods format or multiplayer elimination.",
                    game=game.name,
                    n=game.min_players,
                )
            )
        if self.config.seeding == "rating":
            raise UserError(
                t(
                    "In a round robin everyone meets everyone, so seeding by rating changes "
                    "nothing: leave seeding at lot."
                )
            )

    def check(self) -> None:
        if self.config.max_players > MAX_PLAYERS:
            raise UserError(
                t(
                    "A round robin takes at most {most} players: set max_players to {most} "
                    "or fewer.",
                    most=MAX_PLAYERS,
                )
            )
        if self.config.rounds is not None:
            raise UserError(t("A round robin plays every pairing: leave rounds out."))

    def rounds(self, players: int) -> int | None:
        if self.config.rounds is not None:
            return self.config.rounds
        return round_robin_rounds(max(players, 2), double=self.double)

    @property
    def scoring(self) -> Scoring:
        return ROUND_ROBIN_POINTS

    def order(self, p: Progress, field: Sequence[Player] = ()) -> list[Player]:
        """The schedule's players as the circle method takes them: everyone round 1 seated
        (or rested), drawn by the event's lot, so a later drop never reshuffles the
        schedule. Before round 1 is paired: ``field``, the players about to be."""
        first = {q for t in p.tables if t.round == 1 for q in t.seats}
        first |= {q for r in p.results if r.round == 1 and r.kind == "bye" for q in r.players}
        first = first or set(field)
        drawn = lot(sorted(first), p.seed, 0)
        return sorted(first, key=drawn.__getitem__)

    def pair(self, p: Progress, number: int) -> Pairing:
        rotation = schedule(self.order(p, p.active), double=self.double)[number - 1]
        entered = set(p.active)
        # A table with a player who left is not played: the standings count it as their
        # forfeit, or void it (``effective_results``).
        seated = [t for t in rotation if len(t) == 2 and entered.issuperset(t)]
        rest = [t[0] for t in rotation if len(t) == 1 and t[0] in entered]
        return Pairing.unbracketed("round_robin", seated, rest)

    def points_standings(self, p: Progress, scored: Sequence[TableResult]) -> list[Standing]:
        """Points, head to head, Sonneborn–Berger, lot, over the results a drop leaves:
        before half of one's games every result with the leaver is void, later their
        remaining tables are forfeits (counted as their rounds come)."""
        order = self.order(p)
        results = p.scored
        if order:
            rounds = schedule(order, double=self.double)
            left = {
                e.entrant: e.dropped_round or 0
                for e in p.entrants
                if e.entrant in order and e.state in ("dropped", "disqualified")
            }
            results = [r for r in effective_results(rounds, results, left) if r.round <= p.round]
        return round_robin_standings(
            p.players,
            results,
            p.seed,
            max(p.round, 1),
            dropped=p.withdrawn,
            scoring=ROUND_ROBIN_POINTS,
        )

    def describe(self, signup: bool) -> list[tuple[str, str]]:
        if self.double:
            plan = t(
                "everyone plays everyone twice; up to {most} players. Ties: head to head, "
                "then Sonneborn–Berger",
                most=MAX_PLAYERS,
            )
        else:
            plan = t(
                "everyone plays everyone once; up to {most} players. Ties: head to head, "
                "then Sonneborn–Berger",
                most=MAX_PLAYERS,
            )
        return [(t("Round robin"), plan)]


class DoubleRoundRobin(RoundRobin):
    key = "double_round_robin"
    label = t("Double round robin (2 a table, up to 16: everyone meets twice)")
    short = t("Double round robin")
    double = True
