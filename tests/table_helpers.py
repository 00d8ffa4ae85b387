"""A simulated table for `wizprint solo table`: a person who owns a shuffled physical copy of the printed components
(the *truth*: a full state of the game as it really lies on the table), answers the program's questions from it as a
person would, and never reads the automaton's secret cards.

The program starts from what it can know: the truth with every card it has not been shown put elsewhere among the
cards of its kind (its belief). After every move the simulated table makes the same move on the truth (with the
same dice and picks), and checks that every automaton seat sees the same in the belief and in the truth (copies of a
card, physically the same, are compared by their printed id) and that both logs say the same to everyone: an
automaton that sees the same decides the same."""

from __future__ import annotations

import json
import os
import random
import re
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pexpect
import pyte

from wizprint.solo.agents import RandomAgent, make_agent
from wizprint.solo.kernel import Action, Engine, State, design_of, line_text, readable
from wizprint.solo.kernel.rng import derive
from wizprint.solo.kernel.state import ChanceNeeded
from wizprint.solo.kernel.table import Place, TablePolicy, cards_in, relabel, same_view, seen_by, zone_of, zones_moved
from wizprint.solo.table import Ask, Entry, TableGame, halted, table_state
from wizprint.solo.tableplay import two_steps

COPY = re.compile(r"(?<=[A-Za-z0-9])#[0-9]+(?![0-9])")  # a copy's number after its printed id: PW20#2


def ignorance(truth: State[Any], game: TableGame, rng: random.Random, keep: set[str] | None = None) -> State[Any]:
    """The truth as the program starts from it: every card it does not know (not kept for the automaton) given the
    place of another card of its kind, at random; but for a card the automaton has seen that the program does not
    ask for (it knows it is among the person's arranged cards, not where), and those of ``keep``."""
    told = set(seen_by(truth, game.autos)) - set(game.to_learn(truth)) | (keep or set())
    classes: dict[tuple[str, str], list[str]] = {}
    for c in sorted(truth.data.instances):
        if c not in game.known and c not in told:
            classes.setdefault(game.home[c], []).append(c)
    mapping: dict[str, str] = {}
    for cards in classes.values():
        shuffled = cards[:]
        rng.shuffle(shuffled)
        mapping.update(zip(cards, shuffled, strict=True))
    return relabel(truth, mapping)


def pinned(state: State[Any]) -> set[str]:
    """The cards a state names outside its zones (a card laid face down, a card set aside in a choice under way):
    what the program's samples there stand for is settled (a wizard laid as the wizard), so drawn anew they stay."""
    zones = {f for f, _, _ in state.zone_shapes()}
    js = {k: v for k, v in state.to_json().items() if k not in zones and k != "log"}
    return cards_in(js, frozenset(state.data.instances))


def printed(value: Any, instances: frozenset[str], same: frozenset[str] | None = None) -> str:
    """A view (or a log line) with every card named by its printed id (copies are the same card on the table,
    unless each has a back of its own: ``same``, the copies that are the same card): a map's keys are compared as
    sorted pairs, once renamed."""
    copies = {c: design_of(c) for c in cards_in(value, instances) if "#" in c and (same is None or c in same)}
    pat = re.compile("|".join(rf"(?<![A-Za-z0-9#]){re.escape(c)}(?![A-Za-z0-9#])"
                              for c in sorted(copies, key=len, reverse=True))) if copies else None

    def walk(v: Any) -> Any:
        if isinstance(v, str):
            return pat.sub(lambda m: copies[m.group(0)], v) if pat is not None else v
        if isinstance(v, dict):
            return sorted(([walk(k), walk(x)] for k, x in v.items()), key=lambda kv: (str(kv[0]), str(kv[1])))
        if isinstance(v, (list, tuple)):
            return [walk(x) for x in v]
        return v

    return json.dumps(walk(value), default=str)


