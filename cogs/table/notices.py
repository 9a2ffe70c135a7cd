"""What the bot says in a match's channel besides the table and the pings: the end of a
match, a timeout, a reminder; the thread's name; direct messages for those who asked."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import partial
from typing import TYPE_CHECKING

import discord

from bot.service import Change, settings_of
from bot.service.base import match_outcome
from bot.store import MatchRecord
from bot.store.models import GONE, STANDING_IN, SeatRecord
from cogs import render
from cogs.components import components_view
from cogs.speech import label, languages, say
from cogs.table.base import Part
from cogs.table.buttons import TableButton
from cogs.table.posting import Poster, with_retries
from games.core.protocol import Game, GameState
from games.core.text import Names, Text, t, tc, tn

if TYPE_CHECKING:
    from bot.client import CookieJar

log = logging.getLogger(__name__)


# Timeouts this close together (the service's clock, in seconds) are of one decision that
# several seats let run out: the scheduler plays them one after another.
TIMEOUTS_TOGETHER = 10.0


@dataclass(frozen=True)
class TimeoutNotice:
    """The last timeout notice of a match: edited to add the next seat of the same kind."""

    message: discord.Message
    kind: tuple[int, int]  # the seat's state after it (and the turns missed, if forfeited)
    seats: list[int]
    at: float


def timeout_text(seat: SeatRecord, names: list[str]) -> Text:
    """What became of ``names`` (``seat`` the latest of them: they share its state)."""
    who = Names(names)
    if seat.away == GONE:
        # A server may forfeit at the first timeout: "1 turns in a row" read wrong.
        if len(names) == 1:
            return tn(
                "🏳️ {who} missed a turn and forfeits; a bot plays their seat to the end.",
                "🏳️ {who} missed {n} turns in a row and forfeits; a bot plays their seat to "
                "the end.",
                n=seat.missed,
                who=who,
            )
        return tn(
            "🏳️ {who} missed a turn and forfeit; bots play their seats to the end.",
            "🏳️ {who} missed {n} turns in a row and forfeit; bots play their seats to the end.",
            n=seat.missed,
            who=who,
        )
    if seat.away == STANDING_IN:
        return t(
            "⏰ {who} ran out of time; a bot plays for them until they press **I'm back**.",
            who=who,
        )
    return t("⏰ {who} ran out of time, so the default move was played for them.", who=who)


@dataclass(frozen=True)
class Reminded:
    """A reminder posted: its message, the seats it calls on, and its words for those of
    them still owing a move (an edit that drops whoever answered notifies nobody)."""

    message: discord.Message
    seats: list[int]
    text_for: Callable[[Sequence[int]], str]


class Notices(Part):
    def __init__(self, bot: CookieJar, poster: Poster) -> None:
        super().__init__(bot)
        self.poster = poster
        self._timeouts: dict[str, TimeoutNotice] = {}

    async def say_the_end(self, change: Change) -> None:
        """The end of a match, posted at the bottom where people look: who won, the
        ranking, everyone mentioned so it notifies them; or who cancelled, quietly."""
        language = await languages(self.bot).public(change.match.guild_id)
        if change.kind == "finished" and change.state is not None:
            game = self.service.game_of(change.match)
            text, embed = final_message(change.match, game, change.state, language)
            mentions = discord.AllowedMentions(users=True, roles=False, everyone=False)
        elif change.kind == "cancelled" and change.match.state is not None:
            game = self.service.game_of(change.match)
            text, embed = say(cancelled_message(change, game), language), None
            mentions = discord.AllowedMentions.none()
        else:
            return  # a lobby that never started: its own message says it was cancelled
        view = components_view()
        view.add_item(TableButton("rematch", change.match.match_id, language=language))
        link = render.jump_link(change.match)
        if link:
            jump = label(tc("button", "Jump to table"), language)
            view.add_item(discord.ui.Button(label=jump, url=link, emoji="⬆️"))
        try:
            await with_retries(
                partial(
                    self.poster.post,
                    change.match.channel_id,
                    text,
                    embeds=[embed] if embed else [],
                    view=view,
                    allowed_mentions=mentions,
                    paced=True,
                ),
                f"the end of match {change.match.match_id}",
            )
        except (discord.HTTPException, TimeoutError, OSError):
            log.warning("could not post the end of match %s", change.match.match_id)

    async def say_timed_out(self, change: Change) -> None:
        """Says "⏰ Ben ran out of time..." in the channel, without a ping. Seats that time out
        on one simultaneous decision are played for one after another, a moment apart:
        their notice is one message, edited to name each as it comes."""
        match_id = change.match.match_id
        if (await self.service.current(match_id)).status != "active":
            # Ended meanwhile (a tournament ends a forfeited table at once, and may have
            # archived its thread): "a bot plays their seat" would no longer be true.
            return
        seat = next(s for s in change.match.seats if s.seat == change.timed_out)
        language = await languages(self.bot).public(change.match.guild_id)
        kind = (seat.away, seat.missed) if seat.away == GONE else (seat.away, 0)
        now = self.service.clock.now()
        said = self._timeouts.get(match_id)
        if (
            said is not None
            and said.kind == kind
            and now - said.at <= TIMEOUTS_TOGETHER
            and seat.seat not in said.seats
        ):
            seats = [*said.seats, seat.seat]
            names = [change.match.seats[s].name for s in seats]
            try:
                await said.message.edit(content=say(timeout_text(seat, names), language))
            except discord.HTTPException:
                pass  # deleted meanwhile: say it anew
            else:
                self._timeouts[match_id] = replace(said, seats=seats, at=now)
                return
        view = None
        if seat.away == STANDING_IN:
            view = components_view()
            view.add_item(TableButton("back", change.match.match_id, language=language))
        try:
            posted = await self.poster.post(
                change.match.channel_id,
                say(timeout_text(seat, [seat.name]), language),
                view=view,
                allowed_mentions=discord.AllowedMentions.none(),
            )
        except discord.HTTPException:
            log.warning("could not post a timeout in channel %s", change.match.channel_id)
            return
        self._timeouts[match_id] = TimeoutNotice(posted, kind, [seat.seat], now)

    def forget(self, match_id: str) -> None:
        self._timeouts.pop(match_id, None)

    async def remind(self, changes: Sequence[Change]) -> Reminded | None:
        """One reminder (or nudge) of the same kind for one or more seats of a match, with
        a real mention of each; the message, the seats it names and its words for fewer of
        them, for the pings to edit and sweep as they answer (``Pings.remind``). Each
        person who asked also gets a DM."""
        record = changes[-1].match
        timers = {c.timer.seat: c.timer for c in changes if c.timer is not None}
        # A bot answers for a stand-in's or a forfeited seat: nobody there to call.
        seats = [s for s in record.seats if s.seat in timers and s.user_id and not s.played_by_bot]
        if not seats:
            return None
        game = self.service.game_of(record)
        lead = REMINDER_LEADS.get(timers[seats[0].seat].kind, REMINDER)
        deadline = await self.service.deadlines(record.match_id)
        due = [deadline[s.seat] for s in seats if s.seat in deadline]
        # Their clocks started together: the earliest is the one to tell (as a turn ping).
        when = int(min(due)) if due else None
        users = {s.seat: s.user_id for s in seats}
        language = await languages(self.bot).public(record.guild_id)

        def text_for(still: Sequence[int]) -> str:
            people = render.spaced([t("<@{user}>", user=users[seat]) for seat in still])
            if when is None:
                text = t(
                    "{lead}: {people}, your move in **{game}**.",
                    lead=lead,
                    people=people,
                    game=game.name,
                )
            else:
                text = t(
                    "{lead}: {people}, your move in **{game}**. Time runs out <t:{due}:R>.",
                    lead=lead,
                    people=people,
                    game=game.name,
                    due=when,
                )
            return say(text, language)

        view = components_view()
        view.add_item(TableButton("hand", record.match_id, language=language))
        posted = None
        try:
            posted = await self.poster.post(record.channel_id, text_for(list(users)), view=view)
        except discord.HTTPException:
            log.warning("could not remind in channel %s", record.channel_id)
        link = render.jump_link(record) or f"<#{record.channel_id}>"
        for seat in seats:
            if when is None:
                text = t(
                    "{lead}: your move in **{game}** is waiting: {link}.",
                    lead=lead,
                    game=game.name,
                    link=link,
                )
            else:
                text = t(
                    "{lead}: your move in **{game}** is waiting: {link}. Time runs out "
                    "<t:{due}:R>.",
                    lead=lead,
                    game=game.name,
                    link=link,
                    due=when,
                )
            own = await languages(self.bot).of_person(seat.user_id, record.guild_id)
            await self.direct_message(seat.user_id, say(text, own))
        return None if posted is None else Reminded(posted, list(users), text_for)

    async def name_thread(self, record: MatchRecord) -> None:
        """A match's thread is named after the game and its players once it starts."""
        if not settings_of(record).thread:
            return
        game = self.service.game_of(record)
        language = await languages(self.bot).public(record.guild_id)
        players = render.commas([s.name for s in record.seats])
        # A thread's name shows no markdown: rendered as a label, nothing escaped.
        name = label(t("🍪 {game} · {players}", game=game.name, players=players), language)
        name = render.clip(name, 100)
        try:
            await self.bot.http.edit_channel(record.channel_id, name=name, archived=False)
        except discord.HTTPException:
            log.warning("could not rename the thread of match %s", record.match_id)

    async def direct_message(self, user_id: int, text: str) -> None:
        """A DM for people who asked for them; a closed inbox is not an error."""
        if not (await self.service.user_settings(user_id)).notify:
            return
        try:
            user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
            await user.send(text)
        except discord.HTTPException:
            log.info("could not DM user %s; they keep the channel reminder", user_id)


