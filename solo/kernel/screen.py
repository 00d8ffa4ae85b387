"""What ``solo play`` shows a player, as values a game declares: a one-line header and named panels.

At each decision the player sees the header (where the game is and how it is won), every log line since their
previous decision, the decision and its options; the rest of the table is one command away. Each :class:`Panel`
is such a command (``status``, ``hand``, ``board``...). A panel with a ``key`` is shown again by itself when its key
changes (a new hand, a new space): the key names what matters in it, so a panel is not reprinted for a change
that does not.

A pair of choices (a wizard and the relic played with it) can be asked in two steps with :class:`TwoStep`: first the
group (the wizard), then the action within it (the relic).
"""

from __future__ import annotations

from dataclasses import dataclass

from .values import Action


@dataclass(frozen=True)
class Panel:
    """A part of the table a player asks for by name at the prompt.

    - ``name``: the command word (``status``, ``hand``, ``board``, ``sheet``...);
    - ``title``: what it shows, in a few words, for ``help``;
    - ``lines``: its lines (rich markup, every data text escaped);
    - ``key``: what matters in it: when the key changes, the panel is shown at the next decision by itself (when
      it fits on the screen; otherwise the player is told it changed). None: shown only when asked for.
    """

    name: str
    title: str
    lines: tuple[str, ...]
    key: str | None = None


@dataclass(frozen=True)
class Screen:
    """The screen of a seat: ``header`` is one short line of plain text (where the game is, the seat, how the game
    is won); ``panels`` the commands that show the rest, in the order ``help`` lists them."""

    header: str
    panels: tuple[Panel, ...]

    def panel(self, name: str) -> Panel | None:
        for p in self.panels:
            if p.name == name:
                return p
        return None


@dataclass(frozen=True)
class Group:
    """One option of the first step of a :class:`TwoStep`: its text, the question of the second step, and the
    actions of the group with their texts."""

    label: str
    question: str
    options: tuple[tuple[Action, str], ...]


@dataclass(frozen=True)
class TwoStep:
    """A decision asked in two steps: ``question`` and its ``groups`` first, then the chosen group's actions."""

    question: str
    groups: tuple[Group, ...]
