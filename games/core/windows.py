"""Reaction windows that go round the table (Cookie Chomper's modifier round, a trap
window in Braverse): from an opener, each seat in turn may act or pass; a seat that acts
keeps the window and may act again; the window closes when every seat in it has passed
in a row."""

from __future__ import annotations

from pydantic import BaseModel, Field


class RoundTable(BaseModel):
    seats: list[int] = Field(min_length=1)  # in order, the opener first
    at: int = 0
    passes: int = 0  # passes in a row

    @classmethod
    def opened_by(cls, opener: int, seats_in: list[int]) -> RoundTable:
        start = seats_in.index(opener)
        return cls(seats=seats_in[start:] + seats_in[:start])

    @property
    def current(self) -> int:
        return self.seats[self.at]

    @property
    def closed(self) -> bool:
        return self.passes >= len(self.seats)

    def acted(self) -> None:
        """The current seat acted: nobody has passed since, and it may act again."""
        self.passes = 0

    def passed(self) -> None:
        self.passes += 1
        self.at = (self.at + 1) % len(self.seats)

    def hand_to(self, seat: int) -> None:
        """Control returns to ``seat`` (it must act now, e.g. a card to replace)."""
        self.at = self.seats.index(seat)
        self.passes = 0

    def without(self, seat: int) -> None:
        """A seat leaves the game: the window goes on without it."""
        if seat not in self.seats or len(self.seats) == 1:
            return
        index = self.seats.index(seat)
        self.seats.remove(seat)
        if index < self.at:
            self.at -= 1
        self.at %= len(self.seats)
