"""What a seat may know of a Cover Your Assets match, and how it looks on a table."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from typing import ClassVar, NamedTuple, Protocol

from pydantic import BaseModel, Field

from games.core.cards import Catalogue
from games.core.options import summary
from games.core.panels import Panel, PanelField, Panels
from games.core.protocol import Decision, Outcome
from games.core.text import Names, Text, Words, joined, plain, t, tn
from games.core.views import TableView, to_move
from games.cover.cookies_state import CRUMB_STEPS, CookiesOptions, CookiesState
from games.cover.lexicon import AssetsWords
from games.cover.state import CoverOptions, CoverSet, CoverState, RoundResult


class CoverRules(Protocol):
    """What the table and the bot ask of the game. The engine is one; neither names it,
    so the engine sits on top of both."""

    key: str
    name: str
    words: ClassVar[AssetsWords]
    cards: Catalogue

    def outcome(self, state: CoverState) -> Outcome | None: ...

    def decided(self, state: CoverState) -> Sequence[Decision]: ...

    def pile_players(self, state: CoverState, pile: int) -> tuple[int, int]: ...

    def count(self, number: int) -> Text: ...

    def short_money(self, amount: int) -> Text: ...

    def label(self, card: str) -> Text: ...

    def title(self, card: str) -> Text: ...

    def labels(self, cards: Iterable[str], sep: str = " + ") -> Text: ...

    def is_wild(self, card: str) -> bool: ...

    def is_action(self, card: str) -> bool: ...

    def matches(self, card: str, asset: str) -> bool: ...

    def make_set(self, *cards: str) -> CoverSet: ...


SETS_SHOWN = 4  # sets listed per stack; the rest are summed up below them
LOG_SHOWN = 5
NEWS = 2  # private lines under a hand: a draw, and an Exchange before it


class SetView(BaseModel):
    asset: str
    cards: list[str]
    value: int


class PlayerView(BaseModel):
    name: str
    hand_count: int
    stack: list[SetView]
    stack_value: int
    total: int
    round_wins: int


class BattleView(BaseModel):
    challenger: int
    defender: int
    asset: str
    depth: int
    played: list[tuple[int, str]]
    to_answer: int
    need: int
    drafted: list[str] | None = None


class DraftPileView(BaseModel):
    top: str | None  # face up
    size: int
    between: tuple[int, int]


class DraftView(BaseModel):
    drafter: int
    cards: list[str]
    opponent: int


class CoverView(TableView):
    """Public table plus the viewer's own hand. ``viewer`` None is a spectator.

    Empty lists are made by a factory: a plain ``[]`` default is deep-copied for every
    view, and a view is built at every move."""

    game: str
    viewer: int | None
    options: CoverOptions | CookiesOptions
    round: int
    turn: int
    players: list[PlayerView]
    hand: list[str] | None
    deck_count: int
    discard_top: str | None
    discard_count: int
    battle: BattleView | None
    drafts: list[DraftPileView]
    draft: DraftView | None
    deciding: list[int]  # seats deciding a Move card turned up on a draft pile
    crumbs: list[int] = Field(default_factory=list)  # Cover Your Cookies: Crumb Collector steps
    enhance_waiting: list[int] = Field(default_factory=list)
    mixer: tuple[int, str] | None = None  # a drawn Mixer waiting for its drawer's choice
    # Three players of Cover Your Cookies: the discard row.
    discard_row: list[str] = Field(default_factory=list)
    rounds: list[RoundResult]
    log: list[Words]
    # The latest lines only this seat saw ("You drew…", what an Exchange moved), for its
    # hand: a sorted hand does not show what came or went.
    news: list[Words] = Field(default_factory=list)
    end_reason: Words | None
    placements: list[tuple[int, int]]  # (seat, place), once the match is over


def view_of(game: CoverRules, state: CoverState, seat: int | None) -> CoverView:
    # Built as plain data and validated once: one pass of pydantic-core over the whole tree
    # costs a fraction of constructing each nested model on its own.
    outcome = game.outcome(state)
    values = game.cards.values
    players = []
    for i, p in enumerate(state.players):
        stack = [
            {"asset": s.asset, "cards": s.cards, "value": sum(map(values.__getitem__, s.cards))}
            for s in p.stack
        ]
        players.append(
            {
                "name": state.names[i],
                "hand_count": len(p.hand),
                "stack": stack,
                "stack_value": sum(s["value"] for s in stack),
                "total": state.totals[i],
                "round_wins": state.round_wins[i],
            }
        )
    return CoverView.model_validate(
        {
            "game": game.key,
            "viewer": seat,
            "to_move": to_move(game.decided(state), over=outcome is not None),
            "options": state.options,
            "round": state.round,
            "turn": state.turn,
            "players": players,
            "hand": state.players[seat].hand if seat is not None else None,
            "deck_count": len(state.deck),
            "discard_top": state.discard[-1] if state.discard else None,
            "discard_count": len(state.discard),
            "battle": state.battle.model_dump() if state.battle else None,
            "drafts": [
                {
                    "top": pile[-1] if pile else None,
                    "size": len(pile),
                    "between": game.pile_players(state, number),
                }
                for number, pile in enumerate(state.drafts)
            ],
            "draft": state.draft.model_dump() if state.draft else None,
            "deciding": [r.decider for r in state.reveals],
            **cookies_extras(state),
            "rounds": state.rounds,
            "log": [e.text for e in state.log if e.visible_for(seat)],
            "news": [e.text for e in state.log if e.visible_to and seat in e.visible_to][-NEWS:],
            "end_reason": state.end_reason,
            "placements": [(p.seat, p.place) for p in outcome.placements] if outcome else [],
        }
    )


def cookies_extras(state: CoverState) -> dict[str, object]:
    if not isinstance(state, CookiesState):
        return {}
    return {
        "crumbs": state.crumbs,
        "enhance_waiting": state.enhance_waiting,
        "mixer": (state.mixer.seat, state.mixer.card) if state.mixer else None,
        "discard_row": state.discard if len(state.players) == 3 else [],
    }


def panels_of(game: CoverRules, view: CoverView) -> Panels:
    return Panels(table=table_panel(game, view), hand=hand_panel(game, view))


def table_panel(game: CoverRules, view: CoverView) -> Panel:
    names = [p.name for p in view.players]
    fields = [player_field(game, view, seat) for seat in range(len(view.players))]
    if view.discard_row:
        discard: Text = t("row {cards}", cards=game.labels(view.discard_row, " · "))
    else:
        discard = game.label(view.discard_top) if view.discard_top else t("empty")
    middle = [t("🂠 Draw pile: {n} · Discard: {discard}", n=view.deck_count, discard=discard)]
    for number, pile in enumerate(view.drafts):
        top = game.label(pile.top) if pile.top else t("empty")
        if len(names) == 2:
            line = t(
                "📥 Draft pile {number}: {top} · {n} left", number=number + 1, top=top, n=pile.size
            )
        else:
            line = t(
                "📥 Draft pile {number} ({name}–{other}): {top} · {n} left",
                number=number + 1,
                name=names[pile.between[0]],
                other=names[pile.between[1]],
                top=top,
                n=pile.size,
            )
        middle.append(line)
    fields.append(PanelField(name=t("Middle"), value=joined(middle)))
    if view.log:
        fields.append(PanelField(name=t("Last moves"), value=joined(view.log[-LOG_SHOWN:])))
    title = (
        t("🍪 {game} · Round {n}", game=game.name, n=view.round)
        if view.crumbs
        else t("💰 {game} · Round {n}", game=game.name, n=view.round)
    )
    return Panel(
        title=title,
        description=status_line(game, view, names),
        fields=tuple(fields),
        footer=joined((summary(view.options), score_line(game, view)), " · "),
        accent="done" if view.end_reason else ("battle" if view.battle else "turn"),
    )


MEDALS = {1: "🥇", 2: "🥈", 3: "🥉"}


def status_line(game: CoverRules, view: CoverView, names: list[str]) -> Text:
    if view.end_reason:
        lines: list[str] = [t("**Game over.** {reason}", reason=view.end_reason), ""]
        for seat, place in view.placements:
            p = view.players[seat]
            medal = MEDALS.get(place, f"{place}.")
            money = game.short_money(p.total)
            line = joined((medal, bold(p.name), money), " ")
            if view.options.end_mode == "first_to_2":
                wins = tn("{n} round win", "{n} round wins", n=p.round_wins)
                line = joined((line, wins), " · ")
            lines.append(line)
        return joined(lines)
    if not view.to_move:
        return plain("")  # a closed table: nobody is to move, so no line says who is
    now = situation(game, view, names)
    return joined(
        (
            joined((now.icon, now.headline), " "),
            *(line for line in (now.detail, now.waiting) if line),
        )
    )


def bold(name: str) -> Text:
    """A name in bold, as an embed marks it (markdown kept out of the name itself)."""
    return joined((name,), lead="**", end="**")


class Situation(NamedTuple):
    """What is happening at a table in play: the table's embed and its picture both say it."""

    icon: str
    headline: Text
    detail: Text | str = ""  # the cards of a challenge (the picture draws them instead)
    waiting: Text | str = ""


