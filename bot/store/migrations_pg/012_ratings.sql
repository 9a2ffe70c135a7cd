-- PostgreSQL twin of migrations/012_ratings.sql: one rating per (server, game, user), and
-- every change as a row. μ and σ are DOUBLE PRECISION (IEEE doubles, as SQLite's REAL) so a
-- rebuild reproduces them bit for bit.
CREATE TABLE ratings (
    guild_id  BIGINT NOT NULL,
    game      TEXT NOT NULL,
    user_id   BIGINT NOT NULL,
    mu        DOUBLE PRECISION NOT NULL,
    sigma     DOUBLE PRECISION NOT NULL,
    games     INTEGER NOT NULL,
    display   INTEGER NOT NULL,
    PRIMARY KEY (guild_id, game, user_id)
);
CREATE INDEX ratings_leaderboard ON ratings (guild_id, game, display DESC, user_id);

-- A rated match's change for one player: its rows are the record of which matches were rated.
CREATE TABLE rating_events (
    match_id      TEXT NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    user_id       BIGINT NOT NULL,
    guild_id      BIGINT NOT NULL,
    game          TEXT NOT NULL,
    at            DOUBLE PRECISION NOT NULL,  -- the match's finished_at
    place         INTEGER NOT NULL,
    players       INTEGER NOT NULL,
    mu_before     DOUBLE PRECISION NOT NULL,
    sigma_before  DOUBLE PRECISION NOT NULL,
    mu_after      DOUBLE PRECISION NOT NULL,
    sigma_after   DOUBLE PRECISION NOT NULL,
    games_after   INTEGER NOT NULL,
    display_after INTEGER NOT NULL,
    PRIMARY KEY (match_id, user_id)
);
CREATE INDEX rating_events_by_player ON rating_events (guild_id, game, user_id, at, match_id);
