-- Cover Your Assets and Cover Your Cookies now ask a side with no answer to a challenge
-- (its lone answer, letting go, played for it after a pause): answered at once, the wait
-- told the table what it did not hold. Matches begun before keep the old rule, in their
-- options and in their state's, so that their logs replay to the state they saved. The
-- key goes last, where pydantic writes it, so the saved text stays a model's own dump.
-- A lobby has no log and starts under today's rule.
UPDATE matches
SET options = json_set(options, '$.ask_unanswerable', json('false')),
    state = CASE WHEN state IS NULL THEN NULL
                 ELSE json_set(state, '$.options.ask_unanswerable', json('false')) END
WHERE game IN ('cover_your_assets', 'cover_your_cookies') AND status <> 'lobby'
  AND options NOT LIKE '%"ask_unanswerable"%';