class SimulatedTable:
    """The person and the physical table of one game."""

    def __init__(self, engine: Engine, policy: TablePolicy, players: int, person: int, seed: int, variant: str = "",
                 dice: str = "physical", bot: str = "automaton", player: str = "random", samples: int | None = None,
                 agents: list[Any] | None = None) -> None:
        self.rng = random.Random(seed)
        self.truth = table_state(engine, policy, players, seed, variant, person)
        self.game = TableGame(engine, self.truth.clone(), person, ["" if s == person else bot for s in range(players)],
                              policy, dice=dice, seed=seed, agents=agents or [])
        # what the program starts from: the cards it does not know, elsewhere among their kind (``samples``: the
        # seed of that, the truth's by default)
        self.game.belief = ignorance(self.truth, self.game, random.Random(seed if samples is None else samples))
        # with ``samples``, the program's samples are drawn anew after every move too (a game whose hidden piles are
        # shuffled after the start, as a deck a player takes, would otherwise keep the table's order in them)
        self.sampler = random.Random(samples) if samples is not None else None
        self.person = person
        self.player = RandomAgent(seed) if player == "random" else make_agent(player, engine, seed)
        self.secret: Action | None = None  # the real move behind a move taken in secret
        self.intended: Action | None = None
        self.future: dict[int, int] = {}  # dice rolled on the table before the program asked for them, by index
        self.taken: dict[str, list[int]] = {}  # the places in face-down piles of the cards taken in this move
        self.asked_again = 0  # decisions asked since the last move
        self.logs: list[tuple[int, list[str]]] = [(0, []), (0, [])]  # the public logs read: the program's, the table's
        self.lines: list[str] = []
        self.moves = 0
        self.decisions: list[str] = []  # the automaton's moves, in order (the honesty test compares them)
        self.instances = frozenset(self.truth.data.instances)
        self.same = frozenset(c for c in self.instances if "#" in c and not self.game.home[c][1])  # (see printed)
        self.answered: set[str] = set()  # the cards named in this move
        self.last: tuple[Any, str] = ((), "")  # the last question about a card, and the card named
        self.last_named = ""

    # -- the Table protocol --------------------------------------------------------------------------------------
    def tell(self, lines: Sequence[str]) -> None:
        self.lines.extend(lines)

    def decide(self, question: str, options: Sequence[str], actions: Sequence[Action],
               cards_hint: str | None) -> Entry | None:
        self.asked_again += 1
        assert self.asked_again < 50, f"the program asks again and again: {question} {list(options)}"
        if self.intended is None:
            legal = self.truth.legal_actions()
            self.intended = legal[0] if len(legal) == 1 else self.player.choose(self.truth, self.person)
        want = self.intended
        keys = [a.key for a in actions]
        if want.key in keys:
            return Entry("option", keys.index(want.key))
        printed_want = self.printed_key(want)
        for i, a in enumerate(actions):
            if self.printed_key(a) == printed_want and "(in secret" not in options[i]:
                return Entry("option", i)
        secret = [i for i, a in enumerate(actions) if "(in secret" in options[i] and self.fits(want, a)]
        if secret:  # the most particular of the moves taken in secret that the real one is
            self.secret = want
            return Entry("option", min(secret, key=lambda i: len(self.unknown(actions[i]))))
        assert cards_hint is not None, f"{want.key} is neither an option {keys} nor typed"
        return Entry("cards", cards=tuple(design_of(c) for c in self.cards_of(want)))

    def cards_of(self, want: Action) -> list[str]:
        """The cards the person types for a move: the secret cards it names (in their hand, or in a face-down pile
        they look through), or else the cards it takes from their hand."""
        zones = zone_of(self.truth)
        secret = (Place.PERSON, Place.HIDDEN)
        named = [c for c in want.key.split()[1:] if c in self.instances and self.game.place(zones[c]) in secret]
        if named:
            return named
        trial = self.truth.clone()
        trial.script(strict=False)
        trial.apply(want)
        return [c for c, z0, _ in zones_moved(self.truth, trial) if self.game.place(z0) == Place.PERSON]

    def unknown(self, action: Action) -> set[str]:
        """The cards a move names that the program does not know (its samples)."""
        return {c for c in cards_in(action.key, self.instances) if c not in self.game.known}

    def fits(self, want: Action, option: Action) -> bool:
        """Whether the real move ``want`` is the move ``option`` (taken in secret) with the cards the program does not
        know in its place: the same words, and where the option names a sample, a card unknown to the program."""
        secret = self.unknown(option)
        ow, ww = option.key.split(), want.key.split()
        return len(ow) == len(ww) and all(
            (o in secret and w in self.instances and w not in self.game.known) or design_of(o) == design_of(w)
            for o, w in zip(ow, ww, strict=True))

    def printed_key(self, a: Action) -> str:
        return " ".join(self.pid(w) if w in self.instances else w for w in a.key.split())

    def pid(self, card: str) -> str:
        """A card as the table tells it: its printed id, and for a copy with a back of its own, which copy."""
        return design_of(card) if not self.game.home[card][1] else card

    def card(self, prompt: str, ask: Ask) -> str | None:
        asked = (ask.card, ask.zone, ask.index, ask.source, ask.source_index)
        if self.last[0] == asked:  # asked again: the card named last was refused
            self.answered.discard(self.last[1])
        got = self.named_card(ask)
        self.last = (asked, self.last_named)
        return got

    def named_card(self, ask: Ask) -> str:
        if ask.by == -1:  # set-up: the card lying there
            return self.answer(self.truth.zones()[ask.zone][ask.index])
        z0 = zone_of(self.game.belief).get(ask.card, "")
        hidden = bool(z0) and self.game.place(z0) == Place.HIDDEN
        rolled = (self.rng.getstate(), dict(self.future))
        after = self.after(ask)
        if hidden and (isinstance(after, str) or not shuffled(self.truth, after, [z0])):
            # taken from a face-down pile: the card lying there (where it goes may depend on which card it is; the
            # table is read without rolling for it)
            self.rng.setstate(rolled[0])
            self.future = rolled[1]
            return self.answer(self.take(z0, self.game.belief.zones()[z0].index(ask.card)))
        if isinstance(after, str):  # a random pick: made on the table, at random
            return after
        if ask.steps >= 0:  # (the move halted where the card came to light: the card there now)
            there = after.zones()[ask.zone]
            land = there[ask.index] if 0 <= ask.index < len(there) else ""
            # a card of the program's there instead (cards from a hand, which has no order, may land in another
            # order than the program's samples): one of the others that came there
            others = [c for c in there if c not in self.game.known]
            return self.answer(land if (land and land not in self.game.known) or not others else others[0])
        # a card the move brings to light from that place, not named yet: the one landing where the program's does
        # if it is one (a hand's order, or a shuffled pile's, is not the program's)
        light = self.light(after, ask.source)
        there = after.zones().get(ask.zone, [])
        land = there[ask.index] if 0 <= ask.index < len(there) else ""
        return self.answer(land if land in light or not light else light[0])

    def light(self, trial: State[Any], source: str) -> list[str]:
        """The table's cards that a move (``trial``) brings to light from ``source`` (top first) less those, by
        printed id, the program knows there (the cards named in this move among them); then, for a pile shuffled
        during the move, those it brings to light from elsewhere, not named yet."""
        g = self.game
        knows = Counter(self.pid(c) for c in g.belief.zones().get(source, []) if c in g.known)
        before, after = self.visible(self.truth), self.visible(trial)
        zones = self.truth.zones()
        out = []
        for c in reversed(zones.get(source, [])):
            if c in after and knows[self.pid(c)] > 0:
                knows[self.pid(c)] -= 1
            elif c in after:
                out.append(c)
        out += [c for z, cs in zones.items() if z != source for c in reversed(cs)
                if c in after and c not in before and c not in self.answered]
        return out

    def visible(self, state: State[Any]) -> set[str]:
        """The cards an automaton sees or that lie face up."""
        return seen_by(state, self.game.autos) | {c for c, z in zone_of(state).items()
                                                  if self.game.place(z) == Place.PUBLIC}

    def answer(self, card: str) -> str:
        """A card named, by its printed id."""
        self.answered.add(card)
        self.last_named = card
        return design_of(card)



    def which(self, question: str, options: Sequence[str], ask: Ask) -> int | None:
        """Where the card taken from a face-down pile went, by the rules, on the table."""
        real = self.take(ask.zone, self.game.belief.zones()[ask.zone].index(ask.card))
        after = self.after(ask)
        assert not isinstance(after, str), after
        zone = zone_of(after)[real]
        assert zone in ask.options, f"{real} goes to {zone} on the table: not one of {ask.options}"
        return ask.options.index(zone)

    def take(self, zone: str, i: int) -> str:
        """The card at place ``i`` of face-down pile ``zone`` on the table, taken now (the program must ask for
        the cards of a pile from the top down)."""
        taken = self.taken.setdefault(zone, [])
        assert not taken or i in taken or i < min(taken), f"a card of {zone} asked for above one taken already"
        if i not in taken:
            taken.append(i)
        return self.truth.zones()[zone][i]

    def after(self, ask: Ask) -> State[Any] | str:
        """The table after the move being asked about (the dice not asked for yet rolled now), or a random pick it
        needs, made at random."""
        action = self.real(ask)
        extra: list[int] = []
        while True:
            trial = self.truth.clone()
            self.align(ask.action, trial, self.game.belief)
            trial.script(dice=(*ask.dice, *extra), picks=ask.picks, strict=True)
            try:
                if ask.steps >= 0:  # the card came to light in the middle of the move
                    halted(trial, self.twin(action, trial), ask.steps)
                else:
                    trial.apply(self.twin(action, trial))
            except ChanceNeeded as need:
                if need.sides:  # the card on the table needs a die the program has not asked for yet
                    extra.append(self.die(need.sides, len(ask.dice) + len(extra)))
                    continue
                assert need.options, need
                return str(self.rng.choice(need.options))
            return trial

    def die(self, sides: int, k: int) -> int:
        """The ``k``-th die of the move being made: as the program rolls it (``--dice app``), else rolled on the
        table now and kept for when the program asks for it."""
        if self.game.dice == "app":
            return 1 + derive(self.game.seed, "die", self.game.belief.steps, k) % sides
        return self.future.setdefault(k, self.rng.randint(1, sides))

    def roll(self, sides: int, why: str, ask: Ask) -> int | None:
        k = len(ask.dice)
        return self.future.pop(k) if k in self.future else self.rng.randint(1, sides)

    def moved(self, action: Action, by: int, dice: Sequence[int], picks: Sequence[str], prior: State[Any]) -> None:
        real = self.real(Ask(action, by))
        self.secret = self.intended = None
        self.future = {}
        self.taken = {}
        self.asked_again = 0
        self.answered = set()
        self.align(real, self.truth, prior)
        real = self.twin(real, self.truth)
        self.truth.script(dice=dice, picks=picks, strict=True)
        self.truth.apply(real)
        self.truth.script(strict=False)
        if by != self.person:
            self.decisions.append(action.key)
        self.moves += 1
        self.check()
        if self.sampler is not None:
            before = self.game.belief
            self.game.belief = ignorance(before, self.game, self.sampler, keep=pinned(before))
            assert same_view(before, self.game.belief, self.game.autos), "the samples drawn anew show otherwise"

    # -- following the program ----------------------------------------------------------------------------------
    def real(self, ask: Ask) -> Action:
        """The move made on the table: the person's own (taken in secret, or a step of a secret move that the
        program makes without asking: the person makes theirs), else the program's."""
        if ask.by == self.person and self.secret is None and self.intended is None:
            legal = self.truth.legal_actions()
            self.secret = legal[0] if len(legal) == 1 else self.player.choose(self.truth, self.person)
        return self.secret if ask.by == self.person and self.secret is not None else ask.action

    def align(self, action: Action, state: State[Any], belief: State[Any]) -> None:
        """Copies of a card are the same on the table: where the program (``belief``, before the move) names another
        copy than the one the truth holds in that place (the same place of the same zone, else the same zone), the
        truth's copies take each other's places."""
        bz, bzones = zone_of(belief), belief.zones()
        for c in cards_in(action.key, self.instances):
            z = bz.get(c)
            if "#" not in c or z is None:
                continue
            here = state.zones().get(z, [])
            i = bzones[z].index(c)
            twin = here[i] if i < len(here) and here[i] != c and design_of(here[i]) == design_of(c) else None
            if twin is None and zone_of(state).get(c) != z:
                twin = next((d for d in here if design_of(d) == design_of(c) and d != c), None)
            if twin is not None:
                new = relabel(state, {c: twin, twin: c})
                state.__dict__.update(new.__dict__)

    def twin(self, action: Action, state: State[Any]) -> Action:
        """The move as the table can make it: where the rules offer one copy of a card among several in a zone (the
        first), the program may name another (copies are the same card on the table)."""
        legal = state.legal_actions()
        if action in legal:
            return action
        want = self.printed_key(action)
        return next((a for a in legal if self.printed_key(a) == want), action)

    def check(self) -> None:
        """The belief and the truth look the same to every automaton seat and to everyone."""
        g, t, b = self.game, self.truth, self.game.belief
        for s in g.autos:
            vb = {k: v for k, v in b.observation(s).items() if k not in ("log", "heading")}
            vt = {k: v for k, v in t.observation(s).items() if k not in ("log", "heading")}
            if vb == vt:
                continue
            pb, pt = printed(vb, self.instances, self.same), printed(vt, self.instances, self.same)
            assert pb == pt, f"after move {self.moves}, P{s + 1} would see otherwise than on the table:\n" + \
                _diff(vb, vt)
        lb, lt = self.public(b, 0), self.public(t, 1)
        assert lb == lt, f"after move {self.moves}, the public logs differ: {_first_diff(lb, lt)}"

    def public(self, state: State[Any], which: int) -> list[str]:
        """The log lines every seat may read, cards named by their printed ids (read as the log grows: a simulated
        table never takes a move back)."""
        n, lines = self.logs[which]
        seats = range(state.players)
        lines.extend(COPY.sub("", line_text(e)) for e in state.log[n:] if all(readable(e, s) for s in seats))
        self.logs[which] = (len(state.log), lines)
        return lines

    def play(self, max_moves: int = 20_000) -> State[Any]:
        self.game.start(self)
        self.check()
        self.game.play(self)
        assert self.truth.is_terminal() and self.game.belief.is_terminal()
        assert self.truth.outcome() == self.game.belief.outcome() or (
            self.truth.outcome() is not None and self.game.belief.outcome() is not None
            and self.truth.outcome().winners == self.game.belief.outcome().winners)  # type: ignore[union-attr]
        return self.truth


