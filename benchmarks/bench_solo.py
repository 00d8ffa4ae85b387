"""Solo engine benchmarks: random-play games/s and steps/s per game (the engine, one core), clone() per second (the
search bot's most frequent call: states from random games), whole automaton games/s at the most seats, the search
bot's iterations (tree search) or playouts (paired search) per second, and the speed-up of `solo check --jobs 2` over
`--jobs 1`. Run: python benchmarks/bench_solo.py [game ...] (--quick: the engine figures only)"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Any

from results import recorded

from wizprint.solo.agents import RandomAgent
from wizprint.solo.agents.mcts import MctsAgent
from wizprint.solo.kernel import State, engine, engine_games
from wizprint.solo.playtest import run_games
from wizprint.solo.runner import play, run_one


def random_play(game: str, players: int, seconds: float = 3.0,
                clock: Callable[[], float] = time.perf_counter) -> tuple[float, float]:
    """Random-play games and steps per second of ``clock`` (wall time unless told: ``time.process_time`` for CPU)."""
    eng = engine(game)
    eng.new_state(players, 0)  # load the card data once
    games = steps = 0
    t0 = clock()
    while clock() - t0 < seconds:
        s = eng.new_state(players, games)
        play(s, [RandomAgent(games * 10 + i) for i in range(players)])
        games += 1
        steps += s.steps
    dt = clock() - t0
    return games / dt, steps / dt


def search_states(game: str, players: int) -> list[State[Any]]:
    """States every 7 steps of 5 random games (what a search copies)."""
    eng = engine(game)
    states: list[State[Any]] = []
    for seed in range(5):
        s = eng.new_state(players, seed)
        agent = RandomAgent(seed)
        i = 0
        while not s.is_terminal():
            if i % 7 == 0:
                states.append(s.clone())
            s.apply(agent.choose(s, s.current_player))
            i += 1
    return states


def clones(game: str, players: int, seconds: float = 3.0) -> float:
    """clone() calls per second over states taken every 7 steps of 5 random games."""
    states = search_states(game, players)
    n = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        for st in states:
            st.clone()
        n += len(states)
    return n / (time.perf_counter() - t0)


def mcts_rate(game: str, players: int, iterations: int = 300) -> tuple[float, str]:
    """Search iterations (tree search) or playouts (paired search) per second at the opening, and which search."""
    eng = engine(game)
    total = 0.0
    n = 0
    for seed in range(3):
        s = eng.new_state(players, seed)
        bot = MctsAgent(eng, iterations=iterations, seed=seed)
        while len(s.legal_actions()) < 2:
            s.apply(s.legal_actions()[0])
        t = time.perf_counter()
        bot.choose(s, s.current_player)
        total += time.perf_counter() - t
        n += bot.last_iterations
    return n / total, bot.search


def automaton_play(game: str, players: int, seconds: float = 5.0) -> float:
    """Whole automaton games per second on one core (the engine and the automata, not the CLI)."""
    engine(game).new_state(players, 0)  # load the card data once
    games = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        run_one(game, games, 1, ["automaton"], players)
        games += 1
    return games / (time.perf_counter() - t0)


def jobs_speedup(game: str, players: int, games: int) -> tuple[float, float, float]:
    times = []
    for jobs in (1, 2):
        t = time.perf_counter()
        run_games(game, games, 1, ["automaton"], players, jobs=jobs)
        times.append(time.perf_counter() - t)
    return times[0], times[1], times[0] / times[1]


def main() -> None:
    quick = "--quick" in sys.argv
    games = [a for a in sys.argv[1:] if not a.startswith("--")] or engine_games()
    for game in games:
        eng = engine(game)
        for players in sorted({eng.min_players, eng.max_players}):
            gps, sps = random_play(game, players)
            print(f"{game} ({players} players): random play {gps:,.0f} games/s, {sps:,.0f} steps/s (one core)")
        print(f"{game} ({eng.min_players} players): clone {clones(game, eng.min_players):,.0f} states/s")
        if quick:
            continue
        print(f"{game} ({eng.max_players} players): automaton play "
              f"{automaton_play(game, eng.max_players):,.1f} games/s (one core)")
        rate, search = mcts_rate(game, eng.min_players)
        unit = "ISMCTS iterations" if search == "tree" else "paired-search playouts"
        print(f"{game}: mcts {rate:,.0f} {unit}/s at the opening")
        n = 6000 if game == "wizard-cards" else 300
        t1, t2, k = jobs_speedup(game, eng.min_players, n)
        print(f"{game}: solo check of {n} automaton games: --jobs 1 {t1:.2f} s, --jobs 2 {t2:.2f} s, "
              f"speed-up {k:.2f}x (floor 1.7x)")


if __name__ == "__main__":
    with recorded("solo engine speed"):
        main()
