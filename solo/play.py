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
import os
import re
import secrets
import shlex
import sys
import tempfile
import traceback
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

try:
    import termios
except ImportError:  # not on POSIX: Ctrl-C's flush cannot be turned off, and nothing else changes
    termios = None  # type: ignore[assignment]

from rich.markup import escape

from wizprint.atomic import write_atomic
from wizprint.errors import SaveError, UsageError, WizprintError, one_line, quote
from wizprint.files import FileProblem, open_regular, read_file
from wizprint.finite import NonFinite, json_path, loads_json
from wizprint.termtext import safe_text

from .agents import Agent, make_agent
from .kernel import Action, Checks, Engine, State, engine
from .kernel.checks import reason
from .kernel.rng import MASK, derive
from .kernel.state import MAX_PLAYERS
from .terminal import (
    MIN_HEIGHT,
    Quit,
    Terminal,
    WholeLines,
    decision_rows,
    header_block,
    height,
    interrupts_held,
    isatty,
    log_blocks,
    markup_blocks,
    match_option,
    output_kept_on_interrupt,
    paged,
    show,
    terminal_rows,
    text_blocks,
)

MAX_SEED = MASK

SAVE_FORMAT = "wizprint-solo-save/1"
MAX_SAVE = 16 << 20  # bytes: a long Relic game with its whole log saves to well under 1 MiB
SAVE_KEYS = ("format", "game", "human", "bots", "seed", "shown", "log", "state")
OPTIONAL_KEYS = ("shown", "log")
LOG_HEAD = "wizprint solo play: "  # the first line of every game log wizprint writes
TABLE_LOG_HEAD = "wizprint solo table: "  # ... and of every table session's log


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
    saved_log: str | None = None  # a loaded save's log file, as it names it (relative to the save's folder)
    notes: list[str] = field(default_factory=list)  # said to the player when the game starts (names taken, seed)
    source: str = ""  # the game as the command named it (an id, or a folder's path): the commands shown name it so
    budget_seconds: float | None = None  # every search move's bound, in seconds (--budget-seconds)

    @property
    def game(self) -> str:
        return self.engine.id

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"format": SAVE_FORMAT, "game": self.game, "human": self.human, "bots": self.bots,
                               "seed": self.seed, "shown": self.shown}
        if self.log_path is not None:
            out["log"] = str(self.log_path)
        out["state"] = self.state.to_json()
        return out

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
            if k not in data and k not in OPTIONAL_KEYS:
                chk.fail(k, "missing")
        human: Any = data.get("human")
        bots: Any = data.get("bots")
        seed: Any = data.get("seed")
        shown: Any = data.get("shown", 0)
        if not _whole(seed) or not 0 <= seed <= MAX_SEED:
            chk.fail("seed", f"expected a whole number from 0 to 2**64-1, got {_what(seed)}")
        if not _whole(shown) or shown < 0:
            chk.fail("shown", f"expected a whole number from 0, got {_what(shown)}")
        log: Any = data.get("log")
        if log is not None and (not isinstance(log, str) or not 0 < len(log) <= 4096 or "\0" in log):
            chk.fail("log", f"expected the path of the game's log file, got {_what(log)}")
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
        s.saved_log = log
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
    """The JSON of a saved-game file (raises :class:`WizprintError`: unreadable, not a regular file, larger than
    :data:`MAX_SAVE`, empty, not UTF-8, not JSON, nested too deeply; :class:`SaveError` for a number that is not
    finite)."""
    try:
        raw = read_file(path, MAX_SAVE, "a saved game", quote(str(path)) if "\0" in str(path) else str(path))
    except FileProblem as exc:
        raise WizprintError(f"cannot read saved game {exc.shown}: {exc.detail}") from None
    if not raw.strip():
        raise WizprintError(f"{path}: not a saved game: the file is empty")
    try:
        return loads_json(raw.decode("utf-8"))
    except NonFinite as exc:  # NaN, Infinity, 1e400: no value of a game is such a number
        raise SaveError([f"{json_path(exc.path) or '(the whole file)'}: expected a finite number, got "
                         f"{exc.literal}"]) from None
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
    return [None if not b else make_agent(b, s.engine, derive(s.seed, "bot", i), s.budget_seconds)
            for i, b in enumerate(s.bots)]


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


