"""The terminal side of ``wizprint solo play``: a console whose prints Ctrl-C cannot cut, the reading of answers,
and the screen laid out as rows of the terminal's width, so that what a decision shows can be measured and paged
(a screenful at a time, each followed by a '-- more' prompt) and no row scrolls away unseen. An option can be
chosen by a card's id or part of its text (:func:`match_option`)."""

from __future__ import annotations

import contextlib
import difflib
import os
import re
import signal
import threading
from collections.abc import Iterator, Sequence
from typing import IO, Any, TextIO

try:
    import termios
except ImportError:  # not on POSIX: Ctrl-C's flush cannot be turned off, and nothing else changes
    termios = None  # type: ignore[assignment]

from rich.console import Console
from rich.markup import escape
from rich.text import Text

from wizprint.errors import quote
from wizprint.termtext import safe_text


class WholeLines(Console):
    """A rich Console whose prints Ctrl-C cannot cut in half: SIGINT (and SIGTERM) wait until the print is done.
    A Console keeps state across prints (a buffer, and a count of prints under way): interrupted at the wrong
    moment, it printed a line twice, or held every later line in its buffer, the "Saved to ..." of the interrupted
    game included (seen once in 60 to 150 interrupted games on a busy machine).

    What it prints is text without control sequences (:func:`~wizprint.termtext.safe_text`): the rows below are
    made of such text already (so that they are measured as shown), and anything else printed is cleaned here."""

    def print(self, *objects: Any, **kwargs: Any) -> None:
        objects = tuple(_safe(o) for o in objects)
        with interrupts_held():
            super().print(*objects, **kwargs)


def _safe(obj: Any) -> Any:
    """A text or rich Text without control sequences; anything else as it is."""
    if isinstance(obj, str):
        return safe_text(obj)
    if isinstance(obj, Text) and (clean := safe_text(obj.plain)) != obj.plain:
        out = obj.copy()
        out.plain = clean
        return out
    return obj


class Terminal:
    """The human's side: prints with rich, reads lines from ``inp``."""

    def __init__(self, inp: TextIO, console: Console):
        self.inp = inp
        self.console = console
        self.height: int | None = None  # rows of the screen, when what is shown is paged

    def ask(self, prompt: str) -> str | None:
        self.console.print(prompt, end="")
        try:
            line = self.inp.readline()
        except KeyboardInterrupt:
            return None
        if line == "":
            return None
        return line.strip()

    def say(self, text: str) -> None:
        self.console.print(escape(safe_text(text)), highlight=False)


@contextlib.contextmanager
def output_kept_on_interrupt(inp: TextIO) -> Iterator[None]:
    """While the game runs on a terminal, Ctrl-C does not make the terminal discard output (``NOFLSH``): a terminal
    empties its output queue when it sends SIGINT, which could throw away what the game printed just before (what it
    prints after the interrupt is kept whole by :class:`WholeLines`). The terminal's own settings come back when the
    game ends. A no-op when the input is not a terminal, or where there is no ``termios``."""
    old = _noflsh(inp)
    try:
        yield
    finally:
        if old is not None:
            with interrupts_held(), contextlib.suppress(termios.error):
                termios.tcsetattr(inp.fileno(), termios.TCSANOW, old)


def _noflsh(inp: TextIO) -> list[Any] | None:
    """Set ``NOFLSH`` on the terminal ``inp`` reads from; returns its settings before (None: not a terminal, a
    stream with no file behind it, or settings that could not be changed)."""
    try:
        if termios is None or not inp.isatty():
            return None
        fd = inp.fileno()
        old = termios.tcgetattr(fd)
        termios.tcsetattr(fd, termios.TCSANOW, [*old[:3], old[3] | termios.NOFLSH, *old[4:]])
    except (OSError, ValueError, AttributeError, termios.error):
        return None
    return old


