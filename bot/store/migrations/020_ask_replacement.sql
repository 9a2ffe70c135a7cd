-- Braverse now asks a side whose Cookie fainted or left whether to place another even with
-- no Cookie in hand (its lone "Place no more" played for it after a pause): skipped, the
-- game going straight on told the table that hand held no Cookie. Matches begun before
-- keep the old rule, in their options and in their state's, so that their logs replay to
-- the state they saved. The key goes last, where pydantic writes it, so the saved text
-- stays a model's own dump. A lobby has no log and starts under today's rule.
UPDATE matches
SET options = json_set(options, '$.ask_replacement', json('false')),
    state = CASE WHEN state IS NULL THEN NULL
                 ELSE json_set(state, '$.options.ask_replacement', json('false')) END
WHERE game = 'braverse' AND status <> 'lobby'
  AND options NOT LIKE '%"ask_replacement"%';
