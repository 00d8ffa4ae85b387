"""The kernel of table mode: a game played with the printed cards on a real table, the program keeping a *belief*
of the state and running the automaton's seats.

The belief is a full state of the game, as the engines play it, in which some cards are *unconfirmed*: the program
does not know which physical card is there (the person's secret cards, and the order of face-down piles). An
unconfirmed card is a sample, as the search bot's redeal makes one. When a physical card comes to light (turned
from a pile, played by the person, revealed), the person enters it, and the belief *relabels* its cards: the
sample there and the entered card exchange identities everywhere in the state (``relabel``), as if they had always
been in each other's places. A relabel is allowed only between unconfirmed cards and only when no automaton seat's
observation changes (``same_view``): the automaton decides on its observation alone, so no relabel can change what
it did or will do. That is the honesty of table mode, and the test of it: rearranging the person's unknown cards
never changes an automaton decision.

What is confirmed is read from the observations: a card an automaton seat sees (on the table, in its own hand) is
confirmed; a card the program keeps for the automaton (its own deck, in games where each seat has one) is
confirmed too (the policy says which zones). Every other card is unconfirmed.

Each game states how its zones lie on the table (:class:`TablePolicy`): which are public, which are the person's
secret, which piles are face down for everyone, which the program keeps for the automaton, and their physical
names.
"""

from __future__ import annotations

import dataclasses
import enum
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, TypeVar

from wizprint.errors import EngineError

from .fields import ROLE
from .state import ChanceNeeded, State
from .values import Action

S = TypeVar("S", bound=State[Any])


class Place(enum.Enum):
    """Where a zone's cards are, on the table."""

    PUBLIC = "public"  # face up: everyone (and the program) knows each card
    HIDDEN = "hidden"  # a face-down pile nobody looks into (a shared deck, a seat's own shuffled deck)
    PERSON = "person"  # the person's secret cards (hand, face-down plays): the program learns them when entered
    KEPT = "kept"  # the automaton's secret cards, kept by the program off the table until the rules reveal them


@dataclass(frozen=True)
class TablePolicy:
    """How a game's zones lie on a real table.

    - ``place(zone, person)``: where the cards of zone ``zone`` (a name of ``State.zones()``, e.g. ``hand.1``) are
      when the person plays seat ``person``;
    - ``name(zone, person)``: the zone in words, as the person finds it on the table ("your hand", "the red Threat
      deck", "the automaton's relic slot");
    - ``setup(state, person)``: the set-up from the printed components, step by step;
    - ``policy``: the game's hidden-information policy in a few sentences (shown at the start and in the docs);
    - ``laid_out(state, person)``: the cards the set-up lays out by name (sorted piles, a card given to each
      player), whose places the program knows from the start (besides the cards it keeps for the automaton);
    - ``label(state, card)``: a card as the person finds it among the printed components, its printed id and the
      title the card shows (default: the id and the card's name in the data);
    - ``arranged(zone, person)``: the person's zones whose cards they may swap and order among each other in
      secret (a Deck they plan themselves): a card the program knows lies somewhere among them, not where;
    - ``secret(state, action, person)``: a move the person makes in secret, in words (its cards unnamed; the
      program plays it with samples); ``""`` for a step of a secret move already said (made without asking: the
      person does it all on the table at once); None for a move that is not secret;
    - ``question(state, person)``: a decision of the person's in words, where the engine's words would name cards
      the program does not know (None: the engine's);
    - ``prepare(state, person)``: what the engine must know of a game played on a table, set on the new game
      (e.g. the person's seat, where what the engine offers depends on cards the program cannot know);
    - ``may_play(state, person)``: the person may play one of their secret cards now, though no option the
      program's samples give names one (a window of play whose cards the program cannot know): they are asked;
    - ``by_face(zone, person)``: a face-down pile whose cards, when the person takes one in secret, land by what
      they are (a card that activates face up, else lies face down): the person is asked where it went, not
      which card it is;
    - ``new_state(engine, players, seed, variant, person)``: a new game for the table, where the rules run
      otherwise from its very start when a seat's cards lie on a real table (the program does not know them);
      None: the engine's own (then ``prepare``).
    - ``arrangements(state, person, known)``: other ways the person's unknown cards may lie that the person's
      decision may depend on (each a relabelling of cards the program does not know, as :func:`relabel` takes
      it): what the person may do with their real cards, which the program's samples may not allow (a hand
      with no card of a kind, or with one); None: none.
    """

    place: Callable[[str, int], Place]
    name: Callable[[str, int], str]
    setup: Callable[[Any, int], list[str]]
    policy: str
    laid_out: Callable[[Any, int], set[str]] | None = None
    label: Callable[[Any, str], str] | None = None
    arranged: Callable[[str, int], bool] | None = None
    secret: Callable[[Any, Any, int], str | None] | None = None
    question: Callable[[Any, int], str | None] | None = None
    prepare: Callable[[Any, int], None] | None = None
    may_play: Callable[[Any, int], bool] | None = None
    by_face: Callable[[str, int], bool] | None = None
    new_state: Callable[[Any, int, int, str, int], Any] | None = None
    arrangements: Callable[[Any, int, frozenset[str]], list[dict[str, str]]] | None = None


