"""Games of Wizards Cup saved by an earlier version of wizprint, mended on load (``WizardsCupState.upgrade``): the
fields the earlier version did not keep are rebuilt from the rest of the saved state.

- ``in_play`` (the wizards whose powers are in play, in the order they came in): the visible top of each discard pile,
  then the wizards in a Duel zone that have come into play (not still waiting in the round's queue), lower printed
  Value first: the order in which wizards placed together come into play.
- ``earlier`` (the cards of each set seen before each of its swaps) and ``known`` (seen since the last swap): the
  earlier version kept every card ever seen in ``known``; they are read again from the public log, split at each
  swap. A game without swaps keeps ``known`` as it was.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from wizprint.solo.kernel import line_text, readable

from .pending import Round

if TYPE_CHECKING:
    from .state import WizardsCupState


def rebuild_in_play(s: WizardsCupState) -> list[str]:
    queued = {c for item in s.stack if isinstance(item, Round) for c in item.queue}
    tops = [pile[-1] for pile in s.discards if pile]
    placed = sorted((z[0] for z in s.duel if z and z[0] not in queued and z[0] not in tops),
                    key=lambda c: (s.data.cards[c].value, c))
    return tops + placed


def sightings(s: WizardsCupState, x: int) -> list[list[str]]:
    """The cards of P(x+1)'s set the other seat saw face up, one list for each stretch between P(x+1)'s swaps, read
    from the log lines that seat may read (a wizard is named by its label, ``The Alchemist (water 5)``)."""
    by_label = {s.data.label(c): c for c in s.data.cards if s.data.owner(c) == x}
    if not by_label:
        return [[]]
    names = "|".join(re.escape(k) for k in sorted(by_label, key=len, reverse=True))
    seen = re.compile(rf"P{x + 1}(?:'s(?: Waiting card)? | discards their Waiting card, | discards the top card of "
                      rf"their Deck, )({names})")
    swap = f"P{x + 1} swaps a card of their Deck"
    out: list[set[str]] = [set()]
    for e in s.log:
        if not readable(e, 1 - x):
            continue
        text = line_text(e)
        if text.startswith(swap):
            out.append(set())
        out[-1].update(by_label[m.group(1)] for m in seen.finditer(text))
    return [sorted(o) for o in out]
