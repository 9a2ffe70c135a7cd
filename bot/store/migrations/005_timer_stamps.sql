-- A timer names the decision it was set for (its stamp), not just the state version: with
-- simultaneous choices the version moves on every answer while the other seats' decisions,
-- and their clocks, still stand.
ALTER TABLE timers ADD COLUMN stamp TEXT NOT NULL DEFAULT '';

DROP TRIGGER matches_replace_timers;
CREATE TRIGGER matches_replace_timers AFTER UPDATE OF timers ON matches
BEGIN
    DELETE FROM timers WHERE match_id = NEW.id;
    INSERT INTO timers (match_id, kind, seat, version, due_at, stamp)
    SELECT NEW.id, json_extract(value, '$.kind'), json_extract(value, '$.seat'),
           json_extract(value, '$.version'), json_extract(value, '$.due_at'),
           coalesce(json_extract(value, '$.stamp'), '')
    FROM json_each(NEW.timers);
END;
