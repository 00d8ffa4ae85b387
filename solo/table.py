"""``wizprint solo table``: the printed cards on a real table, the program keeping the state and running the
automaton's seats (see :mod:`wizprint.solo.kernel.table` for the belief and its honesty).

The program speaks in terms of the printed components (ids and names) and asks the person only for what happened
on the table: the cards they play or reveal, the cards turned from shared piles, dice (``--dice physical``: the
person rolls and enters; ``app``: the program rolls and says the result) and their choices.

:class:`TableGame` is the driver; it talks to the person through a :class:`Table`: the terminal's, or a simulated
table in the tests, which owns a shuffled physical copy of the components.
"""

from __future__ import annotations

import contextlib
import difflib
import itertools
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from wizprint.errors import EngineError, IllegalActionError, UsageError, WizprintError, quote

from .agents import Agent, make_agent
from .kernel import Action, Engine, State, design_of, line_text, readable
from .kernel.rng import derive
from .kernel.stack import WATCH
from .kernel.state import ChanceNeeded
from .kernel.table import Place, TablePolicy, cards_in, relabel, same_view, seen_by, zone_of, zones_moved

DICE = ("physical", "app")
MAX_ENTRIES = 500  # entries asked for one move before it is an error (a move that cannot settle)
GROUP_NAMED = 4  # cards moved together from one place to another beyond which they are said by their ids only


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
    sample in the belief and where it lands (zone and index), when the move has run ``steps`` pieces of its pending
    work (0: the whole move; see :func:`halted`); for a random pick, the options."""

    action: Action
    by: int
    dice: tuple[int, ...] = ()
    picks: tuple[str, ...] = ()
    card: str = ""
    zone: str = ""
    index: int = -1
    options: tuple[str, ...] = ()
    steps: int = 0


class Halt(Exception):
    """A move stopped where cards came to light (``steps``: the pieces of its pending work begun)."""

    def __init__(self, steps: int, cards: Sequence[str] = ()) -> None:
        super().__init__()
        self.steps = steps
        self.cards = list(cards)


def sentence(text: str) -> str:
    """``text`` as a sentence: a capital first, a full stop last (unless it ends with a question mark)."""
    return text[0].upper() + text[1:] + ("" if text.endswith(("?", ".")) else ".")


def in_order(state: State[Any], cards: Sequence[str]) -> list[str]:
    """Cards in the order the game lists its zones (a wizard revealed before a relic), then in their zone's order."""
    rank = {c: (i, j) for i, zone in enumerate(state.zones().values()) for j, c in enumerate(zone)}
    return sorted(cards, key=lambda c: rank.get(c, (len(rank), 0)))


def watched(state: State[Any], action: Action, watch: Callable[[Any], None] | None) -> None:
    """Apply ``action`` to ``state`` with ``watch`` called before each piece of its pending work (it may raise to stop
    the move there)."""
    token = WATCH.set(watch)
    try:
        state.apply(action)
    finally:
        WATCH.reset(token)


def halted(state: State[Any], action: Action, steps: int) -> None:
    """Apply ``action`` to ``state``, stopped where its pending work has begun ``steps`` pieces (all of it if 0): the
    state as it was when a card came to light (a game that runs no pending work is never stopped)."""
    count = 0

    def watch(_s: Any) -> None:
        nonlocal count
        count += 1
        if count >= steps:
            raise Halt(count)

    with contextlib.suppress(Halt):
        watched(state, action, watch if steps else None)


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

    def moved(self, action: Action, by: int, dice: Sequence[int], picks: Sequence[str], prior: State[Any]) -> None:
        """A move was made (its dice and picks as they fell; ``prior``: the belief before it): for a simulated
        table to follow."""


class Stop(Exception):
    """The person ended the session (end of input, quit; ``saved``: the session was saved already)."""

    def __init__(self, saved: bool = False) -> None:
        super().__init__()
        self.saved = saved


