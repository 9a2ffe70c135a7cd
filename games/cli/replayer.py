"""An exported match stepped with the keyboard; every frame recomputed from the log."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.console import Console

from games.cli.render import markup, panel
from games.core.protocol import Game
from games.core.replay import Frame, jump

KEYS = (
    "Enter or n: next move · p: previous · f / b: a round (or ten moves) forward / back · "
    "a number: go to that move · h: all hands on/off · q: quit"
)


def show_frame(
    console: Console, game: Game, frames: Sequence[Frame], step: int, *, hands: bool
) -> None:
    frame = frames[step]
    names = frame.state.names
    console.print(panel(game.panels(game.view(frame.state, None)).table))
    if hands:
        for seat, name in enumerate(names):
            hand = game.panels(game.view(frame.state, seat)).hand
            if hand is not None:
                # Without the footer, which speaks to the hand's owner ("Your stack...").
                console.print(
                    panel(hand.model_copy(update={"footer": ""}), title=f"🃏 {name}'s hand")
                )
    last = len(frames) - 1
    if frame.seat is None:
        console.print(markup(f"**The deal** · move 0 of {last}"))
    else:
        console.print(markup(f"**Move {step} of {last}** · {names[frame.seat]}: {frame.label}"))
    for event in frame.events:
        if event.visible_to is None:  # a private line is worded for its seat ("You drew")
            console.print(markup(f"   {event.text}"))


def step_through(
    console: Console,
    game: Game,
    frames: Sequence[Frame],
    ask: Callable[[str], str] = input,
    *,
    start: int = 0,
) -> int:
    """Show frames until q or end of input; returns the last step shown."""
    step, hands, last = max(0, min(start, len(frames) - 1)), False, len(frames) - 1
    show_frame(console, game, frames, step, hands=hands)
    while True:
        try:
            key = ask(f"[{step}/{last}] n, p, f, b, h, a move number, or q: ").strip().lower()
        except EOFError:
            return step
        if key in ("q", "quit"):
            return step
        if key in ("", "n"):
            if step == last:
                console.print("That was the last move; p goes back, q quits.")
                continue
            step += 1
        elif key == "p":
            step = max(0, step - 1)
        elif key in ("f", "b"):
            step = jump(frames, step, 1 if key == "f" else -1)
        elif key == "h":
            hands = not hands
        elif key.isdigit() and 0 <= int(key) <= last:
            step = int(key)
        else:
            console.print(f"{key!r} is not a key here. {KEYS}")
            continue
        show_frame(console, game, frames, step, hands=hands)
