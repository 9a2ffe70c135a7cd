"""An exported match stepped in the terminal, every frame recomputed from seed and log."""

from __future__ import annotations

import io
from pathlib import Path

from rich.console import Console

from games import GAMES
from games.cli.main import main
from games.core.replay import MatchExport, final_state, jump, load_export, replay
from tests.cli.scripted import dry_run


def saved_match(tmp_path: Path, key: str, *extra: str) -> Path:
    path = tmp_path / f"{key}.json"
    code, _, _ = dry_run(
        [
            "play",
            key,
            "--players",
            "4",
            "--bots",
            "4",
            "--seed",
            "5",
            "--pause",
            "0",
            "--save",
            str(path),
            *extra,
        ]
    )
    assert code == 0
    return path


def test_stepping_to_the_last_move_shows_the_final_table(tmp_path: Path) -> None:
    path = saved_match(tmp_path, "cover_your_assets", "--option", "end_mode=quick")
    export = load_export(path.read_text(encoding="utf-8"))
    last = len(export.actions)
    typed = iter(["", "n", "p", "h", str(last), "n", "zz", "q"])
    out = io.StringIO()
    code = main(
        ["replay", str(path)], console=Console(file=out, width=100), ask=lambda _: next(typed)
    )
    text = out.getvalue()
    assert code == 0
    assert "The deal · move 0 of" in text
    assert "Move 1 of" in text and "Move 2 of" in text
    assert "🃏 Abe's hand" in text  # h: every hand, the match is over
    assert f"Move {last} of {last}" in text
    assert "That was the last move" in text and "'zz' is not a key here" in text
    game = GAMES["cover_your_assets"]
    final = final_state(game, export)
    assert game.outcome(final) is not None
    assert "Game over" in game.panels(game.view(final, None)).table.as_text()


def test_a_round_jump_lands_on_the_next_rounds_deal(tmp_path: Path) -> None:
    path = saved_match(tmp_path, "cover_your_assets", "--option", "end_mode=highest_after_3")
    frames = replay(GAMES["cover_your_assets"], load_export(path.read_text(encoding="utf-8")))
    second = jump(frames, 0, 1)
    assert frames[second].round == 2 and frames[second - 1].round == 1
    assert jump(frames, second, -1) == 0
    assert jump(frames, second + 3, -1) == second


def test_a_damaged_file_gets_a_sentence(tmp_path: Path) -> None:
    path = saved_match(tmp_path, "cookie_chomper")
    export = load_export(path.read_text(encoding="utf-8"))
    bad = export.model_copy(update={"actions": [export.actions[0], *export.actions[2:]]})
    broken = tmp_path / "broken.json"
    broken.write_text(bad.model_dump_json(), encoding="utf-8")
    for target, sentence in (
        (broken, "Move 3 is out of order in the log."),
        (tmp_path / "nothing.json", "Could not read"),
        (path.with_suffix(".txt"), "Could not read"),
    ):
        out = io.StringIO()
        assert main(["replay", str(target)], console=Console(file=out, width=200)) == 2
        assert sentence in out.getvalue()
    (tmp_path / "junk.json").write_text('{"game": 1}', encoding="utf-8")
    out = io.StringIO()
    assert main(["replay", str(tmp_path / "junk.json")], console=Console(file=out)) == 2
    assert "That is not a Cookie Jar match file" in out.getvalue()
    assert isinstance(export, MatchExport)
