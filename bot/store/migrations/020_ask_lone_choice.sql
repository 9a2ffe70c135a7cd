-- Braverse now asks a side whose hand leaves it one choice or none all the same (its lone
-- answer played for it after a pause): whether to re-place with no Cookie in hand, which
-- card to discard from a hand of one kind. Skipped, the game going straight on told the
-- table what that hand held. Matches begun before
-- keep the old rule, in their options and in their state's, so that their logs replay to
-- the state they saved. The key goes last, where pydantic writes it, so the saved text
-- stays a model's own dump. A lobby has no log and starts under today's rule.
UPDATE matches
SET options = json_set(options, '$.ask_lone_choice', json('false')),
    state = CASE WHEN state IS NULL THEN NULL
                 ELSE json_set(state, '$.options.ask_lone_choice', json('false')) END
WHERE game = 'braverse' AND status <> 'lobby'
  AND options NOT LIKE '%"ask_lone_choice"%';
