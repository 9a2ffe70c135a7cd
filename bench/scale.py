"""``python -m bench load --channels N`` past 30: the process must keep its throughput as
its tables grow (issue 39: at 1,000 tables at least 80 % of the moves a second it makes at
30, the longest collector pause under 100 ms). So such a run first plays the 30-channel
baseline for as long, in the same run on the same machine, then the N channels, and sets
the two side by side: moves and clicks a second, the longest collector pause."""

from __future__ import annotations

import argparse
from dataclasses import dataclass

from bot.service import MatchService

BASELINE = 30  # channels: the figure a bigger run is held to
KEEPS = 0.8  # the share of the baseline's moves a second it must keep
PAUSE = 0.1  # seconds: the longest collector pause allowed


@dataclass(frozen=True)
class Throughput:
    channels: int
    moves: float  # a second
    clicks: float  # a second
    longest_pause: float  # seconds, wall
    longest_pause_cpu: float


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--baseline",
        type=int,
        default=BASELINE,
        help=f"a run past this many channels first plays this many as its same-run "
        f"baseline (default {BASELINE}; 0: none)",
    )


def wants_baseline(channels: int, baseline: int) -> bool:
    return 0 < baseline < channels


def against(base: Throughput, big: Throughput) -> str:
    kept = big.moves / max(base.moves, 1e-9)
    return (
        f"\n{big.channels} channels against {base.channels} in the same run: "
        f"{big.moves:.1f} / {base.moves:.1f} moves/s = {kept:.0%} (target >= {KEEPS:.0%}); "
        f"clicks {big.clicks:.1f} / {base.clicks:.1f} a second; longest collector pause "
        f"{big.longest_pause * 1e3:.0f} ms wall, {big.longest_pause_cpu * 1e3:.0f} ms CPU "
        f"at {big.channels} (target < {PAUSE * 1e3:.0f} ms), "
        f"{base.longest_pause * 1e3:.0f} ms at {base.channels}"
    )


def cache_line(service: MatchService, asked: int, read: int) -> str:
    """How often a running match was read from the store rather than found parsed in
    memory: a cache too small for the tables (``MATCH_CACHE_MB``) reads and parses at every
    click, which grows with the tables, not with the moves."""
    asked, read = service.asked - asked, service.read - read
    kept, size, budget = service.cache_fill
    return (
        f"running matches asked for: {asked:,}, read from the store: {read:,} "
        f"({read / max(1, asked):.1%}); the cache holds {kept:,} matches, "
        f"{size / 2**20:.1f} of {budget / 2**20:.0f} MB"
    )
