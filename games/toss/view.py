"""What a seat may know of a Toss Your Cookies match, and how it looks on a table."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Protocol

from pydantic import BaseModel, Field

from games.core.panels import Panel, PanelField, Panels
from games.core.protocol import Decision, Outcome
from games.core.text import Text, Words, joined, t, tc, tn
from games.core.views import TableView, to_move
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
# matters, so it is no news of what changed hands. (Lines are told apart by their English,
# which a Text is as a str, and which older stored lines are.)
PICKED = "You chose"
# The public lines that open a turn and a round (the dice, a new deal).
ROLLED, DEALT = "🎲 ", "Round "
# The action die's faces.
FACES: dict[str, Text] = {
    "swap": tc("die", "Swap"),
    "left": tc("die", "Pass Left"),
    "right": tc("die", "Pass Right"),
    "toss": tc("die", "Toss"),
}


def number_face(roll: Roll) -> Text | int:
    """The number die's face: 1, 2, 3, All or the milk."""
    if roll.milk:
        return tc("die", "🥛 Milk")
    return tc("die", "All") if roll.number == "all" else int(roll.number)


class SeatLine(BaseModel):
    name: str
    cards: int
    round_wins: int
    status: Words = ""  # public: choosing, chosen, grabbing n (an emoji, a space, words)


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
    news: list[Words] = Field(default_factory=list)
    can_shout: bool = False
    winners: list[int]
    over: bool
    result: Words = ""  # how the match ended
    log: list[Words]
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
            status = t("✅ chosen") if state.chosen[s] is not None else t("⏳ choosing")
            held += len(state.chosen[s] or [])  # picked, still theirs until all pass at once
        elif scramble is not None and scramble.quota[s] > 0:
            status = t("🏃 grabbing {n}", n=scramble.quota[s])
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


def own_news(state: TossState, seat: int | None) -> list[Words]:
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


def roll_text(roll: Roll | None) -> Text | None:
    if roll is None:
        return None
    return t("🎲 **{face} · {number}**", face=FACES[roll.action], number=number_face(roll))


def champion(view: TossView) -> int:
    """The seat with the most round wins (the first of them on a tie)."""
    return max(range(len(view.players)), key=lambda s: view.players[s].round_wins)


def moved_count(view: TossView) -> int | None:
    """How many cards each player moves now; None: all of them (the number die's All)."""
    every = view.roll is not None and view.roll.number == "all"
    return None if every else view.count


def phase_text(view: TossView) -> Text | None:
    names = [p.name for p in view.players]
    roller = names[view.turn]
    count = moved_count(view)
    match view.phase:
        case "roll":
            return t("**{name}** rolls the dice.", name=roller)
        case "swap_target":
            if count is None:
                return t("**{name}** picks a player to swap all their cards with.", name=roller)
            return tn(
                "**{name}** picks a player to swap {n} card with.",
                "**{name}** picks a player to swap {n} cards with.",
                n=count,
                name=roller,
            )
        case "swap_give":
            target = names[view.target] if view.target is not None else "?"
            return tn(
                "**{name}** picks {n} card to give **{target}**.",
                "**{name}** picks {n} cards to give **{target}**.",
                n=view.count,
                name=roller,
                target=target,
            )
        case "swap_take" | "milk_take":
            assert view.blind is not None
            return tn(
                "🙈 **{taker}** takes {n} card from **{source}**'s hand without looking.",
                "🙈 **{taker}** takes {n} cards from **{source}**'s hand without looking.",
                n=view.blind.count,
                taker=names[view.blind.taker],
                source=names[view.blind.source],
            )
        case "choose":
            assert view.roll is not None
            return choosing_text(view.roll.action, count)
        case "scramble":
            if view.tosser is not None:
                return t("🥛 **Grab the milk!** Everyone but {name} may.", name=names[view.tosser])
            return t("🏃 **Scramble!** Press **Grab cards** below: as many as you tossed.")
    return None


def choosing_text(action: str, count: int | None) -> Text:
    """Everyone picks cards at once: how many (None: all), and what for."""
    if action == "left":
        if count is None:
            return t(
                "🤫 Everyone picks all their cards to pass to the left. "
                "Nothing moves until all have chosen."
            )
        return tn(
            "🤫 Everyone picks {n} card to pass to the left. Nothing moves until all have chosen.",
            "🤫 Everyone picks {n} cards to pass to the left. Nothing moves until all have chosen.",
            n=count,
        )
    if action == "right":
        if count is None:
            return t(
                "🤫 Everyone picks all their cards to pass to the right. "
                "Nothing moves until all have chosen."
            )
        return tn(
            "🤫 Everyone picks {n} card to pass to the right. Nothing moves until all have chosen.",
            "🤫 Everyone picks {n} cards to pass to the right. "
            "Nothing moves until all have chosen.",
            n=count,
        )
    if count is None:
        return t("🤫 Everyone picks all their cards to toss. Nothing moves until all have chosen.")
    return tn(
        "🤫 Everyone picks {n} card to toss. Nothing moves until all have chosen.",
        "🤫 Everyone picks {n} cards to toss. Nothing moves until all have chosen.",
        n=count,
    )


