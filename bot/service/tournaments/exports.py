"""An event's records as CSV files for the organiser: standings, results, audit log."""

from __future__ import annotations

import csv
import io

from bot.service.tournaments.base import TournamentsBase
from bot.tournaments.groups import GroupRounds, reached

# A cell a spreadsheet would read as a formula: names are kept as people wrote them, so
# "=HYPERLINK(...)" may be one (OWASP's CSV injection; a leading ' makes it text).
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def cell(text: str) -> str:
    """Somebody's words as a CSV cell a spreadsheet shows as text, never runs."""
    return "'" + text if text.startswith(FORMULA_START) else text


class Exports(TournamentsBase):
    """standings.csv, results.csv, audit.csv."""

    async def export(self, tournament_id: str) -> dict[str, str]:
        """standings.csv, results.csv (a row per seat) and audit.csv."""
        view = await self.view(tournament_id)
        standings = io.StringIO()
        writer = csv.writer(standings)
        names = [name for name, _ in view.standings[0].tiebreakers] if view.standings else []
        # A group event's place is the round and group reached, then the place in it (the
        # points are that round's): the sheet says so, as the standings post does.
        stages = view.drawn_bracket()
        where = reached(stages) if isinstance(stages, GroupRounds) else None
        groups = ["round_reached", "group", "group_place"] if where is not None else []
        writer.writerow(["rank", "player", "user_id", "points", *names, *groups, "dropped", "bot"])
        for s in view.standings:
            e = view.entrant(s.player)
            at = where.get(s.player) if where is not None else None
            group = (
                [at.round, at.group.number, at.place if at.group.started else ""]
                if at is not None
                else ["", "", ""]
            )
            writer.writerow(
                [
                    s.rank,
                    cell(e.name),
                    e.user_id or "",
                    f"{float(s.points):g}",
                    *(f"{float(v):.2f}" for _, v in s.tiebreakers),  # numbers, for sheets
                    *(group if groups else []),
                    "yes" if s.dropped else "",
                    "yes" if e.is_bot else "",
                ]
            )
        results = io.StringIO()
        writer = csv.writer(results)
        games = ["games_won", "games_drawn"] if view.config.best_of > 1 else []
        writer.writerow(
            ["round", "table", "seat", "player", "place", "kind", "source", "match", *games]
        )
        for r in view.results:
            table = 0 if r.table_no >= 900 else r.table_no
            for seat, (player, place) in enumerate(zip(r.players, r.places, strict=True)):
                # Best of three: the games this seat won at the table (none for a bye).
                won = [r.game_wins[seat], r.game_draws] if r.game_wins is not None else ["", ""]
                writer.writerow(
                    [
                        r.round,
                        table,
                        seat,
                        cell(view.name(player)),
                        place if player not in r.gone else f"{place} (forfeit)",
                        r.kind,
                        r.source,
                        r.match_id or "",
                        *(won if games else []),
                    ]
                )
        audit = io.StringIO()
        writer = csv.writer(audit)
        writer.writerow(["at", "who", "action", "before", "after"])
        for row in await self.store.audit(tournament_id):
            writer.writerow(
                [f"{row.at:.0f}", cell(row.actor_name), row.action, row.before, row.after]
            )
        return {
            "standings.csv": standings.getvalue(),
            "results.csv": results.getvalue(),
            "audit.csv": audit.getvalue(),
        }
