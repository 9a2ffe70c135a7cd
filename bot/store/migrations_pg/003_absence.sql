-- Absent players: a bot may stand in for a seat (away = 1) until its player is back, or
-- take it for good after a forfeit or /leave (away = 2). ``missed`` counts timeouts in a row.
ALTER TABLE seats ADD COLUMN away INTEGER NOT NULL DEFAULT 0;
ALTER TABLE seats ADD COLUMN missed INTEGER NOT NULL DEFAULT 0;
