"""Sign-up and the players' own moves: creating an event, joining (or late), leaving,
checking in, bots and players the organiser adds, the start, dropping out."""

from __future__ import annotations

import math
import secrets
from collections.abc import Sequence

from bot.errors import UserError
from bot.service import Person, bot_name, clean_name
from bot.service.tournaments.base import TournamentsBase
from bot.service.tournaments.models import TooFewPlayers, TournamentChange, signed_up
from bot.store.tournament_records import EntrantRecord, ResultRecord, TournamentRecord
from bot.tournaments.config import TournamentConfig
from bot.tournaments.entries import late_entry, late_entry_open
from bot.tournaments.formats import format_of
from bot.tournaments.top_cut import default_cut
from games.core.levels import DEFAULT_LEVEL, Level
from games.core.text import t, tn


class SignUp(TournamentsBase):
    """Who is in the event, from its creation to its start (and out of it after)."""

    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        organiser: Person,
        game_key: str,
        config: TournamentConfig,
    ) -> TournamentRecord:
        if not await self.may_organise(guild_id, organiser):
            who = await self.organisers(guild_id)
            raise UserError(t("Only someone with {who} can run a tournament here.", who=who))
        config = self.checked_config(game_key, config)
        if config.starts_at is not None and config.starts_at <= self.clock.now():
            raise UserError(t("That start time has passed: give one in the future."))
        await self._channel_free(guild_id, channel_id)
        record = TournamentRecord(
            tournament_id=secrets.token_hex(4),
            guild_id=guild_id,
            channel_id=channel_id,
            organiser_id=organiser.user_id,
            game=game_key,
            config=config.model_dump_json(),
            status="signup",
            seed=self.matches.new_seed(),
            created_at=self.clock.now(),
        )
        await self.store.create_tournament(record)
        await self.audit(record, organiser, "create", {}, config.model_dump(mode="json"))
        if config.starts_at is not None:
            # Stored like every event timer, so a restart before then loses nothing.
            timer = self._timer(record, "start", 0, config.starts_at)
            await self.store.replace_tournament_timers(record.tournament_id, [timer])
            self.matches.timers_changed()
        return record

    def checked_config(self, game_key: str, config: TournamentConfig) -> TournamentConfig:
        """The event's choices as its format takes them, or the one sentence saying what
        does not fit (a recurring event is checked so when it is scheduled)."""
        if game_key not in self.matches.games:
            raise UserError(t("There is no such game. Pick one from the list."))
        kind = format_of(config, self.matches.games[game_key])
        kind.check_game()
        if config.best_of > 1 and not kind.two_player:
            raise UserError(t("Best of three is for two-player tables: pick Swiss or a bracket."))
        return kind.checked()

    async def set_message(self, tournament_id: str, message_id: int) -> None:
        """Keep the sign-up message's id: it is edited as the event changes."""
        async with self.lock(tournament_id):
            event = await self.get(tournament_id)
            await self.store.save_tournament(event.model_copy(update={"message_id": message_id}))

    async def join(self, tournament_id: str, person: Person) -> EntrantRecord:
        async with self.lock(tournament_id):
            event = await self.get(tournament_id)
            config = self.config_of(event)
            entrants = await self.store.entrants(tournament_id)
            mine = next((e for e in entrants if e.user_id == person.user_id), None)
            if event.status != "signup":
                entrant = await self._join_late(event, config, person, entrants, mine)
            else:
                entrant = await self._join_signup(tournament_id, config, person, entrants, mine)
        await self._signup_change(tournament_id)
        return entrant

    async def _join_signup(
        self,
        tournament_id: str,
        config: TournamentConfig,
        person: Person,
        entrants: list[EntrantRecord],
        mine: EntrantRecord | None,
    ) -> EntrantRecord:
        if mine is not None and mine.state in ("entered", "waitlist"):
            raise UserError(t("You are already signed up for this tournament."))
        if mine is not None and mine.state == "disqualified":
            raise UserError(t("You were disqualified from this tournament."))
        entered = sum(e.state == "entered" for e in entrants)
        entrant = EntrantRecord(
            tournament_id=tournament_id,
            entrant=mine.entrant if mine else len(entrants) + 1,
            user_id=person.user_id,
            name=self._unique(clean_name(person.name), entrants, mine),
            state="entered" if entered < config.max_players else "waitlist",
            joined_at=self.clock.now(),
        )
        await self.store.save_entrant(entrant)
        return entrant

    async def _join_late(
        self,
        event: TournamentRecord,
        config: TournamentConfig,
        person: Person,
        entrants: list[EntrantRecord],
        mine: EntrantRecord | None,
    ) -> EntrantRecord:
        """Join a running Swiss or pod event: a late entry until round ⌈R/2⌉, with a loss
        for each round played, as when the organiser adds someone."""
        if not self.format_of(event, config).takes_late_entries() or event.status != "running":
            raise UserError(
                t("Sign-up is closed: this event has started. Ask the organiser to add you.")
            )
        if mine is not None and mine.state == "entered":
            raise UserError(t("You are already playing in this tournament."))
        if mine is not None and mine.state in ("dropped", "disqualified"):
            raise UserError(
                t("You were dropped from this tournament: only the organiser can undo that.")
                if mine.state == "dropped"
                else t(
                    "You were disqualified from this tournament: only the organiser can undo that."
                )
            )
        if sum(e.state == "entered" for e in entrants) >= config.max_players:
            raise UserError(t("The event is full ({most} players).", most=config.max_players))
        name = mine.name if mine else self._unique(clean_name(person.name), entrants)
        return await self._add_entrant(event, person, entrants, person.user_id, name, "late entry")

    @staticmethod
    def _unique(
        name: str, entrants: Sequence[EntrantRecord], mine: EntrantRecord | None = None
    ) -> str:
        taken = {e.name for e in entrants if e is not mine}
        if name not in taken:
            return name
        return next(f"{name} {i}" for i in range(2, 999) if f"{name} {i}" not in taken)

    async def leave(self, tournament_id: str, person: Person) -> None:
        """Leave during sign-up: the first on the waitlist takes the place."""
        async with self.lock(tournament_id):
            event = await self.get(tournament_id)
            if event.status != "signup":
                raise UserError(t("This event has started: use /tournament drop to leave it."))
            entrants = await self.store.entrants(tournament_id)
            mine = signed_up(entrants, person.user_id)
            if mine is None:
                raise UserError(t("You are not signed up for this tournament."))
            await self.store.save_entrant(mine.model_copy(update={"state": "dropped"}))
            await self._fill_place(mine, entrants)
        await self._signup_change(tournament_id)

    async def _fill_place(self, leaving: EntrantRecord, entrants: Sequence[EntrantRecord]) -> None:
        """During sign-up, an entered player who goes makes room for the first waiting."""
        if leaving.state == "entered":
            waiting = [e for e in entrants if e.state == "waitlist"]
            if waiting:
                await self.store.save_entrant(waiting[0].model_copy(update={"state": "entered"}))

    async def check_in(self, tournament_id: str, person: Person) -> EntrantRecord:
        async with self.lock(tournament_id):
            event = await self.get(tournament_id)
            if event.status != "signup":
                raise UserError(t("Check-in is over: this event has started."))
            config = self.config_of(event)
            if not config.checkin:
                raise UserError(t("This event needs no check-in: you are in once you join."))
            if config.checkin_opens is not None and self.clock.now() < config.checkin_opens:
                raise UserError(
                    t("Check-in opens <t:{at}:R>: come back then.", at=int(config.checkin_opens))
                )
            mine = signed_up(await self.store.entrants(tournament_id), person.user_id)
            if mine is None:
                raise UserError(t("Join the tournament first, then check in."))
            if mine.checked_in:
                raise UserError(t("You are already checked in."))
            mine = mine.model_copy(update={"checked_in": True})
            await self.store.save_entrant(mine)
        await self._signup_change(tournament_id)
        return mine

    async def set_bot_level(
        self, tournament_id: str, actor: Person, number: int, level: Level
    ) -> EntrantRecord:
        """How hard bot entrant ``number`` plays the tables it is seated at from now on."""
        async with self.lock(tournament_id):
            event = await self.get(tournament_id)
            await self.require_organiser(event, actor, "pick the bots' levels")
            if not event.is_open:
                raise UserError(t("This tournament is over."))
            entrants = await self.store.entrants(tournament_id)
            entrant = next((e for e in entrants if e.entrant == number and e.is_bot), None)
            if entrant is None:
                raise UserError(t("That bot is not in this tournament."))
            entrant = entrant.model_copy(update={"level": level})
            await self.store.save_entrant(entrant)
        await self._signup_change(tournament_id)
        return entrant

    async def add_bot(
        self, tournament_id: str, actor: Person, level: Level | None = None
    ) -> EntrantRecord:
        """A bot entrant: fills odd seats or lets an organiser try an event alone. During
        the event it is a late entry, like a person the organiser adds. It plays every
        table at ``level`` (None: the server's default)."""
        async with self.lock(tournament_id):
            event = await self.get(tournament_id)
            await self.require_organiser(event, actor, "add bots")
            if level is None:
                level = (await self.matches.guild_settings(event.guild_id)).bot_level
            entrants = await self.store.entrants(tournament_id)
            name = bot_name({e.name for e in entrants}) or self._unique("🤖 Bot", entrants)
            entrant = await self._add_entrant(
                event, actor, entrants, None, name, "add bot", level=level
            )
        await self._signup_change(tournament_id)
        return entrant

    async def add_player(self, tournament_id: str, actor: Person, player: Person) -> EntrantRecord:
        """The organiser enters someone: at sign-up, or late (until round ⌈R/2⌉, with a
        lost round for each one already played)."""
        async with self.lock(tournament_id):
            event = await self.get(tournament_id)
            await self.require_organiser(event, actor, "add players")
            entrants = await self.store.entrants(tournament_id)
            if any(
                e.user_id == player.user_id and e.state in ("entered", "waitlist") for e in entrants
            ):
                raise UserError(
                    t("{name} is already in this tournament.", name=clean_name(player.name))
                )
            name = self._unique(clean_name(player.name), entrants)
            entrant = await self._add_entrant(
                event, actor, entrants, player.user_id, name, "add player"
            )
        await self._signup_change(tournament_id)
        return entrant

    async def _add_entrant(
        self,
        event: TournamentRecord,
        actor: Person,
        entrants: list[EntrantRecord],
        user_id: int | None,
        name: str,
        action: str,
        *,
        level: Level = DEFAULT_LEVEL,
    ) -> EntrantRecord:
        config = self.config_of(event)
        if not event.is_open:
            raise UserError(t("This tournament is over."))
        number = len(entrants) + 1
        existing = next((e for e in entrants if user_id and e.user_id == user_id), None)
        if existing is not None:
            number = existing.entrant
        entrant = EntrantRecord(
            tournament_id=event.tournament_id,
            entrant=number,
            user_id=user_id,
            name=name,
            state="entered",
            checked_in=True,  # the organiser vouches for them
            joined_at=self.clock.now(),
            level=level,
        )
        if event.status == "signup":
            entered = sum(e.state == "entered" for e in entrants)
            if entered >= config.max_players:
                raise UserError(t("The event is full ({most} players).", most=config.max_players))
        else:
            kind = self.format_of(event, config)
            if kind.no_late_entry is not None:
                raise UserError(kind.no_late_entry)
            rounds = kind.rounds(sum(e.state != "waitlist" for e in entrants))
            next_round = event.round + 1
            if rounds is None:  # a format that plans no rounds takes no late entries
                raise UserError(t("An elimination bracket takes no late entries."))
            if not late_entry_open(next_round, rounds):
                # Said from the round under way: "up to round 2" read in round 2 sounded open.
                raise UserError(
                    t(
                        "Late entry is closed: round {round} was the last a late player could "
                        "start in.",
                        round=math.ceil(rounds / 2),
                    )
                )
            for missed in late_entry(number, next_round):
                await self.store.add_result(
                    ResultRecord(
                        tournament_id=event.tournament_id,
                        round=missed.round,
                        table_no=1000 + number,
                        players=[number],
                        places=[1],
                        kind="missed",
                        source="organiser",
                    )
                )
        await self.store.save_entrant(entrant)
        await self.audit(event, actor, action, {}, {"entrant": number, "name": name})
        return entrant

    async def _channel_free(self, guild_id: int, channel_id: int) -> None:
        """One open event a channel: /tournament finds its event by the channel (or its
        table threads), so a second one there would leave the first out of reach."""
        for event in await self.store.tournaments(guild_id, open_only=True):
            if event.channel_id == channel_id:
                game = self.matches.games[event.game].name
                raise UserError(
                    t(
                        "This channel already has an open {game} tournament (event {event}), "
                        "and /tournament here goes to it. Finish or cancel it first, or create "
                        "the new one in another channel.",
                        game=game,
                        event=event.tournament_id,
                    )
                )

    async def start(self, tournament_id: str, actor: Person) -> None:
        """Close sign-up: unchecked entrants drop, the waitlist fills their places in
        sign-up order, and round 1 is paired."""
        async with self.lock(tournament_id):
            event = await self.get(tournament_id)
            await self.require_organiser(event, actor, "start the tournament")
            if event.status != "signup":
                raise UserError(t("This tournament has already started."))
            config = self.config_of(event)
            kind = self.format_of(event, config)
            entrants = await self.store.entrants(tournament_id)
            candidates = [e for e in entrants if e.state in ("entered", "waitlist")]
            # Dropped only once the start is sure: a refused start changes nothing.
            unchecked = [e for e in candidates if config.checkin and not e.checked_in]
            candidates = [e for e in candidates if e not in unchecked]
            candidates.sort(key=lambda e: (e.joined_at, e.entrant))
            playing = candidates[: config.max_players]
            least = kind.least_at_table
            if len(playing) < least:
                raise TooFewPlayers(least, len(playing), len(unchecked))
            for e in unchecked:
                await self.store.save_entrant(e.model_copy(update={"state": "dropped"}))
            for e in candidates:
                state = "entered" if e in playing else "waitlist"
                if e.state != state:
                    await self.store.save_entrant(e.model_copy(update={"state": state}))
            # The number of rounds is fixed now: late entries do not lengthen the event;
            # so is a cut sized by the field.
            fixed: dict[str, object] = {"rounds": kind.rounds(len(playing))}
            if config.default_cut:
                fixed["top_cut"] = default_cut(len(playing))
            if config.seeding == "rating" and kind.seeded_at_start:
                fixed["seed_ratings"] = await self.entrant_ratings(event, playing)
            config = config.model_copy(update=fixed)
            event = event.model_copy(
                update={"status": "running", "config": config.model_dump_json()}
            )
            await self.store.save_tournament(event)
            await self.audit(event, actor, "start", {}, {"players": len(playing)})
            await self._signup_change(tournament_id)
            await self._start_round(event, 1)

    async def _start_on_time(self, tournament_id: str) -> None:
        """The start time came: start as if the organiser pressed Start (nothing, if they
        did already or cancelled); with too few players, call the event off saying why."""
        event = await self.store.get_tournament(tournament_id)
        if event is None or event.status != "signup":
            return
        clock = Person(event.organiser_id, "Start time", can_manage=True)
        try:
            await self.start(tournament_id, clock)
            return
        except TooFewPlayers as short:
            # said in the server's language where it is posted
            if short.unchecked:
                reason = tn(
                    "it needed at least {n} player at its start time and had {found} checked in",
                    "it needed at least {n} players at its start time and had {found} checked in",
                    n=short.needed,
                    found=short.found,
                )
            else:
                reason = tn(
                    "it needed at least {n} player at its start time and had {found}",
                    "it needed at least {n} players at its start time and had {found}",
                    n=short.needed,
                    found=short.found,
                )
        except UserError:
            return  # started meanwhile
        async with self.lock(tournament_id):
            event = await self.get(tournament_id)
            if event.status != "signup":
                return
            event = event.model_copy(update={"status": "cancelled"})
            await self.store.save_tournament(event)
            await self.store.replace_tournament_timers(tournament_id, [])
            await self.audit(event, clock, "cancel", {"status": "signup"}, {"status": "cancelled"})
        await self.notify(
            TournamentChange(kind="cancelled", event=event, round=event.round, text=reason)
        )

    # --- players ---------------------------------------------------------------------------
    async def drop(self, tournament_id: str, person: Person) -> EntrantRecord:
        """Leave the event for good: no more pairings; finished results stay. The table
        being played goes on: the seat forfeits there like any absent player."""
        async with self.lock(tournament_id):
            event = await self.get(tournament_id)
            if not event.is_open:
                raise UserError(t("This tournament is over."))
            entrants = await self.store.entrants(tournament_id)
            before = signed_up(entrants, person.user_id)
            if before is None:
                raise UserError(t("You are not playing in this tournament."))
            mine = before.model_copy(update={"state": "dropped", "dropped_round": event.round})
            await self.store.save_entrant(mine)
            if event.status == "signup":
                await self._fill_place(before, entrants)
        if event.status == "signup":
            await self._signup_change(tournament_id)
        return mine

    async def stay_in(self, tournament_id: str, person: Person) -> EntrantRecord:
        async with self.lock(tournament_id):
            event = await self.get(tournament_id)
            mine = next(
                (
                    e
                    for e in await self.store.entrants(tournament_id)
                    if e.user_id == person.user_id
                ),
                None,
            )
            if mine is not None and mine.state == "dropped" and mine.forfeited and event.is_open:
                # Pressed after the next round was paired: the way back is the organiser's.
                raise UserError(
                    t(
                        "Too late: round {round} was paired without you after your forfeit. "
                        "The organiser can put you back in with /tournament player (Undrop).",
                        round=(mine.dropped_round or 0) + 1,
                    )
                )
            if mine is None or mine.state != "entered" or not event.is_open:
                raise UserError(t("You are not playing in this tournament any more."))
            if not mine.forfeited:
                raise UserError(t("You are in: nothing to confirm."))
            mine = mine.model_copy(update={"forfeited": False})
            await self.store.save_entrant(mine)
            return mine
