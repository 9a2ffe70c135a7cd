"""What a seat may know of a Cookie Chomper match, and how it looks on a table."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import groupby
from typing import Protocol

from pydantic import BaseModel, Field

from games.chomper.cards import ChomperCards
from games.chomper.queue import produced
from games.chomper.state import COOKIE, GOLDEN, POISON, ChomperOptions, ChomperState, Entry
from games.core.panels import Panel, PanelField, Panels
from games.core.protocol import Decision, Outcome
from games.core.views import TableView, to_move
from games.core.words import plural


class ChomperRules(Protocol):
    """What the table and the bot ask of the game. The engine is one; neither names it,
    so the engine sits on top of both."""

    cards: ChomperCards

    def outcome(self, state: ChomperState) -> Outcome | None: ...

    def decided(self, state: ChomperState) -> Sequence[Decision]: ...

    def hoard_score(self, pile: list[str]) -> int: ...

    def entry_text(self, entry: Entry) -> str: ...

    def rolls(self, entry: Entry) -> bool: ...

    def number_card_of(self, entry: Entry) -> str | None: ...

    def main_entry(self, state: ChomperState) -> Entry | None: ...


MODE_TITLES = {
    "standard": "Standard",
    "golden": "Golden Cookie",
    "middle": "Poison in the Middle",
    "hoarder": "Cookie Hoarder",
    "hoarder_plus": "Cookie Hoarder (poison and golden)",
    "chain": "Number Chain",
}
TOKENS = {COOKIE: "🍪", POISON: "☠️", GOLDEN: "🌟"}
PILE_SHOWN = 6
LOG_SHOWN = 6


class SeatLine(BaseModel):
    name: str
    cards: int
    out: bool
    score: int | None = None  # Cookie Hoarder


OUT = "☠️ You took the poison cookie: you are out."
# The main cards that make no number ("Skip does not produce a number, so it is not
# equivalent to Zero"): what the round's question and the table say instead of a number
# that modifiers would only seem to change.
NO_NUMBER = {
    "skip": "Skip makes no number: no cookies are taken",
    "seek": "Seek makes no number: the turn starts again",
    "mulligan": "Mulligan makes no number: the turn starts again",
}


class ChomperView(TableView):
    game: str = "cookie_chomper"
    viewer: int | None
    options: ChomperOptions
    players: list[SeatLine]
    turn: int
    phase: str
    stack: list[str] | None  # known order (not in Cookie Hoarder, where it is shuffled)
    stack_left: dict[str, int]  # what is left in the Stack, by kind
    queue: list[Entry]
    trail: str
    amount: int
    # What stands in place of a number: the main card makes none (NO_NUMBER), or a Veto
    # sent it back and the next one sets it afresh.
    no_number: str = ""
    last_trail: str
    played: list[str]  # the Played Cards Pile, public, newest last
    deck_count: int
    chain_top: str | None
    bandit_pile: int
    hand: list[str] | None
    barred: list[str] = Field(default_factory=list)
    redo_entry: int | None = None  # the queue entry its owner must choose again
    over: bool
    result: str = ""
    log: list[str]


def view_of(
    game: ChomperRules,
    state: ChomperState,
    seat: int | None,
    moving: tuple[int, ...] | None = None,
) -> ChomperView:
    """``moving``: who must decide, when the caller is itself building the decisions."""
    hoarder = state.options.hoarder
    total = produced(state.queue)
    outcome = game.outcome(state)
    kinds = Counter("b" if t.startswith("b") else t for t in state.stack)
    return ChomperView(
        viewer=seat,
        options=state.options,
        players=[
            SeatLine(
                name=name,
                cards=len(state.hands[s]),
                out=state.out[s],
                score=game.hoard_score(state.piles[s]) if hoarder else None,
            )
            for s, name in enumerate(state.names)
        ],
        turn=state.turn,
        phase=state.phase,
        to_move=moving
        if moving is not None
        else to_move(game.decided(state), over=outcome is not None),
        stack=None if hoarder else list(state.stack),
        stack_left=dict(sorted(kinds.items())),
        queue=list(state.queue),
        trail=total.trail,
        amount=total.amount,
        no_number=number_note(game, state),
        last_trail=state.trail,
        played=list(state.played),
        deck_count=len(state.deck),
        chain_top=state.chain_top,
        bandit_pile=state.bandit_pile,
        hand=list(state.hands[seat]) if seat is not None else None,
        out=OUT if seat is not None and state.out[seat] and outcome is None else "",
        barred=list(state.barred[seat]) if seat is not None else [],
        redo_entry=state.redo.entry if state.redo is not None else None,
        over=outcome is not None,
        result=outcome.reason if outcome else "",
        log=[e.text for e in state.log if e.visible_for(seat)][-LOG_SHOWN:],
    )


def number_note(game: ChomperRules, state: ChomperState) -> str:
    """What the table says in place of the Produced Number ("" when there is one)."""
    if state.phase == "main" and state.queue:  # a Veto sent the main card back
        return f"{state.names[state.turn]} plays another card: it sets the number afresh"
    return no_number(game.main_entry(state))


def no_number(main: Entry | None) -> str:
    """What the turn's main card does instead of making a number ("" if it makes one)."""
    return NO_NUMBER.get(main.acts_as, "") if main is not None else ""


