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
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pexpect
import pyte

from wizprint.solo.agents import RandomAgent, make_agent
from wizprint.solo.kernel import Action, Engine, State, design_of, line_text, readable
from wizprint.solo.kernel.rng import derive
from wizprint.solo.kernel.state import ChanceNeeded
from wizprint.solo.kernel.table import Place, TablePolicy, cards_in, relabel, same_view, seen_by, zone_of
from wizprint.solo.table import Ask, Entry, TableGame, halted
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


def printed(value: Any, instances: frozenset[str]) -> str:
    """A view with every card named by its printed id (copies are the same card on the table)."""
    text = json.dumps(value, sort_keys=True, default=str)
    for c in sorted(cards_in(value, instances), key=len, reverse=True):
        if "#" in c:
            text = text.replace(f'"{c}"', f'"{design_of(c)}"')
    return text


class SimulatedTable:
    """The person and the physical table of one game."""

    def __init__(self, engine: Engine, policy: TablePolicy, players: int, person: int, seed: int, variant: str = "",
                 dice: str = "physical", bot: str = "automaton", player: str = "random", samples: int | None = None,
                 agents: list[Any] | None = None) -> None:
        self.rng = random.Random(seed)
        self.truth = engine.new_state(players, seed, variant)
        if policy.prepare is not None:
            policy.prepare(self.truth, person)
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
        zones = zone_of(self.truth)
        mine = [c for c in want.key.split()[1:] if c in self.instances  # the person's secret cards it plays
                and self.game.place(zones[c]) == Place.PERSON]
        assert cards_hint is not None, f"{want.key} is neither an option {keys} nor typed"
        return Entry("cards", cards=tuple(design_of(c) for c in mine))

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
        return " ".join(design_of(w) if w in self.instances else w for w in a.key.split())

    def card(self, prompt: str, ask: Ask) -> str | None:
        if ask.by == -1:  # set-up: the card lying there
            return self.truth.zones()[ask.zone][ask.index]
        z0 = zone_of(self.game.belief).get(ask.card, "")
        if z0 and self.game.place(z0) == Place.HIDDEN:  # taken from a face-down pile: the card lying there
            return self.take(z0, self.game.belief.zones()[z0].index(ask.card))
        after = self.after(ask)
        if isinstance(after, str):  # a random pick: made on the table, at random
            return after
        there = after.zones()[ask.zone]
        land = there[ask.index] if 0 <= ask.index < len(there) else ""
        if land and land not in self.game.known:
            return land
        # a card of the program's there instead (cards from a hand, which has no order, may land in another order
        # than the program's samples): one of the others that came there
        others = [c for c in there if c not in self.game.known]
        return others[0] if others else land

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
            pb, pt = printed(vb, self.instances), printed(vt, self.instances)
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
