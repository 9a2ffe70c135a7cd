"""Drawing a match: the lobby, the public table with its buttons and picture, and a
player's hand view with their moves as components and their hand's picture. Everything is
drawn from the stored state."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import discord

from bot.pictures import PictureLate, Pictures, picture_key
from bot.service import SeatView
from bot.store import MatchRecord
from bot.store.models import GONE, STANDING_IN
from cogs import render
from cogs.components import add_web_link, components_view
from cogs.speech import languages, say
from cogs.table.base import Part
from cogs.table.buttons import (
    LobbyButton,
    LobbyOption,
    MoveButton,
    MoveSelect,
    RaceButton,
    TableButton,
)
from cogs.table.pictured import HAND_FILE, Drawn
from cogs.table.seat_choice import SeatChoiceSelect
from games.core.panels import PanelField
from games.core.protocol import Decision, SeatChoosing
from games.core.text import Text, t, tc
from games.core.views import TableView

Note = Sequence[str]  # what a hand view says first: its lines (Texts), rendered in turn
# On every hand view: made once, so each language's rendering of it is kept (Text's memo)
# instead of looked up in the catalog again at every click.
REFRESH = tc("button", "Refresh")

if TYPE_CHECKING:
    from bot.client import CookieJar


class Drawing(Part):
    def __init__(self, bot: CookieJar, pictures: Pictures) -> None:
        super().__init__(bot)
        self.pictures = pictures
        # Per match: the race on the table and its cards in first-seen order, so buttons
        # keep their places while people click, and taken cards show greyed out.
        self._race_cards: dict[str, tuple[str, dict[str, str]]] = {}
        # Per match: the public lines of its latest race (who grabbed what), so a grab
        # that lost says who got the card.
        self._race_said: dict[str, tuple[str, list[str]]] = {}

    def race_said(self, match_id: str, stamp: str, lines: list[str]) -> None:
        """Public lines a change in the race ``stamp`` told (the latest few are kept)."""
        known = self._race_said.get(match_id)
        before = known[1] if known and known[0] == stamp else []
        self._race_said[match_id] = (stamp, (before + lines)[-2:])

    def who_got_it(self, match_id: str, stamp: str) -> list[str]:
        """The race's latest public lines ("✋ Abe grabs the milk!"), or none."""
        known = self._race_said.get(match_id)
        return list(known[1]) if known and known[0] == stamp else []

    def forget(self, match_id: str) -> None:
        self._race_cards.pop(match_id, None)
        self._race_said.pop(match_id, None)

    def lobby_view(self, record: MatchRecord, language: str) -> discord.ui.View:
        view = components_view()
        for verb in ("join", "leave", "bot", "start", "cancel"):
            view.add_item(LobbyButton(record.match_id, verb, language))
        game = self.service.game_of(record)
        rows = render.LOBBY_SELECTS
        if isinstance(game, SeatChoosing):
            view.add_item(SeatChoiceSelect.build(record.match_id, game, language))
            rows -= 1
        for name, choices in render.option_select_choices(record, game, rows):
            view.add_item(LobbyOption.build(record.match_id, name, choices, language))
        return view

    async def table_message(
        self,
        record: MatchRecord,
        *,
        answer: bool = False,
        late: Callable[[], None] | None = None,
    ) -> Drawn:
        """The table's message; its picture waits like a click's hand view as an
        ``answer``, and at most TABLE_WAIT with ``late`` (told when it is drawn, the message
        then ``late``: an edit keeps the picture shown)."""
        game = self.service.game_of(record)
        # A table is public: in the server's language (its settings are known already).
        language = await languages(self.bot).public(record.guild_id)
        if record.status == "lobby":
            return Drawn(
                [render.lobby_embed(record, game, language)], self.lobby_view(record, language)
            )
        if record.state is None:
            return Drawn([render.closed_embed(record, game, language)], None)
        spectator = await self.service.seat_view(record.match_id, None)
        coming = False
        try:
            picture = await self.pictures.picture(
                record.guild_id,
                game,
                spectator.view,
                picture_key(spectator),
                answer=answer,
                late=late,
                language=language,
            )
        except PictureLate:
            picture, coming = None, True
        table = spectator.panels.table
        if picture is not None or coming:
            table = table.pictured()  # the text beneath says less where the picture says it
        if record.status in ("active", "finished"):
            # The match's own lines go first, inside the same size budget as the game's;
            # the results keep saying how hard each bot played.
            extra = await self.match_fields(record) if record.status == "active" else []
            extra = [*extra, *bots_field(record)]
            table = table.model_copy(update={"fields": (*extra, *table.fields)})
        embed = render.embed_from_panel(table, language)
        view = components_view()
        if not spectator.races:
            self._race_cards.pop(record.match_id, None)
        mid = record.match_id
        if record.status == "active":
            # In a race the grab buttons are in each player's own hand view, current for
            # them at every click; the table shows the pile.
            label = tc("button", "Grab cards") if spectator.races else None
            view.add_item(TableButton("hand", mid, label=label, language=language))
            view.add_item(TableButton("watch", mid, language=language))
            if spectator.panels.details is not None:
                label = spectator.panels.details.title
                view.add_item(TableButton("more", mid, label=label, language=language))
        elif record.status == "finished":
            label = tc("button", "My last hand")
            view.add_item(TableButton("hand", mid, label=label, language=language))
            view.add_item(TableButton("watch", mid, language=language))
            view.add_item(TableButton("rematch", mid, language=language))
        else:
            cancelled = say(t("**This match was cancelled.**"), language)
            embed.description = cancelled + "\n" + (embed.description or "")
            embed.description = render.clip(embed.description, render.DESCRIPTION)
            return Drawn([embed], None, picture, late=coming, language=language)
        await add_web_link(
            view, self.bot.web_links, record.guild_id, "table", mid, language=language
        )
        return Drawn([embed], view, picture, late=coming, language=language)

    def add_race(self, view: discord.ui.View, match_id: str, race: Decision, language: str) -> None:
        """One button per kind of card in the seat's race, above the hand view's last row."""
        stamp = race.race_stamp
        known = self._race_cards.get(match_id)
        cards = dict(known[1]) if known and known[0] == stamp else {}
        offered: dict[str, str] = {}
        for option in race.options:
            offered.setdefault(option.action.encode(), option.label)
        for action, label in offered.items():
            cards.setdefault(action, label)
        self._race_cards[match_id] = (stamp, cards)
        slots = render.BUTTONS_PER_ROW * (render.ROWS - 1)
        for index, (action, label) in enumerate(list(cards.items())[:slots]):
            taken = action not in offered
            view.add_item(
                RaceButton(
                    match_id,
                    stamp,
                    action,
                    t("{card} (taken)", card=label) if taken else offered[action],
                    disabled=taken,
                    row=index // render.BUTTONS_PER_ROW,
                    language=language,
                )
            )

    async def match_fields(self, record: MatchRecord) -> list[PanelField]:
        """Deadlines, bots standing in, vacations: how the match is run, not the game."""
        fields = []
        held = await self.service.held(record)
        if held is not None:
            # A paused event's clocks are set aside: no time to show, but why play waits.
            fields.append(PanelField(name=t("⏸️ Paused"), value=held))
        deadlines = {} if held else await self.service.deadlines(record.match_id)
        racing = await self.service.racing(record.match_id)
        if racing and deadlines:
            closes = min(deadlines[seat] for seat in racing if seat in deadlines)
            fields.append(
                PanelField(name=t("🏃 Grab now!"), value=t("Closes <t:{due}:R>", due=int(closes)))
            )
            deadlines = {s: due for s, due in deadlines.items() if s not in racing}
        if deadlines:
            fields.append(
                PanelField(
                    name=t("⏰ Time to move · {pace}", pace=render.pace_line(record)),
                    value=render.deadline_lines(record, deadlines),
                )
            )
        away = [s.name for s in record.seats if s.user_id is not None and s.away]
        if away:
            fields.append(PanelField(name=t("🤖 Bots standing in"), value=render.commas(away)))
        vacations = await self.vacations(record)
        if vacations:
            fields.append(PanelField(name=t("🏖️ On vacation"), value=render.stacked(vacations)))
        return fields

    async def vacations(self, record: MatchRecord) -> list[Text]:
        now = self.service.clock.now()
        lines = []
        for seat in record.seats:
            if seat.user_id is None:
                continue
            person = await self.service.known_settings(seat.user_id)
            if person.away_at(now) and person.away_until is not None:
                until = int(person.away_until)
                lines.append(t("{name} until <t:{date}:D>", name=seat.name, date=until))
        return lines

    async def hand_message(
        self,
        seen: SeatView,
        note: Note = (),
        *,
        language: str,
        answer: bool = True,
        then: Callable[[], None] | None = None,
    ) -> Drawn:
        """The ephemeral hand view in its player's ``language``: the hand and its picture,
        what to decide, and the moves as components (``answer``: to a click; else followed
        for a ping; ``then``: called when a picture the view went without is drawn after
        all)."""
        picture = None
        if seen.seat is not None:
            picture = await self.pictures.hand(
                seen.match.guild_id,
                seen.game,
                seen.view,
                answer=answer,
                then=then,
                language=language,
            )
        return self.hand_text(seen, note, picture, language)

    def hand_text(self, seen: SeatView, note: Note, picture: bytes | None, language: str) -> Drawn:
        embeds = []
        hand = seen.panels.hand
        if hand is not None:
            embeds.append(render.embed_from_panel(hand.pictured() if picture else hand, language))
        lines: list[str] = [" ".join(say(line, language) for line in note)] if note else []
        view = components_view()
        decision = seen.decision
        mid = seen.match.match_id
        mine = seen.match.seats[seen.seat] if seen.seat is not None else None
        gone = mine is not None and mine.away == GONE
        said: list[Text] = []
        if gone:
            said.append(t("🚪 You left this match: a bot plays your seat to the end."))
        if mine is not None and mine.away == STANDING_IN:
            said.append(t("🤖 A bot is playing your seat. Press **I'm back** to play again."))
            view.add_item(TableButton("back", mid, language=language))
        if seen.match.status != "active":
            said.append(
                t("This match is over.")
                if seen.match.status == "finished"
                else t("This match was cancelled.")
            )
        elif gone:
            pass  # nothing more to wait for: no ping comes to a seat its player left
        elif isinstance(seen.view, TableView) and seen.view.out:
            said.append(
                t(
                    "{out} The others play on: the table shows how it ends.",
                    out=render.game_words(seen.view.out),
                )
            )
        elif decision is None:
            names = [s.name for s in seen.match.seats if s.seat in seen.waiting_on]
            # not "on your turn": in a game of answers it may be yours
            said.append(
                t(
                    "Waiting for **{names}**. Your moves show here when you have one to make.",
                    names=render.commas(names),
                )
            )
        elif decision.window is not None:
            said.append(t("**{prompt}**", prompt=render.game_words(decision.prompt)))
            self.add_race(view, mid, decision, language)
        else:
            said.append(t("**{prompt}**", prompt=render.game_words(decision.prompt)))
            for row, (kind, title, options) in enumerate(render.layout(decision)):
                if kind == "button":
                    for index, option in options:
                        view.add_item(
                            MoveButton(
                                mid,
                                decision.stamp,
                                index,
                                option.label,
                                render.button_style(option.style),
                                row=row,
                                language=language,
                            )
                        )
                else:
                    multi = kind == "multi"
                    view.add_item(
                        MoveSelect.build(
                            mid,
                            decision.stamp,
                            row,
                            title,
                            render.select_choices(options, decision.max_picks if multi else 1),
                            language,
                            picks=(decision.min_picks, decision.max_picks) if multi else (1, 1),
                        )
                    )
        lines += [say(line, language) for line in said]
        if seen.match.status == "active":
            for chance in seen.chances:  # a shout: on the last row, beside Refresh
                for index, option in enumerate(chance.options[: render.BUTTONS_PER_ROW - 2]):
                    view.add_item(
                        MoveButton(
                            mid,
                            chance.stamp,
                            index,
                            option.label,
                            render.button_style(option.style),
                            row=render.ROWS - 1,
                            language=language,
                        )
                    )
        refresh = TableButton(
            "hand",
            mid,
            label=REFRESH,
            style=discord.ButtonStyle.secondary,
            language=language,
        )
        refresh.item.row = render.ROWS - 1  # the plan leaves the last row for it
        view.add_item(refresh)
        return Drawn(embeds, view, picture, HAND_FILE, content="\n".join(lines), language=language)


def bots_field(record: MatchRecord) -> list[PanelField]:
    """The match's bots with their levels, for the table and its results."""
    bots = render.bot_levels(record)
    return [PanelField(name=t("🤖 Bots"), value=bots)] if bots else []
