-- A match's timers live in its own row: ``matches.timers`` (the JSON list every move
-- already wrote) is the record, and ``next_due`` (the earliest of them, NULL for none) is
-- what the scheduler looks them up by. The timers table and the trigger that rewrote its
-- rows on every move cost each move as much as the rest of its statement: three rows out
-- and three in, each through three b-trees, and the JSON parsed once per field.
ALTER TABLE matches ADD COLUMN next_due REAL;

-- The row's JSON kept fired timers (only the table lost them): rebuilt from the table.
-- A REAL goes into JSON with 15 digits, which moves a due time by microseconds: written
-- with 17, it reads back as the same number.
UPDATE matches SET
    timers = coalesce(
        (SELECT json_group_array(json_object(
                    'kind', kind, 'seat', seat, 'version', version,
                    'due_at', json(printf('%!.17g', due_at)), 'stamp', stamp))
         FROM (SELECT * FROM timers t WHERE t.match_id = matches.id
               ORDER BY due_at, kind, seat)),
        '[]'),
    next_due = (SELECT min(due_at) FROM timers t WHERE t.match_id = matches.id);

CREATE INDEX matches_next_due ON matches (next_due) WHERE next_due IS NOT NULL;

DROP TRIGGER matches_replace_timers;
DROP TABLE timers;
