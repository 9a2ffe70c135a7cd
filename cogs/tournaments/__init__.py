"""/tournament: community events the bot runs by itself, shown in Discord.

The sign-up embed (Join, Leave, Check in, Add bot, Start, Cancel), a pairings message a
round (one message, paged by ◀ ▶) with a private My table button, one public thread per
table holding its match (archived when its round ends, is paired again or is cancelled),
standings after every round (My standing), the final standings. Recurring events
(``/tournament schedule``): each occurrence announced, published in the server's Events and
its sign-up posted on time (``schedule_commands``, ``schedule_posts``).

``commands``: the slash commands; ``posts``: what each change of an event shows;
``buttons``: the event's buttons; ``embeds``: the embeds and lines they show.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs.tournaments.buttons import EventBotButton, PairingsPage, TournamentButton
from cogs.tournaments.commands import TournamentCog
from cogs.tournaments.posts import TournamentPosts
from cogs.tournaments.schedule_posts import SchedulePosts

if TYPE_CHECKING:
    from bot.client import CookieJar


async def setup(bot: CookieJar) -> None:
    posts = TournamentPosts(bot)
    bot.tournaments.open_thread = posts.open_thread
    bot.tournaments.listeners.append(posts.on_tournament_change)
    bot.schedules.publisher = SchedulePosts(bot)
    bot.add_listener(posts.drop_thread_notice, "on_message")
    bot.add_dynamic_items(TournamentButton, EventBotButton, PairingsPage)
    await bot.add_cog(TournamentCog(bot))
