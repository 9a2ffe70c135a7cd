-- PostgreSQL twin of migrations/020_ask_replacement.sql: Braverse matches begun before a
-- side with no Cookie in hand was asked to re-place keep the old rule, in their options
-- and their state's. Text edits rather than jsonb (which reorders keys): the key goes last
-- in the options object (its deck lists hold no braces), where pydantic writes it, so the
-- saved text stays a model's own dump.
UPDATE matches
SET options = CASE WHEN options = '{}' THEN '{"ask_replacement":false}'
                   ELSE regexp_replace(options, '\}$', ',"ask_replacement":false}') END,
    state = regexp_replace(state, '("options":\{[^{}]*)\}', '\1,"ask_replacement":false}')
WHERE game = 'braverse' AND status <> 'lobby'
  AND options NOT LIKE '%"ask_replacement"%';
