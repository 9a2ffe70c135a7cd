-- PostgreSQL twin of migrations/011_decks.sql: players' saved lists (Braverse decks), per
-- user and not per server. ``cards`` is a JSON array of card numbers, one entry per copy.
CREATE TABLE decks (
    user_id     BIGINT NOT NULL,
    name        TEXT NOT NULL,
    catalogue   TEXT NOT NULL,
    cards       TEXT NOT NULL,
    created_at  TIMESTAMPTZ NOT NULL,
    updated_at  TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (user_id, name)
);
