"""Pictures of tables and hands for Discord: drawn off the event loop, kept by what they show.

A game that is ``Picturing`` draws PNG bytes from a view (games/core/pictures.py). Drawing
one takes tens of milliseconds of CPU, far too long for the event loop, so it runs in a
process of its own (``PICTURE_PROCESSES``, bot/drawers.py), which is handed the game's key
and the table's view or the hand's scene. Threads of the bot's process would do (0
processes: the tests, which rig games in-process), but a thread drawing holds the GIL,
and each time the loop gives it up for a database call or a socket it waits up to the
interpreter's switch interval (5 ms) to take it back: under load a move then took a
hundred milliseconds longer.

A picture is kept by what it shows. A table's: the match, the state's version and how the
match stands (a cancelled table is drawn closed at the version it stopped at); a saved
version never changes, so a kept picture never needs proving against the database, and
several processes may each keep their own. A hand's: its scene (``hand_scene``: the cards
and the few lines the picture shows), so a hand that others' moves left alone, opened again
or answering a click, is not drawn again. A picture's words are in its reader's language
(a table's the server's, a hand's its player's, a replay page's its viewer's): one in another
language than English is kept under its key and that language, an English one under the key
alone, so a server that reads English keeps no more pictures than before. The cache is
bounded by bytes, oldest out first (``PICTURE_CACHE_MB``).

Pictures are a nicety: one that fails to draw, or would not fit Discord's attachment
limit, is logged and the message goes without it. The game never waits in a queue for
one. A hand view is a click's answer, so its picture goes to the drawers ahead of every
table's (whose edits are coalesced, off the clicks' path: they wait their turn); and when
other hands already wait for the drawers, it goes as text this time rather than queue.
Without that order, under load a click waited behind a backlog of table pictures and its
answer came three times later than without pictures.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from concurrent.futures import BrokenExecutor
from functools import partial
from typing import Any, cast

from pydantic import BaseModel

from bot.drawers import Drawers, DrawingThreads
from bot.service import SeatView
from bot.timing import GuildSettings
from games.core.pictures import DISCORD_LIMIT
from games.core.protocol import Game, Picturing
from games.core.translations import ENGLISH

log = logging.getLogger(__name__)

# A table's: (match, version, None, how the match stands or "replay"); a hand's is its scene.
PictureKey = tuple[str, int, int | None, str]

DRAWERS = 2  # threads drawing at once, without processes: more would take the loop's turns
BACKLOG = 2  # hand pictures waiting for a drawer past which a hand view goes without one
# Seconds a hand view waits for its picture before it goes without (the drawing goes on,
# and the picture follows in an edit): a drawing process short of CPU never holds a click.
HAND_WAIT = 0.02
# Seconds a table's edit waits for its picture before it goes with the picture it shows (the
# new one follows in the next edit): under load the table's text never lags for a picture.
TABLE_WAIT = 0.5


class PictureLate(Exception):
    """A table's picture was not drawn within TABLE_WAIT: the message keeps the picture it
    shows, and the caller is told (``late``) once the new one is drawn."""


# The order in which waiting pictures go to the drawers: a hand answering a click, a hand
# followed for a ping (the turn came to its seat), a table (its edits are coalesced).
HAND, FOLLOW, TABLE = 0, 1, 2


def draw_by_key(game_key: str, table: bool, shown: Any, language: str = ENGLISH) -> bytes | None:
    """In a drawing process: the game by its key (the process loads the same catalogues,
    from the same environment, as the bot), the table's view or the hand's scene, and the
    language of the words drawn."""
    from games import GAMES

    game = GAMES[game_key]
    assert isinstance(game, Picturing)
    return game.table_picture(shown, language) if table else game.draw_hand(shown, language)


class Superseded(Exception):
    """A table drawing that waited for a drawer until a newer one of the table came."""


def table_of(key: Hashable) -> str | None:
    """The match a table picture's key shows (``picture_key``); None for a hand's."""
    if isinstance(key, tuple) and len(key) == 2 and isinstance(key[0], tuple):
        key = key[0]  # the same table in another language (``Pictures.picture``)
    if isinstance(key, tuple) and len(key) == 4 and key[2] is None:
        return str(key[0])
    return None


def _tell_if_drawn(late: Callable[[], None], drawing: asyncio.Future[bytes | None]) -> None:
    if not drawing.cancelled() and drawing.exception() is None and drawing.result() is not None:
        late()


_DRAWS: dict[str, bool] = {}


def draws(game: Game) -> bool:
    """Whether ``game`` draws pictures (a protocol check reads every attribute: asked at
    every message, it is kept per game)."""
    known = _DRAWS.get(game.key)
    if known is None:
        known = _DRAWS[game.key] = isinstance(game, Picturing)
    return known


def picture_key(seen: SeatView) -> PictureKey:
    """What the table picture of this view shows: the match as it stood at this version."""
    return (seen.match.match_id, seen.version, None, seen.match.status)


class PictureCache:
    """PNG bytes by what they show, within ``budget`` bytes: the least recently used leave
    first. A picture larger than the whole budget is not kept."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.size = 0
        self._kept: OrderedDict[Hashable, bytes] = OrderedDict()

    def __len__(self) -> int:
        return len(self._kept)

    def get(self, key: Hashable) -> bytes | None:
        png = self._kept.get(key)
        if png is not None:
            self._kept.move_to_end(key)
        return png

    def put(self, key: Hashable, png: bytes) -> None:
        if len(png) > self.budget:
            return
        old = self._kept.pop(key, None)
        self.size += len(png) - (len(old) if old is not None else 0)
        self._kept[key] = png
        while self.size > self.budget:
            _, dropped = self._kept.popitem(last=False)
            self.size -= len(dropped)