def shuffled(before: State[Any], after: State[Any], zones: Sequence[str]) -> set[str]:
    """The cards of the given zones of ``after`` whose order among themselves changed from ``before`` (a pile
    shuffled during a move)."""
    z0, z1 = before.zones(), after.zones()
    out: set[str] = set()
    for z in zones:
        a, b = z0.get(z, []), z1.get(z, [])
        both = set(a) & set(b)
        if [c for c in a if c in both] != [c for c in b if c in both]:
            out |= set(b)
    return out


def _diff(a: dict[str, Any], b: dict[str, Any]) -> str:
    keys = [k for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)]
    return "\n".join(f"  {k}: program {str(a.get(k))[:300]} / table {str(b.get(k))[:300]}" for k in keys[:6])


def _first_diff(a: list[str], b: list[str]) -> str:
    for i, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return f"line {i}: program {x!r} / table {y!r}"
    return f"lengths {len(a)} and {len(b)}"


def place_of(policy: TablePolicy, state: State[Any], person: int) -> dict[str, Place]:
    return {z: policy.place(z, person) for z in state.zones()}


class Recorder(SimulatedTable):
    """A simulated table that also writes down what its person types: the number of an option, the cards played,
    a card's id, a die. Played again through the real command with the same seed, the same entries make the same
    game (the program's samples of unknown cards never change an automaton's decision)."""

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.game.belief = self.truth.clone()  # as the command starts: its own deal for the seed, none of it known
        self.typed: list[str] = []

    def decide(self, question: str, options: Sequence[str], actions: Sequence[Action],
               cards_hint: str | None) -> Entry | None:
        entry = super().decide(question, options, actions, cards_hint)
        assert entry is not None
        self.typed.extend(typed_for(self.game.belief, actions, entry))
        return entry

    def card(self, prompt: str, ask: Ask) -> str | None:
        got = super().card(prompt, ask)
        assert got is not None
        self.typed.append(design_of(got))
        return got

    def roll(self, sides: int, why: str, ask: Ask) -> int | None:
        got = super().roll(sides, why, ask)
        self.typed.append(str(got))
        return got

    def which(self, question: str, options: Sequence[str], ask: Ask) -> int | None:
        got = super().which(question, options, ask)
        assert got is not None
        self.typed.append(str(got + 1))
        return got


