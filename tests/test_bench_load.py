"""The load bench's harness (bench/load.py): what it forgets of a long run, and what not."""

from __future__ import annotations

import time

from bench.load import LoadDiscord
from devtools.offline_discord import FakeInteraction


def test_a_click_still_being_handled_keeps_its_token_however_old() -> None:
    """Discord keeps a click's token 15 minutes: a click answered first and handled on (a
    table redrawn by its answer, its hand following up seconds later) must find it, or the
    bot's follow-up is refused with 10015 and logged as an ERROR the bot never caused."""
    fake = LoadDiscord()
    user = fake.add_user("ana")
    click = FakeInteraction(id=1, token="t", type=3, user=user, channel_id=fake.general.id)
    fake.interactions.append(click)
    fake._by_token[click.token] = click
    fake.sent_at[click.id] = time.perf_counter() - 30.0
    fake.working.add(click.id)
    fake.prune(clicks_kept=5.0)
    assert fake._by_token.get("t") is click
    fake.working.discard(click.id)  # its handler ended
    fake.prune(clicks_kept=5.0)
    assert "t" not in fake._by_token
