"""``python -m games``: play, replay and simulate the games in a terminal."""

import sys

from games.cli.main import main

sys.exit(main())