@contextlib.contextmanager
def interrupts_held() -> Iterator[None]:
    """Ctrl-C (and SIGTERM) wait until the block ends: a save is not cut short (in the main thread, where signals
    can be blocked; elsewhere, and on systems without signal masks, a no-op)."""
    mask = getattr(signal, "pthread_sigmask", None)
    if mask is None or threading.current_thread() is not threading.main_thread():
        yield
        return
    old = mask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    try:
        yield
    finally:
        mask(signal.SIG_SETMASK, old)


MORE = "-- more: press Enter --"


MIN_HEIGHT = 8  # a screen lower than this is paged as if it had this many rows


def terminal_rows(out: IO[str]) -> int | None:
    """The rows of the terminal ``out`` writes to (``LINES`` when it is set), or None when that cannot be told."""
    lines = os.environ.get("LINES", "")
    if lines.isdigit() and int(lines) > 0:
        return int(lines)
    try:
        rows = os.get_terminal_size(out.fileno()).lines
    except (AttributeError, ValueError, OSError):
        return None
    return rows or None


def isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


class Quit(Exception):
    """The player ended the session at a prompt that is not a decision (end of input at '-- more --')."""


# -- rows: everything a decision shows is laid out as rows of the screen's width, so a screen can be measured and
# -- paged


def wrapped(console: Console, markup: str, first: str = "", rest: str | None = None) -> list[Text]:
    """``markup`` wrapped to the console's width, with ``first`` before its first row and ``rest`` (spaces as wide
    as ``first`` by default) before the others: a hanging indent. A text is wrapped, never cut. Control sequences
    from a file are left out (:func:`~wizprint.termtext.safe_text`) before the text is measured."""
    markup = safe_text(markup)
    rest = " " * len(first) if rest is None else rest
    text = Text.from_markup(markup) if markup else Text("")
    lines = text.wrap(console, max(20, console.width - max(len(first), len(rest))), overflow="fold")
    out = []
    for i, ln in enumerate(lines):
        ln.rstrip()
        out.append(Text(first if i == 0 else rest, style="dim" if first.strip() == ">" else "") + ln)
    return out or [Text(first.rstrip())]


Block = list[Text]  # the rows of one printed line: a page never breaks inside a block that fits on one


def decision_rows(console: Console, question: str, options: list[str]) -> list[Text]:
    """The decision in words (bold), then its numbered options, each wrapped under its own text."""
    rows = wrapped(console, escape(question))
    for r in rows:
        r.stylize("bold")
    w = len(str(len(options))) + 2
    for i, text in enumerate(options, 1):
        num = f"{i:>{w - 1}} "
        for j, r in enumerate(wrapped(console, escape(text), num)):
            if j == 0:
                r.stylize("bold cyan", 0, w - 1)
            rows.append(r)
    return rows


def log_blocks(console: Console, lines: list[str]) -> list[Block]:
    """Log lines (plain text, a saved game's included: no markup and no control sequence of theirs is obeyed), each
    after '  > ' and wrapped under itself."""
    return [wrapped(console, escape(ln), "  > ") for ln in lines]


def markup_blocks(console: Console, lines: Sequence[str]) -> list[Block]:
    """Lines of rich markup (a panel, a card looked up), each wrapped two columns in from where its text starts."""
    out = []
    for ln in lines:
        ln = safe_text(ln)
        plain = Text.from_markup(ln).plain
        lead = len(plain) - len(plain.lstrip(" "))
        out.append(wrapped(console, ln, "", " " * (lead + 2)))
    return out


def text_blocks(console: Console, lines: Sequence[str], indent: str = "") -> list[Block]:
    """Lines of plain text (a whole log, the help), each wrapped under itself."""
    return [wrapped(console, escape(ln), indent) for ln in lines]


def header_block(console: Console, header: str) -> Block:
    """The header as a rule across the screen (``── Round 2 · ... ──``), or wrapped when it is too long for one."""
    width = console.width
    header = safe_text(header)
    if len(header) + 6 <= width:
        side = width - len(header) - 2
        left = side // 2
        return [Text("─" * left + " ", style="dim") + Text(header, style="bold") + Text(" " + "─" * (side - left),
                                                                                       style="dim")]
    return [Text(r.plain, style="bold") for r in wrapped(console, escape(header))]


