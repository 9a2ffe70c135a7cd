"""What /tournament's commands share: the command group and its /tournament schedule
subgroup (the event's commands, ``commands``, and the schedules', ``schedule_commands``,
hang on them), and the options an event is made with."""

from __future__ import annotations

from discord import app_commands

from bot.service.tournaments import TournamentConfig
from bot.timing import PACE_LABELS
from bot.tournaments.config import ROUND_DEADLINES
from bot.tournaments.formats import FORMATS, format_class
from games import GAMES

TOURNAMENT = app_commands.Group(
    name="tournament", description="Community tournaments the bot runs.", guild_only=True
)
SCHEDULE = app_commands.Group(
    name="schedule", description="Recurring tournaments the bot makes on time.", parent=TOURNAMENT
)

GAME_CHOICES = [app_commands.Choice(name=game.name, value=key) for key, game in GAMES.items()]
FORMAT_CHOICES = [app_commands.Choice(name=kind.label, value=key) for key, kind in FORMATS.items()]
PACE_CHOICES = [app_commands.Choice(name=PACE_LABELS[key], value=key) for key in ROUND_DEADLINES]

# The options an event is made with, described once: /tournament create and /tournament
# schedule create take them alike.
EVENT_OPTIONS = {
    "game": "Which game",
    "format": "Swiss, pods (3–8 a table), round robin, or an elimination (2 or 3–8 a table)",
    "rounds": "Rounds (default: enough for a clear winner)",
    "pace": "How long each move may take",
    "max_players": "Most players (default 64, round robin 16); later sign-ups wait",
    "pod_size": "Pods and multiplayer elimination: players a table (default 4)",
    "top_cut": "Swiss: bracket of the top 2, 4 or 8. Pods: final table of N, or 16 (four semis)",
    "best_of": "Two-player tables: one game, or the first to win two of three",
    "advance": "Multiplayer elimination: how many of each table go on; groups: of each group",
    "group_size": (
        "Group stages: players a group (default: a table and two more, or 4; 2-player games: "
        "6 at most)"
    ),
    "scores": "Pods: place scores per table size, best first, e.g. 4:6/4/2/0, 3:6/3/0",
    "default_cut": "Swiss: a bracket of the top 4 from 9 players, top 8 from 17, none below",
    "larger_tables": "Pods: fewer, larger tables when the field does not divide (17: 5/4/4/4)",
    "reset": "Double elimination: replay the grand final if the unbeaten player loses it",
    "round_hours": "Hours a round lasts, then unfinished tables are drawn (default: the pace's)",
    "seeding": "lot: a seeded draw; rating: round 1, ties in points and brackets by rating",
}


def event_config(
    format: str,
    *,
    pace: app_commands.Choice[str] | None,
    max_players: int | None,
    top_cut: int | None,
    **choices: object,
) -> TournamentConfig:
    """The event's choices as the command's options gave them (the format's defaults for
    what was left out)."""
    most = format_class(format).most_players if max_players is None else max_players
    return TournamentConfig(
        format=format,
        pace=(pace.value if pace else format_class(format).default_pace),  # type: ignore[arg-type]
        max_players=most,
        top_cut=top_cut or 0,
        **choices,  # type: ignore[arg-type]
    )
