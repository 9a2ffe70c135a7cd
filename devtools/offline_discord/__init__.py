"""Offline Discord: drive a real ``discord.ext.commands.Bot`` through discord.py with no network.

Usage
=====

::

    fake = FakeDiscord()                       # guild + "general" channel
    alice = fake.add_user("alice")
    mod = fake.add_user("mod", manage_guild=True)
    games = fake.add_channel("games")
    async with fake.running(make_bot()):       # login + setup_hook + ready; closes the bot after
        await fake.slash(alice, "play", channel=games, game="cover_your_assets")
        panel = fake.public_messages(games)[-1]
        await fake.click(alice, panel, panel.find_button("Join"))
        assert fake.last_reply(alice).ephemeral
        await fake.select(alice, panel, "pick", values=["1", "2"])
    async with fake.running(make_bot()):       # "restart": recorded messages survive
        await fake.click(mod, panel, "some:custom:id")
    assert "secret" not in "\n".join(fake.all_public_text())
    fake.assert_clean()                        # no rejected payloads, no unanswered interactions

How it works
============

:class:`FakeDiscord` plays the Discord side of the conversation.  ``fake.running(bot)``

1. patches the two choke points through which discord.py talks HTTP (undone on exit):

   * bot REST calls keep discord.py's own ``HTTPClient.request`` (its per-route buckets, its
     global lock, its 429 handling); ``HTTPClient.static_login`` gives it the fake's aiohttp
     session, which answers: ``GET /users/@me`` (login), ``GET /oauth2/applications/@me``,
     sending, editing, fetching and deleting channel messages, creating threads (a public
     one started without a message announces itself in its parent, type 18), DMs, syncing
     app commands (``PUT /applications/{app}/commands`` and the guild variant), the
     guild's scheduled events (create, modify, delete, who is Interested:
     ``scheduled_events.py``, with Discord's checks and Manage Events), ...
   * ``discord.webhook.async_.AsyncWebhookAdapter.request`` carries every interaction reply:
     the callback ``POST /interactions/{id}/{token}/callback`` and followups / edits of the
     original response under ``/webhooks/{app_id}/{token}/...``.

   Both are routed to small handlers that update an in-memory model (guild, channels, users,
   messages with every version) and answer realistic JSON, so discord.py builds real
   ``Message``/``Thread``/``AppCommand`` objects.  Unknown routes answer ``{}``/``[]`` and are
   listed in :attr:`FakeDiscord.unknown_routes`.

2. awaits ``bot.login("fake-token")`` (this runs ``setup_hook``), adds the guild to the
   connection state with ``ConnectionState._add_guild_from_data`` (no websocket is needed),
   then signals readiness exactly like ``_delay_ready`` does (``guild_available``, the
   ``ready`` handler which sets ``wait_until_ready``, and the ``on_ready`` event).

3. feeds users' actions as synthetic gateway payloads through
   ``bot._connection.parsers["INTERACTION_CREATE"]`` and then :meth:`FakeDiscord.settle`\\ s.

4. on exit settles, closes the bot, cancels the tasks it left behind (the "process" died) and
   fails the test if any ERROR record was logged by discord.py or the project (discord.py logs
   and swallows exceptions raised in callbacks, so without this a broken callback looks like a
   silent no-op).

The fake keeps Discord's request budget
---------------------------------------
``FakeDiscord(rate_limits=...)`` (``ratelimits``; Discord's figures unless told otherwise):
the bot token's global budget (50 a second, settable, shared by every process of the
application through ``RateLimits.shared(path)``), per-route buckets (message create and
edit per channel, deletes, reactions, thread creation), and 429 answers with Discord's body
and headers, which discord.py's ``HTTPClient.request`` handles as it handles Discord's
(waiting, and logging a WARNING per 429). Interaction endpoints are outside the budget.
``rate_limits=None`` serves everything at once. :attr:`FakeDiscord.calls` counts the
requests served, budgeted and free apart, by route, and those refused. A refused request
is not in :attr:`FakeDiscord.requests`, which lists what Discord carried out.

The fake rejects what Discord rejects
-------------------------------------
Every message payload (send, edit, interaction response, followup, ``@original`` edit) is
checked against Discord's limits; a violation raises ``discord.HTTPException`` (status 400, code
50035 "Invalid Form Body" with Discord-style nested ``errors``; 50006 for an empty message)
inside the bot exactly as the real client would, and is recorded in
:attr:`FakeDiscord.rejections`.  Acknowledging an interaction twice answers 40060.  Editing or
fetching an ephemeral message through the channel routes answers 404 like Discord does.  The
first followup after a "thinking" defer replaces the loading message and inherits the defer's
visibility (an ``ephemeral=True`` followup after a public defer is public - a classic leak).

Waiting for the bot: :meth:`FakeDiscord.settle`
-----------------------------------------------
``settle`` returns when the event loop is quiet: nothing is ready to run, no task waits on a
worker thread (``run_in_executor``/``to_thread`` futures, aiosqlite) and no *pending* timer is
left.  A timer is pending when it is due within ``horizon`` (5 s) and belongs to a task created
during the action being settled (or to no identifiable task); pending timers are
fast-forwarded by shifting the clock (``running`` patches ``time.monotonic``, which
``loop.time()`` and discord.py's view timeouts read, and ``discord.utils.utcnow``).  So pacing
sleeps (debounced edits, bot-player delays, chains of them) cost no wall time, while view
timeouts, turn timers and background tasks that existed before the action are "idle" and do
not hang the test.  A per-settle ``budget`` (60 s of fake time) stops periodic loops started by
the action itself.  Corollaries: a ``wait_for(..., timeout=2)`` started by the action times out
during ``settle``, as it would if the user did nothing; measure wall time in tests with
``time.perf_counter``, not ``time.monotonic``.  :meth:`FakeDiscord.advance` moves the clock on
purpose (e.g. to expire a 180 s view).  ``settle`` gives up after ``timeout`` seconds of real
time with :class:`SettleTimeout` describing what was still busy.

Where things are
----------------
Imports point one way, down this list (``.importlinter`` holds it): ``fake``
(:class:`FakeDiscord`, which joins the rest); ``actions`` (users' side: slash, click, select,
modal), ``routes`` (Discord's REST side) and ``transport`` (the patched HTTP choke points);
``settle`` (waiting for the bot); ``world`` (the guild and the JSON discord.py reads of it);
``limits`` (Discord's payload rules), ``ratelimits`` (Discord's request budget), ``wire``
(requests, responses, the route table, injected faults) and ``logs`` (the error-log guard);
``clock`` (fake time) and ``model`` (users, channels, messages, interactions as the fake
records them). The tests and the load benchmark (``bench/load.py``)
both drive the bot through it; the tests reach it as ``tests.discord.harness``.

Facts about discord.py 2.7.1 this relies on (learned the hard way)
------------------------------------------------------------------
* ``InteractionResponse`` sends ``?with_response=1`` and parses the answer as an
  ``InteractionCallbackResponse``: ``{"interaction": {"id", "type", "response_message_id",
  "response_message_loading", "response_message_ephemeral"}, "resource": {"type", "message"}}``.
  ``response_message_id`` is what ``store_view`` keys the sent view by.
* Component clicks are matched against the clicked message's *payload*: a ``DynamicItem`` is
  rebuilt with ``View.from_message(interaction.message)`` and silently dropped if the
  custom_id is not in ``message.components``; ordinary views are looked up by
  ``(message_id, component_type, custom_id)``.  The fake therefore always sends the message
  as it recorded it.
* ``interaction.permissions`` comes from ``member.permissions`` in the payload while
  ``member.guild_permissions`` comes from the guild's cached roles; the fake provides both
  (users with ``manage_guild`` get a "Managers" role).
* discord.py ``login`` can only run once per ``Client``; build a new bot to "restart".
"""

from __future__ import annotations

from devtools.offline_discord.fake import FakeDiscord
from devtools.offline_discord.limits import message_errors
from devtools.offline_discord.logs import ErrorLogCapture, capture_error_logs
from devtools.offline_discord.model import (
    EPHEMERAL,
    ButtonInfo,
    FakeAttachment,
    FakeChannel,
    FakeInteraction,
    FakeMessage,
    FakeModal,
    FakeRole,
    FakeUser,
    Rejection,
)
from devtools.offline_discord.ratelimits import CallCounts, RateLimits, RouteLimit
from devtools.offline_discord.settle import SettleTimeout
from devtools.offline_discord.wire import Fault

__all__ = [
    "EPHEMERAL",
    "ButtonInfo",
    "CallCounts",
    "ErrorLogCapture",
    "FakeAttachment",
    "FakeChannel",
    "FakeDiscord",
    "FakeInteraction",
    "FakeMessage",
    "FakeModal",
    "FakeRole",
    "FakeUser",
    "Fault",
    "RateLimits",
    "Rejection",
    "RouteLimit",
    "SettleTimeout",
    "capture_error_logs",
    "message_errors",
]
