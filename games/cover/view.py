"""What a seat may know of a Cover Your Assets match, and how it looks on a table."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import ClassVar, NamedTuple, Protocol

from pydantic import BaseModel, Field

from games.core.cards import Catalogue
from games.core.options import summary
from games.core.panels import Panel, PanelField, Panels
from games.core.protocol import Decision, Outcome
from games.core.views import TableView, to_move
from games.core.words import plural
from games.cover.cookies_state import CRUMB_STEPS, CookiesOptions, CookiesState
from games.cover.state import CoverOptions, CoverSet, CoverState, RoundResult


class CoverRules(Protocol):
    """What the table and the bot ask of the game. The engine is one; neither names it,
    so the engine sits on top of both."""

    key: str
    name: str
    WORDS: ClassVar[dict[str, str]]
    cards: Catalogue

    def outcome(self, state: CoverState) -> Outcome | None: ...

    def decided(self, state: CoverState) -> Sequence[Decision]: ...

    def pile_players(self, state: CoverState, pile: int) -> tuple[int, int]: ...

    def count(self, number: int, word: str) -> str: ...

    def short_money(self, amount: int) -> str: ...

    def label(self, card: str) -> str: ...

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
    log: list[str]
    # The latest lines only this seat saw ("You drew…", what an Exchange moved), for its
    # hand: a sorted hand does not show what came or went.
    news: list[str] = Field(default_factory=list)
    end_reason: str | None
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
    discard = game.label(view.discard_top) if view.discard_top else "empty"
    if view.discard_row:
        discard = "row " + " · ".join(game.label(c) for c in view.discard_row)
    middle = [f"🂠 Draw pile: {view.deck_count} · Discard: {discard}"]
    for number, pile in enumerate(view.drafts):
        top = game.label(pile.top) if pile.top else "empty"
        beside = "" if len(names) == 2 else f" ({names[pile.between[0]]}–{names[pile.between[1]]})"
        middle.append(f"📥 Draft pile {number + 1}{beside}: {top} · {pile.size} left")
    fields.append(PanelField(name="Middle", value="\n".join(middle)))
    if view.log:
        fields.append(PanelField(name="Last moves", value="\n".join(view.log[-LOG_SHOWN:])))
    return Panel(
        title=f"{'🍪' if view.crumbs else '💰'} {game.name} · Round {view.round}",
        description=status_line(game, view, names),
        fields=tuple(fields),
        footer=f"{summary(view.options)} · {score_line(game, view)}",
        accent="done" if view.end_reason else ("battle" if view.battle else "turn"),
    )


def status_line(game: CoverRules, view: CoverView, names: list[str]) -> str:
    if view.end_reason:
        medals = {1: "🥇", 2: "🥈", 3: "🥉"}
        lines = [f"**Game over.** {view.end_reason}", ""]
        for seat, place in view.placements:
            p = view.players[seat]
            lines.append(
                f"{medals.get(place, f'{place}.')} **{p.name}** {game.short_money(p.total)}"
                + (
                    f" · {plural(p.round_wins, 'round win')}"
                    if view.options.end_mode == "first_to_2"
                    else ""
                )
            )
        return "\n".join(lines)
    if not view.to_move:
        return ""  # a closed table: nobody is to move, so no line says who is
    now = situation(game, view, names)
    return "\n".join(
        line for line in (f"{now.icon} {now.headline}", now.detail, now.waiting) if line
    )


def bold(text: str) -> str:
    return f"**{text}**"


class Situation(NamedTuple):
    """What is happening at a table in play: the table's embed and its picture both say it."""

    icon: str
    headline: str
    detail: str = ""  # the cards of a challenge (the picture draws them instead)
    waiting: str = ""