PROMPTS = ("your choice> ", "card> ", "die> ", "your answer> ")


def typed_for(state: State[Any], actions: Sequence[Action], entry: Entry) -> list[str]:
    """What a person types at the terminal for ``entry``: the cards; or the option's number, in two steps (its
    group's, then its own) where the terminal asks a long list in two."""
    if entry.kind != "option":
        return [", ".join(entry.cards)]
    two = two_steps(state, actions)
    if two is None:
        return [str(entry.index + 1)]
    key = actions[entry.index].key
    g, i = next((g, i) for g, group in enumerate(two.groups) for i, (a, _) in enumerate(group.options)
                if a.key == key)
    return [str(g + 1), str(i + 1)]


def play_on_terminal(game: str, args: list[str], typed: list[str], cwd: Path, rows: int = 24,
                     cols: int = 80) -> tuple[list[list[str]], str]:
    """``wizprint solo table GAME ARGS`` on a pseudo-terminal of ``cols`` x ``rows`` read through a terminal
    emulator, each entry of ``typed`` answered at the next prompt. Returns the screen at every prompt and the
    program's last words (after the last entry)."""
    env = dict(os.environ, NO_COLOR="1", TERM="dumb", COLUMNS=str(cols), LINES=str(rows))
    p = pexpect.spawn(sys.executable, ["-m", "wizprint", "solo", "table", game, *args], env=env, encoding="utf-8",
                      timeout=60, cwd=str(cwd), dimensions=(rows, cols))
    p.delaybeforesend = None
    term = pyte.Screen(cols, rows)
    stream = pyte.Stream(term)
    screens: list[list[str]] = []
    for entry in typed:
        p.expect(list(PROMPTS))
        stream.feed(p.before + p.after)
        screens.append([row.rstrip() for row in term.display])
        p.sendline(entry)
    p.expect(pexpect.EOF)
    stream.feed(p.before)
    p.close()
    return screens, p.before
