"""Text from a file never drives the terminal: a saved game's log lines, a card's name from a game folder, a
scenario's title and the messages that quote any of them reach the screen without their control sequences (a
window title set, the screen cleared, colours, a carriage return, a bidirectional override), while their words,
accents and dashes are shown as they are."""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
from pathlib import Path
from typing import Any

import pexpect
import pyte
import pytest
from cli_helpers import run_here
from test_solo_safety import saved

from wizprint.resources import cards_dir
from wizprint.termtext import safe_text

# what must never reach the terminal from a file: C0 controls but tab and line feed, DEL, C1 controls (CSI 0x9b
# among them), the bidirectional controls, the line and paragraph separators
FORBIDDEN = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]")

# a log line as a shared save may hold it: the window title set to "owned" (ended by ESC \\: rich drops a BEL, not
# an ESC), the screen cleared and the cursor sent home, red text, the C1 form of "clear the screen", reversed text,
# a terminal reset, a carriage return that would let "done" overwrite the start of the line
HOSTILE = ("P2 casts \x1b]0;owned\x1b\\Fireball \x1b[2J\x1b[Hat \x1b[31mP1\x1b[0m \x9b2J\u202eesrever\u202c "
           "\x1bc\rdone")
SHOWN = "P2 casts Fireball at P1 esrever done"  # the same line as it must be shown (checked by hand)


@pytest.mark.parametrize("text,shown", [
    (HOSTILE, SHOWN),
    ("title \x1b]2;set\x07 kept", "title  kept"),  # OSC ended by BEL
    ("link \x1b]8;;https://example.org\x1b\\here\x1b]8;;\x1b\\", "link here"),  # a hyperlink's target is dropped
    ("a \x9d0;c1 title\x9c b", "a  b"),  # the 8-bit OSC and string terminator
    ("\x1bP+q1b5b\x1b\\x\x1b7y\x1b(Bz", "xyz"),  # a DCS request, save cursor, character set
    ("cut \x1b[3", "cut "),  # a sequence cut off at the end
    ("bell\x07 back\x08space del\x7f nul\x00", "bell backspace del nul"),
    ("one\u2028two\u2029three\u2066four\u2069", "onetwothreefour"),
    ("Légende — « 3 × 2 » ✓ ½\tcol\nnext", "Légende — « 3 × 2 » ✓ ½\tcol\nnext"),  # text, tab and line feed kept
    ("[bold]Fireball[/bold] [dim](3)[/dim]", "[bold]Fireball[/bold] [dim](3)[/dim]"),  # rich markup is text
])
def test_safe_text_drops_control_sequences_whole_and_keeps_the_words(text: str, shown: str) -> None:
    assert safe_text(text) == shown
    assert not FORBIDDEN.search(safe_text(text))


def _hostile_save(tmp_path: Path) -> Path:
    """A Covenant save (3 seats, the human at seat 0) whose log ends with hostile lines, one for everybody and one
    for the human's eyes only, all shown on resume (``shown`` 0)."""
    data: dict[str, Any] = saved("covenant", 3, 12)
    data["state"]["log"] += [{"text": HOSTILE, "seats": None}, {"text": "you \x1b[2Jsee \u202eit", "seats": [0]}]
    data["shown"] = 0
    path = tmp_path / "shared.save.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_a_shared_saves_log_lines_reach_the_screen_without_control_sequences(tmp_path: Path) -> None:
    """Resumed (the new log lines are shown), then the whole log ('log'): every line shown, no control sequence;
    the game's log file, read on a terminal too, holds none either."""
    save = _hostile_save(tmp_path)
    log = tmp_path / "game.log"
    r = run_here("solo", "play", "covenant", "--load", str(save), "--log-file", str(log), "--save-file",
                 str(tmp_path / "out.save.json"), input="log\nquit\n")
    out = r.stdout + r.stderr
    assert r.returncode == 0, out
    assert (bad := FORBIDDEN.search(out)) is None, (bad, out[max(0, bad.start() - 80):bad.start() + 80])
    assert "owned" not in out  # the window title it would have set is not shown as text either
    assert out.count(SHOWN) == 2 and out.count("you see it") == 2  # on resume, and in 'log'
    text = log.read_text(encoding="utf-8")
    assert SHOWN in text and "you see it" in text and not FORBIDDEN.search(text)


