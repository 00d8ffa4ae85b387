"""Determinised information-set Monte Carlo tree search (single-observer ISMCTS, Cowling, Powley and Whitehouse 2012),
game-agnostic.

Each iteration samples a full state consistent with the searching seat's observation (``state.determinize(seat,
rng)``: hidden cards and the future of the dice drawn from the bot's own RNG), then descends one tree whose nodes
are keyed by action keys, using UCB with availability counts, expands one node, and plays the rest out with the
game's automaton (a little randomised). At each node the automaton's own choice gets a prior bonus that fades with
visits (``prior / (1 + visits)``, after PUCT), so the search leaves the automaton's move only when its samples say
another is better. A game with long playouts declares ``rollout_depth`` in its ``[engine]`` table and an
``evaluate(state) -> returns`` function in its package: playouts then stop after that many steps and the position is
scored by the evaluation. With an
iteration budget the search stops as soon as the most visited move leads the others by more than the iterations left
(the choice can no longer change). The bot never reads the hidden cards of the true state: the sample depends only
on what its seat observes, so its choice cannot depend on them.

A game whose dice make single playouts too noisy for a tree to learn from (Covenant: ``search = "paired"`` in its
``[engine]`` table) is searched at the root only, with paired samples: every candidate move is played on the same
sample (the same hidden cards and the same future dice) and followed by the automaton's play, so two moves are
compared on the same luck and their difference is far less noisy than their values (common random numbers).
Sequential halving (Karnin, Koren and Somekh 2013) spreads the budget: each round plays every remaining move on
fresh samples and drops the worse half, keeping the automaton's move to the end. The bot leaves the automaton's move
only when the best move beats it by more than ``margin`` standard errors of their paired differences (``math.inf``:
never). With a time budget alone, each round of the halving gets its share of the time. This is the rollout
algorithm of Tesauro and Galperin (1996): it improves on the automaton whenever its samples are right.

Every search is bounded by time as well as by count: a move also ends after ``ceiling`` seconds of the search's own
computing (CPU time of its thread, :data:`MOVE_SECONDS` unless given), so an iteration count that is allowed but
huge (``mcts:1000000``) thinks for seconds, not hours. The ceiling is far above what the games' own budgets take (a
second at most on an ordinary machine), so it does not bind for them, and CPU time does not grow when other work
shares the machine: a search that ends by its count makes the same move on any machine.
"""

from __future__ import annotations

import math
import time
from typing import Any

from wizprint.solo.kernel import Action, Engine, State
from wizprint.solo.kernel.rng import Rng, derive

MOVE_SECONDS = 10.0  # the ceiling of one search move given by its iterations, in CPU seconds


def _mean(results: dict[int, float]) -> float:
    return sum(results.values()) / len(results)


class _Node:
    __slots__ = ("avail", "children", "favourite", "player", "value", "visits")

    def __init__(self, player: int):
        self.player = player  # who chose the move into this node
        self.visits = 0
        self.avail = 0
        self.value = 0.0
        self.children: dict[str, _Node] = {}
        self.favourite: str | None = None  # the automaton's choice here (from the first sample that reached it)