def stack_row(view: ChomperView) -> str:
    if view.stack is None:
        left = view.stack_left
        return (
            f"{sum(left.values())} face-down tokens: 🍪 {left.get(COOKIE, 0)} · "
            f"🦝 {plural(left.get('b', 0), 'bandit')}"
            + (f" · ☠️ {left[POISON]}" if left.get(POISON) else "")
            + (f" · 🌟 {left[GOLDEN]}" if left.get(GOLDEN) else "")
        )
    if not view.stack:
        return "empty"
    # Runs, not a token each: 40 emoji filled a phone's screen. "🍪×39 ☠️" still says
    # the top token and where the poison (or the golden cookie) lies.
    runs = groupby(TOKENS.get(t, "🍪") for t in view.stack)
    row = " ".join(f"{token}×{n}" if (n := len(list(same))) > 1 else token for token, same in runs)
    return f"{plural(len(view.stack), 'token')}, top first: {row}"


def panels(game: ChomperRules, view: ChomperView) -> Panels:
    return Panels(
        table=table_panel(game, view), hand=hand_panel(game, view), details=pile_panel(game, view)
    )


def pile_panel(game: ChomperRules, view: ChomperView) -> Panel:
    counted = Counter(view.played)
    lines = [
        game.cards.label(card) + (f" ×{n}" if n > 1 else "") for card, n in sorted(counted.items())
    ]
    return Panel(
        title=f"Played Cards Pile ({len(view.played)})",
        description=", ".join(lines) or "*empty*",
        footer="Public: everyone may see it at any time.",
    )


def table_panel(game: ChomperRules, view: ChomperView) -> Panel:
    names = [p.name for p in view.players]
    chain = view.options.mode == "chain"
    deciding = ", ".join(f"**{names[s]}**" for s in view.to_move)
    if view.over:
        description = f"🏁 **Game over.** {view.result}"
    elif not deciding:
        description = ""
    elif chain:
        description = f"{deciding} plays on the chain."
    elif view.phase == "round":
        description = f"Modifier round: {deciding} may play a modifier or pass."
    else:
        description = f"{deciding} plays a card."
    fields = []
    lines = []
    for s, player in enumerate(view.players):
        marker = "☠️" if player.out else ("▶️" if s in view.to_move else "▫️")
        extra = f" · {plural(player.score, 'point')}" if player.score is not None else ""
        lines.append(
            f"{marker} **{player.name}** — {plural(player.cards, 'card')}{extra}"
            + (" · out" if player.out else "")
        )
    fields.append(PanelField(name="Players", value="\n".join(lines)))
    if chain:
        top = game.cards.label(view.chain_top) if view.chain_top else "—"
        fields.append(PanelField(name="Chain", value=f"On top: {top} · deck {view.deck_count}"))
    else:
        fields.append(PanelField(name="Stack", value=stack_row(view)))
        if view.queue:
            played = ", ".join(
                ("~~" if e.vetoed else "") + game.entry_text(e) + ("~~" if e.vetoed else "")
                for e in view.queue
            )
            fields.append(
                PanelField(
                    name=f"This turn: {view.trail or '—'}",
                    value=f"{played}\n**{view.no_number or f'Number: {view.amount}'}**",
                )
            )
        elif view.last_trail:
            fields.append(PanelField(name="Last turn", value=view.last_trail))
        pile = ", ".join(game.cards.label(c) for c in view.played[-PILE_SHOWN:][::-1]) or "empty"
        fields.append(
            PanelField(name=f"Played pile ({len(view.played)}, newest first)", value=pile)
        )
        if view.bandit_pile:
            fields.append(
                PanelField(
                    name="🦝 Bandit pile",
                    value=plural(view.bandit_pile, "cookie"),
                    inline=True,
                )
            )
    if view.log:
        fields.append(PanelField(name="Log", value="\n".join(view.log)))
    return Panel(
        title=f"🍪 Cookie Chomper · {MODE_TITLES[view.options.mode]}",
        description=description,
        fields=tuple(fields),
        footer="The Played Cards Pile is public: /rules explains every card.",
        accent="done" if view.over else ("battle" if view.phase == "round" else "turn"),
    )


def hand_panel(game: ChomperRules, view: ChomperView) -> Panel | None:
    if view.hand is None:
        return None
    lines = [
        game.cards.label(c) + (" (vetoed this turn)" if c in view.barred else "") for c in view.hand
    ]
    return Panel(
        title=f"Your hand ({plural(len(view.hand), 'card')})",
        description="\n".join(lines) or "*empty*",
        accent="turn",
    )
