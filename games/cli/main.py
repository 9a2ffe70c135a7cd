"""``python -m games play | replay | simulate``: the games with no Discord token at all.

Every game and option listed by ``--help`` comes from the registry (``games.GAMES`` and
each game's options model), so a new game needs nothing here.
"""

from __future__ import annotations

import argparse
import os
import random
import secrets
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from pydantic import BaseModel, ValidationError
from rich.console import Console

from games import GAMES
from games.cli.pictures import write_pictures
from games.cli.play import Quit, Table, seat_names
from games.cli.replayer import KEYS, step_through
from games.cli.simulate import (
    SEARCH_WORLDS,
    Job,
    bot_move,
    print_report,
    replays_identically,
    run_jobs,
    seat_kinds,
    summarise,
    write_csv,
)
from games.core.options import describe, with_choice
from games.core.protocol import Game, GameState, Picturing, Searching
from games.core.replay import ReplayError, load_export, replay
from games.core.text import t
from games.core.translations import SELECTABLE, language_for, render


class UsageError(Exception):
    """A command line that cannot run; ``str(exc)`` is the sentence to print."""


def catalogue() -> str:
    """Every game with its table sizes and options, from the registry."""
    lines = ["games and their options (--option name=value; the defaults are the standard rules):"]
    for key, game in GAMES.items():
        lines.append(f"  {key}: {game.name}, {game.min_players}-{game.max_players} players")
        defaults = game.options_model()
        for field in describe(game.options_model):
            values = ", ".join(c.value for c in field.choices)
            current = getattr(defaults, field.name)
            shown = str(current).lower() if isinstance(current, bool) else current
            lines.append(f"      {field.name} = {values}  (default {shown}; {field.title})")
    return "\n".join(lines)


def game_of(key: str) -> Game:
    if key not in GAMES:
        raise UsageError(f"There is no game called {key!r}; pick one of: {', '.join(GAMES)}.")
    return GAMES[key]


def options_of(game: Game, pairs: Sequence[str]) -> BaseModel:
    options = game.options_model()
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or name not in game.options_model.model_fields:
            names = ", ".join(f.name for f in describe(game.options_model)) or "none"
            raise UsageError(f"--option takes name=value; {game.key} has options: {names}.")
        try:
            options = with_choice(options, name, value)
        except (ValueError, ValidationError):
            choices = next(
                (
                    ", ".join(c.value for c in f.choices)
                    for f in describe(game.options_model)
                    if f.name == name
                ),
                "another value",
            )
            raise UsageError(f"{name} cannot be {value!r}; choose {choices}.") from None
    return options


def players_of(game: Game, players: int | None) -> int:
    count = players if players is not None else max(game.min_players, min(4, game.max_players))
    if not game.min_players <= count <= game.max_players:
        raise UsageError(
            f"{game.name} takes {game.min_players} to {game.max_players} players, not {count}."
        )
    return count


def searcher(game: Game, kinds: Sequence[str]) -> None:
    """A search bot is asked for: the game must have one."""
    if "search" in kinds and not isinstance(game, Searching):
        raise UsageError(f"{game.name} has no search bot; use heuristic or random.")


def picture_folder(game: Game, directory: Path | None) -> Path | None:
    """--pictures asks for pictures: the game must draw them."""
    if directory is not None and not isinstance(game, Picturing):
        raise UsageError(f"{game.name} has no pictures yet.")
    return directory


