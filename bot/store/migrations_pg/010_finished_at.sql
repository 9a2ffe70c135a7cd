-- PostgreSQL twin of migrations/010_finished_at.sql. When a match ended (finished or
-- cancelled), in seconds since the epoch like timers.due_at: /history pages finished matches
-- newest first by it. Matches that ended before this column existed take their last update.
ALTER TABLE matches ADD COLUMN finished_at DOUBLE PRECISION;
UPDATE matches SET finished_at = extract(epoch FROM updated_at)
    WHERE status IN ('finished', 'cancelled');
CREATE INDEX matches_history ON matches (guild_id, status, finished_at);
