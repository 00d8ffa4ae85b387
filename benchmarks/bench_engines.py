"""Engine benchmarks against their baselines, in one run (CPU seconds of this process, so a busy machine slows the
baselines and the engines alike; each figure is the median of interleaved rounds):

- Relic and Covenant random play, steps (decisions) per second, against OpenSpiel's ``python_block_dominoes`` played
  the way OpenSpiel's own example plays a game at random (``np.random.choice`` for chance outcomes and moves; its
  decisions counted, as the engines count theirs: their dice and shuffles are not steps). A leaner dominoes loop
  (Python's ``random``) is shown too. Needs ``pip install open_spiel`` (not a dependency of wizprint); without it the
  baseline is skipped and the reason printed.
- (The search bots are measured by what a player feels, their strength at their thinking time: ``bench_strength.py``.)
- ``clone()`` and ``determinize()`` per second for every game: states taken every 7 steps of 5 random games.
- Wizard Cards random games per second against a hand-tight loop of the same rules (plain Python, no log, cards as
  numbers) choosing the same random moves: it must end every game exactly as the engine does, which is checked.

Run: python benchmarks/bench_engines.py [--rounds N] [--seconds S] (defaults 3 rounds of about 1.5 s per figure)."""

from __future__ import annotations

import argparse
import importlib
import random
import statistics
import time
from typing import Any

from bench_solo import random_play as solo_random_play
from bench_solo import search_states
from results import recorded

from wizprint.solo.agents import RandomAgent
from wizprint.solo.kernel import State, engine, engine_games
from wizprint.solo.kernel.rng import MASK, derive
from wizprint.solo.runner import play

cpu = time.process_time


def random_play(game: str, players: int, seconds: float) -> tuple[float, float]:
    """Random-play games and steps per CPU second (the loop of ``bench_solo.py``)."""
    return solo_random_play(game, players, seconds, clock=cpu)


# -- the engines ------------------------------------------------------------------------------------------------------
def clones(states: list[State[Any]], seconds: float) -> float:
    n = 0
    t0 = cpu()
    while cpu() - t0 < seconds:
        for st in states:
            st.clone()
        n += len(states)
    return n / (cpu() - t0)


def determinizes(states: list[State[Any]], seconds: float) -> float:
    from wizprint.solo.kernel import Rng

    live = [s for s in states if not s.is_terminal()]
    rng = Rng(1)
    n = 0
    t0 = cpu()
    while cpu() - t0 < seconds:
        for st in live:
            st.determinize(st.current_player, rng)
        n += len(live)
    return n / (cpu() - t0)


# -- OpenSpiel's python_block_dominoes ------------------------------------------------------------------------------
def load_dominoes() -> tuple[Any, str]:
    """The game, or None and why it cannot be had."""
    try:
        pyspiel = importlib.import_module("pyspiel")
        importlib.import_module("open_spiel.python.games")
        return pyspiel.load_game("python_block_dominoes"), ""
    except Exception as exc:  # not installed (ImportError), or a broken install: the baseline is skipped
        return None, f"{type(exc).__name__}: {exc} (pip install open_spiel to measure it)"


def dominoes(game: Any, seconds: float, lean: bool) -> float:
    """Decision steps per CPU second of random play: OpenSpiel's example loop (``np.random.choice``), or with
    ``lean`` Python's ``random`` indexing the lists."""
    np = importlib.import_module("numpy")
    rng = random.Random(0)
    np.random.seed(0)
    steps = 0
    t0 = cpu()
    while cpu() - t0 < seconds:
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                outcomes = s.chance_outcomes()
                if lean:
                    a = outcomes[rng.randrange(len(outcomes))][0]
                else:
                    actions, probs = zip(*outcomes, strict=True)
                    a = np.random.choice(actions, p=probs)
            else:
                legal = s.legal_actions()
                a = legal[rng.randrange(len(legal))] if lean else np.random.choice(legal)
                steps += 1
            s.apply_action(a)
    return steps / (cpu() - t0)


