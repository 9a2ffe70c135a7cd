"""The servers' read-only web pages (``WEB_PORT``; ``python -m bot web`` alone).

A server that opted in (``/settings web:on``) has its pages under ``/s/<guild>/<token>/``,
the token unguessable and renewable; every other path of it answers 404. The pages read the
store (and the match service's replays) and never change anything: ``reader`` is all they
see of the bot, and an import-linter contract keeps the service's writing parts out.
See docs/web.md.
"""
