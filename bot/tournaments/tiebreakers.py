"""Tiebreakers, exact (``Fraction``), from results alone.

Two-player events follow the MTR (Appendix C): MW% = max(0.33, MP / 3R) with R the rounds
played (byes and missed rounds included), OMW% the mean over opponents (a bye adds none),
GW% and OGW% for best-of-three tables, OOMW%. Pods use the same shape on place scores
(OPP%, OOPP%). Round robin uses Sonneborn–Berger.

Each function computes a value for every player at once from ``records`` (a player's
results), so an opponents' mean costs one look-up per meeting, not a rescan.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction

from bot.tournaments.results import Player, TableResult
from bot.tournaments.scoring import Scoring, exact_sum
from games.core.text import Text, joined, t, tc

FLOOR = Fraction(33, 100)  # the MTR's 0.33, not 1/3

Records = Mapping[Player, Sequence[TableResult]]


def percent(value: Fraction) -> str:
    """A rate as people read it: 0.415 as "41.5%"."""
    return f"{float(value) * 100:.1f}%"


def tiebreaker_text(name: str, value: Fraction) -> str:
    """A tiebreaker as shown: rates (the names ending in %) as percentages, counts and
    Sonneborn-Berger scores bare."""
    return percent(value) if name.endswith("%") else f"{float(value):g}"


def records_of(results: Iterable[TableResult]) -> dict[Player, list[TableResult]]:
    records: dict[Player, list[TableResult]] = defaultdict(list)
    for result in results:
        for player in result.players:
            records[player].append(result)
    return records


def point_percentages(records: Records, scoring: Scoring) -> dict[Player, Fraction]:
    """MW% (two players) or PP% (pods): points over the most the rounds played could give,
    never below 0.33 (MTR: so a withdrawn or struggling player does not sink their
    opponents)."""
    return {
        player: max(
            FLOOR,
            exact_sum([scoring.points(result, player) for result in played])
            / (scoring.full * len(played)),
        )
        for player, played in records.items()
        if played
    }


def opponents_met(player: Player, records: Records) -> list[Player]:
    """Every opponent at every table, once per meeting; byes and missed rounds add none."""
    return [other for result in records.get(player, ()) for other in result.opponents(player)]


def opponents_mean(records: Records, values: Mapping[Player, Fraction]) -> dict[Player, Fraction]:
    """The mean of ``values`` over each player's opponents (OMW%, OPP%, OGW%, OOMW%, …);
    with no opponent yet (only byes), the floor."""
    # As exact_sum, with each value scaled once for all the players who met its owner.
    scale = math.lcm(*(value.denominator for value in values.values()))
    scaled = {p: value.numerator * (scale // value.denominator) for p, value in values.items()}
    means = {}
    for player in records:
        met = opponents_met(player, records)
        means[player] = Fraction(sum(scaled[o] for o in met), scale * len(met)) if met else FLOOR
    return means


def game_percentages(records: Records) -> dict[Player, Fraction]:
    """GW% for best-of-three tables: game points (3 a game won, 1 drawn) over 3 a game
    played, never below 0.33; a bye counts as two games won (MTR), a missed round as two
    lost."""
    percentages = {}
    for player, played in records.items():
        points = games = 0
        for result in played:
            if result.kind == "bye":
                points, games = points + 6, games + 2
            elif result.kind == "missed":
                games += 2
            elif result.game_wins is not None:
                won = result.game_wins[result.players.index(player)]
                points += 3 * won + result.game_draws
                games += sum(result.game_wins) + result.game_draws
        percentages[player] = max(FLOOR, Fraction(points, 3 * games)) if games else FLOOR
    return percentages


def first_places(records: Records) -> dict[Player, Fraction]:
    """Tables won, a shared first place included; a bye is no first place."""
    return {
        player: Fraction(sum(1 for r in played if r.kind == "table" and r.place_of(player) == 1))
        for player, played in records.items()
    }


def head_to_head(
    player: Player, others: Iterable[Player], records: Records, scoring: Scoring
) -> Fraction:
    """Points the player took at tables against any of ``others``."""
    rivals = set(others) - {player}
    return sum(
        (
            scoring.points(result, player)
            for result in records.get(player, ())
            if rivals.intersection(result.players)
        ),
        Fraction(0),
    )


def sonneborn_berger(records: Records, totals: Mapping[Player, Fraction]) -> dict[Player, Fraction]:
    """The points of every opponent beaten plus half those of every opponent drawn."""
    scores = {}
    for player, played in records.items():
        score = Fraction(0)
        for result in played:
            if result.kind == "table":
                # Chess weights, whatever the points: a win counts whole, a draw half.
                place, tied = result.place_of(player), result.tied_with(player)
                share = Fraction(1, tied) if place == 1 else Fraction(0)
                for other in result.opponents(player):
                    score += share * totals.get(other, Fraction(0))
        scores[player] = score
    return scores


# Each tiebreak in words, said where it is shown: "OMW% 0.33" alone means nothing to most.
TIEBREAKS = {
    "OMW%": t("opponents' average match-win rate"),
    "GW%": t("games won"),
    "OGW%": t("opponents' GW%"),
    "OOMW%": t("their opponents' OMW%"),
    "OPP%": t("opponents' average share of points"),
    "Firsts": t("first places"),
    "OOPP%": t("their opponents' OPP%"),
    "H2H": t("points against those tied with you"),
    "SB": t("points of those you beat, half of those you drew"),
}


# A tiebreak's short name as shown. The abbreviations (OMW%, SB, H2H) read alike in every
# language, as players write them; a word among them is translated.
SHOWN_NAMES: dict[str, Text] = {"Firsts": tc("tiebreak", "Firsts")}


def tiebreak_name(name: str) -> str:
    """A tiebreak's short name in the reader's language (a Text for a word)."""
    return SHOWN_NAMES.get(name, name)


def tiebreak_figures(tiebreakers: Iterable[tuple[str, Fraction]]) -> Text:
    """ "OMW% 66.7% · GW% 50.0%": each tiebreak's short name and its figure."""
    return joined(
        [
            t("{name} {value}", name=tiebreak_name(name), value=tiebreaker_text(name, value))
            for name, value in tiebreakers
        ],
        " · ",
    )


def tiebreak_words(names: list[str]) -> str:
    """ "Ties go by OMW% (opponents' average match-win rate), then …": the names shown."""
    said = [
        t("{name} ({meaning})", name=tiebreak_name(name), meaning=TIEBREAKS[name])
        for name in names
        if name in TIEBREAKS
    ]
    if not said:
        return ""
    return t("Ties go by {order}.", order=joined(said, t(", then ")))
