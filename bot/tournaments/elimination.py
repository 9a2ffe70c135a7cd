"""Elimination brackets: single, double (with an optional grand-final reset) and
multiplayer tables where the top q advance.

A bracket is a fixed list of matches whose two sides each come from a seed, or from the
winner or loser of an earlier match. Its progress is recomputed from results alone, so a
corrected result flows through. A missing seed is a bye: its opponent goes through without
playing. A seat that forfeited (``gone``) never advances, not even to the losers' bracket.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from bot.tournaments.pods import table_sizes
from bot.tournaments.results import Player, TableResult
from bot.tournaments.seeding import bracket_positions, bracket_size, snake


@dataclass(frozen=True)
class Source:
    kind: Literal["seed", "winner", "loser"]
    ref: int | str  # a seed (1-based) or a match id


@dataclass(frozen=True)
class BracketMatch:
    id: str
    stage: Literal["winners", "losers", "final", "reset"]
    round: int
    sides: tuple[Source, Source]


@dataclass(frozen=True)
class Bracket:
    seeds: tuple[Player, ...]  # in seed order: seeds[0] is seed 1
    matches: tuple[BracketMatch, ...]


@dataclass(frozen=True)
class BracketState:
    """Where a bracket stands: the matches ready to play (sides known, better seed
    first), each decided match's winner and loser (None: a bye or a forfeit), and the
    champion once there is one."""

    ready: tuple[tuple[str, tuple[Player, Player]], ...]
    decided: Mapping[str, tuple[Player | None, Player | None]]
    champion: Player | None
    finished: bool


def _winners_rounds(size: int) -> list[BracketMatch]:
    matches = []
    positions = bracket_positions(size)
    count, round = size // 2, 1
    while count:
        for index in range(count):
            if round == 1:
                sides = (
                    Source("seed", positions[2 * index]),
                    Source("seed", positions[2 * index + 1]),
                )
            else:
                sides = (
                    Source("winner", f"W{round - 1}-{2 * index + 1}"),
                    Source("winner", f"W{round - 1}-{2 * index + 2}"),
                )
            matches.append(BracketMatch(f"W{round}-{index + 1}", "winners", round, sides))
        count, round = count // 2, round + 1
    return matches


def single_elimination(seeds: Sequence[Player]) -> Bracket:
    if len(seeds) < 2:
        raise ValueError("a bracket needs two players")
    return Bracket(tuple(seeds), tuple(_winners_rounds(bracket_size(len(seeds)))))


def double_elimination(seeds: Sequence[Player], *, reset: bool = True) -> Bracket:
    """Winners' bracket, losers' bracket (a loss drops you there, a second loss ends your
    event), and a grand final between their champions. With ``reset``, a grand final won
    by the losers' champion (the winners' champion's first loss) is played again."""
    if len(seeds) < 2:
        raise ValueError("a bracket needs two players")
    size = bracket_size(len(seeds))
    winners = _winners_rounds(size)
    depth = size.bit_length() - 1  # winners' rounds
    losers: list[BracketMatch] = []
    if depth == 1:
        last_losers = Source("loser", "W1-1")
    else:
        count = size // 4
        round = 1
        for index in range(count):
            sides = (Source("loser", f"W1-{2 * index + 1}"), Source("loser", f"W1-{2 * index + 2}"))
            losers.append(BracketMatch(f"L1-{index + 1}", "losers", 1, sides))
        for wround in range(2, depth + 1):
            # Drop-in round: the losers' survivors meet the winners' round's losers, taken in
            # reverse on even rounds so that two who met already are not paired at once.
            previous = round
            round += 1
            dropping = [f"W{wround}-{index + 1}" for index in range(count)]
            if wround % 2 == 0:
                dropping.reverse()
            for index in range(count):
                sides = (
                    Source("winner", f"L{previous}-{index + 1}"),
                    Source("loser", dropping[index]),
                )
                losers.append(BracketMatch(f"L{round}-{index + 1}", "losers", round, sides))
            if wround == depth:
                break
            previous, round, count = round, round + 1, count // 2
            for index in range(count):
                sides = (
                    Source("winner", f"L{previous}-{2 * index + 1}"),
                    Source("winner", f"L{previous}-{2 * index + 2}"),
                )
                losers.append(BracketMatch(f"L{round}-{index + 1}", "losers", round, sides))
        last_losers = Source("winner", losers[-1].id)
    final = BracketMatch("GF", "final", 1, (Source("winner", winners[-1].id), last_losers))
    matches = [*winners, *losers, final]
    if reset:
        matches.append(
            BracketMatch("GF2", "reset", 2, (Source("winner", "GF"), Source("loser", "GF")))
        )
    return Bracket(tuple(seeds), tuple(matches))


