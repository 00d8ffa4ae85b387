"""Simultaneous secret choices (Relic's characters, Wizards & Relics' plays, Wizards Cup's plans): each seat
commits in turn; until all have committed, the others see only *that* a seat has committed, never the choice."""

from __future__ import annotations

from dataclasses import field

from wizprint.errors import IllegalActionError

from .fields import Declared, declare


@declare
class Commitments(Declared):
    """The seats that must commit, in order, and what each chose (a choice is a short text, e.g. a card id)."""

    order: list[int] = field(default_factory=list)
    chosen: dict[int, str] = field(default_factory=dict)

    @property
    def waiting(self) -> int:
        """The next seat to commit, or -1 when all have."""
        for s in self.order:
            if s not in self.chosen:
                return s
        return -1

    def commit(self, seat: int, choice: str) -> None:
        if seat != self.waiting:
            raise IllegalActionError(f"seat {seat} cannot commit now (waiting for seat {self.waiting})")
        self.chosen[seat] = choice

    @property
    def complete(self) -> bool:
        return all(s in self.chosen for s in self.order)

    def view(self, seat: int) -> dict[str, str | None]:
        """What ``seat`` sees: its own choice, and only whether each other seat has committed."""
        done = self.complete
        return {str(s): (self.chosen.get(s) if s == seat or done else ("committed" if s in self.chosen else None))
                for s in self.order}
