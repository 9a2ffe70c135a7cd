"""/history, /replay and /export: finished matches, paged, replayed move by move, as files.

Each replay page shows the picture of the table at that move, as everyone saw it then (for
a game that draws, on a server with pictures on). The replay's buttons and select are
DynamicItems whose custom_id names the match, the move to show, whether every hand is
shown and who steps that message: nothing else, and never a card. Any copy of the bot,
started at any time, can answer a click on them.

A replay posted in a channel is stepped by whoever asked for it. Anyone else who clicks it
gets a copy of their own (ephemeral) at the move they asked for, so that two people
reading the same match never turn each other's page.
"""

from __future__ import annotations

import io
import re
from datetime import UTC, datetime
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import UserError
from bot.service import HistoryPage, MatchService, PastMatch, Replay
from bot.service.base import match_outcome
from cogs import render
from cogs.components import (
    GuardedClick,
    add_web_link,
    components_view,
    guarded,
    links_of,
    page_button,
    service_of,
    tell,
)
from cogs.speech import label, personal, public, say
from cogs.table import presenter_of
from cogs.table.pictured import Drawn
from games import GAMES
from games.core.panels import Panel
from games.core.protocol import Game
from games.core.replay import jump, round_starts
from games.core.text import Num, Text, plain, t, tc, tn

if TYPE_CHECKING:
    from bot.client import CookieJar

MID = r"(?P<mid>[0-9a-f]{10})"
GAME_CHOICES = [app_commands.Choice(name=game.name, value=key) for key, game in GAMES.items()]
CONTENT = 2000
# Who steps a replay message: a Discord user id, last in its components' custom_ids. A
# message posted before owners has none, and anyone steps it.
OWNER = r"(?::(?P<owner>\d{1,20}))?"


def owned(owner: int | None) -> str:
    return "" if owner is None else f":{owner}"


def owner_of(match: re.Match[str]) -> int | None:
    return int(match["owner"]) if match["owner"] else None