def milk_marked(view: TossView) -> int | None:
    """The seat the table marks with the milk: where everyone last saw it go. Tossed, it
    lies in the middle (no seat); caught or handed over, it is on its way to the player
    the giver takes a card from first, as everyone saw."""
    if view.over or view.tosser is not None:
        return None
    if view.phase == "milk_take" and view.blind is not None and view.blind.milk_to_source:
        return view.blind.source
    return view.milk_seen


def table_title(view: TossView) -> Text:
    rounds = int(view.options.rounds)
    if rounds == 1:
        return t("🍪 Toss Your Cookies")
    if view.round > rounds:
        return t(
            "🍪 Toss Your Cookies · round {round} "
            "(best of {rounds}: extra, first to {needed} wins)",
            round=view.round,
            rounds=rounds,
            needed=rounds // 2 + 1,
        )
    return t(
        "🍪 Toss Your Cookies · round {round} (best of {rounds})", round=view.round, rounds=rounds
    )


def table_panel(game: TossRules, view: TossView) -> Panel:
    rounds = int(view.options.rounds)
    names = [p.name for p in view.players]
    if view.over:
        description: Text = t(
            "🏁 **Game over.** 🏆 **{name} wins!** {result}",
            name=names[champion(view)],
            result=view.result,
        )
        accent = "done"
    else:
        # Who does what now is only said while someone must: not on a closed table.
        phase = phase_text(view) if view.to_move else None
        description = joined(line for line in (roll_text(view.roll), phase) if line)
        accent = "battle" if view.phase == "scramble" else "turn"
    lines = []
    for s, player in enumerate(view.players):
        parts: list[Text | str] = [tn("{n} card", "{n} cards", n=player.cards)]
        if rounds > 1 or player.round_wins:
            parts.append(f"🏆 {player.round_wins}")
        if player.status and view.to_move:
            parts.append(player.status)
        if s == milk_marked(view):
            parts.append(t("🥛 milk last seen here"))
        lines.append(
            t(
                "{marker} **{name}** — {parts}",
                marker="▶️" if s in view.to_move else "▫️",
                name=player.name,
                parts=joined(parts, " · "),
            )
        )
    fields = [PanelField(name=t("Players"), value=joined(lines))]
    if view.middle:
        fields.append(PanelField(name=t("In the middle"), value=game.cards.labels(view.middle)))
    cookies = " ".join(game.cards.looks[c].emoji for c in view.cookies)
    fields.append(PanelField(name=t("Cookies in play"), value=cookies, inline=True))
    if view.log:
        fields.append(PanelField(name=t("Log"), value=joined(view.log)))
    cards = game.cards
    footer = (
        t(
            "Win: five of one cookie ({wild} counts) and the {milk} · {half} is worth nothing"
            " · must shout",
            wild=cards.label(WILD),
            milk=cards.label(MILK),
            half=cards.label(HALF),
        )
        if view.options.must_shout
        else t(
            "Win: five of one cookie ({wild} counts) and the {milk} · {half} is worth nothing"
            " · wins count at once",
            wild=cards.label(WILD),
            milk=cards.label(MILK),
            half=cards.label(HALF),
        )
    )
    return Panel(
        title=table_title(view),
        description=description,
        fields=tuple(fields),
        footer=footer,
        accent=accent,  # type: ignore[arg-type]
    )


def hand_panel(game: TossRules, view: TossView) -> Panel | None:
    if view.hand is None:
        return None
    cards = game.cards
    lines = [cards.counted(card, n) for card, n in Counter(view.hand).items()]
    best, count = cards.best_cookie(view.hand)
    has_milk = MILK in view.hand
    if best is None:
        goal = t("No cookie yet · milk ✅") if has_milk else t("No cookie yet · no milk")
    elif has_milk:
        goal = t("Best: {n} toward five of {card} · milk ✅", n=count, card=cards.label(best))
    else:
        goal = t("Best: {n} toward five of {card} · no milk", n=count, card=cards.label(best))
    fields = [PanelField(name=t("Goal"), value=goal)]
    if view.my_pick:
        fields.append(PanelField(name=t("Your pick"), value=cards.labels(view.my_pick)))
    elif view.news:
        fields.append(PanelField(name=t("🤫 Only you saw"), value=joined(view.news)))
    if view.can_shout:
        fields.append(PanelField(name=t("🥛 Snickerdoodle!"), value=t("Press the button to win!")))
    return Panel(
        title=tn("Your hand ({n} card)", "Your hand ({n} cards)", n=len(view.hand)),
        description=joined(lines) if lines else t("*empty*"),
        fields=tuple(fields),
        accent="turn",
    )
