"""A scripted player for the terminal table: answers every prompt the way a person could
type it (the first option, or as many first options as the decision needs), and keeps the
lines it typed so the same match can be replayed through real stdin."""

from __future__ import annotations

import io
import re

from rich.console import Console

from games.cli.main import main

_RANGE = re.compile(r"type (\d+)(?: to \d+)? move numbers")


MOST_PROMPTS = 5000  # a match that needs more answers than this is not ending


class Typist:
    def __init__(self, screen: io.StringIO) -> None:
        self.lines: list[str] = []
        self.screen = screen

    def __call__(self, prompt: str) -> str:
        self.screen.write(f"<<{prompt}>>\n")  # where each prompt fell among the output
        if len(self.lines) >= MOST_PROMPTS:
            raise AssertionError(f"still asking after {MOST_PROMPTS} answers: {prompt}")
        if prompt.startswith("Pass the keyboard"):
            line = ""
        elif found := _RANGE.search(prompt):
            line = " ".join(str(n) for n in range(1, int(found[1]) + 1))
        else:
            line = "1"
        self.lines.append(line)
        return line


def dry_run(argv: list[str]) -> tuple[int, str, list[str]]:
    """Play in-process; returns the exit code, the screen text and the lines typed."""
    out = io.StringIO()
    typist = Typist(out)
    code = main(argv, console=Console(file=out, width=100, color_system=None), ask=typist)
    return code, out.getvalue(), typist.lines
