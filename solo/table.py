"""``wizprint solo table``: the printed cards on a real table, the program keeping the state and running the
automaton's seats (see :mod:`wizprint.solo.kernel.table` for the belief and its honesty).

The program speaks in terms of the printed components (ids and names) and asks the person only for what happened
on the table: the cards they play or reveal, the cards turned from shared piles, dice (``--dice physical``: the
person rolls and enters; ``app``: the program rolls and says the result) and their choices.

:class:`TableGame` is the driver; it talks to the person through a :class:`Table`: the terminal's, or a simulated
table in the tests, which owns a shuffled physical copy of the components.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from wizprint.errors import EngineError, UsageError, WizprintError, quote

from .agents import Agent, make_agent
from .kernel import Action, Engine, State, design_of, line_text, readable
from .kernel.rng import derive
from .kernel.state import ChanceNeeded
from .kernel.table import Place, TablePolicy, cards_in, relabel, same_view, seen_by, zone_of, zones_moved

DICE = ("physical", "app")
MAX_ENTRIES = 500  # entries asked for one move before it is an error (a move that cannot settle)


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
    sample in the belief and where it lands (zone and index); for a random pick, the options."""

    action: Action
    by: int
    dice: tuple[int, ...] = ()
    picks: tuple[str, ...] = ()
    card: str = ""
    zone: str = ""
    index: int = -1
    options: tuple[str, ...] = ()


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
        """What happened on the table, of ``options`` (0-based): a card the person took in secret, where the rules
        sent it (``ask``: the card's sample, the pile and place it was taken from, and in ``options`` the zones it
        may go to). None: the session ends."""

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

    def __post_init__(self) -> None:
        self.places: dict[str, Place] = {}
        self.swaps: list[tuple[str, str]] = []  # the exchanges made in the belief, in order (an undo replays them)
        self.prior: State[Any] = self.belief  # the belief before the last move (its cards as entered for it)
        self.zoned: tuple[Any, dict[str, str]] = (None, {})  # (the belief, each card's zone in it)
        self.public: tuple[int, list[str], Any] = (0, [], None)  # log entries read, the public lines, the last read
        if self.dice not in DICE:
            raise UsageError(f"--dice must be {' or '.join(DICE)}, not {quote(self.dice, 20)}")
        self.autos = [s for s in range(self.belief.players) if s != self.person]
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
    def where(self) -> dict[str, str]:
        """Each card's zone in the belief (kept while the belief is the same object: the driver never changes a
        belief in place, it replaces it)."""
        if self.zoned[0] is not self.belief:
            self.zoned = (self.belief, zone_of(self.belief))
        return self.zoned[1]

    def place(self, zone: str) -> Place:
        got = self.places.get(zone)
        if got is None:
            got = self.places[zone] = self.policy.place(zone, self.person)
        return got

    def label(self, card: str) -> str:
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
        public = seen_by(state, self.autos)
        for z, cards in state.zones().items():
            if self.place(z) == Place.PUBLIC:
                public.update(cards)
        return sorted(public - self.known)

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
                table.tell([why[0].upper() + why[1:] + ("" if why.endswith("?") else ".")])
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
        zones = self.where()
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
        by_kind: dict[str, list[Action]] = {}
        for a in legal:
            if self.secret_cards(a):
                by_kind.setdefault(a.kind, []).append(a)
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
                shown.append((acts[0], f"{self.secret_words(acts[0])} (in secret: you say which cards when they "
                                       f"are revealed)"))
            else:
                typed.extend(acts)
        return shown, typed

    def secret_words(self, action: Action) -> str:
        """An action taken in secret, in words, without the sample's cards."""
        text = self.belief.describe(action)
        for c in self.secret_cards(action):
            text = text.replace(self.label(c), "a card").replace(self.names[c], "a card").replace(c, "a card")
        return text

    def bring_in(self, designs: Sequence[str], typed: Sequence[Action], table: Table) -> list[Action]:
        """The actions that play the cards the person typed: each card is brought into the person's secret zone by
        relabelling it with a sample there (the automata cannot tell). Empty when they cannot be played."""
        chosen: list[str] = []
        zones = zone_of(self.belief)
        person_zones = {z for z in zones.values() if self.place(z) == Place.PERSON}
        for text in designs:
            zones = zone_of(self.belief)
            pool = sorted(self.instances - self.known - set(chosen))
            found, why = self.match(text, pool)
            if not found:
                known = self.match(text, sorted(self.instances))[0]
                table.tell([f"{self.label(known[0])} is not one of your secret cards: the program knows where it "
                            f"is." if known else why[0].upper() + why[1:] + "."])
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
                table.tell([f"{self.label(found[0])} cannot be in your hand now."])
                return []
            chosen.append(got)
            self.known.add(got)
        self.known |= set(chosen)  # the person said these are in their hand
        acts = [a for a in self.belief.legal_actions() if set(chosen) <= cards_in(a.key, self.instances)]
        if not acts:
            table.tell([f"{', '.join(self.label(c) for c in chosen)}: not playable now."])
        return acts

    # -- a move, with what the table must tell the program ---------------------------------------------------------
    def commit(self, action: Action, by: int, table: Table) -> None:
        """Play ``action`` on the belief: the dice and random picks from the table (or the program, ``--dice
        app``), and every card the move brings to light entered by the person and relabelled in."""
        dice: list[int] = []
        picks: list[str] = []
        settled: set[str] = set()  # cards taken in secret whose fate is settled
        for _ in range(MAX_ENTRIES):
            trial = self.belief.clone()
            trial.script(dice=dice, picks=picks, strict=True)
            try:
                trial.apply(action)
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
            learn = self.to_learn(trial)
            fresh = [c for c in learn if c not in picks]
            secret = self.taken_in_secret(trial, settled)
            if not fresh and not secret:
                break
            card = self.first_drawn(fresh + secret, trial)
            ask = Ask(action, by, tuple(dice), tuple(picks))
            if card not in settled and self.yours_from_pile(card, trial) and self.secret_fate(
                    card, trial, ask, settled, set(learn) - {card}, table):
                continue
            if card in fresh:
                self.reveal(card, trial, ask, table)
        else:
            raise EngineError("a move could not be settled with the table")
        moves = zones_moved(self.belief, trial)
        for card, _z0, z1 in moves:
            if self.place(z1) == Place.HIDDEN:
                self.known.discard(card)  # shuffled into a face-down pile: its place is unknown again
        self.known |= set(learn) | set(picks)
        prior, self.belief = self.belief, trial
        self.prior = prior
        table.moved(action, by, dice, picks, prior)

    def taken_in_secret(self, trial: State[Any], settled: set[str]) -> list[str]:
        """The cards the move takes from a face-down pile into the person's secret cards (not yet settled)."""
        before = self.where()
        return [c for z, cards in trial.zones().items() if self.place(z) == Place.PERSON for c in cards
                if c not in self.known and c not in settled and self.place(before.get(c, "")) == Place.HIDDEN]

    def yours_from_pile(self, card: str, trial: State[Any]) -> bool:
        """The move takes ``card`` from a face-down pile into the person's cards (secret, or one of the person's
        own zones, which end with their seat: ``corruption_up.0``)."""
        z1 = zone_of(trial)[card]
        return self.place(self.where().get(card, "")) == Place.HIDDEN and (
            self.place(z1) == Place.PERSON or z1.endswith(f".{self.person}"))

    def secret_fate(self, card: str, trial: State[Any], ask: Ask, settled: set[str], learn: set[str],
                    table: Table) -> bool:
        """A card the move takes from a face-down pile into the person's cards, where it lands by what it is (a
        card that activates face up, or lies face down, by its number): the person says where the rules sent it,
        without naming it, when that is all the automata would see (else, when it lands in secret, names it).
        ``settled``: the cards of this move whose fate is settled (``card`` joins them); ``learn``: the others the
        move brings to light. True when the belief changed (the move is then made again)."""
        settled.add(card)
        before, after = self.where(), zone_of(trial)
        base = self.auto_views(trial)
        fates: dict[str, list[tuple[str, str]]] = {after[card]: [(card, base)]}  # zone -> [(card, automata's views)]
        designs = {design_of(card)}
        for y in sorted(self.instances - self.known - settled - learn):
            if design_of(y) in designs or not self.interchangeable(card, y):
                continue
            designs.add(design_of(y))
            alt, views = self.outcome(relabel(self.belief, {card: y, y: card}), ask)  # (two unknown cards: no
            fates.setdefault(zone_of(alt)[y], []).append((y, views or f"by chance, {y}"))  # automaton can tell)
        if len(fates) == 1 and all(v == base for _, v in fates[after[card]]):
            return False  # every card would do the same
        if all(self.place(z) != Place.PERSON for z in fates):
            return False  # wherever it goes, it is seen: the person names it
        zones = sorted(fates)
        zone = zones[0]
        if len(zones) > 1:
            z0 = before[card]
            where = Ask(ask.action, ask.by, ask.dice, ask.picks, card, z0, self.belief.zones()[z0].index(card),
                        tuple(zones))
            k = table.which(f"Take the top card of {self.policy.name(z0, self.person)}: by the rules, where does it "
                            f"go?", [self.policy.name(z, self.person) for z in zones], where)
            if k is None:
                raise Stop
            zone = zones[k] if 0 <= k < len(zones) else zone
        group = fates[zone]
        if self.place(zone) == Place.PERSON and len({v for _, v in group}) > 1:
            self.reveal(card, trial, ask, table)  # where it lies is not enough: the person names it
            return True
        y = group[0][0]
        if y == card:
            return False
        self.exchange(card, y, views=False)
        settled.add(y)
        return True

    def outcome(self, state: State[Any], ask: Ask) -> tuple[State[Any], str]:
        """The move made on ``state`` with the dice and picks given so far, and the automata's views after it; ""
        when it needs more (then made with the first of each, to see where the cards go)."""
        dice, picks = list(ask.dice), list(ask.picks)
        for _ in range(MAX_ENTRIES):
            trial = state.clone()
            trial.script(dice=dice, picks=picks, strict=True)
            try:
                trial.apply(ask.action)
            except ChanceNeeded as need:
                if need.sides:
                    dice.append(1)
                else:
                    picks.append(sorted(need.options)[0])
                continue
            same = len(dice) == len(ask.dice) and len(picks) == len(ask.picks)
            return trial, self.auto_views(trial) if same else ""
        raise EngineError("a move could not be settled")

    def first_drawn(self, cards: Sequence[str], trial: State[Any]) -> str:
        """Of the cards a move brings to light or takes in secret, the one to ask for first, as the person takes them
        one by one: the first the move's log mentions (the engine says each draw as it happens, to someone), then
        the one nearest the top of a face-down pile (the end of its list)."""
        zones = self.belief.zones()
        where = self.where()
        said: dict[str, int] = {}
        for i, e in enumerate(trial.log[len(self.belief.log):]):
            for c in cards_in(line_text(e), self.instances):
                said.setdefault(c, i)

        def order(c: str) -> tuple[int, int]:
            z = where.get(c, "")
            return said.get(c, len(trial.log)), -zones[z].index(c) if z and self.place(z) == Place.HIDDEN else 0

        return min(cards, key=order)

    def reveal(self, card: str, trial: State[Any], ask: Ask, table: Table) -> None:
        """A sampled card the move brings to light: the person says which card it is on the table, and the belief
        takes it in (before the move, so the move is made again with it)."""
        z0 = self.where().get(card, "")
        z1 = zone_of(trial)[card]
        src, dst = self.policy.name(z0, self.person), self.policy.name(z1, self.person)
        if z0 == z1:
            prompt = f"Show the card in {src}: which card is it?"
        elif self.place(z0) == Place.HIDDEN:
            prompt = f"Take the top card of {src} to {dst}: which card is it?"
        else:
            prompt = f"The card from {src} goes to {dst}: which card is it?"
        where = Ask(ask.action, ask.by, ask.dice, ask.picks, card, z1, trial.zones()[z1].index(card))

        def ok(x: str) -> str:
            if x in self.known:
                return "the program knows where that card is"
            if not self.interchangeable(x, card):
                return "it cannot come from there"
            if not self.exchange(card, x):
                return "that card cannot be there, by what the automaton has seen"
            return ""

        got = self.enter_card(table, prompt, where, ok)
        self.known.add(got)

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
        """The log lines every seat may read (kept as they are read: the log only grows, except at an undo)."""
        log = self.belief.log
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
        out = public[self.told:]
        self.told = len(public)
        return out

    def instructions(self, before: State[Any], by: int) -> list[str]:
        """What to do with the components after a move: each card that changed place, in words (``before``: the
        belief just before the move, with the cards entered for it)."""
        who = "You" if by == self.person else f"P{by + 1}"
        return [f"{who}: {line}" for line in self.moves_words(before, self.belief, skip_own=by == self.person)]

    def instructions_between(self, now: State[Any], then: State[Any]) -> list[str]:
        """What to move back on the table to return from ``now`` to ``then`` (an undo)."""
        return self.moves_words(now, then, skip_own=False)

    def moves_words(self, before: State[Any], after: State[Any], skip_own: bool) -> list[str]:
        out = []
        for card, z0, z1 in zones_moved(before, after):
            p0, p1 = self.place(z0), self.place(z1)
            if p0 == Place.KEPT and p1 == Place.KEPT:
                continue
            if skip_own and p0 != Place.KEPT and p1 == Place.PERSON:
                continue  # the person takes their own cards
            what = self.label(card) if card in self.known else "a card"
            out.append(f"{what}, from {self.policy.name(z0, self.person)} to {self.policy.name(z1, self.person)}.")
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
            prompt = f"Set-up: the card in {self.policy.name(zone, self.person)}: which card is it?"
            ask = Ask(Action("setup"), -1, card=card, zone=zone, index=self.belief.zones()[zone].index(card))

            def ok(x: str, card: str = card) -> str:
                if x in self.known:
                    return "the program knows where that card is"
                if not self.interchangeable(x, card):
                    return "it cannot be there"
                if not self.exchange(card, x, views=False):
                    return "that card cannot be there"
                return ""

            self.known.add(self.enter_card(table, prompt, ask, ok))

    def play(self, table: Table) -> None:
        """Play to the end of the game (or until the person stops: :class:`Stop`)."""
        while not self.belief.is_terminal():
            seat = self.belief.current_player
            legal = self.belief.legal_actions()
            if seat != self.person:
                agent = self.agents[seat]
                assert agent is not None
                self.commit(legal[0] if len(legal) == 1 else agent.choose(self.belief, seat), seat, table)
            elif not self.person_move(legal, table):
                continue
            table.tell(self.new_log() + self.instructions(self.prior, seat))

    def person_move(self, legal: Sequence[Action], table: Table) -> bool:
        """The person's decision; False when a command was typed instead (asked again)."""
        shown, typed = self.options(legal)
        free = not typed and self.policy.may_play is not None and self.policy.may_play(self.belief, self.person)
        if len(shown) == 1 and not typed and not free and not self.secret_cards(shown[0][0]):
            self.commit(shown[0][0], self.person, table)
            return True
        hint = None if not typed and not free else "or type the id or name of the card you play"
        entry = table.decide(self.belief.question(), [t for _, t in shown], [a for a, _ in shown], hint)
        if entry is None:
            raise Stop
        if entry.kind == "option" and 0 <= entry.index < len(shown):
            self.commit(shown[entry.index][0], self.person, table)
            return True
        if entry.kind == "cards" and (typed or free):
            acts = self.bring_in(entry.cards, typed, table)
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


def parse_cards(text: str) -> tuple[str, ...]:
    """Typed card ids or names: separated by commas, or by spaces when each word is an id."""
    if "," in text:
        return tuple(p.strip() for p in text.split(",") if p.strip())
    words = text.split()
    return tuple(words) if words and all(any(ch.isdigit() for ch in w) for w in words) else (text.strip(),)
