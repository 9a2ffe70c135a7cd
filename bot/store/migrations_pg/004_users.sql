-- Per-user preferences: direct-message reminders, and vacations.
CREATE TABLE user_settings (
    user_id   BIGINT PRIMARY KEY,
    settings  TEXT NOT NULL DEFAULT '{}'
);