class MctsAgent:
    def __init__(self, engine: Engine, iterations: int | None = 800, seconds: float | None = None, seed: int = 0,
                 c: float = 0.4, epsilon: float | None = None, max_rollout: int | None = None, prior: float = 1.0,
                 early_stop: bool = True, name: str | None = None, search: str | None = None,
                 margin: float = 1.0, rivals: str | None = None, ceiling: float | None = MOVE_SECONDS):
        self.name = name or (f"mcts:{iterations}" if iterations is not None else f"mcts:{seconds:g}s")
        self.engine = engine
        self.iterations = iterations
        self.seconds = seconds  # on the clock (wall time), when given
        self.ceiling = ceiling  # CPU seconds of the search, at most (None: no ceiling)
        self.base_seed = seed
        self.c = c
        self.prior = prior
        self.early_stop = early_stop
        self.margin = margin
        self.search = search or engine.decl.search
        if self.search not in ("tree", "paired"):
            raise ValueError(f"unknown search {self.search!r} (tree or paired)")
        self.rivals = rivals or engine.decl.rivals
        if self.rivals not in ("search", "automaton"):
            raise ValueError(f"unknown rivals {self.rivals!r} (search or automaton)")
        # randomised playouts widen a tree's view; paired playouts follow the automaton exactly
        self.epsilon = epsilon if epsilon is not None else (0.15 if self.search == "tree" else 0.0)
        self.evaluate = engine.evaluate
        self.max_rollout = max_rollout if max_rollout is not None else engine.decl.rollout_depth
        self.policy: Any = engine.automaton()
        self.last_iterations = 0
        self.timed_out = False  # whether the last search was ended by its time (its ceiling or its seconds)
        self._cpu_end = math.inf

    def seed(self, seed: int) -> None:
        self.base_seed = seed

    def choose(self, state: State[Any], seat: int) -> Action:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        # the bot's randomness depends on public facts only (its seed, how far the game is, its seat)
        rng = Rng(derive("mcts", self.base_seed, state.steps, seat))
        if hasattr(self.policy, "seed"):
            self.policy.seed(derive("mcts-policy", self.base_seed, state.steps, seat))
        deadline = time.perf_counter() + self.seconds if self.seconds is not None else None
        self._cpu_end = time.thread_time() + self.ceiling if self.ceiling is not None else math.inf
        if self.search == "paired":
            return self._paired(state, seat, legal, rng, deadline)
        root = _Node(-1)
        keys = {a.key: a for a in legal}
        n = 0
        self.timed_out = False
        while True:
            if self.iterations is not None and n >= self.iterations:
                break
            if n > 0 and ((deadline is not None and time.perf_counter() >= deadline) or self._spent()):
                self.timed_out = True
                break
            self._iterate(root, state.determinize(seat, rng), rng, seat)
            n += 1
            if self.early_stop and self.iterations is not None and n % 16 == 0 and self._decided(
                    root, keys, self.iterations - n):
                break
        self.last_iterations = n
        best = max((k for k in root.children if k in keys), key=lambda k: (root.children[k].visits, k),
                   default=None)
        return keys[best] if best is not None else legal[0]

    def _spent(self) -> bool:
        """Whether the move's search has used up its ceiling of CPU time."""
        return self._cpu_end != math.inf and time.thread_time() >= self._cpu_end

    @staticmethod
    def _decided(root: _Node, keys: dict[str, Action], remaining: int) -> bool:
        """True when the most visited move leads every other by more than the iterations left: no run of the rest
        could change the choice, so stopping gives the same move as the whole budget (only faster)."""
        visits = sorted((root.children[k].visits if k in root.children else 0 for k in keys), reverse=True)
        return len(visits) < 2 or visits[0] - visits[1] > remaining

    def _iterate(self, root: _Node, d: State[Any], rng: Rng, seat: int) -> None:
        node = root
        path = [root]
        while not d.is_terminal():
            acts = d.legal_actions()
            player = d.current_player
            if len(acts) == 1:  # no decision here: follow the only move without a tree node
                d.apply(acts[0])
                continue
            if player != seat and self.rivals == "automaton":
                # a rival's move is the automaton's (a little randomised), never searched: a searched rival would
                # answer the searching seat's secret choice as if it could see it
                a = self._policy_move(d, acts, rng)
                child = node.children.get(a.key)
                if child is None:
                    child = node.children[a.key] = _Node(player)
                d.apply(a)
                path.append(child)
                node = child
                continue
            if node.favourite is None:
                node.favourite = self.policy.choose(d, player).key
            # the automaton's move first, then the other untried moves in random order
            untried = [a for a in acts if a.key not in node.children]
            if untried:
                fav = [a for a in untried if a.key == node.favourite]
                a = fav[0] if fav else untried[rng.below(len(untried))]
                child = _Node(player)
                node.children[a.key] = child
                for b in acts:
                    if b.key in node.children:
                        node.children[b.key].avail += 1
                d.apply(a)
                path.append(child)
                break
            best: _Node | None = None
            best_key: Action | None = None
            best_u = -math.inf
            for a in acts:
                ch = node.children[a.key]
                ch.avail += 1
                u = ch.value / ch.visits + self.c * math.sqrt(math.log(ch.avail) / ch.visits)
                if a.key == node.favourite:
                    u += self.prior / (1.0 + ch.visits) ** 0.5
                if u > best_u:
                    best_u, best, best_key = u, ch, a
            assert best is not None and best_key is not None
            d.apply(best_key)
            path.append(best)
            node = best
        r = self._play_out(d, rng)
        for nd in path:
            nd.visits += 1
            if nd.player >= 0:
                nd.value += r[nd.player]

    def _play_out(self, d: State[Any], rng: Rng) -> list[float]:
        """Play ``d`` on with the automaton (a move in ``epsilon`` at random) and return the returns, or the
        evaluation once the playout reaches its length."""
        steps = 0
        while not d.is_terminal() and steps < self.max_rollout:
            acts = d.legal_actions()
            d.apply(acts[0] if len(acts) == 1 else self._policy_move(d, acts, rng))
            steps += 1
        return list(d.returns() if d.is_terminal() or self.evaluate is None else self.evaluate(d))

    def _policy_move(self, d: State[Any], acts: list[Action], rng: Rng) -> Action:
        """The automaton's move in ``d``, or (one time in ``1/epsilon``) a random one."""
        if self.epsilon and rng.random() < self.epsilon:
            return acts[rng.below(len(acts))]
        move: Action = self.policy.choose(d, d.current_player)
        return move

    # -- paired root search ---------------------------------------------------------------------------------------
    def _playout(self, d: State[Any], seat: int, seed: int) -> float:
        """``seat``'s result of a playout seeded by ``seed``: the same seed gives the same play on the same
        sample."""
        if hasattr(self.policy, "seed"):
            self.policy.seed(seed)
        return float(self._play_out(d, Rng(seed))[seat])

    def _paired(self, state: State[Any], seat: int, legal: list[Action], rng: Rng, deadline: float | None) -> Action:
        keys = {a.key: a for a in legal}
        sample = state.determinize(seat, rng)
        favourite = self.policy.choose(sample, seat).key  # the automaton's move, from what the seat sees
        alive = sorted(keys)
        results: dict[str, dict[int, float]] = {k: {} for k in keys}  # move -> sample number -> result
        budget = self.iterations if self.iterations is not None else 1 << 40
        rounds = max(1, math.ceil(math.log2(len(alive))))
        start = time.perf_counter()
        spent = 0
        n = 0  # samples drawn
        out_of_time = False
        for r in range(rounds):
            per_move = max(1, (budget // rounds) // len(alive))
            if r == rounds - 1:  # the last round takes what the earlier ones left
                per_move = max(1, (budget - spent) // len(alive))
            # with a time budget alone, each round gets its share of the time
            until = deadline if self.iterations is not None or deadline is None or r == rounds - 1 else (
                start + (deadline - start) * (r + 1) / rounds)
            for _ in range(per_move):
                if n > 0 and self._spent():
                    out_of_time = True
                    break
                if until is not None and n > 0 and time.perf_counter() >= until:
                    out_of_time = until == deadline
                    break
                if n > 0:
                    sample = state.determinize(seat, rng)
                seed = rng.below(1 << 31)
                for k in alive:
                    d = sample.clone()
                    d.apply(keys[k])
                    results[k][n] = self._playout(d, seat, seed)
                n += 1
                spent += len(alive)
            if out_of_time:
                break
            if r < rounds - 1 and len(alive) > 2:
                mean = {k: _mean(results[k]) for k in alive}
                keep = sorted(alive, key=lambda k: (-mean[k], k))[: max(2, math.ceil(len(alive) / 2))]
                if favourite not in keep:
                    keep.append(favourite)
                alive = sorted(keep)
        self.last_iterations = spent
        self.timed_out = out_of_time
        mean = {k: _mean(results[k]) for k in alive}
        best = max(mean, key=lambda k: (mean[k], k))
        if best == favourite:
            return keys[favourite]
        return keys[best] if self._beats(results[best], results[favourite]) else keys[favourite]

    def _beats(self, mine: dict[int, float], theirs: dict[int, float]) -> bool:
        """True when ``mine`` beats ``theirs`` on the samples both were played on by more than ``margin`` standard
        errors of the paired differences."""
        diffs = [v - theirs[i] for i, v in mine.items() if i in theirs]
        n = len(diffs)
        if n < 3:
            return False
        m = sum(diffs) / n
        var = sum((x - m) ** 2 for x in diffs) / (n - 1)
        return m > 0 and m * m * n > self.margin * self.margin * var
