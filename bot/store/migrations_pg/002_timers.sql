-- How a match is run (its pace), and the timers that keep slow matches moving.
ALTER TABLE matches ADD COLUMN settings TEXT NOT NULL DEFAULT '{}';

-- One row per pending deadline or reminder. ``version`` is the state version it was set
-- for: a timer whose match has moved on is stale and fires as a no-op. (SQLite's JSON
-- column and trigger are not needed: the move's transaction replaces the rows itself.)
CREATE TABLE timers (
    match_id  TEXT NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    kind      TEXT NOT NULL,
    seat      INTEGER NOT NULL,
    version   INTEGER NOT NULL,
    due_at    DOUBLE PRECISION NOT NULL,   -- seconds since the epoch
    -- Several processes share the table: the one firing a timer holds it until then
    -- (a lease, so a process that dies mid-firing leaves it to another).
    claimed_until  DOUBLE PRECISION,
    PRIMARY KEY (match_id, kind, seat)
);
CREATE INDEX timers_by_due ON timers (due_at);