def height(blocks: Sequence[Block]) -> int:
    return sum(len(b) for b in blocks)


def show(term: Terminal, rows: Sequence[Text]) -> None:
    for r in rows:
        term.console.print(r, highlight=False, soft_wrap=True)


def paged(term: Terminal, blocks: Sequence[Block], keep: int = 0) -> None:
    """Print ``blocks``; on a screen of ``term.height`` rows, a screenful at a time, each followed by a '-- more'
    prompt, so that no row scrolls away before the player has seen it; a page ends between two printed lines (only
    a line taller than the screen is split). ``keep``: the rows that will follow (the decision and its prompt),
    which the last screenful leaves room for."""
    h = term.height
    todo = [list(b) for b in blocks]
    if h is None or height(todo) + keep <= h:
        show(term, [r for b in todo for r in b])
        return
    i = 0
    while height(todo[i:]) + keep > h and i < len(todo):
        page: list[Text] = []
        while i < len(todo) and len(page) + len(todo[i]) <= h - 1:  # the last row holds the '-- more' prompt
            page += todo[i]
            i += 1
        if not page:  # a line taller than the screen
            page, todo[i] = todo[i][:h - 1], todo[i][h - 1:]
        show(term, page)
        if term.ask(MORE) is None:
            raise Quit
    show(term, [r for b in todo[i:] for r in b])


# -- matching a typed answer to an option ------------------------------------------------------------------------


_ID = re.compile(r"\b([A-Z]{1,3}\d{1,3}(?:#\d+)?|(?:10|[2-9AJQK])[SHDC]|WM#\d)\b")


def match_option(answer: str, options: list[str]) -> tuple[int | None, str]:
    """The option an answer names by a card id or part of its text, as ``(index, "")``, or ``(None, why)``.

    An id matches the options that show it (``C15``, ``W03``, ``QS``); other text matches the options that hold it,
    ignoring case (at least 3 characters). One match is taken; several or none are explained.

    >>> match_option("c15", ["put C04 The Alchemist first", "put C15 The Traveler first"])
    (1, '')
    >>> match_option("travel", ["put C04 The Alchemist first", "put C15 The Traveler first"])
    (1, '')
    >>> match_option("put", ["put C04 The Alchemist first", "put C15 The Traveler first"])[0] is None
    True
    """
    want = answer.strip()
    if not want:
        return None, ""
    ids = [i for i, o in enumerate(options) if want.upper() in _ID.findall(o)]
    if len(ids) == 1:
        return ids[0], ""
    if not ids and len(want) >= 3:
        low = want.casefold()
        ids = [i for i, o in enumerate(options) if low in o.casefold()]
        if len(ids) == 1:
            return ids[0], ""
    if len(ids) > 1:
        shown = ", ".join(str(i + 1) for i in ids[:8]) + (" ..." if len(ids) > 8 else "")
        return None, f"{quote(want, 40)} fits {len(ids)} choices ({shown}): type the number of the one you mean."
    near = _near(want, options)
    hint = f" Did you mean {quote(near, 60)}?" if near else ""
    return None, (f"{quote(want, 40)} is not a choice: type a number from 1 to {len(options)}, a card's id or part "
                  f"of its name, 'look' and a card, or 'help'.{hint}")


def _near(want: str, options: list[str]) -> str | None:
    """The card id or name word in the options closest to ``want`` (a slip of the keyboard), if one is close."""
    words: list[str] = []
    for o in options:
        words.extend(_ID.findall(o))
        words.extend(w for w in re.findall(r"[A-Za-z][A-Za-z'-]{2,}", o) if w[0].isupper())
    found = difflib.get_close_matches(want, words, n=1, cutoff=0.75) or difflib.get_close_matches(
        want.upper(), [w.upper() for w in words], n=1, cutoff=0.75)
    return found[0] if found else None


# -- the game loop ----------------------------------------------------------------------------------------------
