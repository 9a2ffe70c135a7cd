-- How hard a bot plays (games/core/levels.py): each bot seat and each bot entrant of a
-- tournament keeps its level. Rows written before levels existed were normal bots.
-- People's seats carry the default and ignore it (a stand-in bot plays at normal).
ALTER TABLE seats ADD COLUMN level TEXT NOT NULL DEFAULT 'normal';
ALTER TABLE entrants ADD COLUMN level TEXT NOT NULL DEFAULT 'normal';
