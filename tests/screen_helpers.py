"""A game of `wizprint solo play` on a pseudo-terminal of 80 x 24, read through a terminal emulator (pyte): what the
player's screen holds at every prompt, not what the program printed. The game's own log file (written before each
decision is shown) says which log lines are new since the player's previous decision; each must have been on the
screen since then (at the decision itself, or on a '-- more' screen before it)."""

from __future__ import annotations

import os
import random
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pexpect
import pyte

ROWS, COLS = 24, 80
PROMPT = "your choice> "
MORE = "-- more: press Enter --"
# an option's number has at most 2 spaces before it: the rows of its text that wrap are indented by 3 or more (so a
# wrapped row that begins with a number, "   1 Life.", is not read as an option)
OPTION = re.compile(r"^ {0,2}(\d{1,3}) (\S.*)$")


@dataclass
class Decision:
    """One decision as the screen showed it: the question's rows, the options' texts (continuation rows joined),
    every screen shown since the previous decision, and the log lines that were new."""

    screen: list[str]
    question: str
    options: list[str]
    screens: list[list[str]]
    new_log: list[str]


@dataclass
class Game:
    decisions: list[Decision] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    ended: bool = False


def _normal(text: str) -> str:
    return " ".join(text.split())


def logical_lines(screen: list[str]) -> list[str]:
    """The screen's rows joined into the lines that were printed: a log line starts with '  > ', and the rows
    indented under it continue it, also past a '-- more' row (a page may end inside a wrapped line: its rest comes
    under the prompt, with the start still on the screen)."""
    out: list[str] = []
    for row in screen:
        if row.startswith(MORE):
            continue
        if row.startswith("  > "):
            out.append(row[4:].strip())
        elif out and row.startswith("    ") and row.strip():
            out[-1] += " " + row.strip()
        else:
            out.append(row.strip())
    return [_normal(x) for x in out]


def shown_lines(screens: list[list[str]]) -> list[str]:
    """The lines the screens showed one after the other (:func:`logical_lines`), a line that a page ended inside
    included whole: its first rows on one screen, the rows indented under it at the top of the next."""
    out: list[str] = []
    last = ""
    for screen in screens:
        rows = [r for r in screen if not r.startswith(MORE)]
        lead = 0
        while lead < len(rows) and rows[lead].startswith("    ") and rows[lead].strip():
            lead += 1
        if lead and last:
            out.append(_normal(" ".join([last, *(r.strip() for r in rows[:lead])])))
        lines = logical_lines(rows)
        out.extend(lines)
        last = next((x for x in reversed(lines) if x), "")
    return out


_PASS = re.compile(r"^((?:P\d+, )*P\d+) and (P\d+) pass$")


def _passes_apart(line: str) -> list[str]:
    """A line that says several seats passed, as the log's own lines (``P2 and P3 pass``: ``P2 passes``, ``P3
    passes``); any other line as it is."""
    m = _PASS.match(line)
    if not m:
        return [line]
    return [f"{seat} passes" for seat in [*m.group(1).split(", "), m.group(2)]]


def read_decision(screen: list[str]) -> tuple[str, list[str]] | None:
    """The question and the numbered options above the prompt on the last row with text, or None.

    The options are numbered right-aligned in a column as wide as the largest number and one space more, and an
    option's text wraps under itself, one column further in: so a wrapped row that starts with a number ("   1 card.
    +1 power...") is told from an option row by where its number ends."""
    rows = [r.rstrip() for r in screen]
    last = max((i for i, r in enumerate(rows) if r.strip()), default=-1)
    if last < 0 or not rows[last].startswith(PROMPT.rstrip()):
        return None
    for width in (2, 3, 4):  # where an option's number ends: fewer than 10, 100 or 1000 options
        got = _options_above(rows, last, width)
        if got is not None and len(str(len(got[1]))) + 1 == width:
            break
    else:
        return None
    i, options = got
    # the question: the rows above option 1 that are not log lines or blank
    q: list[str] = []
    j = i - 1
    while j >= 0 and rows[j].strip() and not rows[j].startswith(("  > ", "    ", "─")):
        q.append(rows[j].strip())
        j -= 1
    return _normal(" ".join(reversed(q))), options


