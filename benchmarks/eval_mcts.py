"""How strong is the search bot (``mcts``)? 200 games against random and 200 against the automaton, at most about
1 s a move (the whole-budget search time is measured first: run this on an otherwise idle machine).

Slow (a Covenant game against random takes the bot a minute or two): run it by hand. Each finished game is
appended to a results file (``eval-GAME-BOT-RIVAL.jsonl`` in the current folder) and skipped when the run is
started again, so a run that is stopped goes on where it left off; game i is seeded from i alone, so the games
are the same whatever the chunks.

Usage: python benchmarks/eval_mcts.py GAME [ITERATIONS] [GAMES] [JOBS] [RIVAL,...] (rivals: random,automaton)"""

from __future__ import annotations

import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict
from pathlib import Path

from wizprint.solo.agents import make_agent
from wizprint.solo.agents.mcts import MctsAgent
from wizprint.solo.check import summarise
from wizprint.solo.kernel import engine
from wizprint.solo.runner import GameResult, run_one

SEED = 2024


def full_budget_times(game: str, iterations: int, positions: int = 40) -> tuple[float, float]:
    """Seconds a whole-budget search takes (no early stop), mean and max, over positions from automaton games:
    the most a move can cost the bot."""
    eng = engine(game)
    times: list[float] = []
    seed = 0
    while len(times) < positions:
        s = eng.new_state(eng.min_players, 1000 + seed)
        bots = [make_agent("automaton", eng, seed * 10 + i) for i in range(eng.min_players)]
        k = 0
        while not s.is_terminal() and len(times) < positions:
            legal = s.legal_actions()
            if len(legal) > 1 and k % 5 == 0:
                bot = MctsAgent(eng, iterations=iterations, seed=seed, early_stop=False)
                t = time.perf_counter()
                bot.choose(s, s.current_player)
                times.append(time.perf_counter() - t)
            if len(legal) > 1:
                k += 1
            s.apply(legal[0] if len(legal) == 1 else bots[s.current_player].choose(s, s.current_player))
        seed += 1
    return sum(times) / len(times), max(times)


def _one(args: tuple[str, int, list[str], int]) -> GameResult:
    game, i, bots, players = args
    return run_one(game, i, SEED, bots, players)


def play_resumable(game: str, games: int, bots: list[str], players: int, jobs: int, path: Path) -> list[GameResult]:
    done: dict[int, GameResult] = {}
    if path.exists():
        for line in path.read_text().splitlines():
            if line.strip():
                d = json.loads(line)
                done[d["index"]] = GameResult(**d)
    todo = [(game, i, bots, players) for i in range(games) if i not in done]
    if todo:
        print(f"  {len(done)} games already in {path}; playing {len(todo)}", flush=True)
        with path.open("a") as out, ProcessPoolExecutor(max_workers=jobs) as pool:
            for r in pool.map(_one, todo):
                out.write(json.dumps(asdict(r)) + "\n")
                out.flush()
                done[r.index] = r
    return [done[i] for i in range(games)]


def main() -> None:
    game = sys.argv[1]
    iterations = int(sys.argv[2]) if len(sys.argv) > 2 else 800
    games = int(sys.argv[3]) if len(sys.argv) > 3 else 200
    jobs = int(sys.argv[4]) if len(sys.argv) > 4 else 2
    rivals = sys.argv[5].split(",") if len(sys.argv) > 5 else ["random", "automaton"]
    players = engine(game).min_players
    # no time limit, so the games do not depend on the machine's load: the whole-budget search time measured
    # below (on an idle machine) is what a move costs at most
    bot = f"mcts:{iterations}"
    mean, worst = full_budget_times(game, iterations)
    print(f"{game}: mcts:{iterations} whole-budget search: mean {mean:.2f} s, slowest {worst:.2f} s a move "
          f"(40 positions)", flush=True)
    for rival in rivals:
        t = time.perf_counter()
        path = Path(f"eval-{game}-{bot.replace(':', '').replace('/', '-')}-{rival}.jsonl")
        res = play_resumable(game, games, [bot, rival], players, jobs, path)
        dt = time.perf_counter() - t
        s = summarise(game, res, SEED, [bot, rival], players, "", [], {})
        r = s["win_rate_by_bot"][bot]
        print(f"{game}: {bot} vs {rival}: win rate {r['win_rate']:.3f} (95% {r['ci95'][0]:.3f}-{r['ci95'][1]:.3f}, "
              f"{r['wins']} wins, {r['ties']} ties in {s['completed']} games, {len(s['errors'])} errors); "
              f"{dt:.0f} s wall this run", flush=True)


if __name__ == "__main__":
    main()
