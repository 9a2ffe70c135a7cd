"""The terminal table, driven through real stdin to the end of a match of every game."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

from games import GAMES
from games.cli.main import main
from games.core.replay import final_state, load_export
from tests.cli.scripted import dry_run

ROOT = Path(__file__).resolve().parents[2]
NO_PAUSE = ("--pause", "0")


def players_for(key: str) -> int:
    """Three at the table where the game allows it (bots and a person), else its nearest."""
    game = GAMES[key]
    return min(game.max_players, max(3, game.min_players))


def run_cli(
    args: list[str], stdin: str, locale: str | None = None
) -> subprocess.CompletedProcess[str]:
    """``python -m games`` in a 100-column terminal (``locale``: its ``LANG``)."""
    env = {"PYTHONIOENCODING": "utf-8", "COLUMNS": "100", "PATH": "/usr/bin:/bin"}
    if locale is not None:
        env["LANG"] = locale
    return subprocess.run(
        [sys.executable, "-m", "games", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        check=False,
    )


def placements(screen: str) -> list[str]:
    """The lines after "Game over.": the reason's line and each seat's place and score."""
    tail = screen[screen.rindex("Game over.") :].splitlines()
    return [line.strip() for line in tail if line.strip()[:2].rstrip(".").isdigit()]


@pytest.mark.parametrize("key", sorted(GAMES))
def test_a_person_plays_every_game_to_the_end_through_stdin(key: str, tmp_path: Path) -> None:
    args = ["play", key, "--players", str(players_for(key)), "--seed", "11", "--pause", "0"]
    code, screen, typed = dry_run(args)
    assert code == 0 and "Game over." in screen
    saved = tmp_path / "match.json"
    # Two bad lines first: each gets a sentence and the same prompt again, nothing moves.
    done = run_cli([*args, "--save", str(saved)], "\n".join(["abc", "99", *typed]) + "\n")
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""  # no traceback, no warning
    assert "'abc' is not a move number" in done.stdout
    assert "There is no move 99" in done.stdout
    assert placements(done.stdout) == placements(screen)
    # The saved file replays, from seed and actions, to a finished match with that result.
    export = load_export(saved.read_text(encoding="utf-8"))
    state = final_state(GAMES[key], export)
    outcome = GAMES[key].outcome(state)
    assert outcome is not None
    assert [f"{p.place}. {export.names[p.seat]} · {p.score}" for p in outcome.placements] == (
        placements(screen)
    )


def test_hot_seat_clears_the_screen_and_calls_the_next_player_before_a_hand(
    tmp_path: Path,
) -> None:
    code, screen, typed = dry_run(
        ["play", "toss_your_cookies", "--players", "3", "--bots", "1", "--seed", "3", *NO_PAUSE]
    )
    assert code == 0 and "Game over." in screen
    shown = None  # whose hand is on the screen now
    for line in screen.splitlines():
        if line.startswith("<<Pass the keyboard to "):
            shown = line.removeprefix("<<Pass the keyboard to ").split(",")[0]
        for name in ("Player 1", "Player 2"):
            if f"🃏 {name}'s hand" in line:
                assert shown == name, f"{name}'s hand shown without calling them first"
    assert screen.count("<<Pass the keyboard to Player 2") >= 2
    assert "" in typed


def test_a_seat_of_your_choice_and_options_by_name() -> None:
    code, screen, _ = dry_run(
        [
            "play",
            "cover_your_assets",
            "--players",
            "2",
            "--seat",
            "2",
            "--seed",
            "4",
            "--option",
            "end_mode=quick",
            "--pause",
            "0",
        ]
    )
    assert code == 0
    assert "Quick: one round" in screen
    assert "Abe" in screen and "Player" in screen
    assert screen.index("🃏 Player's hand") > 0


@pytest.mark.parametrize(
    ("argv", "sentence"),
    [
        (["play", "chess"], "There is no game called 'chess'"),
        (["play", "toss_your_cookies", "--players", "9"], "takes 3 to 8 players, not 9"),
        (["play", "cover_your_assets", "--option", "end_mode=forever"], "end_mode cannot be"),
        (["play", "cover_your_assets", "--option", "colour"], "--option takes name=value"),
        (["play", "cover_your_assets", "--bots", "7"], "--bots must be between 0 and 4"),
    ],
)
def test_a_bad_command_line_gets_a_sentence(argv: list[str], sentence: str) -> None:
    out = io.StringIO()
    assert main(argv, console=Console(file=out, width=200)) == 2
    assert sentence in out.getvalue()


def test_ctrl_c_and_end_of_input_leave_the_table_cleanly(tmp_path: Path) -> None:
    def interrupt(prompt: str) -> str:
        raise KeyboardInterrupt

    for ask in (interrupt, lambda prompt: (_ for _ in ()).throw(EOFError())):
        out = io.StringIO()
        saved = tmp_path / "left.json"
        code = main(
            ["play", "cookie_chomper", "--seed", "2", "--pause", "0", "--save", str(saved)],
            console=Console(file=out, width=100),
            ask=ask,
        )
        assert code == 130
        assert "Left the table. Bye!" in out.getvalue()
        assert json.loads(saved.read_text())["status"] == "cancelled"


def test_end_of_input_while_calling_the_next_player_leaves_cleanly() -> None:
    answers = iter(["", "1"])  # Player 1 is called and rolls; then the input runs out

    def ask(prompt: str) -> str:
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    out = io.StringIO()
    argv = ["play", "toss_your_cookies", "--players", "3", "--bots", "1", "--seed", "3"]
    assert main([*argv, *NO_PAUSE], console=Console(file=out, width=100), ask=ask) == 130
    assert "Player 1: Roll the dice" in out.getvalue()
    assert out.getvalue().rstrip().endswith("Left the table. Bye!")


def test_help_lists_every_game_and_option_from_the_registry(capsys) -> None:  # type: ignore[no-untyped-def]
    from games.core.options import describe

    for command in ([], ["play"], ["simulate"]):
        with pytest.raises(SystemExit):
            main([*command, "--help"])
        text = capsys.readouterr().out
        for key, game in GAMES.items():
            assert f"{key}: {game.name}, {game.min_players}-{game.max_players} players" in text
            for field in describe(game.options_model):
                assert f"{field.name} = " in text


def test_the_terminal_front_end_stays_out_of_discord_and_the_database() -> None:
    probe = (
        "import sys, games.cli.main, games.core.replay\n"
        "bad = {'discord', 'aiosqlite', 'asyncio', 'bot', 'cogs', 'sqlite3'}\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in bad))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert done.stdout.strip() == "[]"


def test_bots_may_search_in_every_game(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from games.braverse import Braverse

    thought: list[float] = []
    search = Braverse.search_action

    def counted(self, state, seat, **kwargs):  # type: ignore[no-untyped-def]
        thought.append(kwargs["seconds"])
        return search(self, state, seat, **kwargs)

    monkeypatch.setattr(Braverse, "search_action", counted)
    args = ["play", "braverse", "--seed", "4", "--bot-kind", "search", "--think", "0.01"]
    code, screen, _ = dry_run([*args, "--pause", "0"])
    assert code == 0 and "Game over." in screen
    assert len(thought) > 20 and set(thought) == {0.01}
    # every game has the generic search since issue 30: Chomper's bots search too
    args = ["play", "cookie_chomper", "--seed", "4", "--bot-kind", "search", "--think", "0.01"]
    code, screen, _ = dry_run([*args, "--pause", "0"])
    assert code == 0 and "Game over." in screen


def in_a_korean_terminal(args: list[str], stdin: str) -> subprocess.CompletedProcess[str]:
    """``python -m games`` run as in a terminal whose locale is Korean."""
    return run_cli(args, stdin, locale="ko_KR.UTF-8")


def test_a_terminal_in_korean_plays_in_korean_and_language_picks_another() -> None:
    args = ["play", "toss_your_cookies", "--players", "3", "--seed", "11", "--pause", "0"]
    code, _, typed = dry_run(args)
    assert code == 0
    stdin = "\n".join(["abc", *typed]) + "\n"
    korean = in_a_korean_terminal(args, stdin)
    assert korean.returncode == 0 and korean.stderr == ""
    screen = korean.stdout
    assert "게임 종료" in screen and "플레이어" in screen and "수 번호를 입력하세요" in screen
    assert "'abc'은(는) 수 번호가 아니에요" in screen
    assert "시드 11" in screen
    for english in ("Game over", "type a move number", "Player", "is not a move number", "Seed"):
        assert english not in screen
    # --language wins over the terminal's locale.
    spanish = in_a_korean_terminal([*args, "--language", "es"], stdin)
    assert spanish.returncode == 0 and "no es un número de jugada" in spanish.stdout
    assert "Jugador" in spanish.stdout and "게임 종료" not in spanish.stdout


def test_the_terminals_language_comes_from_its_locale() -> None:
    from games.cli.main import system_language

    assert system_language({"LANG": "ko_KR.UTF-8"}) == "ko"
    assert system_language({"LANG": "pt_BR.UTF-8"}) == "pt_BR"
    assert system_language({"LC_ALL": "ja_JP.UTF-8", "LANG": "es_ES.UTF-8"}) == "ja"
    assert system_language({"LANG": "C.UTF-8"}) == "en"
    assert system_language({"LANG": "fr_FR.UTF-8"}) == "en"
    assert system_language({}) == "en"
