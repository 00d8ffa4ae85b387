"""The checks of a loaded Covenant game (a saved game is untrusted input), beyond the kernel's: each noted in the
:class:`~wizprint.solo.kernel.Checks` with its JSON path.

- the cards in play are of the types their zones hold (wizards, stand-alone followers, resources, quests) and what
  is attached sits on a wizard in play and may be attached;
- what each seat has seen is a card of the game, in a hand that exists or at a place in the deck;
- the phase is ``over`` exactly when the game has a result; the seat to decide is the one the pending work (or,
  with none, the turn player) waits for;
- every pending item names seats that exist, cards of the game (or a seat, for a target), its windows' casters,
  and sits on the work it reports to (a roll on what it is rolled for, a negation window on what may be negated).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from wizprint.solo.kernel import Checks

from .data import ACTION_ABILITIES
from .effects import EFFECTS
from .pending import (
    BonusWindow,
    Choice,
    CovenantPending,
    Duel,
    Effects,
    Lookup,
    Negatable,
    Negation,
    Play,
    Quest,
    QuestStep,
    Roll,
    RollFor,
    Slaying,
    Theft,
    TrapsWindow,
    Window,
    WizardAction,
)
from .state import Phase

if TYPE_CHECKING:
    from .state import CovenantState

ZONE_TYPES = (("wizards", "wizard"), ("followers", "follower"), ("resources", "resource"), ("quests", "quest"))
ROLLED_FOR = {RollFor.ACTION: WizardAction, RollFor.CHALLENGER: Duel, RollFor.DEFENDER: Duel,
              RollFor.DANGER: Quest, RollFor.LEVEL: Quest}
PLAYED = ("spell", "event")
NEGATED = ("spell", "event", "action", "duel")


def check_state(s: CovenantState, chk: Checks) -> None:
    c = s.data.cards
    n = s.players
    chk.counts("state.skips", s.skips, 0, 100)
    chk.count("state.turn_number", s.turn_number, 0, 10_000)
    chk.count("state.table_seat", s.table_seat, -1, n - 1)
    for name, typ in ZONE_TYPES:
        for seat, xs in enumerate(getattr(s, name)):
            for i, x in enumerate(xs):
                info = c.get(x)
                if info is not None and (info.type != typ or (typ == "follower" and info.attach)):
                    chk.fail(f"state.{name}[{seat}][{i}]", f"{x} ({info.type}) cannot be there")
    in_play = {w for ws in s.wizards for w in ws}
    for w, xs in s.attached.items():
        chk.known(f"state.attached.{w[:40]}", w, in_play, "wizard in play")
        if not xs:
            chk.fail(f"state.attached.{w[:40]}", "an empty list of attached cards")
        for i, x in enumerate(xs):
            info = c.get(x)
            if info is not None and info.type != "item" and not (info.type == "follower" and info.attach):
                chk.fail(f"state.attached.{w[:40]}[{i}]", f"{x} ({info.type}) cannot be attached")
    for seat, seen in enumerate(s.seen):
        chk.keys_known(f"state.seen[{seat}]", seen, c)
        for x, z in seen.items():
            hi = n - 1 if z.place.value == "h" else len(s.deck) - 1
            if not 0 <= z.index <= hi:
                chk.fail(f"state.seen[{seat}].{x[:40]}", f"a place that does not exist ({z.code})")
    for name in ("acted", "duelled", "grants_used"):
        chk.all_known(f"state.{name}", getattr(s, name), c)
    chk.keys_known("state.granted", s.granted, c)
    if (s.phase is Phase.OVER) != (s.result is not None):
        chk.fail("state.phase", "the phase is 'over' exactly when the game has a result")
    chk.done()
    for j, f in enumerate(s.stack):
        _check_item(s, chk, f"state.stack[{j}]", f, s.stack[j - 1] if j else None)
    if s.result is None:
        waits = s.stack[-1].who if s.stack else s.turn_player
        if s.current_seat != waits:
            chk.fail("state.current_seat", f"seat {s.current_seat} is to decide, but the game waits for seat {waits}")


def _check_item(s: CovenantState, chk: Checks, at: str, f: CovenantPending, below: CovenantPending | None) -> None:
    """One pending item (``below``: the one beneath it on the stack)."""
    c = s.data.cards
    chk.seat(f"{at}.who", f.who, none=True)
    for name in ("seat", "owner", "rival"):
        if hasattr(f, name):
            chk.seat(f"{at}.{name}", getattr(f, name))
    for name in ("card", "challenger", "wizard"):
        if hasattr(f, name):
            chk.known(f"{at}.{name}", getattr(f, name), c, empty=isinstance(f, Choice))
    for name in ("defender", "answered", "last_joined"):
        if hasattr(f, name):
            chk.known(f"{at}.{name}", getattr(f, name), c, empty=True)
    if isinstance(f, Window):
        chk.seats(f"{at}.order", f.order)
        chk.count(f"{at}.index", f.index, 0, len(f.order))
    if isinstance(f, Negation):
        chk.known(f"{at}.source", f.source, c)
        chk.known(f"{at}.what", f.what, NEGATED, "kind of play")
        if below is not None and not isinstance(below, Negatable):
            chk.fail(at, f"a negation window on {below.label!r}, which cannot be negated")
    elif isinstance(f, Roll):
        chk.count(f"{at}.dice", f.dice, 1, 10)
        chk.count(f"{at}.total", f.total, 0, 60)
        if not isinstance(below, ROLLED_FOR[f.slot]):
            chk.fail(at, f"a roll for {f.slot} on {below.label if below else 'nothing'!r}")
    elif isinstance(f, Play):
        chk.known(f"{at}.what", f.what, PLAYED, "kind of play")
        _target(s, chk, f"{at}.target", f.target)
    elif isinstance(f, Effects):
        chk.count(f"{at}.index", f.index, 0, 100)
        _target(s, chk, f"{at}.target", f.target)
    elif isinstance(f, (Slaying, Theft)):
        chk.known(f"{at}.target", f.target, c)
    elif isinstance(f, BonusWindow):
        chk.seats(f"{at}.casters", f.casters)
        if not f.casters:
            chk.fail(f"{at}.casters", "nobody to ask")
        chk.count(f"{at}.index", f.index, 0, max(0, len(f.casters) - 1))
        chk.count(f"{at}.passes", f.passes, 0, len(f.casters))
        chk.known(f"{at}.context", f.context, ("duel", "quest"), "context")
    elif isinstance(f, WizardAction):
        chk.known(f"{at}.ability", f.ability, ACTION_ABILITIES, "wizard action")
        if f.target != "deck":
            _target(s, chk, f"{at}.target", f.target, cards=False)
        chk.count(f"{at}.roll", f.roll, 0, 6)
    elif isinstance(f, Duel):
        for name in ("challenger_roll", "defender_roll", "challenger_total", "defender_total"):
            chk.count(f"{at}.{name}", getattr(f, name), 0, 1000)
    elif isinstance(f, Quest):
        chk.all_known(f"{at}.participants", f.participants, c, distinct=True)
        chk.all_known(f"{at}.spared", f.spared, c)
        chk.count(f"{at}.round", f.round, 0, 2)
        chk.count(f"{at}.losses", f.losses, 0, 100)
        if f.step <= QuestStep.COMPLETE and f.card not in s.limbo:
            chk.fail(f"{at}.card", f"the quest {f.card[:40]} is not being played")
    elif isinstance(f, Choice):
        chk.known(f"{at}.effect.word", f.effect.word, EFFECTS.handlers, "effect word")
        for i, x in enumerate(f.options):
            _target(s, chk, f"{at}.options[{i}]", x)
    elif isinstance(f, Lookup):
        chk.known(f"{at}.effect.word", f.effect.word, ("search",), "effect word")
        if f.who != s.table_seat or f.seat == s.table_seat:
            chk.fail(at, "a search laid out on the table is made for a seat the program plays, by the table's seat")
        chk.all_known(f"{at}.found", f.found, c, distinct=True)
        for x in f.found:
            if x not in s.limbo:
                chk.fail(f"{at}.found", f"{x[:40]} is not laid out")
    if isinstance(f, TrapsWindow) and below is not None and not isinstance(below, Quest):
        chk.fail(at, "a Tricks & Traps window without a quest")


def _target(s: CovenantState, chk: Checks, at: str, t: str, cards: bool = True) -> None:
    """A target: none, a card of the game, or a seat (written as its number)."""
    if t == "" or (cards and t in s.data.cards):
        return
    if t.isascii() and t.isdigit() and len(t) < 3:
        chk.seat(at, int(t))
        return
    chk.fail(at, f"no card or seat {t[:40]!r}")
