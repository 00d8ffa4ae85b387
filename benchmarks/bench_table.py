"""Table mode at scale: many whole games of every table game on the simulated table of the tests
(``tests/table_helpers.py``: a person who owns a shuffled physical copy of the components, answers the program as a
person would, and after every move checks that each automaton seat sees the same in the program's belief and on the
table). Counts the games that ended in an error (0 expected) and their time.

Run: python benchmarks/bench_table.py [--games N] (default 100 a game, seats, players, dice modes and the person's
play varied as the tests vary them)."""

from __future__ import annotations

import argparse
import importlib
import sys
import time
from pathlib import Path
from typing import Any

from results import recorded

from wizprint.solo.kernel import engine

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))


def table_games() -> dict[str, tuple[str, int, list[str]]]:
    """The games the tests play at a table: ``{game: (package, players, variants)}``."""
    tests: Any = importlib.import_module("test_table")
    games: dict[str, tuple[str, int, list[str]]] = tests.TABLE_GAMES
    return games


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=100, help="games a game")
    args = ap.parse_args()
    helpers: Any = importlib.import_module("table_helpers")
    with recorded("table mode"):
        print(f"Simulated tables, {args.games} whole games a game (seats, players, dice and the person's play varied):")
        for game, (package, _, variants) in sorted(table_games().items()):
            policy = importlib.import_module(f"wizprint.solo.games.{package}.table").POLICY
            eng = engine(game)
            lo, hi = eng.min_players, min(eng.max_players, 4)
            errors: list[str] = []
            moves = 0
            t = time.process_time()
            for i in range(args.games):
                n = lo + i % (hi - lo + 1)
                try:
                    st = helpers.SimulatedTable(eng, policy, n, i % n, 1000 + i, variant=variants[i % len(variants)],
                                                player="random" if i % 2 else "automaton",
                                                dice="physical" if i % 3 else "app")
                    st.play()
                    moves += st.moves
                except Exception as exc:  # a game that fails is counted and named, the others go on
                    errors.append(f"game {i} ({n} players, seed {1000 + i}): {type(exc).__name__}: "
                                  f"{str(exc).splitlines()[0][:160] if str(exc) else ''}")
            spent = time.process_time() - t
            print(f"  {game}: {args.games} games ({lo}-{hi} players), {len(errors)} errors, {moves} moves, "
                  f"{spent / args.games:.2f} s CPU a game")
            for e in errors[:5]:
                print(f"    {e}")


if __name__ == "__main__":
    main()
