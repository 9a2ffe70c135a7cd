"""Failures a user can cause. Each message is one sentence saying what happened and what to do."""

from __future__ import annotations

from games.core.text import Text, t


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
    """Only the host or Manage Server may: ``said`` is the whole sentence ("Only the host
    or someone with Manage Server can add bots.")."""

    def __init__(self, said: Text) -> None:
        super().__init__(said)


class NotManager(UserError):
    """A server's own things have no host: only Manage Server may change them."""

    def __init__(self, said: Text) -> None:
        super().__init__(said)


class LobbyFull(UserError):
    def __init__(self, most: int, *, for_bot: bool = False) -> None:
        # The host adding a bot has a table to start, not one to watch or leave for another.
        if for_bot:
            said = t("This table is full ({most} seats). Press **Start** to play.", most=most)
        else:
            said = t(
                "This table is full ({most} seats). Watch, or open another with /play.", most=most
            )
        super().__init__(said)


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
        super().__init__(t("There is no game called '{game}'. Pick one from the list.", game=key))


class Held(UserError):
    """Something the match belongs to holds its play (a paused tournament): no move now."""


class Busy(UserError):
    """The database was held by another writer; the move was not saved."""

    def __init__(self) -> None:
        super().__init__(t("The table is busy for a moment and nothing was changed. Click again."))
