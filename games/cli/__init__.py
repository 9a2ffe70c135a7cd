"""The games without Discord: a terminal table, a replayer and a simulator (``python -m
games``). They need only the pure protocol and ``rich``; nothing here knows Discord."""
