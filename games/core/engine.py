"""Shared plumbing for games: the legality check, the copy, the version, the log.

A game subclasses ``Engine`` and writes ``decisions`` and ``play`` (which mutates a private
copy of the state). ``apply`` stays pure from the outside: it never touches its input.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import ClassVar, Generic, TypeVar

from pydantic import BaseModel

from games.core.copies import fresh_copy
from games.core.decided import PerState
from games.core.levels import HARD_SECONDS, Level
from games.core.panels import Panels
from games.core.protocol import (
    Action,
    Decision,
    Event,
    GameState,
    IllegalAction,
    MatchOver,
    NotYourTurn,
    Outcome,
    Placement,
)
from games.core.rng import rng_for
from games.core.search import Budget, Search
from games.core.text import t
from games.core.words import split_rulings

StateT = TypeVar("StateT", bound=GameState)
OptionsT = TypeVar("OptionsT", bound=BaseModel)


class Engine(Generic[StateT, OptionsT]):
    key: ClassVar[str]
    name: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options_model: type[OptionsT]
    state_model: type[StateT]
    # The share of moves the contract's random playouts leave to the bot (see contract.py).
    contract_guide: ClassVar[float] = 0.0
    # The search bot's class: ``Search`` itself, or the game's own with its hints.
    search_kind: ClassVar[type[Search]] = Search  # type: ignore[type-arg]
    # What the game calls the stretch its state's ``round`` counts, as its own log says
    # it ("Turn 3: Ana."): a replay steps and jumps by it.
    round_word: ClassVar[str] = "round"

    # --- to write per game -------------------------------------------------------------
    def setup(self, options: OptionsT, players: Sequence[str], seed: int) -> StateT:
        raise NotImplementedError

    def decisions(self, state: StateT) -> list[Decision]:
        raise NotImplementedError

    def play(self, state: StateT, seat: int, action: Action, rng: random.Random) -> list[Event]:
        """Carry out a legal ``action`` on ``state`` (a private copy) and say what happened."""
        raise NotImplementedError

    def outcome(self, state: StateT) -> Outcome | None:
        raise NotImplementedError

    def view(self, state: StateT, seat: int | None) -> BaseModel:
        raise NotImplementedError

    def panels(self, view: BaseModel) -> Panels:
        raise NotImplementedError

    # What /rules opens with: the goal, a turn, how it ends (at most QUICK_START_LIMIT).
    quick_start: ClassVar[str]

    def rulebook(self, options: OptionsT | None = None) -> str:
        """The rulebook in brief followed by our rulings, under one of RULINGS_HEADINGS."""
        raise NotImplementedError

    def rules_text(self, options: OptionsT | None = None) -> str:
        """How the game is played, without our rulings."""
        return split_rulings(self.rulebook(options))[0]

    def rulings_text(self, options: OptionsT | None = None) -> str:
        """Our rulings alone: what we decided where the rulebook is silent."""
        return split_rulings(self.rulebook(options))[1]

    def scramble_hidden(self, state: StateT, seat: int | None, rng: random.Random) -> StateT:
        """A state that ``seat`` cannot tell apart from ``state``: its secrets re-dealt.

        The contract tests compare views of both to prove that no view leaks a secret.
        """
        raise NotImplementedError

    # --- shared ------------------------------------------------------------------------
    def decided(self, state: StateT) -> tuple[Decision, ...]:
        """``decisions(state)`` of a state ``apply`` handed out, built once for all who ask
        (the service, the views' turn markers, the bots)."""
        return self._per_state("_decided").get(state, lambda: tuple(self.decisions(state)))

    def hands_changed(self, before: StateT, after: StateT) -> set[int]:
        """The seats whose own hand a move changed where nothing they were told says so
        (a hand handed over whole, a new deal): a front end redraws what they hold. None
        by default; a game whose moves change others' hands says which."""
        return set()

    def public_table(self, state: StateT) -> tuple[BaseModel, Panels]:
        """``view(state, None)`` and its panels, of a state ``apply`` handed out: the
        table everyone sees, built once for all who ask (the service builds it while the
        move's commit waits for the disk; the front end's table edit reuses it)."""

        def build() -> tuple[BaseModel, Panels]:
            view = self.view(state, None)
            return view, self.panels(view)

        return self._per_state("_tables").get(state, build)

    def _per_state(self, name: str) -> PerState:  # type: ignore[type-arg]
        cache = self.__dict__.get(name)
        if cache is None:
            cache = self.__dict__[name] = PerState()
        return cache  # type: ignore[no-any-return]

    def decision_for(
        self, state: StateT, seat: int, action: Action | None = None
    ) -> Decision | None:
        """The seat's decision; with ``action``, the one it answers (a seat may hold a
        duty and a chance at once). Duties come before chances."""
        mine = sorted(
            (d for d in self.decisions(state) if d.seat == seat), key=lambda d: d.optional
        )
        if action is not None:
            for decision in mine:
                if decision.allows(action) or (
                    decision.max_picks > 1
                    and any(o.action.kind == action.kind for o in decision.options)
                ):
                    return decision
        return mine[0] if mine else None

    def apply(
        self, state: StateT, seat: int, action: Action, *, decision: Decision | None = None
    ) -> tuple[StateT, list[Event]]:
        """Pure: a new state and the events; raises ``IllegalAction`` and changes nothing.

        ``decision``: the seat's current decision if the caller already has it (it must come
        from ``decisions(state)``), which spares computing it twice on the hot path.
        """
        if self.outcome(state) is not None:
            raise MatchOver(t("This match is over."))
        if decision is None or decision.seat != seat:
            decision = self.decision_for(state, seat, action)
        if decision is None:
            raise NotYourTurn(t("It is not your turn."))
        # A decision's default is always playable: a timer may play it (a race's close).
        if decision.max_picks == 1 and not decision.allows(action) and action != decision.default:
            raise IllegalAction(self.why_illegal(state, seat, action))
        new = self.private_copy(state)
        events = self.play(new, seat, action, rng_for(state.seed, state.version))
        new.version = state.version + 1
        new.log = (*new.log, *events)[-new.LOG_KEEP :]
        return new, events

    def private_copy(self, state: StateT) -> StateT:
        """A deep copy of ``state`` for ``play`` to change. The engine made the state, so it
        is not validated again (``fresh_copy``); a state holding a value of another type
        than its field declares is copied by a validated round trip through plain data,
        which turns such values back into the declared types."""
        fresh = fresh_copy(state)
        if fresh is None:
            return self.state_model.model_validate(state.model_dump())
        return fresh

    def bot_action(self, state: StateT, seat: int, *, decision: Decision | None = None) -> Action:
        """The built-in bot's move for ``seat``; it sees only that seat's view."""
        decision = decision or self.decision_for(state, seat)
        if decision is None:
            raise NotYourTurn(t("It is not this seat's turn."))
        return self.choose(self.view(state, seat), decision)

    # easy's share of moves answered at random: a beginner's slips, tuned per game so that
    # easy loses clearly to normal (python -m bench bots).
    easy_mistakes: float = 0.35

    def level_action(
        self,
        state: StateT,
        seat: int,
        level: Level,
        *,
        decision: Decision | None = None,
        seconds: float = HARD_SECONDS,
        rng: random.Random | None = None,
    ) -> Action:
        """The move of a bot of ``level`` for ``seat``: easy slips now and then, normal is the
        heuristic, hard searches for about ``seconds``. Every level sees only what the seat
        may know."""
        decision = decision or self.decision_for(state, seat)
        if decision is None:
            raise NotYourTurn(t("It is not this seat's turn."))
        rng = rng or random.Random()
        if level == "hard":
            return self.search_action(
                state, seat, decision=decision, seconds=seconds, seed=rng.getrandbits(32)
            )
        if level == "easy" and rng.random() < self.easy_mistakes:
            return self.slip(decision, rng)
        return self.bot_action(state, seat, decision=decision)

    @staticmethod
    def slip(decision: Decision, rng: random.Random) -> Action:
        """easy's mistake: any legal answer, at random."""
        count = rng.randint(decision.min_picks, decision.max_picks)
        return decision.pick(rng.sample(decision.options, count))

    def race_action(
        self,
        state: StateT,
        seat: int,
        level: Level,
        *,
        decision: Decision | None = None,
        rng: random.Random | None = None,
    ) -> Action:
        """A bot's grab in a race (a decision with a window), where speed counts: no level
        thinks there. normal grabs as the heuristic does, easy slips as it does elsewhere,
        hard grabs by its search's own rule (``Search.lead``) where the game gives one."""
        decision = decision or self.decision_for(state, seat)
        if decision is None:
            raise NotYourTurn(t("It is not this seat's turn."))
        if level == "hard":
            return self.searcher().lead(self.view(state, seat), decision)
        rng = rng or random.Random()
        if level == "easy" and rng.random() < self.easy_mistakes:
            return self.slip(decision, rng)
        return self.bot_action(state, seat, decision=decision)

    def choose(self, view: BaseModel, decision: Decision) -> Action:
        """Override with a heuristic; the fallback picks the first option(s)."""
        return decision.pick(decision.options[: max(1, decision.min_picks)])

    def search_action(
        self,
        state: StateT,
        seat: int,
        *,
        decision: Decision | None = None,
        seconds: float = 1.0,
        worlds: int | None = None,
        seed: int = 0,
    ) -> Action:
        """The search bot's move (games.core.protocol.Searching; see games/core/search.py):
        about ``seconds`` of thought, or ``worlds`` worlds (reproducible)."""
        budget = Budget(seconds=seconds, worlds=worlds)
        return self.searcher().action(state, seat, decision=decision, budget=budget, seed=seed)

    def searcher(self) -> Search[StateT]:
        """The game's search, made once (it holds no state between decisions)."""
        made = self.__dict__.get("_searcher")
        if made is None:
            made = self.__dict__["_searcher"] = self.search_kind(self)
        return made  # type: ignore[no-any-return]

    def score_text(self, state: StateT, placement: Placement) -> str:
        """A placement's score as players count it ("$1.2M", "3 pts"); empty where the
        place says it all (last player standing)."""
        return str(placement.score)

    def why_illegal(self, state: StateT, seat: int, action: Action) -> str:
        """A sentence for an action that is not among the options; games may say more."""
        return t("That move is not allowed right now.")

    def load_state(self, data: str | bytes) -> StateT:
        return self.state_model.model_validate_json(data)

    def load_options(self, data: str | bytes | dict | None) -> OptionsT:
        if data is None:
            return self.options_model()
        if isinstance(data, dict):
            return self.options_model.model_validate(data)
        return self.options_model.model_validate_json(data)
