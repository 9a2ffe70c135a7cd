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
from games.core.text import Names, Text, Words, joined, t, tn
from games.core.views import TableView, to_move


class ChomperRules(Protocol):
    """What the table and the bot ask of the game. The engine is one; neither names it,
    so the engine sits on top of both."""

    cards: ChomperCards

    def outcome(self, state: ChomperState) -> Outcome | None: ...

    def decided(self, state: ChomperState) -> Sequence[Decision]: ...

    def hoard_score(self, pile: list[str]) -> int: ...

    def entry_text(self, entry: Entry) -> Text | str: ...

    def rolls(self, entry: Entry) -> bool: ...

    def number_card_of(self, entry: Entry) -> str | None: ...

    def main_entry(self, state: ChomperState) -> Entry | None: ...


MODE_TITLES = {
    "standard": t("Standard"),
    "golden": t("Golden Cookie"),
    "middle": t("Poison in the Middle"),
    "hoarder": t("Cookie Hoarder"),
    "hoarder_plus": t("Cookie Hoarder (poison and golden)"),
    "chain": t("Number Chain"),
}
TOKENS = {COOKIE: "🍪", POISON: "☠️", GOLDEN: "🌟"}
PILE_SHOWN = 6
LOG_SHOWN = 6


class SeatLine(BaseModel):
    name: str
    cards: int
    out: bool
    score: int | None = None  # Cookie Hoarder


