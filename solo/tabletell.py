"""What the person at a real table is told (the log lines everyone may read, what to do with the components)
and the rules' refusal of a card the table showed: the parts of :class:`wizprint.solo.table.TableGame` that say
things, kept apart so that the driver stays readable."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from wizprint.errors import IllegalActionError

from .kernel import Action, State, design_of, line_text, readable
from .kernel.stack import WATCH
from .kernel.state import ChanceNeeded
from .kernel.table import Place, TablePolicy, zone_of
from .tableparts import Ask, Table

GROUP_NAMED = 4  # cards moved together from one place to another beyond which they are said by their ids only


class Telling:
    """The driver's words (a part of :class:`wizprint.solo.table.TableGame`, which holds the state below)."""

    belief: State[Any]
    person: int
    policy: TablePolicy
    known: set[str]
    told: int
    copies: re.Pattern[str] | None
    public: tuple[int, list[str], Any]
    shown: dict[str, str] | None
    ruled: bool
    hid: set[str]
    was_known: set[str]
    known_before: set[str]

    def place(self, zone: str) -> Place:
        raise NotImplementedError

    def label(self, card: str) -> str:
        raise NotImplementedError

    # -- what the person is told --------------------------------------------------------------------------------
    def printed(self, text: str) -> str:
        """A line with each copy of a card named by its printed id (``D01#3`` is ``D01`` on the table)."""
        return text if self.copies is None else self.copies.sub(lambda m: design_of(m.group(0)), text)

    def public_log(self, state: State[Any] | None = None) -> list[str]:
        """The log lines every seat may read, of the belief (or of ``state``, a move being made on it); kept as they
        are read: a log only grows, but at an undo."""
        log = (self.belief if state is None else state).log
        n, lines, last = self.public
        if n > len(log) or (n and log[n - 1] is not last):
            n, lines = 0, []
        seats = range(self.belief.players)
        lines = lines + [line_text(e) for e in log[n:] if all(readable(e, s) for s in seats)]
        self.public = (len(log), lines, log[-1] if log else None)
        return lines

    def new_log(self) -> list[str]:
        """The log lines every seat may read, since the last told (a line only the person may read speaks of the
        belief's samples: the person holds the real cards)."""
        public = self.public_log()
        out = [self.printed(x) for x in public[self.told:]]
        self.told = len(public)
        return out

    def instructions(self, before: State[Any], by: int) -> list[str]:
        """What to do with the components after a move: each card that changed place, in words (the person moves
        every component on the table, whoever's move it is; since they were last told, in the middle of a move)."""
        start = self.shown if self.shown is not None else zone_of(before)
        words = self.moves_words(start, zone_of(self.belief), skip_own=by == self.person and not self.ruled)
        self.shown, self.ruled, self.known_before = None, False, set()
        return words

    def instructions_between(self, now: State[Any], then: State[Any]) -> list[str]:
        """What to move back on the table to return from ``now`` to ``then`` (an undo; in the middle of a move
        told in pieces, from where the person was last told the cards are)."""
        kept = self.was_known, self.hid
        self.was_known, self.hid = set(), set()  # (named by what the program knows now)
        try:
            return self.moves_words(self.shown if self.shown is not None else zone_of(now), zone_of(then),
                                    skip_own=False)
        finally:
            self.was_known, self.hid = kept

    def moves_words(self, before: dict[str, str], after: dict[str, str], skip_own: bool) -> list[str]:
        """Each card that changed zone (each card's zone before and after), in words, the cards that go together
        from one place to another on one line: by id and name where the program knows the card (or knew it when
        the move began, until it goes face down into a pile in it), else as a card."""
        groups: list[tuple[str, str, bool, list[str]]] = []
        for card, z1 in after.items():
            z0 = before.get(card, "")
            if z0 == z1:
                continue
            p0, p1 = self.place(z0), self.place(z1)
            knew = card in self.known or card in self.was_known or card in self.known_before
            named = (knew and card not in self.hid) or p0 == Place.PUBLIC
            if p1 == Place.HIDDEN:
                self.hid.add(card)
            if p0 == Place.KEPT and p1 == Place.KEPT:
                continue
            if skip_own and p0 != Place.KEPT and p1 == Place.PERSON:
                continue  # the person takes their own cards
            src, dst = self.policy.name(z0, self.person), self.policy.name(z1, self.person)
            if src == dst:
                continue  # two zones of the rules' that are one place on the table
            if groups and groups[-1][:3] == (src, dst, named):
                groups[-1][3].append(card)
            else:
                groups.append((src, dst, named, [card]))
        out = []
        for src, dst, named, cards in groups:
            if not named:
                what = "a card" if len(cards) == 1 else f"{len(cards)} cards"
                out.append(f"Take {what} from {src} to {dst}.")
            elif len(cards) > GROUP_NAMED:
                ids = ", ".join(sorted(design_of(c) for c in cards))
                out.append(f"Move these {len(cards)} cards from {src} to {dst}: {ids}.")
            else:
                labels = [self.label(c) for c in sorted(cards)]
                what = labels[0] if len(labels) == 1 else f"{', '.join(labels[:-1])} and {labels[-1]}"
                out.append(f"Move {what} from {src} to {dst}.")
        return out

    def tell_step(self, state: State[Any], by: int, first: bool, table: Table) -> None:
        """In the middle of a move, where nothing new has come to light: the log lines everyone may read since the
        person was last told, with what to do with the components (the move is then told in pieces). ``first``:
        before the first piece of the rules' work, where what moved is the move itself (the person's own cards,
        they move themselves); what moves after it, the rules move. Cards that go face down into a pile are told
        at once, said or not (what is drawn from it next is not those cards)."""
        public = [self.printed(x) for x in self.public_log(state)]
        now = zone_of(state)
        shown = self.shown or {}
        face_down = any(self.place(z) == Place.HIDDEN and shown.get(c, z) != z for c, z in now.items())
        if len(public) <= self.told and not first and not face_down:
            return
        lines = public[self.told:]
        self.told = len(public)
        if self.shown is not None:
            lines += self.moves_words(self.shown, now, skip_own=first and by == self.person)
        self.shown = now
        self.ruled = True
        if lines:
            table.tell(lines)

    def in_order(self, state: State[Any], cards: Sequence[str]) -> list[str]:
        """Cards in the order the game lists its zones (a wizard revealed before a relic), then in their zone's order
        (from the top, in a face-down pile)."""
        rank = {c: (i, -j if self.place(z) == Place.HIDDEN else j)
                for i, (z, cards_) in enumerate(state.zones().items()) for j, c in enumerate(cards_)}
        return sorted(cards, key=lambda c: rank.get(c, (len(rank), 0)))

    def refused(self, action: Action, ask: Ask) -> str:
        """Why the rules refuse ``action``, now that a card the table showed is in the belief (a card of another kind
        than the rules need where it lies, as the engine says it); "" when they do not."""
        trial = self.belief.clone()
        trial.script(dice=ask.dice, picks=ask.picks, strict=True)
        token = WATCH.set(None)  # (the whole move, not the pieces the move being made watches)
        try:
            trial.apply(action)
        except ChanceNeeded:
            pass
        except IllegalActionError as exc:
            return str(exc)
        finally:
            WATCH.reset(token)
        return ""

    def context(self, ask: Ask) -> str:
        """An automaton's move that brings cards to light, said before the question (the log says it after)."""
        if ask.by < 0 or ask.by == self.person or ask.steps >= 0 or self.ruled:
            return ""  # (a move told in pieces says itself as it goes)
        return f"P{ask.by + 1}: {self.belief.describe(ask.action)}. "

    def outcome_words(self) -> str:
        o = self.belief.outcome()
        if o is None:
            return ""
        mine = "You win" if o.winners == (self.person,) else ("A shared result" if self.person in o.winners
                                                             else "You lose")
        return f"Game over. {o.reason}. {mine}."


__all__ = ["GROUP_NAMED", "Telling"]
