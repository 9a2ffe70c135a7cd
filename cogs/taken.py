"""Why a channel opened no new table, said to the person who asked (/play, Rematch)."""

from __future__ import annotations

from bot.service import Person
from bot.store import MatchRecord
from cogs import render
from games import GAMES
from games.core.text import Text, plain, t


def channel_taken(existing: MatchRecord, who: Person) -> Text:
    """Why /play opened nothing here, offering only what this person can do about it."""
    game = GAMES[existing.game]
    link = render.jump_link(existing)
    name = t("[{game}]({link})", game=game.name, link=link) if link else plain(game.name)
    if existing.status == "lobby" and existing.seat_of(who.user_id) is not None:
        text = t("You're already in the {game} lobby here.", game=name)
    elif existing.status == "lobby" and len(existing.seats) < game.max_players:
        text = t("A {game} lobby is open here: press **Join** on it to play.", game=name)
    else:
        text = t("A {game} match is under way here.", game=name)
    if existing.status == "lobby" and existing.seat_of(who.user_id) is not None:
        return text
    if can_cancel(existing, who):
        return t(
            "{why} For a table of your own, use another channel (or /cancel this one).", why=text
        )
    return t("{why} For a table of your own, use another channel.", why=text)


def can_cancel(record: MatchRecord, who: Person) -> bool:
    return who.user_id == record.host_id or who.can_manage
