"""Rigged brackets and standings for the tournament picture tests (and for looking at the
pictures: ``python -m tests.bot.tournament_rigs DIR`` writes every kind)."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

from bot.tournaments import elimination as elim
from bot.tournaments.results import Player, TableResult, had_bye, meetings
from bot.tournaments.standings import swiss_standings
from bot.tournaments.swiss import pair_swiss

FIRST = ["Ana", "Ben", "Cleo", "Dev", "Eve", "Finn", "Gus", "Hana", "Ivo", "Jun", "Kai", "Lou"]
LONG = "Bartholomew the Magnificent Cookie Baker of the Northern Shore"


def names(count: int, *, long: bool = False) -> dict[Player, str]:
    """Players 1..count: short names, a bot's, and (``long``) a name far too long."""
    out = {
        p: f"{FIRST[(p - 1) % len(FIRST)]}{'' if p <= len(FIRST) else p}"
        for p in range(1, count + 1)
    }
    out[min(3, count)] = "🤖 Abe"
    if long:
        out[2] = LONG + " 🍪✨"
    return out


Judge = Callable[[str, tuple[Player, Player]], Player]


def better_seed(match_id: str, pair: tuple[Player, Player]) -> Player:
    return pair[0]  # the ready pair comes better seed first


def played_tree(
    bracket: elim.Bracket,
    matches: int,
    judge: Judge = better_seed,
    best_of: int = 1,
) -> elim.Tree:
    """The bracket after ``matches`` of its ready matches are decided, in order."""
    results: dict[str, TableResult] = {}
    for _ in range(matches):
        state = elim.progress(bracket, results)
        if not state.ready:
            break
        match_id, pair = state.ready[0]
        winner = judge(match_id, pair)
        loser = pair[1] if winner == pair[0] else pair[0]
        extra = {"game_wins": (2, 1) if best_of > 1 else None}
        results[match_id] = TableResult.ranked(1, [winner], [loser], **extra)
    return elim.Tree(bracket, elim.progress(bracket, results), results)


def single(count: int, matches: int, **kwargs: object) -> elim.Tree:
    return played_tree(elim.single_elimination(range(1, count + 1)), matches, **kwargs)  # type: ignore[arg-type]


def double(count: int, matches: int, **kwargs: object) -> elim.Tree:
    return played_tree(elim.double_elimination(range(1, count + 1)), matches, **kwargs)  # type: ignore[arg-type]


def upsets(match_id: str, pair: tuple[Player, Player]) -> Player:
    """The worse seed wins every third match: the losers' bracket fills unevenly."""
    return pair[1] if sum(map(ord, match_id)) % 3 == 0 else pair[0]


def pods(
    count: int, *, size: int = 4, advance: int = 2, decided_rounds: int = 1, decide_next: int = 1
) -> elim.PodRounds:
    """A multiplayer elimination of ``count``: ``decided_rounds`` rounds played in full,
    then ``decide_next`` tables of the next round decided. Tables finish in reverse seat
    order (the last seat wins), with the first seat forfeiting at table 2."""
    seeds = list(range(1, count + 1))
    field, rounds = seeds, []
    for number in range(1, decided_rounds + 2):
        paired = elim.multiplayer_round(
            field, preferred=size, minimum=2, maximum=8, advance=advance
        )
        full = number <= decided_rounds
        results: list[TableResult | None] = []
        for index, table in enumerate(paired.tables):
            if not full and index >= decide_next:
                results.append(None)
                continue
            gone = frozenset({table[0]}) if index == 1 and not paired.final else frozenset()
            order = [p for p in reversed(table) if p not in gone] + sorted(gone)
            results.append(TableResult.ranked(number, *([p] for p in order), gone=gone))
        rounds.append(elim.PlayedRound(paired.tables, tuple(results), paired.byes, paired.final))
        if not full or paired.final:
            break
        decided = [r for r in results if r is not None]
        field = elim.next_seeds(decided, advance, field, paired.byes)
    return elim.PodRounds(tuple(seeds), tuple(rounds), advance)


def swiss(count: int, rounds: int) -> list:
    """Swiss standings after ``rounds`` rounds where the lower number wins every table."""
    results: list[TableResult] = []
    players = list(range(1, count + 1))
    for number in range(1, rounds + 1):
        points = {p: Fraction(0) for p in players}
        for r in results:
            for p, place in zip(r.players, r.places, strict=True):
                points[p] += 3 if place == 1 else 0
        order = sorted(players, key=lambda p: (-points[p], p))
        paired = pair_swiss(order, points, meetings(results), had_bye(results))
        for a, b in paired.tables:
            results.append(TableResult.ranked(number, [min(a, b)], [max(a, b)]))
        if paired.bye is not None:
            results.append(TableResult.bye(number, paired.bye))
    return swiss_standings(players, results, 7, rounds, dropped=[count])


if __name__ == "__main__":
    from bot.tournaments.pictures import bracket_picture, standings_picture
    from games.core.pictures import on_background

    folder = Path(sys.argv[1])
    folder.mkdir(parents=True, exist_ok=True)
    cases: dict[str, tuple[object, dict[Player, str]]] = {
        "single-8": (single(8, 5), names(8, long=True)),
        "single-16": (single(16, 9), names(16)),
        "single-33": (single(33, 20), names(33, long=True)),
        "single-64": (single(64, 40), names(64, long=True)),
        "single-5-byes": (single(5, 1), names(5)),
        "single-8-done-bo3": (single(8, 7, best_of=3), names(8)),
        "double-8": (double(8, 9, judge=upsets), names(8, long=True)),
        "double-16": (double(16, 20, judge=upsets), names(16)),
        "double-33": (double(33, 50, judge=upsets), names(33)),
        "double-64": (double(64, 100, judge=upsets), names(64)),
        "double-6-done": (double(6, 40, judge=upsets), names(6)),
        "pods-16": (pods(16), names(16, long=True)),
        "pods-33": (pods(33, decided_rounds=2), names(33)),
        "pods-64": (pods(64, decided_rounds=2, decide_next=3), names(64)),
        "pods-done": (pods(12, size=4, decided_rounds=3), names(12)),
    }
    for key, (drawn, who) in cases.items():
        start = time.perf_counter()
        png = bracket_picture(drawn, who, f"Cover Your Assets · {key}", "Round 2 is being played")  # type: ignore[arg-type]
        took = (time.perf_counter() - start) * 1000
        (folder / f"{key}.png").write_bytes(png)
        on_background(png, (0x31, 0x33, 0x38)).save(folder / f"{key}-dark.png")
        on_background(png, (255, 255, 255)).save(folder / f"{key}-light.png")
        print(f"{key}: {took:.0f} ms, {len(png) // 1024} KB")
    for count in (8, 33, 64):
        start = time.perf_counter()
        png = standings_picture(
            swiss(count, 4), names(count, long=True), "Standings after round 4", "Swiss · 4 rounds"
        )
        took = (time.perf_counter() - start) * 1000
        (folder / f"standings-{count}.png").write_bytes(png)
        on_background(png, (255, 255, 255)).save(folder / f"standings-{count}-light.png")
        print(f"standings-{count}: {took:.0f} ms, {len(png) // 1024} KB")
