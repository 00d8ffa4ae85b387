"""Every speed figure in one run, each against its baseline: the builds (``bench_build.py``: `build
relic` against a bare reportlab loop, 1,000 distinct designs against the loop, `build wizard-cards` against Squib)
and the engines (``bench_engines.py``: Relic and Covenant against OpenSpiel's python_block_dominoes, Relic's search,
clone and determinize, Wizard Cards against a hand-tight loop). Run: python benchmarks/bench_speed.py"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> None:
    for script in ("bench_build.py", "bench_engines.py"):
        print(f"== {script}", flush=True)
        subprocess.run([sys.executable, str(HERE / script)], check=True)


if __name__ == "__main__":
    main()
