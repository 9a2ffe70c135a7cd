-- PostgreSQL twin of migrations/001_initial.sql: matches, their seats and their action logs.
-- No trigger here: the store writes a move's snapshot and its log row in one transaction.
CREATE TABLE guild_settings (
    guild_id   BIGINT PRIMARY KEY,
    settings   TEXT NOT NULL DEFAULT '{}'
);

CREATE TABLE matches (
    id          TEXT PRIMARY KEY,
    guild_id    BIGINT NOT NULL,
    channel_id  BIGINT NOT NULL,
    message_id  BIGINT,
    game        TEXT NOT NULL,
    status      TEXT NOT NULL CHECK (status IN ('lobby', 'active', 'finished', 'cancelled')),
    host_id     BIGINT NOT NULL,
    options     TEXT NOT NULL,
    seed        BIGINT,
    version     INTEGER NOT NULL DEFAULT 0,
    state       TEXT,
    rematch_of  TEXT,
    created_at  TIMESTAMPTZ NOT NULL,
    updated_at  TIMESTAMPTZ NOT NULL
);

-- One open match (lobby or running) per channel or thread.
CREATE UNIQUE INDEX matches_one_open_per_channel
    ON matches (channel_id) WHERE status IN ('lobby', 'active');
CREATE INDEX matches_by_guild ON matches (guild_id, status);

CREATE TABLE seats (
    match_id  TEXT NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    seat      INTEGER NOT NULL,
    user_id   BIGINT,             -- NULL for a bot seat
    name      TEXT NOT NULL,
    PRIMARY KEY (match_id, seat)
);
CREATE INDEX seats_by_user ON seats (user_id);

-- The action log: replaying it from the seed reproduces the snapshot in matches.state.
CREATE TABLE actions (
    match_id  TEXT NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    seq       INTEGER NOT NULL,   -- the state version the action was applied to
    seat      INTEGER NOT NULL,
    action    TEXT NOT NULL,
    at        TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (match_id, seq)
);
