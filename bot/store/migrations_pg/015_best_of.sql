-- PostgreSQL twin of migrations/015_best_of.sql: a best-of-three table's finished games
-- (JSON [{"match_id", "winner"}]) and each result's games won (JSON, seat order; NULL for
-- best of one) and drawn games, for GW% and OGW%.
ALTER TABLE event_tables ADD COLUMN games TEXT NOT NULL DEFAULT '[]';
ALTER TABLE results ADD COLUMN game_wins TEXT;
ALTER TABLE results ADD COLUMN game_draws INTEGER NOT NULL DEFAULT 0;