# -- card identities --------------------------------------------------------------------------------------------
@cache
def _token(instances: frozenset[str]) -> re.Pattern[str]:
    """A card instance id as a whole token (``PW20#2``, ``10H``): not inside a longer id."""
    alts = "|".join(re.escape(x) for x in sorted(instances, key=len, reverse=True))
    return re.compile(rf"(?<![A-Za-z0-9#])(?:{alts})(?![A-Za-z0-9#])")


def cards_in(value: Any, instances: frozenset[str]) -> set[str]:
    """The card instance ids a JSON-able value mentions (whole strings and tokens in strings)."""
    pat = _token(instances)
    out: set[str] = set()

    def walk(v: Any) -> None:
        t = type(v)
        if t is int or t is bool or v is None:
            return
        if t is list or t is tuple:  # the common containers first (an abstract class check is slow)
            for x in v:
                walk(x)
        elif isinstance(v, str):
            if v in instances:
                out.add(v)
            elif " " in v:
                out.update(pat.findall(v))
        elif isinstance(v, Mapping):
            for k, x in v.items():
                walk(k)
                walk(x)
        elif isinstance(v, (list, tuple, set, frozenset)):
            for x in v:
                walk(x)

    walk(value)
    return out


def view(state: State[Any], seat: int) -> dict[str, Any]:
    """What a seat decides on: its observation without the log (the log is the same events in words; a relabel
    leaves the words of lines only the person reads as they were)."""
    return {k: v for k, v in state.observation(seat).items() if k not in ("log", "heading")}


def seen_by(state: State[Any], seats: Iterable[int]) -> set[str]:
    """The cards the given seats see (in their observations, the log left out)."""
    inst = frozenset(state.data.instances)
    out: set[str] = set()
    for s in seats:
        out |= cards_in(view(state, s), inst)
    return out


def same_view(a: State[Any], b: State[Any], seats: Iterable[int]) -> bool:
    return all(view(a, s) == view(b, s) for s in seats)


def zone_of(state: State[Any]) -> dict[str, str]:
    """Each card's zone."""
    return {c: z for z, cards in state.zones().items() for c in cards}


