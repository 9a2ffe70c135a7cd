"""Single and double elimination: two a table, a bracket seeded by lot (or by rating) at
the start, played until it has a champion."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from bot.tournaments import elimination as elim
from bot.tournaments.formats.base import Format, bracket_order, bracket_pairing
from bot.tournaments.progress import Pairing, Progress
from bot.tournaments.results import Player
from games.core.text import t


class SingleElimination(Format):
    key = "single_elimination"
    label = short = t("Single elimination")
    no_late_entry = t("An elimination bracket takes no late entries.")
    seeded_at_start = True
    lives = 1  # the table losses that put a player out of the bracket

    def rounds(self, players: int) -> int | None:
        return None

    def waiting(self, p: Progress, number: int) -> list[Player]:
        # A bye in the bracket is no result: whoever is still in and not seated waits
        # for an opponent to come through.
        seated = {q for t in p.tables if t.round == number for q in t.seats}
        lost = Counter(q for r in p.scored for q in r.players if q != elim.table_winner(r))
        return [q for q in p.active if q not in seated and lost[q] < self.lives]

    def pair(self, p: Progress, number: int) -> Pairing:
        _, state = self.bracket(p, p.players)
        return bracket_pairing(state)

    def decided_top(self, p: Progress) -> list[Player]:
        tree = self.drawn_bracket(p)
        return [] if tree is None else bracket_order(tree.bracket, tree.state)

    def is_over(self, p: Progress) -> bool:
        _, state = self.bracket(p, p.players)
        return state.finished

    def drawn_bracket(self, p: Progress) -> elim.Tree | None:
        if p.status == "signup" or len(p.players) < 2:
            return None
        return self.tree(p, p.players)


class DoubleElimination(SingleElimination):
    key = "double_elimination"
    label = short = t("Double elimination")
    lives = 2
    options = frozenset({"reset"})

    def new_bracket(self, seeds: Sequence[Player]) -> elim.Bracket:
        return elim.double_elimination(seeds, reset=self.config.reset)

    def describe(self, signup: bool) -> list[tuple[str, str]]:
        if self.config.reset:
            return [
                (
                    t("Grand final"),
                    t("replayed once if the player from the losers' bracket wins it"),
                )
            ]
        return [(t("Grand final"), t("one match, no reset"))]