def _options_above(rows: list[str], last: int, width: int) -> tuple[int, list[str]] | None:
    """The numbered options above row ``last`` when their numbers end at column ``width`` (and their wrapped rows
    start one column further): the row of option 1 and the options' texts, or None."""
    options: dict[int, str] = {}
    i = last - 1
    cont: list[str] = []
    while i >= 0:
        m = OPTION.match(rows[i])
        if m and m.end(1) == width:
            k = int(m.group(1))
            options[k] = _normal(" ".join([m.group(2), *reversed(cont)]))
            cont = []
            if k == 1:
                break
        elif rows[i].startswith(" " * (width + 1)) and rows[i].strip():
            cont.append(rows[i].strip())  # an option's text wrapped under itself
        else:
            return None
        i -= 1
    if 1 not in options or sorted(options) != list(range(1, len(options) + 1)):
        return None
    return i, [options[k] for k in sorted(options)]


def play(game: str, args: list[str], cwd: Path, choose: Callable[[Decision, random.Random], str],
         max_prompts: int, seed: int = 7) -> Game:
    """Play ``game`` on an 80 x 24 pseudo-terminal, answering each decision with ``choose``; stop after
    ``max_prompts`` decisions (then quit, which saves) or at the end of the game."""
    log_file = cwd / "game.log"
    env = dict(os.environ, NO_COLOR="1", TERM="dumb", COLUMNS=str(COLS), LINES=str(ROWS))
    p = pexpect.spawn(sys.executable, ["-m", "wizprint", "solo", "play", game, *args, "--log-file", str(log_file),
                                       "--save-file", str(cwd / "game.save.json")],
                      env=env, encoding="utf-8", timeout=120, cwd=str(cwd), dimensions=(ROWS, COLS))
    p.delaybeforesend = None
    p.delayafterread = None
    term = pyte.Screen(COLS, ROWS)
    stream = pyte.Stream(term)
    rng = random.Random(seed)
    result = Game()
    screens: list[list[str]] = []
    seen_log = 0
    while True:
        i = p.expect([PROMPT, MORE, "Game over", pexpect.EOF])
        stream.feed(p.before + (p.after if isinstance(p.after, str) else ""))
        shot = [row.rstrip() for row in term.display]
        screens.append(shot)
        for row in shot:
            if "…" in row:
                result.problems.append(f"a text cut with '…': {row!r}")
        if i == 1:
            p.sendline("")
            continue
        if i != 0:
            result.ended = i == 2
            break
        lines = log_file.read_text(encoding="utf-8").splitlines()[1:]
        new = lines[seen_log:]
        seen_log = len(lines)
        got = read_decision(shot)
        if got is None:
            result.problems.append("a prompt without its question and numbered options on the screen:\n"
                                   + "\n".join(shot))
            p.sendline("quit")
            break
        d = Decision(shot, got[0], got[1], screens, new)
        result.decisions.append(d)
        shown = {y for x in shown_lines(screens) for y in _passes_apart(x)}
        for ln in new:
            if _normal(ln) not in shown:
                result.problems.append(f"decision {len(result.decisions)}: the log line {ln!r} was not on the "
                                       f"screen since the previous decision")
        if len(d.options) < 2:
            result.problems.append(f"decision {len(result.decisions)}: a prompt with one option: {d.question!r} "
                                   f"{d.options}")
        screens = []
        if len(result.decisions) >= max_prompts:
            p.sendline("quit")
            p.expect([pexpect.EOF])
            break
        p.sendline(choose(d, rng))
    p.close()
    return result


def at_random(d: Decision, rng: random.Random) -> str:
    return str(rng.randint(1, len(d.options)))
