"""What the tournament cog posts as an event goes: the pairings, each table's match in its
thread, results, standings, the final standings, forfeits, reminders, and the threads
archived when their round is over."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

import discord

from bot.service.tournaments import TournamentChange, Tournaments, TournamentView
from bot.store import MatchRecord
from bot.store.tournament_records import ResultRecord, TournamentRecord, TournamentTable
from bot.tournaments.config import ROUND_DEADLINES
from cogs.components import add_web_link, components_view
from cogs.pictures import attach, keep, pictures_on, with_files
from cogs.speech import languages, say
from cogs.table import presenter_of
from cogs.tournaments.buttons import (
    TournamentButton,
    pairings_message,
    round_deadline,
    signup_buttons,
)
from cogs.tournaments.embeds import (
    game_score,
    signup_embed,
    standings_embed,
    standings_title,
    thread_name,
)
from cogs.tournaments.pictures import BRACKET, STANDINGS, bracket_png, standings_png
from games import GAMES
from games.core.text import Names, Text, joined, t, tn
from games.core.words import place

if TYPE_CHECKING:
    from bot.client import CookieJar
    from cogs.table import Presenter

log = logging.getLogger(__name__)


class TournamentPosts:
    """Listens to the tournament service and shows each change in Discord."""

    def __init__(self, bot: CookieJar) -> None:
        self.bot = bot
        # Standings showing a countdown to the next round, by event: once the round starts
        # (or the event stops) they lose the countdown and Start now. In memory: after a
        # restart a stale Start now only answers that the round is under way.
        self.counting_down: dict[str, tuple[discord.Message, int]] = {}
        # One bracket drawing at a time per event, so two results coming in together
        # never leave the older picture on the message.
        self.drawing: dict[str, asyncio.Lock] = {}

    @property
    def events(self) -> Tournaments:
        return self.bot.tournaments

    @property
    def presenter(self) -> Presenter:
        return presenter_of(self.bot)

    async def open_thread(
        self, event: TournamentRecord, round_no: int, table_no: int, names: list[str]
    ) -> int:
        """A public thread for one table, named after the round, table and players."""
        data = await self.bot.http.start_thread_without_message(
            event.channel_id,
            name=thread_name(round_no, table_no, names),
            auto_archive_duration=10080 if ROUND_DEADLINES[self._pace(event)] else 1440,
            type=discord.ChannelType.public_thread.value,
        )
        return int(data["id"])

    async def drop_thread_notice(self, message: discord.Message) -> None:
        """Discord announces each public thread the bot starts with a bare line in the
        channel ("R1 · T1 · 🤖 Bea, 🤖 Abe"): the pairings (and a lobby's own line) already
        link every thread, so the notice is clutter and goes. It is the bot's own message."""
        me = self.bot.user
        if message.type is not discord.MessageType.thread_created or me is None:
            return
        if message.author.id != me.id:
            return
        try:
            await message.delete()
        except discord.HTTPException:
            log.info("could not delete the thread notice %s", message.id)

    async def language(self, event: TournamentRecord) -> str:
        """The language of the event's posts: its server's."""
        return await languages(self.bot).public(event.guild_id)

    @staticmethod
    def _pace(event: TournamentRecord) -> str:
        return Tournaments.config_of(event).pace

    async def on_tournament_change(self, change: TournamentChange) -> None:
        handler = {
            "signup": self.refresh_signup,
            "round": self.post_pairings,
            "table": self.post_table,
            "standings": self.post_standings,
            "finished": self.post_final,
            "cancelled": self.post_cancelled,
            "forfeit": self.post_forfeit,
            "dropped": self.post_dropped,
            "reminder": self.post_reminder,
            "result": self.post_result,
            "paused": self.post_paused,
            "resumed": self.refresh_signup,
            "repaired": self.archive_repaired,
        }[change.kind]
        await handler(change)

    async def refresh_signup(self, change: TournamentChange) -> None:
        event = await self.events.get(change.event.tournament_id)
        if event.message_id is None:
            return
        view = await self.events.view(event.tournament_id)
        language = await self.language(event)
        channel = self.bot.get_partial_messageable(event.channel_id)
        try:
            await channel.get_partial_message(event.message_id).edit(
                embed=signup_embed(view, language), view=signup_buttons(view, language)
            )
        except discord.HTTPException:
            log.warning("could not refresh the sign-up of event %s", event.tournament_id)

    async def end_countdown(self, change: TournamentChange) -> None:
        """The standings before this round keep their table and My standing, no more."""
        found = self.counting_down.pop(change.event.tournament_id, None)
        if found is None:
            return
        message, round_no = found
        view = await self.events.view(change.event.tournament_id)
        language = await self.language(change.event)
        buttons = components_view()
        buttons.add_item(TournamentButton(change.event.tournament_id, "standing", language))
        await self.web_link(buttons, change.event, language)
        try:
            embed = standings_embed(view, round_no, final=False, language=language)
            keep(embed, message, STANDINGS)
            await message.edit(embed=embed, view=buttons)
        except discord.HTTPException:
            log.info("could not end the countdown of event %s", change.event.tournament_id)

    async def web_link(
        self, buttons: discord.ui.View, event: TournamentRecord, language: str
    ) -> None:
        await add_web_link(
            buttons,
            self.bot.web_links,
            event.guild_id,
            "event",
            event.tournament_id,
            language=language,
        )

    async def post_paused(self, change: TournamentChange) -> None:
        await self.end_countdown(change)  # Resume shows the standings again, with a new one
        await self.refresh_signup(change)

    async def post_pairings(self, change: TournamentChange) -> None:
        await self.end_countdown(change)
        await self.refresh_signup(change)
        view = await self.events.view(change.event.tournament_id)
        deadline = await round_deadline(self.events, change.event.tournament_id, change.round)
        language = await self.language(change.event)
        embed, buttons = pairings_message(view, change.round, 0, deadline, language)
        await self.web_link(buttons, change.event, language)
        picture = await bracket_png(view, language) if await self.pictures(change) else None
        files = attach(embed, picture, BRACKET)
        message = await self.presenter.post(
            change.event.channel_id, embed=embed, view=buttons, **with_files(files)
        )
        if files:
            await self.remember_bracket(change.event.tournament_id, change.round, message.id)

    async def pictures(self, change: TournamentChange) -> bool:
        return await pictures_on(self.bot, change.event.guild_id)

    async def remember_bracket(self, tournament_id: str, round_no: int, message_id: int) -> None:
        """The round's pairings message carries the bracket: kept with the round, so a
        result redraws it there, after a restart too."""
        rounds = await self.events.store.rounds(tournament_id)
        found = next((r for r in rounds if r.round == round_no), None)
        if found is not None:
            await self.events.store.save_round(found.model_copy(update={"message_id": message_id}))

    async def redraw_bracket(self, change: TournamentChange) -> None:
        """A result came in (or the event ended): the round's pairings message gets the
        bracket drawn anew."""
        tid = change.event.tournament_id
        async with self.drawing.setdefault(tid, asyncio.Lock()):
            rounds = await self.events.store.rounds(tid)
            found = next((r for r in rounds if r.round == change.round), None)
            if found is None or found.message_id is None or not await self.pictures(change):
                return
            view = await self.events.view(tid)
            language = await self.language(change.event)
            picture = await bracket_png(view, language)
            if picture is None:
                return
            embed, buttons = pairings_message(view, change.round, 0, found.deadline, language)
            await self.web_link(buttons, change.event, language)
            channel = self.bot.get_partial_messageable(change.event.channel_id)
            try:
                await channel.get_partial_message(found.message_id).edit(
                    embed=embed, view=buttons, attachments=attach(embed, picture, BRACKET)
                )
            except discord.HTTPException:
                log.info("could not redraw the bracket of event %s", tid)

    async def post_table(self, change: TournamentChange) -> None:
        """The started match's table in its thread, and its players pinged."""
        record, table = change.match, change.tables[0]
        if record is None:
            return
        drawn = await self.presenter.table_message(record)
        message = await self.presenter.post(record.channel_id, **drawn.sent())
        await self.bot.service.set_message(record.match_id, message.id)
        people = " ".join(f"<@{s.user_id}>" for s in record.seats if s.user_id is not None)
        where = {"round": table.round, "table": table.table_no, "game": GAMES[record.game].name}
        best_of = Tournaments.config_of(change.event).best_of
        if table.games:
            view = await self.events.view(change.event.tournament_id)
            said = t(
                "🏆 Round {round}, table {table} of the **{game}** tournament: "
                "game {number} is on ({score}).",
                number=len(table.games) + 1,
                score=game_score(view, table),
                **where,
            )
        elif best_of > 1:
            said = t(
                "🏆 Round {round}, table {table} of the **{game}** tournament: "
                "your match is on, best of {best_of}: game 1.",
                best_of=best_of,
                **where,
            )
        else:
            said = t(
                "🏆 Round {round}, table {table} of the **{game}** tournament: your match is on.",
                **where,
            )
        language = await self.language(change.event)
        text = say(said, language) + (f" {people}" if people else "")
        chances = await self.events.chances(record)
        if chances:
            # a name and a whole percent read the same everywhere
            odds = " · ".join(f"{name} {chance}%" for name, chance in chances)
            text += "\n" + say(t("Chances: {odds}", odds=odds), language)
        await self.presenter.post(
            record.channel_id, text, allowed_mentions=await self.announced(record)
        )
        self.presenter.request_refresh(record.match_id)

    async def announced(self, record: MatchRecord) -> discord.AllowedMentions:
        """Who the table's announcement notifies: every person at it but those the game
        calls on at once, whose turn ping (Show hand, the deadline) already notifies them;
        they are named all the same. Two notifications a second apart was one too many.
        A decision played for its seat (a lone Pass) pings nobody: that seat is notified here."""
        called = await self.presenter.pings.called_on(record.match_id)
        return discord.AllowedMentions(
            users=[
                discord.Object(s.user_id)
                for s in record.seats
                if s.user_id is not None and s.seat not in called
            ]
        )

    async def post_result(self, change: TournamentChange) -> None:
        table = change.tables[0]
        if change.text == "cancelled":
            if table.thread_id:
                said = t(
                    "✖️ This table's match was cancelled: the organiser sets its result with "
                    "`/tournament result`."
                )
                await self.presenter.post(
                    table.thread_id,
                    say(said, await self.language(change.event)),
                    allowed_mentions=discord.AllowedMentions.none(),
                )
            return
        if Tournaments.config_of(change.event).best_of > 1 and table.thread_id:
            await self.post_table_result(table)
        elif table.thread_id:
            await self.post_decided(table)
        await self.redraw_bracket(change)

    async def post_decided(self, table: TournamentTable) -> None:
        """A table decided without its match's end (the organiser's result, a draw at the
        round's end): its thread says how it stands; "cancelled by Mod" alone does not."""
        view = await self.events.view(table.tournament_id)
        result = next(
            (r for r in view.results if (r.round, r.table_no) == (table.round, table.table_no)),
            None,
        )
        if result is None or result.source == "match":
            return  # the match's own end says it all
        if result.source == "organiser":
            said = t(
                "✍️ The organiser set this table's result: {places}.", places=placings(view, result)
            )
        else:
            said = t(
                "🤝 The round ended before this table did, so it is drawn: {places}.",
                places=placings(view, result),
            )
        await self.presenter.post(
            table.thread_id,  # type: ignore[arg-type]
            say(said, await self.language(view.event)),
            allowed_mentions=discord.AllowedMentions.none(),
        )

    async def post_table_result(self, table: TournamentTable) -> None:
        """A best-of-three table is decided: its score in the thread, its games played."""
        view = await self.events.view(table.tournament_id)
        result = next(
            (r for r in view.results if (r.round, r.table_no) == (table.round, table.table_no)),
            None,
        )
        if result is None or result.game_wins is None or table.thread_id is None:
            return
        ordered = sorted(zip(result.places, result.players, result.game_wins, strict=True))
        (_, first, won), (place, second, lost) = ordered
        games = (
            tn(
                "{won}–{lost} ({n} drawn)",
                "{won}–{lost} ({n} drawn)",
                n=result.game_draws,
                won=won,
                lost=lost,
            )
            if result.game_draws
            else t("{won}–{lost}", won=won, lost=lost)
        )
        names = {"first": view.name(first), "second": view.name(second), "games": games}
        if result.gone:
            said = t("🏳️ **{first}** wins the table against {second}, {games} by forfeit.", **names)
        elif place == 1:
            said = t("🤝 {first} and {second} draw the table, {games}.", **names)
        else:
            said = t("🏁 **{first}** wins the table against {second}, {games}.", **names)
        await self.presenter.post(
            table.thread_id,
            say(said, await self.language(view.event)),
            allowed_mentions=discord.AllowedMentions.none(),
        )

    async def post_standings(self, change: TournamentChange) -> None:
        view = await self.events.view(change.event.tournament_id)
        await self.archive_round(view, change.round)
        language = await self.language(change.event)
        tid = change.event.tournament_id
        buttons = components_view()
        if change.next_round_at is not None:
            buttons.add_item(TournamentButton(tid, "next", language))
        buttons.add_item(TournamentButton(tid, "standing", language))
        await self.web_link(buttons, change.event, language)
        embed = standings_embed(
            view,
            change.round,
            final=False,
            next_round_at=change.next_round_at,
            language=language,
        )
        files = await self.standings_files(change, view, embed, final=False, language=language)
        message = await self.presenter.post(
            change.event.channel_id, embed=embed, view=buttons, **with_files(files)
        )
        if change.next_round_at is not None:
            self.counting_down[change.event.tournament_id] = (message, change.round)

    async def post_final(self, change: TournamentChange) -> None:
        await self.end_countdown(change)
        view = await self.events.view(change.event.tournament_id)
        await self.archive_round(view, change.round)
        await self.refresh_signup(change)
        champion = view.champion()
        game = view.game.name
        if champion is None:
            said = t("🏁 The **{game}** tournament is over!", game=game)
        elif champion.user_id:
            said = t(
                "🏁 The **{game}** tournament is over! 🏆 <@{id}> wins.",
                game=game,
                id=champion.user_id,
            )
        else:
            said = t(
                "🏁 The **{game}** tournament is over! 🏆 **{name}** wins.",
                game=game,
                name=champion.name,
            )
        language = await self.language(change.event)
        text = say(said, language)
        buttons = components_view()
        buttons.add_item(TournamentButton(change.event.tournament_id, "standing", language))
        await self.web_link(buttons, change.event, language)
        embed = standings_embed(view, change.round, final=True, language=language)
        files = await self.standings_files(change, view, embed, final=True, language=language)
        await self.presenter.post(
            change.event.channel_id, text, embed=embed, view=buttons, **with_files(files)
        )
        await self.redraw_bracket(change)  # the last pairings' bracket names the winner
        self.drawing.pop(change.event.tournament_id, None)

    async def standings_files(
        self,
        change: TournamentChange,
        view: TournamentView,
        embed: discord.Embed,
        *,
        final: bool,
        language: str,
    ) -> list[discord.File]:
        """The standings picture for the embed, unless the server turned pictures off."""
        if not await self.pictures(change):
            return []
        title = standings_title(view, change.round, final=final)
        return attach(embed, await standings_png(view, title, language), STANDINGS)

    async def post_cancelled(self, change: TournamentChange) -> None:
        await self.end_countdown(change)
        await self.refresh_signup(change)
        if change.round:
            await self.archive_round(
                await self.events.view(change.event.tournament_id), change.round
            )
        self.drawing.pop(change.event.tournament_id, None)
        game = GAMES[change.event.game].name
        if change.text:
            said = t(
                "✖️ The **{game}** tournament was cancelled: {why}.", game=game, why=change.text
            )
        else:
            said = t("✖️ The **{game}** tournament was cancelled.", game=game)
        await self.presenter.post(
            change.event.channel_id, say(said, await self.language(change.event))
        )

    async def post_forfeit(self, change: TournamentChange) -> None:
        entrant, table = change.entrant, change.tables[0]
        if entrant is None or entrant.user_id is None or table.thread_id is None:
            return
        language = await self.language(change.event)
        buttons = components_view()
        buttons.add_item(TournamentButton(change.event.tournament_id, "stay", language))
        said = t(
            "🏳️ <@{id}> forfeited this table and will be dropped before the "
            "next round unless they press **Stay in**.",
            id=entrant.user_id,
        )
        await self.presenter.post(table.thread_id, say(said, language), view=buttons)

    async def post_dropped(self, change: TournamentChange) -> None:
        entrant, table = change.entrant, change.tables[0]
        if entrant is None or table.thread_id is None:
            return
        if entrant.state == "disqualified":
            said = t(
                "🚪 **{name}** was disqualified by the organiser: they lose this table.",
                name=entrant.name,
            )
        else:
            said = t(
                "🚪 **{name}** was dropped from the tournament by the organiser: "
                "they lose this table.",
                name=entrant.name,
            )
        await self.presenter.post(table.thread_id, say(said, await self.language(change.event)))

    async def post_reminder(self, change: TournamentChange) -> None:
        rounds = await self.events.store.rounds(change.event.tournament_id)
        deadline = next((r.deadline for r in rounds if r.round == change.round), None)
        if deadline:
            said = t(
                "⏳ Round {round} ends <t:{at}:R>: an unfinished table is then drawn.",
                round=change.round,
                at=int(deadline),
            )
        else:
            said = t(
                "⏳ Round {round} ends: an unfinished table is then drawn.", round=change.round
            )
        ends = say(said, await self.language(change.event))
        for table in change.tables:
            if table.thread_id is None or table.match_id is None:
                continue
            record = await self.bot.service.get(table.match_id)
            # A forfeited seat's person is not called on: a bot plays it to the end.
            people = " ".join(f"<@{s.user_id}>" for s in record.seats if not s.played_by_bot)
            await self.presenter.post(table.thread_id, f"{ends} {people}".strip())

    async def archive_round(self, view: TournamentView, round_no: int) -> None:
        """A round's threads are archived once it is over (a server holds 1000 active)."""
        for table in view.tables:
            if table.round == round_no:
                await self.archive_table(table)

    async def archive_repaired(self, change: TournamentChange) -> None:
        """The threads of a round paired again: their tables are replaced, not played."""
        for table in change.tables:
            await self.archive_table(table)

    async def archive_table(self, table: TournamentTable) -> None:
        if table.thread_id is None:
            return
        # An edit after the archive would reopen the thread (every game of a
        # best-of-three table posted there).
        for match_id in {game.match_id for game in table.games} | {table.match_id}:
            if match_id is not None:
                await self.presenter.flushed(match_id)
        try:
            await self.bot.http.edit_channel(table.thread_id, archived=True)
        except discord.HTTPException:
            log.info("could not archive thread %s", table.thread_id)


def placings(view: TournamentView, result: ResultRecord) -> Text:
    """``1st Ana · 2nd Ben and Cleo``: a result's seats by place, ties together."""
    by_place: dict[int, list[str]] = {}
    seats = sorted(zip(result.places, result.players, strict=True), key=lambda s: s[0])
    for at, player in seats:
        by_place.setdefault(at, []).append(view.name(player))
    return joined(
        [
            t("{place} {names}", place=place(at), names=Names(names))
            for at, names in by_place.items()
        ],
        " · ",
    )
