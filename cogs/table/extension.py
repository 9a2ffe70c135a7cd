"""The extension that plugs the table into the bot: it makes the bot's presenter, gives it
to those who ask for it (``presenter_of``, the table's buttons, the guard of every
handler), listens to the service with it, and registers the table's components.

discord.py runs an extension's module afresh at each load and forgets it (and its
submodules) at unload: what must outlive a load, the registries, lives in the modules
this one imports.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs.components import EXPLAINERS
from cogs.table.buttons import CLICKS, DYNAMIC_ITEMS
from cogs.table.presenter import PRESENTERS, Presenter
from cogs.table.seat_choice import MyListSelect, SeatChoiceSelect

if TYPE_CHECKING:
    from bot.client import CookieJar


async def setup(bot: CookieJar) -> None:
    presenter = Presenter(
        bot,
        edit_interval=bot.settings.table_edit_interval,
        picture_cache_mb=bot.settings.picture_cache_mb,
        pictures=bot.settings.pictures,
        picture_processes=bot.settings.picture_processes,
    )
    PRESENTERS.give(bot, presenter)
    presenter.pictures.start()
    CLICKS.give(bot, presenter.clicks)
    EXPLAINERS.give(bot, presenter.clicks.explain)
    bot.service.listeners.append(presenter.on_change)
    bot.add_listener(presenter.on_interaction, "on_interaction")
    bot.add_dynamic_items(*DYNAMIC_ITEMS, SeatChoiceSelect, MyListSelect)


async def teardown(bot: CookieJar) -> None:
    presenter = PRESENTERS.of(bot)
    bot.remove_listener(presenter.on_interaction, "on_interaction")
    presenter.pictures.close()
