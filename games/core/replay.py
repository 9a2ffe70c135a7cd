"""A finished match as data, and its replay: every state recomputed from seed, options and
the action log, never read back from a stored snapshot.

``MatchExport`` is the file ``/export`` hands out and ``python -m games replay`` reads; the
terminal player writes the same format. ``replay`` turns it into frames (the deal, then the
table after each move), which the Discord replayer pages through and the terminal steps.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from games.core.levels import Level
from games.core.options import as_written
from games.core.protocol import (
    Action,
    Decision,
    Event,
    Game,
    GameState,
    IllegalAction,
    Outcome,
    final_outcome,
)
from games.core.text import Words

FORMAT = "cookie-jar-match/1"


class ExportedSeat(BaseModel):
    model_config = ConfigDict(frozen=True)

    seat: int
    name: str
    bot: bool = False
    gone: bool = False  # the player left or forfeited: last, if that ended the match
    level: Level | None = None  # how hard a bot seat played (None: a person, or an old export)


class ExportedAction(BaseModel):
    model_config = ConfigDict(frozen=True)

    seq: int  # the state version the action was applied to
    seat: int
    action: str  # ``Action.encode()``
    at: float | None = None  # unix time it was saved, when known


class MatchExport(BaseModel):
    """Everything needed to recompute a match, and nothing that is derived from it."""

    format: Literal["cookie-jar-match/1"] = FORMAT
    match_id: str | None = None
    game: str
    options: dict[str, Any]
    seed: int
    seats: list[ExportedSeat]
    actions: list[ExportedAction]
    status: str = "finished"
    finished_at: float | None = None

    @property
    def names(self) -> list[str]:
        return [s.name for s in sorted(self.seats, key=lambda s: s.seat)]


class ReplayError(Exception):
    """The file or log cannot be replayed; ``str(exc)`` says why in one sentence."""


@dataclass(frozen=True)
class Frame:
    """The table after ``step`` moves (step 0: the deal), and the move that led to it."""

    step: int
    state: GameState
    seat: int | None = None
    action: Action | None = None
    label: Words = ""
    events: tuple[Event, ...] = ()
    at: float | None = None

    @property
    def round(self) -> int:
        return round_of(self.state)


def round_of(state: GameState) -> int:
    """The round a state is in, for games that play several; 1 for the others."""
    value = getattr(state, "round", 1)
    return value if isinstance(value, int) else 1


def load_export(text: str | bytes) -> MatchExport:
    try:
        return MatchExport.model_validate_json(text)
    except ValidationError as exc:
        reason = exc.errors()[0]["msg"]
        raise ReplayError(f"That is not a Cookie Jar match file ({reason}).") from None


def move_label(decisions: Sequence[Decision], seat: int, action: Action) -> str:
    """How the move looked on the button (or buttons, for a multi-pick) that made it."""
    for decision in decisions:
        if decision.seat != seat:
            continue
        for option in decision.options:
            if option.action == action:
                return option.label
        if decision.max_picks > 1:
            labels, rest = [], list(action.args)
            for option in decision.options:
                width = len(option.action.args)
                if (
                    option.action.kind == action.kind
                    and width
                    and rest[:width] == list(option.action.args)
                ):
                    labels.append(option.label)
                    rest = rest[width:]
            if labels and not rest:
                return " + ".join(labels)
        if action == decision.default:
            return "the clock ran out"
    return action.encode()


def _setup(game: Game, export: MatchExport) -> GameState:
    if export.game != game.key:
        raise ReplayError(f"This file holds a {export.game} match, not {game.key}.")
    try:
        # A file exported before a rule change holds no word of it: the rule it was
        # played by (``as_written``), or its log would replay another game.
        options = game.options_model.model_validate(as_written(game.options_model, export.options))
    except ValidationError:
        raise ReplayError("The match's options are not valid for this game any more.") from None
    return game.setup(options, export.names, export.seed)


def _steps(game: Game, export: MatchExport) -> Iterator[tuple[ExportedAction, Action]]:
    for logged in export.actions:
        try:
            yield logged, Action.decode(logged.action)
        except IllegalAction:
            raise ReplayError(f"Move {logged.seq + 1} could not be read.") from None


def _apply(
    game: Game, state: GameState, logged: ExportedAction, action: Action
) -> tuple[GameState, list[Event]]:
    if logged.seq != state.version:
        raise ReplayError(f"Move {logged.seq + 1} is out of order in the log.")
    try:
        return game.apply(state, logged.seat, action)
    except IllegalAction as exc:
        raise ReplayError(f"Move {logged.seq + 1} does not replay: {exc}") from None


def states(game: Game, export: MatchExport) -> Iterator[GameState]:
    """The deal, then the state after each move, recomputed; cheap (no labels, no frames)."""
    state = _setup(game, export)
    yield state
    for logged, action in _steps(game, export):
        state, _ = _apply(game, state, logged, action)
        yield state


def final_state(game: Game, export: MatchExport) -> GameState:
    """The last state, recomputed; nothing kept on the way."""
    return deque(states(game, export), maxlen=1)[0]


def outcome_of(game: Game, export: MatchExport, state: GameState) -> Outcome | None:
    """How the replayed match ended (``state``: its final state), a forfeit included."""
    gone = {s.seat for s in export.seats if s.gone}
    return final_outcome(game, state, export.names, gone, export.status == "finished")


def replay(game: Game, export: MatchExport) -> list[Frame]:
    """Every frame of the match: the deal, then one per move."""
    state = _setup(game, export)
    frames = [Frame(step=0, state=state)]
    for logged, action in _steps(game, export):
        label = move_label(game.decisions(state), logged.seat, action)
        state, events = _apply(game, state, logged, action)
        frames.append(
            Frame(
                step=len(frames),
                state=state,
                seat=logged.seat,
                action=action,
                label=label,
                events=tuple(events),
                at=logged.at,
            )
        )
    return frames


def round_starts(frames: Sequence[Frame]) -> list[tuple[int, int]]:
    """``(round, step)`` where each round's first frame is."""
    starts: list[tuple[int, int]] = []
    for frame in frames:
        if not starts or frame.round != starts[-1][0]:
            starts.append((frame.round, frame.step))
    return starts


def jump(frames: Sequence[Frame], step: int, direction: int) -> int:
    """⏪ / ⏩: to the previous or next round's start when the match has rounds, else ten
    moves; always within the match."""
    last = len(frames) - 1
    starts = [s for _, s in round_starts(frames)]
    if len(starts) > 1:
        if direction > 0:
            return next((s for s in starts if s > step), last)
        return next((s for s in reversed(starts) if s < step), 0)
    return max(0, min(last, step + 10 * direction))