OUT = t("☠️ You took the poison cookie: you are out.")
# The main cards that make no number ("Skip does not produce a number, so it is not
# equivalent to Zero"): what the round's question and the table say instead of a number
# that modifiers would only seem to change.
NO_NUMBER = {
    "skip": t("Skip makes no number: no cookies are taken"),
    "seek": t("Seek makes no number: the turn starts again"),
    "mulligan": t("Mulligan makes no number: the turn starts again"),
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
    trail: Words
    amount: int
    # What stands in place of a number: the main card makes none (NO_NUMBER), or a Veto
    # sent it back and the next one sets it afresh.
    no_number: Words = ""
    last_trail: Words
    played: list[str]  # the Played Cards Pile, public, newest last
    deck_count: int
    chain_top: str | None
    bandit_pile: int
    hand: list[str] | None
    barred: list[str] = Field(default_factory=list)
    redo_entry: int | None = None  # the queue entry its owner must choose again
    over: bool
    result: Words = ""
    log: list[Words]


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


def number_note(game: ChomperRules, state: ChomperState) -> Text | str:
    """What the table says in place of the Produced Number ("" when there is one)."""
    if state.phase == "main" and state.queue:  # a Veto sent the main card back
        return t(
            "{name} plays another card: it sets the number afresh", name=state.names[state.turn]
        )
    return no_number(game.main_entry(state))


def no_number(main: Entry | None) -> Text | str:
    """What the turn's main card does instead of making a number ("" if it makes one)."""
    return NO_NUMBER.get(main.acts_as, "") if main is not None else ""


def stack_row(view: ChomperView) -> Text:
    if view.stack is None:
        left = view.stack_left
        parts: list[Text | str] = [
            tn(
                "{n} face-down token: 🍪 {cookies}",
                "{n} face-down tokens: 🍪 {cookies}",
                n=sum(left.values()),
                cookies=left.get(COOKIE, 0),
            ),
            tn("🦝 {n} bandit", "🦝 {n} bandits", n=left.get("b", 0)),
        ]
        parts += [f"{TOKENS[kind]} {left[kind]}" for kind in (POISON, GOLDEN) if left.get(kind)]
        return joined(parts, " · ")
    if not view.stack:
        return t("empty")
    # Runs, not a token each: 40 emoji filled a phone's screen. "🍪×39 ☠️" still says
    # the top token and where the poison (or the golden cookie) lies.
    runs = groupby(TOKENS.get(kind, "🍪") for kind in view.stack)
    row = " ".join(f"{token}×{n}" if (n := len(list(same))) > 1 else token for token, same in runs)
    return tn(
        "{n} token, top first: {row}", "{n} tokens, top first: {row}", n=len(view.stack), row=row
    )


def panels(game: ChomperRules, view: ChomperView) -> Panels:
    return Panels(
        table=table_panel(game, view), hand=hand_panel(game, view), details=pile_panel(game, view)
    )


def counted_labels(game: ChomperRules, cards: Sequence[str]) -> Text | None:
    """ "➕ Add ×2, 🔢 1/3": each kind of card once, how many beside it (None: no cards)."""
    counted = sorted(Counter(cards).items())
    if not counted:
        return None
    label = game.cards.label
    return joined(
        (t("{card} ×{n}", card=label(card), n=n) if n > 1 else label(card) for card, n in counted),
        ", ",
    )


def pile_panel(game: ChomperRules, view: ChomperView) -> Panel:
    return Panel(
        title=t("Played Cards Pile ({n})", n=len(view.played)),
        description=counted_labels(game, view.played) or t("*empty*"),
        footer=t("Public: everyone may see it at any time."),
    )


def table_panel(game: ChomperRules, view: ChomperView) -> Panel:
    names = [p.name for p in view.players]
    chain = view.options.mode == "chain"
    deciding = Names(t("**{name}**", name=names[s]) for s in view.to_move)
    description: Text | str
    if view.over:
        description = t("🏁 **Game over.** {result}", result=view.result)
    elif not deciding:
        description = ""
    elif chain:
        description = t("{names} plays on the chain.", names=deciding)
    elif view.phase == "round":
        description = t("Modifier round: {names} may play a modifier or pass.", names=deciding)
    else:
        description = t("{names} plays a card.", names=deciding)
    fields = []
    lines = []
    for s, player in enumerate(view.players):
        parts: list[Text] = [tn("{n} card", "{n} cards", n=player.cards)]
        if player.score is not None:
            parts.append(tn("{n} point", "{n} points", n=player.score))
        if player.out:
            parts.append(t("out"))
        lines.append(
            t(
                "{marker} **{name}** — {parts}",
                marker="☠️" if player.out else ("▶️" if s in view.to_move else "▫️"),
                name=player.name,
                parts=joined(parts, " · "),
            )
        )
    fields.append(PanelField(name=t("Players"), value=joined(lines)))
    if chain:
        top = game.cards.label(view.chain_top) if view.chain_top else "—"
        fields.append(
            PanelField(
                name=t("Chain"), value=t("On top: {card} · deck {n}", card=top, n=view.deck_count)
            )
        )
    else:
        fields.append(PanelField(name=t("Stack"), value=stack_row(view)))
        if view.queue:
            played = joined(
                (
                    t("~~{entry}~~", entry=game.entry_text(e)) if e.vetoed else game.entry_text(e)
                    for e in view.queue
                ),
                ", ",
            )
            number = view.no_number or t("Number: {n}", n=view.amount)
            fields.append(
                PanelField(
                    name=t("This turn: {trail}", trail=view.trail or "—"),
                    value=t("{played}\n**{number}**", played=played, number=number),
                )
            )
        elif view.last_trail:
            fields.append(PanelField(name=t("Last turn"), value=view.last_trail))
        newest = view.played[-PILE_SHOWN:][::-1]
        pile = joined((game.cards.label(c) for c in newest), ", ") if newest else t("empty")
        fields.append(
            PanelField(name=t("Played pile ({n}, newest first)", n=len(view.played)), value=pile)
        )
        if view.bandit_pile:
            fields.append(
                PanelField(
                    name=t("🦝 Bandit pile"),
                    value=tn("{n} cookie", "{n} cookies", n=view.bandit_pile),
                    inline=True,
                )
            )
    if view.log:
        fields.append(PanelField(name=t("Log"), value=joined(view.log)))
    return Panel(
        title=t("🍪 Cookie Chomper · {mode}", mode=MODE_TITLES[view.options.mode]),
        description=description,
        fields=tuple(fields),
        footer=t("The Played Cards Pile is public: /rules explains every card."),
        accent="done" if view.over else ("battle" if view.phase == "round" else "turn"),
    )


def hand_panel(game: ChomperRules, view: ChomperView) -> Panel | None:
    if view.hand is None:
        return None
    label = game.cards.label
    lines = [
        t("{card} (vetoed this turn)", card=label(c)) if c in view.barred else label(c)
        for c in view.hand
    ]
    return Panel(
        title=tn("Your hand ({n} card)", "Your hand ({n} cards)", n=len(view.hand)),
        description=joined(lines) if lines else t("*empty*"),
        accent="turn",
    )
