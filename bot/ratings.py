"""Player ratings: openskill's Plackett–Luce model over finished matches (pure).

One rating per (server, game, user) lives in the store; this module only turns a finished
match's placements and the seats' ratings before it into their ratings after it. Plain values
in and out, no store and no clock, so ``ratings rebuild`` can replay history and land on the
same numbers.

openskill is pinned exactly (``openskill==6.2.0``): a rating is a float that a rebuild must
reproduce bit for bit, and any change in the library's arithmetic would move every rating.
"""

from __future__ import annotations

import itertools
import math
import random
import threading
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce, PlackettLuceRating

from games.core.levels import DEFAULT_LEVEL, LEVELS, Level

MU = 25.0
SIGMA = 25.0 / 3.0
PROVISIONAL_GAMES = 5
# openskill 6.2.0 mishandles multi-way ties (openskill.py #155, #201): tied winners can end
# below the seat they beat. We rate every strict order of the tied groups and average; past
# this many orders, a seeded sample of them. Drop the workaround (and rebuild) once fixed.
MAX_ORDERS = 720

MODEL = PlackettLuce(mu=MU, sigma=SIGMA, limit_sigma=True)
# ``MODEL.rate`` adds τ² to each prior variance before the update (``rate_order``).
TAU_SQUARED = MODEL.tau * MODEL.tau
_REUSED = threading.local()  # see ``_teams``


@dataclass(frozen=True)
class Rating:
    """A player's skill belief: mean μ, uncertainty σ, and how many rated games it holds."""

    mu: float = MU
    sigma: float = SIGMA
    games: int = 0

    @property
    def display(self) -> int:
        """The number people see: ``ordinal(alpha=24, target=1500)``, a new player at 1500."""
        return round(1500 + 24 * (self.mu - 3 * self.sigma))

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES


# Bots of one level share one rating per (server, game), kept beside people's under an id
# no Discord user has: easy -1, normal -2, hard -3. Never ranked among people.
BOT_IDS: dict[Level, int] = {level: -(index + 1) for index, level in enumerate(LEVELS)}


@dataclass(frozen=True)
class SeatResult:
    """One seat of a finished match: its place (1 = first, ties share a place), whether it
    ended gone (forfeit, ``/leave``), and its user, or None for a bot seat (of ``level``)."""

    user_id: int | None
    place: int
    gone: bool = False
    level: Level = DEFAULT_LEVEL


@dataclass(frozen=True)
class RatingChange:
    """One rated player's update: ``place`` is the place among the rated seats."""

    user_id: int
    place: int
    before: Rating
    after: Rating


