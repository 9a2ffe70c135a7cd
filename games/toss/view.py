"""What a seat may know of a Toss Your Cookies match, and how it looks on a table."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Protocol

from pydantic import BaseModel, Field

from games.core.panels import Panel, PanelField, Panels
from games.core.protocol import Decision, Outcome
from games.core.views import TableView, to_move
from games.core.words import plural
from games.toss.cards import HALF, MILK, WILD, TossCards
from games.toss.state import BlindTake, Roll, TossOptions, TossState


class TossRules(Protocol):
    """What the table asks of the game. The engine is one; the view does not name it, so
    the engine sits on top of it."""

    cards: TossCards

    def outcome(self, state: TossState) -> Outcome | None: ...

    def decided(self, state: TossState) -> Sequence[Decision]: ...


LOG_SHOWN = 6
# The private line a seat's own pick writes: the hand's "Your pick" shows it while it
# matters, so it is no news of what changed hands.
PICKED = "You chose"
# The public lines that open a turn and a round (the dice, a new deal).
ROLLED, DEALT = "🎲 ", "Round "
FACES = {"swap": "Swap", "left": "Pass Left", "right": "Pass Right", "toss": "Toss"}


class SeatLine(BaseModel):
    name: str
    cards: int
    round_wins: int
    status: str = ""  # public: choosing, chosen, grabbing n


class TossView(TableView):
    """The public table plus the viewer's own hand. ``viewer`` None is a spectator."""

    game: str = "toss_your_cookies"
    viewer: int | None
    options: TossOptions
    round: int
    turn: int
    phase: str
    roll: Roll | None
    count: int
    players: list[SeatLine]
    cookies: list[str]
    middle: list[str]  # face up in a scramble
    tosser: int | None
    target: int | None
    blind: BlindTake | None  # who takes blindly from whom (not what)
    hand: list[str] | None
    # The viewer's own secret pick, or the cards they are giving.
    my_pick: list[str] = Field(default_factory=list)
    # The viewer's own lines of what last changed hands (passed, given, taken unseen,
    # dealt): only they saw it, and their hand alone does not say which cards were new.
    news: list[str] = Field(default_factory=list)
    can_shout: bool = False
    winners: list[int]
    over: bool
    result: str = ""  # how the match ended
    log: list[str]
    # What everyone saw (games/toss/sightings.py), for bots: not shown on the table.
    milk_seen: int | None = None
    grabbed: list[list[str]] = Field(default_factory=list)


def view_of(game: TossRules, state: TossState, seat: int | None) -> TossView:
    scramble = state.scramble
    outcome = game.outcome(state)
    players = []
    for s, name in enumerate(state.names):
        status, held = "", len(state.hands[s])
        if state.phase == "choose" and state.chosen:
            status = "✅ chosen" if state.chosen[s] is not None else "⏳ choosing"
            held += len(state.chosen[s] or [])  # picked, still theirs until all pass at once
        elif scramble is not None and scramble.quota[s] > 0:
            status = f"🏃 grabbing {scramble.quota[s]}"
        players.append(
            SeatLine(
                name=name,
                cards=held,
                round_wins=state.round_wins[s],
                status=status,
            )
        )
    my_pick: list[str] = []
    if seat is not None and state.chosen and state.chosen[seat] is not None:
        my_pick = list(state.chosen[seat] or [])
    elif seat is not None and seat == state.turn and state.given:
        my_pick = list(state.given)
    return TossView(
        viewer=seat,
        to_move=to_move(game.decided(state), over=outcome is not None),
        options=state.options,
        round=state.round,
        turn=state.turn,
        phase=state.phase,
        roll=state.roll,
        count=state.count,
        players=players,
        cookies=state.cookies,
        middle=list(scramble.middle) if scramble is not None else [],
        tosser=scramble.tosser if scramble is not None else None,
        target=state.target,
        blind=state.blind,
        hand=list(state.hands[seat]) if seat is not None else None,
        my_pick=my_pick,
        news=own_news(state, seat),
        can_shout=seat is not None and state.shouter == seat,
        winners=list(state.winners),
        over=outcome is not None,
        result=outcome.reason if outcome is not None else "",
        log=[e.text for e in state.log if e.visible_for(seat)][-LOG_SHOWN:],
        milk_seen=state.milk_seen,
        grabbed=[list(g) for g in state.grabbed],
    )


def own_news(state: TossState, seat: int | None) -> list[str]:
    """The seat's lines only it saw (what it passed and got, what was taken from it unseen
    or dealt to it), from this turn and the one before: the next decision usually comes a
    roll after the cards moved. A new deal forgets them."""
    if seat is None:
        return []
    mine, rolls, news = frozenset({seat}), 0, []
    for event in reversed(state.log):
        if event.visible_to is None and event.text.startswith(DEALT):
            break
        if event.visible_to is None and event.text.startswith(ROLLED):
            rolls += 1
            if rolls == 2:
                break
        elif event.visible_to == mine and not event.text.startswith(PICKED):
            news.append(event.text)
    return news[::-1]


def panels(game: TossRules, view: TossView) -> Panels:
    return Panels(table=table_panel(game, view), hand=hand_panel(game, view))


