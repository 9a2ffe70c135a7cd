-- Recurring events (issue 40): a schedule an organiser sets once, and each occurrence it
-- made. The schedule's row is its own timer (next_due: the next step of its current
-- occurrence), advanced by a guarded update, so of several processes exactly one takes
-- each step; an occurrence's key (schedule, start) is made once.
CREATE TABLE schedules (
    id              TEXT PRIMARY KEY,
    guild_id        INTEGER NOT NULL,
    channel_id      INTEGER NOT NULL,
    organiser_id    INTEGER NOT NULL,
    game            TEXT NOT NULL,
    config          TEXT NOT NULL,
    weekdays        TEXT NOT NULL,
    at_time         TEXT NOT NULL,
    zone            TEXT NOT NULL,
    signup_hours    INTEGER NOT NULL,
    checkin_minutes INTEGER NOT NULL,
    status          TEXT NOT NULL,
    step            TEXT NOT NULL,
    occurrence      REAL NOT NULL,
    next_due        REAL,
    created_at      REAL NOT NULL
);
CREATE INDEX schedules_by_due ON schedules (next_due);
CREATE INDEX schedules_by_guild ON schedules (guild_id);

CREATE TABLE schedule_occurrences (
    schedule_id       TEXT NOT NULL REFERENCES schedules (id) ON DELETE CASCADE,
    starts_at         REAL NOT NULL,
    status            TEXT NOT NULL,
    tournament_id     TEXT,
    discord_event_id  INTEGER,
    PRIMARY KEY (schedule_id, starts_at)
);
CREATE INDEX schedule_occurrences_by_event ON schedule_occurrences (tournament_id);
