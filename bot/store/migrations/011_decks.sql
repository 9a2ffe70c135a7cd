-- Players' saved lists (Braverse decks), per user and not per server: a deck follows its
-- owner everywhere. ``catalogue`` names the game whose cards the list holds; ``cards`` is
-- a JSON array of card numbers, one entry per copy. An illegal list is kept (a draft).
CREATE TABLE decks (
    user_id     INTEGER NOT NULL,
    name        TEXT NOT NULL,
    catalogue   TEXT NOT NULL,
    cards       TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL,
    PRIMARY KEY (user_id, name)
);