PICTURES_HELP = "write each state's table picture (and hands) as PNG files to this folder"


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(
        prog="python -m games",
        description="Cookie Jar's games in a terminal: play, replay, simulate.",
        epilog=catalogue(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands = top.add_subparsers(dest="command", required=True)

    def sub(name: str, summary: str) -> argparse.ArgumentParser:
        return commands.add_parser(
            name,
            help=summary,
            description=summary,
            epilog=catalogue(),
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )

    play = sub("play", "Play a game at this terminal, against bots or hot-seat with friends.")
    play.add_argument("game", help="the game's key (listed below)")
    play.add_argument("--players", type=int, help="seats at the table (default 4, or fewer)")
    play.add_argument("--bots", type=int, help="how many seats bots play (default: all but one)")
    play.add_argument("--seat", type=int, default=1, help="your seat, from 1 (first human's)")
    play.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    play.add_argument("--seed", type=int, help="deal a known deck (default: random)")
    play.add_argument("--pause", type=float, default=0.8, help="seconds a bot thinks")
    play.add_argument(
        "--bot-kind",
        choices=("heuristic", "search"),
        default="heuristic",
        help="the bots' play: the quick heuristic, or a search that thinks ahead "
        "(games that have one)",
    )
    play.add_argument(
        "--think", type=float, default=1.0, help="seconds a search bot thinks per decision"
    )
    play.add_argument("--save", type=Path, help="write the match to this JSON file at the end")
    play.add_argument(
        "--language",
        choices=SELECTABLE,
        default=None,
        help="the table's language (default: your system's, from LC_ALL / LC_MESSAGES / "
        "LANG, else English)",
    )
    play.add_argument("--pictures", type=Path, metavar="DIR", help=PICTURES_HELP + " (your seat's)")

    again = sub("replay", "Step through an exported match (/export in Discord, or --save).")
    again.add_argument("file", type=Path)
    again.add_argument("--step", type=int, default=0, help="start at this move")
    again.add_argument(
        "--pictures", type=Path, metavar="DIR", help=PICTURES_HELP + " (every seat's)"
    )

    sim = sub("simulate", "Bots against bots: win shares, game lengths, speed, determinism.")
    sim.add_argument("game", help="the game's key (listed below)")
    sim.add_argument("--games", type=int, default=100, help="how many games (default 100)")
    sim.add_argument("--players", type=int, help="seats at the table (default 4, or fewer)")
    sim.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    sim.add_argument(
        "--bots",
        default="heuristic",
        help="heuristic, random, search, mix, or one kind per seat: heuristic,search,...",
    )
    sim.add_argument(
        "--search-worlds",
        type=int,
        default=SEARCH_WORLDS,
        help=f"worlds a search bot samples per decision (default {SEARCH_WORLDS})",
    )
    sim.add_argument("--jobs", type=int, default=1, help="processes to spread games over")
    sim.add_argument("--seed", type=int, default=1, help="the first game's seed (then +1)")
    sim.add_argument("--check", type=int, default=10, help="games replayed for determinism")
    sim.add_argument("--csv", type=Path, help="write one row per game to this file")
    return top


def system_language(environ: dict[str, str] | None = None) -> str:
    """The language the terminal's locale names ("ko_KR.UTF-8" is Korean), else English."""
    environ = dict(os.environ) if environ is None else environ
    for variable in ("LC_ALL", "LC_MESSAGES", "LANG"):
        found = environ.get(variable, "").split(".")[0].split("@")[0]
        if found:
            return language_for(found)
    return language_for(None)


def run_play(args: argparse.Namespace, console: Console, ask: Callable[[str], str]) -> int:
    game = game_of(args.game)
    players = players_of(game, args.players)
    bots = players - 1 if args.bots is None else args.bots
    if not 0 <= bots <= players:
        raise UsageError(f"--bots must be between 0 and {players}.")
    humans = players - bots
    if humans and not 1 <= args.seat <= players:
        raise UsageError(f"--seat must be between 1 and {players}.")
    human_seats = frozenset((args.seat - 1 + i) % players for i in range(humans))
    options = options_of(game, args.option)
    searcher(game, [args.bot_kind])
    if args.think <= 0:
        raise UsageError("--think takes a number of seconds above 0.")
    seed = args.seed if args.seed is not None else secrets.randbits(63)
    language = args.language or system_language()
    names = seat_names(players, sorted(human_seats), language)
    folder = picture_folder(game, args.pictures)
    on_state = None
    if folder is not None:
        # Only the people's hands: the bots' hands are secrets at this terminal too.
        def on_state(state: GameState) -> None:
            write_pictures(game, state, folder, sorted(human_seats))

    table = Table(
        game=game,
        state=game.setup(options, names, seed),
        humans=human_seats,
        console=console,
        ask=ask,
        pause=args.pause,
        on_state=on_state,
        language=language,
        bot=lambda state, decision: bot_move(
            game,
            args.bot_kind,
            state,
            decision,
            random.Random(),
            worlds=None,
            seconds=args.think,
            seed=secrets.randbits(32),
        ),
    )
    try:
        table.run()
    finally:
        if args.save is not None:
            export = table.export(options.model_dump(mode="json"), seed)
            args.save.write_text(export.model_dump_json(indent=1), encoding="utf-8")
    # The seed is a secret of the match until it ends.
    console.print(
        render(t("Seed {seed}: --seed {seed} deals this match again.", seed=seed), language),
        markup=False,
    )
    return 0


def run_replay(args: argparse.Namespace, console: Console, ask: Callable[[str], str]) -> int:
    try:
        text = args.file.read_bytes()
    except OSError as exc:
        raise UsageError(f"Could not read {args.file}: {exc.strerror}.") from None
    try:
        export = load_export(text)
        game = game_of(export.game)
        frames = replay(game, export)
    except ReplayError as exc:
        raise UsageError(str(exc)) from None
    folder = picture_folder(game, args.pictures)
    if folder is not None:
        # A finished match is open to all, as the replayer's h key shows every hand.
        for frame in frames:
            write_pictures(game, frame.state, folder, range(len(frame.state.names)))
        console.print(f"Wrote the pictures of {len(frames)} states to {folder}.")
    console.print(f"{game.name}: {len(frames) - 1} moves. {KEYS}")
    step_through(console, game, frames, ask, start=args.step)
    return 0


def run_simulate(args: argparse.Namespace, console: Console) -> int:
    game = game_of(args.game)
    players = players_of(game, args.players)
    options = options_of(game, args.option).model_dump(mode="json")
    if args.games < 1 or args.jobs < 1:
        raise UsageError("--games and --jobs must be at least 1.")
    try:
        kinds = [seat_kinds(args.bots, players, i) for i in range(args.games)]
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    searcher(game, [k for each in kinds for k in each])
    if args.search_worlds < 1:
        raise UsageError("--search-worlds must be at least 1.")
    check = min(max(args.check, 0), args.games)
    jobs = [
        Job(
            i,
            game.key,
            options,
            kinds[i],
            args.seed + i,
            keep_actions=i < check,
            search_worlds=args.search_worlds,
        )
        for i in range(args.games)
    ]
    progress = Console(stderr=True) if sys.stderr.isatty() else None
    start = time.perf_counter()
    results = run_jobs(jobs, args.jobs, progress)
    wall = time.perf_counter() - start
    checks = [replays_identically(game, jobs[r.index], r) for r in results[:check]]
    report = summarise(game.key, players, results, wall, checks)
    print_report(report, console, game.name)
    if args.csv is not None:
        write_csv(args.csv, results)
        console.print(f"Wrote {len(results)} rows to {args.csv}.")
    return 0 if report.identical == report.checked else 1


def main(
    argv: Sequence[str] | None = None,
    *,
    console: Console | None = None,
    ask: Callable[[str], str] = input,
) -> int:
    console = console or Console()
    args = parser().parse_args(argv)
    try:
        if args.command == "play":
            return run_play(args, console, ask)
        if args.command == "replay":
            return run_replay(args, console, ask)
        return run_simulate(args, console)
    except UsageError as exc:
        console.print(f"[red]{exc}[/red]")
        return 2
    except (KeyboardInterrupt, EOFError, Quit):
        # Ctrl-C, end of input or q: leave quietly; nothing is half-written (the save is
        # made above, on the way out).
        console.print("\nStopped." if args.command == "simulate" else "\nLeft the table. Bye!")
        return 130
