"""A player's rating in one game over time, as a picture for /stats: the rating shown
after each rated match against the date it ended, on the shared drawing kit.

Each rated match is one step along the curve, and the dates under it say when: matches
bunch up on game nights and pause for weeks, and drawn against time alone an evening's
ups and downs would stand in one vertical stroke.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from games.core.pictures import PAD, PALETTE, WIDTH, Canvas

HEIGHT = 360
LEFT = 70  # room for the rating labels
BOTTOM = 40  # room for the dates
TOP = 92  # under the title and its line
STEPS = (5, 10, 20, 25, 50, 100, 200, 250, 500)


def tick_step(low: int, high: int, most: int = 5) -> int:
    """A round step giving at most ``most`` grid lines between ``low`` and ``high``."""
    span = max(high - low, 1)
    return next((step for step in STEPS if span / step <= most), STEPS[-1])


def date_text(at: float) -> str:
    return time.strftime("%d %b %Y", time.gmtime(at)).lstrip("0")


def rating_curve(
    times: Sequence[float], ratings: Sequence[int], title: str, subtitle: str
) -> bytes:
    """The curve through ``ratings`` (display ratings, oldest first) at ``times``."""
    if not ratings or len(times) != len(ratings):
        raise ValueError("a curve needs a time for each rating, and one rating at least")
    canvas = Canvas(HEIGHT)
    canvas.text((PAD, PAD), title, 24, PALETTE.text, bold=True, width=WIDTH - 2 * PAD)
    canvas.text((PAD, PAD + 32), subtitle, 16, PALETTE.muted, width=WIDTH - 2 * PAD)
    x0, x1, y0, y1 = LEFT, WIDTH - PAD - 64, TOP, HEIGHT - BOTTOM
    step = tick_step(min(ratings), max(ratings))
    low = (min(ratings) // step) * step
    high = max(-(-max(ratings) // step) * step, low + step)

    def y_of(value: int) -> float:
        return y1 - (value - low) * (y1 - y0) / (high - low)

    for value in range(low, high + 1, step):
        y = round(y_of(value))
        canvas.draw.line((x0, y, x1, y), fill=PALETTE.band if value != 1500 else PALETTE.empty)
        canvas.text((x0 - 10, y), str(value), 15, PALETTE.muted, anchor="rm")
    last = max(len(ratings) - 1, 1)

    def x_of(index: int) -> float:
        return x0 + index * (x1 - x0) / last

    points = [(x_of(i), y_of(value)) for i, value in enumerate(ratings)]
    if len(points) > 1:
        canvas.draw.line(points, fill=PALETTE.accent, width=3, joint="curve")
    dot = 4 if len(points) <= 60 else 0
    for x, y in points:
        if dot:
            canvas.draw.ellipse((x - dot, y - dot, x + dot, y + dot), fill=PALETTE.accent)
    x, y = points[-1]
    canvas.draw.ellipse((x - 7, y - 7, x + 7, y + 7), outline=PALETTE.text, width=2)
    canvas.text((x + 12, y), str(ratings[-1]), 17, PALETTE.text, bold=True, anchor="lm")
    shown: set[str] = set()
    for index in sorted({round(k * (len(times) - 1) / 3) for k in range(4)}):
        day = date_text(times[index])
        if day in shown:
            continue
        shown.add(day)
        anchor = "la" if index == 0 else "ra" if index == len(times) - 1 else "ma"
        canvas.text((round(x_of(index)), y1 + 10), day, 14, PALETTE.muted, anchor=anchor)
    return canvas.png()
