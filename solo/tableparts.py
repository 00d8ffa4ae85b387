"""The pieces of ``wizprint solo table`` that its driver (:mod:`wizprint.solo.table`) is made of: what the person
and the program say to each other (:class:`Entry`, :class:`Ask`, the :class:`Table` protocol, :class:`Stop`), a
move halted where a card comes to light (:func:`halted`), a shuffle made on the table (:class:`Mixing`), and small
helpers about cards and words."""

from __future__ import annotations

from collections.abc import Callable, MutableSequence, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from wizprint.errors import WizprintError

from .kernel import Action, Engine, State
from .kernel.rng import Rng
from .kernel.stack import WATCH
from .kernel.table import Place, TablePolicy

T = TypeVar("T")


class TableError(WizprintError):
    """What the person entered cannot be: not a card of the game, not where it was said to be."""


@dataclass(frozen=True)
class Entry:
    """The person's answer at a decision: an option's number (0-based), the cards they play, or a command."""

    kind: str  # "option", "cards" or "command"
    index: int = -1
    cards: tuple[str, ...] = ()
    word: str = ""
    rest: str = ""


@dataclass(frozen=True)
class Ask:
    """What a question to the table is about, for a simulated table (the terminal shows only the prompt): the
    move being made, by which seat, the dice and picks given for it so far; for a card brought to light, the
    sample in the belief, where it lands (zone and index) and where it comes from (``source``, ``source_index``:
    its place before the move), and ``steps``: how many pieces of the move's pending work had begun when it came to
    light (-1: the card lies there when the move is over); for a random pick, the options."""

    action: Action
    by: int
    dice: tuple[int, ...] = ()
    picks: tuple[str, ...] = ()
    card: str = ""
    zone: str = ""
    index: int = -1
    options: tuple[str, ...] = ()
    steps: int = -1
    source: str = ""
    source_index: int = -1


class Table(Protocol):
    """The person at the table: the terminal, or a simulated person in the tests."""

    def tell(self, lines: Sequence[str]) -> None:
        """Say something (log lines, what to do with the components)."""

    def decide(self, question: str, options: Sequence[str], actions: Sequence[Action],
               cards_hint: str | None) -> Entry | None:
        """A decision: an option, or the cards the person plays (``cards_hint`` says which; None: none can be
        typed), or a command. None: the session ends."""

    def card(self, prompt: str, ask: Ask) -> str | None:
        """The card the person found on the table (its id or name as typed); None: the session ends."""

    def roll(self, sides: int, why: str, ask: Ask) -> int | None:
        """A die the person rolled; None: the session ends."""

    def which(self, question: str, options: Sequence[str], ask: Ask) -> int | None:
        """Where the rules sent a card the person took in secret, of ``options`` (0-based; ``ask``: its sample, the
        pile and place it came from, in ``options`` the zones it may go to). None: the session ends."""

    def moved(self, action: Action, by: int, dice: Sequence[int], picks: Sequence[str], prior: State[Any]) -> None:
        """A move was made (its dice and picks as they fell; ``prior``: the belief before it): for a simulated
        table to follow."""


class Mixing(Rng):
    """A trial's generator: the same draws, and the cards each shuffle mixed (on the table a shuffle is the
    person's: where each mixed card lies is unknown after it). ``swaps``: a card of the program's shuffle and the
    card the person turned up in its place instead (it takes that place, as the shuffle on the table put it)."""

    __slots__ = ("mixed", "rank", "swaps")

    def __init__(self, state: int, swaps: dict[str, str]) -> None:
        super().__init__(state)
        self.mixed: set[str] = set()
        self.swaps = swaps
        self.rank: dict[str, int] = {}  # each mixed card's place from the top once shuffled (the order drawn)

    def shuffle(self, seq: MutableSequence[T]) -> None:
        super().shuffle(seq)
        self.mixed.update(x for x in seq if isinstance(x, str))
        for a, b in self.swaps.items():
            if a in seq and b in seq:
                i, j = seq.index(a), seq.index(b)
                seq[i], seq[j] = seq[j], seq[i]
        self.rank.update((x, len(seq) - i) for i, x in enumerate(seq) if isinstance(x, str))

    def copy(self) -> Rng:
        return Rng(self.state)  # (a clone of the trial shuffles as the program does)

    def drawn(self, card: str, x: str, known: set[str], exchange: Callable[[str, str], bool]) -> str:
        """The person drew ``x`` where the program's shuffle put ``card``: "" when ``x`` is taken to lie there (a
        card of the shuffled pile, or one ``exchange`` relabels into it from elsewhere), else why not."""
        if x == card:
            return ""
        if x in self.swaps.values():
            return "it is drawn already"
        if x in self.mixed:
            self.swaps[card] = x
            return ""
        drawn = {card, *self.swaps, *self.swaps.values()}
        free = sorted(c for c in self.mixed - known if c not in drawn)
        if x not in known and any(exchange(c, x) for c in free):
            self.swaps[card] = x
            return ""
        return "it is not in that pile"


