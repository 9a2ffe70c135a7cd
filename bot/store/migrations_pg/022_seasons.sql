-- PostgreSQL twin of migrations/022_seasons.sql. Seasons (issue 40): a server's seasons of a game, a view over rating_events. A season's
-- row is also its stored timer: ``due_at`` is its end while it runs, stays set while its
-- end is still being announced (the final table, the role), and is NULL once that is done.
CREATE TABLE season_setups (
    guild_id     BIGINT NOT NULL,
    game         TEXT NOT NULL,
    length       TEXT NOT NULL,     -- "1 month", "4 weeks", "10 days"
    divisions    INTEGER NOT NULL,
    size         INTEGER NOT NULL,  -- places in each division; the lowest takes the rest
    role_id      BIGINT,           -- given to the top places of division 1, if named
    role_places  INTEGER NOT NULL,
    channel_id   BIGINT NOT NULL,  -- where the final tables are posted
    PRIMARY KEY (guild_id, game)
);

CREATE TABLE seasons (
    guild_id   BIGINT NOT NULL,
    game       TEXT NOT NULL,
    number     INTEGER NOT NULL,
    starts_at  DOUBLE PRECISION NOT NULL,
    ends_at    DOUBLE PRECISION NOT NULL,
    status     TEXT NOT NULL,       -- running, ended, stopped
    due_at     DOUBLE PRECISION,
    claimed_until DOUBLE PRECISION,  -- a process firing its end holds it until then
    final      TEXT,                -- JSON: the final tables, kept as they were posted
    holders    TEXT NOT NULL DEFAULT '[]',  -- JSON: who was given the role at its end
    PRIMARY KEY (guild_id, game, number)
);
CREATE INDEX seasons_by_due ON seasons (due_at) WHERE due_at IS NOT NULL;

-- Each player's division in a season, set when it began; a player without a row plays in
-- the lowest division (a newcomer).
CREATE TABLE season_members (
    guild_id  BIGINT NOT NULL,
    game      TEXT NOT NULL,
    number    INTEGER NOT NULL,
    user_id   BIGINT NOT NULL,
    division  INTEGER NOT NULL,
    PRIMARY KEY (guild_id, game, number, user_id)
);

-- A season's table reads one server's game over a span of time, from this index alone.
CREATE INDEX rating_events_by_time
    ON rating_events (guild_id, game, at, match_id, place, players, user_id);
