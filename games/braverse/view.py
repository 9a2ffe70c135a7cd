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

from games.braverse.battle import position_word
from games.braverse.cards import COLOUR_EMOJI, CardPool, Target, colour_word, cost_text, type_word
from games.braverse.phrases import commas, dotted, lined, widest
from games.braverse.state import (
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
from games.core.text import Text, Words, joined, plain, t, tn
from games.core.views import TableView, to_move


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
    "order": t("Rock-paper-scissors: who starts"),
    "mulligan": t("Mulligans"),
    "redraw": t("Set-up"),
    "starting": t("Choosing starting Cookies"),
    "active": t("Active Phase"),
    "draw": t("Draw Phase"),
    "support": t("Support Phase"),
    "main": t("Main Phase"),
    "end": t("End Phase"),
    "handover": t("End Phase"),
    "over": t("Game over"),
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
    doing: Words  # what the stack is resolving, in words
    my_start: str | None = None  # the viewer's own secret starting Cookie
    looked: list[str] = Field(default_factory=list)  # the viewer's own search
    over: bool
    winner: int | None
    result: Words
    log: list[Words]


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
            return t("🪤 {player} may answer the attack.", player=names[seat])
        case FlipFrame(seat=seat, card=card):
            return t(
                "🔁 {player} flipped {card}: use its FLIP?",
                player=names[seat],
                card=pool[card].title,
            )
        case RevealFrame(seat=seat):
            return t("👀 {player} may use an On Reveal effect.", player=names[seat])
        case ReplaceFrame(order=order):
            return t("🍪 {player} may place Cookies.", player=names[order[0]])
        case RefreshFrame(seat=seat):
            return t("♻️ {player}'s deck is empty: refreshing.", player=names[seat])
        case EffectFrame(card=card, seat=seat):
            return t(
                "✨ {player}'s {card} is resolving.", player=names[seat], card=pool[card].title
            )
        case AttackFrame():
            return t("⚔️ An attack is resolving.")
    return ""


# --- panels ------------------------------------------------------------------------------
def panels(game: BraverseRules, view: BraverseView) -> Panels:
    return Panels(
        table=table_panel(game, view), hand=hand_panel(game, view), details=details(game, view)
    )


def support_text(game: BraverseRules, side: SideView) -> Text | str:
    total: Counter[str] = Counter()
    active: Counter[str] = Counter()
    for s in side.support:
        colour = game.pool[s.card].colour
        total[colour] += 1
        active[colour] += not s.rested
    parts = [
        t(
            "{emoji} {colour} {active} of {total} active",
            emoji=COLOUR_EMOJI[c],
            colour=colour_word(c),
            active=active[c],
            total=total[c],
        )
        for c in "RYGB"
        if total[c]
    ]
    return dotted(parts) if parts else ""


def battle_lines(
    game: BraverseRules, side: SideView, attack: AttackLine | None, *, brief: bool = False
) -> list[Text]:
    lines = []
    for index, cookie in enumerate(side.battle):
        card = game.pool[cookie.card]
        aimed = attack is not None and attack.target_uid == cookie.uid
        about = t(
            "{card} LV{level} — HP {hp}/{most}",
            card=card.label,
            level=card.level,
            hp=cookie.hp_left,
            most=card.hp,
        )
        if cookie.rested:
            about = t("{cookie} · 💤 Rest", cookie=about)
        elif not brief:  # the picture shows an active Cookie upright: only a rested one is said
            about = t("{cookie} · ✅ Active", cookie=about)
        if aimed:
            about = t("{cookie} 🎯", cookie=about)
        if len(side.battle) > 1:  # the place, as moves name it, when there are two
            about = t("{place}: {cookie}", place=position_word(index, first=True), cookie=about)
        lines.append(about)
    if not side.battle:
        lines.append(t("*no Cookie in the Battle Area*"))
    return lines


def counts_line(side: SideView) -> Text:
    return t(
        "Break Area LV {level}/{win} · deck {deck} · hand {hand} · discard {discard}",
        level=side.break_level,
        win=WIN_LEVEL,
        deck=side.deck,
        hand=side.hand_count,
        discard=len(side.discard),
    )


def side_text(game: BraverseRules, side: SideView, attack: AttackLine | None) -> Text:
    lines = battle_lines(game, side, attack)
    lines.append(t("Support (pays costs): {support}", support=support_text(game, side) or "—"))
    if side.stage:
        stage = game.pool[side.stage].title
        if side.stage_rested:
            lines.append(t("Stage: {card} (rested)", card=stage))
        else:
            lines.append(t("Stage: {card}", card=stage))
    lines.append(counts_line(side))
    return lined(lines)


def side_brief(game: BraverseRules, side: SideView, attack: AttackLine | None) -> Text:
    """The side beneath its picture: the Cookies and counts; Support's colours and the
    Stage are drawn."""
    active = sum(not s.rested for s in side.support)
    counts = counts_line(side)
    if side.support:
        counts = t(
            "Support {active} of {total} active · {counts}",
            active=active,
            total=len(side.support),
            counts=counts,
        )
    return lined([*battle_lines(game, side, attack, brief=True), counts])


def attack_line(pool: CardPool, view: BraverseView) -> Text | None:
    """The attack in progress, as the table and its picture say it."""
    a = view.attack
    if a is None:
        return None
    gone = t("a Cookie that left")
    args = {
        "player": view.sides[a.seat].name,
        "attacker": pool[a.attacker].title if a.attacker else gone,
        "target": pool[a.target].title if a.target else gone,
        "n": max(0, a.damage),
    }
    if a.locked:
        return t("{player}'s {attacker} attacks {target}: {n} damage (locked)", **args)
    return t("{player}'s {attacker} attacks {target}: {n} damage", **args)


def table_panel(game: BraverseRules, view: BraverseView) -> Panel:
    names = [s.name for s in view.sides]
    if view.over:
        description = t("🏁 **Game over.** {result}", result=view.result)
        accent = "done"
    else:
        phase = PHASES[view.phase]
        # Whose turn is said only while the table waits on someone (a closed table: nobody).
        if view.round and view.to_move:
            description = t(
                "**{player}**'s turn {n} · {phase}",
                player=names[view.turn],
                n=view.round,
                phase=phase,
            )
        elif view.round:
            description = t("Turn {n} · {phase}", n=view.round, phase=phase)
        else:
            description = phase
        if view.phase == "starting" and view.to_move:
            waiting = [s.name for s in view.sides if not s.chosen]
            description = t(
                "{status} (waiting for {players})", status=description, players=commas(waiting)
            )
        lines = [description]
        attack = attack_line(game.pool, view)
        if attack is not None:
            lines.append(t("⚔️ {attack}", attack=attack))
        if view.doing:
            lines.append(view.doing)
        description = lined(lines)
        accent = "battle" if view.attack is not None else "turn"
    fields = [
        PanelField(
            name=t("▶️ {player}", player=side.name) if i in view.to_move else plain(side.name),
            value=side_text(game, side, view.attack),
            brief=side_brief(game, side, view.attack),
        )
        for i, side in enumerate(view.sides)
    ]
    if view.log:
        fields.append(PanelField(name=t("Log"), value=log_text(view.log)))
    return Panel(
        title=t("⚔️ CookieRun: Braverse"),
        description=description,
        fields=tuple(fields),
        # The piles are behind the table's own button, named after them; a Spectate copy,
        # a finished table and a replay page have none, so the footer names no button.
        footer=t("Unofficial fan implementation · a Break Area of LV {win} loses", win=WIN_LEVEL),
        accent=accent,  # type: ignore[arg-type]
    )


def log_text(log: list[str]) -> Text:
    """The last lines of the log that fit a field in every shipped language (1,000
    characters: a field holds 1,024)."""
    kept: list[str] = []
    size = 0
    for line in reversed(log):
        size += (widest(line) if isinstance(line, Text) else len(line)) + 1
        if size > 1000 and kept:
            break
        kept.insert(0, line)
    return lined(kept)


def card_line(game: BraverseRules, number: str, count: int) -> Text:
    card = game.pool[number]
    colour = colour_word(card.colour)
    if card.type == "cookie":
        assert card.attack is not None
        args = {
            "colour": colour,
            "level": card.level,
            "hp": card.hp,
            "n": card.attack.damage,
            "cost": cost_text(card.attack.cost),
        }
        if card.is_flip:
            what = t(
                "{colour} Cookie LV{level}, HP {hp} · attack: {n} damage for {cost} · FLIP: fires "
                "when flipped from HP",
                **args,
            )
        else:
            what = t("{colour} Cookie LV{level}, HP {hp} · attack: {n} damage for {cost}", **args)
    else:
        what = t(
            "{colour} {kind} · costs {cost}",
            colour=colour,
            kind=type_word(card.type),
            cost=cost_text(card.cost),
        )
    if count > 1:
        return t("{n}× {card} — {about}", n=count, card=card.label, about=what)
    return t("{card} — {about}", card=card.label, about=what)


def card_brief(game: BraverseRules, number: str, count: int) -> Text:
    """A card beneath the hand's picture, which shows its costs and attack."""
    card = game.pool[number]
    kind = type_word(card.type)
    if card.type == "cookie":
        kind = t("{kind} LV{level}", kind=kind, level=card.level)
    if count > 1:
        return t("{n}× {card} — {about}", n=count, card=card.label, about=kind)
    return t("{card} — {about}", card=card.label, about=kind)


def hand_title(size: int) -> Text:
    return tn("Your hand ({n} card)", "Your hand ({n} cards)", n=size)


def hand_panel(game: BraverseRules, view: BraverseView) -> Panel | None:
    if view.viewer is None:
        return None
    side = view.sides[view.viewer]
    assert side.hand is not None
    counted = sorted(Counter(side.hand).items())
    fields = []
    if view.my_start:
        fields.append(
            PanelField(name=t("Your starting Cookie"), value=game.pool[view.my_start].label)
        )
    if view.looked:
        fields.append(
            PanelField(
                name=t("You are looking at"),
                value=lined([card_line(game, c, 1) for c in view.looked]),
            )
        )
    return Panel(
        title=hand_title(len(side.hand)),
        description=lined([card_line(game, number, n) for number, n in counted])
        if counted
        else t("*empty*"),
        fields=tuple(fields),
        accent="turn",
        brief=lined([card_brief(game, number, n) for number, n in counted]) if counted else "",
    )


def pile_text(game: BraverseRules, cards: list[str]) -> Text | str:
    """A pile by card, as many as fit a field in every shipped language, then "…"."""
    counted = sorted(Counter(cards).items())
    parts = [
        t("{card} ×{n}", card=game.pool[c].title, n=n) if n > 1 else game.pool[c].title
        for c, n in counted
    ]
    kept: list[Text] = []
    size = 0
    for part in parts:
        size += widest(part) + 2
        if size > 1000:
            return joined([commas(kept), "…"], ", ")
        kept.append(part)
    return commas(kept) if kept else "—"


def details(game: BraverseRules, view: BraverseView) -> Panel:
    fields = []
    for side in view.sides:
        fields.append(
            PanelField(
                name=t(
                    "{player}: Break Area (LV {level}/{win})",
                    player=side.name,
                    level=side.break_level,
                    win=WIN_LEVEL,
                ),
                value=pile_text(game, side.break_area),
            )
        )
        fields.append(
            PanelField(
                name=t("{player}: Discard Pile ({n})", player=side.name, n=len(side.discard)),
                value=pile_text(game, side.discard),
            )
        )
    return Panel(title=t("Discard Piles and Break Areas"), fields=tuple(fields))
