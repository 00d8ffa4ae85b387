"""Solo engine benchmarks: random-play games/s and steps/s per game (the engine, one core), whole automaton games/s
at the most seats, the search bot's iterations (tree search) or playouts (paired search) per second, and the
speed-up of `solo check --jobs 2` over `--jobs 1`. Run: python benchmarks/bench_solo.py [game ...]"""

from __future__ import annotations

import sys
import time

from wizprint.solo.agents import RandomAgent
from wizprint.solo.agents.mcts import MctsAgent
from wizprint.solo.check import run_games
from wizprint.solo.games import available, get
from wizprint.solo.runner import play, run_one


def random_play(game: str, players: int, seconds: float = 3.0) -> tuple[float, float]:
    spec = get(game)
    spec.new_state(players, 0)  # load the card data once
    games = steps = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        s = spec.new_state(players, games)
        play(s, [RandomAgent(games * 10 + i) for i in range(players)])
        games += 1
        steps += s.steps
    dt = time.perf_counter() - t0
    return games / dt, steps / dt


def mcts_rate(game: str, players: int, iterations: int = 300) -> tuple[float, str]:
    """Search iterations (tree search) or playouts (paired search) per second at the opening, and which search."""
    spec = get(game)
    total = 0.0
    n = 0
    for seed in range(3):
        s = spec.new_state(players, seed)
        bot = MctsAgent(game, iterations=iterations, seed=seed)
        while len(s.legal_actions()) < 2:
            s.apply(s.legal_actions()[0])
        t = time.perf_counter()
        bot.choose(s, s.current_player)
        total += time.perf_counter() - t
        n += bot.last_iterations
    return n / total, bot.search


def automaton_play(game: str, players: int, seconds: float = 5.0) -> float:
    """Whole automaton games per second on one core (the engine and the automata, not the CLI)."""
    get(game).new_state(players, 0)  # load the card data once
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
    games = sys.argv[1:] or available()
    for game in games:
        spec = get(game)
        for players in sorted({spec.min_players, spec.max_players}):
            gps, sps = random_play(game, players)
            print(f"{game} ({players} players): random play {gps:,.0f} games/s, {sps:,.0f} steps/s (one core)")
        print(f"{game} ({spec.max_players} players): automaton play "
              f"{automaton_play(game, spec.max_players):,.1f} games/s (one core)")
        rate, search = mcts_rate(game, spec.min_players)
        unit = "ISMCTS iterations" if search == "tree" else "paired-search playouts"
        print(f"{game}: mcts {rate:,.0f} {unit}/s at the opening")
        n = 6000 if game == "wizard-cards" else 300
        t1, t2, k = jobs_speedup(game, spec.min_players, n)
        print(f"{game}: solo check of {n} automaton games: --jobs 1 {t1:.2f} s, --jobs 2 {t2:.2f} s, "
              f"speed-up {k:.2f}x (floor 1.7x)")


if __name__ == "__main__":
    main()
