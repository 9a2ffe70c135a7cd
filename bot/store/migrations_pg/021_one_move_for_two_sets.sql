-- PostgreSQL twin of migrations/021_one_move_for_two_sets.sql: Cover Your Assets matches
-- begun before a stack of two sets had one Move keep the old rule, in their options and
-- their state's. Text edits rather than jsonb (which reorders keys): the key goes last in
-- the flat options object, where pydantic writes it, so the saved text stays a model's own
-- dump.
UPDATE matches
SET options = CASE WHEN options = '{}' THEN '{"one_move_for_two_sets":false}'
                   ELSE regexp_replace(options, '\}$', ',"one_move_for_two_sets":false}') END,
    state = regexp_replace(state, '("options":\{[^{}]*)\}', '\1,"one_move_for_two_sets":false}')
WHERE game = 'cover_your_assets' AND status <> 'lobby'
  AND options NOT LIKE '%"one_move_for_two_sets"%';
