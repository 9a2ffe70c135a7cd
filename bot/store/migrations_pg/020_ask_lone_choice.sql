-- PostgreSQL twin of migrations/020_ask_lone_choice.sql: Braverse matches begun before a
-- hand leaving one choice or none was asked all the same keep the old rule, in their
-- options and their state's. Text edits rather than jsonb (which reorders keys): the key goes last
-- in the options object (its deck lists hold no braces), where pydantic writes it, so the
-- saved text stays a model's own dump.
UPDATE matches
SET options = CASE WHEN options = '{}' THEN '{"ask_lone_choice":false}'
                   ELSE regexp_replace(options, '\}$', ',"ask_lone_choice":false}') END,
    state = regexp_replace(state, '("options":\{[^{}]*)\}', '\1,"ask_lone_choice":false}')
WHERE game = 'braverse' AND status <> 'lobby'
  AND options NOT LIKE '%"ask_lone_choice"%';
