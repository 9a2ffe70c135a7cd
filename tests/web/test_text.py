"""A panel's Discord text as the pages write it: escaped first, then our own tags."""

from __future__ import annotations

from markupsafe import escape

from bot.web.pages import day, discord_text, when


def test_markup_in_a_panel_stays_text_and_discord_emphasis_becomes_ours() -> None:
    html = discord_text("**<img src=x onerror=alert(1)>** plays *fast*")
    assert str(html) == "<strong>&lt;img src=x onerror=alert(1)&gt;</strong> plays <em>fast</em>"


def test_a_discord_timestamp_is_written_as_a_date() -> None:
    assert str(discord_text("ends <t:1700000000:R>")) == "ends 2023-11-14 22:13 UTC"


def test_a_timestamp_no_calendar_holds_stays_as_typed() -> None:
    assert str(discord_text("<t:999999999999>")) == "&lt;t:999999999999&gt;"
    assert when(1e20) == "" and day(-1e20) == ""


def test_a_name_escaped_for_discord_reads_as_written_on_the_page() -> None:
    """The Discord edge escapes names for markdown and mentions; the page shows them as
    the player wrote them, and their characters make no emphasis of their own."""
    from discord.utils import escape_markdown, escape_mentions

    for name in ("dark_knight", "Ana (EU)", "*Ana*", "__init__", "@everyone", "a\\b"):
        shown = escape_mentions(escape_markdown(name))
        assert str(discord_text(f"**{shown}** wins")) == f"<strong>{escape(name)}</strong> wins"
    xss = escape_markdown("<img src=x onerror=alert(1)>")
    assert str(discord_text(xss)) == "&lt;img src=x onerror=alert(1)&gt;"
    assert str(discord_text("\x00 0 \x00 *a*")) == " 0  <em>a</em>"


def test_a_texts_names_are_inert_in_the_pages_markdown() -> None:
    """A panel line is a Text: its names are data, shown as written, never emphasis."""
    from games.core.text import t

    line = t("**{name}** plays *fast* against {other}.", name="*Cleo*", other="dark_knight")
    html = str(discord_text(line))
    assert html == "<strong>*Cleo*</strong> plays <em>fast</em> against dark_knight."
    xss = t("{name} wins.", name="<img src=x onerror=alert(1)>")
    assert str(discord_text(xss)) == "&lt;img src=x onerror=alert(1)&gt; wins."


def test_no_template_marks_anything_safe_and_only_two_places_make_markup() -> None:
    """Names reach the pages as data: the templates never mark a value safe, and markup is
    made in three places only, each from text it escaped first (``discord_text``, and the
    templates' ``t`` whose catalog message is ours and whose data it escapes) or from a
    fragment a template rendered with autoescape (the live table)."""
    import re
    from pathlib import Path

    web = Path(__file__).resolve().parents[2] / "bot" / "web"
    for template in (web / "templates").glob("*.html"):
        assert not re.search(r"\|\s*safe\b|autoescape\s+false", template.read_text()), template
    made = [
        (path.name, line.strip())
        for path in web.glob("*.py")
        for line in path.read_text().splitlines()
        if "Markup(" in line
    ]
    assert sorted(name for name, _ in made) == ["app.py", "pages.py", "words.py"], made