def shuffled_on_table(mixed: set[str], now: dict[str, str], before: dict[str, str],
                      place: Callable[[str], Place]) -> set[str]:
    """The cards of ``mixed`` shuffled on the table: not those the program keeps before the move and after it
    (``before``, ``now``: each card's zone), whose shuffle is the program's own."""
    return {c for c in mixed if place(now.get(c, "")) != Place.KEPT or place(before.get(c, "")) != Place.KEPT}


class Halt(Exception):
    """A card came to light in the middle of a move: the move stops there (``steps``: the pieces of pending work
    begun; ``cards``: those that came to light)."""

    def __init__(self, steps: int, cards: Sequence[str] = ()) -> None:
        super().__init__()
        self.steps = steps
        self.cards = list(cards)


def halted(state: State[Any], action: Action, steps: int) -> None:
    """Apply ``action`` to ``state`` and stop where its pending work has begun ``steps`` pieces (a stack game
    runs its pending work one piece at a time; the state is then as the program saw it when a card came to
    light)."""
    count = 0

    def watch(_s: Any) -> None:
        nonlocal count
        count += 1
        if count >= steps:
            raise Halt(count)

    token = WATCH.set(watch)
    try:
        state.apply(action)
    except Halt:
        pass
    finally:
        WATCH.reset(token)


class Stop(Exception):
    """The person ended the session (end of input, quit; ``saved``: the session was saved already)."""

    def __init__(self, saved: bool = False) -> None:
        super().__init__()
        self.saved = saved


def table_state(engine: Engine, policy: TablePolicy, players: int, seed: int, variant: str, person: int) -> State[Any]:
    """A new game for the table: the policy's, where the rules run otherwise from the start with the person's cards
    on a real table, else the engine's, prepared by the policy for the table."""
    if policy.new_state is not None:
        state: State[Any] = policy.new_state(engine, players, seed, variant, person)
        return state
    state = engine.new_state(players, seed, variant)
    if policy.prepare is not None:
        policy.prepare(state, person)
    return state


def place_in(state: State[Any], zone: str, card: str) -> int:
    """Where a card lies in a zone of ``state`` (-1: not there)."""
    cards = state.zones().get(zone, [])
    return cards.index(card) if card in cards else -1


def ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def sentence(text: str) -> str:
    """``text`` as a sentence: its first letter a capital, a full stop at its end unless it asks."""
    return text[0].upper() + text[1:] + ("" if text.endswith(("?", ".")) else ".")


def follow(action: Action, pairs: Sequence[tuple[str, str]]) -> Action:
    """The move that does on the table what ``action`` did before the belief exchanged the cards of ``pairs``
    (each pair in turn: the second card is now where the first was)."""
    for a, b in pairs:
        action = Action(*(b if v == a else a if v == b else v for v in action))
    return action


def reachable(state: State[Any]) -> bool:
    """Whether ``state`` is a position the game's rules can reach (it passes the checks of a loaded game)."""
    try:
        state.check_loaded()
    except WizprintError:
        return False
    return True


def parse_cards(text: str) -> tuple[str, ...]:
    """Typed card ids or names: separated by commas, or by spaces when each word is an id."""
    if "," in text:
        return tuple(p.strip() for p in text.split(",") if p.strip())
    words = text.split()
    return tuple(words) if words and all(any(ch.isdigit() for ch in w) for w in words) else (text.strip(),)