def duration(seconds: float) -> Text:
    """How long a match took, in short units ("2 h 5 min")."""
    minutes = int(seconds // 60)
    if minutes < 1:
        return t("{n} s", n=int(seconds))
    if minutes < 60:
        return t("{n} min", n=minutes)
    hours, minutes = divmod(minutes, 60)
    if hours < 48:
        if minutes:
            return t("{hours} h {minutes} min", hours=hours, minutes=minutes)
        return t("{hours} h", hours=hours)
    return t("{days} d {hours} h", days=hours // 24, hours=hours % 24)


def standings_line(past: PastMatch, language: str) -> str:
    places = [place for place, _, _ in past.standings]
    return " · ".join(
        say(
            t(
                "{place} {name} {score}",
                place=render.place_mark(place, places),
                name=name,
                score=render.game_words(score),
            )
            if score
            else t("{place} {name}", place=render.place_mark(place, places), name=name),
            language,
        )
        for place, name, score in past.standings
    )


def day(moment: float | None) -> str:
    if moment is None:
        return "?"
    return datetime.fromtimestamp(moment, UTC).strftime("%Y-%m-%d")


# --- /history ------------------------------------------------------------------------------
def nothing_found(game: str | None, user_id: int | None) -> Text:
    """An empty /history, saying the filters it was asked for."""
    if game in GAMES and user_id is not None:
        return t(
            "No finished match of {game} with <@{user}> here yet. Play one with /play!",
            game=GAMES[game].name,
            user=user_id,
        )
    if game in GAMES:
        return t(
            "No finished match of {game} here yet. Play one with /play!", game=GAMES[game].name
        )
    if user_id is not None:
        return t("No finished match with <@{user}> here yet. Play one with /play!", user=user_id)
    return t("No finished match here yet. Play one with /play!")


def history_message(
    found: HistoryPage, game: str | None, user_id: int | None, language: str
) -> tuple[discord.Embed, discord.ui.View]:
    which = plain(GAMES[game].name) if game in GAMES else t("every game")
    if user_id is not None:
        scope = t(
            "Newest first · {game} · with <@{user}> · {n} in all",
            game=which,
            user=user_id,
            n=Num(found.total),  # a busy server's thousands, grouped as its language does
        )
    else:
        scope = t("Newest first · {game} · {n} in all", game=which, n=Num(found.total))
    embed = discord.Embed(
        title=say(t("📜 Finished matches on this server"), language),
        description=say(scope if found.total else nothing_found(game, user_id), language),
        colour=render.COLOURS["done"],
    )
    for past in found.entries:
        record = past.record
        moves = tn("{n} move", "{n} moves", n=past.moves)
        if past.started_at is not None and past.finished_at is not None:
            took = duration(past.finished_at - past.started_at)
            moves = t("{moves} in {duration}", moves=moves, duration=took)
        ended = t("<t:{date}:d>", date=int(past.finished_at)) if past.finished_at else plain("?")
        link = render.jump_link(record)
        if link:
            line = t("{ended} · {moves} · [table]({link})", ended=ended, moves=moves, link=link)
        else:
            line = t("{ended} · {moves}", ended=ended, moves=moves)
        embed.add_field(
            name=render.clip(f"{past.game_name} · {record.match_id}", render.FIELD_NAME),
            value=render.clip(
                f"{standings_line(past, language)}\n{say(line, language)}", render.FIELD_VALUE
            ),
            inline=False,
        )
    footer = t(
        "Page {page} of {pages} · /replay match:<id> replays one, /export match:<id> saves it",
        page=found.page + 1,
        pages=found.pages,
    )
    embed.set_footer(text=say(footer, language))
    view = components_view()
    if found.pages > 1:
        view.add_item(HistoryButton(found.page - 1, game, user_id, "a", found.page == 0, language))
        view.add_item(
            HistoryButton(
                found.page + 1, game, user_id, "b", found.page >= found.pages - 1, language
            )
        )
    return embed, view


class HistoryButton(
    GuardedClick,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"cj:hist:(?P<page>\d{1,4}):(?P<game>[a-z_]{1,40}|-):(?P<user>\d{1,20}):(?P<slot>[ab])",
):
    """Newer / older page of /history. The user id is the filter the asker chose (whose
    matches to list), public anyway as a mention; it grants nothing."""

    def __init__(
        self,
        page: int,
        game: str | None,
        user_id: int | None,
        slot: str,
        disabled: bool = False,
        language: str = "en",
    ) -> None:
        super().__init__(
            page_button(
                slot,
                (tc("button", "Newer"), tc("button", "Older")),
                f"cj:hist:{max(page, 0)}:{game or '-'}:{user_id or 0}:{slot}",
                language,
                disabled=disabled,
            )
        )
        self.page, self.game, self.user_id = max(page, 0), game, user_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> HistoryButton:
        game = None if match["game"] == "-" else match["game"]
        user = int(match["user"]) or None
        return cls(int(match["page"]), game, user, match["slot"])

    async def _run(self, interaction: discord.Interaction) -> None:
        found = await service_of(interaction).history(
            interaction.guild_id or 0, game=self.game, user_id=self.user_id, page=self.page
        )
        language = await personal(interaction)
        embed, view = history_message(found, self.game, self.user_id, language)
        await interaction.response.edit_message(embed=embed, view=view)


# --- /replay -------------------------------------------------------------------------------
def hand_embed(name: str, panel: Panel, budget: int, language: str) -> discord.Embed:
    title = render.clip(say(t("🃏 {name}'s hand", name=name), language), render.TITLE)
    # The footer is left out: it speaks to the hand's owner ("Your stack...").
    parts = [say(panel.description, language)]
    parts += [
        say(t("**{name}**", name=render.game_words(f.name)), language)
        + "\n"
        + say(f.value, language)
        for f in panel.fields
    ]
    text = "\n".join(p for p in parts if p) or say(t("*empty*"), language)
    room = max(1, min(render.DESCRIPTION, budget - len(title)))
    return discord.Embed(
        title=title, description=render.clip(text, room), colour=render.COLOURS[panel.accent]
    )


# What a replay calls the steps it jumps by, for the words games count in ("round", the
# Braverse "turn"): each its own message, so a language words them its own way.
STEP_WORDS: dict[str, tuple[Text, Text, Text]] = {
    "round": (tc("button", "Last round"), tc("button", "Next round"), t("Jump to a round")),
    "turn": (tc("button", "Last turn"), tc("button", "Next turn"), t("Jump to a turn")),
}


def replay_message(
    game: Game,
    found: Replay,
    step: int,
    hands: bool,
    language: str,
    *,
    pictured: bool = False,
    owner: int | None = None,
) -> tuple[str, list[discord.Embed], discord.ui.View]:
    """The replay's page at ``step`` in ``language``; its buttons turn the page for
    ``owner`` (who steps this message) and give anyone else a copy of their own."""
    frames, record = found.frames, found.record
    last = len(frames) - 1
    step = shown_step(found, step)
    frame = frames[step]
    names = frame.state.names
    if frame.seat is None:
        head = t(
            "🎬 **{game}** · replay of `{match}` · the deal (move 0 of {last})",
            game=game.name,
            match=record.match_id,
            last=last,
        )
    else:
        head = t(
            "🎬 **{game}** · replay of `{match}` · move {step} of {last}: **{name}** — {move}",
            game=game.name,
            match=record.match_id,
            step=step,
            last=last,
            name=names[frame.seat],
            move=render.game_words(frame.label),
        )
    lines = [say(head, language)]
    # Public lines only: a private one is worded for its seat ("You drew..."); the hands
    # themselves are on the page with All hands.
    lines += [f"> {say(e.text, language)}" for e in frame.events if e.visible_to is None]
    if step == last and game.outcome(frame.state) is None:
        # The game did not end by itself: the players left (a forfeit ended it).
        ended = match_outcome(record, game, frame.state)
        if ended is not None:
            lines.append(say(t("🏳️ {why}", why=render.game_words(ended.reason)), language))
    content = render.clip("\n".join(lines), CONTENT)

    panel = game.panels(game.view(frame.state, None)).table
    table = render.embed_from_panel(panel.pictured() if pictured else panel, language)
    embeds = [table]
    if hands:
        room = render.EMBEDS_TOTAL - len(table) - 100
        per_hand = room // max(1, len(names))
        if per_hand >= 60:
            for seat, name in enumerate(names):
                hand = game.panels(game.view(frame.state, seat)).hand
                if hand is not None:
                    embeds.append(hand_embed(name, hand, per_hand, language))
        else:
            apart = say(t("*(The hands do not fit beside this table.)*"), language)
            content = render.clip(content + "\n" + apart, 2000)

    starts = round_starts(frames)
    rounds = len(starts) > 1
    word = game.round_word  # "round", or what the game's own log counts ("turn")
    back_word, forward_word, jump_word = STEP_WORDS.get(word, STEP_WORDS["round"])
    view = components_view()
    back, forward = (back_word, forward_word) if rounds else (plain("−10"), plain("+10"))
    hide = tc("button", "Hide hands") if hands else tc("button", "All hands")
    turns = [
        ("a", jump(frames, step, -1), hands, back, "⏪", step == 0),
        ("b", step - 1, hands, tc("button", "Back"), "◀", step == 0),
        ("c", step + 1, hands, tc("button", "Next"), "▶", step == last),
        ("d", jump(frames, step, 1), hands, forward, "⏩", step == last),
        ("e", step, not hands, hide, "🃏", False),
    ]
    for slot, to, with_hands, words, emoji, disabled in turns:
        view.add_item(
            ReplayButton(
                record.match_id,
                slot,
                to,
                with_hands,
                label(words, language),
                emoji,
                disabled,
                owner,
            )
        )
    marks: list[tuple[Text, int]] = (
        [(t("{round} · from move {step}", round=round_mark(word, r), step=s), s) for r, s in starts]
        if rounds
        else [
            (t("Move {step} (the deal)", step=s) if s == 0 else t("Move {step}", step=s), s)
            for s in range(0, last + 1, 10)
        ]
    )
    if not rounds and marks[-1][1] != last:
        marks.append((t("Move {step} (the end)", step=last), last))
    if len(marks) > 1:
        here = max(i for i, (_, s) in enumerate(marks) if s <= step)
        first = max(0, min(here - 12, len(marks) - render.SELECT_OPTIONS))
        view.add_item(
            ReplaySelect.build(
                record.match_id,
                hands,
                owner,
                label(jump_word if rounds else t("Jump to a move"), language),
                [(label(m, language), s) for m, s in marks[first : first + render.SELECT_OPTIONS]],
            )
        )
    return content, embeds, view


def round_mark(word: str, number: int) -> Text:
    """ "Round 3", "Turn 3"; a round 0 is what comes before the first: the set-up."""
    if not number:
        return t("Set-up")
    if word == "turn":
        return t("Turn {n}", n=number)
    return t("Round {n}", n=number)


def shown_step(found: Replay, step: int) -> int:
    return max(0, min(step, len(found.frames) - 1))


async def replay_page(
    interaction: discord.Interaction,
    found: Replay,
    step: int,
    hands: bool,
    owner: int,
    language: str,
) -> Drawn:
    """The page at ``step`` in ``language``, with the picture of the table at that moment,
    stepped by ``owner``."""
    game = service_of(interaction).game_of(found.record)
    state = found.frames[shown_step(found, step)].state
    key = (found.record.match_id, state.version, None, "replay")
    picture = await presenter_of(interaction.client).pictures.picture(
        found.record.guild_id, game, game.view(state, None), key, answer=True, language=language
    )
    content, embeds, view = replay_message(
        game, found, step, hands, language, pictured=bool(picture), owner=owner
    )
    return Drawn(embeds, view, picture, content=content, language=language)


async def show_replay(
    interaction: discord.Interaction, match_id: str, step: int, hands: bool, owner: int | None
) -> None:
    """Turn the replay message to ``step`` for the one who steps it (``owner``; None on a
    message from before owners, which anyone steps); anyone else gets their own copy at
    ``step``, which only they see and step."""
    service = service_of(interaction)
    clicker = interaction.user.id
    mine = owner is None or owner == clicker
    # A replay not in memory takes a moment to compute.
    if mine:
        await interaction.response.defer()
    else:
        await interaction.response.defer(ephemeral=True, thinking=True)
    found = await service.replay(interaction.guild_id or 0, match_id)
    # The message in the channel is the server's to read; a copy of one's own, one's own.
    language = await (public(interaction) if mine else personal(interaction))
    # Whoever clicked steps the page they get (an owner-less message becomes theirs).
    page = await replay_page(interaction, found, step, hands, clicker, language)
    links = links_of(interaction)
    await add_web_link(
        page.view, links, interaction.guild_id, "replay", found.record.match_id, language=language
    )
    if mine:
        await interaction.edit_original_response(**page.edited())
        return
    own = say(own_copy(owner), language)
    page.content = render.clip(f"{own}\n{page.content or ''}", CONTENT)
    await interaction.followup.send(
        **page.sent(), ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
    )


# Said once, atop the copy a click on someone else's replay opens; the copy's own pages
# leave it out.
def own_copy(owner: int | None) -> Text:
    if owner is None:
        return t("*Your own copy of this replay: step through it here at your pace.*")
    return t(
        "*Your own copy of <@{owner}>'s replay: step through it here at your pace.*",
        owner=owner,
    )


class ReplayButton(
    GuardedClick,
    discord.ui.DynamicItem[discord.ui.Button],
    template=rf"cj:rp:{MID}:(?P<slot>[a-e]):(?P<step>\d{{1,6}}):(?P<hands>[01]){OWNER}",
):
    def __init__(
        self,
        match_id: str,
        slot: str,
        step: int,
        hands: bool,
        label: str = "Move",
        emoji: str | None = None,
        disabled: bool = False,
        owner: int | None = None,
    ) -> None:
        step = max(step, 0)
        super().__init__(
            discord.ui.Button(
                label=label,
                emoji=emoji,
                style=discord.ButtonStyle.success
                if slot == "e" and not hands
                else discord.ButtonStyle.secondary,
                disabled=disabled,
                custom_id=f"cj:rp:{match_id}:{slot}:{step}:{int(hands)}{owned(owner)}",
                row=0,
            )
        )
        self.match_id, self.step, self.hands, self.owner = match_id, step, hands, owner

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> ReplayButton:
        return cls(
            match["mid"],
            match["slot"],
            int(match["step"]),
            match["hands"] == "1",
            owner=owner_of(match),
        )

    async def _run(self, interaction: discord.Interaction) -> None:
        await show_replay(interaction, self.match_id, self.step, self.hands, self.owner)


class ReplaySelect(
    GuardedClick,
    discord.ui.DynamicItem[discord.ui.Select],
    template=rf"cj:rps:{MID}:(?P<hands>[01]){OWNER}",
):
    def __init__(
        self, match_id: str, hands: bool, select: discord.ui.Select, owner: int | None = None
    ) -> None:
        super().__init__(select)
        self.match_id, self.hands, self.owner = match_id, hands, owner

    @classmethod
    def build(
        cls,
        match_id: str,
        hands: bool,
        owner: int | None,
        placeholder: str,
        marks: list[tuple[str, int]],
    ) -> ReplaySelect:
        select = discord.ui.Select(
            custom_id=f"cj:rps:{match_id}:{int(hands)}{owned(owner)}",
            placeholder=placeholder,
            options=[discord.SelectOption(label=label, value=str(step)) for label, step in marks],
            row=1,
        )
        return cls(match_id, hands, select, owner)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str]
    ) -> ReplaySelect:
        return cls(match["mid"], match["hands"] == "1", item, owner_of(match))

    async def _run(self, interaction: discord.Interaction) -> None:
        values = self.item.values  # type: ignore[attr-defined]
        if not values or not values[0].isdigit():
            raise UserError(t("Pick a round or a move from the list."))
        await show_replay(interaction, self.match_id, int(values[0]), self.hands, self.owner)