class Pictures:
    """Draws and keeps the pictures one process sends. ``settings_of`` gives a server's
    settings (as this process knows them: ``/settings pictures:`` takes effect at the next
    message)."""

    def __init__(
        self,
        settings_of: Callable[[int], Awaitable[GuildSettings]],
        budget_mb: float = 32.0,
        *,
        drawing: bool = True,
        processes: int = 0,
        hand_wait: float | None = HAND_WAIT,
        table_wait: float | None = TABLE_WAIT,
    ) -> None:
        self.settings_of = settings_of
        self.on = drawing  # False: this process sends no pictures (PICTURES=false)
        self.cache = PictureCache(int(budget_mb * 1024 * 1024))
        # Pictures being drawn: a second ask for one waits for the same drawing.
        self._drawing: dict[Hashable, asyncio.Future[bytes | None]] = {}
        self.processes = processes
        self.hand_wait = hand_wait
        self.table_wait = table_wait
        self._drawers = self._new_drawers()
        self._busy = 0  # drawings handed to the drawers and not back yet
        # Drawings waiting for a drawer: (HAND, FOLLOW or TABLE, arrival, the table it
        # shows or None, draw, its future).
        self._waiting: list[
            tuple[int, int, str | None, Callable[[], bytes | None], asyncio.Future]
        ] = []
        self._arrivals = itertools.count()
        self.skipped = 0  # hand asks that went without: not drawn, or drawn too late
        # Hand views answering a click: with their picture, and without (drawn late).
        self.answered = self.answered_without = 0

    async def wanted(self, guild_id: int, game: Game) -> bool:
        """Whether messages of this server's matches of ``game`` carry pictures."""
        if not self.on or not draws(game):
            return False
        return (await self.settings_of(guild_id)).pictures

    async def picture(
        self,
        guild_id: int,
        game: Game,
        view: BaseModel,
        key: PictureKey,
        *,
        answer: bool = False,
        late: Callable[[], None] | None = None,
        language: str = ENGLISH,
    ) -> bytes | None:
        """The table picture ``key`` names, drawn from ``view`` (any seat's view or a
        spectator's) with its words in ``language``; None when the server or the game has
        none. As a click's ``answer`` it waits like a hand; with ``late``, TABLE_WAIT at
        most (then ``PictureLate``)."""
        if not await self.wanted(guild_id, game):
            return None
        drawing = cast(Picturing, game)  # ``wanted``: it draws
        if self.processes:
            draw = partial(draw_by_key, game.key, True, view, language)
        else:
            draw = partial(drawing.table_picture, view, language)
        kept: Hashable = key if language == ENGLISH else (key, language)
        return await self.drawn(kept, draw, order=HAND if answer else TABLE, late=late)

    async def hand(
        self,
        guild_id: int,
        game: Game,
        view: BaseModel,
        *,
        answer: bool = True,
        then: Callable[[], None] | None = None,
        language: str = ENGLISH,
    ) -> bytes | None:
        """The hand picture of a seat's ``view``, its words in ``language`` (``answer``: to
        a click; else followed for a ping); None for a spectator, when the server or the
        game has none, or when the drawers are too far behind to wait for them. ``then`` is
        called when a picture the view went without is drawn after all."""
        if not await self.wanted(guild_id, game):
            return None
        drawing = cast(Picturing, game)  # ``wanted``: it draws
        scene = drawing.hand_scene(view)
        if scene is None:
            return None
        if self.processes:
            draw = partial(draw_by_key, game.key, False, scene, language)
        else:
            draw = partial(drawing.draw_hand, scene, language)
        order = HAND if answer else FOLLOW
        kept = (game.key, scene) if language == ENGLISH else (game.key, scene, language)
        png = await self.drawn(kept, draw, order=order, late=then)
        if answer:
            self.answered += png is not None
            self.answered_without += png is None
        return png

    def _new_drawers(self) -> Drawers | DrawingThreads:
        return Drawers(self.processes) if self.processes else DrawingThreads(DRAWERS)

    def start(self) -> None:
        """Start the drawing processes now, so the first table waits for no interpreter to
        start and load the games (a second or two)."""
        if self.on:
            self._drawers.start()

    def close(self) -> None:
        """Stop drawing (the bot is closing): what waits is dropped, the processes end."""
        for *_, future in self._waiting:
            future.cancel()
        self._waiting.clear()
        self._drawers.close()

    async def drawn(
        self,
        key: Hashable,
        draw: Callable[[], bytes | None],
        *,
        order: int = TABLE,
        late: Callable[[], None] | None = None,
    ) -> bytes | None:
        """The picture ``key`` names, from the cache or drawn in turn (``order``). A hand
        goes without when the drawers are behind: an answer when BACKLOG answers wait
        already, a followed hand when anything waits; either waits ``hand_wait`` at most,
        and only when the drawers were idle; ``late`` is told when it is drawn after all.
        A table with ``late`` waits ``table_wait`` at most (see ``PictureLate``)."""
        png = self.cache.get(key)
        if png is not None:
            return png
        # A click's answer waits only for a drawer with nothing else to do.
        idle = not self._busy and not self._waiting
        pending = self._drawing.get(key)
        if pending is None:
            if (order == HAND and self._answers_waiting() >= BACKLOG) or (
                order == FOLLOW and self._waiting
            ):
                self.skipped += 1
                return None
            # Queued now, not when the task first runs: the next ask counts it waiting.
            queued = self._queued(draw, order, table_of(key) if order == TABLE else None)
            pending = asyncio.ensure_future(self._draw(key, queued))
            self._drawing[key] = pending
            pending.add_done_callback(lambda _: self._drawing.pop(key, None))
        if order == TABLE:
            if late is None or self.table_wait is None:
                return await asyncio.shield(pending)
            try:
                return await asyncio.wait_for(asyncio.shield(pending), self.table_wait)
            except TimeoutError:
                pending.add_done_callback(partial(_tell_if_drawn, late))
                raise PictureLate(key) from None
        if self.hand_wait is None:
            return await asyncio.shield(pending)
        try:
            if not idle:
                # Not even a zero wait: any await costs the click a turn of the event
                # loop, and under load a turn takes milliseconds.
                raise TimeoutError
            return await asyncio.wait_for(asyncio.shield(pending), self.hand_wait)
        except TimeoutError:
            self.skipped += 1
            if late is not None:
                pending.add_done_callback(partial(_tell_if_drawn, late))
            return None

    def _answers_waiting(self) -> int:
        return sum(1 for order, *_ in self._waiting if order == HAND)

    def _queued(
        self, draw: Callable[[], bytes | None], order: int, table: str | None = None
    ) -> asyncio.Future:
        """``draw``'s result, once a drawer took it in turn: hands first, then by arrival.
        A ``table``'s drawing still waiting is superseded by its newer one: drawers short
        of CPU (a busy machine, the niced process) once let every table's drawings pile up,
        each holding its view, and the bot's memory grew by the minute."""
        if table is not None:
            kept = []
            for item in self._waiting:
                if item[2] == table:
                    if not item[-1].done():
                        item[-1].set_exception(Superseded())
                else:
                    kept.append(item)
            if len(kept) < len(self._waiting):
                heapq.heapify(kept)
                self._waiting = kept
        future: asyncio.Future = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiting, (order, next(self._arrivals), table, draw, future))
        self._hand_out()
        return future

    def _hand_out(self) -> None:
        while self._busy < self._drawers.slots and self._waiting:
            item = heapq.heappop(self._waiting)
            *_, draw, future = item
            if future.done():  # cancelled while it waited
                continue
            try:
                drawing = self._drawers.draw(draw)
            except Exception as exc:  # drawers shut down or broken: the caller handles it
                future.set_exception(exc)
                continue
            if drawing is None:  # no process takes it now: it waits for an answer
                heapq.heappush(self._waiting, item)
                return
            self._busy += 1
            drawing.add_done_callback(partial(self._drawn, future))

    def _drawn(self, future: asyncio.Future, drawing: asyncio.Future) -> None:
        self._busy -= 1
        if not future.done():
            if drawing.cancelled():
                future.cancel()
            elif (error := drawing.exception()) is not None:
                future.set_exception(error)
            else:
                future.set_result(drawing.result())
        elif not drawing.cancelled():
            drawing.exception()  # retrieved: nobody waits for this one any more
        self._hand_out()

    async def _draw(self, key: Hashable, queued: asyncio.Future) -> bytes | None:
        try:
            png = await queued
        except Superseded:
            return None  # the table's newer drawing shows it
        except BrokenExecutor:
            # A drawing process died (killed for memory, a crash in a library): start
            # others, or no picture would ever be drawn again.
            log.warning("a picture process died; starting another", exc_info=True)
            self._drawers.close()
            self._drawers = self._new_drawers()
            return None
        except Exception:
            # A drawing bug must not stop the game: the text says everything too.
            log.warning("could not draw the picture %s; sending without it", key, exc_info=True)
            return None
        if png is None:
            return None
        if len(png) > DISCORD_LIMIT:
            log.warning("the picture %s is %d bytes, over Discord's limit", key, len(png))
            return None
        self.cache.put(key, png)
        return png
