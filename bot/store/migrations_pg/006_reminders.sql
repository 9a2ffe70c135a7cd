-- When /remind last pinged a match's laggards: kept here, not in the process, so a restart
-- does not forget it and nobody is pinged twice within the hour.
CREATE TABLE reminders (
    match_id     TEXT PRIMARY KEY REFERENCES matches (id),
    reminded_at  DOUBLE PRECISION NOT NULL
);
