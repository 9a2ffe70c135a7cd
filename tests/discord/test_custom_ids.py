"""Buttons and selects already sent live on in Discord's messages: a click on one sent
before a restart, or before a release, must still be understood. So every DynamicItem's
template is pinned here letter for letter, and so is what the verb buttons look like and
the custom_id each sends."""

# ruff: noqa: E501  (a pinned template is one line, however long)

from __future__ import annotations

import discord
import pytest

from cogs import history, ratings, rules
from cogs.table import buttons as table
from cogs.table import seat_choice
from cogs.tournaments import buttons as event

MODULES = (history, ratings, rules, table, seat_choice, event)
SHORT = {
    "{MID}": "(?P<mid>[0-9a-f]{10})",
    "{TID}": "(?P<tid>[0-9a-f]{8})",
    "{LEVEL}": "(?P<level>easy|normal|hard)",
}
# Class name and template, one a line, as clicks on messages already sent are read.
TEMPLATES = r"""
HistoryButton cj:hist:(?P<page>\d{1,4}):(?P<game>[a-z_]{1,40}|-):(?P<user>\d{1,20}):(?P<slot>[ab])
ReplayButton cj:rp:{MID}:(?P<slot>[a-e]):(?P<step>\d{1,6}):(?P<hands>[01])(?::(?P<owner>\d{1,20}))?
ReplaySelect cj:rps:{MID}:(?P<hands>[01])(?::(?P<owner>\d{1,20}))?
LeaderboardButton cj:lb:(?P<game>[a-z_]{1,40}):(?P<page>\d{1,5}):(?P<slot>[ab])
StatsGame cj:stats:(?P<user>\d{1,20})
RulesButton cj:rules:(?P<game>[a-z_]{1,40}):(?P<part>full|rulings)
AskButton cj:ask:(?P<on>[01])
BotLevelButton cj:botlevel:{MID}:(?P<bot>[A-Za-z]{1,12}):{LEVEL}
LeaveButton cj:quit:{MID}
LobbyButton cj:lobby:{MID}:(?P<verb>join|leave|bot|start|cancel)
LobbyOption cj:lopt:{MID}:(?P<field>_?[a-z_]{1,40})
MoveButton cj:do:{MID}:(?P<stamp>[0-9a-z]{1,8}):(?P<index>\d{1,3})
MoveSelect cj:pick:{MID}:(?P<stamp>[0-9a-z]{1,8}):(?P<row>\d)
RaceButton cj:grab:{MID}:(?P<race>[0-9a-z]{1,8}):(?P<action>[A-Za-z0-9_.-]{1,60})
TableButton cj:(?P<verb>hand|rematch|watch|back|more):{MID}
MyListSelect cj:mypick:{MID}
SeatChoiceSelect cj:seatpick:{MID}
EventBotButton cj:evbot:{TID}:(?P<entrant>\d{1,4}):{LEVEL}
PairingsPage cj:evp:{TID}:(?P<round>\d{1,4}):(?P<page>\d{1,4}):(?P<slot>[ab])
TournamentButton cj:ev:{TID}:(?P<verb>join|leave|checkin|bot|start|cancel|mytable|standing|stay|next)
"""

SUCCESS, PRIMARY, SECONDARY, DANGER = 3, 1, 2, 4
SIGNUP = {
    "join": ("Join", SUCCESS, "🙋"),
    "leave": ("Leave", SECONDARY, "🚪"),
    "bot": ("Add bot", SECONDARY, "🤖"),
    "start": ("Start", PRIMARY, "▶️"),
    "cancel": ("Cancel", DANGER, "✖️"),
}
EVENT = SIGNUP | {
    "checkin": ("Check in", PRIMARY, "✅"),
    "mytable": ("My table", PRIMARY, "🪑"),
    "standing": ("My standing", SECONDARY, "📊"),
    "stay": ("Stay in", SUCCESS, "💪"),
    "next": ("Start now", PRIMARY, "⏭️"),
}
VERB_BUTTONS = [
    (table.LobbyButton, "abcdef0123", "cj:lobby:abcdef0123:", SIGNUP),
    (event.TournamentButton, "abcdef01", "cj:ev:abcdef01:", EVENT),
]


def test_every_dynamic_item_keeps_its_template() -> None:
    """A new DynamicItem fails here too, until its template is pinned."""
    found = [
        f"{cls.__name__} {cls.__discord_ui_compiled_template__.pattern}"
        for module in MODULES
        for cls in sorted(vars(module).values(), key=lambda o: getattr(o, "__name__", ""))
        if isinstance(cls, type)
        and issubclass(cls, discord.ui.DynamicItem)
        and cls.__module__ == module.__name__
    ]
    pinned = TEMPLATES
    for short, long in SHORT.items():
        pinned = pinned.replace(short, long)
    assert found == pinned.strip().splitlines()


@pytest.mark.parametrize(("cls", "key", "prefix", "looks"), VERB_BUTTONS)
async def test_verb_buttons_look_and_send_as_they_always_did(
    cls: type[discord.ui.DynamicItem],  # type: ignore[type-arg]
    key: str,
    prefix: str,
    looks: dict[str, tuple[str, int, str]],
) -> None:
    assert set(cls.LOOK) == set(looks)  # type: ignore[attr-defined]
    for verb, (label, style, emoji) in looks.items():
        sent = cls(key, verb).item.to_component_dict()  # type: ignore[call-arg]
        assert sent == {
            "type": 2,
            "style": style,
            "disabled": False,
            "label": label,
            "custom_id": prefix + verb,
            "emoji": {"id": None, "name": emoji},
        }
        # A click on it is read back into the same button.
        match = cls.__discord_ui_compiled_template__.fullmatch(prefix + verb)
        assert match is not None
        clicked = await cls.from_custom_id(None, discord.ui.Button(), match)  # type: ignore[arg-type]
        assert clicked.item.to_component_dict() == sent
        assert clicked.verb == verb  # type: ignore[attr-defined]