def _write_log(s: Session, term: Terminal, lines: list[str]) -> None:
    """Write the human's log so far; a log that cannot be written is reported once and then left off (the game
    goes on). The log file is read on a terminal too: a saved game's lines go into it without control sequences."""
    if s.log_path is None:
        return
    try:
        write_atomic(s.log_path, "\n".join([log_head(s), *map(safe_text, lines)]) + "\n")
    except (WizprintError, ValueError) as exc:
        term.say(f"Cannot write the game log ({reason(exc)}); the game goes on without it.")
        s.log_path = None


def log_head(s: Session) -> str:
    """The first line of a game's log file: it marks the file as a wizprint log, which a resumed game may write
    over (any other file of that name is kept, and the log goes to a free name)."""
    return f"{LOG_HEAD}{s.game}, seed {s.seed}: the game as P{s.human + 1} sees it"


def random_seed() -> int:
    """A seed for a new game when none is given (six digits, easy to type again)."""
    return secrets.randbelow(1_000_000)


def numbered(path: Path, k: int) -> Path:
    """``path`` with ``-k`` before its extension (``.save.json`` counts as one).

    >>> numbered(Path("wizprint-relic-seed1.save.json"), 2).name
    'wizprint-relic-seed1-2.save.json'
    >>> numbered(Path("game.log"), 3).name
    'game-3.log'
    """
    name = path.name
    ext = ".save.json" if name.endswith(".save.json") and len(name) > 10 else path.suffix
    return path.with_name(f"{name[:len(name) - len(ext)]}-{k}{ext}")


def _taken(path: Path) -> bool:
    return os.path.lexists(path)


class _Unclaimable(Exception):
    """A file name that cannot be created: ``reason`` says why."""

    def __init__(self, path: Path, reason: str):
        super().__init__(reason)
        self.path, self.reason = path, reason


def unusable_place(path: Path) -> str | None:
    """Why no file can be made at ``path`` (a NUL in the name, its folder missing or a file), or None."""
    text = str(path)
    if "\0" in text:
        return "the name holds a NUL character"
    folder = path.parent
    try:
        if os.path.isdir(folder):
            return None
    except (OSError, ValueError):  # a name too long for the system, say
        return "the name cannot be a file name here"
    up = folder
    while not os.path.lexists(up) and up != up.parent:
        up = up.parent
    if up != folder and os.path.isdir(up):
        return f"the folder {folder} does not exist"
    return f"{up} is a file, not a folder"


def _claim(want: Path) -> Path:
    """``want``, or the first numbered name (``-2``, ``-3``...) that is free, created empty at once (so that a
    second game started in the same folder takes the next); :class:`_Unclaimable` when no file can be created
    there (its folder missing or a file, a NUL in the name, no permission)."""
    for k in range(1, 10_000):
        p = want if k == 1 else numbered(want, k)
        if _taken(p):
            continue
        try:
            fd = os.open(p, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            continue
        except (OSError, ValueError) as exc:
            why = unusable_place(p) or (exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc))
            raise _Unclaimable(p, why) from None
        os.close(fd)
        return p
    raise UsageError(f"no free name for {want}: 10,000 numbered names are taken")


def claim_names(s: Session, want_save: Path, want_log: Path, *, save_given: bool = False,
                log_given: bool = False) -> list[str]:
    """Give a new game its save and log files: these names, or free numbered ones, so that a new game never writes
    over a file. The game is saved at once and its log begun. Returns what to tell the player about names taken.

    A name the player gave (``--save-file``, ``--log-file``) that cannot be created is a :class:`UsageError`
    before the game starts (and nothing is left behind); a default name that cannot be created is said in the
    notes: the game goes on without its log, and a save there will say it cannot be written."""
    said: dict[str, str] = {}
    made: list[Path] = []
    try:
        for want, given, what, option in ((want_log, log_given, "log", "--log-file"),
                                          (want_save, save_given, "save", "--save-file")):
            got: Path | None
            try:
                got = claimed = _claim(want)
            except _Unclaimable as exc:
                if given:
                    raise UsageError(f"{option} {quote(str(want), 200)}: cannot create the game's {what} there: "
                                     f"{exc.reason}") from None
                said[what] = (f"Cannot create the game's {what} {exc.path} ({exc.reason}): "
                              + ("the game goes on without a log" if what == "log" else "'save' cannot write there")
                              + f"; {option} chooses another place.")
                got = None if what == "log" else want
            else:
                made.append(claimed)
                if got != want:
                    said[what] = f"{want} exists: this game's {what} is {got}."
            if what == "log":
                s.log_path = got
            else:
                s.save_path = got
    except UsageError:
        for p in made:
            with contextlib.suppress(OSError):
                p.unlink()
        raise
    if s.save_path in made:
        with contextlib.suppress(WizprintError):
            save(s, s.save_path)
    if s.log_path is not None:
        with contextlib.suppress(WizprintError, ValueError):
            write_atomic(s.log_path, log_head(s) + "\n")
    return [said[what] for what in ("save", "log") if what in said]


