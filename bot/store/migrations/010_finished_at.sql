-- When a match ended (finished or cancelled), in seconds since the epoch like timers.due_at:
-- /history pages finished matches newest first by it, and tournaments read it. Matches that
-- ended before this column existed take their last update, which was their ending.
ALTER TABLE matches ADD COLUMN finished_at REAL;
UPDATE matches SET finished_at = (julianday(updated_at) - 2440587.5) * 86400.0
    WHERE status IN ('finished', 'cancelled');
CREATE INDEX matches_history ON matches (guild_id, status, finished_at);
