-- Player ratings (issue 13): one per (server, game, user), and every change as a row.
-- μ and σ are REAL (IEEE doubles) so a rebuild reproduces them bit for bit; display is the
-- number people see, kept beside them so the leaderboard is one index scan. IF NOT EXISTS:
-- a database taken back to an older version (tests of 010 do) runs this again harmlessly.
CREATE TABLE IF NOT EXISTS ratings (
    guild_id  INTEGER NOT NULL,
    game      TEXT NOT NULL,
    user_id   INTEGER NOT NULL,
    mu        REAL NOT NULL,
    sigma     REAL NOT NULL,
    games     INTEGER NOT NULL,
    display   INTEGER NOT NULL,
    PRIMARY KEY (guild_id, game, user_id)
);
CREATE INDEX IF NOT EXISTS ratings_leaderboard ON ratings (guild_id, game, display DESC, user_id);

-- A rated match's change for one player. Its rows are the record of which matches were
-- rated (under the server's setting when each ended): ``ratings rebuild`` replays those.
CREATE TABLE IF NOT EXISTS rating_events (
    match_id      TEXT NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    user_id       INTEGER NOT NULL,
    guild_id      INTEGER NOT NULL,
    game          TEXT NOT NULL,
    at            REAL NOT NULL,     -- the match's finished_at
    place         INTEGER NOT NULL,  -- among the rated seats, ties share the best place
    players       INTEGER NOT NULL,  -- rated seats in the match
    mu_before     REAL NOT NULL,
    sigma_before  REAL NOT NULL,
    mu_after      REAL NOT NULL,
    sigma_after   REAL NOT NULL,
    games_after   INTEGER NOT NULL,
    display_after INTEGER NOT NULL,
    PRIMARY KEY (match_id, user_id)
);
CREATE INDEX IF NOT EXISTS rating_events_by_player ON rating_events (guild_id, game, user_id, at, match_id);
