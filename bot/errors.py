"""Failures a user can cause. Each message is one sentence saying what happened and what to do."""

from __future__ import annotations

from games.core.text import t, tn


class UserError(Exception):
    """Shown to the user who caused it, ephemerally; nothing was changed."""

    @property
    def text(self) -> str:
        # The sentence as a Text, rendered in the reader's language (str(exc) is English).
        return self.args[0] if self.args and isinstance(self.args[0], str) else str(self)


class MatchNotFound(UserError):
    def __init__(self) -> None:
        super().__init__(t("That match no longer exists. Start a new one with /play."))


class NotSeated(UserError):
    def __init__(self, *, lobby: bool = False) -> None:
        # A lobby has no Spectate button: what it offers is a seat.
        if lobby:
            super().__init__(t("You are not in this lobby. Press **Join** to take a seat."))
        else:
            super().__init__(t("You are not seated at this table. Use **Spectate** to watch it."))


class NotHost(UserError):
    """Only the host (or Manage Server) may do this; the sentence names what, whole."""


class NotManager(UserError):
    """A server's own things have no host: only Manage Server may change them."""


class LobbyFull(UserError):
    def __init__(self, most: int, *, for_bot: bool = False) -> None:
        # The host adding a bot has a table to start, not one to watch or leave for another.
        if for_bot:
            super().__init__(
                tn(
                    "This table is full ({n} seat). Press **Start** to play.",
                    "This table is full ({n} seats). Press **Start** to play.",
                    n=most,
                )
            )
        else:
            super().__init__(
                tn(
                    "This table is full ({n} seat). Watch, or open another with /play.",
                    "This table is full ({n} seats). Watch, or open another with /play.",
                    n=most,
                )
            )


class AlreadySeated(UserError):
    def __init__(self) -> None:
        super().__init__(t("You already have a seat at this table."))


class NotInLobby(UserError):
    def __init__(self) -> None:
        super().__init__(
            t(
                "This match has already started and its lobby is closed: watch it, or open "
                "another with /play."
            )
        )


class NotRunning(UserError):
    def __init__(self) -> None:
        super().__init__(t("This match is not running any more. Start a new one with /play."))


class ChannelTaken(UserError):
    def __init__(self, match_id: str) -> None:
        self.match_id = match_id
        super().__init__(
            t("This channel already has a game open. Join it, /cancel it, or use another channel.")
        )


class StaleClick(UserError):
    """The click was made on an older version of the table."""

    def __init__(self) -> None:
        super().__init__(
            t("This table moved on since that button was shown; here is the current one.")
        )


class UnknownGame(UserError):
    def __init__(self, key: str) -> None:
        super().__init__(t("There is no game called '{key}'. Pick one from the list.", key=key))


class Held(UserError):
    """Something the match belongs to holds its play (a paused tournament): no move now."""


class Busy(UserError):
    """The database was held by another writer; the move was not saved."""

    def __init__(self) -> None:
        super().__init__(t("The table is busy for a moment and nothing was changed. Click again."))
