"""The simulator reports for every game, and its determinism check can fail."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from rich.console import Console

from games import GAMES
from games.cli.main import main
from games.cli.simulate import Job, play_one, replays_identically, seat_kinds, wilson
from games.core.protocol import Searching
from tests.cli.test_play import players_for


@pytest.mark.parametrize("key", sorted(GAMES))
def test_simulate_reports_every_game(key: str, tmp_path: Path) -> None:
    out, rows = io.StringIO(), tmp_path / "rows.csv"
    players = players_for(key)
    code = main(
        [
            "simulate",
            key,
            "--games",
            "6",
            "--players",
            str(players),
            "--bots",
            "mix",
            "--check",
            "3",
            "--csv",
            str(rows),
        ],
        console=Console(file=out, width=120),
    )
    text = out.getvalue()
    assert code == 0, text
    assert f"{GAMES[key].name}: 6 games, {players} players, 6 finished" in text
    assert "Win share by seat (95% CI)" in text and "Game length" in text
    assert "moves/s per process" in text
    assert "Determinism: 3/3 sampled games replayed to the same state, byte for byte: ok" in text
    table = list(csv.DictReader(rows.open(encoding="utf-8")))
    assert [int(r["game"]) for r in table] == list(range(6))
    assert all(r["winners"] and int(r["moves"]) > 0 for r in table)
    # mix rotates the kinds: game 0 starts with a heuristic seat, game 1 with a random one.
    assert table[0]["kinds"].split()[0] == "heuristic" and table[1]["kinds"].split()[0] == "random"


def test_jobs_spread_games_over_processes_with_the_same_results(tmp_path: Path) -> None:
    one, two = tmp_path / "one.csv", tmp_path / "two.csv"
    for jobs, path in (("1", one), ("2", two)):
        code = main(
            ["simulate", "cookie_chomper", "--games", "8", "--jobs", jobs, "--csv", str(path)],
            console=Console(file=io.StringIO()),
        )
        assert code == 0

    def columns(path: Path) -> list[tuple[str, ...]]:
        return [
            (r["seed"], r["places"], r["scores"], r["moves"])
            for r in csv.DictReader(path.open(encoding="utf-8"))
        ]

    assert columns(one) == columns(two)


def test_the_determinism_check_catches_a_different_ending() -> None:
    job = Job(0, "toss_your_cookies", {}, ("heuristic",) * 3, seed=9, keep_actions=True)
    result = play_one(job)
    assert replays_identically(GAMES["toss_your_cookies"], job, result)
    result.actions = result.actions[:-1]  # the log lost its last move
    assert not replays_identically(GAMES["toss_your_cookies"], job, result)


def test_win_shares_carry_a_wilson_interval() -> None:
    low, high = wilson(25, 100)
    assert round(low, 3) == 0.175 and round(high, 3) == 0.343
    assert wilson(0, 10)[0] == 0.0


def test_bot_kinds_per_seat() -> None:
    assert seat_kinds("random,heuristic,random", 3, 0) == ("random", "heuristic", "random")
    with pytest.raises(ValueError, match="--bots takes"):
        seat_kinds("genius", 3, 0)
    out = io.StringIO()
    assert main(["simulate", "cookie_chomper", "--bots", "smart"], console=Console(file=out)) == 2
    assert "--bots takes heuristic, random, search, mix" in out.getvalue()


def test_a_search_bot_seat_plays_reproducibly(tmp_path: Path) -> None:
    runs = []
    for name in ("one.csv", "two.csv"):
        out, rows = io.StringIO(), tmp_path / name
        argv = ["simulate", "braverse", "--games", "1", "--bots", "search,heuristic"]
        argv += ["--search-worlds", "1", "--check", "1", "--csv", str(rows)]
        assert main(argv, console=Console(file=out, width=120)) == 0, out.getvalue()
        assert "Determinism: 1/1" in out.getvalue()
        table = list(csv.DictReader(rows.open(encoding="utf-8")))
        assert [r["kinds"] for r in table] == ["search heuristic"]
        runs.append([(r["places"], r["moves"]) for r in table])
    assert runs[0] == runs[1]  # a number of worlds, not a clock: the same games again
    # since issue 30 every game has the generic search, so no game refuses the kind
    assert all(isinstance(game, Searching) for game in GAMES.values())
