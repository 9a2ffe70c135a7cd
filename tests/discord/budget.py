"""Reading the requests a test's bot made as Discord's request budget counts them: every
REST call but the interaction endpoints (answering a click or a command, its follow-ups
and the edits made through its token), which are outside it."""

from __future__ import annotations

from devtools.offline_discord.model import FakeMessage, RecordedRequest
from tests.discord.harness import FakeDiscord

FREE = ("/interactions/", "/webhooks/")


def is_budgeted(request: RecordedRequest) -> bool:
    return is_budgeted_path(request.path)


def is_budgeted_path(path: str) -> bool:
    """``path``: after the API's prefix (``/channels/1/messages``), or a whole URL."""
    return not path.split("/api/v10", 1)[-1].startswith(FREE)


def budgeted(fake: FakeDiscord, since: int = 0) -> list[RecordedRequest]:
    """The budgeted requests since the ``since``-th request."""
    return [r for r in fake.requests[since:] if is_budgeted(r)]


def edits_of(fake: FakeDiscord, message: FakeMessage, since: int = 0) -> list[RecordedRequest]:
    """The budgeted edits of ``message`` (a channel's PATCH of it)."""
    path = f"/channels/{message.channel_id}/messages/{message.id}"
    return [r for r in budgeted(fake, since) if r.method == "PATCH" and r.path == path]


def every_edit_of(fake: FakeDiscord, message: FakeMessage, since: int = 0) -> list[RecordedRequest]:
    """The edits of ``message``, budgeted (the channel's PATCH) or free (through an
    interaction's token, ``/webhooks/{application}/{token}/messages/{id}``)."""
    return [
        r
        for r in fake.requests[since:]
        if r.method == "PATCH"
        and r.path.endswith(f"/messages/{message.id}")
        and r.path.startswith(("/channels/", "/webhooks/"))
    ]


def free_edits_of(fake: FakeDiscord, message: FakeMessage, since: int = 0) -> list[RecordedRequest]:
    """The edits of ``message`` made through an interaction's token (free)."""
    return [r for r in every_edit_of(fake, message, since) if not is_budgeted(r)]
