"""Tournament formats and scoring, pure: plain values in and out, no asyncio, Discord or
store. The service records results and asks the event's format for standings and pairings.

- ``formats``: one class per format behind one protocol, and their registry ``FORMATS``;
- ``config``: the organiser's choices (``TournamentConfig``); ``progress``: what a format reads
  of an event, and the pairing it answers with;
- ``results``: a table's result, byes, missed rounds, who met whom;
- ``scoring``: 3/1/0 and pod place scores; ``tiebreakers`` and ``standings``;
- ``lots``: the seeded lot and seat shuffles; ``seeding``: bracket order and the snake;
- ``entries``: late entry with a loss per missed round;
- ``swiss`` (two players), ``pods`` (3–8 players), ``elimination``, ``round_robin``,
  ``top_cut``.
"""