class History(commands.Cog):
    def __init__(self, bot: CookieJar) -> None:
        self.bot = bot

    @property
    def service(self) -> MatchService:
        return self.bot.service

    @app_commands.command(name="history", description="This server's finished matches.")
    @app_commands.describe(game="Only this game", user="Only matches this member played")
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.guild_only()
    async def history(
        self,
        interaction: discord.Interaction,
        game: app_commands.Choice[str] | None = None,
        user: discord.User | None = None,
    ) -> None:
        async def run() -> None:
            key = game.value if game is not None else None
            user_id = user.id if user is not None else None
            found = await self.service.history(interaction.guild_id or 0, game=key, user_id=user_id)
            language = await personal(interaction)
            embed, view = history_message(found, key, user_id, language)
            await interaction.response.send_message(embed=embed, view=view, ephemeral=True)

        await guarded(interaction, run())

    async def finished_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        found = await self.service.recent_finished(interaction.guild_id or 0, current)
        return [
            app_commands.Choice(
                name=render.clip(
                    f"{p.game_name} · {day(p.finished_at)} · "
                    f"{', '.join(name for _, name, _ in p.standings)} · {p.record.match_id}",
                    100,
                ),
                value=p.record.match_id,
            )
            for p in found
        ]

    @app_commands.command(name="replay", description="Replay a finished match, move by move.")
    @app_commands.describe(match="The match (type a game or a player to search)")
    @app_commands.guild_only()
    async def replay(self, interaction: discord.Interaction, match: str) -> None:
        async def run() -> None:
            guild = interaction.guild_id or 0
            # Refusals (a running match...) come first, as a private sentence.
            await self.service.finished_match(guild, match)
            await interaction.response.defer(thinking=True)
            found = await self.service.replay(guild, match.strip().lower())
            # Posted in the channel, for everyone there: the server's language.
            language = await public(interaction)
            page = await replay_page(interaction, found, 0, False, interaction.user.id, language)
            await add_web_link(
                page.view,
                self.bot.web_links,
                guild,
                "replay",
                found.record.match_id,
                language=language,
            )
            await interaction.followup.send(**page.sent())

        await guarded(interaction, run())

    @app_commands.command(name="export", description="A finished match as a JSON file.")
    @app_commands.describe(match="The match (type a game or a player to search)")
    @app_commands.guild_only()
    async def export(self, interaction: discord.Interaction, match: str) -> None:
        async def run() -> None:
            exported = await self.service.export(interaction.guild_id or 0, match)
            name = f"cookie-jar-{exported.match_id}.json"
            data = exported.model_dump_json(indent=1).encode()
            said = tn(
                "📦 {game} · `{match}` · {n} move, as a file. To step through it here: "
                "`/replay match:{match}`.",
                "📦 {game} · `{match}` · {n} moves, as a file. To step through it here: "
                "`/replay match:{match}`.",
                n=len(exported.actions),
                game=GAMES[exported.game].name,
                match=exported.match_id,
            )
            await tell(interaction, said, file=discord.File(io.BytesIO(data), filename=name))

        await guarded(interaction, run())

    replay.autocomplete("match")(finished_choices)
    export.autocomplete("match")(finished_choices)


async def setup(bot: CookieJar) -> None:
    bot.add_dynamic_items(HistoryButton, ReplayButton, ReplaySelect)
    await bot.add_cog(History(bot))
