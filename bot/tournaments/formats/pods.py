"""Pod Swiss: tables of 3–8 scored by place, paired within score groups with the fewest
repeat meetings; an optional final table of the top N, or the top 16 in four semi-final
tables whose winners meet at a final table."""

from __future__ import annotations

from itertools import count

from bot.errors import UserError
from bot.tournaments import elimination as elim
from bot.tournaments.formats.base import (
    MultiplayerFormat,
    ScoreGroupRounds,
    earlier_seats,
    fill_cut,
)
from bot.tournaments.pods import pair_pods, pod_rounds
from bot.tournaments.progress import Pairing, Progress, to_table_result
from bot.tournaments.results import Player, had_bye, meetings
from bot.tournaments.scoring import total_points
from bot.tournaments.seating import seat_tables
from bot.tournaments.top_cut import semi_final_tables
from games.core.text import joined, t

# Pods are for tables of 3 to 8: a game that two can play still seats three at least.
POD_LEAST = 3
SEMI_FINAL_CUT = 16  # four snaked semi-final tables of four, then a final table


class Pods(ScoreGroupRounds, MultiplayerFormat):
    key = "pods"
    label = t("Pod Swiss (3–8 players a table)")
    short = t("Pod Swiss")
    options = frozenset({"top_cut", "larger_tables", "scores"})

    def rounds(self, players: int) -> int | None:
        if self.config.rounds is not None:
            return self.config.rounds
        return pod_rounds(max(players, 2), self.pod_size)

    @property
    def least_at_table(self) -> int:
        return max(POD_LEAST, self.game.min_players)

    def check(self) -> None:
        game, cut = self.game, self.config.top_cut
        if cut == SEMI_FINAL_CUT:
            if not game.min_players <= 4 <= game.max_players:
                raise UserError(
                    t(
                        "A cut of 16 plays four semi-final tables of four, and {game} seats "
                        "{least} to {most}.",
                        game=game.name,
                        least=game.min_players,
                        most=game.max_players,
                    )
                )
        elif cut and not self.least_at_table <= cut <= game.max_players:
            raise UserError(
                t(
                    "A final table of {game} seats {least} to {most} (or cut 16 for four "
                    "semi-final tables, then a final).",
                    game=game.name,
                    least=self.least_at_table,
                    most=game.max_players,
                )
            )

    def pair(self, p: Progress, number: int) -> Pairing:
        rounds = self.rounds(len(p.players)) or 1
        if self.config.top_cut == SEMI_FINAL_CUT and number > rounds:
            return self.semi_finals(p, number - rounds)
        if self.config.top_cut and number > rounds:
            order = [s.player for s in self.standings(p) if s.player in p.active]
            # Too few people for the final table: the best bots fill it (an event of bots
            # still has its final), every finalist in standings order.
            finalists = fill_cut(order, self.config.top_cut, p.bots)
            return Pairing("final", [tuple(finalists)], [], ["final"])
        pods = pair_pods(
            self.pairing_order(p, number),
            total_points(p.active, p.scored, self.scoring),
            meetings(p.scored),
            had_bye(p.scored),
            preferred=self.pod_size,
            minimum=self.least_at_table,
            maximum=self.game.max_players,
            larger=self.config.larger_tables,
        )
        seated = seat_tables(pods.tables, earlier_seats(p, number), p.seed, number)
        return Pairing.unbracketed("pods", seated, list(pods.byes))

    def semi_finals(self, p: Progress, stage: int) -> Pairing:
        """Cut to 16: four snaked semi-final tables (seed 1 in seat 0 of table 1), then the
        tables' winners at a final table in seed order. Fewer than 16 left after the
        rounds: the top four go straight to a final table."""
        if stage == 1:
            order = [s.player for s in self.standings(p) if s.player in p.active]
            if len(order) < SEMI_FINAL_CUT:
                return Pairing("final", [tuple(fill_cut(order, 4, p.bots))], [], ["final"])
            semis = semi_final_tables(fill_cut(order, SEMI_FINAL_CUT, p.bots))
            return Pairing(
                "semi-finals", semis, [], [f"semi-{i}" for i in range(1, len(semis) + 1)]
            )
        entered = set(p.active)
        ranked = [r for r in self.semi_final_order(p) if r[1] in entered]
        winners = [player for place, player, _ in ranked if place == 0]
        # A semi-final whose winner forfeited or left sends nobody; if that leaves fewer
        # than the game needs, the best of the rest fill the final table.
        others = [player for place, player, _ in ranked if place > 0]
        finalists = winners + others[: max(0, self.game.min_players - len(winners))]
        seed = {player: s for _, player, s in ranked}
        return Pairing("final", [tuple(sorted(finalists, key=seed.__getitem__))], [], ["final"])

    @staticmethod
    def semi_final_order(p: Progress) -> list[tuple[int, int, int]]:
        """Each semi-finalist still standing as (0 for a table's winner else their place,
        player, cut seed), best first; a forfeited seat is left out."""
        # Seed of each seat: the snake of seeds 1–16 over the four tables.
        seeds_at = semi_final_tables(list(range(1, SEMI_FINAL_CUT + 1)))
        decided = {(r.round, r.table_no): to_table_result(r) for r in p.results}
        ranked = []
        for table in p.tables:
            if not (table.bracket_id or "").startswith("semi-"):
                continue
            result = decided.get((table.round, table.table_no))
            if result is None:
                continue
            winner = elim.table_winner(result)
            for seat, player in enumerate(table.seats):
                if player in result.gone:
                    continue
                place = 0 if player == winner else result.place_of(player)
                ranked.append((place, player, seeds_at[table.table_no - 1][seat]))
        return sorted(ranked, key=lambda entry: (entry[0], entry[2]))

    def semi_finalists_out(self, p: Progress, top: list[Player]) -> list[Player]:
        """Below the final table: the semi-finalists who did not reach it, by their place
        at their semi-final, then by seed."""
        semi = [
            q
            for t in p.tables
            if (t.bracket_id or "").startswith("semi-")
            for q in t.seats
            if q not in top
        ]
        standing = [player for _, player, _ in self.semi_final_order(p)]
        return [q for q in standing if q not in top] + [
            q for q in semi if q not in top and q not in standing
        ]

    def decided_top(self, p: Progress) -> list[Player]:
        """The final table's finishing order, then the semi-finalists who missed it."""
        final = next((t for t in p.tables if t.bracket_id == "final"), None)
        if final is None:
            return []
        result = p.result_at(final.round, final.table_no)
        if result is None:
            return []
        # Seats tied go in seat order: the better seed sits first.
        top = [q for _, _, q in sorted(zip(result.places, count(), result.players))]
        return top + self.semi_finalists_out(p, top)

    def is_over(self, p: Progress) -> bool:
        if any(t.bracket_id == "final" for t in p.tables):
            return True
        rounds = self.rounds(len(p.players)) or 0
        if self.config.top_cut == SEMI_FINAL_CUT and p.round == rounds + 1:
            return False  # the semi-finals are done: the final table comes next
        if self.config.top_cut and p.round == rounds:
            return False  # the final table comes next
        return super().is_over(p)

    def describe(self, signup: bool) -> list[tuple[str, str]]:
        config, size = self.config, self.pod_size
        if config.larger_tables:
            seated = t(
                "{size} players, or {bigger} where the field does not divide",
                size=size,
                bigger=size + 1,
            )
        else:
            seated = t("{size} players", size=size)
        lines = [(t("Tables of"), seated)]
        if config.scores:
            tables = joined(
                (
                    t("{seats} seats {scores}", seats=seats, scores=scores)
                    for seats, scores in (part.split(":") for part in config.scores.split(", "))
                ),
                " · ",
            )
            lines.append(
                (t("Place scores"), t("{tables} (other sizes: 6 down to 0 evenly)", tables=tables))
            )
        if config.top_cut == SEMI_FINAL_CUT:
            lines.append(
                (
                    t("Top cut"),
                    t(
                        "the top 16 in four semi-final tables (seeds snaked), their winners "
                        "at a final table"
                    ),
                )
            )
        elif config.top_cut:
            lines.append((t("Final table"), t("the top {n}", n=config.top_cut)))
        return lines
