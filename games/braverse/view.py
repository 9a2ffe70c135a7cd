"""What a seat may know of a Braverse match, and how it looks on a table.

HP piles are face down for everyone (only their size shows); a hand is its owner's; cards
a player looks at in a search are theirs alone; a starting Cookie stays secret until both
have chosen. Everything else (Support, Stage, Discard Piles, Break Areas) is public.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Protocol

from pydantic import BaseModel, Field

from games.braverse.cards import COLOUR_EMOJI, COLOURS, CardPool, Target, cost_text
from games.braverse.state import (
    POSITIONS,
    WIN_LEVEL,
    AttackFrame,
    BraverseState,
    Cookie,
    EffectFrame,
    FlipFrame,
    RefreshFrame,
    ReplaceFrame,
    RevealFrame,
    Side,
    TrapWindow,
)
from games.core.panels import Panel, PanelField, Panels
from games.core.protocol import Decision
from games.core.views import TableView, to_move
from games.core.words import plural


class BraverseRules(Protocol):
    """What the table and the bots ask of the game. The engine is one; none of them names
    it, so the engine sits on top of them."""

    pool: CardPool

    def decisions(self, state: BraverseState) -> list[Decision]: ...

    def find(self, state: BraverseState, uid: int) -> tuple[int, Cookie] | None: ...

    def break_level(self, side: Side) -> int: ...

    def current_attack(self, state: BraverseState) -> AttackFrame | None: ...

    def matches(self, target: Target, number: str, rested: bool, hp: int | None) -> bool: ...


LOG_SHOWN = 8
PHASES = {
    "order": "Rock-paper-scissors: who starts",
    "mulligan": "Mulligans",
    "redraw": "Set-up",
    "starting": "Choosing starting Cookies",
    "active": "Active Phase",
    "draw": "Draw Phase",
    "support": "Support Phase",
    "main": "Main Phase",
    "end": "End Phase",
    "handover": "End Phase",
    "over": "Game over",
}


class CookieLine(BaseModel):
    uid: int
    card: str
    hp_left: int
    rested: bool


class SupportLine(BaseModel):
    card: str
    rested: bool


class SideView(BaseModel):
    name: str
    deck: int
    hand_count: int
    hand: list[str] | None  # only the owner's
    support: list[SupportLine]
    battle: list[CookieLine]
    stage: str | None
    stage_rested: bool
    discard: list[str]
    break_area: list[str]
    break_level: int
    attack_bonus: int  # this turn's +N to attacks (from Items and Stages played: public)
    chosen: bool  # set-up: has chosen a starting Cookie


class AttackLine(BaseModel):
    seat: int
    attacker: str
    target: str
    attacker_uid: int  # public: a defender's answer may aim at the attacker
    target_uid: int
    damage: int
    locked: bool


class BraverseView(TableView):
    game: str = "braverse"
    viewer: int | None
    phase: str
    turn: int
    first: int
    round: int
    sides: list[SideView]
    attack: AttackLine | None
    doing: str  # what the stack is resolving, in words
    my_start: str | None = None  # the viewer's own secret starting Cookie
    looked: list[str] = Field(default_factory=list)  # the viewer's own search
    over: bool
    winner: int | None
    result: str
    log: list[str]


def view_of(
    game: BraverseRules,
    state: BraverseState,
    seat: int | None,
    decisions: Sequence[Decision] | None = None,
) -> BraverseView:
    """``decisions``: ``game.decisions(state)`` if the caller has them (a search bot's
    playouts ask for both at every step)."""
    sides = []
    for owner, side in enumerate(state.sides):
        sides.append(
            SideView(
                name=state.names[owner],
                deck=len(side.deck),
                hand_count=len(side.hand),
                hand=sorted(side.hand) if owner == seat else None,
                support=[SupportLine(card=s.card, rested=s.rested) for s in side.support],
                battle=[
                    CookieLine(uid=c.uid, card=c.card, hp_left=len(c.hp), rested=c.rested)
                    for c in side.battle
                ],
                stage=side.stage,
                stage_rested=side.stage_rested,
                discard=list(side.discard),
                break_area=list(side.break_area),
                break_level=game.break_level(side),
                attack_bonus=side.attack_bonus,
                chosen=side.start is not None,
            )
        )
    attack = None
    frame = game.current_attack(state)
    if frame is not None:
        attacker, target = game.find(state, frame.attacker), game.find(state, frame.target)
        attack = AttackLine(
            seat=frame.seat,
            attacker=attacker[1].card if attacker else "",
            target=target[1].card if target else "",
            attacker_uid=frame.attacker,
            target_uid=frame.target,
            damage=frame.damage,
            locked=frame.dealt,
        )
    looked: list[str] = []
    for each in state.stack:
        if isinstance(each, EffectFrame) and each.seat == seat:
            looked = list(each.looked)
    over = state.winner is not None
    return BraverseView(
        to_move=to_move(game.decisions(state) if decisions is None else decisions, over=over),
        hand=sorted(state.sides[seat].hand) if seat is not None else None,
        viewer=seat,
        phase=state.phase,
        turn=state.turn,
        first=state.first,
        round=state.round,
        sides=sides,
        attack=attack,
        doing=doing_text(game, state),
        my_start=state.sides[seat].start if seat is not None else None,
        looked=looked,
        over=over,
        winner=state.winner,
        result=state.reason,
        log=[e.text for e in state.log if e.visible_for(seat)][-LOG_SHOWN:],
    )


def doing_text(game: BraverseRules, state: BraverseState) -> str:
    if not state.stack:
        return ""
    top = state.stack[-1]
    names, pool = state.names, game.pool
    match top:
        case TrapWindow(seat=seat):
            return f"🪤 {names[seat]} may answer the attack."
        case FlipFrame(seat=seat, card=card):
            return f"🔁 {names[seat]} flipped {pool[card].name}: use its FLIP?"
        case RevealFrame(seat=seat):
            return f"👀 {names[seat]} may use an On Reveal effect."
        case ReplaceFrame(order=order):
            return f"🍪 {names[order[0]]} may place Cookies."
        case RefreshFrame(seat=seat):
            return f"♻️ {names[seat]}'s deck is empty: refreshing."
        case EffectFrame(card=card, seat=seat):
            return f"✨ {names[seat]}'s {pool[card].name} is resolving."
        case AttackFrame():
            return "⚔️ An attack is resolving."
    return ""


# --- panels ------------------------------------------------------------------------------
def panels(game: BraverseRules, view: BraverseView) -> Panels:
    return Panels(
        table=table_panel(game, view), hand=hand_panel(game, view), details=details(game, view)
    )


def support_text(game: BraverseRules, side: SideView) -> str:
    total: Counter[str] = Counter()
    active: Counter[str] = Counter()
    for s in side.support:
        colour = game.pool[s.card].colour
        total[colour] += 1
        active[colour] += not s.rested
    return " · ".join(
        f"{COLOUR_EMOJI[c]} {COLOURS[c]} {active[c]} of {total[c]} active"
        for c in "RYGB"
        if total[c]
    )


def battle_lines(
    game: BraverseRules, side: SideView, attack: AttackLine | None, *, brief: bool = False
) -> list[str]:
    lines = []
    for index, cookie in enumerate(side.battle):
        card = game.pool[cookie.card]
        if brief:  # the picture shows an active Cookie upright: only a rested one is said
            mode = " · 💤 Rest" if cookie.rested else ""
        else:
            mode = " · 💤 Rest" if cookie.rested else " · ✅ Active"
        aimed = " 🎯" if attack is not None and attack.target_uid == cookie.uid else ""
        # the place, as moves name it, when there are two
        where = f"{POSITIONS[index].capitalize()}: " if len(side.battle) > 1 else ""
        lines.append(
            f"{where}{card.label} LV{card.level} — HP {cookie.hp_left}/{card.hp}{mode}{aimed}"
        )
    if not side.battle:
        lines.append("*no Cookie in the Battle Area*")
    return lines


def counts_line(side: SideView) -> str:
    return (
        f"Break Area LV {side.break_level}/{WIN_LEVEL} · deck {side.deck} · "
        f"hand {side.hand_count} · discard {len(side.discard)}"
    )


def side_text(game: BraverseRules, side: SideView, attack: AttackLine | None) -> str:
    lines = battle_lines(game, side, attack)
    lines.append(f"Support (pays costs): {support_text(game, side) or '—'}")
    if side.stage:
        rested = " (rested)" if side.stage_rested else ""
        lines.append(f"Stage: {game.pool[side.stage].name}{rested}")
    lines.append(counts_line(side))
    return "\n".join(lines)


def side_brief(game: BraverseRules, side: SideView, attack: AttackLine | None) -> str:
    """The side beneath its picture: the Cookies and counts; Support's colours and the
    Stage are drawn."""
    active = sum(not s.rested for s in side.support)
    support = f"Support {active} of {len(side.support)} active · " if side.support else ""
    return "\n".join([*battle_lines(game, side, attack, brief=True), support + counts_line(side)])


def table_panel(game: BraverseRules, view: BraverseView) -> Panel:
    names = [s.name for s in view.sides]
    if view.over:
        description = f"🏁 **Game over.** {view.result}"
        accent = "done"
    else:
        # Whose turn is said only while the table waits on someone (a closed table: nobody).
        whose = ""
        if view.round:
            whose = f"**{names[view.turn]}**'s turn {view.round} · " if view.to_move else ""
            whose = whose or f"Turn {view.round} · "
        description = whose + PHASES[view.phase]
        if view.phase == "starting" and view.to_move:
            waiting = [s.name for s in view.sides if not s.chosen]
            description += f" (waiting for {', '.join(waiting)})"
        if view.attack is not None:
            a = view.attack
            attacker = game.pool[a.attacker].name if a.attacker else "a Cookie that left"
            target = game.pool[a.target].name if a.target else "a Cookie that left"
            locked = " (locked)" if a.locked else ""
            description += (
                f"\n⚔️ {names[a.seat]}'s {attacker} attacks {target}: "
                f"{max(0, a.damage)} damage{locked}"
            )
        if view.doing:
            description += f"\n{view.doing}"
        accent = "battle" if view.attack is not None else "turn"
    fields = [
        PanelField(
            name=f"{'▶️ ' if i in view.to_move else ''}{side.name}",
            value=side_text(game, side, view.attack),
            brief=side_brief(game, side, view.attack),
        )
        for i, side in enumerate(view.sides)
    ]
    if view.log:
        fields.append(PanelField(name="Log", value="\n".join(view.log)[-1000:]))
    return Panel(
        title="⚔️ CookieRun: Braverse",
        description=description,
        fields=tuple(fields),
        # The piles are behind the table's own button, named after them; a Spectate copy,
        # a finished table and a replay page have none, so the footer names no button.
        footer="Unofficial fan implementation · a Break Area of LV 10 loses",
        accent=accent,  # type: ignore[arg-type]
    )


def card_line(game: BraverseRules, number: str, count: int) -> str:
    card = game.pool[number]
    times = f"{count}× " if count > 1 else ""
    colour = COLOURS[card.colour]
    if card.type == "cookie":
        assert card.attack is not None
        flip = " · FLIP: fires when flipped from HP" if card.is_flip else ""
        what = (
            f"{colour} Cookie LV{card.level}, HP {card.hp} · attack: {card.attack.damage} "
            f"damage for {cost_text(card.attack.cost)}{flip}"
        )
    else:
        what = f"{colour} {card.type.capitalize()} · costs {cost_text(card.cost)}"
    return f"{times}{card.label} — {what}"


def card_brief(game: BraverseRules, number: str, count: int) -> str:
    """A card beneath the hand's picture, which shows its costs and attack."""
    card = game.pool[number]
    times = f"{count}× " if count > 1 else ""
    level = f" LV{card.level}" if card.type == "cookie" else ""
    return f"{times}{card.label} — {card.type.capitalize()}{level}"