def win_chances(ratings: Sequence[Rating]) -> list[int]:
    """Each seat's chance to finish first, in whole percent summing to 100: openskill's
    Plackett–Luce ``predict_win`` on the ratings, rounded by largest remainder (equal
    remainders: the earlier seat), so the shown figures always add up."""
    if len(ratings) < 2:
        return [100] * len(ratings)
    odds = MODEL.predict_win([[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in ratings])
    exact = [100 * chance for chance in odds]
    whole = [math.floor(value) for value in exact]
    # The odds sum to 1 up to a rounding error, so at most one point per seat is missing.
    short = max(0, min(len(whole), 100 - sum(whole)))
    by_remainder = sorted(range(len(exact)), key=lambda i: (whole[i] - exact[i], i))
    for index in by_remainder[:short]:
        whole[index] += 1
    return whole


def shared_ranks(displays: Sequence[int], first: int = 1) -> list[int]:
    """Ranks of display ratings listed highest first, equal ones sharing the better rank
    (1, 1, 3): ``first`` is the first one's rank. A leaderboard that ranked equals one
    below another would call one of them better."""
    ranks: list[int] = []
    for index, display in enumerate(displays):
        tied = index and display == displays[index - 1]
        ranks.append(ranks[-1] if tied else first + index)
    return ranks


def rated_places(seats: Sequence[SeatResult]) -> list[tuple[int, int]]:
    """(user, place) for the human seats: bots removed, humans keep their order, and every
    seat that ended gone is last, tied with the other quitters. Places are 1-based with
    ties sharing the best place (1, 2, 2, 4)."""
    humans = [seat for seat in seats if seat.user_id is not None]
    return [(seat.user_id, place) for seat, place in _placed(humans)]  # type: ignore[misc]


def _placed(seats: Sequence[SeatResult]) -> list[tuple[SeatResult, int]]:
    """The seats in place order, each with its place among them: the gone last, tied."""
    keys = {id(seat): (seat.gone, 0 if seat.gone else seat.place) for seat in seats}
    ordered = sorted(seats, key=lambda seat: keys[id(seat)])
    placed: list[tuple[SeatResult, int]] = []
    for index, seat in enumerate(ordered):
        if index and keys[id(seat)] == keys[id(ordered[index - 1])]:
            place = placed[-1][1]
        else:
            place = index + 1
        placed.append((seat, place))
    return placed


def rate_match(
    match_id: str, seats: Sequence[SeatResult], ratings: Mapping[int, Rating]
) -> list[RatingChange]:
    """The rating changes of a finished match, in place order; empty when fewer than two
    human seats played (nothing to learn). ``ratings`` holds the players' ratings before
    the match; a missing player is new. Bots are left out: people's ratings move only
    against people, as they did before bots had levels."""
    places = rated_places(seats)
    if len(places) < 2:
        return []
    before = [ratings.get(user, Rating()) for user, _ in places]
    afters = _rated(match_id, before, [place for _, place in places])
    return [
        RatingChange(
            user_id=user,
            place=place,
            before=prior,
            after=Rating(mu=mu, sigma=sigma, games=prior.games + 1),
        )
        for (user, place), prior, (mu, sigma) in zip(places, before, afters, strict=True)
    ]


def rate_bots(
    match_id: str, seats: Sequence[SeatResult], ratings: Mapping[int, Rating]
) -> list[RatingChange]:
    """The bot levels' rating changes from a finished match against people (one who
    played it out, at least), in place order. Every seat takes part: people at their
    ratings before the match (which this does not change), each bot seat at its level's;
    a level moves by the average of its seats, and its place is its best seat's.
    ``ratings`` is keyed by user id and ``BOT_IDS``."""
    if not any(s.user_id is None for s in seats) or all(s.user_id is None or s.gone for s in seats):
        return []
    placed = _placed(seats)
    before = [ratings.get(_rated_id(seat), Rating()) for seat, _ in placed]
    afters = _rated(match_id, before, [place for _, place in placed])
    levels: dict[int, list[tuple[int, float, float]]] = {}
    for (seat, place), (mu, sigma) in zip(placed, afters, strict=True):
        if seat.user_id is None:
            levels.setdefault(BOT_IDS[seat.level], []).append((place, mu, sigma))
    changes = []
    for bot_id, rows in levels.items():
        prior = ratings.get(bot_id, Rating())
        mu = math.fsum(mu for _, mu, _ in rows) / len(rows)
        sigma = math.fsum(sigma for _, _, sigma in rows) / len(rows)
        after = Rating(mu=mu, sigma=sigma, games=prior.games + 1)
        changes.append(RatingChange(bot_id, min(p for p, _, _ in rows), prior, after))
    return sorted(changes, key=lambda change: (change.place, -change.user_id))


def _rated_id(seat: SeatResult) -> int:
    return seat.user_id if seat.user_id is not None else BOT_IDS[seat.level]


def _rated(match_id: str, before: list[Rating], places: list[int]) -> list[tuple[float, float]]:
    """(μ, σ) after the match of each seat, given in place order with its place."""
    groups = _tied_groups(places)
    if all(len(group) == 1 for group in groups):
        # One strict order: its update is the average of one, so no summing.
        return rate_order(before)
    return _averaged(before, groups, match_id)


def rate_order(priors: Sequence[Rating]) -> list[tuple[float, float]]:
    """(μ, σ) after a match of one-player teams finishing in this strict order (index 0
    first): exactly ``MODEL.rate`` of them, without its deep copy of the teams.

    ``rate`` copies the teams (a fresh rating and uuid each), adds τ² to each variance,
    sorts by rank (nothing to do in a strict order), runs ``_compute`` and caps each σ at
    its prior (``limit_sigma``). The copy and the uuids were half of rating a match, so we
    hand ``_compute`` teams of our own and take the same steps around it; a test holds it
    equal to ``rate`` bit for bit, which the pin keeps true. ``_compute`` writes its
    result into the teams it is given: they are this thread's reused ones (``_teams``),
    read before the next call."""
    teams = _teams(len(priors))
    for team, prior in zip(teams, priors, strict=True):
        team[0].mu = prior.mu
        team[0].sigma = math.sqrt(prior.sigma * prior.sigma + TAU_SQUARED)
    rated = MODEL._compute(teams=teams, ranks=_strict_ranks(len(priors)))
    return [
        (team[0].mu, min(team[0].sigma, prior.sigma))
        for team, prior in zip(rated, priors, strict=True)
    ]


def _averaged(
    before: Sequence[Rating], groups: list[list[int]], match_id: str
) -> list[tuple[float, float]]:
    """(μ, σ) of each seat averaged over the strict orders of the tied groups."""
    sums: list[list[float]] = [[] for _ in before]
    sigmas: list[list[float]] = [[] for _ in before]
    # Orders that only swap seats with equal priors rate the same numbers: rated once.
    seen: dict[tuple[Rating, ...], list[tuple[float, float]]] = {}
    for order in _strict_orders(groups, match_id):
        key = tuple(before[index] for index in order)
        rated = seen.get(key)
        if rated is None:
            rated = seen[key] = rate_order(key)
        for (mu, sigma), index in zip(rated, order, strict=True):
            sums[index].append(mu)
            sigmas[index].append(sigma)
    # fsum is correctly rounded, so seats that saw the same numbers in another order
    # end with identical floats: equal tied seats move exactly equally.
    return [
        (math.fsum(mus) / len(mus), math.fsum(sigma) / len(sigma))
        for mus, sigma in zip(sums, sigmas, strict=True)
    ]


def _teams(count: int) -> list[list[PlackettLuceRating]]:
    """This thread's ``count`` one-player teams to hand ``_compute``: made once, as making
    an openskill rating draws a uuid, a third of the time left after the copy was gone."""
    made: list[list[PlackettLuceRating]] = _REUSED.__dict__.setdefault("teams", [])
    while len(made) < count:
        made.append([MODEL.rating()])
    return made[:count]


def _strict_ranks(seats: int) -> list[float]:
    return [float(rank) for rank in range(1, seats + 1)]


def _tied_groups(ranks: Sequence[int]) -> list[list[int]]:
    """Indices of the seats grouped by rank, best rank first (ranks are sorted)."""
    return [
        [index for index, _ in group]
        for _, group in itertools.groupby(enumerate(ranks), key=lambda pair: pair[1])
    ]


def _strict_orders(groups: list[list[int]], match_id: str) -> Iterator[tuple[int, ...]]:
    """Strict orders of the seats that respect the groups: all of them when there are at
    most MAX_ORDERS, else a sample seeded by the match id.

    The sample is balanced: each drawn order of a group comes with all its rotations, so
    every seat of a group sits in every position of it equally often and seats with equal
    priors still move equally."""
    total = math.prod(math.factorial(len(group)) for group in groups)
    if total <= MAX_ORDERS:
        for parts in itertools.product(*(itertools.permutations(group) for group in groups)):
            yield tuple(itertools.chain.from_iterable(parts))
        return
    rng = random.Random(f"rating-orders:{match_id}")
    rotations = math.prod(len(group) for group in groups)
    if rotations > MAX_ORDERS:  # many small tied groups: plain independent draws
        for _ in range(MAX_ORDERS):
            yield tuple(index for group in groups for index in rng.sample(group, len(group)))
        return
    for _ in range(MAX_ORDERS // rotations):
        drawn = [rng.sample(group, len(group)) for group in groups]
        for shifts in itertools.product(*(range(len(group)) for group in groups)):
            yield tuple(
                index
                for part, shift in zip(drawn, shifts, strict=True)
                for index in part[shift:] + part[:shift]
            )
