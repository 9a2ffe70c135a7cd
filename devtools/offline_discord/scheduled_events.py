"""Guild Scheduled Events (the server's Events tab): create, modify, delete, and list who
pressed "Interested", refusing what Discord refuses (discord/discord-api-spec,
``openapi.json``: ``ExternalScheduledEventCreateRequest`` and its patch, and Discord's
documented rules for an external event):

- the bot needs Manage Events (403, 50013 Missing Permissions);
- ``name`` 1–100, ``description`` up to 1000, ``privacy_level`` 2 (GUILD_ONLY);
- an EXTERNAL event (entity_type 3) has no channel_id, a ``location`` of 1–100 and a
  ``scheduled_end_time`` after its start; a new event starts in the future;
- status goes SCHEDULED → ACTIVE or CANCELED, ACTIVE → COMPLETED, and nowhere else.

The fake's time for "the future" is ``scheduled_now`` (a test sets it to the bot's clock).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import datetime
from typing import Any

from devtools.offline_discord.limits import _Errors
from devtools.offline_discord.model import FakeUser
from devtools.offline_discord.routes import Routes
from devtools.offline_discord.wire import _ID, _Request, _route

SCHEDULED, ACTIVE, COMPLETED, CANCELED = 1, 2, 3, 4
EXTERNAL = 3
_MOVES = {SCHEDULED: {ACTIVE, CANCELED}, ACTIVE: {COMPLETED}}
_MOST_USERS = 100


class ScheduledEvents(Routes):
    """The guild's scheduled events and who is interested in each."""

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.scheduled_events: dict[int, dict[str, Any]] = {}
        """The guild's scheduled events by id, as Discord returns them."""
        self._interested: dict[int, list[int]] = {}
        self.scheduled_now: Callable[[], float] = time.time
        """The fake's now for "a new event starts in the future" (a test's bot clock)."""

    def press_interested(self, user: FakeUser, event_id: int) -> None:
        """``user`` presses Interested on the event in the Events tab."""
        if event_id not in self.scheduled_events:
            raise LookupError(f"no scheduled event {event_id}")
        users = self._interested.setdefault(event_id, [])
        if user.id not in users:
            users.append(user.id)

    def _manage_events_or_403(self, request: _Request) -> None:
        if not self.user_permissions(self.bot_user).manage_events:
            raise self._reject(request, 403, 50013, "Missing Permissions")

    def _event_or_404(self, request: _Request, event_id: str) -> dict[str, Any]:
        found = self.scheduled_events.get(int(event_id))
        if found is None or int(request.args[0]) != self.guild_id:
            raise self._reject(request, 404, 10070, "Unknown Guild Scheduled Event")
        return found

    def _check_event(self, request: _Request, event: dict[str, Any], *, new: bool) -> None:
        errors = _Errors()
        errors.length(("name",), event.get("name"), 100, minimum=1)
        errors.length(("description",), event.get("description"), 1000)
        if event.get("privacy_level") != 2:
            errors.add(("privacy_level",), "Value must be one of {2}.", "BASE_TYPE_CHOICES")
        if event.get("entity_type") not in (1, 2, EXTERNAL):
            errors.add(("entity_type",), "Value must be one of {1, 2, 3}.", "BASE_TYPE_CHOICES")
        start = _moment(errors, "scheduled_start_time", event.get("scheduled_start_time"))
        end = None
        if event.get("scheduled_end_time") is not None:
            end = _moment(errors, "scheduled_end_time", event["scheduled_end_time"])
        if event.get("entity_type") == EXTERNAL:
            if event.get("channel_id") is not None:
                errors.add(("channel_id",), "Must be null for an external event.")
            location = (event.get("entity_metadata") or {}).get("location")
            errors.length(("entity_metadata", "location"), location, 100, minimum=1)
            if end is None:
                errors.add(("scheduled_end_time",), "This field is required", "BASE_TYPE_REQUIRED")
        if start is not None and end is not None and end <= start:
            errors.add(("scheduled_end_time",), "Must be after the start time.")
        if new and start is not None and start <= self.scheduled_now():
            errors.add(("scheduled_start_time",), "Cannot schedule event in the past.")
        if errors:
            raise self._invalid(request, errors)

    @_route("POST", rf"/guilds/{_ID}/scheduled-events")
    def _create_scheduled_event(self, request: _Request) -> Any:
        self._manage_events_or_403(request)
        body = dict(request.body or {})
        self._check_event(request, body, new=True)
        event_id = self._new_id()
        self.scheduled_events[event_id] = {
            **body,
            "id": str(event_id),
            "guild_id": str(self.guild_id),
            "creator_id": str(self.bot_user.id),
            "status": SCHEDULED,
            "channel_id": None,
            "user_count": 0,
        }
        return dict(self.scheduled_events[event_id])

    @_route("PATCH", rf"/guilds/{_ID}/scheduled-events/{_ID}")
    def _patch_scheduled_event(self, request: _Request) -> Any:
        self._manage_events_or_403(request)
        event = self._event_or_404(request, request.args[1])
        changes = dict(request.body or {})
        status = changes.get("status")
        moving = status is not None and status != event["status"]
        if moving and status not in _MOVES.get(event["status"], set()):
            errors = _Errors()
            errors.add(("status",), "Invalid Guild Scheduled Event Status Transition.")
            raise self._invalid(request, errors)
        if event["status"] != SCHEDULED and set(changes) - {"status"}:
            raise self._reject(request, 400, 180000, "Cannot update a finished event")
        merged = {**event, **changes}
        self._check_event(request, merged, new=False)
        event.update(changes)
        return dict(event)

    @_route("DELETE", rf"/guilds/{_ID}/scheduled-events/{_ID}")
    def _delete_scheduled_event(self, request: _Request) -> Any:
        self._manage_events_or_403(request)
        event = self._event_or_404(request, request.args[1])
        del self.scheduled_events[int(event["id"])]
        self._interested.pop(int(event["id"]), None)
        return None

    @_route("GET", rf"/guilds/{_ID}/scheduled-events/{_ID}/users")
    def _scheduled_event_users(self, request: _Request) -> Any:
        event = self._event_or_404(request, request.args[1])
        limit = int(request.params.get("limit", _MOST_USERS))
        if not 1 <= limit <= _MOST_USERS:
            errors = _Errors()
            errors.add(("limit",), f"Must be between 1 and {_MOST_USERS}.")
            raise self._invalid(request, errors)
        after = int(request.params.get("after", 0))
        users = sorted(u for u in self._interested.get(int(event["id"]), []) if u > after)
        return [
            {
                "guild_scheduled_event_id": event["id"],
                "user": self._user_json(self.users[user]),
                "response": 1,
            }
            for user in users[:limit]
        ]


def _moment(errors: _Errors, field: str, value: Any) -> float | None:
    try:
        return datetime.fromisoformat(str(value)).timestamp()
    except ValueError:
        errors.add((field,), "Could not parse value as ISO8601 timestamp.", "DATE_TIME_TYPE_PARSE")
        return None
