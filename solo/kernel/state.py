"""The state of a game, after OpenSpiel's Python game API.

A :class:`State` holds a whole game: whose decision it is (``current_player``), the ``legal_actions()``,
``apply(action)``, ``is_terminal()``, ``outcome()`` and ``returns()``, what one seat may see
(``observation(seat)``), ``clone()`` and a JSON round trip (both derived from the declared fields), and
``determinize(seat, rng)`` for search. One seeded :class:`~wizprint.solo.kernel.rng.Rng` inside the state makes
every chance event (shuffles, dice, random choices); a scenario may script the dice and the random choices instead
(:class:`~wizprint.solo.kernel.values.Chance`). Illegal actions raise
:class:`~wizprint.errors.IllegalActionError` and change nothing; a game that runs past its step cap raises
:class:`~wizprint.errors.StepCapError`.

Card instances are named by design id, with ``#n`` for the n-th copy of a design with copies (``D01#3``); logs,
actions and scenario files use these names. Fields that hold cards are declared with :func:`zone`, so the kernel
knows every zone: it checks that each card is in exactly one, lists them (``zones()``) and lets a scenario
arrange a pile (``arrange``).
"""

from __future__ import annotations

import dataclasses
import typing
from abc import ABC, abstractmethod
from collections.abc import Collection, Iterable, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import field
from itertools import islice
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Self, TypeVar

from wizprint.errors import EngineError, IllegalActionError, SaveError, StepCapError, quote

from .checks import Checks, reason
from .fields import Declared, declare, shared, transient
from .rng import Rng
from .values import (
    Action,
    Chance,
    LogEntry,
    LogLine,
    Outcome,
    Stats,
    Termination,
    design_of,
    line_seats,
    line_text,
    loading_endings,
    readable,
)

if TYPE_CHECKING:
    from wizprint.cards.model import Game

    from .screen import TwoStep

ZONE = "wizprint.zone"
SLOTS = "wizprint.slots"
MAX_PLAYERS = 16

class ChanceNeeded(EngineError):
    """A die or a random choice that strict chance does not script: a scenario's mistake, or in table mode the
    question to put to the person (roll a die with ``sides``, or pick one of ``options`` at random)."""

    def __init__(self, message: str, sides: int = 0, options: tuple[str, ...] = (), what: str = ""):
        super().__init__(message)
        self.sides, self.options, self.what = sides, options, what


# the statistics a new state records from its first card on (solo checks: opening hands count as drawn); only a
# state made by its constructor while this is set gets it, never a clone
RECORDING: ContextVar[Stats | None] = ContextVar("wizprint_recording", default=None)


class RulesData(ABC):
    """A game's card data compiled for its engine from the loaded game folder (built once, shared by every state
    of that game)."""

    id: str  # the game id
    name: str

    def __init__(self, game: Game) -> None:
        self.game = game  # the loaded game folder the data was compiled from
        self.id = game.id
        self.name = game.name

    @property
    @abstractmethod
    def instances(self) -> Collection[str]:
        """Every card instance of the game (``D01#3`` for copies)."""


D = TypeVar("D", bound=RulesData)


def zone(name: str, *, slots: bool = False) -> Any:
    """Declare a field that holds cards: a list (one zone ``name``), a list of lists (one zone per seat,
    ``name.0``...), or with ``slots=True`` a list of single cards per seat where ``""`` is an empty slot."""
    return field(default_factory=list, metadata={ZONE: name, SLOTS: slots})


def zone_map(name: str) -> Any:
    """Declare a dict field of card lists: one zone ``name.KEY`` per key."""
    return field(default_factory=dict, metadata={ZONE: name, SLOTS: False})