def is_wizprint_log(path: Path) -> bool:
    """Whether ``path`` is missing, or a game log wizprint wrote (its first line says so)."""
    if not _taken(path):
        return True
    try:
        with open_regular(path) as fh:  # a FIFO or a device of that name is not a log (and is kept)
            head = fh.read(len(TABLE_LOG_HEAD))
            return head.startswith(LOG_HEAD.encode()) or head == TABLE_LOG_HEAD.encode()
    except (FileProblem, OSError):
        return False


def resumed_log(s: Session, load: Path, given: Path | None) -> Path:
    """Where a resumed game writes its log: ``given`` (``--log-file``), else the log the save names when it lies in
    the save's folder, else the save's name with ``.log``; a file of that name that is not a wizprint log is kept,
    and the log goes to a free name (said in ``s.notes``)."""
    if given is not None:
        why = unusable_place(given)
        if why:
            raise UsageError(f"--log-file {quote(str(given), 200)}: cannot create the game's log there: {why}")
        want = given
    else:
        want = load.with_name(load.name.removesuffix(".save.json").removesuffix(".json") + ".log")
        if s.saved_log is not None:
            named = Path(s.saved_log)
            try:
                inside = named.resolve().parent == load.resolve().parent
            except (OSError, RuntimeError, ValueError):
                inside = False
            if inside:
                want = named
            else:
                s.notes.append(f"The save names its log {quote(s.saved_log, 80)}, outside the save's folder: the log "
                               f"is written to {want} ('--log-file' chooses).")
    if is_wizprint_log(want):
        return want
    for k in range(2, 10_000):
        other = numbered(want, k)
        if is_wizprint_log(other) and not _taken(other):
            s.notes.append(f"{want} is not a wizprint game log: it is kept, and the log is written to {other}.")
            return other
    raise UsageError(f"no free name for the game's log next to {want}")


def save(s: Session, path: Path) -> Path:
    """Write the game to ``path`` atomically (a failure leaves the last good save as it was); raises
    :class:`WizprintError` when it cannot be written."""
    text = json.dumps(s.to_json(), indent=1) + "\n"
    try:
        with interrupts_held():
            return write_atomic(path, text)
    except ValueError as exc:  # a NUL in the name
        raise WizprintError(f"cannot write {quote(str(path))}: {exc}") from None


def fallback_path(s: Session) -> Path:
    """Where a game is saved when its own save file cannot be written: a free name in the temporary folder."""
    base = Path(tempfile.gettempdir()) / f"wizprint-{s.game}-seed{s.seed}.save.json"
    k = 1
    while _taken(p := base if k == 1 else numbered(base, k)) and k < 10_000:
        k += 1
    return p


