-- Cover Your Assets now offers one Move for a stack of two sets (its top set to the bottom
-- and its bottom set to the top leave the same stack): a Move turned up on a draft pile
-- asked its decider to choose between the two. Matches begun before keep the old rule, in
-- their options and in their state's, so that their logs replay to the state they saved.
-- The key goes last, where pydantic writes it, so the saved text stays a model's own dump.
-- A lobby has no log and starts under today's rule.
UPDATE matches
SET options = json_set(options, '$.one_move_for_two_sets', json('false')),
    state = CASE WHEN state IS NULL THEN NULL
                 ELSE json_set(state, '$.options.one_move_for_two_sets', json('false')) END
WHERE game = 'cover_your_assets' AND status <> 'lobby'
  AND options NOT LIKE '%"one_move_for_two_sets"%';
