"""`wizprint build GAME --watch`: a build, then a rebuild on every save of the game's files, with proof.png showing
each changed card before and after; an edit with a mistake prints its problem and keeps the last good build;
Ctrl-C ends it cleanly."""

from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from cli_helpers import run_here

WAIT = 60.0  # seconds: a rebuild takes about one on a quiet machine


def _wait_for(proc: subprocess.Popen[str], log: Path, words: str, after: int = 0) -> str:
    end = time.monotonic() + WAIT
    while time.monotonic() < end:
        text = log.read_text(encoding="utf-8")
        if words in text[after:]:
            return text
        assert proc.poll() is None, text
        time.sleep(0.1)
    raise AssertionError(f"no {words!r} within {WAIT} s:\n{log.read_text(encoding='utf-8')}")


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_save_rebuilds_with_a_proof_and_a_mistake_keeps_the_last_good_build(tmp_path: Path) -> None:
    assert run_here("new", "duel", "--from", "wizard-cards", cwd=tmp_path).returncode == 0
    log = tmp_path / "watch.log"
    with log.open("w", encoding="utf-8") as out:
        proc = subprocess.Popen([sys.executable, "-m", "wizprint", "build", "./duel", "--no-svg", "-j", "1",
                                 "--watch"], cwd=tmp_path, stdout=out, stderr=subprocess.STDOUT, text=True,
                                env=dict(os.environ, PYTHONUNBUFFERED="1"))
    try:
        _wait_for(proc, log, "for changes (Ctrl-C to stop)")
        build = tmp_path / "output" / "duel"
        first = _sha(build / "cards-spells.pdf")
        # a spell renamed: its card is drawn again, the others are not
        cards = tmp_path / "duel" / "components.toml"
        text = cards.read_text(encoding="utf-8")
        cards.write_text(text.replace('spell = "Zap"', 'spell = "Zippy"', 1), encoding="utf-8")
        seen = _wait_for(proc, log, "proof: 1 changed face (AC)")
        assert (build / "proof.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        good = _sha(build / "cards-spells.pdf")
        assert good != first
        # a mistake: said with its file and line, and the last good build stays
        game = tmp_path / "duel" / "game.toml"
        game.write_text(game.read_text(encoding="utf-8").replace("min = 2", 'min = "two"', 1), encoding="utf-8")
        seen = _wait_for(proc, log, "the last good build is kept", len(seen))
        assert "error: duel/game.toml:" in seen
        assert _sha(build / "cards-spells.pdf") == good
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=WAIT) == 0
        assert log.read_text(encoding="utf-8").rstrip().endswith("stopped watching")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_watch_is_for_one_game(tmp_path: Path) -> None:
    r = run_here("build", "all", "--watch", cwd=tmp_path)
    assert r.returncode == 2 and "--watch watches one game" in r.stderr
