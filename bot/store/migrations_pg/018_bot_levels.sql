-- PostgreSQL twin of migrations/018_bot_levels.sql: each bot seat and each bot entrant of a
-- tournament keeps its level; rows written before levels existed were normal bots.
ALTER TABLE seats ADD COLUMN level TEXT NOT NULL DEFAULT 'normal';
ALTER TABLE entrants ADD COLUMN level TEXT NOT NULL DEFAULT 'normal';