def hand_panel(game: BraverseRules, view: BraverseView) -> Panel | None:
    if view.viewer is None:
        return None
    side = view.sides[view.viewer]
    assert side.hand is not None
    counted = Counter(side.hand)
    lines = [card_line(game, number, n) for number, n in sorted(counted.items())]
    brief = [card_brief(game, number, n) for number, n in sorted(counted.items())]
    fields = []
    if view.my_start:
        fields.append(PanelField(name="Your starting Cookie", value=game.pool[view.my_start].label))
    if view.looked:
        fields.append(
            PanelField(
                name="You are looking at",
                value="\n".join(card_line(game, c, 1) for c in view.looked),
            )
        )
    return Panel(
        title=f"Your hand ({plural(len(side.hand), 'card')})",
        description="\n".join(lines)[:4000] or "*empty*",
        fields=tuple(fields),
        accent="turn",
        brief="\n".join(brief)[:4000],
    )


def pile_text(game: BraverseRules, cards: list[str]) -> str:
    counted = Counter(cards)
    text = ", ".join(
        f"{game.pool[c].name}" + (f" ×{n}" if n > 1 else "") for c, n in sorted(counted.items())
    )
    return text[:1000] or "—"


def details(game: BraverseRules, view: BraverseView) -> Panel:
    fields = []
    for side in view.sides:
        fields.append(
            PanelField(
                name=f"{side.name}: Break Area (LV {side.break_level}/{WIN_LEVEL})",
                value=pile_text(game, side.break_area),
            )
        )
        fields.append(
            PanelField(
                name=f"{side.name}: Discard Pile ({len(side.discard)})",
                value=pile_text(game, side.discard),
            )
        )
    return Panel(title="Discard Piles and Break Areas", fields=tuple(fields))
