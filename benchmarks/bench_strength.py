"""How strong is each game's search bot (``mcts``, at the budget its ``[engine]`` table sets), and how long does it
think? One table for the five games: the bot against random play and against the game's automaton, at the
fewest seats the game takes, the bot on each seat in turn (game i: the bot on seat i mod the seats, seeded from i
alone), with the win rate's 95 % interval and the bot's mean and slowest move time (the CPU seconds of its search,
only the moves where it had a choice: on an idle machine the player waits that long; measured as CPU time so that
other work on the machine does not lengthen it).

Slow (hours for 200 games a cell): run it by hand. Every finished game is appended to a results file
(``strength-GAME-BOT-RIVAL.jsonl`` under ``--results``, default ``benchmarks/results/``) and skipped when the run is
started again, so a stopped run goes on where it left off and more games extend a cell. The table is printed and
written to ``benchmarks/RESULTS.md`` (its own section; the other benchmarks' sections are kept).

Usage: python benchmarks/bench_strength.py [--games N] [--jobs J] [--game G ...] [--rival random|automaton ...]
       [--bot SPEC] [--results DIR]
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from results import write_section

from wizprint.solo.agents import make_agent
from wizprint.solo.kernel import engine, engine_games
from wizprint.solo.kernel.rng import derive

SEED = 2024
HERE = Path(__file__).resolve().parent
SECTION = "search bot strength"  # its section of benchmarks/RESULTS.md


@dataclass
class Played:
    index: int
    points: float  # the bot's: 1 a win, 0.5 a shared win, 0 a loss
    moves: int  # moves the bot chose among two or more
    seconds: float  # their total CPU time
    slowest: float
    error: str | None = None


def play_one(args: tuple[str, str, str, int]) -> Played:
    game, bot_spec, rival, i = args
    eng = engine(game)
    players = eng.min_players
    seed = derive(SEED, i)
    bot_seat = i % players
    state = eng.new_state(players, seed)
    agents = [make_agent(bot_spec if k == bot_seat else rival, eng, derive(seed, "agent", k)) for k in range(players)]
    moves, total, slowest = 0, 0.0, 0.0
    try:
        while not state.is_terminal():
            seat = state.current_player
            legal = state.legal_actions()
            if len(legal) == 1:
                state.apply(legal[0])
                continue
            t = time.process_time()
            action = agents[seat].choose(state, seat)
            if seat == bot_seat:
                dt = time.process_time() - t
                moves += 1
                total += dt
                slowest = max(slowest, dt)
            state.apply(action)
    except Exception as exc:  # a failure is a result to report, not the end of the run
        return Played(i, 0.0, moves, total, slowest, f"{type(exc).__name__}: {exc}")
    outcome = state.outcome()
    assert outcome is not None
    won = outcome.winners
    points = (1.0 / len(won) if len(won) > 1 else 1.0) if bot_seat in won else 0.0
    return Played(i, points, moves, total, slowest)


def cell(game: str, bot: str, rival: str, games: int, jobs: int, folder: Path) -> list[Played]:
    """The results of games 0 .. games-1 of the bot against ``rival``, from the results file and new games."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"strength-{game}-{bot.replace(':', '').replace('/', '-')}-{rival}.jsonl"
    done: dict[int, Played] = {}
    if path.exists():
        for line in path.read_text().splitlines():
            if line.strip():
                p = Played(**json.loads(line))
                done[p.index] = p
    todo = [(game, bot, rival, i) for i in range(games) if i not in done]
    if todo:
        print(f"  {game}, {bot} against {rival}: {len(done)} games in {path.name}; playing {len(todo)}", flush=True)
        with path.open("a") as out, ProcessPoolExecutor(max_workers=jobs) as pool:
            for p in pool.map(play_one, todo):
                out.write(json.dumps(asdict(p)) + "\n")
                out.flush()
                done[p.index] = p
    return [done[i] for i in range(games)]


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson interval of a win rate."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def row(game: str, bot: str, rival: str, res: list[Played]) -> dict[str, Any]:
    ok = [r for r in res if r.error is None]
    wins = sum(r.points for r in ok)
    lo, hi = wilson(wins, len(ok))
    moves = sum(r.moves for r in ok)
    return {"game": game, "bot": bot, "rival": rival, "games": len(ok), "errors": len(res) - len(ok),
            "win_rate": wins / len(ok) if ok else 0.0, "ci95": (lo, hi),
            "mean_move": sum(r.seconds for r in ok) / moves if moves else 0.0,
            "slowest_move": max((r.slowest for r in ok), default=0.0), "moves": moves}


def table(rows: list[dict[str, Any]]) -> list[str]:
    out = ["| game | bot | against | games | bot's win rate (95 %) | mean move | slowest move |",
           "|---|---|---|---|---|---|---|"]
    for r in rows:
        err = f", {r['errors']} errors" if r["errors"] else ""
        out.append(f"| {r['game']} | `{r['bot']}` | {r['rival']} | {r['games']}{err} | {r['win_rate'] * 100:.1f} % "
                   f"({r['ci95'][0] * 100:.1f}-{r['ci95'][1] * 100:.1f}) | {r['mean_move']:.2f} s | "
                   f"{r['slowest_move']:.2f} s |")
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--game", action="append", help="a game id (default: every game)")
    ap.add_argument("--rival", action="append", choices=["random", "automaton"])
    ap.add_argument("--bot", default="mcts", help="the search bot, e.g. mcts (each game's budget) or mcts:200")
    ap.add_argument("--results", type=Path, default=HERE / "results")
    a = ap.parse_args()
    games = a.game or engine_games()
    rivals = a.rival or ["random", "automaton"]
    rows = [row(g, a.bot, r, cell(g, a.bot, r, a.games, a.jobs, a.results)) for g in games for r in rivals]
    lines = table(rows)
    budgets = ", ".join(f"{g} {engine(g).decl.search_budget}" for g in games)
    lines += ["", f"{a.games} games a row, at the fewest seats each game takes, the bot on each seat in turn; `mcts` "
                  f"is each game's own budget ({budgets}); move times are CPU seconds of the search on the machine "
                  f"of the run, only for moves with a choice."]
    print("\n".join(lines))
    cmd = "python benchmarks/bench_strength.py" + "".join(f" {x}" for x in sys.argv[1:])
    write_section(SECTION, cmd, lines)


if __name__ == "__main__":
    main()
