"""A panel's Discord text as the pages write it: escaped first, then our own tags."""

from __future__ import annotations

from bot.web.pages import day, discord_text, when


def test_markup_in_a_panel_stays_text_and_discord_emphasis_becomes_ours() -> None:
    html = discord_text("**<img src=x onerror=alert(1)>** plays *fast*")
    assert str(html) == "<strong>&lt;img src=x onerror=alert(1)&gt;</strong> plays <em>fast</em>"


def test_a_discord_timestamp_is_written_as_a_date() -> None:
    assert str(discord_text("ends <t:1700000000:R>")) == "ends 2023-11-14 22:13 UTC"


def test_a_timestamp_no_calendar_holds_stays_as_typed() -> None:
    assert str(discord_text("<t:999999999999>")) == "&lt;t:999999999999&gt;"
    assert when(1e20) == "" and day(-1e20) == ""