def situation(
    game: CoverRules, view: CoverView, names: list[str], strong: Callable[[str], str] = bold
) -> Situation:
    """``strong`` marks a name: bold in an embed, as it is in a picture."""
    if view.battle:
        b = view.battle
        played = " → ".join(f"{names[s]}: {game.label(c)}" for s, c in b.played)
        where = " (second from top)" if b.depth else " (just drafted)" if b.drafted else ""
        due = " (two cards, or a Penny Jar)" if b.need == 2 else ""
        return Situation(
            "⚔️",
            f"{strong(names[b.challenger])} is {game.WORDS['challenging']} "
            f"{strong(names[b.defender])}'s {game.cards[b.asset].name} {game.WORDS['set']}{where}.",
            played,
            f"Waiting for {strong(names[b.to_answer])}{due}.",
        )
    if view.mixer:
        seat, card = view.mixer
        drew = f"{strong(names[seat])} drew {game.label(card)} and is choosing how it acts."
        return Situation("🎛️", drew)
    if view.deciding:
        who = ", ".join(strong(names[s]) for s in view.deciding)
        return Situation(
            "↕️", f"A Move card turned up on a draft pile. Waiting for {who} to decide."
        )
    if view.draft:
        d = view.draft
        cards = " + ".join(game.label(c) for c in reversed(d.cards))
        return Situation(
            "📥",
            f"{strong(names[d.drafter])} drafted a set: {cards}.",
            # In the words of the opponent's own buttons ("Challenge it with…", "Let them
            # have it"): a drafted set is not theirs to let go.
            waiting=f"Waiting for {strong(names[d.opponent])}: challenge it, or let them have it?",
        )
    who = ", ".join(strong(names[s]) for s in view.to_move)
    return Situation("🎯", f"{who}'s turn.")


def player_field(game: CoverRules, view: CoverView, seat: int) -> PanelField:
    p = view.players[seat]
    marker = "▶ " if seat in view.to_move else ""
    name = f"{marker}{p.name} · {p.hand_count} in hand · {game.short_money(p.stack_value)}"
    if view.crumbs:
        name += f" · crumbs {view.crumbs[seat]}/{CRUMB_STEPS}"
    if view.enhance_waiting and view.enhance_waiting[seat]:
        name += " · ✨ waiting"
    if not p.stack:
        return PanelField(name=name, value=f"*no {game.WORDS['sets']} yet*", inline=True)
    lines = []
    for depth, s in enumerate(reversed(p.stack)):
        if depth == SETS_SHOWN:
            rest = p.stack[: len(p.stack) - SETS_SHOWN]
            lines.append(
                f"…{len(rest)} more below ({game.short_money(sum(x.value for x in rest))})"
            )
            break
        bottom = depth == len(p.stack) - 1
        tag = "🔒 " if bottom else ("🔓 " if depth == 0 else "")
        lines.append(tag + set_line(game, s.asset, tuple(s.cards), s.value))
    return PanelField(name=name, value="\n".join(lines), inline=True)


@lru_cache(maxsize=4096)
def set_line(game: CoverRules, asset: str, cards: tuple[str, ...], value: int) -> str:
    """A set as the table lists it: its asset, a card emoji each (top first), its worth.
    Each move redraws every stack while changing a set or two: each is written once."""
    emojis = "".join(game.cards[c].emoji for c in reversed(cards))
    return f"{game.cards[asset].name} {emojis} {game.short_money(value)}"


def score_line(game: CoverRules, view: CoverView) -> str:
    if not view.rounds:
        return "First round"
    parts = [f"{p.name} {game.short_money(p.total)}" for p in view.players]
    return f"Totals after {plural(len(view.rounds), 'round')}: " + ", ".join(parts)


def worth(game: CoverRules, card: str) -> str:
    """A card's value in a hand; Swap and Move have none (not "$0k")."""
    return "action card" if game.is_action(card) else game.short_money(game.cards[card].value)


def hand_panel(game: CoverRules, view: CoverView) -> Panel | None:
    if view.hand is None:
        return None
    counts: dict[str, int] = {}
    for card in view.hand:
        counts[card] = counts.get(card, 0) + 1
    lines = [
        f"{game.label(card)}{f' ×{n}' if n > 1 else ''} · {worth(game, card)}"
        for card, n in counts.items()
    ]
    me = view.players[view.viewer] if view.viewer is not None else None
    news = [f"*{line}*" for line in view.news]
    return Panel(
        title="🃏 Your hand",
        description="\n".join(lines + news) if lines else "*Your hand is empty.*",
        footer=(
            f"Your stack: {game.short_money(me.stack_value)} in {game.count(len(me.stack), 'set')}"
            if me
            else ""
        ),
    )