# -- Wizard Cards, hand-tight -----------------------------------------------------------------------------------------
class TightWizardCards:
    """The rules of ``wizprint.solo.games.wizard_cards`` (the base game, two players) as one plain loop: cards are
    numbers in the order the engine lists a hand (wild first, then by school and magnitude), no log, no objects per
    move; the moves are chosen as ``RandomAgent`` chooses them, so each game must end as the engine's does."""

    WARD, VIGOR, FORTUNE, WRATH = range(4)  # the schools, in the order the engine offers a Wild Magic card's

    def __init__(self) -> None:
        data = engine("wizard-cards").data
        schools = {"ward": 0, "vigor": 1, "fortune": 2, "wrath": 3, "wild": -1}
        order = sorted(data.spells, key=data.sort_key.__getitem__)  # card number = place in a sorted hand
        self.number = {c: i for i, c in enumerate(order)}
        self.school = [schools[data.spells[c].school] for c in order]
        self.magnitude = [data.spells[c].magnitude for c in order]
        self.deck_ids = sorted(data.spells)  # the engine shuffles the ids sorted

    def game(self, seed: int, agent_seeds: tuple[int, int]) -> tuple[int, tuple[int, ...]]:
        """One game: (steps, winners)."""
        school, magnitude = self.school, self.magnitude
        bases = (derive("random", agent_seeds[0]), derive("random", agent_seeds[1]))
        pile = [self.number[c] for c in _shuffled(self.deck_ids, seed)]
        hands: list[list[int]] = [[], []]
        damage = [0, 0]
        wards: list[list[int]] = [[], []]
        left = [0] * len(school)  # what each ward component can still absorb
        spell: list[int] = []
        turn = player = plays = due = steps = 0
        cast = False
        last = -1  # the final phase: the game ends after this turn
        for p in (0, 1):
            while len(hands[p]) < 5 and pile:
                hands[p].append(pile.pop())
        while True:  # a turn (start_turn, and a player with no cards draws and passes)
            wards[player] = []
            spell = []
            cast = False
            plays = 1
            if hands[player]:
                while True:  # a decision
                    if due:
                        seat, hand = 1 - player, sorted(hands[1 - player])
                        n = len(hand)
                    else:
                        seat, hand = player, sorted(hands[player])
                        n = len(hand) + 3 * sum(1 for c in hand if school[c] < 0) + cast
                    k = 0 if n == 1 else _below(bases[seat] ^ (steps * 0x9E3779B97F4A7C15 + seat), n)
                    steps += 1
                    if due:  # a card taken as damage
                        hands[seat].remove(hand[k])
                        damage[seat] += 1
                        due -= 1
                        if due and hands[seat]:
                            continue
                        due = 0
                        if plays > 0 and hands[player]:
                            continue
                        break
                    if k == n - 1 and cast:  # stop
                        break
                    for c in hand:  # the k-th action: a card, a wild card four times (one per school)
                        w = 4 if school[c] < 0 else 1
                        if k < w:
                            word = school[c] if school[c] >= 0 else k
                            break
                        k -= w
                    hands[player].remove(c)
                    cast = True
                    plays -= 1
                    if word == 0:  # ward
                        wards[player].append(c)
                        left[c] = magnitude[c]
                    else:
                        spell.append(c)
                    if word == 1:  # vigor
                        plays += magnitude[c]
                    elif word == 2:  # fortune
                        for _ in range(magnitude[c]):
                            if not pile:
                                break
                            hands[player].append(pile.pop())
                        if last < 0 and not pile:
                            last = turn + (1 if player == 0 else 2)
                    elif word == 3:  # wrath: the rival's wards absorb, oldest first
                        d = magnitude[c]
                        ws = wards[1 - player]
                        while d > 0 and ws:
                            take = min(left[ws[0]], d)
                            left[ws[0]] -= take
                            d -= take
                            if left[ws[0]] == 0:
                                ws.pop(0)
                        rival = hands[1 - player]
                        d = min(d, len(rival))
                        if d > 0:
                            if d == len(rival):
                                damage[1 - player] += d
                                hands[1 - player] = []
                            else:
                                due = d
                                continue
                    if plays <= 0 or not hands[player]:
                        break
            # the end of the turn: draw back up to five
            hand = hands[player]
            while len(hand) < 5 and pile:
                hand.append(pile.pop())
            if last < 0 and not pile:
                last = turn + (1 if player == 0 else 2)
            if last >= 0 and turn >= last:
                break
            turn += 1
            player = 1 - player
        winners = (0, 1) if damage[0] == damage[1] else ((0,) if damage[0] < damage[1] else (1,))
        return steps, winners


