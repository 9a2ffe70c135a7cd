-- Matches, their seats and their action logs. A match is a lobby until it starts.
CREATE TABLE guild_settings (
    guild_id   INTEGER PRIMARY KEY,
    settings   TEXT NOT NULL DEFAULT '{}'
);

CREATE TABLE matches (
    id          TEXT PRIMARY KEY,
    guild_id    INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,
    message_id  INTEGER,
    game        TEXT NOT NULL,
    status      TEXT NOT NULL CHECK (status IN ('lobby', 'active', 'finished', 'cancelled')),
    host_id     INTEGER NOT NULL,
    options     TEXT NOT NULL,
    seed        INTEGER,
    version     INTEGER NOT NULL DEFAULT 0,
    state       TEXT,
    rematch_of  TEXT,
    last_seat   INTEGER,          -- the latest action, copied into the log by a trigger
    last_action TEXT,
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL
);

-- One open match (lobby or running) per channel or thread.
CREATE UNIQUE INDEX matches_one_open_per_channel
    ON matches (channel_id) WHERE status IN ('lobby', 'active');
CREATE INDEX matches_by_guild ON matches (guild_id, status);

CREATE TABLE seats (
    match_id  TEXT NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    seat      INTEGER NOT NULL,
    user_id   INTEGER,            -- NULL for a bot seat
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
    at        TEXT NOT NULL,
    PRIMARY KEY (match_id, seq)
);

-- Saving a move is one UPDATE of the snapshot guarded by the version; this trigger appends
-- the action to the log inside that same statement. A statement is atomic, so the snapshot
-- and its log row are written together or not at all, in one round trip to the database.
CREATE TRIGGER matches_log_action AFTER UPDATE OF version ON matches
WHEN NEW.version = OLD.version + 1 AND NEW.last_action IS NOT NULL
BEGIN
    INSERT INTO actions (match_id, seq, seat, action, at)
    VALUES (NEW.id, OLD.version, NEW.last_seat, NEW.last_action, NEW.updated_at);
END;
