-- Tournaments: community events the bot runs by itself. Each table of a round is an
-- ordinary match (matches.id = event_tables.match_id); its result is recorded here when the
-- match ends. Standings are never stored: they are recomputed from ``results``.
CREATE TABLE tournaments (
    id            TEXT PRIMARY KEY,
    guild_id      INTEGER NOT NULL,
    channel_id    INTEGER NOT NULL,
    message_id    INTEGER,            -- the public sign-up embed
    organiser_id  INTEGER NOT NULL,
    game          TEXT NOT NULL,
    config        TEXT NOT NULL,      -- JSON of EventConfig: format, rounds, pace ...
    status        TEXT NOT NULL
        CHECK (status IN ('signup', 'running', 'paused', 'finished', 'cancelled')),
    round         INTEGER NOT NULL DEFAULT 0,  -- the round being played (0: not started)
    seed          INTEGER NOT NULL,   -- every lot of the event derives from it
    created_at    REAL NOT NULL
);
CREATE INDEX tournaments_by_guild ON tournaments (guild_id, status);

CREATE TABLE entrants (
    tournament_id  TEXT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    entrant        INTEGER NOT NULL,  -- the player's number within the event (sign-up order)
    user_id        INTEGER,           -- NULL: a bot entrant
    name           TEXT NOT NULL,
    state          TEXT NOT NULL
        CHECK (state IN ('entered', 'waitlist', 'dropped', 'disqualified')),
    checked_in     INTEGER NOT NULL DEFAULT 0,
    forfeited      INTEGER NOT NULL DEFAULT 0,  -- forfeited a table: dropped unless Stay in
    dropped_round  INTEGER,
    joined_at      REAL NOT NULL,
    PRIMARY KEY (tournament_id, entrant)
);
CREATE UNIQUE INDEX entrants_one_per_user ON entrants (tournament_id, user_id)
    WHERE user_id IS NOT NULL;

CREATE TABLE rounds (
    tournament_id  TEXT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round          INTEGER NOT NULL,
    stage          TEXT NOT NULL,     -- swiss, pods, bracket, final
    deadline       REAL,              -- NULL: no deadline (live)
    message_id     INTEGER,           -- the pairings message
    started_at     REAL NOT NULL,
    PRIMARY KEY (tournament_id, round)
);

CREATE TABLE event_tables (
    tournament_id  TEXT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round          INTEGER NOT NULL,
    table_no       INTEGER NOT NULL,
    match_id       TEXT UNIQUE,       -- the match played at this table
    thread_id      INTEGER,
    seats          TEXT NOT NULL,     -- JSON list of entrants in seat order
    status         TEXT NOT NULL CHECK (status IN ('playing', 'done', 'cancelled')),
    bracket_id     TEXT,              -- the bracket match it plays (W1-1, GF ...)
    PRIMARY KEY (tournament_id, round, table_no)
);

-- One result per table (byes and missed rounds included). A table's result is written once
-- (INSERT ... DO NOTHING), so a second "finished" for the same match changes nothing; an
-- organiser's correction replaces it and leaves an audit row.
CREATE TABLE results (
    tournament_id  TEXT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round          INTEGER NOT NULL,
    table_no       INTEGER NOT NULL,
    players        TEXT NOT NULL,     -- JSON list of entrants in seat order
    places         TEXT NOT NULL,     -- JSON list of 1-based places, ties share the best
    kind           TEXT NOT NULL CHECK (kind IN ('table', 'bye', 'missed')),
    gone           TEXT NOT NULL DEFAULT '[]',  -- entrants who forfeited the table
    source         TEXT NOT NULL CHECK (source IN ('match', 'adjudicated', 'organiser', 'bye')),
    match_id       TEXT,
    PRIMARY KEY (tournament_id, round, table_no)
);

CREATE TABLE tournament_audit (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    tournament_id  TEXT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    actor_id       INTEGER NOT NULL,
    actor_name     TEXT NOT NULL,
    action         TEXT NOT NULL,
    before         TEXT NOT NULL,     -- JSON
    after          TEXT NOT NULL,     -- JSON
    at             REAL NOT NULL
);
CREATE INDEX tournament_audit_by_event ON tournament_audit (tournament_id, id);

-- An event's deadlines (next round, round deadline, reminders), fired by the same scheduler
-- as the matches' timers: the store hands both out in one due-time order.
CREATE TABLE event_timers (
    tournament_id  TEXT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    kind           TEXT NOT NULL,
    round          INTEGER NOT NULL,
    due_at         REAL NOT NULL,
    PRIMARY KEY (tournament_id, kind)
);
CREATE INDEX event_timers_by_due ON event_timers (due_at);
