"""The pages' words in the server's language: the templates' ``t``/``tn``/``tc``/``tnc``
(each renders at once in the page's ``language``, its data escaped as HTML) and the
``say`` filter for a ``Text`` the reads hand over (a format's name, a tiebreak's words)."""

from __future__ import annotations

from typing import Any

import jinja2
from markupsafe import Markup, escape

from games.core.text import Text, tc
from games.core.translations import ENGLISH, PSEUDO, number, render
from games.core.words import place

# A page's ``<html lang>`` for each of our codes (BCP 47); the pseudo-locale is English
# made to look foreign, which BCP 47 spells as a private-use region of English.
HTML_LANG = {"pt_BR": "pt-BR", PSEUDO: "en-XA"}


@jinja2.pass_context
def html_lang(context: jinja2.runtime.Context) -> str:
    language = _language(context)
    return HTML_LANG.get(language, language)


def _language(context: jinja2.runtime.Context) -> str:
    return str(context.get("language") or ENGLISH)


def _escaped(data: str) -> str:
    return str(escape(data))


def _said(context: jinja2.runtime.Context, text: Text) -> Markup:
    # The message is ours and holds no markup (tags come in as ``tag`` placeholders, which
    # the escape leaves as they are); a name in it is escaped.
    return _made(render(text, _language(context), escape=_escaped))


@jinja2.pass_context
def t_page(context: jinja2.runtime.Context, message: str, **args: Any) -> Markup:
    # The templates' literals are extracted from the templates: built here from the Text.
    return _said(context, Text(message, args))


@jinja2.pass_context
def tn_page(
    context: jinja2.runtime.Context, singular: str, plural: str, n: float, **args: Any
) -> Markup:
    return _said(context, Text(singular, {"n": n, **args}, plural=plural))


@jinja2.pass_context
def tc_page(context: jinja2.runtime.Context, where: str, message: str, **args: Any) -> Markup:
    return _said(context, Text(message, args, context=where))


@jinja2.pass_context
def tnc_page(
    context: jinja2.runtime.Context, where: str, singular: str, plural: str, n: float, **args: Any
) -> Markup:
    return _said(context, Text(singular, {"n": n, **args}, plural=plural, context=where))


@jinja2.pass_context
def say(context: jinja2.runtime.Context, text: object) -> str:
    """A ``Text`` in the page's language (autoescaped after); anything else as it is."""
    return render(text, _language(context)) if isinstance(text, Text) else str(text)


def tag(name: str, **attrs: object) -> Markup:
    """A tag a message places by a placeholder (``{a}watch the replay{end}``): translators
    and the pseudo-locale move it, never spell it; its attributes are escaped."""
    said = "".join(f' {key}="{escape(value)}"' for key, value in attrs.items())
    return _made(f"<{escape(name)}{said}>")


def end(name: str) -> Markup:
    return _made(f"</{escape(name)}>")


def _made(html: str) -> Markup:
    """The one place here that marks HTML safe: each caller escaped what was not ours."""
    return Markup(html)


# An event's status and an entrant's state as the pages show them (stored as codes).
STATES: dict[str, Text] = {
    "signup": tc("event status", "sign-up open"),
    "running": tc("event status", "running"),
    "paused": tc("event status", "paused"),
    "finished": tc("event status", "finished"),
    "cancelled": tc("event status", "cancelled"),
    "waitlist": tc("entrant", "waiting list"),
    "dropped": tc("entrant", "dropped"),
    "disqualified": tc("entrant", "disqualified"),
    "playing": tc("table", "playing"),
}


@jinja2.pass_context
def state(context: jinja2.runtime.Context, code: str) -> str:
    """A stored status code in the page's language (an unknown one as stored)."""
    found = STATES.get(code)
    return code if found is None else render(found, _language(context))


@jinja2.pass_context
def rating(context: jinja2.runtime.Context, value: int | None) -> str:
    """A rating in the page's language's digits (1,120 / 1.120); none: nothing."""
    return "" if value is None else number(value, _language(context))


def install(env: jinja2.Environment) -> None:
    env.globals.update(
        t=t_page,
        tn=tn_page,
        tc=tc_page,
        tnc=tnc_page,
        html_lang=html_lang,
        status=state,
        place=place,
        tag=tag,
        end=end,
    )
    env.filters["say"] = say
    env.filters["rating"] = rating
