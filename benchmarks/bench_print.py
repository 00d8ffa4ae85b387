"""Print benchmarks: cards per second, how PDF size grows with copies and with designs, and the wall time of
`wizprint build covenant`. Run: python benchmarks/bench_print.py"""

from __future__ import annotations

import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from results import recorded

from wizprint.generator.build import BuildOptions, build_game
from wizprint.resources import cards_dir, layouts_dir

WORDS = ["steal", "destroy", "draw", "look_deck", "roll_bonus"]


def make_game(root: Path, designs: int, copies: int) -> Path:
    """A game folder with ``designs`` distinct spell cards of ``copies`` each, using Covenant's vocabulary and
    layout."""
    g = root / f"bench-{designs}x{copies}"
    g.mkdir(parents=True)
    total = designs * copies
    (g / "game.toml").write_text(f'''id = "bench"
name = "Benchmark"
version = "1.0"
[fields.vp]
type = "int"
[fields.ability]
type = "str"
[fields.school]
type = "str"
[[decks]]
id = "main"
name = "Bench deck"
count = {total}
[[types]]
id = "spell"
name = "Spell"
deck = "main"
''')
    shutil.copy(cards_dir() / "covenant" / "vocabulary.toml", g / "vocabulary.toml")
    shutil.copy(layouts_dir() / "covenant" / "layout.toml", g / "layout.toml")
    rows = []
    for i in range(designs):
        w = WORDS[i % len(WORDS)]
        eff = {"steal": '{ word = "steal", what = "item" }', "destroy": '{ word = "destroy", what = "resource" }',
               "draw": f'{{ word = "draw", n = {1 + i % 3} }}',
               "look_deck": f'{{ word = "look_deck", n = {1 + i % 9} }}',
               "roll_bonus": f'{{ word = "roll_bonus", n = {1 + i % 3}, roll = "either" }}'}[w]
        rows.append(f'[[card]]\nid = "B{i:04d}"\nname = "Spell number {i}"\ntype = "spell"\ncopies = {copies}\n'
                    f"effects = [{eff}]\n")
    (g / "cards.toml").write_text("\n".join(rows))
    return g


def timed_build(game: Path, out: Path, reps: int = 3) -> tuple[float, int]:
    opts = BuildOptions(svg=False, png=False, csv=False, sheets=False)
    times = []
    for _ in range(reps):
        shutil.rmtree(out, ignore_errors=True)
        t = time.perf_counter()
        build_game(game, out, opts)
        times.append(time.perf_counter() - t)
    return min(times), (out / "cards-main.pdf").stat().st_size


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        # warm up fonts and caches once
        timed_build(make_game(root / "w", 10, 1), root / "w-out", 1)
        t100, _ = timed_build(make_game(root, 100, 1), root / "o100")
        t1000, s1000 = timed_build(make_game(root, 1000, 1), root / "o1000")
        print(f"cards per second, 1000 distinct designs: {1000 / t1000:,.0f} ({t1000:.2f} s for 1000 cards)")
        print(f"10x the cards (100 -> 1000 designs) costs {t1000 / t100:.1f}x the time "
              f"({t100:.3f} s -> {t1000:.3f} s; floor: at most 11x)")
        _, s1x100 = timed_build(make_game(root, 1, 100), root / "c100", 1)
        _, s1x1000 = timed_build(make_game(root, 1, 1000), root / "c1000", 1)
        print(f"PDF size, 1 design x 1000 copies: {s1x1000 / 1024:,.0f} KiB; 1000 designs x 1 copy: "
              f"{s1000 / 1024:,.0f} KiB")
        per_copy = (s1x1000 - s1x100) / 900
        print(f"bytes per added copy of one design (1000 vs 100 copies): {per_copy:.0f} (floor: under 500)")
        exe = Path(sys.executable).with_name("wizprint")
        for game, floor in (("covenant", 2), ("wizard-cards", 2), ("relic", 5)):
            walls = []
            for _ in range(5):
                out = root / game
                shutil.rmtree(out, ignore_errors=True)
                t = time.perf_counter()
                subprocess.run([str(exe), "build", game, "-o", str(out), "-q"], check=True)
                walls.append(time.perf_counter() - t)
            print(f"wizprint build {game}, wall (process start to exit), median of 5: {statistics.median(walls):.2f} s "
                  f"(floor: under {floor} s)")


if __name__ == "__main__":
    with recorded("print sizes"):
        main()