def situation(
    game: CoverRules, view: CoverView, names: list[str], strong: Callable[[str], Text] = bold
) -> Situation:
    """``strong`` marks a name: bold in an embed, plain in a picture (which draws it bold)."""
    if view.battle:
        b = view.battle
        played = joined((joined((names[s], game.label(c)), ": ") for s, c in b.played), " → ")
        where = "second" if b.depth else "drafted" if b.drafted else ""
        return Situation(
            "⚔️",
            game.words.challenging(
                strong(names[b.challenger]), strong(names[b.defender]), game.title(b.asset), where
            ),
            played,
            game.words.waiting_for(strong(names[b.to_answer]), b.need == 2),
        )
    if view.mixer:
        seat, card = view.mixer
        drew = t(
            "{name} drew {card} and is choosing how it acts.",
            name=strong(names[seat]),
            card=game.label(card),
        )
        return Situation("🎛️", drew)
    if view.deciding:
        who = Names(strong(names[s]) for s in view.deciding)
        return Situation(
            "↕️",
            t("A Move card turned up on a draft pile. Waiting for {names} to decide.", names=who),
        )
    if view.draft:
        d = view.draft
        cards = game.labels(reversed(d.cards))
        return Situation(
            "📥",
            t("{name} drafted a set: {cards}.", name=strong(names[d.drafter]), cards=cards),
            # In the words of the opponent's own buttons ("Challenge it with…", "Let them
            # have it"): a drafted set is not theirs to let go.
            waiting=t(
                "Waiting for {name}: challenge it, or let them have it?",
                name=strong(names[d.opponent]),
            ),
        )
    who = Names(strong(names[s]) for s in view.to_move)
    return Situation("🎯", t("{names}'s turn.", names=who))


