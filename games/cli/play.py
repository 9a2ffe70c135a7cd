"""A match at a terminal: people type move numbers, bots answer after a short pause.

Several people may share the keyboard (hot-seat): before a hand is shown the screen is
cleared and the next player is called, so nobody sees another's cards. The decisions are
the same ones Discord offers; what cannot be simultaneous at one keyboard is taken in turn:
simultaneous choices one seat after another, a race (a scramble) seat by seat until
everyone has grabbed or passed, and then the race's clock closes it.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from rich.console import Console

from games.cli.render import markup, panel
from games.core.protocol import (
    Action,
    Decision,
    Event,
    Game,
    GameState,
    IllegalAction,
    Option,
    Outcome,
)
from games.core.replay import ExportedAction, ExportedSeat, MatchExport, move_label
from games.core.text import Text, t
from games.core.translations import ENGLISH, render
from games.core.words import BOT_NAMES

_SPLIT = re.compile(r"[\s,;]+")


class Quit(Exception):
    """The player asked to leave (q, Ctrl-D)."""


class BadInput(Exception):
    """What was typed is not a move; ``exc.text`` says what to type instead."""

    def __init__(self, text: Text) -> None:
        super().__init__(text)
        self.text = text


def seat_names(players: int, humans: Sequence[int], language: str = ENGLISH) -> list[str]:
    """The people's seats named in their language ("Player", "플레이어 2"), the bots' by
    their own names."""
    bots = iter(BOT_NAMES)
    if len(humans) == 1:
        alone = render(t("Player"), language)
        return [alone if s in humans else next(bots) for s in range(players)]
    return [
        render(t("Player {n}", n=s + 1), language) if s in humans else next(bots)
        for s in range(players)
    ]


def parse_picks(text: str, decision: Decision, *, can_pass: bool) -> list[Option] | None:
    """Typed numbers -> the options they name; None means pass. Raises ``BadInput``."""
    words = [w for w in _SPLIT.split(text.strip().lower()) if w]
    if words in (["q"], ["quit"], ["exit"]):
        raise Quit()
    if not words:
        raise BadInput(t("Type the number of a move (like 1), or q to quit."))
    if can_pass and words == ["0"]:
        return None
    try:
        numbers = [int(w) for w in words]
    except ValueError:
        raise BadInput(
            t(
                "'{typed}' is not a move number: type a number like 1, or q to quit.",
                typed=text.strip(),
            )
        ) from None
    count = len(decision.options)
    for number in numbers:
        if not 1 <= number <= count:
            lowest = 0 if can_pass else 1
            raise BadInput(
                t(
                    "There is no move {number}: pick a number from {lowest} to {count}.",
                    number=number,
                    lowest=lowest,
                    count=count,
                )
            )
    if len(set(numbers)) != len(numbers):
        raise BadInput(t("Pick each move only once."))
    low, high = decision.min_picks, decision.max_picks
    if not low <= len(numbers) <= high:
        if high == 1:
            raise BadInput(t("Pick just one move: a single number."))
        if low == high:
            raise BadInput(t("Pick {n} moves, as numbers separated by spaces (like 1 3).", n=low))
        raise BadInput(
            t(
                "Pick {low} to {high} moves, as numbers separated by spaces (like 1 3).",
                low=low,
                high=high,
            )
        )
    return [decision.options[n - 1] for n in numbers]


@dataclass
class Table:
    game: Game
    state: GameState
    humans: frozenset[int]
    console: Console
    ask: Callable[[str], str] = input
    pause: float = 0.8
    sleep: Callable[[float], None] = time.sleep
    # A bot's answer (state, decision -> action); None: the game's built-in heuristic.
    bot: Callable[[GameState, Decision], Action] | None = None
    moves: list[ExportedAction] = field(default_factory=list)
    # Called with each state the table reaches (--pictures writes its pictures).
    on_state: Callable[[GameState], None] | None = None
    _declined: set[tuple[int, str]] = field(default_factory=set)
    _passed: set[tuple[int, str]] = field(default_factory=set)
    _shown: int | None = None  # the human whose hand may be on screen now
    language: str = ENGLISH  # everything the table prints, in the catalog's words

    def say(self, text: str) -> str:
        return render(text, self.language)

    @property
    def hot_seat(self) -> bool:
        return len(self.humans) > 1

    @property
    def viewer(self) -> int | None:
        """Whose private log lines may be printed: the one human, or nobody in hot-seat."""
        return next(iter(self.humans)) if len(self.humans) == 1 else None

    # --- the loop ------------------------------------------------------------------------
    def run(self) -> Outcome:
        if self.on_state is not None:
            self.on_state(self.state)
        while (outcome := self.game.outcome(self.state)) is None:
            self.step()
        self.show_end(outcome)
        return outcome

    def step(self) -> None:
        """Settle one decision: chances first, then a race, then the first duty."""
        decisions = self.game.decisions(self.state)
        for chance in decisions:
            if chance.optional and (chance.seat, chance.stamp) not in self._declined:
                if self.settle(chance, can_pass=True):
                    return
                self._declined.add((chance.seat, chance.stamp))
        duties = [d for d in decisions if not d.optional]
        races = [d for d in duties if d.window is not None]
        if races:
            for race in races:
                if (race.seat, race.key) not in self._passed:
                    if not self.settle(race, can_pass=True):
                        self._passed.add((race.seat, race.key))
                    return
            # Everyone grabbed or passed: the race's clock closes it, nobody's fault.
            closing = races[0]
            assert closing.default is not None
            self.play(
                closing.seat,
                closing.default,
                t("the race is closed"),
                who=self.say(t("⏱️ Time")),
            )
            return
        if not duties:
            raise RuntimeError(f"{self.game.key}: nobody can move but the match is not over")
        self.settle(duties[0], can_pass=False)
        # A chance let go stays open on Discord's hand view: offer it again once the seat
        # has had its own turn.
        self._declined = {(seat, s) for seat, s in self._declined if seat != duties[0].seat}

    def settle(self, decision: Decision, *, can_pass: bool) -> bool:
        """One seat answers; False if it passed."""
        if decision.seat not in self.humans:
            if self.bot is not None:
                action = self.bot(self.state, decision)
            else:
                action = self.game.bot_action(self.state, decision.seat, decision=decision)  # type: ignore[attr-defined]
            if can_pass and action == decision.default and decision.window is not None:
                return False
            self.play(decision.seat, action, _label(decision, action), bot=True)
            return True
        return self.ask_human(decision, can_pass=can_pass)

    def play(
        self, seat: int, action: Action, label: str, *, bot: bool = False, who: str | None = None
    ) -> None:
        before = self.state.version
        self.state, events = self.game.apply(self.state, seat, action)
        if self.on_state is not None:
            self.on_state(self.state)
        self.moves.append(
            ExportedAction(seq=before, seat=seat, action=action.encode(), at=time.time())
        )
        who = who or (f"🤖 {self.state.names[seat]}" if bot else self.state.names[seat])
        self.console.print(markup(self.say(t("**{who}**: {label}", who=who, label=label))))
        self.print_events(events)
        if bot and self.pause:
            self.sleep(self.pause)

    def print_events(self, events: Sequence[Event]) -> None:
        for event in events:
            if event.visible_for(self.viewer):
                self.console.print(markup(f"   {self.say(event.text)}"))

    # --- people --------------------------------------------------------------------------
    def ask_human(self, decision: Decision, *, can_pass: bool) -> bool:
        seat = decision.seat
        name = self.state.names[seat]
        if self.hot_seat and self._shown != seat:
            self.console.clear()
            self.console.print(
                panel(self.game.panels(self.game.view(self.state, None)).table, self.language)
            )
            self.ask(
                self.say(
                    t(
                        "Pass the keyboard to {name}, then press Enter (nobody else looking).",
                        name=name,
                    )
                )
                + " "
            )
            self.console.clear()
        self._shown = seat
        self.show_seat(seat, decision, can_pass=can_pass)
        prompt = self.say(_prompt(name, decision, can_pass=can_pass)) + " "
        while True:
            try:
                line = self.ask(prompt)
            except EOFError:
                raise Quit() from None
            try:
                chosen = parse_picks(line, decision, can_pass=can_pass)
                if chosen is None:
                    self.console.print(self.say(t("{name} passes.", name=name)))
                    return False
                action = decision.pick(chosen)
                self.play(seat, action, _label(decision, action), bot=False)
            except BadInput as exc:
                self.console.print(self.say(exc.text), style="yellow", markup=False)
                continue
            except IllegalAction as exc:
                self.console.print(
                    markup(self.say(t("{error} Pick another move.", error=exc.text)))
                )
                continue
            if self.hot_seat:
                self.console.clear()  # the next player must not find this hand on screen
                self._shown = None
            return True

    def show_seat(self, seat: int, decision: Decision, *, can_pass: bool) -> None:
        panels = self.game.panels(self.game.view(self.state, seat))
        self.console.print(panel(panels.table, self.language))
        if panels.hand is not None:
            title = self.say(t("🃏 {name}'s hand", name=self.state.names[seat]))
            self.console.print(panel(panels.hand, self.language, title=title))
        self.console.print(markup(f"**{self.say(decision.prompt)}**"))
        group = None
        for number, option in enumerate(decision.options, start=1):
            if option.group and option.group != group:
                group = option.group
                self.console.print(markup(f"  *{self.say(group)}*"))
            emoji = f"{option.emoji} " if option.emoji else ""
            self.console.print(markup(f"  {number:>2}. {emoji}{self.say(option.label)}"))
        if can_pass:
            self.console.print(f"   0. {self.say(t('Pass'))}", markup=False)

    def show_end(self, outcome: Outcome) -> None:
        self.console.print(
            panel(self.game.panels(self.game.view(self.state, None)).table, self.language)
        )
        self.console.print(markup(self.say(t("**Game over.** {reason}", reason=outcome.reason))))
        for placement in outcome.placements:
            name = self.state.names[placement.seat]
            self.console.print(f"  {placement.place}. {name} · {placement.score}")

    def export(self, options: dict[str, object], seed: int) -> MatchExport:
        return MatchExport(
            game=self.game.key,
            options=options,
            seed=seed,
            seats=[
                ExportedSeat(seat=s, name=n, bot=s not in self.humans)
                for s, n in enumerate(self.state.names)
            ],
            actions=list(self.moves),
            status="finished" if self.game.outcome(self.state) is not None else "cancelled",
            finished_at=time.time(),
        )


def _prompt(name: str, decision: Decision, *, can_pass: bool) -> Text:
    low, high = decision.min_picks, decision.max_picks
    if high == 1:
        if can_pass:
            return t("{name}, type a move number, 0 to pass, or q to quit:", name=name)
        return t("{name}, type a move number, or q to quit:", name=name)
    if low == high:
        if can_pass:
            return t(
                "{name}, type {n} move numbers (like 1 3), 0 to pass, or q to quit:",
                name=name,
                n=low,
            )
        return t("{name}, type {n} move numbers (like 1 3), or q to quit:", name=name, n=low)
    if can_pass:
        return t(
            "{name}, type {low} to {high} move numbers (like 1 3), 0 to pass, or q to quit:",
            name=name,
            low=low,
            high=high,
        )
    return t(
        "{name}, type {low} to {high} move numbers (like 1 3), or q to quit:",
        name=name,
        low=low,
        high=high,
    )


def _label(decision: Decision, action: Action) -> str:
    return move_label([decision], decision.seat, action)
