"""How strong is the ISMCTS bot? 200 games against random and 200 against the automaton, at most ~1 s a move.
Slow (tens of minutes): run it by hand. Usage: python benchmarks/eval_mcts.py GAME [ITERATIONS] [GAMES] [JOBS]"""

from __future__ import annotations

import sys
import time

from wizprint.solo.check import run_games, summarise
from wizprint.solo.games import get


def main() -> None:
    game = sys.argv[1]
    iterations = int(sys.argv[2]) if len(sys.argv) > 2 else 800
    games = int(sys.argv[3]) if len(sys.argv) > 3 else 200
    jobs = int(sys.argv[4]) if len(sys.argv) > 4 else 2
    players = get(game).min_players
    bot = f"mcts:{iterations}"
    for rival in ("random", "automaton"):
        t = time.perf_counter()
        res = run_games(game, games, 2024, [bot, rival], players, jobs=jobs)
        dt = time.perf_counter() - t
        s = summarise(game, res, 2024, [bot, rival], players, "", [], {})
        r = s["win_rate_by_bot"][bot]
        moves = sum(x.steps for x in res) / 2  # about half the decisions are the bot's
        print(f"{game}: {bot} vs {rival}: win rate {r['win_rate']:.3f} (95% {r['ci95'][0]:.3f}-{r['ci95'][1]:.3f}, "
              f"{r['wins']} wins, {r['ties']} ties in {s['completed']} games, {len(s['errors'])} errors); "
              f"about {dt * jobs / max(1.0, moves):.2f} s of bot time a move at most; {dt:.0f} s wall", flush=True)


if __name__ == "__main__":
    main()