def test_a_shared_saves_log_lines_leave_a_terminals_title_and_screen_alone(tmp_path: Path) -> None:
    """The same save resumed on a pseudo-terminal, the screen read through a terminal emulator (pyte): the window
    title is never set, nothing clears the screen, and the bytes wizprint sends hold no OSC, no 'clear' and no C1
    or bidirectional control (rich's own colours are the only escape sequences)."""
    save = _hostile_save(tmp_path)
    env = dict(os.environ, TERM="xterm-256color", COLUMNS="100", LINES="1000")
    env.pop("NO_COLOR", None)
    p = pexpect.spawn(sys.executable, ["-m", "wizprint", "solo", "play", "covenant", "--load", str(save),
                                       "--save-file", str(tmp_path / "out.save.json")],
                      env=env, encoding="utf-8", timeout=120, cwd=str(tmp_path), dimensions=(1000, 100))
    p.delaybeforesend = None
    p.expect("your choice> ")
    seen = p.before + p.after
    p.sendline("log")
    p.expect("your choice> ")
    seen += p.before + p.after
    p.sendline("quit")
    p.expect(pexpect.EOF)
    seen += p.before
    p.close()
    assert p.exitstatus == 0, seen[-2000:]
    screen = pyte.Screen(100, 1000)
    titles: list[str] = []
    screen.set_title = titles.append  # type: ignore[method-assign]
    pyte.Stream(screen).feed(seen)
    rows = [r.rstrip() for r in screen.display]
    assert titles == []
    assert rows[0].startswith("Covenant"), rows[:3]  # the first line printed is still on the screen: not cleared
    assert sum(SHOWN in r for r in rows) == 2, [r for r in rows if "Fireball" in r]
    assert "\x1b]" not in seen and "\x1b[2J" not in seen and "\x1bc" not in seen
    assert not re.search(r"[\x80-\x9f\u202a-\u202e\u2066-\u2069]", seen)


def _folder_with_name(tmp_path: Path, name: str) -> Path:
    """A copy of Covenant whose spell S06 (in the human's first hand with seed 8) has the TOML text ``name``."""
    dst = tmp_path / "covenant"
    shutil.copytree(cards_dir() / "covenant", dst, ignore=shutil.ignore_patterns("__pycache__"))
    spells = dst / "spells.toml"
    text = spells.read_text(encoding="utf-8")
    assert 'name = "Legend Lore"' in text
    spells.write_text(text.replace('name = "Legend Lore"', f'name = "{name}"', 1), encoding="utf-8")
    return dst


def test_a_card_name_from_a_game_folder_reaches_the_screen_without_control_sequences(tmp_path: Path) -> None:
    """A name with a C1 'clear the screen' and a right-to-left override (the loader takes them: they are not C0
    controls) is shown without them in the play screen's log, options and 'look'."""
    g = _folder_with_name(tmp_path, r"Legend\u009b2J Lore\u202eX")
    r = run_here("solo", "play", str(g), "--players", "3", "--seed", "8", "--save-file",
                 str(tmp_path / "g.save.json"), "--log-file", str(tmp_path / "g.log"), input="look S06\nlog\nquit\n")
    out = r.stdout + r.stderr
    assert r.returncode == 0, out
    assert (bad := FORBIDDEN.search(out)) is None, (bad, out[max(0, bad.start() - 80):bad.start() + 80])
    assert out.count("S06 Legend LoreX") >= 3, out  # the first hand shown, 'look' and 'log'


def test_a_card_name_with_an_escape_sequence_is_refused_with_a_message_that_does_not_obey_it(tmp_path: Path) -> None:
    g = _folder_with_name(tmp_path, r"Legend\u001b]0;owned\u0007 Lore")
    for args in (("validate", str(g)), ("solo", "play", str(g), "--players", "3")):
        r = run_here(*args, input="quit\n")
        assert r.returncode == 1, r.stdout + r.stderr
        assert "spells.toml" in r.stderr and "holds a control character" in r.stderr, r.stderr
        assert not FORBIDDEN.search(r.stdout + r.stderr)


def test_a_scenario_files_title_and_failures_reach_the_screen_without_control_sequences(tmp_path: Path) -> None:
    f = tmp_path / "shared.toml"
    f.write_text('game = "wizard-cards"\ntitle = "Sara\\u001b]0;owned\\u0007\'s \\u001b[2Jward \\u202eX"\n'
                 '[setup]\nhands = [["KH", "9C"], ["AS", "3S"]]\n[expect]\n"nothing\\u001b[31m" = 1\n',
                 encoding="utf-8")
    r = run_here("solo", "scenario", str(f))
    out = r.stdout + r.stderr
    assert r.returncode == 1, out
    assert out.startswith(f"FAIL: {f}: "), out
    assert "unknown probe" in out and not FORBIDDEN.search(out), out


def test_data_written_to_stdout_is_kept_whole_in_a_pipe_and_shown_safely_on_a_terminal(tmp_path: Path) -> None:
    """``export csv -`` (and ``vocabulary``) write a card's text as it is into a pipe or a file (an export imports
    back the same), but on a terminal without the right-to-left override a name holds."""
    g = _folder_with_name(tmp_path, r"Legend \u202eLore")
    piped = run_here("export", "csv", str(g))
    assert piped.returncode == 0 and "Legend \u202eLore" in piped.stdout
    env = dict(os.environ, TERM="dumb", COLUMNS="200")
    p = pexpect.spawn(sys.executable, ["-m", "wizprint", "export", "csv", str(g)], env=env, encoding="utf-8",
                      timeout=120, cwd=str(tmp_path))
    p.expect(pexpect.EOF)
    shown = p.before
    p.close()
    assert p.exitstatus == 0, shown[-2000:]
    assert "Legend Lore" in shown and not FORBIDDEN.search(shown.replace("\r\n", "\n"))
