"""Swiss: two a table, paired within score groups, no rematch a pairing can avoid; an
optional single-elimination bracket of the top 2, 4 or 8 after the Swiss rounds."""

from __future__ import annotations

from bot.errors import UserError
from bot.tournaments import elimination as elim
from bot.tournaments.formats.base import (
    ScoreGroupRounds,
    bracket_order,
    bracket_pairing,
    earlier_seats,
    fill_cut,
)
from bot.tournaments.progress import Pairing, Progress, to_table_result
from bot.tournaments.results import Player, had_bye, meetings
from bot.tournaments.scoring import MATCH_POINTS, total_points
from bot.tournaments.seating import seat_tables
from bot.tournaments.standings import swiss_standings
from bot.tournaments.swiss import pair_swiss, swiss_rounds
from games.core.text import t


class Swiss(ScoreGroupRounds):
    key = "swiss"
    label = t("Swiss (2 players a table)")
    short = t("Swiss")
    options = frozenset({"top_cut", "default_cut"})
    shows_rematches = True

    def rounds(self, players: int) -> int | None:
        if self.config.rounds is not None:
            return self.config.rounds
        return swiss_rounds(max(players, 2))

    def check(self) -> None:
        if self.config.top_cut and self.config.top_cut not in (2, 4, 8):
            raise UserError(t("A Swiss top cut is a bracket of the top 2, 4 or 8."))

    def pair(self, p: Progress, number: int) -> Pairing:
        if self.in_cut(p, number):
            _, state = self.bracket(p, p.players, self.cut_seeds(p))
            return bracket_pairing(state)
        points = total_points(p.active, p.scored, MATCH_POINTS)
        order = self.pairing_order(p, number)
        swiss = pair_swiss(order, points, meetings(p.scored), had_bye(p.scored))
        seated = seat_tables(swiss.tables, earlier_seats(p, number), p.seed, number)
        return Pairing.unbracketed("swiss", seated, [swiss.bye] if swiss.bye is not None else [])

    def cut_seeds(self, p: Progress) -> list[Player]:
        """The top cut, in seed order: the final Swiss standings (their lot fixed at the
        last Swiss round, so the seeds never move), skipping bots and players gone before
        the cut; the best bots fill it only when people are short."""
        config = self.config
        rounds = config.rounds or 1
        swiss = [to_table_result(r) for r in p.results if r.round <= rounds]
        gone = {
            e.entrant
            for e in p.entrants
            if e.state in ("dropped", "disqualified") and (e.dropped_round or 0) <= rounds
        }
        # Only bots fill the places people leave: a player gone before the cut never
        # takes a seat in it (their table would be a walkover).
        order = [
            s.player
            for s in swiss_standings(p.players, swiss, p.seed, rounds, best_of=config.best_of)
        ]
        seeds = fill_cut([q for q in order if q not in gone], config.top_cut, p.bots)
        if len(seeds) < 2:  # a bracket needs two: the last one in wins by walkover
            seeds = fill_cut(order, config.top_cut, p.bots | gone)
        return seeds

    def decided_top(self, p: Progress) -> list[Player]:
        tree = None if p.status == "signup" or len(p.players) < 2 else self.drawn_bracket(p)
        return [] if tree is None else bracket_order(tree.bracket, tree.state)

    def drawn_bracket(self, p: Progress) -> elim.Tree | None:
        """The top cut's bracket, once it is paired."""
        if not self.config.top_cut or not any(t.bracket_id for t in p.tables):
            return None
        return self.tree(p, p.players, self.cut_seeds(p))

    def is_over(self, p: Progress) -> bool:
        rounds = self.rounds(len(p.players)) or 0
        if self.config.top_cut and p.round > rounds:
            _, state = self.bracket(p, p.players, self.cut_seeds(p))
            return state.finished
        if self.config.top_cut and p.round == rounds:
            return False  # the cut's bracket comes next
        return super().is_over(p)

    def describe(self, signup: bool) -> list[tuple[str, str]]:
        if self.config.default_cut and signup:
            return [(t("Top cut"), t("a bracket of the top 4 from 9 players, the top 8 from 17"))]
        if self.config.top_cut:
            return [(t("Top cut"), t("a bracket of the top {n}", n=self.config.top_cut))]
        return []
