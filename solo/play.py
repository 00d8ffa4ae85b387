"""``wizprint solo play``: one person against automata in the terminal.

The view shows only what the human's seat may see (its observation), the numbered legal actions with card names
and ids, and what the other seats just did. Commands at the prompt: a number, ``help``, ``log``, ``save
[FILE]``, ``quit``. End of input or Ctrl-C (at any moment, a bot thinking included) saves the game to a JSON file
that ``--load`` resumes; a file that cannot be written is reported and the game goes on (or, when the session ends,
is saved in the temporary folder instead). A save is written atomically: a failure leaves the last good one.

A saved game is untrusted input: :func:`load_session` reads at most :data:`MAX_SAVE` bytes and checks every value
(``Session.from_json``), each problem named by its JSON path.
"""

from __future__ import annotations

import contextlib
import json
import re
import shlex
import signal
import sys
import tempfile
import threading
import traceback
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

try:
    import termios
except ImportError:  # not on POSIX: Ctrl-C's flush cannot be turned off, and nothing else changes
    termios = None  # type: ignore[assignment]

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from wizprint.atomic import write_atomic
from wizprint.errors import SaveError, UsageError, WizprintError, one_line, quote

from .agents import Agent, make_agent
from .kernel import Action, Checks, Engine, State, engine
from .kernel.checks import reason
from .kernel.rng import MASK, derive
from .kernel.state import MAX_PLAYERS

MAX_SEED = MASK

SAVE_FORMAT = "wizprint-solo-save/1"
MAX_SAVE = 16 << 20  # bytes: a long Relic game with its whole log saves to well under 1 MiB
SAVE_KEYS = ("format", "game", "human", "bots", "seed", "shown", "state")


@dataclass
class Session:
    engine: Engine
    state: State[Any]
    human: int
    bots: list[str]  # per seat; "" for the human
    seed: int
    log_path: Path | None = None
    save_path: Path | None = None
    agents: list[Agent | None] = field(default_factory=list)
    shown: int = 0  # how much of the human's log has been printed
    loaded: bool = False  # resumed from a saved game

    @property
    def game(self) -> str:
        return self.engine.id

    def to_json(self) -> dict[str, Any]:
        return {"format": SAVE_FORMAT, "game": self.game, "human": self.human, "bots": self.bots, "seed": self.seed,
                "shown": self.shown, "state": self.state.to_json()}

    @classmethod
    def from_json(cls, eng: Engine, data: Any) -> Session:
        """A saved session of ``eng``'s game. A save is untrusted input: every value is checked (the state against
        the game's declaration and rules, then tried: ``Engine.from_json``); raises :class:`SaveError` naming the
        JSON path of each problem."""
        if not isinstance(data, dict):
            raise SaveError([f"(the whole file): expected an object, got {_what(data)}"])
        if data.get("format") != SAVE_FORMAT:
            raise SaveError([f"format: not a wizprint saved game (expected {SAVE_FORMAT!r}, got "
                             f"{quote(data.get('format'), 40)})"])
        if data.get("game") != eng.id:
            raise SaveError([f"game: this is a saved game of {quote(data.get('game'), 40)}, not {eng.id}"])
        chk = Checks(MAX_PLAYERS)
        for k in data:
            if k not in SAVE_KEYS:
                chk.fail(_key(k), "unknown key")
        for k in SAVE_KEYS:
            if k not in data and k != "shown":
                chk.fail(k, "missing")
        human: Any = data.get("human")
        bots: Any = data.get("bots")
        seed: Any = data.get("seed")
        shown: Any = data.get("shown", 0)
        if not _whole(seed) or not 0 <= seed <= MAX_SEED:
            chk.fail("seed", f"expected a whole number from 0 to 2**64-1, got {_what(seed)}")
        if not _whole(shown) or shown < 0:
            chk.fail("shown", f"expected a whole number from 0, got {_what(shown)}")
        state: State[Any] | None = None
        if "state" in data:
            try:
                state = eng.from_json(data["state"])
            except SaveError as exc:
                chk.absorb(exc)
            else:
                _check_seats(chk, eng, state, human, bots)
                if state.chance.dice or state.chance.picks or state.chance.strict:
                    chk.fail("state.chance", "a saved game scripts no dice or choices (that is for scenario files)")
        chk.done()
        assert state is not None
        s = cls(eng, state, human, list(bots), seed)
        s.shown = shown
        s.loaded = True
        return s


