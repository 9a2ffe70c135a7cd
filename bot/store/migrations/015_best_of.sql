-- Best-of-three tables (issue 13). Such a table plays up to three games, each an ordinary
-- match in the table's thread: ``match_id`` is the game being played and ``games`` the
-- finished ones, JSON [{"match_id": ..., "winner": entrant, or null for a drawn game}], so
-- the score survives a restart. A table's result keeps each seat's games won (JSON list in
-- seat order; NULL for a best-of-one table) and the drawn games: GW% and OGW% read them.
ALTER TABLE event_tables ADD COLUMN games TEXT NOT NULL DEFAULT '[]';
ALTER TABLE results ADD COLUMN game_wins TEXT;
ALTER TABLE results ADD COLUMN game_draws INTEGER NOT NULL DEFAULT 0;
