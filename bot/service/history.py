"""Finished matches: the server's history, exports, and replays recomputed from the log.

A replay is never read from stored snapshots: it is the seed, the options and the action
log run through the game again (``games.core.replay``), so it works for every match ever
saved, including those played before replays existed. The seed and the hands are secrets
of a match until it ends, so only finished matches are exported or replayed.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime

from bot.errors import UserError
from bot.service.base import LAST_HELD_KEPT, SeatView, ServiceBase, match_outcome
from bot.store import MatchRecord
from bot.store.models import GONE
from games.core.protocol import Game, GameState
from games.core.replay import (
    ExportedAction,
    ExportedSeat,
    Frame,
    MatchExport,
    ReplayError,
    replay,
    states,
)
from games.core.text import t
from games.core.views import TableView

log = logging.getLogger(__name__)

HISTORY_PAGE = 6  # matches per /history page
REPLAYS_KEPT = 8  # replays kept computed in memory (finished matches never change)


class NoSuchFinishedMatch(UserError):
    def __init__(self) -> None:
        super().__init__(
            t(
                "There is no finished match with that id on this server; pick one from the "
                "list or from /history."
            )
        )


class StillRunning(UserError):
    def __init__(self) -> None:
        super().__init__(
            t(
                "That match is still being played: its seed and hands stay secret until it "
                "ends. Replay or export it once it is over."
            )
        )


class NeverFinished(UserError):
    def __init__(self, status: str) -> None:
        if status == "lobby":
            super().__init__(
                t("That match never started, so there is nothing to replay; see /history.")
            )
        else:
            super().__init__(
                t(
                    "That match was cancelled before it ended, so there is nothing to replay; "
                    "see /history."
                )
            )


@dataclass(frozen=True)
class PastMatch:
    """One line of /history."""

    record: MatchRecord
    game_name: str
    # (place, name, score as the game counts it: "$1.2M", "3 cards left", "" where the
    # place says it all), best first
    standings: tuple[tuple[int, str, str], ...]
    moves: int
    started_at: float | None  # the first move
    finished_at: float | None


@dataclass(frozen=True)
class HistoryPage:
    entries: tuple[PastMatch, ...]
    page: int  # from 0
    pages: int
    total: int


@dataclass(frozen=True)
class Replay:
    record: MatchRecord
    frames: tuple[Frame, ...]


class History(ServiceBase):
    """Reads of finished matches; mixed into ``MatchService``."""

    async def history(
        self,
        guild_id: int,
        *,
        game: str | None = None,
        user_id: int | None = None,
        page: int = 0,
    ) -> HistoryPage:
        total = await self.store.count_finished(guild_id, game=game, user_id=user_id)
        pages = max(1, -(-total // HISTORY_PAGE))
        page = max(0, min(page, pages - 1))
        records = await self.store.finished_matches(
            guild_id, game=game, user_id=user_id, limit=HISTORY_PAGE, offset=page * HISTORY_PAGE
        )
        firsts = await self.store.first_moves([r.match_id for r in records])
        entries = tuple(self._past(r, firsts.get(r.match_id)) for r in records)
        return HistoryPage(entries=entries, page=page, pages=pages, total=total)

    def _past(self, record: MatchRecord, first: datetime | None) -> PastMatch:
        game = self.games.get(record.game)
        standings: tuple[tuple[int, str, str], ...] = ()
        if game is not None and record.state is not None:
            state = game.load_state(record.state)
            outcome = match_outcome(record, game, state)
            # A seat a bot played on after its player left for good: the place is the
            # seat's, not the player's (their rating and /stats rank them last).
            names = {
                s.seat: t("{name} (left)", name=s.name) if s.away == GONE else s.name
                for s in record.seats
            }
            if outcome is not None:
                standings = tuple(
                    (p.place, names.get(p.seat, "?"), game.score_text(state, p))
                    for p in outcome.placements
                )
        return PastMatch(
            record=record,
            game_name=game.name if game is not None else record.game,
            standings=standings,
            moves=record.version,
            started_at=first.timestamp() if first is not None else None,
            finished_at=record.finished_at,
        )

    async def recent_finished(self, guild_id: int, typed: str, limit: int = 25) -> list[PastMatch]:
        """For autocomplete: the newest finished matches whose line mentions ``typed``."""
        records = await self.store.finished_matches(guild_id, limit=200)
        needle = typed.strip().lower()
        found = []
        for record in records:
            game = self.games.get(record.game)
            words = " ".join(
                [
                    record.match_id,
                    record.game,
                    game.name if game else "",
                    *(s.name for s in record.seats),
                ]
            ).lower()
            if needle in words:
                found.append(self._past(record, None))
            if len(found) >= limit:
                break
        return found

    async def finished_match(self, guild_id: int, match_id: str) -> MatchRecord:
        record = await self.store.get(match_id.strip().lower())
        if record is None or record.guild_id != guild_id or record.game not in self.games:
            raise NoSuchFinishedMatch()
        if record.status == "active":
            raise StillRunning()
        if record.status != "finished" or record.seed is None:
            raise NeverFinished(record.status)
        return record

    async def export(self, guild_id: int, match_id: str) -> MatchExport:
        record = await self.finished_match(guild_id, match_id)
        return await self._export(record)

    async def _export(self, record: MatchRecord) -> MatchExport:
        assert record.seed is not None
        logged = await self.store.actions(record.match_id)
        return MatchExport(
            match_id=record.match_id,
            game=record.game,
            options=json.loads(record.options),
            seed=record.seed,
            seats=[
                ExportedSeat(
                    seat=s.seat,
                    name=s.name,
                    bot=s.is_bot,
                    gone=s.away == GONE,
                    level=s.level if s.is_bot else None,
                )
                for s in record.seats
            ],
            actions=[
                ExportedAction(seq=a.seq, seat=a.seat, action=a.action, at=a.at.timestamp())
                for a in logged
            ],
            status=record.status,
            finished_at=record.finished_at,
        )

    async def replay(self, guild_id: int, match_id: str) -> Replay:
        """Every frame of a finished match, recomputed from seed, options and actions."""
        # Created on first use rather than in ServiceBase.__init__: this part stands alone.
        cache: OrderedDict[str, Replay] = self.__dict__.setdefault("_replays", OrderedDict())
        hit = cache.get(match_id)
        if hit is not None and hit.record.guild_id == guild_id:
            cache.move_to_end(match_id)
            return hit
        record = await self.finished_match(guild_id, match_id)
        export = await self._export(record)
        game = self.game_of(record)
        try:
            # A long match takes a moment to recompute: off the event loop.
            frames = await asyncio.to_thread(replay, game, export)
        except ReplayError as exc:
            log.error("match %s does not replay: %s", record.match_id, exc)
            raise UserError(
                t("This match's log could not be replayed; please report it.")
            ) from None
        if frames[-1].state.model_dump_json() != record.state:
            log.error("the replay of match %s differs from its saved state", record.match_id)
        found = Replay(record=record, frames=tuple(frames))
        cache[record.match_id] = found
        while len(cache) > REPLAYS_KEPT:
            cache.popitem(last=False)
        return found

    # --- the last hand of a finished match ---------------------------------------------
    async def last_held(self, seen: SeatView) -> SeatView:
        """A finished match that left the player empty-handed (every card played, or out
        of the game): the view of the last hand they held, found by replaying the match's
        log from its seed (the same seed and actions give the same states)."""
        if seen.seat is None or seen.match.status != "finished" or seen.match.seed is None:
            return seen
        if not (isinstance(seen.view, TableView) and seen.view.empty_handed):
            return seen
        key = (seen.match.match_id, seen.seat)
        if key not in self._last_held:
            await self._replay_last_hands(seen)
        # .get: on a very busy bot other matches' hands may have pushed it out already.
        text = self._last_held.get(key)
        if text is None:
            return seen
        return SeatView.of(seen.match, seen.game, seen.game.load_state(text), seen.seat)

    async def _replay_last_hands(self, seen: SeatView) -> None:
        """One replay of the match for every seat it left empty-handed, however many of
        them ask at once: at the end of a game that empties every hand all the players
        tend to look, and a replay each (on threads fighting the event loop for the GIL)
        was a quarter of the bot's CPU under load."""
        match_id = seen.match.match_id
        replaying = self._last_hands_replaying.get(match_id)
        if replaying is None:
            replaying = self._last_hands_replaying[match_id] = asyncio.ensure_future(
                self._replay_last_hands_now(seen)
            )
            replaying.add_done_callback(lambda _: self._last_hands_replaying.pop(match_id, None))
        # Shielded: one asker giving up does not cancel the replay the others wait for.
        await asyncio.shield(replaying)

    async def _replay_last_hands_now(self, seen: SeatView) -> None:
        export = await self._export(seen.match)
        try:
            # Pure and CPU-bound (a long match is a thousand moves): off the event loop.
            held = await asyncio.to_thread(_last_hands, seen.game, export)
        except ReplayError as exc:
            # The final view stands in; the same fault in /replay tells the player.
            log.error("match %s does not replay: %s", seen.match.match_id, exc)
            return
        for seat, text in held.items():
            self._last_held[(seen.match.match_id, seat)] = text
        while len(self._last_held) > LAST_HELD_KEPT:
            self._last_held.popitem(last=False)


def _empty_handed(game: Game, state: GameState, seat: int) -> bool:
    view = game.view(state, seat)
    return isinstance(view, TableView) and view.empty_handed


def _last_hands(game: Game, export: MatchExport) -> dict[int, str | None]:
    """For each seat the match left empty-handed, the JSON of the last state in which it
    held cards (None: it never did). One replay, then a walk back from the end for each
    seat: a hand usually empties near the end, so few views are built."""
    *before_each, final = states(game, export)  # the state each move was played on, the end
    held: dict[int, str | None] = {}
    for seat in (s.seat for s in export.seats):
        if not _empty_handed(game, final, seat):
            continue
        last = next((s for s in reversed(before_each) if not _empty_handed(game, s, seat)), None)
        held[seat] = last.model_dump_json() if last is not None else None
    return held