def _check_seats(chk: Checks, eng: Engine, state: State[Any], human: Any, bots: Any) -> None:
    """The human's seat exists; every other seat has a bot the game can make."""
    n = state.players
    if not _whole(human) or not 0 <= human < n:
        chk.fail("human", f"expected the human's seat, from 0 to {n - 1}, got {_what(human)}")
        human = -1
    if not isinstance(bots, list) or len(bots) != n:
        chk.fail("bots", f"expected a list of {n} bots, one per seat, got {_what(bots)}")
        return
    for i, b in enumerate(bots):
        if not isinstance(b, str):
            chk.fail(f"bots[{i}]", f"expected a bot name, got {_what(b)}")
        elif i == human and b:
            chk.fail(f"bots[{i}]", "the human's seat has no bot (expected \"\")")
        elif i != human and human >= 0:
            try:
                make_agent(b, eng)
            except WizprintError as exc:
                chk.fail(f"bots[{i}]", str(exc) if b else "a seat of a bot names no bot")


def _whole(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _what(v: Any) -> str:
    if isinstance(v, dict):
        return "an object"
    if isinstance(v, list):
        return f"a list of {len(v)} item{'s' if len(v) != 1 else ''}"
    if _whole(v) and v.bit_length() > 64:
        return "a whole number too large"
    return quote(v, 40)


def _key(k: str) -> str:
    return k if len(k) <= 40 and k.isprintable() else quote(k, 40)


def read_save(path: Path) -> Any:
    """The JSON of a saved-game file (raises :class:`WizprintError`: unreadable, larger than :data:`MAX_SAVE`,
    empty, not UTF-8, not JSON, nested too deeply)."""
    try:
        with open(path, "rb") as fh:
            raw = fh.read(MAX_SAVE + 1)
    except OSError as exc:
        raise WizprintError(f"cannot read saved game {path}: {exc.strerror or exc}") from None
    except ValueError as exc:  # a NUL in the name
        raise WizprintError(f"cannot read saved game {quote(str(path))}: {exc}") from None
    if len(raw) > MAX_SAVE:
        raise WizprintError(f"{path}: not a saved game: larger than {MAX_SAVE >> 20} MiB")
    if not raw.strip():
        raise WizprintError(f"{path}: not a saved game: the file is empty")
    try:
        return json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise WizprintError(f"{path}: not a saved game: not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise WizprintError(f"{path}:{exc.lineno}: not a saved game: malformed JSON ({exc.msg})") from None
    except RecursionError:
        raise WizprintError(f"{path}: not a saved game: the JSON is nested too deeply") from None
    except ValueError as exc:  # e.g. a number of more than 4300 digits
        raise WizprintError(f"{path}: not a saved game: {one_line(str(exc), 120)}") from None


def load_session(eng: Engine, path: Path) -> Session:
    """A saved game from its file, every value checked (raises :class:`WizprintError`, or :class:`SaveError` with
    one problem per JSON path)."""
    return Session.from_json(eng, read_save(path))


def new_session(game: str | Engine, players: int, bot: str, seed: int, seat: int, variant: str) -> Session:
    eng = game if isinstance(game, Engine) else engine(game)
    eng.check_players(players)
    if not 0 <= seat < players:
        raise UsageError(f"--seat must be between 0 and {players - 1}, not {seat}")
    check_seed(seed)
    eng.check_variant(variant)
    make_agent(bot, eng)  # a bad --bot fails before the game starts
    state = eng.new_state(players, seed, variant)
    bots = ["" if i == seat else bot for i in range(players)]
    return Session(eng, state, seat, bots, seed)


def check_seed(seed: int) -> None:
    if not 0 <= seed <= MAX_SEED:
        raise UsageError(f"--seed must be a whole number from 0 to {MAX_SEED:,} (2**64-1), not {seed:,}")


def _agents(s: Session) -> list[Agent | None]:
    return [None if not b else make_agent(b, s.engine, derive(s.seed, "bot", i)) for i, b in enumerate(s.bots)]


class WholeLines(Console):
    """A rich Console whose prints Ctrl-C cannot cut in half: SIGINT (and SIGTERM) wait until the print is done.
    A Console keeps state across prints (a buffer, and a count of prints under way): interrupted at the wrong
    moment, it printed a line twice, or held every later line in its buffer, the "Saved to ..." of the interrupted
    game included (seen once in 60 to 150 interrupted games on a busy machine)."""

    def print(self, *objects: Any, **kwargs: Any) -> None:
        with _interrupts_held():
            super().print(*objects, **kwargs)


class Terminal:
    """The human's side: prints with rich, reads lines from ``inp``."""

    def __init__(self, inp: TextIO, console: Console):
        self.inp = inp
        self.console = console

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
        self.console.print(escape(text), highlight=False)


_PASSES = re.compile(r"^(P\d+) passes$")


def collapse_passes(lines: list[str]) -> list[str]:
    """Consecutive ``P2 passes`` lines as one: ``P2, P3 and P1 pass``.

    >>> collapse_passes(["P2 passes", "P3 passes", "P1 casts Dispell", "P2 passes"])
    ['P2 and P3 pass', 'P1 casts Dispell', 'P2 passes']
    >>> collapse_passes(["P2 passes", "P2 passes", "P1 passes"])  # one seat passing twice is named once
    ['P2 and P1 pass']
    """
    out: list[str] = []
    run: list[str] = []

    def flush() -> None:
        if len(run) == 1:
            out.append(f"{run[0]} passes")
        elif run:
            out.append(f"{', '.join(run[:-1])} and {run[-1]} pass")
        run.clear()

    for ln in lines:
        m = _PASSES.match(ln)
        if m:
            if m.group(1) not in run:
                run.append(m.group(1))
        else:
            flush()
            out.append(ln)
    flush()
    return out


def _new_log(s: Session, term: Terminal) -> None:
    """Print the log lines the human has not seen yet, then write the human's log file (both from one read of the
    log)."""
    lines = s.state.log_texts(s.human)
    for ln in collapse_passes(lines[s.shown:]):
        term.console.print(f"  [dim]>[/dim] {escape(ln)}", highlight=False)
    s.shown = len(lines)
    _write_log(s, term, lines)


def _write_log(s: Session, term: Terminal, lines: list[str]) -> None:
    """Write the human's log so far; a log that cannot be written is reported once and then left off (the game
    goes on)."""
    if s.log_path is None:
        return
    try:
        write_atomic(s.log_path, "\n".join(lines) + "\n")
    except (WizprintError, ValueError) as exc:
        term.say(f"Cannot write the game log ({reason(exc)}); the game goes on without it.")
        s.log_path = None


@contextlib.contextmanager
def _output_kept_on_interrupt(inp: TextIO) -> Iterator[None]:
    """While the game runs on a terminal, Ctrl-C does not make the terminal discard output (``NOFLSH``): a terminal
    empties its output queue when it sends SIGINT, which could throw away what the game printed just before (what it
    prints after the interrupt is kept whole by :class:`WholeLines`). The terminal's own settings come back when the
    game ends. A no-op when the input is not a terminal, or where there is no ``termios``."""
    old = _noflsh(inp)
    try:
        yield
    finally:
        if old is not None:
            with _interrupts_held(), contextlib.suppress(termios.error):
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
def _interrupts_held() -> Iterator[None]:
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


def save(s: Session, path: Path) -> Path:
    """Write the game to ``path`` atomically (a failure leaves the last good save as it was); raises
    :class:`WizprintError` when it cannot be written."""
    text = json.dumps(s.to_json(), indent=1) + "\n"
    try:
        with _interrupts_held():
            return write_atomic(path, text)
    except ValueError as exc:  # a NUL in the name
        raise WizprintError(f"cannot write {quote(str(path))}: {exc}") from None


def fallback_path(s: Session) -> Path:
    """Where a game is saved when its own save file cannot be written."""
    return Path(tempfile.gettempdir()) / f"wizprint-{s.game}-seed{s.seed}.save.json"


def _saved(s: Session, term: Terminal, path: Path) -> None:
    """Where the game went, and the command that resumes it on a line of its own that is never broken (a command
    to copy: a long path is wrapped by the terminal, not cut by a newline)."""
    term.say(f"Saved to {path}.")
    term.console.print(escape(f"Resume with: wizprint solo play {s.game} --load {shlex.quote(str(path))}"),
                       soft_wrap=True, highlight=False)


def _stop(s: Session, term: Terminal, path: Path, why: str) -> int:
    """The session ends (end of input, Ctrl-C, an engine failure): save the game, here or in the fallback place.
    Returns the exit code: 0 once saved, 1 if it could not be saved anywhere."""
    for where in (path, fallback_path(s)):
        try:
            done = save(s, where)
        except WizprintError as exc:
            term.say(f"Cannot save to {where}: {reason(exc)}")
            continue
        if why:
            term.say(why)
        _saved(s, term, done)
        return 0
    term.say("The game could not be saved.")
    return 1


HELP = ("Type the number of a choice. Other commands: 'look X' shows the whole text of a card (or space, mission, "
        "character...) by its id or name, and where it is now; 'log' the whole game log so far; 'save [FILE]' saves "
        "the game; 'quit' saves and stops; 'help' or '?' this text. Ctrl-D or Ctrl-C also save and stop, at any "
        "moment.")
MAX_ANSWER = 2000  # characters of an answer that are read; a longer line is not a choice


def run(s: Session, inp: TextIO | None = None, out: TextIO | None = None, width: int | None = None) -> int:
    """Play until the end (exit 0) or until the human stops: end of input, Ctrl-C at any moment (a bot thinking
    included) or ``quit`` save the game and say where (exit 0). A move is made on a copy of the state that
    replaces it once done, so an interruption never leaves half a move in the save. A failure of the rules engine
    saves the position before the move and ends with exit 1."""
    # rich wraps every line at the terminal's width (80 columns when it cannot tell)
    console = WholeLines(file=out or sys.stdout, width=width, highlight=False)
    term = Terminal(inp or sys.stdin, console)
    save_path = s.save_path or Path(f"wizprint-{s.game}-seed{s.seed}.save.json")
    with _output_kept_on_interrupt(term.inp):
        try:
            return _play(s, term, save_path)
        except KeyboardInterrupt:
            return _stop(s, term, save_path, "\nInterrupted.")
        except WizprintError as exc:
            term.say(f"error: {reason(exc)}")
            _stop(s, term, save_path, "")
            return 1
        except Exception as exc:  # an engine failure is reported and the game saved, never a traceback
            tb = traceback.extract_tb(exc.__traceback__)[-1]
            term.say(f"error: the rules engine failed ({reason(exc)}, at {Path(tb.filename).name}:{tb.lineno})")
            _stop(s, term, save_path, "")
            return 1


def _print_choices(console: Console, question: str, options: list[str]) -> None:
    """The decision in words, then its numbered choices (each wrapped under its own text)."""
    console.print(f"[bold]{escape(question)}[/bold]", highlight=False)
    grid = Table.grid(padding=(0, 1))
    grid.add_column(justify="right", style="bold cyan", no_wrap=True)
    grid.add_column(ratio=1)
    for i, text in enumerate(options, 1):
        grid.add_row(f" {i}", escape(text))
    console.print(grid, highlight=False)


def _look(s: Session, term: Terminal, obs: dict[str, Any], query: str) -> None:
    if not query:
        term.say("Look at what? Type 'look' and a card's id or name, e.g. 'look " + _example(s) + "'.")
        return
    found = s.engine.look(obs, query[:200])
    if not found:
        term.say(f"Nothing is called {quote(query, 40)}: type a card's id as the screen shows it, or part of its "
                 f"name.")
        return
    for line in found:
        term.console.print(line, highlight=False)


def _example(s: Session) -> str:
    """A card id the human can see, for the help text."""
    for text in reversed(s.state.log_texts(s.human)):
        m = re.search(r"\b([A-Z]{1,3}\d{1,3}(?:#\d+)?)\b", text)
        if m:
            return m.group(1)
    return "an id"


def _move(s: Session, action: Action) -> None:
    """Apply ``action`` to a copy of the state, then put the copy in its place."""
    nxt = s.state.clone()
    nxt.apply(action)
    s.state = nxt


def _play(s: Session, term: Terminal, save_path: Path) -> int:
    eng = s.engine
    console = term.console
    s.agents = _agents(s)
    console.print(f"[bold]{escape(eng.name)}[/bold] - you are P{s.human + 1} (seat {s.human}); "
                  f"bots: {escape(', '.join(f'P{i + 1} {b}' for i, b in enumerate(s.bots) if b))}. "
                  f"Type 'help' for help.")
    if s.loaded:
        term.say(f"Resuming the saved game at step {s.state.steps} (turn {s.state.turns_played()}).")
    thinking: set[int] = set()  # the search bots said to be thinking since the human's last prompt
    while not s.state.is_terminal():
        seat = s.state.current_player
        legal = s.state.legal_actions()
        if seat != s.human:
            agent = s.agents[seat]
            assert agent is not None
            if len(legal) > 1 and s.bots[seat].startswith("mcts") and seat not in thinking:
                thinking.add(seat)
                term.say(f"P{seat + 1} ({s.bots[seat]}) is thinking; Ctrl-C saves the game and stops.")
            _move(s, legal[0] if len(legal) == 1 else agent.choose(s.state, seat))
            continue
        thinking.clear()
        if len(legal) == 1 and legal[0].kind in ("pass",):
            _move(s, legal[0])
            continue
        _new_log(s, term)
        obs = s.state.observation(s.human)
        heading = obs.get("heading") or (f"turn {obs['turn']}" if obs.get("turn") else "")
        console.rule(escape(str(heading)))
        for line in eng.view(obs):
            console.print(line, highlight=False)
        _print_choices(console, s.state.question(), [s.state.describe(a) for a in legal])
        while True:
            answer = term.ask("your choice> ")
            if answer is None:
                return _stop(s, term, save_path, "")
            if len(answer) > MAX_ANSWER:
                term.say(f"That line is {len(answer):,} characters long: type a number from 1 to {len(legal)}, or "
                         f"'help'.")
                continue
            word, _, rest = answer.partition(" ")
            word = word.lower()
            if word in ("help", "?"):
                term.say(HELP)
                continue
            if word == "look":
                _look(s, term, obs, rest.strip())
                continue
            if word == "log":
                for ln in collapse_passes(s.state.visible_log(s.human, last=10_000)):
                    console.print(f"  {escape(ln)}", highlight=False)
                continue
            if word in ("save", "quit"):
                where = Path(rest.strip()) if rest.strip() else save_path
                try:
                    _saved(s, term, save(s, where))
                except WizprintError as exc:
                    term.say(f"Not saved: {reason(exc)}. The game goes on: 'save FILE' saves it elsewhere.")
                    continue
                if word == "quit":
                    return 0
                continue
            if not answer.isascii() or not answer.isdigit():
                term.say(f"{quote(answer, 40)} is not a choice: type a number from 1 to {len(legal)}, "
                         f"'look' and a card, or 'help'.")
                continue
            k = int(answer)
            if not 1 <= k <= len(legal):
                term.say(f"There is no choice {k}: type a number from 1 to {len(legal)}.")
                continue
            _move(s, legal[k - 1])
            break
    _new_log(s, term)
    o = s.state.outcome()
    if o is not None:
        mine = "You win" if o.winners == (s.human,) else (
            "A shared result" if s.human in o.winners else "You lose")
        console.print(f"[bold]Game over.[/bold] {escape(o.reason)}. {mine}.")
    return 0
