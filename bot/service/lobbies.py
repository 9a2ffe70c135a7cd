"""Lobbies and server defaults: seats, options, pace, start, cancel, rematch."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable, Sequence
from datetime import UTC, datetime

from pydantic import BaseModel

from bot.errors import (
    AlreadySeated,
    ChannelTaken,
    LobbyFull,
    NotInLobby,
    NotManager,
    NotRunning,
    NotSeated,
    UnknownGame,
    UserError,
)
from bot.service.base import (
    Change,
    Person,
    ServiceBase,
    bot_name,
    clean_name,
    new_match_id,
    settings_of,
    unique_name,
)
from bot.store import ChannelBusy, MatchRecord, SeatRecord
from bot.store.models import PRESENT
from bot.timing import (
    GuildSettings,
)
from games.core.levels import Level
from games.core.options import with_choice, with_switches
from games.core.protocol import Game, IllegalAction
from games.core.text import t, tn

MOST_LOCALE = 16  # Discord's locales are "ko" to "es-419"
WEB_TOKEN_BYTES = 18  # 144 random bits in the web page's path: nobody guesses it


class Lobbies(ServiceBase):
    # --- server defaults ---------------------------------------------------------------
    async def guild_settings(self, guild_id: int) -> GuildSettings:
        return GuildSettings.model_validate_json(await self.store.guild_settings(guild_id))

    async def set_guild_defaults(
        self, guild_id: int, actor: Person, changes: dict[str, object]
    ) -> GuildSettings:
        """Defaults for the server's new matches: Manage Server only."""
        if not actor.can_manage:
            raise NotManager(
                t("Only someone with Manage Server can change this server's settings.")
            )
        # One change at a time: the bot notes the server's locale as the same click comes in.
        async with self.settings_lock(guild_id):
            return await self._set_guild_defaults(guild_id, changes)

    def settings_lock(self, guild_id: int) -> asyncio.Lock:
        return self.lock(f"guild:{guild_id}")  # match ids are hex: no match shares it

    async def _set_guild_defaults(self, guild_id: int, changes: dict[str, object]) -> GuildSettings:
        current = await self.guild_settings(guild_id)
        changes = dict(changes)
        threads = changes.pop("threads", current.threads)
        ratings = changes.pop("ratings", current.ratings)
        organiser_role = changes.pop("organiser_role", current.organiser_role)
        pictures = changes.pop("pictures", current.pictures)
        web = bool(changes.pop("web", current.web))
        token = current.web_token
        if changes.pop("web_renew", False) or (web and not token):
            token = secrets.token_urlsafe(WEB_TOKEN_BYTES)
        bot_level = changes.pop("bot_level", current.bot_level)
        language = changes.pop("language", current.language)
        time_zone = changes.pop("time_zone", current.time_zone)
        try:
            match = current.match.model_validate({**current.match.model_dump(), **changes})
        except ValueError:
            # The one rule the model holds settings to: a custom pace has its minutes.
            raise UserError(
                t(
                    "A custom pace needs its length first: add custom_minutes, for example "
                    "/settings pace: Custom custom_minutes: 30."
                )
            ) from None
        updated = current.model_validate(
            {
                **current.model_dump(),
                "match": match,
                "threads": bool(threads),
                "ratings": ratings,
                "organiser_role": organiser_role,
                "pictures": bool(pictures),
                "web": web,
                "web_token": token,
                "bot_level": bot_level,
                "time_zone": time_zone,
                "language": language,
            }
        )
        await self.store.save_guild_settings(guild_id, updated.model_dump_json())
        return updated

    async def note_preferred_locale(self, guild_id: int, locale: str) -> GuildSettings:
        """Keep the server's preferred locale as Discord gives it (a server event, an
        interaction's ``guild_locale``): no one's setting, so no permission; written only
        when it changed. Longer than any locale Discord has: not a locale, left alone."""
        async with self.settings_lock(guild_id):
            current = await self.guild_settings(guild_id)
            if current.preferred_locale == locale or len(locale) > MOST_LOCALE:
                return current
            updated = current.model_copy(update={"preferred_locale": locale})
            await self.store.save_guild_settings(guild_id, updated.model_dump_json())
            return updated

    # --- lobby -------------------------------------------------------------------------
    async def open_lobby(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host: Person,
        game_key: str,
        seats: Sequence[SeatRecord] | None = None,
        options: str | None = None,
        settings: str | None = None,
        rematch_of: str | None = None,
        in_thread: bool = False,
    ) -> MatchRecord:
        if game_key not in self.games:
            raise UnknownGame(game_key)
        game = self.games[game_key]
        stamp = datetime.now(UTC)
        defaults = await self.guild_settings(guild_id)
        if settings is None:
            match_settings = defaults.match.model_copy(update={"thread": in_thread})
            settings = match_settings.model_dump_json()
        record = MatchRecord(
            match_id=new_match_id(),
            guild_id=guild_id,
            channel_id=channel_id,
            game=game_key,
            status="lobby",
            host_id=host.user_id,
            options=options or game.options_model().model_dump_json(),
            settings=settings,
            rematch_of=rematch_of,
            created_at=stamp,
            updated_at=stamp,
            seats=list(seats)
            if seats
            else [SeatRecord(seat=0, user_id=host.user_id, name=clean_name(host.name))],
        )
        try:
            await self.store.create_match(record)
        except ChannelBusy as busy:
            raise ChannelTaken(busy.match_id) from None
        await self.notify(Change(kind="lobby", match=record))
        return record

    async def _edit_lobby(
        self, match_id: str, edit: Callable[[MatchRecord], dict[str, object]]
    ) -> MatchRecord:
        """Apply ``edit`` (which returns the record's changed fields) to a lobby, and save it."""
        async with self.lock(match_id):
            record = await self.get(match_id)
            if record.status != "lobby":
                raise NotInLobby()
            record = record.model_copy(update=edit(record))
            seats = [
                SeatRecord(seat=i, user_id=s.user_id, name=s.name, level=s.level)
                for i, s in enumerate(record.seats)
            ]
            record = record.model_copy(update={"seats": seats})
            await self.store.save_lobby(
                match_id, seats, record.options, record.host_id, record.settings
            )
        await self.notify(Change(kind="lobby", match=record))
        return record

    async def join(self, match_id: str, person: Person) -> MatchRecord:
        """A seat for ``person``; at a table bots fill, the last bot added gives its seat
        up: a friend who arrives after a quick start with bots is never locked out."""

        def edit(record: MatchRecord) -> dict[str, object]:
            game = self.game_of(record)
            if record.seat_of(person.user_id) is not None:
                raise AlreadySeated()
            seats = record.seats
            if len(seats) >= game.max_players:
                bots = [s for s in seats if s.is_bot]
                if not bots:
                    raise LobbyFull(game.max_players)
                seats = [s for s in seats if s is not bots[-1]]
            name = unique_name(clean_name(person.name), seats)
            seat = SeatRecord(seat=len(seats), user_id=person.user_id, name=name)
            return {"seats": [*seats, seat]}

        return await self._edit_lobby(match_id, edit)

    async def leave(self, match_id: str, person: Person) -> MatchRecord:
        def edit(record: MatchRecord) -> dict[str, object]:
            if record.seat_of(person.user_id) is None:
                raise NotSeated(lobby=True)
            seats = [s for s in record.seats if s.user_id != person.user_id]
            host = record.host_id
            if host == person.user_id:
                humans = [s.user_id for s in seats if s.user_id is not None]
                host = humans[0] if humans else host  # hosting passes to the next person
            return {"seats": seats, "host_id": host}

        record = await self._edit_lobby(match_id, edit)
        if not any(s.user_id is not None for s in record.seats):
            return await self.cancel(match_id, None)
        return record

    async def add_bot(
        self, match_id: str, actor: Person, level: Level | None = None
    ) -> MatchRecord:
        """A bot takes the next seat, playing at ``level`` (None: the server's default)."""
        if level is None:
            level = (await self.guild_settings((await self.get(match_id)).guild_id)).bot_level

        def edit(record: MatchRecord) -> dict[str, object]:
            self.require_host(
                record, actor, t("Only the host or someone with Manage Server can add bots.")
            )
            game = self.game_of(record)
            if len(record.seats) >= game.max_players:
                raise LobbyFull(game.max_players, for_bot=True)
            name = bot_name({s.name for s in record.seats}) or unique_name("🤖 Bot", record.seats)
            seat = SeatRecord(seat=len(record.seats), user_id=None, name=name, level=level)
            return {"seats": [*record.seats, seat]}

        return await self._edit_lobby(match_id, edit)

    async def set_bot_level(
        self, match_id: str, actor: Person, name: str, level: Level
    ) -> MatchRecord:
        """How hard the lobby's bot called ``name`` plays (the host's pick after Add bot)."""

        def edit(record: MatchRecord) -> dict[str, object]:
            self.require_host(
                record,
                actor,
                t("Only the host or someone with Manage Server can pick the bots' levels."),
            )
            if not any(s.is_bot and s.name == name for s in record.seats):
                raise UserError(t("{name} is no longer in this lobby.", name=name))
            seats = [
                s.model_copy(update={"level": level}) if s.is_bot and s.name == name else s
                for s in record.seats
            ]
            return {"seats": seats}

        return await self._edit_lobby(match_id, edit)

    async def set_option(self, match_id: str, actor: Person, name: str, value: str) -> MatchRecord:
        def edit(record: MatchRecord) -> dict[str, object]:
            self.require_host(
                record,
                actor,
                t("Only the host or someone with Manage Server can change the options."),
            )
            game = self.game_of(record)
            try:
                options = with_choice(game.load_options(record.options), name, value)
            except (ValueError, KeyError):
                raise UserError(t("That option is not available for this game.")) from None
            return {"options": options.model_dump_json()}

        return await self._edit_lobby(match_id, edit)

    async def set_switches(self, match_id: str, actor: Person, on: set[str]) -> MatchRecord:
        """Turn exactly the named on/off rules on (advanced rules and house rules)."""

        def edit(record: MatchRecord) -> dict[str, object]:
            self.require_host(
                record,
                actor,
                t("Only the host or someone with Manage Server can change the options."),
            )
            game = self.game_of(record)
            try:
                options = with_switches(game.load_options(record.options), on)
            except ValueError:
                raise UserError(t("That rule is not available for this game.")) from None
            return {"options": options.model_dump_json()}

        return await self._edit_lobby(match_id, edit)

    async def set_pace(self, match_id: str, actor: Person, pace: str) -> MatchRecord:
        """How long each move may take: live, casual, async or correspondence."""

        def edit(record: MatchRecord) -> dict[str, object]:
            self.require_host(
                record, actor, t("Only the host or someone with Manage Server can change the pace.")
            )
            try:
                settings = with_choice(settings_of(record), "pace", pace)
            except ValueError:
                raise UserError(t("That pace is not available.")) from None
            return {"settings": settings.model_dump_json()}

        return await self._edit_lobby(match_id, edit)

    async def start(self, match_id: str, actor: Person) -> MatchRecord:
        async with self.lock(match_id):
            record = await self.get(match_id)
            if record.status != "lobby":
                raise NotInLobby()
            self.require_host(
                record, actor, t("Only the host or someone with Manage Server can start the match.")
            )
            game = self.game_of(record)
            n = len(record.seats)
            if not game.min_players <= n <= game.max_players:
                raise UserError(
                    tn(
                        "{game} needs {least} to {most} players; there is {n}. "
                        "Invite people or add bots.",
                        "{game} needs {least} to {most} players; there are {n}. "
                        "Invite people or add bots.",
                        n=n,
                        game=game.name,
                        least=game.min_players,
                        most=game.max_players,
                    )
                )
            seed = self.new_seed()
            options = await self.start_options(record, game, actor)
            try:
                state = game.setup(options, [s.name for s in record.seats], seed)
            except IllegalAction as exc:
                raise UserError(exc.text) from None
            if options != game.load_options(record.options):
                # What Start settled (players' full deck lists) is part of the options, so
                # that seed + options + log replay the match.
                record = record.model_copy(update={"options": options.model_dump_json()})
                await self.store.save_lobby(
                    match_id, record.seats, record.options, record.host_id, record.settings
                )
            # A deal may already decide the match (Toss: five of a cookie and the milk in
            # one hand): it starts and ends in the same save, with no decision left open.
            status = "finished" if game.outcome(state) is not None else "active"
            started = record.model_copy(update={"status": status})
            state_json = state.model_dump_json()
            timers = await self.timers_after(started, None, state)
            await self.store.start(
                match_id, record.seats, seed, state_json, state.version, timers, status=status
            )
            record = started.model_copy(
                update={"seed": seed, "state": state_json, "version": state.version}
            )
            if status == "active":
                self._remember(record, state, timers)
        self.timers_changed()
        kind = "started" if status == "active" else "finished"
        await self.notify(Change(kind=kind, match=record, state=state, events=list(state.log)))
        return record

    async def start_options(self, record: MatchRecord, game: Game, actor: Person) -> BaseModel:
        """The options a match starts with: the lobby's, and whatever Start settles (a
        refusal is told to ``actor``, who pressed Start)."""
        return game.load_options(record.options)  # type: ignore[attr-defined]

    async def cancel(self, match_id: str, actor: Person | None) -> MatchRecord:
        """End a lobby or a running match. ``actor`` None: the system (an empty lobby)."""
        async with self.lock(match_id):
            record = await self.get(match_id)
            if not record.is_open:
                raise NotRunning()
            if actor is not None:
                self.require_host(
                    record,
                    actor,
                    t("Only the host or someone with Manage Server can cancel the match."),
                )
            await self.store.set_status(match_id, "cancelled")
            await self.store.replace_timers(match_id, [])
            self.timers_changed()
            self._forget(match_id)
            record = record.model_copy(update={"status": "cancelled"})
        by = clean_name(actor.name) if actor is not None else None
        await self.notify(Change(kind="cancelled", match=record, by=by))
        return record

    async def rematch(self, match_id: str, actor: Person) -> MatchRecord:
        record = await self.get(match_id)
        if record.status not in ("finished", "cancelled"):
            raise UserError(t("This match is still going; a rematch can start when it ends."))
        if record.seat_of(actor.user_id) is None and not actor.can_manage:
            raise UserError(
                t(
                    "Only this match's players can call a rematch. Start your own table with "
                    "/play, or press **Spectate** to look at this one."
                )
            )
        return await self.open_lobby(
            guild_id=record.guild_id,
            channel_id=record.channel_id,
            host=actor,
            game_key=record.game,
            seats=[s.model_copy(update={"away": PRESENT, "missed": 0}) for s in record.seats],
            options=record.options,
            # A rematch of a tournament's table is a casual match, not one of the event's.
            settings=settings_of(record).model_copy(update={"event": None}).model_dump_json(),
            rematch_of=record.match_id,
        )
