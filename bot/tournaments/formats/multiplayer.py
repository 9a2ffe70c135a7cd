"""Multiplayer elimination: tables of 3–8, the top of each go on (seeds snaked across the
tables) until one final table decides the winner."""

from __future__ import annotations

from bot.errors import UserError
from bot.tournaments import elimination as elim
from bot.tournaments.formats.base import MultiplayerFormat
from bot.tournaments.progress import Pairing, Progress, to_table_result
from bot.tournaments.results import Player
from games.core.text import t


class MultiplayerElimination(MultiplayerFormat):
    key = "multiplayer_elimination"
    label = t("Multiplayer elimination (3–8 a table, the top go on)")
    short = t("Multiplayer elimination")
    options = frozenset({"advance"})
    no_late_entry = t("An elimination bracket takes no late entries.")
    seeded_at_start = True
    bye = "pass"

    def rounds(self, players: int) -> int | None:
        return None

    @property
    def least_at_table(self) -> int:
        return max(self.game.min_players, 2)

    @property
    def advance(self) -> int:
        """How many of each table go on."""
        return self.config.advance or elim.advance_count(self.pod_size)

    def check(self) -> None:
        if self.config.advance is not None and self.config.advance >= self.pod_size:
            size = self.pod_size
            raise UserError(
                t(
                    "Fewer than a whole table must go on: with tables of {size}, advance 1 "
                    "to {most}.",
                    size=size,
                    most=size - 1,
                )
            )

    def run(self, p: Progress, upto: int | None = None) -> elim.MultiplayerRun:
        """Replay the event from its stored tables, up to round ``upto`` (default: the
        current one)."""
        pods = self.pod_rounds(p, upto)
        return elim.multiplayer_run(pods.seeds, pods.rounds, pods.advance, set(p.withdrawn))

    def pod_rounds(self, p: Progress, upto: int | None = None) -> elim.PodRounds:
        """Round 1's field in the lot of round 0, then each round's tables, results and
        byes, up to round ``upto`` (default: the current one)."""
        decided = {(r.round, r.table_no): to_table_result(r) for r in p.results}
        played = []
        for number in range(1, (p.round if upto is None else upto) + 1):
            seated = sorted((t for t in p.tables if t.round == number), key=lambda t: t.table_no)
            byes = sorted(
                (r for r in p.results if r.round == number and r.kind == "bye"),
                key=lambda r: r.table_no,
            )
            played.append(
                elim.PlayedRound(
                    tables=tuple(tuple(t.seats) for t in seated),
                    results=tuple(decided.get((t.round, t.table_no)) for t in seated),
                    byes=tuple(r.players[0] for r in byes),
                    final=any(t.bracket_id == "final" for t in seated),
                )
            )
        first = [q for t in played[0].tables for q in t] + list(played[0].byes) if played else []
        drawn = self.seed_draw(p, sorted(first))
        seeds = tuple(sorted(first, key=drawn.__getitem__))
        return elim.PodRounds(seeds, tuple(played), self.advance)

    def drawn_bracket(self, p: Progress) -> elim.PodRounds | None:
        return self.pod_rounds(p) if p.status != "signup" and p.round else None

    def pair(self, p: Progress, number: int) -> Pairing:
        """The field drawn by lot in round 1, then who went on, tables snaked by seed
        (seed 1 in seat 0), the last a final."""
        if number == 1:
            drawn = self.seed_draw(p, sorted(p.active))
            seeds = sorted(p.active, key=drawn.__getitem__)
        else:
            # Up to the round before: a re-paired round replays without its old tables.
            entered = set(p.active)
            seeds = [q for q in self.run(p, number - 1).going_on or () if q in entered]
        paired = elim.multiplayer_round(
            seeds,
            preferred=self.pod_size,
            minimum=self.game.min_players,
            maximum=self.game.max_players,
            advance=self.advance,
        )
        brackets: list[str | None] = ["final" if paired.final else None] * len(paired.tables)
        stage = "final" if paired.final else "elimination"
        return Pairing(stage, list(paired.tables), list(paired.byes), brackets)

    def decided_top(self, p: Progress) -> list[Player]:
        if p.status == "signup":
            return []
        return list(self.run(p).order)

    def is_over(self, p: Progress) -> bool:
        if any(t.bracket_id == "final" for t in p.tables):
            return True
        # Over when too few go on to seat a table: the top seed left wins.
        entered = {e.entrant for e in p.entrants if e.state == "entered" and not e.forfeited}
        going = [q for q in self.run(p).going_on or () if q in entered]
        return len(going) < max(self.game.min_players, 2)

    def describe(self, signup: bool) -> list[tuple[str, str]]:
        return [
            (
                t("Tables of"),
                t(
                    "{size} players; the top {advance} of each go on, seeds snaked across "
                    "the tables, until one final table",
                    size=self.pod_size,
                    advance=self.advance,
                ),
            )
        ]
