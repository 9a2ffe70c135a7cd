"""Why a channel opened no new table, said to the person who asked (/play, Rematch)."""

from __future__ import annotations

from bot.service import Person
from bot.store import MatchRecord
from cogs import render
from games import GAMES


def channel_taken(existing: MatchRecord, who: Person) -> str:
    """Why /play opened nothing here, offering only what this person can do about it."""
    game = GAMES[existing.game]
    link = render.jump_link(existing)
    name = f"[{game.name}]({link})" if link else game.name
    if existing.status == "lobby" and existing.seat_of(who.user_id) is not None:
        text = f"You're already in the {name} lobby here."
    elif existing.status == "lobby" and len(existing.seats) < game.max_players:
        text = f"A {name} lobby is open here: press **Join** on it to play."
    else:
        text = f"A {name} match is under way here."
    if existing.status != "lobby" or existing.seat_of(who.user_id) is None:
        text += " For a table of your own, use another channel"
        text += " (or /cancel this one)." if can_cancel(existing, who) else "."
    return text


def can_cancel(record: MatchRecord, who: Person) -> bool:
    return who.user_id == record.host_id or who.can_manage
