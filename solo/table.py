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
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from wizprint.errors import EngineError, UsageError, quote

from .agents import Agent, make_agent
from .kernel import Action, Engine, State, design_of, line_text
from .kernel.rng import derive
from .kernel.stack import WATCH
from .kernel.state import ChanceNeeded
from .kernel.table import (
    Place,
    TablePolicy,
    cards_in,
    made,
    relabel,
    same_view,
    seen_by,
    swap_places,
    zone_of,
    zones_moved,
)
from .tableparts import (
    Ask,
    Entry,
    Halt,
    Mixing,
    Stop,
    Table,
    TableError,
    follow,
    halted,
    ordinal,
    parse_cards,
    place_in,
    reachable,
    sentence,
    shuffled_on_table,
    table_state,
)
from .tabletell import Telling

__all__ = ["DICE", "Ask", "Entry", "Halt", "Mixing", "Stop", "Table", "TableError", "TableGame", "follow", "halted",
           "parse_cards", "reachable", "table_state"]
DICE = ("physical", "app")
MAX_ENTRIES = 500  # entries asked for one move before it is an error (a move that cannot settle)



@dataclass
class TableGame(Telling):
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
        if self.dice not in DICE:
            raise UsageError(f"--dice must be {' or '.join(DICE)}, not {quote(self.dice, 20)}")
        self.autos = [s for s in range(self.belief.players) if s != self.person]
        self.prior: State[Any] = self.belief  # the belief just before the last move committed
        self.places: dict[str, Place] = {}
        self.zoned: tuple[Any, dict[str, str]] = (None, {})  # (the belief, each card's zone in it)
        self.public: tuple[int, list[str], Any] = (0, [], None)  # log entries read, the public lines, the last read
        self.swaps: list[tuple[str, str]] = []  # the exchanges made, in order (an undo's words relabel by them)
        self.known_before: set[str] = set()  # the cards known before the last move (one it shuffles away is named)
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
        copies = sorted((x for x in self.instances if "#" in x), key=len, reverse=True)  # (D01#3: printed D01)
        self.copies = re.compile("|".join(rf"(?<![A-Za-z0-9#]){re.escape(x)}(?![A-Za-z0-9#])" for x in copies)) \
            if copies else None
        if not self.known:
            self.known = {c for c, z in zone_of(self.belief).items() if self.place(z) == Place.KEPT}
            if self.policy.laid_out is not None:
                self.known |= self.policy.laid_out(self.belief, self.person)
            self.known -= self.in_arranged(self.belief)
        self.shown: dict[str, str] | None = None  # where the cards were when the person was last told (in a move)
        self.ruled = False  # the move's own card moves told: what moved since, the rules moved
        self.hid: set[str] = set()  # the cards the program knew that went face down into a pile in the last move
        self.was_known: set[str] = set()  # the cards the program knew when the last move began

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

    def arranged(self, zone: str) -> bool:
        """A zone of the person's whose cards they order and swap among each other in secret (the program never
        knows where a card lies among them)."""
        return self.policy.arranged is not None and self.policy.arranged(zone, self.person)

    def in_arranged(self, state: State[Any]) -> set[str]:
        return {c for c, z in zone_of(state).items() if self.arranged(z)}

    def label(self, card: str) -> str:
        if self.policy.label is not None:
            return self.policy.label(self.belief, card)
        return f"{design_of(card)} {self.names[card]}"

    def interchangeable(self, x: str, y: str) -> bool:
        """Two cards that could lie in each other's places on the table: the same deck and, where each copy has its
        own back, the same copy."""
        return self.home[x] == self.home[y]

    def exchange(self, x: str, y: str, views: bool = True) -> bool:
        """Put card ``y`` where the belief has ``x`` when no automaton seat can tell: relabel the two (neither
        known, the same kind of card, and every automaton's view the same after; ``views=False``: at the set-up,
        before any automaton has decided anything); or, among the person's arranged zones, move the cards (what
        the automaton saw of each card stays with it), the belief still a position the rules can reach. Returns
        whether it was done."""
        if x == y:
            return True
        if x in self.known or y in self.known or not self.interchangeable(x, y):
            return False
        # an automaton's view may hold a card it cannot place (among the person's arranged cards): its identity
        # stays with what was seen of it, which a relabel would move to the other card
        seen = seen_by(self.belief, self.autos) if views and self.policy.arranged is not None else set()
        if x not in seen and y not in seen:
            new = relabel(self.belief, {x: y, y: x})
            if not views or same_view(self.belief, new, self.autos):
                self.belief = new
                self.told_places([(x, y)])
                return True
        mine = self.in_arranged(self.belief)
        if x not in mine or y not in mine:
            return False
        tries = [(swap_places(self.belief, x, y), [(x, y)])]
        # or x to a third card's place, and that card to y's
        tries += ((swap_places(swap_places(self.belief, x, u), u, y), [(x, u), (u, y)])
                  for u in sorted(mine - self.known - {x, y}) if self.interchangeable(u, y))
        for new, pairs in tries:
            if same_view(self.belief, new, self.autos) and reachable(new):
                self.belief = new
                self.told_places(pairs)
                return True
        return False

    def told_places(self, pairs: Sequence[tuple[str, str]]) -> None:
        """The places told in the middle of a move, and the move being made (:func:`follow`), follow the cards the
        belief exchanged (each pair in turn: the second card is now where the first was)."""
        self.swaps.extend(pairs)
        if self.shown is not None:
            for a, b in pairs:
                self.shown[a], self.shown[b] = self.shown[b], self.shown[a]

    def person_view(self) -> dict[str, Any]:
        """The person's observation as far as the program knows it (what ``look`` reads): a card of theirs whose
        place the program does not know is left out of it, but where an automaton's observation says the same."""
        hide = {c for c, z in zone_of(self.belief).items() if self.place(z) == Place.PERSON and c not in self.known}

        def strip(v: Any, twin: Any) -> Any:
            if isinstance(v, dict):
                return {k: strip(x, twin.get(k) if isinstance(twin, dict) else None) for k, x in v.items()}
            if isinstance(v, list):
                same = twin if isinstance(twin, list) else []
                return [strip(x, same[i] if i < len(same) else None) for i, x in enumerate(v)
                        if not (isinstance(x, str) and x in hide and x not in same)]
            return v

        out: dict[str, Any] = strip(self.belief.observation(self.person), self.belief.observation(self.autos[0]))
        return out

    def to_learn(self, state: State[Any], mixed: set[str] | frozenset[str] = frozenset()) -> list[str]:
        """The cards of ``state`` an automaton sees, or that lie face up, whose place the program does not know
        (a card in the person's arranged zones is not to learn: the automaton may know it is among them, but
        not where; ``mixed``: cards shuffled on the way there, whose places it knew before)."""
        seen = seen_by(state, self.autos)
        mixed = shuffled_on_table(set(mixed), zone_of(state), self.where(), self.place) if mixed else mixed
        public: set[str] = set()
        for z, cards in state.zones().items():
            if self.place(z) == Place.PUBLIC:
                public.update(cards)
            elif self.policy.arranged is not None and self.arranged(z):
                seen.difference_update(cards)
        return sorted((seen | public) - (self.known - mixed))

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
        named = [x for x in pool if low == self.names[x].casefold()]  # a whole name first ("Mentalist", not
        if not named and len(want) >= 3:  # "Elementalist"), then part of one
            named = [x for x in pool if low in self.names[x].casefold()]
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
    def secret_cards(self, action: Action, state: State[Any] | None = None) -> set[str]:
        """The cards an action names that the program does not know (samples): the person's, or cards of a
        face-down pile the person looks through (a search); in the belief, or in ``state``."""
        zones = self.where() if state is None else zone_of(state)
        return {c for c in cards_in(action.key, self.instances)
                if c not in self.known and self.place(zones.get(c, "")) in (Place.PERSON, Place.HIDDEN)}

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

    def bring_in(self, designs: Sequence[str], typed: Sequence[Action], table: Table,
                 quiet: bool = False) -> list[Action]:
        """The actions that play the cards the person typed: each card is brought where a move of theirs takes it
        from (their secret zone, or a face-down pile they look through) by relabelling it with a sample there (the
        automata cannot tell). Empty when they cannot be played (why, told to the table unless ``quiet``)."""
        chosen: list[str] = []
        before = {a.key for a in self.belief.legal_actions()}
        for text in designs:
            zones = zone_of(self.belief)
            held = {c for c, z in zones.items() if self.place(z) == Place.PERSON}  # (theirs the program knows, too)
            pool = sorted((self.instances - self.known | held) - set(chosen))
            found, why = self.match(text, pool)
            if not found:
                known = self.match(text, sorted(self.instances))[0]
                if not quiet:
                    table.tell([f"{self.label(known[0])} is not one of your secret cards: the program knows where "
                                f"it is." if known else sentence(why)])
                return []
            got = self.place_card(found, chosen, typed, before)
            if got is None:
                if not quiet:
                    table.tell([f"{self.label(found[0])} cannot be played now by typing it: choose a move from the "
                                f"list."])
                return []
            chosen.append(got)
        acts = self.plays(self.belief, chosen, before)
        self.known |= set(chosen)  # the person said where these are
        if not acts:
            table.tell([f"{', '.join(self.label(c) for c in chosen)}: not playable now."])
        return acts

    def plays(self, state: State[Any], chosen: Sequence[str], before: set[str]) -> list[Action]:
        """The moves of ``state`` that play the cards ``chosen``: those naming them all, or, for a move taking a
        card of a kind unnamed (one chosen card in the person's zone), the new moves naming no secret card."""
        legal = state.legal_actions()
        named = [a for a in legal if set(chosen) <= cards_in(a.key, self.instances)]
        if named or len(chosen) != 1 or self.place(zone_of(state).get(chosen[0], "")) != Place.PERSON:
            return named
        return [a for a in legal if a.key not in before and not self.secret_cards(a, state)]

    def place_card(self, found: Sequence[str], chosen: Sequence[str], typed: Sequence[Action],
                   before: set[str]) -> str | None:
        """One of the instances ``found`` (unknown), brought where a move plays it with the cards ``chosen`` before
        it: in the person's secret zones, else in a face-down pile (a search): where it is, or exchanged with a
        sample there (those the listed moves name first). None when no place lets it be played."""
        for where in (Place.PERSON, Place.HIDDEN):
            zones = zone_of(self.belief)
            for x in found:
                if self.place(zones.get(x, "")) == where and self.plays(self.belief, [*chosen, x], before):
                    return x
            samples = [c for a in typed for c in sorted(self.secret_cards(a)) if self.place(zones[c]) == where]
            samples += sorted(c for c, z in zones.items() if self.place(z) == where and c not in self.known)
            for x in found:
                for smp in dict.fromkeys(samples):
                    if smp in chosen or smp == x or {smp, x} & self.known or not self.interchangeable(smp, x):
                        continue
                    if self.arranged(zones.get(smp, "")) or self.arranged(zones.get(x, "")):  # (moved, not relabelled)
                        if self.exchange(smp, x) and self.plays(self.belief, [*chosen, x], before):
                            return x
                        zones = zone_of(self.belief)
                        continue
                    trial = relabel(self.belief, {smp: x, x: smp})
                    if self.plays(trial, [*chosen, x], before) and same_view(self.belief, trial, self.autos):
                        self.belief = trial
                        self.told_places([(smp, x)])
                        return x
        return None

    # -- a move, with what the table must tell the program ---------------------------------------------------------
    def commit(self, action: Action, by: int, table: Table) -> None:
        """Play ``action`` on the belief: the dice and random picks from the table (or the program, ``--dice
        app``), and every card the move brings to light entered by the person and relabelled in, one at a time
        in the order they come to light. In a game that runs its rules one piece of pending work at a time, the
        person is told what happens as it happens; the move stops where a card comes to light, and is made again
        with it."""
        dice: list[int] = []
        picks: list[str] = []
        swaps: dict[str, str] = {}  # cards drawn from a pile the move shuffles, in place of the program's
        named: set[str] = set()  # the cards so drawn
        mixing = Mixing(0, swaps)
        if self.shown is None:
            self.shown = zone_of(self.belief)
            self.hid = set()
            self.was_known = set(self.known)
        steps = 0
        clean = 0  # the pieces of pending work begun before which nothing came to light (the same on every try)
        passed: set[str] = set()  # the cards seen in a face-down pile in the move (once shuffled, who knows where)
        settled: set[str] = set()  # the cards taken in secret whose place on the table is settled

        def watch(state: State[Any]) -> None:
            nonlocal steps, clean
            steps += 1
            if steps <= clean:
                return
            # (a card shown while still in the person's hand, as a card laid face down is once every seat has
            # chosen, is asked where it goes: a hand has no order)
            zones = zone_of(state)
            fresh = [c for c in self.to_learn(state, mixing.mixed)
                     if c not in picks and c not in named and self.place(zones[c]) != Place.PERSON]
            if fresh:
                raise Halt(steps, self.in_order(state, fresh))
            passed.update(c for c, z in zones.items() if self.place(z) == Place.HIDDEN)
            if len(zones) < len(self.instances):
                return  # (in the middle of a piece, cards in hand between two places: told when they land)
            clean = steps
            self.tell_step(state, by, steps == 1, table)

        mark = len(self.swaps)
        for _ in range(MAX_ENTRIES):
            action = follow(action, self.swaps[mark:])  # a sample the move names may have moved
            mark = len(self.swaps)
            trial = self.belief.clone()
            trial.rng = mixing = Mixing(trial.rng.state, swaps)
            trial.script(dice=dice, picks=picks, strict=True)
            steps = 0
            token = WATCH.set(watch)
            try:
                trial.apply(action)
            except Halt as halt:
                first = halt.cards[0]
                ask = Ask(action, by, tuple(dice), tuple(picks), steps=halt.steps)
                if first in mixing.mixed:
                    got = self.turn_shuffled(first, trial, mixing, ask, table)
                    named.add(got)
                else:
                    got = self.reveal(first, trial, ask, table)
                if self.shown is not None:  # the prompt said where it goes: the pieces told after go on from there
                    self.shown[got] = zone_of(trial)[first]
                continue
            except ChanceNeeded as need:
                ask = Ask(action, by, tuple(dice), tuple(picks), options=need.options)
                why = need.what if need.sides and need.what else f"P{by + 1}: {self.belief.describe(action)}"
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
            finally:
                WATCH.reset(token)
            learn = self.to_learn(trial, mixing.mixed)
            fresh = [c for c in learn if c not in picks and c not in named]
            secret = self.taken_in_secret(trial, settled)
            if not fresh and not secret:
                break
            card = self.first_drawn(fresh + secret, trial, mixing)
            ask = Ask(action, by, tuple(dice), tuple(picks))
            if card not in settled and self.secret_fate(card, trial, ask, settled, set(learn) - {card}, table):
                continue
            if card in mixing.mixed:
                named.add(self.turn_shuffled(card, trial, mixing, ask, table))
            elif card in fresh:
                self.reveal(card, trial, ask, table)
        else:
            raise EngineError("a move could not be settled with the table")
        self.known_before = set(self.known)
        moves = zones_moved(self.belief, trial)
        for card, _z0, z1 in moves:
            if self.place(z1) == Place.HIDDEN:
                self.known.discard(card)  # shuffled into a face-down pile: its place is unknown again
        # (shuffled on the table: where each lies is unknown, but for those turned up)
        self.known -= shuffled_on_table(mixing.mixed, zone_of(trial), self.where(), self.place)
        # a card that comes into the person's secret cards in a move, or is shown in it and ends there, unseen by
        # the automata, may have come through a face-down pile (their deck, shuffled, drawn from): unknown again
        seen, before, learned = seen_by(trial, self.autos), zone_of(self.belief), self.known - self.was_known
        for card, z in zone_of(trial).items():
            if self.place(z) == Place.PERSON and card not in seen and (
                    card in learned or card in passed or self.place(before.get(card, "")) != Place.PERSON):
                self.known.discard(card)
        self.known |= set(learn) | set(picks)
        self.known -= self.in_arranged(trial)
        prior, self.belief = self.belief, trial
        self.prior = prior
        table.moved(action, by, dice, picks, prior)

    def taken_in_secret(self, trial: State[Any], settled: set[str]) -> list[str]:
        """The cards the move takes in secret from a pile whose cards land by what they are, not yet settled."""
        before = self.where()
        return [c for z, cards in trial.zones().items() if self.place(z) == Place.PERSON for c in cards
                if c not in self.known and c not in settled and self.by_face(before.get(c, ""))]

    def by_face(self, zone: str) -> bool:
        return self.policy.by_face is not None and self.place(zone) == Place.HIDDEN and self.policy.by_face(
            zone, self.person)

    def secret_fate(self, card: str, trial: State[Any], ask: Ask, settled: set[str], learn: set[str],
                    table: Table) -> bool:
        """A card the person takes from a pile whose cards land by what they are (``TablePolicy.by_face``): when it
        may land among their secret cards, they say where it went, not naming it (or name it, if that is not all the
        automata would see). ``settled``: the cards whose place is settled (``card`` joins them); ``learn``: the
        others the move brings to light. True when the belief changed (the move is then made again)."""
        before, after = self.where(), zone_of(trial)
        if not self.by_face(before.get(card, "")) or not (
                self.place(after[card]) == Place.PERSON or after[card].endswith(f".{self.person}")):
            return False
        settled.add(card)
        base = self.auto_views(trial)
        fates: dict[str, list[tuple[str, str]]] = {after[card]: [(card, base)]}  # zone -> [(card, automata's views)]
        designs = {design_of(card)}
        for y in sorted(self.instances - self.known - settled - learn):
            if design_of(y) in designs or not self.interchangeable(card, y):
                continue
            designs.add(design_of(y))
            # (two unknown cards: no automaton can tell them apart)
            alt, more = made(relabel(self.belief, {card: y, y: card}), ask.action, ask.dice, ask.picks)
            fates.setdefault(zone_of(alt)[y], []).append((y, f"by chance, {y}" if more else self.auto_views(alt)))
        if all(self.place(z) != Place.PERSON for z in fates):
            return False  # wherever it lands, it is seen: the person names it
        if len(fates) == 1 and all(v == base for _, v in fates[after[card]]):
            return False  # every card would do the same
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

    def first_drawn(self, cards: Sequence[str], trial: State[Any], mixing: Mixing | None = None) -> str:
        """Of the cards a move brings to light or takes in secret, the one to ask first: the first the move's log
        mentions (a draw is said as it happens), then the one nearest the top of a face-down pile (of a pile the
        move shuffled, the first drawn from it)."""
        zones = self.belief.zones()
        where = self.where()
        said: dict[str, int] = {}
        for i, e in enumerate(trial.log[len(self.belief.log):]):
            for c in cards_in(line_text(e), self.instances):
                said.setdefault(c, i)

        def order(c: str) -> tuple[int, int]:
            z = where.get(c, "")
            if mixing is not None and c in mixing.rank:
                return said.get(c, len(trial.log)), mixing.rank[c]
            return said.get(c, len(trial.log)), -zones[z].index(c) if z and self.place(z) == Place.HIDDEN else 0

        return min(cards, key=order)

    def reveal(self, card: str, trial: State[Any], ask: Ask, table: Table) -> str:
        """A sampled card the move brings to light: the person says which card it is on the table, and the belief
        takes it in (before the move, so the move is made again with it). Returns the card entered."""
        z0 = (self.shown or zone_of(self.belief)).get(card, "")
        z1 = zone_of(trial)[card]
        src, dst = self.policy.name(z0, self.person), self.policy.name(z1, self.person)
        if z0 == z1 and self.place(z0) == Place.HIDDEN:
            n = len(trial.zones()[z1]) - trial.zones()[z1].index(card)
            nth = "top card" if n == 1 else f"{ordinal(n)} card from the top"
            prompt = f"Look at the {nth} of {src}: which card is it?"
        elif z0 == z1:
            prompt = f"Show a card of {src} (one not shown yet): which card is it?"
        elif self.place(z0) == Place.HIDDEN:  # (where it goes may depend on which card it is: said after the move)
            prompt = f"Turn over the top card of {src} for {dst}: which card is it?"
        else:
            prompt = f"The card from {src} goes to {dst}: which card is it?"
        prompt = self.context(ask) + prompt
        where = Ask(ask.action, ask.by, ask.dice, ask.picks, card, z1, trial.zones()[z1].index(card), steps=ask.steps,
                    source=z0, source_index=place_in(self.belief, z0, card))

        def ok(x: str) -> str:
            if x in self.known:
                return "the program knows where that card is"
            if not self.interchangeable(x, card):
                return "it cannot come from there"
            if not self.takes(ask.action, card, x):
                return "this move cannot take it" + (" (type 'undo' to take back your choice)"
                                                     if ask.by == self.person else "")
            old, mark, shown = self.belief, len(self.swaps), dict(self.shown or {})
            if not self.exchange(card, x):
                return "that card cannot be there, by what the automaton has seen"
            why = self.refused(follow(ask.action, self.swaps[mark:]), ask)
            if why:  # (taken back)
                self.belief, self.shown = old, (shown if self.shown is not None else None)
                del self.swaps[mark:]
            return why

        got = self.enter_card(table, prompt, where, ok)
        self.known.add(got)
        self.hid.discard(got)
        return got

    def takes(self, action: Action, card: str, x: str) -> bool:
        """Whether ``action`` can be made with card ``x`` where the program's ``card`` lies (a Wizards Duel)."""
        if card == x:
            return True
        moved = follow(action, [(card, x)])  # (a move that names the card names the other one once relabelled)
        return moved.key in {a.key for a in relabel(self.belief, {card: x, x: card}).legal_actions()}

    def turn_shuffled(self, card: str, trial: State[Any], mixing: Mixing, ask: Ask, table: Table) -> str:
        """A card the move draws from a pile it shuffled first: the person says which card it is (returned), and
        the move is made again with that card in its place in the shuffled pile (the shuffle is the person's, as a
        die is); a card the program did not know is relabelled into the pile first."""
        zones = zone_of(trial)
        piles = [zones[c] for c in mixing.mixed if c in zones and self.place(zones[c]) == Place.HIDDEN]
        pile = self.policy.name(max(set(piles), key=piles.count), self.person) if piles else "the pile"
        dst = self.policy.name(zones[card], self.person)
        prompt = self.context(ask) + f"{pile[:1].upper()}{pile[1:]} is shuffled: turn over its top card for {dst}: " \
            f"which card is it?"
        z0 = zone_of(self.belief).get(card, "")
        where = Ask(ask.action, ask.by, ask.dice, ask.picks, card, zones[card], trial.zones()[zones[card]].index(card),
                    steps=ask.steps, source=z0, source_index=place_in(self.belief, z0, card))

        def ok(x: str) -> str:
            if x != card and x not in mixing.swaps.values() and card not in self.known and \
                    self.takes(ask.action, card, x) and self.exchange(card, x):
                return ""  # (where the program's card was before the shuffle)
            return mixing.drawn(card, x, self.known, self.exchange)

        got = self.enter_card(table, prompt, where, ok)
        self.known.add(got)
        self.hid.discard(got)
        return got

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

    def said_in_secret(self, legal: Sequence[Action]) -> dict[Action, str]:
        """The moves the game's policy says the person makes in secret, with their words ("": a step of a secret
        move already said)."""
        if self.policy.secret is None:
            return {}
        words = {a: self.policy.secret(self.belief, a, self.person) for a in legal}
        return {a: w for a, w in words.items() if w is not None}

    def continue_secret(self, table: Table) -> None:
        """The steps of a secret move already said, made on the belief without asking (the person does the whole
        move on the table at once; the program's cards for it are samples)."""
        for _ in range(MAX_ENTRIES):
            if self.belief.is_terminal() or self.belief.current_player != self.person:
                return
            legal = self.belief.legal_actions()
            said = self.said_in_secret(legal)
            if len(said) != len(legal) or any(said.values()):
                return
            self.commit(legal[0], self.person, table)
        raise EngineError("a secret move did not end")

    def offered(self, legal: Sequence[Action]) -> tuple[list[tuple[Action, str]], list[Action], dict[Action, str]]:
        """The options listed at the person's decision (with the moves the policy says are made in secret, one for
        each of their words), the moves played by typing cards, and the moves said in secret."""
        said = self.said_in_secret(legal)
        shown, typed = self.options([a for a in legal if a not in said])
        for words in dict.fromkeys(w for w in said.values() if w):
            shown.append((next(a for a, w in said.items() if w == words), f"{words} (in secret)"))
        return shown, typed, said

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
        cards the program does not know, the moves of other arrangements of them (the policy's) are offered too:
        the person's real cards allow one of them, and the one chosen is taken as how they lie."""
        said = self.said_in_secret(legal)
        if said and len(said) == len(legal) and not any(said.values()):
            self.continue_secret(table)  # (a session saved in the middle of a secret move)
            return True
        shown, typed, said = self.offered(legal)
        here = self.belief
        texts = {t for _, t in shown}
        Way = tuple[State[Any], list[tuple[str, str]]]  # an arrangement: the belief, and the exchanges that make it
        other: list[tuple[Action, str, Way]] = []  # the options only another arrangement offers
        typed_in: list[tuple[Way, list[Action]]] = [((here, []), typed)] if typed else []
        for way in self.arrangements():
            self.belief = way[0]
            try:
                offers, offers_typed, _ = self.offered(way[0].legal_actions())
            finally:
                self.belief = here
            for a, t in offers:
                if t not in texts:
                    texts.add(t)
                    other.append((a, t, way))
            if offers_typed:
                typed_in.append((way, offers_typed))
        free = not typed_in and self.policy.may_play is not None and self.policy.may_play(self.belief, self.person)
        if len(shown) == 1 and not typed_in and not other and not free and not self.secret_cards(shown[0][0]) \
                and not said:
            self.commit(shown[0][0], self.person, table)
            return True
        every = shown + [(a, t) for a, t, _ in other]
        hint = None if not typed_in and not free else "or type the id or name of the card you play"
        ask = self.policy.question(self.belief, self.person) if self.policy.question is not None else None
        entry = table.decide(ask or self.belief.question(), [t for _, t in every], [a for a, _ in every], hint)
        if entry is None:
            raise Stop
        if entry.kind == "option" and 0 <= entry.index < len(every):
            if entry.index >= len(shown):  # the cards lie as that arrangement has them
                self.belief, swaps = other[entry.index - len(shown)][2]
                self.told_places(swaps)
            self.commit(every[entry.index][0], self.person, table)
            self.continue_secret(table)
            return True
        if entry.kind == "cards" and (typed_in or free):
            acts: list[Action] = []
            if not typed_in:  # (a card the samples do not show, in a window of play the policy says is open)
                typed_in = [((here, []), typed)]
            part = False  # the cards typed are part of a move (not all of its cards)
            for i, ((where, swaps), cards) in enumerate(typed_in):  # as the cards lie, else as another has them
                known, mark = set(self.known), len(self.swaps)
                self.belief = where
                self.told_places(swaps)
                found = self.bring_in(entry.cards, cards, table, quiet=i + 1 < len(typed_in))
                acts = [a for a in found if not self.secret_cards(a)]  # (none that plays a card they did not type)
                part = part or bool(found)
                if acts:
                    break
                self.belief, self.known = here, known
                del self.swaps[mark:]
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
