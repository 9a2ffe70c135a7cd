"""How settings kept as JSON are read: a rolling restart runs an older process beside a newer
one on one database (docs/operations.md), so either may read what the other wrote."""

from __future__ import annotations

from pydantic import ConfigDict

# A field the reading process does not know yet is kept, not refused: refusing it would turn
# every read of a server's settings or an event into an error on the older process until it
# stops, and dropping it would erase the newer process's choice at the older one's next write
# (pydantic keeps unknown fields in ``model_extra``, through ``model_copy`` and dumps).
FORWARD_COMPATIBLE = ConfigDict(frozen=True, extra="allow")