def roll_text(roll: Roll | None) -> str:
    if roll is None:
        return ""
    number = "🥛 Milk" if roll.milk else ("All" if roll.number == "all" else roll.number)
    return f"🎲 **{FACES[roll.action]} · {number}**"


def champion(view: TossView) -> int:
    """The seat with the most round wins (the first of them on a tie)."""
    return max(range(len(view.players)), key=lambda s: view.players[s].round_wins)


def phase_text(view: TossView) -> str:
    names = [p.name for p in view.players]
    roller = names[view.turn]
    every = view.roll is not None and view.roll.number == "all"
    cards = "all their cards" if every else plural(view.count, "card")
    match view.phase:
        case "roll":
            return f"**{roller}** rolls the dice."
        case "swap_target":
            return f"**{roller}** picks a player to swap {cards} with."
        case "swap_give":
            target = names[view.target] if view.target is not None else "?"
            return f"**{roller}** picks {plural(view.count, 'card')} to give **{target}**."
        case "swap_take" | "milk_take":
            assert view.blind is not None
            return (
                f"🙈 **{names[view.blind.taker]}** takes {plural(view.blind.count, 'card')} from "
                f"**{names[view.blind.source]}**'s hand without looking."
            )
        case "choose":
            assert view.roll is not None
            what = {"left": "pass to the left", "right": "pass to the right"}.get(
                view.roll.action, "toss"
            )
            return f"🤫 Everyone picks {cards} to {what}. Nothing moves until all have chosen."
        case "scramble":
            if view.tosser is not None:
                return f"🥛 **Grab the milk!** Everyone but {names[view.tosser]} may."
            return "🏃 **Scramble!** Press **Grab cards** below: as many as you tossed."
    return ""


def milk_marked(view: TossView) -> int | None:
    """The seat the table marks with the milk: where everyone last saw it go. Tossed, it
    lies in the middle (no seat); caught or handed over, it is on its way to the player
    the giver takes a card from first, as everyone saw."""
    if view.over or view.tosser is not None:
        return None
    if view.phase == "milk_take" and view.blind is not None and view.blind.milk_to_source:
        return view.blind.source
    return view.milk_seen


def table_panel(game: TossRules, view: TossView) -> Panel:
    rounds = int(view.options.rounds)
    extra = f": extra, first to {rounds // 2 + 1} wins" if view.round > rounds else ""
    title = "🍪 Toss Your Cookies" + (
        f" · round {view.round} (best of {rounds}{extra})" if rounds > 1 else ""
    )
    names = [p.name for p in view.players]
    if view.over:
        description = f"🏁 **Game over.** 🏆 **{names[champion(view)]} wins!** {view.result}"
        accent = "done"
    else:
        # Who does what now is only said while someone must: not on a closed table.
        phase = phase_text(view) if view.to_move else ""
        description = "\n".join(t for t in (roll_text(view.roll), phase) if t)
        accent = "battle" if view.phase == "scramble" else "turn"
    lines = []
    for s, player in enumerate(view.players):
        marker = "▶️" if s in view.to_move else "▫️"
        parts = [plural(player.cards, "card")]
        if rounds > 1 or player.round_wins:
            parts.append(f"🏆 {player.round_wins}")
        if player.status and view.to_move:
            parts.append(player.status)
        if s == milk_marked(view):
            parts.append("🥛 milk last seen here")
        lines.append(f"{marker} **{player.name}** — " + " · ".join(parts))
    fields = [PanelField(name="Players", value="\n".join(lines))]
    if view.middle:
        fields.append(PanelField(name="In the middle", value=game.cards.labels(view.middle)))
    cookies = " ".join(game.cards.looks[c].emoji for c in view.cookies)
    fields.append(PanelField(name="Cookies in play", value=cookies, inline=True))
    if view.log:
        fields.append(PanelField(name="Log", value="\n".join(view.log)))
    options = "must shout" if view.options.must_shout else "wins count at once"
    return Panel(
        title=title,
        description=description,
        fields=tuple(fields),
        footer=(
            f"Win: five of one cookie ({game.cards.label(WILD)} counts) and the "
            f"{game.cards.label(MILK)} · {game.cards.label(HALF)} is worth nothing · {options}"
        ),
        accent=accent,  # type: ignore[arg-type]
    )


def hand_panel(game: TossRules, view: TossView) -> Panel | None:
    if view.hand is None:
        return None
    counted = Counter(view.hand)
    lines = [
        f"{game.cards.label(card)}" + (f" ×{n}" if n > 1 else "") for card, n in counted.items()
    ]
    best, count = game.cards.best_cookie(view.hand)
    goal = (
        f"Best: {count} toward five of {game.cards.label(best)}"
        if best is not None
        else "No cookie yet"
    )
    goal += " · milk ✅" if MILK in view.hand else " · no milk"
    fields = [PanelField(name="Goal", value=goal)]
    if view.my_pick:
        fields.append(PanelField(name="Your pick", value=game.cards.labels(view.my_pick)))
    elif view.news:
        fields.append(PanelField(name="🤫 Only you saw", value="\n".join(view.news)))
    if view.can_shout:
        fields.append(PanelField(name="🥛 Snickerdoodle!", value="Press the button to win!"))
    return Panel(
        title=f"Your hand ({plural(len(view.hand), 'card')})",
        description="\n".join(lines) or "*empty*",
        fields=tuple(fields),
        accent="turn",
    )
