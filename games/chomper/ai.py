"""The built-in Cookie Chomper bot: it looks at what the queue would produce with each card
it could play (public information only) and plays what serves it best: never take the
poison when it can avoid it, push an opponent onto it, veto what would poison it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from games.chomper.queue import produced
from games.chomper.state import GOLDEN, POISON, ChomperState, Entry
from games.chomper.view import ChomperRules
from games.core.protocol import Action, Decision, Option


class Sight(Protocol):
    """The public parts of the table the heuristic reads (a seat's ``ChomperView`` has them)."""

    @property
    def turn(self) -> int: ...

    @property
    def stack(self) -> list[str] | None: ...

    @property
    def queue(self) -> list[Entry]: ...

    @property
    def redo_entry(self) -> int | None: ...


@dataclass(frozen=True)
class Glance:
    """The same parts read straight off a state, for the search's playouts: a whole view a
    move (seats, log lines, the pile, who is to move) cost more than the choice itself.
    Only what every seat's view shows, so the heuristic chooses exactly as it would."""

    turn: int
    stack: list[str] | None
    queue: list[Entry]
    redo_entry: int | None

    @classmethod
    def of(cls, state: ChomperState) -> Glance:
        return cls(
            turn=state.turn,
            stack=None if state.options.hoarder else state.stack,  # a secret order there
            queue=state.queue,
            redo_entry=state.redo.entry if state.redo is not None else None,
        )


def outcome_value(stack: list[str] | None, queue: list[Entry], me: int, active: int) -> float:
    """How good settling ``queue`` now would be for seat ``me``."""
    total = produced(queue)
    if stack is None:  # Cookie Hoarder: the order is secret; count what is taken
        gain = float(total.amount)
        return gain if me == active else -gain * 0.5
    tokens = list(stack)
    for _ in range(total.flips):
        tokens.reverse()
    taken = tokens[: max(0, total.amount)]
    if POISON in taken:
        return -100.0 if me == active else 50.0
    if GOLDEN in taken:
        return 100.0 if me == active else -50.0
    return total.amount * 0.01 if me == active else 0.0


def entry_for(seat: int, action: Action) -> Entry | None:
    """The queue entry an option would add (None: its effect cannot be foreseen)."""
    kind, args = action.kind, action.args
    if kind == "number":
        return Entry(owner=seat, card=args[0], acts_as=args[0], choice=int(args[1]))
    if kind == "play" and len(args) == 3:
        return Entry(
            owner=seat, card=args[0], acts_as=args[0], companion=args[1], choice=int(args[2])
        )
    if kind == "play" and args[0] != "copy":
        return Entry(owner=seat, card=args[0], acts_as=args[0])
    return None


def copied_action(action: Action) -> Action:
    """A Copy opening the turn plays as the card it copies: ``copy.135.3`` is ``number.135.3``,
    ``copy.seek.veto`` is ``seek.veto``."""
    copied, *rest = action.args
    if copied.isdigit():
        return Action.of("number", copied, *rest)
    return Action.of(copied, *rest)


def averaged_over_the_die(
    stack: list[str] | None, queue: list[Entry], entry: Entry, me: int, active: int
) -> float:
    """What a card whose number the die decides is worth: the mean over the six faces."""
    values = []
    for n in range(6):
        entry.choice = n
        values.append(outcome_value(stack, queue, me, active))
    return sum(values) / len(values)


def value_of(game: ChomperRules, view: Sight, decision: Decision, opt: Option) -> float:
    me, active, action = decision.seat, view.turn, opt.action
    # the entries are the table's own: the one an option would change is copied first
    queue = list(view.queue)
    if action.kind == "copy":  # a Copy spent to open the turn: a little dearer than the card
        copied = opt.model_copy(update={"action": copied_action(action)})
        return value_of(game, view, decision, copied) - 0.001
    if action.kind == "play" and action.args[1:] == ("roll",):
        entry = Entry(owner=me, card=action.args[0], acts_as=action.args[0], companion="roll")
        return averaged_over_the_die(view.stack, [*queue, entry], entry, me, active) - 0.004
    if action.kind == "pass":
        return outcome_value(view.stack, queue, me, active) + 0.001  # keep cards on a tie
    if action.kind == "aim":
        kind = action.args[0]
        if kind == "copy":
            live = [e for e in queue if not e.vetoed]
            kind = live[-1].acts_as if live else "veto"
        index = int(action.args[1])
        queue[index] = queue[index].model_copy()
        return aimed_value(game, view, queue, index, kind, me, active) - 0.002
    if action.kind == "choose" and view.redo_entry is not None:
        index = view.redo_entry
        queue[index] = queue[index].model_copy()
        queue[index].choice = int(action.args[0]) if action.args[0].lstrip("-").isdigit() else None
        return outcome_value(view.stack, queue, me, active)
    if action.kind in ("skip", "seek", "mulligan"):
        return 0.0 if me == active else -1.0
    if action.kind == "roll":
        values = [
            outcome_value(
                view.stack,
                [*queue, Entry(owner=me, card="roll", acts_as="roll", choice=n)],
                me,
                active,
            )
            for n in range(6)
        ]
        return sum(values) / len(values)
    if action.kind == "play" and action.args == ("copy",):
        live = [e for e in queue if not e.vetoed]
        copied = live[-1].model_copy(update={"owner": me, "card": "copy"}) if live else None
        if copied is None or copied.acts_as == "roll":
            return outcome_value(view.stack, queue, me, active) - 0.5
        return outcome_value(view.stack, [*queue, copied], me, active) - 0.002
    entry = entry_for(me, action)
    if entry is None:
        return outcome_value(view.stack, queue, me, active) - 0.5
    return outcome_value(view.stack, [*queue, entry], me, active) - 0.002  # a card spent


def aimed_value(
    game: ChomperRules,
    view: Sight,
    queue: list[Entry],
    index: int,
    kind: str,
    me: int,
    active: int,
) -> float:
    """Veto: the card is gone. Opposites, Think Again!: its owner chooses again, and will
    pick what suits them best; a Roll is rolled again (the average of the six faces)."""
    target = queue[index]
    if kind == "veto":
        target.vetoed = True
        return outcome_value(view.stack, queue, me, active)
    if game.rolls(target):
        return averaged_over_the_die(view.stack, queue, target, me, active)
    number_card = game.number_card_of(target)
    if number_card is None:
        return outcome_value(view.stack, queue, me, active) - 0.5
    opposite = target.opposite or kind == "opposites"
    choices = (
        game.cards.opposites_of(number_card) if opposite else game.cards.numbers_on(number_card)
    )
    choices = tuple(c for c in choices if kind == "opposites" or c != target.choice) or (
        target.choice,
    )

    def after(choice: int | None, seat: int) -> float:
        target.choice = choice
        return outcome_value(view.stack, queue, seat, active)

    picked = max(choices, key=lambda c: after(c, target.owner))  # the owner's best
    return after(picked, me)


def choose(game: ChomperRules, view: Sight, decision: Decision) -> Action:
    if decision.options[0].action.kind == "chain":
        return decision.default or decision.options[0].action
    best = max(decision.options, key=lambda o: value_of(game, view, decision, o))
    return best.action


def main_default(game: ChomperRules, state: ChomperState, options: list[Option]) -> Action:
    """What a timer plays for the Active Player: the bot's choice, from the public parts of
    the table (built while the decisions are being made, so it cannot ask them who moves)."""
    decision = Decision(key="default", seat=state.turn, prompt="", options=tuple(options))
    return choose(game, Glance.of(state), decision)
