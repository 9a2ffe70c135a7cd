-- PostgreSQL twin of migrations/019_ask_unanswerable.sql: Cover matches begun before a
-- side with no answer was asked keep the old rule, in their options and their state's.
-- Text edits rather than jsonb (which reorders keys): the key goes last in the flat options
-- object, where pydantic writes it, so the saved text stays a model's own dump.
UPDATE matches
SET options = CASE WHEN options = '{}' THEN '{"ask_unanswerable":false}'
                   ELSE regexp_replace(options, '\}$', ',"ask_unanswerable":false}') END,
    state = regexp_replace(state, '("options":\{[^{}]*)\}', '\1,"ask_unanswerable":false}')
WHERE game IN ('cover_your_assets', 'cover_your_cookies') AND status <> 'lobby'
  AND options NOT LIKE '%"ask_unanswerable"%';