@dataclass(frozen=True)
class Tree:
    """A bracket as a picture draws it: where it stands and its played matches' results."""

    bracket: Bracket
    state: BracketState
    results: Mapping[str, TableResult]


PENDING = object()  # a side whose earlier match is not decided yet


def table_winner(result: TableResult) -> Player | None:
    """The best placed seat that did not forfeit (ties go to the first seat, the better
    seed); None when every seat forfeited."""
    standing = [(place, index) for index, place in enumerate(result.places)]
    for _, index in sorted(standing):
        if result.players[index] not in result.gone:
            return result.players[index]
    return None


def progress(bracket: Bracket, results: Mapping[str, TableResult]) -> BracketState:
    """The bracket's state given the results of its played matches, keyed by match id."""
    decided: dict[str, tuple[Player | None, Player | None]] = {}
    ready: list[tuple[str, tuple[Player, Player]]] = []
    champion: Player | None = None
    finished = False
    seed_rank = {player: index for index, player in enumerate(bracket.seeds)}

    def side(source: Source) -> object:
        if source.kind == "seed":
            index = int(source.ref) - 1
            return bracket.seeds[index] if index < len(bracket.seeds) else None
        if source.ref not in decided:
            return PENDING
        winner, loser = decided[str(source.ref)]
        return winner if source.kind == "winner" else loser

    for match in bracket.matches:
        a, b = (side(source) for source in match.sides)
        if a is PENDING or b is PENDING:
            continue
        if match.stage == "reset":
            final_winner, _ = decided["GF"]
            final = next(m for m in bracket.matches if m.id == "GF")
            if final_winner is None or final_winner != side(final.sides[1]) or b is None:
                continue  # the winners' champion won (or nobody is left): no reset
        if a is None or b is None:  # a bye: the other side goes through unplayed
            decided[match.id] = (a if b is None else b, None)  # type: ignore[assignment]
            continue
        assert isinstance(a, int) and isinstance(b, int)
        result = results.get(match.id)
        if result is None:
            pair = (a, b) if seed_rank[a] < seed_rank[b] else (b, a)
            ready.append((match.id, pair))
            continue
        winner = table_winner(result)
        loser = next((p for p in (a, b) if p != winner and p not in result.gone), None)
        decided[match.id] = (winner, loser)

    last = bracket.matches[-1]
    if last.stage == "reset":
        if "GF2" in decided:
            champion, finished = decided["GF2"][0], True
        elif "GF" in decided and not any(match_id == "GF2" for match_id, _ in ready):
            champion, finished = decided["GF"][0], True
    elif last.id in decided:
        champion, finished = decided[last.id][0], True
    return BracketState(tuple(ready), decided, champion, finished)


def advancing(result: TableResult, count: int, seed_rank: Mapping[Player, int]) -> list[Player]:
    """The top ``count`` seats of a multiplayer table that did not forfeit, best first; a
    tie at the cut goes to the better seed."""
    alive = [p for p in result.players if p not in result.gone]
    alive.sort(key=lambda p: (result.place_of(p), seed_rank[p]))
    return alive[:count]