def _below(seed: int, n: int) -> int:
    """``Rng(seed).below(n)`` written out (SplitMix64, Lemire's multiply-shift)."""
    z = ((seed & MASK) + 0x9E3779B97F4A7C15) & MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return ((z ^ (z >> 31)) * n) >> 64


def _shuffled(ids: list[str], seed: int) -> list[str]:
    from wizprint.solo.kernel import Rng

    deck = list(ids)
    Rng(seed).shuffle(deck)
    return deck


def tight_rate(tight: TightWizardCards, seconds: float) -> float:
    games = 0
    t0 = cpu()
    while cpu() - t0 < seconds:
        tight.game(games, (games * 10, games * 10 + 1))
        games += 1
    return games / (cpu() - t0)


def tight_matches(tight: TightWizardCards, games: int = 300) -> int:
    """How many of the first ``games`` games the tight loop ends as the engine does (same steps, same winners)."""
    eng = engine("wizard-cards")
    same = 0
    for g in range(games):
        s = eng.new_state(2, g)
        play(s, [RandomAgent(g * 10), RandomAgent(g * 10 + 1)])
        o = s.outcome()
        if o is not None and tight.game(g, (g * 10, g * 10 + 1)) == (s.steps, o.winners):
            same += 1
    return same


# -- the run ------------------------------------------------------------------------------------------------------
def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seconds", type=float, default=1.5)
    args = ap.parse_args()
    rounds, sec = args.rounds, args.seconds
    figures: dict[str, list[float]] = {}

    def note(name: str, value: float) -> None:
        figures.setdefault(name, []).append(value)

    dom, why = load_dominoes()
    tight = TightWizardCards()
    plays = [("relic", 2), ("relic", 4), ("covenant", 2), ("covenant", 4)]
    for game, players in plays:
        engine(game).new_state(players, 0)
    for _ in range(rounds):  # interleaved: every figure sees the same load
        if dom is not None:
            note("dominoes", dominoes(dom, sec, lean=False))
            note("dominoes lean", dominoes(dom, sec, lean=True))
        for game, players in plays:
            note(f"{game} {players}p", random_play(game, players, sec)[1])
        note("wizard-cards", random_play("wizard-cards", 2, sec)[0])
        note("tight", tight_rate(tight, sec))
    fig = {k: statistics.median(v) for k, v in figures.items()}

    print("Random play, steps (decisions) per CPU second:")
    if dom is None:
        print(f"  python_block_dominoes: skipped ({why})")
    else:
        print(f"  OpenSpiel python_block_dominoes: {fig['dominoes']:,.0f} (OpenSpiel's example loop); "
              f"{fig['dominoes lean']:,.0f} (a lean loop)")
    for game, players in plays:
        v = fig[f"{game} {players}p"]
        line = f"  {game} ({players} players): {v:,.0f}"
        if dom is not None:
            line += f" = {v / fig['dominoes']:.2f}x dominoes ({v / fig['dominoes lean']:.2f}x the lean loop)"
        print(line)
    print("clone() and determinize() per CPU second (states every 7 steps of 5 random games):")
    for game in engine_games():
        states = search_states(game, engine(game).min_players)
        c = statistics.median(clones(states, sec / 2) for _ in range(rounds))
        d = statistics.median(determinizes(states, sec / 2) for _ in range(rounds))
        print(f"  {game}: clone {c:,.0f}/s, determinize {d:,.0f}/s")
    same = tight_matches(tight)
    print(f"Wizard Cards random play: {fig['wizard-cards']:,.0f} games/s; the hand-tight loop {fig['tight']:,.0f} "
          f"games/s; ratio {fig['wizard-cards'] / fig['tight']:.2f}x (the loop ends {same} of 300 games as the "
          f"engine does)")


if __name__ == "__main__":
    with recorded("engine speed"):
        main()
