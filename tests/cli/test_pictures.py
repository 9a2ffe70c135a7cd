"""``--pictures DIR``: play and replay write each state's pictures for games that draw them."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Protocol, runtime_checkable

import pytest
from rich.console import Console

from games import GAMES
from games.cli.main import main
from games.core.protocol import Picturing
from games.core.replay import load_export
from tests.cli.scripted import dry_run


def test_play_writes_the_table_and_only_the_persons_hand_then_replay_writes_every_hand(
    tmp_path: Path,
) -> None:
    live, saved = tmp_path / "live", tmp_path / "match.json"
    args = ["play", "braverse", "--players", "2", "--seed", "3", "--pause", "0"]
    code, _, _ = dry_run([*args, "--pictures", str(live), "--save", str(saved)])
    assert code == 0
    moves = len(load_export(saved.read_text(encoding="utf-8")).actions)
    tables = sorted(live.glob("*-table.png"))
    assert len(tables) == moves + 1  # the deal, then one per move
    assert tables[0].read_bytes().startswith(b"\x89PNG")
    hands = {p.name.split("-", 2)[2] for p in live.glob("*-hand-*.png")}
    assert hands == {"1-Player.png"}  # the bot's hand stays a secret
    again = tmp_path / "again"
    out = io.StringIO()
    code = main(
        ["replay", str(saved), "--pictures", str(again)],
        console=Console(file=out, width=100),
        ask=lambda _: "q",
    )
    assert code == 0 and f"Wrote the pictures of {moves + 1} states" in out.getvalue()
    assert [p.read_bytes() for p in sorted(again.glob("*-table.png"))] == [
        p.read_bytes() for p in tables
    ]
    assert len(list(again.glob("*-hand-2-*.png"))) == moves + 1


@runtime_checkable
class DrawsNothingYet(Protocol):
    """What no game has: every game draws pictures now, so a game that does not is played
    by making the terminal's check ask for this instead."""

    def a_picture_nobody_draws(self) -> bytes: ...


def test_a_game_without_pictures_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert all(isinstance(game, Picturing) for game in GAMES.values())
    monkeypatch.setattr("games.cli.main.Picturing", DrawsNothingYet)
    code, screen, _ = dry_run(["play", "cookie_chomper", "--pictures", str(tmp_path)])
    assert code == 2 and "has no pictures yet" in screen
    assert not tmp_path.exists() or not any(tmp_path.iterdir())