@declare
class State(Declared, ABC, Generic[D]):
    """Base class of every game's state; a game declares its own fields in a subclass (see ``fields.py``)."""

    data: D = shared()  # the compiled card data
    step_cap: int = shared(10_000)  # from the game's [engine] table
    players: int = 2
    variant: str = ""
    rng: Rng = field(default_factory=Rng)
    steps: int = 0
    log: list[LogLine] = field(default_factory=list)  # a line everybody may read is kept as its text
    chance: Chance = field(default_factory=Chance)
    result: Outcome | None = None
    stats: Stats | None = transient()
    _legal: list[Action] | None = transient()
    # the legal actions a game found while working out who decides next (``apply`` makes them the cache): a game
    # that lists them anyway to see whether a decision is needed sets this as its ``_apply`` ends, and only then
    next_legal: list[Action] | None = transient()
    # determinize's log lines by seat, kept while the log only grows: seat -> (the log, lines read, lines kept)
    _seen: dict[int, tuple[list[LogLine], int, list[LogLine]]] | None = transient()

    # checked when a saved game is loaded: int fields (or lists of ints) that name seats (-1, no seat, only once the
    # game is over), list fields with one entry per seat, and the sides of the dice a scenario may script
    RETIRED: ClassVar[tuple[str, ...]] = ()  # keys of earlier versions' saves, handed to ``upgrade``, not loaded
    SEATS_IN_RANGE: ClassVar[tuple[str, ...]] = ()
    PER_SEAT: ClassVar[tuple[str, ...]] = ()
    DIE_SIDES: ClassVar[int] = 6
    # how a game of this kind can end: the game's declared endings (a saved outcome's termination is one of them)
    ENDINGS: ClassVar[type[Termination] | None] = None

    def __post_init__(self) -> None:
        self.stats = RECORDING.get()

    # -- the API ----------------------------------------------------------------------------------------------
    @property
    @abstractmethod
    def current_player(self) -> int:
        """The seat to decide next, or -1 when the game is over."""

    def legal_actions(self) -> list[Action]:
        """The actions the current player may take (cached until the next ``apply``; a game that listed them while
        working out who decides next hands them over in ``next_legal``)."""
        if self._legal is None:
            self._legal = [] if self.result is not None else self._legal_actions()
        return self._legal

    def apply(self, action: Action) -> None:
        """Take an action for the current player; an action that is not legal raises and changes nothing."""
        if self.result is not None:
            raise IllegalActionError(f"the game is over; {action.key!r} cannot be played")
        legal = self._legal
        if legal is None:
            legal = self.legal_actions()
        if action not in legal:
            shown = ", ".join(a.key for a in legal[:12]) + (" ..." if len(legal) > 12 else "")
            raise IllegalActionError(f"{quote(action.key)} is not legal now for seat {self.current_player} "
                                     f"(legal: {shown})")
        self.steps += 1
        if self.steps > self.step_cap:
            raise StepCapError(f"{self.data.id}: the game passed its step cap of {self.step_cap} steps")
        self._legal = self.next_legal = None
        self._apply(action)
        self._legal, self.next_legal = self.next_legal, None

    def apply_key(self, key: str) -> Action:
        """Apply the legal action whose key is ``key`` (scenario files, the terminal)."""
        for a in self.legal_actions():
            if a.key == key:
                self.apply(a)
                return a
        raise IllegalActionError(f"{quote(key)} is not a legal action now (legal: "
                                 f"{', '.join(a.key for a in self.legal_actions()[:12])})")

    @abstractmethod
    def _legal_actions(self) -> list[Action]:
        """The legal actions of a live state (the base class caches them)."""

    @abstractmethod
    def _apply(self, action: Action) -> None:
        """Carry out a legal action (the base class has checked it)."""

    def is_terminal(self) -> bool:
        return self.result is not None

    def outcome(self) -> Outcome | None:
        """The result once the game is over, else None."""
        return self.result

    def returns(self) -> list[float]:
        return self.result.returns(self.players) if self.result else [0.0] * self.players

    @abstractmethod
    def observation(self, seat: int) -> Mapping[str, object]:
        """Everything seat ``seat`` may see, as JSON-able data of the game's declared observation type (a
        ``TypedDict`` its view reads); never another seat's hidden cards."""

    def describe(self, action: Action) -> str:
        """What an action does, in words, for the player choosing it: the names and ids of the cards it names and,
        for a card, its rules text on one line (``look`` gives the whole)."""
        return action.key

    def question(self) -> str:
        """The decision the current player faces, in words: the heading of the prompt (what is being decided and
        why: "Battle against the Ork Boyz (Strength 9): prepare, or go on to the rolls")."""
        return "Choose"

    def must_ask(self) -> bool:
        """Whether the rules require the current player to be asked even when only one action is legal (a person
        at the terminal is otherwise not asked: the one action is taken for them, and the screen says so)."""
        return False

    def two_step(self, legal: list[Action]) -> TwoStep | None:
        """The current decision asked in two steps (a wizard, then the relic played with it), or None to list the
        legal actions as they are. Only the terminal asks this; agents choose among ``legal`` as always."""
        return None

    def probe(self) -> dict[str, object]:
        """Named values for scenario expectations (``hand.0``, ``damage.1``...); a game adds its own to these
        (``winners``, ``reason`` and ``termination``, the key of the ending, once the game is over)."""
        if self.result is None:
            return {}
        t = self.result.termination
        return {"winners": list(self.result.winners), "reason": self.result.reason,
                "termination": t.key if t is not None else None}

    def turns_played(self) -> int:
        """The turns played so far (one player's turn each); solo checks report game length in them."""
        return self.steps

    def setting(self) -> str | None:
        """What this game is played on, where that varies (Relic: the scenario); None otherwise."""
        return None

    def opening_seat(self) -> int | None:
        """The seat that moves first, asked of a new state (solo checks report its advantage); None where no seat
        moves first (simultaneous play) or it is not known yet."""
        return None

    def starting_choice(self, seat: int) -> str | None:
        """What ``seat`` started the game with, where players choose or are dealt one (Relic: the character);
        asked when the game is over, for the check's win rate by starting choice. None where the game has none."""
        return None

    def is_starting_choice(self) -> bool:
        """Whether the current decision is a starting choice (a character, a deck, a draft), which
        ``solo check --assign random`` makes at random instead of by the seat's bot."""
        return False

    # -- JSON -------------------------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {"game": self.data.id, **super().to_json()}

    @classmethod
    def from_json(cls, data: Mapping[str, Any], rules: D, step_cap: int) -> Self:
        """A state from its JSON: every value checked against the declaration, then the rules' invariants (each
        card in exactly one zone, seats in range: :meth:`check_loaded`)."""
        if not isinstance(data, Mapping):
            raise SaveError([f"state: expected an object, got {quote(data, 40)}"])
        if data.get("game") != rules.id:
            raise SaveError([f"state.game: this is not a saved game of {rules.id} (it says "
                             f"{quote(data.get('game'), 40)})"])
        body = {k: v for k, v in data.items() if k != "game" and k not in cls.RETIRED}
        with loading_endings(cls.ENDINGS):
            s = cls.load_json(body, "state", data=rules, step_cap=step_cap)
        retired = {k: data[k] for k in cls.RETIRED if k in data}
        if s.missing or retired:
            s.upgrade(retired)
        s.check_loaded()
        return s

    def upgrade(self, retired: Mapping[str, Any]) -> None:
        """Mend a state saved by an earlier version of the game: the fields it lacked (``self.missing``, declared
        with ``added``) are at their defaults, and ``retired`` holds the saved values of fields the game no longer
        has (``RETIRED``: untrusted, to be checked). A game whose defaults are not right for an old save rebuilds
        the fields here; the loaded state is then checked as any other."""

    def check_loaded(self) -> None:
        """The invariants a loaded state must meet before play resumes (raises :class:`SaveError` naming each
        problem's JSON path): the kernel's (players, steps, seats, per-seat lists, the log, the result, scripted
        chance), then the game's own (:meth:`check_rules`), then every card in exactly one zone."""
        chk = Checks(self.players)
        if not 1 <= self.players <= MAX_PLAYERS:
            chk.fail("state.players", f"{self.players} is not a number of players")
            chk.done()
        chk.count("state.steps", self.steps, 0, self.step_cap)
        for name in self.PER_SEAT:
            chk.per_seat(f"state.{name}", getattr(self, name))
        over = self.result is not None
        for name in self.SEATS_IN_RANGE:
            v = getattr(self, name)
            if isinstance(v, list):
                chk.seats(f"state.{name}", v)
            else:
                chk.seat(f"state.{name}", v, none=over)
        for i, e in enumerate(self.log):
            seats = line_seats(e)
            if seats is not None and any(not 0 <= x < self.players for x in seats):
                chk.fail(f"state.log[{i}].seats", "a line is addressed to a seat that does not exist")
                break
        if self.result is not None:
            chk.seats("state.result.winners", self.result.winners, distinct=True)
            if len(self.result.scores) > self.players:
                chk.fail("state.result.scores", "more scores than seats")
            t = self.result.termination
            k = t.words.count("{}") if t is not None else 0
            if t is not None and len(self.result.numbers) != k:
                chk.fail("state.result.numbers", f"the ending {t.key!r} takes {k} number{'s' if k != 1 else ''}, "
                                                 f"not {len(self.result.numbers)}")
        chk.counts("state.chance.dice", self.chance.dice, 1, self.DIE_SIDES)
        chk.done()
        try:
            self.check_rules(chk)
        except SaveError:
            raise
        except Exception as exc:  # a check that met a state too odd to ask about: refused all the same
            chk.fail("state", f"the saved position is not consistent ({reason(exc)})")
        chk.done()
        try:
            self.check_zones()
        except EngineError as exc:
            raise SaveError([f"state: {exc}"]) from None

    def check_rules(self, chk: Checks) -> None:
        """The game's own invariants of a loaded state, noted in ``chk`` (the kernel's hold already: every value
        has its declared type, the ``PER_SEAT`` fields one entry per seat, the ``SEATS_IN_RANGE`` seats exist).
        A game overrides this; call ``chk.done()`` before a check that relies on an earlier one."""

    # -- zones ----------------------------------------------------------------------------------------------
    @classmethod
    def zone_shapes(cls) -> list[tuple[str, str, str]]:
        """The declared zones: (field, zone name, shape), the shape being ``pile`` (a list), ``seats`` (a list
        per seat), ``slots`` (one card or ``""`` per seat) or ``map`` (a list per key)."""
        got: list[tuple[str, str, str]] | None = cls.__dict__.get("_zone_shapes")
        if got is None:
            hints = typing.get_type_hints(cls)
            got = []
            for f in dataclasses.fields(cls):
                if ZONE not in f.metadata:
                    continue
                tp = hints[f.name]
                origin, args = typing.get_origin(tp), typing.get_args(tp)
                if origin is dict:
                    shape = "map"
                elif f.metadata[SLOTS]:
                    shape = "slots"
                elif origin is list and typing.get_origin(args[0]) is list:
                    shape = "seats"
                else:
                    shape = "pile"
                got.append((f.name, str(f.metadata[ZONE]), shape))
            type.__setattr__(cls, "_zone_shapes", got)
        return got

    def zones(self) -> dict[str, list[str]]:
        """Every card instance by zone (from the fields declared with :func:`zone`); each card is in exactly one."""
        out: dict[str, list[str]] = {}
        for attr, name, shape in self.zone_shapes():
            v = getattr(self, attr)
            if shape == "pile":
                out[name] = list(v)
            elif shape == "seats":
                for i, xs in enumerate(v):
                    out[f"{name}.{i}"] = list(xs)
            elif shape == "slots":
                for i, x in enumerate(v):
                    out[f"{name}.{i}"] = [x] if x else []
            else:
                for k, xs in v.items():
                    out[f"{name}.{k}"] = list(xs)
        return out

    def zone_list(self, name: str) -> list[str]:
        """The live list behind zone ``name`` (for scenario files that arrange a pile)."""
        head, _, key = name.rpartition(".")
        for attr, base, shape in self.zone_shapes():
            v = getattr(self, attr)
            if shape == "pile" and name == base:
                return v  # type: ignore[no-any-return]
            if head != base:
                continue
            if shape == "map" and key in v:
                return v[key]  # type: ignore[no-any-return]
            if shape == "seats" and key.isascii() and key.isdigit() and int(key) < len(v):
                return v[int(key)]  # type: ignore[no-any-return]
        raise EngineError(f"{self.data.id} has no pile named {quote(name)} (piles: "
                          f"{', '.join(sorted(self.zones()))})")

    def arrange(self, name: str, top_first: Sequence[str]) -> None:
        """Put the named cards of zone ``name`` on top of it, the first named on top (a scripted shuffle)."""
        pile = self.zone_list(name)
        for c in top_first:
            if c not in pile:
                raise EngineError(f"{quote(c)} is not in {name}")
        if len(set(top_first)) != len(top_first):
            raise EngineError(f"a card is named twice in the order of {name}")
        rest = [c for c in pile if c not in top_first]
        pile[:] = rest + list(reversed(top_first))
        self._legal = None

    def check_zones(self) -> None:
        """Every card instance in exactly one zone (raises otherwise)."""
        every = self.data.instances
        found = [x for z in self.zones().values() for x in z]
        if len(found) != len(every) or set(found) != set(every):
            seen: set[str] = set()
            dup = sorted({x for x in found if x in seen or seen.add(x)})  # type: ignore[func-returns-value]
            missing = sorted(set(every) - set(found))
            unknown = sorted(set(found) - set(every))
            raise EngineError(f"{self.data.id}: the cards are not each in one zone (twice: {dup[:8]}; missing: "
                              f"{missing[:8]}; unknown: {unknown[:8]})")

    # -- search -----------------------------------------------------------------------------------------------
    def script(self, dice: Sequence[int] = (), picks: Sequence[str] = (), strict: bool | None = None) -> None:
        """Add scripted dice and random choices (scenario files), and set strict mode."""
        ch = self.chance
        self.chance = Chance((*ch.dice, *dice), (*ch.picks, *picks), ch.strict if strict is None else strict)

    def determinize(self, seat: int, rng: Rng) -> Self:
        """A state ``seat`` cannot tell from this one: the cards it cannot see are redealt with ``rng`` (the
        game's :meth:`_resample`), every log line it may not read is dropped, the scripted chance is cleared and the
        generator is reseeded from ``rng``. The result depends only on ``observation(seat)`` and ``rng``."""
        s = self.clone()
        self._resample(s, seat, rng)
        s.log = list(self._seen_by(seat))
        s.chance = Chance()
        s.rng = Rng(rng.next64())
        return s

    def _seen_by(self, seat: int) -> list[LogLine]:
        """The log lines ``seat`` may read (a search determinizes the same state many times: the lines already
        sorted are kept, and only those added since are read; a log is only ever added to). The caller must not
        change the list."""
        log = self.log
        memo = self._seen
        if memo is None:
            memo = self._seen = {}
        got = memo.get(seat)
        if got is not None and got[0] is log and got[1] <= len(log):
            start, seen = got[1], got[2]
        else:
            start, seen = 0, []
        # ``readable`` written out: a search determinizes hundreds of times a move
        seen.extend([e for e in islice(log, start, None) if e.__class__ is str or seat in e.seats])  # type: ignore[union-attr,operator]
        memo[seat] = (log, len(log), seen)
        return seen

    @abstractmethod
    def _resample(self, into: Self, seat: int, rng: Rng) -> None:
        """Redeal into ``into`` (a clone of this state) every card ``seat`` cannot see, consistently with what it
        knows, drawing from ``rng`` only."""

    # -- helpers for games ------------------------------------------------------------------------------------
    def roll(self, sides: int = 6, what: str = "") -> int:
        """A die: the next scripted one, else from the generator (an error in strict mode; ``what``: the die in
        words, where the move does not say whose or what for, as a table asks it)."""
        ch = self.chance
        if ch.dice:
            v = ch.dice[0]
            self.chance = Chance(ch.dice[1:], ch.picks, ch.strict)
            if not 1 <= v <= sides:
                raise EngineError(f"scripted die {v} is not a d{sides} result")
            return v
        if ch.strict:
            raise ChanceNeeded("a die was rolled that the scenario does not script (strict mode)", sides=sides,
                               what=what)
        return 1 + self.rng.below(sides)  # randint(1, sides)

    def pick(self, options: Sequence[str], what: str) -> str:
        """A random choice among ``options`` (sorted first, so it does not depend on their order): the next scripted
        pick, else from the generator (an error in strict mode, unless there is only one option)."""
        opts = sorted(options)
        if not opts:
            raise EngineError(f"nothing to choose {what} from")
        ch = self.chance
        if ch.picks:
            v = ch.picks[0]
            self.chance = Chance(ch.dice, ch.picks[1:], ch.strict)
            if v not in opts:
                raise EngineError(f"the scripted pick {quote(v)} is not one of the {what} to choose from "
                                  f"({', '.join(opts)})")
            return v
        if ch.strict and len(opts) == 1:
            return opts[0]  # no chance in a choice of one
        if ch.strict:
            raise ChanceNeeded(f"a random {what} was chosen that the scenario does not script (strict mode; "
                               f"add picks = [...] with one of {', '.join(opts[:8])})", options=tuple(opts), what=what)
        return opts[self.rng.below(len(opts))]

    def say(self, text: str, seats: Iterable[int] | None = None) -> None:
        """Add a line to the log; with ``seats``, only those seats may read it."""
        self.log.append(text if seats is None else LogEntry(text, tuple(seats)))

    def log_texts(self, seat: int | None = None, start: int = 0) -> list[str]:
        """The log's lines from line ``start`` on, as text: every line, or those ``seat`` may read."""
        lines = islice(self.log, start, None)
        return [line_text(e) for e in lines if seat is None or readable(e, seat)]

    def visible_log(self, seat: int, last: int = 40) -> list[str]:
        """The last ``last`` lines ``seat`` may read, oldest first (read from the end: an observation asks for them at
        every step, and the log only grows)."""
        if last <= 0:
            return self.log_texts(seat)[-last:]
        out: list[str] = []
        for e in reversed(self.log):
            if readable(e, seat):
                out.append(line_text(e))
                if len(out) >= last:
                    break
        out.reverse()
        return out

    def note_draw(self, seat: int, card: str) -> None:
        if self.stats is not None:
            self.stats.add(self.stats.drawn, seat, design_of(card))

    def note_contest(self, group: str, won: bool, fair: float) -> None:
        """A contest won or lost by a group (a colour, a rarity) whose fair share of wins is ``fair``."""
        if self.stats is not None:
            self.stats.contest(group, won, fair)

    def note_event(self, name: str) -> None:
        """Something worth counting happened (a rule or a card took effect): solo checks report the share of games
        in which each named event happened, to show whether a rule matters."""
        if self.stats is not None:
            self.stats.event(name)

    def note_play(self, seat: int, card: str) -> None:
        if self.stats is not None:
            self.stats.add(self.stats.played, seat, design_of(card))
