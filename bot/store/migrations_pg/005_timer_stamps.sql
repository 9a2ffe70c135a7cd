-- A timer names the decision it was set for (its stamp), not just the state version: with
-- simultaneous choices the version moves on every answer while the other seats' decisions,
-- and their clocks, still stand.
ALTER TABLE timers ADD COLUMN stamp TEXT NOT NULL DEFAULT '';