def advance_count(preferred: int) -> int:
    """How many of each multiplayer table go on by default: half the preferred size."""
    return max(1, preferred // 2)


@dataclass(frozen=True)
class MultiplayerRound:
    """One round of a multiplayer elimination: tables of seeds snaked across them (seed 1
    at table 1 seat 0, seed 2 at table 2 …), and the top seeds who pass it unplayed when
    no split of the field fits the game (a bye). ``final``: one table decides it all."""

    tables: tuple[tuple[Player, ...], ...]
    byes: tuple[Player, ...]
    final: bool


def multiplayer_round(
    seeds: Sequence[Player], *, preferred: int, minimum: int, maximum: int, advance: int
) -> MultiplayerRound:
    """The next round for ``seeds`` (in seed order): a final table once they fit at one
    of the preferred size, or fit at one and cannot fill two tables that each send some
    home. If forfeits left fewer than the game needs, nobody plays: the top seed among
    them wins (the only round with every player on a bye). Every other table seats more
    than ``advance``, so each round sends someone home."""
    if len(seeds) < minimum:
        return MultiplayerRound((), tuple(seeds), True)
    # Sixteen at an eight-seat game with tables of four: two rounds of four tables, then a
    # final of four, not a final of eight after the first round.
    if len(seeds) <= maximum and (len(seeds) <= preferred or len(seeds) < 2 * (advance + 1)):
        return MultiplayerRound((tuple(seeds),), (), True)
    sizes, byes = table_sizes(len(seeds), preferred, max(minimum, advance + 1), maximum)
    if not sizes:
        raise ValueError("every table must send fewer players on than it seats")
    tables = snake(seeds[byes:], sizes)
    return MultiplayerRound(tuple(tuple(t) for t in tables), tuple(seeds[:byes]), False)


def next_seeds(
    results: Sequence[TableResult],
    count: int,
    seeds: Sequence[Player],
    byes: Sequence[Player] = (),
) -> list[Player]:
    """Who goes on from a multiplayer round, in their new seed order: players with a bye
    first, then by place reached at their table, then by their previous seed."""
    rank = {player: index for index, player in enumerate(seeds)}
    going: list[tuple[int, int, Player]] = [(-1, rank[player], player) for player in byes]
    for result in results:
        for position, player in enumerate(advancing(result, count, rank)):
            going.append((position, rank[player], player))
    return [player for *_, player in sorted(going)]


@dataclass(frozen=True)
class PlayedRound:
    """A multiplayer elimination round as it was paired: its tables (seats in seat order),
    each one's result (None until decided), the byes, and whether it was the final."""

    tables: tuple[tuple[Player, ...], ...]
    results: tuple[TableResult | None, ...]
    byes: tuple[Player, ...] = ()
    final: bool = False


@dataclass(frozen=True)
class MultiplayerRun:
    """Where a multiplayer elimination stands: everyone best first, and who goes on to
    the next round in seed order (None while a table is undecided or after the final)."""

    order: tuple[Player, ...]
    going_on: tuple[Player, ...] | None


def _place(result: TableResult, player: Player) -> int:
    """A seat's place for the standings: one that forfeited is below every other."""
    return len(result.players) + 1 if player in result.gone else result.place_of(player)


@dataclass(frozen=True)
class PodRounds:
    """A multiplayer elimination as a picture draws it: round 1's field in seed order,
    the rounds paired so far, and how many of each table go on."""

    seeds: tuple[Player, ...]
    rounds: tuple[PlayedRound, ...]
    advance: int


def round_fields(pods: PodRounds) -> list[list[Player]]:
    """Each round's field in its seed order (what ``advancing`` breaks ties by): round 1's
    seeds, then who went on from each fully decided round."""
    fields = [list(pods.seeds)]
    for played in pods.rounds[:-1]:
        decided = [r for r in played.results if r is not None]
        fields.append(next_seeds(decided, pods.advance, fields[-1], played.byes))
    return fields


def multiplayer_run(
    seeds: Sequence[Player],
    rounds: Sequence[PlayedRound],
    advance: int,
    withdrawn: Collection[Player] = (),
) -> MultiplayerRun:
    """Replay the rounds from the first round's ``seeds``. The deeper a player got, the
    better; among those who left in the same round, those who went on come first (in
    their new seed order), then those sent home by their place at the table and their
    seed. A ``withdrawn`` player (dropped or disqualified) who went on from their last
    table is sent home there instead."""
    key: dict[Player, tuple[int, int, int, int]] = {}
    current: list[Player] = list(seeds)
    going: tuple[Player, ...] | None = tuple(seeds)
    for number, played in enumerate(rounds, start=1):
        rank = {player: index for index, player in enumerate(current)}
        decided = [r for r in played.results if r is not None]
        if len(decided) < len(played.tables):
            # Undecided: everyone in this round is still in, by seed.
            for player in [*played.byes, *(p for t in played.tables for p in t)]:
                key[player] = (number, 0, 0, rank[player])
            going = None
            break
        if played.final:
            for result in decided:
                for player in result.players:
                    key[player] = (number, 1, _place(result, player), rank[player])
            for player in played.byes:  # nobody left to sit: the top seed wins
                key[player] = (number, 0, 0, rank[player])
            going = None
            break
        nxt = next_seeds(decided, advance, current, played.byes)
        staying = [p for p in nxt if p not in withdrawn]
        for position, player in enumerate(staying):
            key[player] = (number, 0, 0, position)
        on = set(staying)
        for result in decided:
            for player in result.players:
                if player not in on:
                    key[player] = (number, 1, _place(result, player), rank[player])
        for player in played.byes:
            if player not in on:
                key[player] = (number, 1, 0, rank[player])
        current = nxt
        going = tuple(staying)
    seed_of = {player: index for index, player in enumerate(seeds)}
    unplaced = (0, 0, 0, 0)  # before the first round: in seed order
    order = sorted(
        dict.fromkeys([*seeds, *key]),
        key=lambda p: (-key.get(p, unplaced)[0], *key.get(p, unplaced)[1:], seed_of.get(p, 0)),
    )
    return MultiplayerRun(tuple(order), going)
