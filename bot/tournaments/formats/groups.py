"""Group stages, for slow events across time zones (chess.com's Daily tournaments): the
field dealt into groups, every table of every group started at once (a player sits at
several), the best of each group regrouped for the next round, until one group plays the
last round and its winner wins.

A group's tables carry the group in their bracket id (``group-2``; the last round's one
group ``final``), so the groups of a round are read back from what is stored."""

from __future__ import annotations

from fractions import Fraction

from bot.errors import UserError
from bot.tournaments.formats.base import MultiplayerFormat
from bot.tournaments.groups import (
    MOST_IN_TWO_PLAYER_GROUP,
    NOT_STARTED,
    Group,
    GroupRounds,
    Reached,
    deal,
    group_sizes,
    group_tables,
    most_in_group,
    reached,
)
from bot.tournaments.progress import Pairing, Progress, to_table_result
from bot.tournaments.results import Player
from bot.tournaments.standings import Standing, pod_standings
from games.core.text import Text, t
from games.core.words import place as placed

FINAL = "final"
SLOW_PACES = ("async", "correspondence")


def group_id(number: int) -> str:
    return f"group-{number}"


class Groups(MultiplayerFormat):
    key = "groups"
    label = t("Group stages (slow: groups play all their tables at once, the best go on)")
    short = t("Group stages")
    options = frozenset({"advance", "group_size", "scores"})
    no_late_entry = t("A group event's groups are drawn at the start: no late entries.")
    seeded_at_start = True
    bye = "pass"
    tables_at_once = True
    default_pace = "async"

    def check_game(self) -> None:
        return None  # two-player games play round robins in their groups, others tables

    @property
    def table_size(self) -> int:
        """Seats a table: two for a two-player game, else the pod size."""
        return 2 if self.game.max_players == 2 else self.pod_size

    @property
    def least_at_table(self) -> int:
        return max(2, self.game.min_players)

    @property
    def group_size(self) -> int:
        """The organiser's, else 4 for two-player games (3 games each at once), else two
        more than a table, at most 8, so each pair meets at one table or more."""
        if self.config.group_size is not None:
            return self.config.group_size
        if self.table_size == 2:
            return 4
        return max(self.table_size, min(self.table_size + 2, 8))

    @property
    def most_in_group(self) -> int:
        """The largest group: 6 for a two-player game (its round robin's tables are each a
        thread, all started at once), else 12."""
        return most_in_group(self.table_size)

    @property
    def advance(self) -> int:
        """How many of each group go on: the organiser's, else 2 (1 from groups of 3 or
        fewer)."""
        if self.config.advance is not None:
            return self.config.advance
        return 2 if self.group_size >= 4 else 1

    def check(self) -> None:
        config, game, size = self.config, self.game, self.group_size
        if config.rounds is not None:
            raise UserError(t("A group event plays until one group is left: leave rounds out."))
        if config.pace not in SLOW_PACES:
            raise UserError(
                t(
                    "Group events are played slowly, several tables at once: pick the async "
                    "or correspondence pace."
                )
            )
        if size < self.least_at_table:
            raise UserError(
                t(
                    "{game} needs {least} or more at a table, so a group needs {least} or "
                    "more players.",
                    game=game.name,
                    least=self.least_at_table,
                )
            )
        if self.table_size == 2 and size > MOST_IN_TWO_PLAYER_GROUP:
            most = MOST_IN_TWO_PLAYER_GROUP
            raise UserError(
                t(
                    "A group of a two-player game holds {most} players at most: its {tables} "
                    "games all start at once, each in a thread of its own.",
                    most=most,
                    tables=most * (most - 1) // 2,
                )
            )
        if size > self.most_in_group:
            raise UserError(
                t(
                    "A group holds {most} players at most: every table of a group is played "
                    "at once.",
                    most=self.most_in_group,
                )
            )
        if size < self.table_size:
            raise UserError(
                t(
                    "Groups of {size} cannot fill tables of {seats}: make the groups {seats} "
                    "or larger, or the tables smaller.",
                    size=size,
                    seats=self.table_size,
                )
            )
        if self.advance >= size:
            raise UserError(
                t(
                    "Fewer than a whole group must go on: with groups of {size}, advance 1 "
                    "to {most}.",
                    size=size,
                    most=size - 1,
                )
            )

    # --- its shape -------------------------------------------------------------------------
    def going_on_count(self, members: int) -> int:
        """How many of a group of ``members`` go on: never the whole group."""
        return max(1, min(self.advance, members - 1))

    def rounds(self, players: int) -> int | None:
        """Group rounds until one group holds everyone left (drops may end it sooner)."""
        count, left = 1, max(players, 2)
        while len(sizes := self.sizes(left)) > 1:
            going = sum(self.going_on_count(size) for size in sizes)
            count, left = count + 1, max(going, self.least_at_table)
        return count

    def sizes(self, players: int) -> list[int]:
        """The groups ``players`` are dealt into."""
        return group_sizes(players, self.group_size, self.least_at_table, self.most_in_group)

    def seats_in(self, members: int) -> int:
        """Seats a table of a group of ``members``: the format's table, or in a group no
        bigger than one table, one seat fewer (so the group still plays a schedule, each
        member at several tables), never below three; else the group at one table."""
        seats = self.table_size
        if members > seats:
            return seats
        fewer = members - 1
        if seats > 2 and fewer >= max(3, self.game.min_players):
            return fewer
        return members

    # --- groups ----------------------------------------------------------------------------
    def groups(self, p: Progress, number: int) -> list[Group]:
        """Round ``number``'s groups as stored, each ordered by its own tables' results of
        the round (place scores, then the pods' tiebreakers), and who goes on."""
        seated: dict[str, list[Player]] = {}
        undecided: set[str] = set()
        decided = {(r.round, r.table_no) for r in p.results}
        for table in sorted(p.tables, key=lambda x: x.table_no):
            if table.round == number and table.bracket_id:
                members = seated.setdefault(table.bracket_id, [])
                members += [q for q in table.seats if q not in members]
                if (table.round, table.table_no) not in decided:
                    undecided.add(table.bracket_id)
        at = {(x.round, x.table_no): x.bracket_id for x in p.tables}
        gone = set(p.withdrawn)
        found = []
        for index, (name, members) in enumerate(
            sorted(seated.items(), key=lambda item: group_order(item[0])), start=1
        ):
            results = [
                to_table_result(r)
                for r in p.results
                if r.round == number and at.get((r.round, r.table_no)) == name
            ]
            standings = pod_standings(
                sorted(members), results, p.seed, number, dropped=gone, scoring=self.scoring
            )
            # Who left (or forfeited and was dropped) goes on from nowhere: the next best do.
            staying = [s.player for s in standings if s.player not in gone]
            final, playing = name == FINAL, name in undecided
            going = staying[: 1 if final else self.going_on_count(len(members))]
            found.append(
                Group(index, tuple(standings), tuple(going), final, playing, bool(results))
            )
        return found

    def pair(self, p: Progress, number: int) -> Pairing:
        """Round 1 deals the field by the lot (or the ratings read at the start); later
        rounds deal who went on, each group's winners first, so groups' winners are spread
        across the new groups. One group left: the last round."""
        entered = set(p.active)
        if number == 1:
            drawn = self.seed_draw(p, sorted(p.active))
            order = sorted(p.active, key=drawn.__getitem__)
        else:
            before = self.groups(p, number - 1)
            ranked = sorted(
                (
                    (place, -s.points, group.number, s.player)
                    for group in before
                    for place, s in enumerate(group.standings)
                    if s.player in group.going_on
                ),
            )
            order = [q for *_, q in ranked if q in entered]
            if len(order) < self.least_at_table:
                # Leavers cost the last round its table: the best of the rest fill it.
                rest = [
                    s.player
                    for group in before
                    for s in group.standings
                    if s.player in entered and s.player not in order
                ]
                order += rest[: self.least_at_table - len(order)]
        dealt = deal(order, self.group_size, self.least_at_table, self.most_in_group)
        final = len(dealt) == 1
        tables: list[tuple[Player, ...]] = []
        brackets: list[str | None] = []
        for number_in_round, members in enumerate(dealt, start=1):
            seated = group_tables(members, self.seats_in(len(members)))
            tables += seated
            brackets += [FINAL if final else group_id(number_in_round)] * len(seated)
        return Pairing(FINAL if final else "groups", tables, [], brackets)

    def is_over(self, p: Progress) -> bool:
        """After the last group's round, or once too few are left to seat a table (the
        next round's groups fill from the best of the rest while a table can be seated)."""
        played = [x for x in p.tables if x.round == p.round]
        return any(x.bracket_id == FINAL for x in played) or self.too_few_left(p)

    def ranked(self, p: Progress) -> list[Player]:
        """Everyone by the round they reached (the later first), those who left it last,
        then their place in their group there, then their points: once the last group has
        played, the final order; before, the order so far."""
        order: list[Player] = []
        gone = set(p.withdrawn)
        for number in range(p.round, 0, -1):
            groups = self.groups(p, number)
            # Who left (dropped, disqualified, forfeited and dropped) goes below everyone
            # who played the round out.
            by_place = sorted(
                (s.player in gone, place, -s.points, group.number, s.player)
                for group in groups
                for place, s in enumerate(group.standings)
            )
            order += [q for *_, q in by_place if q not in order]
        listed = set(p.players)
        return [q for q in order if q in listed]

    def decided_top(self, p: Progress) -> list[Player]:
        """Once the last group has played: ``ranked``."""
        if p.status == "signup" or not p.round or not self.over_for_good(p):
            return []
        return self.ranked(p)

    def standings(self, p: Progress) -> list[Standing]:
        """Once groups are drawn: everyone in ``ranked`` order, each with their points in
        the round they reached (a total over rounds would contradict the order: a later
        round's last beats an earlier round's best) and no tiebreakers (a group's own
        tiebreakers placed them in it; ``standing_notes`` says where that was)."""
        stages = self.drawn_bracket(p)
        if stages is None:
            return super().standings(p)
        where = reached(stages)
        order = self.ranked(p)
        order += sorted(q for q in p.players if q not in order)
        gone = set(p.withdrawn)
        found: list[Standing] = []
        tied: dict[tuple[int, int], int] = {}
        for rank, q in enumerate(order, start=1):
            at = where.get(q)
            undecided = at is not None and not at.group.started
            if undecided:
                # A group with no result has no order: its members share its first rank.
                rank = tied.setdefault((at.round, at.group.number), rank)
            points = at.points if at is not None else Fraction(0)
            found.append(Standing(rank, q, points, (), q in gone, undecided))
        return found

    def standing_notes(self, p: Progress) -> dict[Player, Text]:
        """What explains each place: the round reached, its group and the place in it."""
        stages = self.drawn_bracket(p)
        if stages is None:
            return {}
        return {q: reached_words(r) for q, r in reached(stages).items()}

    def over_for_good(self, p: Progress) -> bool:
        """The event's last round has every result (the standings may say who won)."""
        last = [x for x in p.tables if x.round == p.round]
        decided = {(r.round, r.table_no) for r in p.results}
        return (
            bool(last) and all((x.round, x.table_no) in decided for x in last) and self.is_over(p)
        )

    def drawn_bracket(self, p: Progress) -> GroupRounds | None:
        """Every round's groups, as the group picture draws them."""
        if p.status == "signup" or not p.round:
            return None
        return GroupRounds(tuple(tuple(self.groups(p, n)) for n in range(1, p.round + 1)))

    def describe(self, signup: bool) -> list[tuple[str, str]]:
        return [
            (
                t("Groups"),
                t(
                    "groups of {size}, every table of a group played at once (tables of "
                    "{seats}); the best {advance} of each group go on, regrouped, until one "
                    "group plays the last round",
                    size=self.group_size,
                    seats=self.table_size,
                    advance=self.advance,
                ),
            )
        ]


def reached_words(where: Reached) -> Text:
    """ "Round 2, group 1: 3rd": where a player's place in the standings comes from."""
    if not where.group.started:
        place: Text = NOT_STARTED
    else:
        place = placed(where.place)
    if where.group.final:
        return t("Round {round}, last group: {place}", round=where.round, place=place)
    return t(
        "Round {round}, group {n}: {place}", round=where.round, n=where.group.number, place=place
    )


def group_order(name: str) -> int:
    return 0 if name == FINAL else int(name.removeprefix("group-"))
