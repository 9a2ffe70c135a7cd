"""The table: each match's messages in Discord, drawn and kept current, and the clicks on
them answered. The bot loads it as the extension ``cogs.table.extension``, before the cogs
that post tables; they reach it through ``presenter_of(bot)``, never through an attribute
set on the bot."""

from cogs.table.presenter import Presenter, presenter_of

__all__ = ["Presenter", "presenter_of"]