REMINDER = t("⏳ Reminder")
REMINDER_LEADS = {"remind_final": t("⌛ Last call"), "remind_asked": t("👋 Nudge from the table")}


def final_message(
    record: MatchRecord, game: Game, state: GameState, language: str
) -> tuple[str, discord.Embed]:
    """The result at the bottom of the channel: the winners, then every player ranked."""
    outcome = match_outcome(record, game, state)
    assert outcome is not None
    # A match ended by a forfeit has no score to show: the game itself did not finish.
    scored = game.outcome(state) is not None
    names = {s.seat: s.name for s in record.seats}
    winners = Names(t("**{name}**", name=names[s]) for s in outcome.winners)
    people = " ".join(f"<@{s.user_id}>" for s in record.seats if s.user_id is not None)
    text = tn(
        "🏁 **{game}** is over: 🏆 {winners} wins!",
        "🏁 **{game}** is over: 🏆 {winners} win!",
        n=len(outcome.winners),
        game=game.name,
        winners=winners,
    )
    lines = ranking_lines(
        [
            (
                p.place,
                t("**{name}**", name=names[p.seat]),
                game.score_text(state, p) if scored else "",
            )
            for p in outcome.placements
        ]
    )
    reason = say(render.game_words(outcome.reason), language)
    ranking = "\n".join(say(line, language) for line in lines)
    embed = discord.Embed(
        title=render.clip(
            say(t("🏁 {game} · final result", game=game.name), language), render.TITLE
        ),
        description=render.clip(f"{reason}\n\n{ranking}", render.DESCRIPTION),
        colour=render.COLOURS["done"],
    )
    embed.set_footer(text=say(t("Rematch opens a new lobby with the same seats."), language))
    return render.clip(f"{say(text, language)} {people}", render.CONTENT), embed


def ranking_lines(entries: list[tuple[int, str, str]]) -> list[Text]:
    """``(place, name, score)`` best first as lines: players tied on a place and a score
    share one line ("2. Ana, Ben"), so eight Toss players are two lines, not eight."""
    places = [place for place, _, _ in entries]
    groups: list[tuple[int, list[str], str]] = []
    for place, name, score in entries:
        if groups and groups[-1][0] == place and groups[-1][2] == score:
            groups[-1][1].append(name)
        else:
            groups.append((place, [name], score))
    return [
        t(
            "{place} {names} — {score}",
            place=render.place_mark(place, places),
            names=render.commas(names),
            score=render.game_words(score),
        )
        if score
        else t(
            "{place} {names}", place=render.place_mark(place, places), names=render.commas(names)
        )
        for place, names, score in groups
    ]


def cancelled_message(change: Change, game: Game) -> Text:
    if change.by:
        return t(
            "✖️ The **{game}** match was cancelled by **{name}**.", game=game.name, name=change.by
        )
    return t("✖️ The **{game}** match was cancelled as every player left.", game=game.name)