@dataclass
class TableGame:
    """A game on a real table: the belief, the seats, and which cards the program knows."""

    engine: Engine
    belief: State[Any]
    person: int
    bots: list[str]  # per seat, "" for the person
    policy: TablePolicy
    dice: str = "physical"
    seed: int = 0
    known: set[str] = field(default_factory=set)  # cards whose place on the table the program knows
    told: int = 0  # public log lines told so far
    notes: list[tuple[int, str]] = field(default_factory=list)  # (step, text): the playtest record
    agents: list[Agent | None] = field(default_factory=list)
    secret_moves: dict[int, Action] = field(default_factory=dict)  # (unused by the driver: the tests' record)
    was_known: set[str] = field(default_factory=set)  # the cards the program knew before the last move

    def __post_init__(self) -> None:
        if self.dice not in DICE:
            raise UsageError(f"--dice must be {' or '.join(DICE)}, not {quote(self.dice, 20)}")
        self.autos = [s for s in range(self.belief.players) if s != self.person]
        self.prior: State[Any] = self.belief  # the belief just before the last move committed
        self.swaps: list[tuple[str, str]] = []  # the exchanges made, in order (an undo's words relabel by them)
        self.path: list[dict[str, str]] = []  # each card's zone before the last move, at each piece of it, after it
        self.path_told = 0  # the pieces of the last move told while it was made (it stopped for a card)
        if not self.agents:
            self.agents = [None if not b else make_agent(b, self.engine, derive(self.seed, "bot", i))
                           for i, b in enumerate(self.bots)]
        self.instances = frozenset(self.belief.data.instances)
        self.by_design: dict[str, list[str]] = {}
        for x in sorted(self.instances):
            self.by_design.setdefault(design_of(x), []).append(x)
        records = {r.id: r for r in self.belief.data.game.cards()}
        decks = self.belief.data.game.decl.decks
        self.home: dict[str, tuple[str, str]] = {}
        for x in self.instances:
            r = records.get(design_of(x))
            deck = r.deck if r is not None else ""
            copy = x.partition("#")[2] if deck in decks and decks[deck].backs else ""
            self.home[x] = (deck, copy)
        self.names = {x: (records[design_of(x)].name if design_of(x) in records else x) for x in self.instances}
        if not self.known:
            self.known = {c for c, z in zone_of(self.belief).items() if self.place(z) == Place.KEPT}
            if self.policy.laid_out is not None:
                self.known |= self.policy.laid_out(self.belief, self.person)

    # -- what the program knows ---------------------------------------------------------------------------------
    def place(self, zone: str) -> Place:
        return self.policy.place(zone, self.person)

    def label(self, card: str) -> str:
        if self.policy.label is not None:
            return self.policy.label(self.belief, card)
        return f"{design_of(card)} {self.names[card]}"

    def interchangeable(self, x: str, y: str) -> bool:
        """Two cards that could lie in each other's places on the table: the same deck and, where each copy has its
        own back, the same copy."""
        return self.home[x] == self.home[y]

    def exchange(self, x: str, y: str, views: bool = True) -> bool:
        """Relabel cards ``x`` and ``y`` in the belief when no automaton seat can tell: neither known, the same
        kind of card, and every automaton's view the same after (``views=False``: at the set-up, before any
        automaton has decided anything). Returns whether it was done."""
        if x == y:
            return True
        if x in self.known or y in self.known or not self.interchangeable(x, y):
            return False
        new = relabel(self.belief, {x: y, y: x})
        if views and not same_view(self.belief, new, self.autos):
            return False
        self.belief = new
        self.swaps.append((x, y))
        return True

    def to_learn(self, state: State[Any]) -> list[str]:
        """The cards of ``state`` an automaton sees, or that lie face up, whose place the program does not know."""
        public = {c for c, z in zone_of(state).items() if self.place(z) == Place.PUBLIC}
        return sorted((seen_by(state, self.autos) | public) - self.known)

    # -- entries ------------------------------------------------------------------------------------------------
    def match(self, text: str, pool: Sequence[str]) -> tuple[list[str], str]:
        """The instances of ``pool`` a typed card names (an id, a design id, or part of a name), and what to say
        when it names none (with a close name, if there is one)."""
        want = text.strip()
        if not want:
            return [], "type a card's id or name"
        up = want.upper()
        exact = [x for x in pool if x.upper() == up or design_of(x).upper() == up]
        if exact:
            return exact, ""
        low = want.casefold()
        named = [x for x in pool if low in self.names[x].casefold()] if len(want) >= 3 else []
        found = {design_of(x) for x in named}
        if len(found) == 1:
            return named, ""
        if len(found) > 1:
            shown = ", ".join(sorted(self.label(self.by_design[d][0]) for d in found)[:6])
            return [], f"{quote(want, 40)} fits several cards ({shown}): type its id"
        every = {self.names[x] for x in self.instances} | {design_of(x) for x in self.instances}
        close = difflib.get_close_matches(want, sorted(every), n=1, cutoff=0.6)
        hint = f"; did you mean {quote(close[0], 60)}?" if close else ""
        return [], f"no card is called {quote(want, 40)}{hint}"

    def enter_card(self, table: Table, prompt: str, ask: Ask, ok: Callable[[str], str]) -> str:
        """Ask for a card until one is entered that ``ok`` accepts (it returns "" or why not)."""
        for _ in range(MAX_ENTRIES):
            typed = table.card(prompt, ask)
            if typed is None:
                raise Stop
            found, why = self.match(typed, sorted(self.instances))
            if not found:
                table.tell([sentence(why)])
                continue
            reasons = []
            for x in found:
                r = ok(x)
                if not r:
                    return x
                reasons.append(r)
            table.tell([f"{self.label(found[0])}: {reasons[0]}."])
        raise EngineError("too many entries refused for one card")

    # -- the person's decision ----------------------------------------------------------------------------------
    def secret_cards(self, action: Action) -> set[str]:
        """The cards an action names that are the person's and unknown to the program (samples)."""
        zones = zone_of(self.belief)
        return {c for c in cards_in(action.key, self.instances)
                if c not in self.known and self.place(zones.get(c, "")) == Place.PERSON}

    def auto_views(self, state: State[Any]) -> str:
        return json.dumps([{k: v for k, v in state.observation(x).items() if k not in ("log", "heading")}
                           for x in self.autos], sort_keys=True, default=str)

    def options(self, legal: Sequence[Action]) -> tuple[list[tuple[Action, str]], list[Action]]:
        """The options to list (actions that name none of the person's secret cards; and, one per kind, actions
        taken in secret, when every such action looks the same to the automata), and the actions the person plays
        by typing their cards."""
        shown: list[tuple[Action, str]] = []
        typed: list[Action] = []
        by_kind: dict[str, list[Action]] = {}  # the same move but for which of the person's unknown cards
        for a in legal:
            if self.secret_cards(a):
                by_kind.setdefault(self.option_key(a), []).append(a)
            else:
                shown.append((a, self.belief.describe(a)))
        for acts in by_kind.values():
            secret = True
            for a in acts:
                s = self.belief.clone()
                s.script(strict=True)
                try:
                    s.apply(a)
                except ChanceNeeded:
                    secret = False  # its outcome is chance: it cannot be taken in secret
                    break
                if self.secret_cards(a) & set(self.to_learn(s)):
                    secret = False  # the move shows its card: the person says which
                    break
            if secret:
                said = self.policy.secret(self.belief, acts[0], self.person) if self.policy.secret else ""
                shown.append((acts[0], said or f"{self.secret_words(acts[0])} (in secret: you say which cards when "
                                              f"they are revealed)"))
            else:
                typed.extend(acts)
        return shown, typed

    def option_key(self, action: Action) -> str:
        """An action's key with the person's cards unknown to the program as ``?``: the same for every move that
        differs only in which of them it plays."""
        secret = self.secret_cards(action)
        return " ".join("?" if w in secret else w for w in action.key.split())

    def secret_words(self, action: Action) -> str:
        """An action taken in secret, in words, without the sample's cards."""
        text = self.belief.describe(action)
        for c in self.secret_cards(action):
            text = text.replace(self.label(c), "a card").replace(self.names[c], "a card").replace(c, "a card")
        return text

    def bring_in(self, designs: Sequence[str], typed: Sequence[Action], table: Table,
                 quiet: bool = False) -> list[Action]:
        """The actions that play the cards the person typed: each card is brought into the person's secret zone by
        relabelling it with a sample there (the automata cannot tell). Empty when they cannot be played (why, told
        to the table unless ``quiet``)."""
        chosen: list[str] = []
        zones = zone_of(self.belief)
        person_zones = {z for z in zones.values() if self.place(z) == Place.PERSON}
        for text in designs:
            zones = zone_of(self.belief)
            held = {c for c, z in zones.items() if z in person_zones}  # (a card of theirs the program knows, too)
            pool = sorted((self.instances - self.known | held) - set(chosen))
            found, why = self.match(text, pool)
            if not found:
                known = self.match(text, sorted(self.instances))[0]
                if not quiet:
                    table.tell([f"{self.label(known[0])} is not one of your secret cards: the program knows where "
                                f"it is." if known else sentence(why)])
                return []
            here = [x for x in found if zones[x] in person_zones]
            if here:
                chosen.append(here[0])
                self.known.add(here[0])
                continue
            samples = [c for a in typed for c in sorted(self.secret_cards(a))] + sorted(
                c for c, z in zones.items() if z in person_zones and c not in self.known)
            got = None
            for x in found:
                got = next((x for s in dict.fromkeys(samples) if s not in chosen and self.exchange(s, x)), None)
                if got is not None:
                    break
            if got is None:
                if not quiet:
                    table.tell([f"{self.label(found[0])} cannot be in your hand now."])
                return []
            chosen.append(got)
            self.known.add(got)
        self.known |= set(chosen)  # the person said these are in their hand
        return [a for a in self.belief.legal_actions() if set(chosen) <= cards_in(a.key, self.instances)]

    # -- a move, with what the table must tell the program ---------------------------------------------------------
    def commit(self, action: Action, by: int, table: Table) -> None:
        """Play ``action`` on the belief: the dice and random picks from the table (or the program, ``--dice
        app``), and every card the move brings to light entered by the person and relabelled in, one at a time, in
        the order they come to light: where a game runs its rules in pieces of pending work, the move is stopped at
        the first piece before which a card has come to light, and made again once it is entered (what follows may
        depend on which card it is)."""
        dice: list[int] = []
        picks: list[str] = []
        steps = 0
        path: list[dict[str, str]] = []  # where each card is at each piece of the move's pending work
        self.was_known = set(self.known)
        self.path_told = 0  # the pieces of the move told (where it stopped for a card)

        def watch(state: State[Any]) -> None:  # (a card shown while still in the person's hand, as a card laid
            nonlocal steps  # face down is once every seat has chosen, is asked where it goes: a hand has no order)
            steps += 1
            zones = zone_of(state)
            fresh = [c for c in self.to_learn(state) if c not in picks and self.place(zones[c]) != Place.PERSON]
            if fresh:
                raise Halt(steps, in_order(state, fresh))
            path.append(zones)

        for _ in range(MAX_ENTRIES):
            trial = self.belief.clone()
            trial.script(dice=dice, picks=picks, strict=True)
            steps = 0
            path.clear()
            try:
                watched(trial, action, watch)
            except Halt as halt:
                self.tell_so_far(trial, [zone_of(self.belief), *path], by, table)
                self.reveal(halt.cards[0], trial, Ask(action, by, tuple(dice), tuple(picks), steps=halt.steps), table)
                continue
            except ChanceNeeded as need:
                ask = Ask(action, by, tuple(dice), tuple(picks), options=need.options)
                why = f"P{by + 1}: {self.belief.describe(action)}"
                if need.sides and self.dice == "app":  # the program rolls, and says what it rolled
                    rolled = 1 + derive(self.seed, "die", self.belief.steps, len(dice)) % need.sides
                    table.tell([f"The program rolls a d{need.sides} ({why}): {rolled}."])
                    dice.append(rolled)
                    continue
                if need.sides:
                    v = table.roll(need.sides, why, ask)
                    if v is None:
                        raise Stop from None
                    if not 1 <= v <= need.sides:
                        table.tell([f"A d{need.sides} shows 1 to {need.sides}."])
                        continue
                    dice.append(v)
                else:
                    picks.append(self.pick(need.options, need.what, ask, table))
                continue
            fresh = in_order(trial, [c for c in self.to_learn(trial) if c not in picks])
            if not fresh:
                break
            self.reveal(fresh[0], trial, Ask(action, by, tuple(dice), tuple(picks)), table)
        else:
            raise EngineError("a move could not be settled with the table")
        moves = zones_moved(self.belief, trial)
        self.path = [zone_of(self.belief), *path, zone_of(trial)]
        seen = seen_by(trial, self.autos)
        for card, z0, z1 in moves:
            if self.place(z1) == Place.HIDDEN:
                self.known.discard(card)  # shuffled into a face-down pile: its place is unknown again
            elif self.place(z1) == Place.PERSON and self.place(z0) in (Place.KEPT, Place.HIDDEN) and card not in seen:
                self.known.discard(card)  # into the person's secret cards unseen (as through a deck they shuffle)
        self.known |= set(self.to_learn(trial)) | set(picks)
        prior, self.belief = self.belief, trial
        self.prior = prior
        table.moved(action, by, dice, picks, prior)

    def tell_so_far(self, trial: State[Any], path: Sequence[dict[str, str]], by: int, table: Table) -> None:
        """Where a move stopped for a card: what happened before, told (the log lines everyone may read, up to one
        that names a card the program does not know yet, and what to do with the components)."""
        public = [line_text(e) for e in trial.log if all(readable(e, x) for x in range(trial.players))]
        lines = []
        for line in public[self.told:]:
            if cards_in(line, self.instances) - self.known:
                break
            lines.append(line)
        self.told += len(lines)
        words = self.path_words(path, skip_own=by == self.person, start=self.path_told)
        self.path_told = max(len(path) - 1, self.path_told)
        table.tell(lines + words)

    def reveal(self, card: str, trial: State[Any], ask: Ask, table: Table) -> None:
        """A sampled card the move brings to light: the person says which card it is on the table, and the belief
        takes it in (before the move, so the move is made again with it)."""
        z0 = zone_of(self.belief).get(card, "")
        z1 = zone_of(trial)[card]
        src, dst = self.policy.name(z0, self.person), self.policy.name(z1, self.person)
        if z0 == z1:
            prompt = f"Show the card in {src}: which card is it?"
        elif self.place(z0) == Place.HIDDEN:
            prompt = f"Take the top card of {src} to {dst}: which card is it?"
        else:
            prompt = f"The card from {src} goes to {dst}: which card is it?"
        where = Ask(ask.action, ask.by, ask.dice, ask.picks, card, z1, trial.zones()[z1].index(card), steps=ask.steps)

        def ok(x: str) -> str:
            if x in self.known:
                return "the program knows where that card is"
            if not self.interchangeable(x, card):
                return "it cannot come from there"
            old = self.belief
            if not self.exchange(card, x):
                return "that card cannot be there, by what the automaton has seen"
            why = self.refused(ask)
            if why:
                self.belief = old
                self.swaps.pop()
            return why

        got = self.enter_card(table, prompt, where, ok)
        self.known.add(got)

    def refused(self, ask: Ask) -> str:
        """Why the rules refuse the move being made, now that a card the table showed is in the belief (a card
        of another kind than the rules need there, as the engine says it); "" when they do not."""
        trial = self.belief.clone()
        trial.script(dice=ask.dice, picks=ask.picks, strict=True)
        try:
            trial.apply(ask.action)
        except ChanceNeeded:
            pass
        except IllegalActionError as exc:
            return str(exc)
        return ""

    def pick(self, options: Sequence[str], what: str, ask: Ask, table: Table) -> str:
        """A random choice made on the table (the person picks at random and says which) or, among things that are
        not cards, by the program."""
        pool = sorted(options)
        if not all(x in self.instances for x in pool):
            return pool[derive(self.seed, "pick", self.belief.steps, len(pool)) % len(pool)]
        secret = [x for x in pool if x not in self.known]
        named = ", ".join(self.label(x) for x in pool if x in self.known)
        prompt = f"Pick one {what} at random" + (f" (among {named})" if named and not secret else "") + \
            ": which is it?"
        got: list[str] = []

        def ok(x: str) -> str:
            if x in pool:
                got.append(x)
                return ""
            if next((s for s in secret if self.exchange(s, x)), None) is None:
                return "it is not one of those to pick from"
            got.append(x)
            return ""

        self.enter_card(table, prompt, ask, ok)
        return got[-1]

    # -- what the person is told --------------------------------------------------------------------------------
    def public_log(self) -> list[str]:
        n = self.belief.players
        return [line_text(e) for e in self.belief.log if all(readable(e, s) for s in range(n))]

    def new_log(self) -> list[str]:
        """The log lines every seat may read, since the last told (a line only the person may read speaks of the
        belief's samples: the person holds the real cards)."""
        public = self.public_log()
        out = public[self.told:]
        self.told = len(public)
        return out

    def instructions(self, before: State[Any], by: int) -> list[str]:
        """What to do with the components after a move: each card that changed place, in words (the person moves
        every component on the table, whoever's move it is), piece by piece of the move where a game runs its
        rules so (a card taken from a pile into a deck that is shuffled and drawn from is said going into the deck,
        then drawn)."""
        if before is self.prior and len(self.path) > 1:
            return self.path_words(self.path, skip_own=by == self.person, start=self.path_told)
        return self.moves_words(before, self.belief, skip_own=by == self.person)

    def path_words(self, path: Sequence[dict[str, str]], skip_own: bool, start: int = 0) -> list[str]:
        """The cards that changed place from each piece of a move to the next (from the ``start``-th on), in words:
        a card the program knew before the move by its id and name until it goes face down into a pile (where it
        is not known any more), a card it knows after the move always."""
        moves: list[tuple[str, str, str, bool]] = []
        hidden: set[str] = set()
        for i, (a, b) in enumerate(itertools.pairwise(path)):
            for card, z1 in b.items():
                z0 = a.get(card, "")
                if z0 == z1:
                    continue
                named = card in self.known or (card in self.was_known and card not in hidden)
                if self.place(z1) == Place.HIDDEN:
                    hidden.add(card)
                if i >= start:
                    moves.append((card, z0, z1, named))
        return self.said(moves, skip_own)

    def instructions_between(self, now: State[Any], then: State[Any]) -> list[str]:
        """What to move back on the table to return from ``now`` to ``then`` (an undo)."""
        return self.moves_words(now, then, skip_own=False, named=set())

    def moves_words(self, before: State[Any], after: State[Any], skip_own: bool,
                    named: set[str] | None = None) -> list[str]:
        """Each card that changed place, in words: by its id and name where the program knows it, or knew it before
        the move (``named``: by default the cards known before the last move; a card the program fetches for the
        person from a pile it keeps goes face down into theirs)."""
        before_known = self.was_known if named is None else named
        return self.said([(card, z0, z1, card in self.known or card in before_known)
                          for card, z0, z1 in zones_moved(before, after)], skip_own)

    def said(self, moves: Sequence[tuple[str, str, str, bool]], skip_own: bool) -> list[str]:
        """Cards' moves (card, from zone, to zone, whether it is named) in words, one line for the cards that go
        together from one place to another (none where the program keeps both places, or where the person takes
        their own cards, with ``skip_own``)."""
        groups: list[tuple[str, str, bool, list[str]]] = []
        for card, z0, z1, named in moves:
            p0, p1 = self.place(z0), self.place(z1)
            if p0 == Place.KEPT and p1 == Place.KEPT:
                continue
            if skip_own and p0 != Place.KEPT and p1 == Place.PERSON:
                continue  # the person takes their own cards
            src, dst = self.policy.name(z0, self.person), self.policy.name(z1, self.person)
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

    # -- the game -----------------------------------------------------------------------------------------------
    def start(self, table: Table) -> None:
        """The set-up, then the cards it brings to light entered (an automaton's open hand, the first cards turned
        face up)."""
        table.tell(self.policy.setup(self.belief, self.person))
        for _ in range(len(self.instances) + 1):
            learn = self.to_learn(self.belief)
            if not learn:
                break
            card = learn[0]
            zone = zone_of(self.belief)[card]
            cards = self.belief.zones()[zone]
            nth = f"card {len([c for c in cards if c in self.known]) + 1} of {len(cards)} in " if len(cards) > 1 \
                else "the card in "
            prompt = f"Set-up: {nth}{self.policy.name(zone, self.person)}: which card is it?"
            ask = Ask(Action("setup"), -1, card=card, zone=zone, index=self.belief.zones()[zone].index(card))

            def ok(x: str, card: str = card) -> str:
                if x in self.known:
                    return "the program knows where that card is"
                if not self.interchangeable(x, card):
                    return "it cannot be there"
                if not self.exchange(card, x, views=False):
                    return "that card cannot be there"
                return ""

            got = self.enter_card(table, prompt, ask, ok)
            self.known.add(got)
            table.tell([f"{self.label(got)}: in {self.policy.name(zone, self.person)}."])
        table.tell(self.new_log())

    def play(self, table: Table) -> None:
        """Play to the end of the game (or until the person stops: :class:`Stop`)."""
        while not self.belief.is_terminal():
            self.step(table)

    def step(self, table: Table) -> None:
        """One move: an automaton's, or the person's decision (none when the person typed a command instead)."""
        seat = self.belief.current_player
        legal = self.belief.legal_actions()
        if seat != self.person:
            agent = self.agents[seat]
            assert agent is not None
            self.commit(legal[0] if len(legal) == 1 else agent.choose(self.belief, seat), seat, table)
        elif not self.person_move(legal, table):
            return
        # the cards moved since the belief just before the move, the person's cards brought in
        table.tell(self.new_log() + self.instructions(self.prior, seat))

    def arrangements(self) -> list[tuple[State[Any], list[tuple[str, str]]]]:
        """The belief with the person's unknown cards lying otherwise, as the policy proposes (a hand with no card of
        a kind, or with one), and the exchanges that make it: only relabellings of cards the program does not know
        that no automaton can tell."""
        if self.policy.arrangements is None:
            return []
        out = []
        for pairs in self.policy.arrangements(self.belief, self.person, frozenset(self.known)):
            if not pairs or any(x in self.known or pairs.get(y) != x or not self.interchangeable(x, y)
                                for x, y in pairs.items()):
                continue
            alt = relabel(self.belief, pairs)
            if same_view(self.belief, alt, self.autos):
                out.append((alt, [(x, y) for x, y in sorted(pairs.items()) if x < y]))
        return out

    def person_move(self, legal: Sequence[Action], table: Table) -> bool:
        """The person's decision; False when a command was typed instead (asked again). Where the moves depend on
        cards the program does not know, the moves of other arrangements of them are offered too (the person's
        real cards allow one of them); the one chosen is taken as how they lie."""
        shown, typed = self.options(legal)
        here = self.belief
        keys = {self.option_key(a) for a, _ in shown}
        Way = tuple[State[Any], list[tuple[str, str]]]  # an arrangement: the belief, and the exchanges that make it
        other: list[tuple[Action, str, Way]] = []  # (move, words, the arrangement it needs)
        typed_in: list[tuple[Way, list[Action]]] = [((here, []), typed)] if typed else []
        for way in self.arrangements():
            self.belief = way[0]
            try:
                offered, offered_typed = self.options(way[0].legal_actions())
                for a, text in offered:
                    if self.option_key(a) not in keys:
                        keys.add(self.option_key(a))
                        other.append((a, text, way))
                if offered_typed:
                    typed_in.append((way, offered_typed))
            finally:
                self.belief = here
        if len(shown) == 1 and not typed_in and not other and not self.secret_cards(shown[0][0]):
            self.commit(shown[0][0], self.person, table)
            return True
        hint = None if not typed_in else "or type the id or name of the card you play"
        every = shown + [(a, t) for a, t, _ in other]
        entry = table.decide(self.belief.question(), [t for _, t in every], [a for a, _ in every], hint)
        if entry is None:
            raise Stop
        if entry.kind == "option" and 0 <= entry.index < len(every):
            if entry.index >= len(shown):
                self.belief, swaps = other[entry.index - len(shown)][2]
                self.swaps.extend(swaps)
            self.commit(every[entry.index][0], self.person, table)
            return True
        if entry.kind == "cards" and typed_in:
            acts: list[Action] = []
            part = False  # the cards typed are part of a move (not all of its cards)
            for i, ((where, swaps), typed) in enumerate(typed_in):  # as the cards lie, else as another has them
                known, done = set(self.known), len(self.swaps)
                self.belief = where
                self.swaps.extend(swaps)
                found = self.bring_in(entry.cards, typed, table, quiet=i + 1 < len(typed_in))
                acts = [a for a in found if not self.secret_cards(a)]  # (none that plays a card they did not type)
                part = part or bool(found)
                if acts:
                    break
                self.belief, self.known = here, known
                del self.swaps[done:]
            if not acts and part:
                table.tell(["Type every card you play, separated by commas."])
            if len(acts) == 1:
                self.commit(acts[0], self.person, table)
                return True
            if len(acts) > 1:
                more = table.decide(self.belief.question(), [self.belief.describe(a) for a in acts], acts, None)
                if more is None:
                    raise Stop
                if more.kind == "option" and 0 <= more.index < len(acts):
                    self.commit(acts[more.index], self.person, table)
                    return True
        return False

    def outcome_words(self) -> str:
        o = self.belief.outcome()
        if o is None:
            return ""
        mine = "You win" if o.winners == (self.person,) else ("A shared result" if self.person in o.winners
                                                             else "You lose")
        return f"Game over. {o.reason}. {mine}."


def table_state(engine: Engine, policy: TablePolicy, players: int, seed: int, variant: str, person: int) -> State[Any]:
    """A new game for the table: the policy's, where the rules run otherwise with the person's cards on a real
    table, else the engine's."""
    if policy.new_state is not None:
        state: State[Any] = policy.new_state(engine, players, seed, variant, person)
        return state
    return engine.new_state(players, seed, variant)


def parse_cards(text: str) -> tuple[str, ...]:
    """Typed card ids or names: separated by commas, or by spaces when each word is an id."""
    if "," in text:
        return tuple(p.strip() for p in text.split(",") if p.strip())
    words = text.split()
    return tuple(words) if words and all(any(ch.isdigit() for ch in w) for w in words) else (text.strip(),)