def relabel(state: S, pairs: Mapping[str, str]) -> S:
    """A copy of ``state`` in which cards exchange identities: each ``x: y`` of ``pairs`` (which holds ``y: x`` too)
    puts card ``y`` wherever ``x`` was, in every field (zones, pending work, commitments, action keys in strings),
    except the log, whose lines keep their words."""
    inst = frozenset(state.data.instances)
    pat = _token(inst)
    swap = dict(pairs)

    def text(v: str) -> str:
        if v in swap:
            return swap[v]
        if " " in v:
            return pat.sub(lambda m: swap.get(m.group(0), m.group(0)), v)
        return v

    def walk(v: Any) -> Any:
        if isinstance(v, str):
            return text(v)
        if isinstance(v, list):
            return [walk(x) for x in v]
        if isinstance(v, tuple):
            if hasattr(v, "_fields"):  # a named tuple (an Action)
                return type(v)(*(walk(x) for x in v))
            return tuple(walk(x) for x in v)
        if isinstance(v, dict):
            return {walk(k): walk(x) for k, x in v.items()}
        if isinstance(v, (set, frozenset)):
            return type(v)(walk(x) for x in v)
        if dataclasses.is_dataclass(v) and not isinstance(v, type):
            out = object.__new__(type(v))
            for f in dataclasses.fields(v):
                x = getattr(v, f.name)
                object.__setattr__(out, f.name, x if f.metadata.get(ROLE) else walk(x))
            return out
        return v

    new = state.clone()
    for f in dataclasses.fields(new):
        if f.name == "log" or f.metadata.get(ROLE):
            continue
        object.__setattr__(new, f.name, walk(getattr(new, f.name)))
    new._legal = None  # noqa: SLF001 - the legal moves were those of the old identities
    new.next_legal = None
    return new


def swap_places(state: S, x: str, y: str) -> S:
    """A copy of ``state`` in which cards ``x`` and ``y`` trade places in the zones, every other field as it was:
    unlike :func:`relabel`, what was seen or said of each card stays with it (a card the automaton saw go into the
    person's Deck, whose place there it does not know)."""
    new = state.clone()

    def swap(cards: list[str]) -> None:
        for i, c in enumerate(cards):
            if c in (x, y):
                cards[i] = y if c == x else x

    for attr, _name, shape in new.zone_shapes():
        v = getattr(new, attr)
        if shape in ("pile", "slots"):
            swap(v)
        else:
            for cards in (v.values() if isinstance(v, dict) else v):
                swap(cards)
    new._legal = None  # noqa: SLF001 - the legal moves were those of the old places
    new.next_legal = None
    return new


def made(state: S, action: Action, dice: Sequence[int], picks: Sequence[str]) -> tuple[S, bool]:
    """``action`` made on a copy of ``state`` with the dice and random picks given; where it needs more, with a 1
    and the first option (to see where the cards go). Returns the copy after it, and whether it needed more."""
    more_dice: list[int] = []
    more_picks: list[str] = []
    for _ in range(500):
        trial = state.clone()
        trial.script(dice=[*dice, *more_dice], picks=[*picks, *more_picks], strict=True)
        try:
            trial.apply(action)
        except ChanceNeeded as need:
            if need.sides:
                more_dice.append(1)
            else:
                more_picks.append(sorted(need.options)[0])
            continue
        return trial, bool(more_dice or more_picks)
    raise EngineError("a move could not be made with the dice and picks given")


def designs(state: State[Any]) -> dict[str, list[str]]:
    """Each design's instances (a card printed in several copies has one instance a copy)."""
    from .values import design_of

    out: dict[str, list[str]] = {}
    for x in sorted(state.data.instances):
        out.setdefault(design_of(x), []).append(x)
    return out


def zones_moved(before: State[Any], after: State[Any]) -> list[tuple[str, str, str]]:
    """The cards that changed zone: (card, from, to), in the order of the zones after."""
    a, b = zone_of(before), zone_of(after)
    return [(c, a.get(c, ""), z) for c, z in b.items() if a.get(c) != z]


def unconfirmed(state: State[Any], person: int, policy: TablePolicy, autos: Sequence[int]) -> set[str]:
    """The cards whose physical identity the program does not know: those no automaton seat sees, in a zone that is
    face down for everyone or the person's secret."""
    seen = seen_by(state, autos)
    return {c for z, cards in state.zones().items() if policy.place(z, person) in (Place.HIDDEN, Place.PERSON)
            for c in cards if c not in seen}