def player_field(game: CoverRules, view: CoverView, seat: int) -> PanelField:
    p = view.players[seat]
    parts: list[str] = [
        joined((p.name,), lead="▶ ") if seat in view.to_move else plain(p.name),
        t("{n} in hand", n=p.hand_count),
        game.short_money(p.stack_value),
    ]
    if view.crumbs:
        parts.append(t("crumbs {n}/{total}", n=view.crumbs[seat], total=CRUMB_STEPS))
    if view.enhance_waiting and view.enhance_waiting[seat]:
        parts.append(t("✨ waiting"))
    name = joined(parts, " · ")
    if not p.stack:
        return PanelField(name=name, value=game.words.no_sets_yet(), inline=True)
    lines: list[str] = []
    for depth, s in enumerate(reversed(p.stack)):
        if depth == SETS_SHOWN:
            rest = p.stack[: len(p.stack) - SETS_SHOWN]
            lines.append(
                t(
                    "…{n} more below ({money})",
                    n=len(rest),
                    money=game.short_money(sum(x.value for x in rest)),
                )
            )
            break
        bottom = depth == len(p.stack) - 1
        tag = "🔒 " if bottom else ("🔓 " if depth == 0 else "")
        line = set_line(game, s.asset, tuple(s.cards), s.value)
        lines.append(joined((line,), lead=tag) if tag else line)
    return PanelField(name=name, value=joined(lines), inline=True)


@lru_cache(maxsize=4096)
def set_line(game: CoverRules, asset: str, cards: tuple[str, ...], value: int) -> Text:
    """A set as the table lists it: its asset, a card emoji each (top first), its worth.
    Each move redraws every stack while changing a set or two: each is written once."""
    emojis = "".join(game.cards[c].emoji for c in reversed(cards))
    return joined((game.title(asset), emojis, game.short_money(value)), " ")


def score_line(game: CoverRules, view: CoverView) -> Text:
    if not view.rounds:
        return t("First round")
    parts = joined((joined((p.name, game.short_money(p.total)), " ") for p in view.players), ", ")
    return tn(
        "Totals after {n} round: {totals}",
        "Totals after {n} rounds: {totals}",
        n=len(view.rounds),
        totals=parts,
    )


def worth(game: CoverRules, card: str) -> Text:
    """A card's value in a hand; Swap and Move have none (not "$0k")."""
    return t("action card") if game.is_action(card) else game.short_money(game.cards[card].value)


def hand_panel(game: CoverRules, view: CoverView) -> Panel | None:
    if view.hand is None:
        return None
    counts: dict[str, int] = {}
    for card in view.hand:
        counts[card] = counts.get(card, 0) + 1
    lines: list[str] = [
        joined(
            (
                joined((game.label(card), f"×{n}"), " ") if n > 1 else game.label(card),
                worth(game, card),
            ),
            " · ",
        )
        for card, n in counts.items()
    ]
    me = view.players[view.viewer] if view.viewer is not None else None
    news = [joined((line,), lead="*", end="*") for line in view.news]
    return Panel(
        title=t("🃏 Your hand"),
        description=joined(lines + news) if lines else t("*Your hand is empty.*"),
        footer=(
            game.words.stack_footer(game.short_money(me.stack_value), len(me.stack)) if me else ""
        ),
    )