def _saved(s: Session, term: Terminal, path: Path) -> None:
    """Where the game went, and the command that resumes it on a line of its own that is never broken (a command
    to copy: a long path is wrapped by the terminal, not cut by a newline)."""
    term.say(f"Saved to {path}.")
    term.console.print(escape(f"Resume with: wizprint solo play {shlex.quote(s.source or s.game)} --load "
                              f"{shlex.quote(str(path))}"),
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


HELP = ("Type the number of a choice, or a card's id or part of its name when only one choice names it. Other "
        "commands: 'look X' shows the whole text of a card (or space, mission, character...) by its id or name, and "
        "where it is now; {panels}'log' the whole game log so far; 'save [FILE]' saves the game; 'quit' saves and "
        "stops; 'help' or '?' this text. Ctrl-D or Ctrl-C also save and stop, at any moment.")
MAX_ANSWER = 2000  # characters of an answer that are read; a longer line is not a choice
BACK = "back"


def run(s: Session, inp: TextIO | None = None, out: TextIO | None = None, width: int | None = None,
        height: int | None = None) -> int:
    """Play until the end (exit 0) or until the human stops: end of input, Ctrl-C at any moment (a bot thinking
    included) or ``quit`` save the game and say where (exit 0). A move is made on a copy of the state that
    replaces it once done, so an interruption never leaves half a move in the save. A failure of the rules engine
    saves the position before the move and ends with exit 1.

    ``height``: the rows of the screen, for paging (what happened since the player's last decision is shown a
    screenful at a time, so nothing scrolls away unseen); by default the terminal's height when the game is played
    on a terminal, and no paging otherwise."""
    # rich wraps every line at the terminal's width (80 columns when it cannot tell)
    console = WholeLines(file=out or sys.stdout, width=width, highlight=False)
    term = Terminal(inp or sys.stdin, console)
    if height is None and console.is_terminal and isatty(term.inp):
        height = terminal_rows(console.file)
    term.height = height if height is None or height >= MIN_HEIGHT else MIN_HEIGHT
    save_path = s.save_path or Path(f"wizprint-{s.game}-seed{s.seed}.save.json")
    with output_kept_on_interrupt(term.inp):
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


@dataclass
class _Seen:
    """What the player has been shown: the key of each panel when it was last shown."""

    keys: dict[str, str] = field(default_factory=dict)
    hinted: dict[str, str] = field(default_factory=dict)  # the key of each panel when a line last said it changed


def _move(s: Session, action: Action) -> None:
    """Apply ``action`` to a copy of the state, then put the copy in its place."""
    nxt = s.state.clone()
    nxt.apply(action)
    s.state = nxt


def _take_new_log(s: Session, term: Terminal) -> list[str]:
    """The log lines the human has not been shown yet (consecutive passes as one line), marked as shown; the
    human's log file is written from the same read of the log."""
    lines = s.state.log_texts(s.human)
    new = collapse_passes(lines[s.shown:])
    s.shown = len(lines)
    _write_log(s, term, lines)
    return new


def _play(s: Session, term: Terminal, save_path: Path) -> int:
    eng = s.engine
    console = term.console
    s.agents = _agents(s)
    console.print(f"[bold]{escape(eng.name)}[/bold] - you are P{s.human + 1} (seat {s.human}); "
                  f"bots: {escape(', '.join(f'P{i + 1} {b}' for i, b in enumerate(s.bots) if b))}. "
                  f"Type 'help' for help.")
    for note in s.notes:
        term.say(note)
    s.notes.clear()
    if s.loaded:
        term.say(f"Resuming the saved game at step {s.state.steps} (turn {s.state.turns_played()}).")
    seen = _Seen()
    pending: list[str] = []  # log lines (and the screen's own notes) since the human's last decision
    thinking: set[int] = set()  # the search bots said to be thinking since the human's last prompt
    try:
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
            if len(legal) == 1 and not s.state.must_ask():
                pending.extend(_take_new_log(s, term))
                if legal[0].kind != "pass":  # a pass says itself in the log ("P1 passes")
                    pending.append(f"(your only choice) {s.state.describe(legal[0])}")
                _move(s, legal[0])
                continue
            pending.extend(_take_new_log(s, term))
            action = _decide(s, term, save_path, legal, pending, seen)
            if action is None:
                return 0
            pending = []
            _move(s, action)
    except Quit:
        return _stop(s, term, save_path, "")
    paged(term, log_blocks(console, pending + _take_new_log(s, term)), keep=1)
    o = s.state.outcome()
    if o is not None:
        mine = "You win" if o.winners == (s.human,) else (
            "A shared result" if s.human in o.winners else "You lose")
        console.print(f"[bold]Game over.[/bold] {escape(o.reason)}. {mine}.")
    return 0


def _decide(s: Session, term: Terminal, save_path: Path, legal: list[Action], log: list[str], seen: _Seen
            ) -> Action | None:
    """Show the screen of a decision and read the human's answer; None when the session ends (saved)."""
    console = term.console
    obs = s.state.observation(s.human)
    screen = s.engine.screen(obs)
    two = s.state.two_step(legal) if len(legal) > 1 else None
    choices: list[tuple[Action | None, str]]
    if two is not None and len(two.groups) == 1:
        question, choices = two.groups[0].question, list(two.groups[0].options)
    elif two is not None:
        question, choices = two.question, [(None, g.label) for g in two.groups]
    else:
        question, choices = s.state.question(), [(a, s.state.describe(a)) for a in legal]
    decision = decision_rows(console, question, [t for _, t in choices])
    blocks = [header_block(console, screen.header), *log_blocks(console, log)]
    # a panel whose key changed is shown by itself when it fits on the screen with the rest; else a line says it
    # changed (once, when the line fits), and it is shown at a later decision with room
    used = height(blocks) + len(decision) + 1
    for p in screen.panels:
        if p.key is None or seen.keys.get(p.name) == p.key:
            continue
        got = markup_blocks(console, p.lines)
        if term.height is None or used + height(got) <= term.height:
            seen.keys[p.name] = p.key
        else:
            what = f"{p.title} changed" if p.name in seen.keys else p.title
            got = markup_blocks(console, [f"[dim]({escape(what)}: type '{p.name}' to see it)[/dim]"])
            if seen.hinted.get(p.name) == p.key or used + height(got) > term.height:
                continue  # said already, or no room for the line either (the log fills the screen): said later
            seen.hinted[p.name] = p.key
        blocks += got
        used += height(got)
    paged(term, blocks, keep=len(decision) + 1)
    show(term, decision)
    group: int | None = None
    while True:
        answer = term.ask("your choice> ")
        if answer is None:
            _stop(s, term, save_path, "")
            return None
        if len(answer) > MAX_ANSWER:
            term.say(f"That line is {len(answer):,} characters long: type a number from 1 to {len(choices)}, or "
                     f"'help'.")
            continue
        word, _, rest = answer.partition(" ")
        word = word.lower()
        shown = True  # an answer that shows something prints the decision again after it
        if word in ("help", "?"):
            extra = "".join(f"'{p.name}' {p.title}; " for p in screen.panels)
            paged(term, text_blocks(console, [HELP.format(panels=extra)]), keep=len(decision) + 1)
        elif word == "look":
            _look(s, term, obs, rest.strip())
        elif word == "log":
            paged(term, text_blocks(console, collapse_passes(s.state.visible_log(s.human, last=10_000)), "  "),
                  keep=len(decision) + 1)
        elif not rest and (asked := screen.panel(word)) is not None:
            paged(term, markup_blocks(console, asked.lines), keep=len(decision) + 1)
        elif word in ("save", "quit"):
            where = Path(rest.strip()) if rest.strip() else save_path
            try:
                _saved(s, term, save(s, where))
            except WizprintError as exc:
                term.say(f"Not saved: {reason(exc)}. The game goes on: 'save FILE' saves it elsewhere.")
                continue
            if word == "quit":
                return None
            continue
        elif word == BACK and group is not None:
            assert two is not None
            group = None
            question, choices = two.question, [(None, g.label) for g in two.groups]
            decision = decision_rows(console, question, [t for _, t in choices])
        else:
            shown = False
            k: int | None
            if answer.isascii() and answer.isdigit():
                k = int(answer) - 1
                if not 0 <= k < len(choices):
                    term.say(f"There is no choice {k + 1}: type a number from 1 to {len(choices)}.")
                    continue
            else:
                k, why = match_option(answer, [t for _, t in choices])
                if k is None:
                    term.say(why)
                    continue
            action = choices[k][0]
            if action is not None:
                return action
            assert two is not None
            if group is not None:  # the last option of the second step: back to the first
                group = None
                question, choices = two.question, [(None, g.label) for g in two.groups]
            elif len(two.groups[k].options) == 1:  # a group of one: the choice is made
                return two.groups[k].options[0][0]
            else:
                group = k
                question = two.groups[k].question
                choices = [*two.groups[k].options, (None, f"{BACK}: choose again")]
            decision = decision_rows(console, question, [t for _, t in choices])
            show(term, decision)
            continue
        if shown:
            show(term, decision)


def _look(s: Session, term: Terminal, obs: Mapping[str, object], query: str) -> None:
    if not query:
        term.say("Look at what? Type 'look' and a card's id or name, e.g. 'look " + _example(s) + "'.")
        return
    found = s.engine.look(obs, query[:200])
    if not found:
        term.say(f"Nothing is called {quote(query, 40)}: type a card's id as the screen shows it, or part of its "
                 f"name.")
        return
    paged(term, markup_blocks(term.console, found))


def _example(s: Session) -> str:
    """A card id the human can see, for the help text."""
    for text in reversed(s.state.log_texts(s.human)):
        m = re.search(r"\b([A-Z]{1,3}\d{1,3}(?:#\d+)?)\b", text)
        if m:
            return m.group(1)
    return "an id"
