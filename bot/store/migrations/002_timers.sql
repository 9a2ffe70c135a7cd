-- How a match is run (its pace), and the timers that keep slow matches moving.
ALTER TABLE matches ADD COLUMN settings TEXT NOT NULL DEFAULT '{}';

-- One row per pending deadline or reminder. ``version`` is the state version it was set
-- for: a timer whose match has moved on is stale and fires as a no-op.
CREATE TABLE timers (
    match_id  TEXT NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    kind      TEXT NOT NULL,
    seat      INTEGER NOT NULL,
    version   INTEGER NOT NULL,
    due_at    REAL NOT NULL,      -- seconds since the epoch
    PRIMARY KEY (match_id, kind, seat)
);
CREATE INDEX timers_by_due ON timers (due_at);

-- A move's timers are saved in the same statement as the move: the service writes them as
-- JSON into matches.timers and this trigger replaces the match's rows, atomically.
ALTER TABLE matches ADD COLUMN timers TEXT NOT NULL DEFAULT '[]';

CREATE TRIGGER matches_replace_timers AFTER UPDATE OF timers ON matches
BEGIN
    DELETE FROM timers WHERE match_id = NEW.id;
    INSERT INTO timers (match_id, kind, seat, version, due_at)
    SELECT NEW.id, json_extract(value, '$.kind'), json_extract(value, '$.seat'),
           json_extract(value, '$.version'), json_extract(value, '$.due_at')
    FROM json_each(NEW.timers);
END;
