"""``wizprint solo table`` at the terminal: the person's side of :class:`~wizprint.solo.table.TableGame`, with its
commands (``look``, ``log``, ``note``, ``undo``, ``save``, ``quit``, ``help``), its saves and its playtest record.

A save holds the program's belief (samples where it does not know a card), which cards it knows, the notes and the
seats: ``--load`` resumes exactly. The log file is the transcript of the session: every line said to everyone, the
notes where they were written, what the program asked and what was typed.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import shlex
import sys
import traceback
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from rich.markup import escape

from wizprint.atomic import write_atomic
from wizprint.errors import SaveError, UsageError, WizprintError, quote
from wizprint.files import FileProblem, read_file

from .agents import make_agent
from .kernel import Action, Checks, Engine, State, engine
from .kernel.checks import reason
from .kernel.screen import TwoStep
from .kernel.table import TablePolicy, relabel
from .play import MAX_SEED, TABLE_LOG_HEAD, _what, _whole, check_seed, claim_names, random_seed, read_save
from .table import Ask, Entry, Stop, TableGame, parse_cards, table_state
from .terminal import Terminal, WholeLines, decision_rows, interrupts_held, show

TABLE_FORMAT = "wizprint-table-save/1"
TABLE_KEYS = ("format", "game", "person", "bots", "dice", "seed", "known", "told", "notes", "state")
HELP = ("Type the number of a choice, or the id or name of the card you play when the prompt says so. At a card "
        "or die prompt, type what you see on the table. Other commands: 'look X' shows a card's whole text; 'log' "
        "the game so far; 'note TEXT' writes a note into the playtest record at this point; 'undo' takes back your "
        "last choice (the screen says what to put back); 'back', in the second list of a long choice, shows the first "
        "again; 'save [FILE]' saves the session; 'quit' saves and stops; 'help' or '?' this text. Ctrl-D or Ctrl-C "
        "also save and stop.")


def policy_of(eng: Engine) -> TablePolicy:
    """The game's table policy (``table.py`` in its engine package)."""
    try:
        mod = importlib.import_module(f"wizprint.solo.games.{eng.decl.module}.table")
    except ImportError:
        raise UsageError(f"{eng.name} cannot be played on a table yet") from None
    policy: TablePolicy = mod.POLICY
    return policy


class Undo(Exception):
    """The person took back their last choice."""


@dataclass
class TerminalTable:
    """The person at the terminal: what the program says is printed, what is asked is read, commands handled."""

    term: Terminal
    game: TableGame
    path: Path
    log_path: Path | None = None
    transcript: list[str] = field(default_factory=list)

    def say(self, lines: Sequence[str]) -> None:
        for ln in lines:
            self.term.say(ln)
            self.transcript.append(ln)
        self.write_log()

    def write_log(self) -> None:
        if self.log_path is None:
            return
        with contextlib.suppress(WizprintError, ValueError):
            write_atomic(self.log_path, "\n".join([f"{log_head_line(self.game)}", *self.transcript]) + "\n")

    # -- the Table protocol --------------------------------------------------------------------------------------
    def tell(self, lines: Sequence[str]) -> None:
        if lines:
            self.say([f"  > {ln}" for ln in lines])

    def decide(self, question: str, options: Sequence[str], actions: Sequence[Action],
               cards_hint: str | None) -> Entry | None:
        two = two_steps(self.game.belief, actions)
        if two is None:
            return self.choose(question, options, cards_hint)
        keys = [a.key for a in actions]
        while True:  # a long list asked in two steps, as the game groups it (as in solo play)
            first = self.choose(two.question, [g.label for g in two.groups], cards_hint)
            if first is None or first.kind != "option":
                return first
            group = two.groups[first.index]
            second = self.choose(group.question, [t for _, t in group.options], None, back=True)
            if second is None or second.kind == "option":
                return second if second is None else Entry("option", keys.index(group.options[second.index][0].key))

    def choose(self, question: str, options: Sequence[str], cards_hint: str | None, back: bool = False
               ) -> Entry | None:
        """A numbered question (``back``: the second step of two, where 'back' asks the first again)."""
        rows = decision_rows(self.term.console, question, list(options))
        show(self.term, rows)
        if back:
            self.term.say("(or 'back' to choose again from the first list)")
        if cards_hint:
            alone = cards_hint.removeprefix("or ")
            self.term.say(f"({cards_hint})" if options else f"{alone[0].upper()}{alone[1:]}.")
        while True:
            answer = self.ask("your choice> ")
            if answer is None:
                return None
            if answer.isascii() and answer.isdigit():
                k = int(answer) - 1
                if 0 <= k < len(options):
                    self.transcript.append(f"{question}\nyour choice> {answer}: {options[k]}")
                    return Entry("option", k)
                if not options and cards_hint:
                    self.term.say(f"There are no numbered choices here: {cards_hint.removeprefix('or ')}.")
                else:
                    self.term.say(f"There is no choice {k + 1}: type a number from 1 to {len(options)}.")
                continue
            if back and answer.strip().lower() == "back":
                return Entry("command", word="back")
            if self.command(answer):
                show(self.term, rows)
                continue
            if cards_hint:
                self.transcript.append(f"{question}\nyour choice> {answer}")
                return Entry("cards", cards=parse_cards(answer))
            self.term.say(f"{quote(answer, 40)} is not a choice: type a number from 1 to {len(options)}"
                          f"{', back' if back else ''}, or 'help'.")

    def which(self, question: str, options: Sequence[str], ask: Ask) -> int | None:
        rows = decision_rows(self.term.console, question, list(options))
        show(self.term, rows)
        while True:
            answer = self.ask("your answer> ")
            if answer is None:
                return None
            if answer.isascii() and answer.isdigit() and 1 <= int(answer) <= len(options):
                self.transcript.append(f"{question} {answer}: {options[int(answer) - 1]}")
                return int(answer) - 1
            if self.command(answer):
                show(self.term, rows)
                continue
            self.term.say(f"Type a number from 1 to {len(options)}.")

    def card(self, prompt: str, ask: Ask) -> str | None:
        self.term.say(prompt)
        while True:
            answer = self.ask("card> ")
            if answer is None:
                return None
            if self.command(answer):
                self.term.say(prompt)
                continue
            self.transcript.append(f"{prompt} {answer}")
            return answer

    def roll(self, sides: int, why: str, ask: Ask) -> int | None:
        prompt = f"Roll a d{sides} ({why}): what does it show?"
        self.term.say(prompt)
        while True:
            answer = self.ask("die> ")
            if answer is None:
                return None
            if answer.isascii() and answer.isdigit() and 1 <= int(answer) <= sides:
                self.transcript.append(f"{prompt} {answer}")
                return int(answer)
            if self.command(answer):
                self.term.say(prompt)
                continue
            self.term.say(f"A d{sides} shows a number from 1 to {sides}.")

    def moved(self, action: Action, by: int, dice: Sequence[int], picks: Sequence[str], prior: State[Any]) -> None:
        return None

    # -- commands -----------------------------------------------------------------------------------------------
    def ask(self, prompt: str) -> str | None:
        line = self.term.ask(prompt)
        return None if line is None else line[:2000]

    def command(self, answer: str) -> bool:
        """Handle a command typed at any prompt; False when it is none."""
        word, _, rest = answer.strip().partition(" ")
        word = word.lower()
        g = self.game
        if word in ("help", "?"):
            self.term.say(HELP)
        elif word == "look":
            found = g.engine.look(g.person_view(), rest.strip()[:200]) if rest.strip() else None
            for line in found or [f"Nothing is called {quote(rest.strip(), 40)}."]:
                self.term.console.print(line, highlight=False)
        elif word == "log":
            for ln in g.public_log()[-200:]:
                self.term.say(f"  {ln}")
        elif word == "note":
            if not rest.strip():
                self.term.say("A note needs its text: 'note the icons of W23 are too small'.")
            else:
                g.notes.append((g.belief.steps, rest.strip()))
                self.transcript.append(f"NOTE (step {g.belief.steps}): {rest.strip()}")
                self.write_log()
                self.term.say("Noted.")
        elif word == "undo":
            raise Undo
        elif word in ("save", "quit"):
            where = Path(rest.strip()) if rest.strip() else self.path
            try:
                done = save_table(g, where)
            except WizprintError as exc:
                self.term.say(f"Not saved: {reason(exc)}.")
                return True
            self.term.say(f"Saved to {done}. Resume with: wizprint solo table {g.engine.id} --load "
                          f"{shlex.quote(str(done))}")
            if word == "quit":
                raise Stop(saved=True)
        else:
            return False
        return True


def two_steps(state: State[Any], actions: Sequence[Action]) -> TwoStep | None:
    """The game's two steps for a long list of moves (a group first, then its moves, as solo play asks them), when
    it groups exactly these moves."""
    if len(actions) < 2:
        return None
    two = state.two_step(list(actions))
    if two is None or len(two.groups) < 2:
        return None
    grouped = sorted(a.key for g in two.groups for a, _ in g.options)
    return two if grouped == sorted(a.key for a in actions) else None


def log_head_line(g: TableGame) -> str:
    return f"{TABLE_LOG_HEAD}{g.engine.id}, seed {g.seed}: the table session of P{g.person + 1}"


# -- saves ------------------------------------------------------------------------------------------------------
def table_json(g: TableGame) -> dict[str, Any]:
    # saved in the middle of a move told in pieces: the belief is from before it, and the move is made again on
    # resuming, told again from its start
    told = min(g.told, len(g.public_log()))
    return {"format": TABLE_FORMAT, "game": g.engine.id, "person": g.person, "bots": g.bots, "dice": g.dice,
            "seed": g.seed, "known": sorted(g.known), "told": told, "notes": [list(n) for n in g.notes],
            "state": g.belief.to_json()}


def save_table(g: TableGame, path: Path) -> Path:
    text = json.dumps(table_json(g), indent=1) + "\n"
    try:
        with interrupts_held():
            return write_atomic(path, text)
    except ValueError as exc:
        raise WizprintError(f"cannot write {quote(str(path))}: {exc}") from None


def load_table(eng: Engine, path: Path) -> TableGame:
    """A saved table session, every value checked (it is untrusted input)."""
    data = read_save(path)
    if not isinstance(data, dict) or data.get("format") != TABLE_FORMAT:
        raise SaveError([f"format: not a wizprint table session (expected {TABLE_FORMAT!r})"])
    if data.get("game") != eng.id:
        raise SaveError([f"game: this is a session of {quote(data.get('game'), 40)}, not {eng.id}"])
    chk = Checks(16)
    for k in data:
        if k not in TABLE_KEYS:
            chk.fail(k if len(k) < 40 else quote(k, 40), "unknown key")
    for k in TABLE_KEYS:
        if k not in data:
            chk.fail(k, "missing")
    chk.done()
    state = eng.from_json(data["state"])
    person, bots, dice, seed = data["person"], data["bots"], data["dice"], data["seed"]
    if not _whole(person) or not 0 <= person < state.players:
        chk.fail("person", f"expected a seat from 0 to {state.players - 1}, got {_what(person)}")
    if not isinstance(bots, list) or len(bots) != state.players or not all(isinstance(b, str) for b in bots):
        chk.fail("bots", f"expected a list of {state.players} bot names, got {_what(bots)}")
    else:
        for i, b in enumerate(bots):
            if i != person and b:
                try:
                    make_agent(b, eng)
                except WizprintError as exc:
                    chk.fail(f"bots[{i}]", str(exc))
    if dice not in ("physical", "app"):
        chk.fail("dice", f"expected 'physical' or 'app', got {_what(dice)}")
    if not _whole(seed) or not 0 <= seed <= MAX_SEED:
        chk.fail("seed", f"expected a whole number from 0 to 2**64-1, got {_what(seed)}")
    known = data["known"]
    inst = set(state.data.instances)
    if not isinstance(known, list) or not all(isinstance(c, str) and c in inst for c in known):
        chk.fail("known", "expected a list of the game's card ids")
    told = data["told"]
    if not _whole(told) or told < 0:
        chk.fail("told", f"expected a whole number from 0, got {_what(told)}")
    notes = data["notes"]
    if not isinstance(notes, list) or not all(isinstance(n, list) and len(n) == 2 and _whole(n[0])
                                              and isinstance(n[1], str) and len(n[1]) <= 2000 for n in notes):
        chk.fail("notes", "expected a list of [step, text] pairs")
    chk.done()
    g = TableGame(eng, state, person, list(bots), policy_of(eng), dice=dice, seed=seed, known=set(known),
                  told=told, notes=[(n[0], n[1]) for n in notes])
    return g


# -- the session --------------------------------------------------------------------------------------------------
def new_table(game: str, players: int | None, bot: str, seed: int | None, seat: int, variant: str,
              dice: str) -> TableGame:
    eng = engine(game)
    n = eng.min_players if players is None else players
    eng.check_players(n)
    if not 0 <= seat < n:
        raise UsageError(f"--seat must be between 0 and {n - 1}, not {seat}")
    seed = random_seed() if seed is None else seed
    check_seed(seed)
    eng.check_variant(variant)
    make_agent(bot, eng)
    policy = policy_of(eng)
    state = table_state(eng, policy, n, seed, variant, seat)
    return TableGame(eng, state, seat, ["" if i == seat else bot for i in range(n)], policy, dice=dice, seed=seed)


LOG_LIMIT = 16 * 1024 * 1024  # the largest session log a resumed session reads back


def resumed_names(g: TableGame, load: Path, save_file: Path | None, log_file: Path | None
                  ) -> tuple[Path, Path, list[str], list[str]]:
    """A resumed session's save and log files (as a resumed game of `solo play` takes them: a file of the log's
    name that wizprint did not write is kept, and the log goes to a free name), what to say of them, and the
    session's log so far (its lines after the first, to go on from)."""
    from .play import Session, resumed_log

    s = Session(g.engine, g.belief, g.person, g.bots, g.seed)
    log_path = resumed_log(s, load, log_file)
    before: list[str] = []
    with contextlib.suppress(FileProblem, OSError):
        text = read_file(log_path, LOG_LIMIT, "a session's log").decode("utf-8", "replace")
        if text.startswith(TABLE_LOG_HEAD):
            before = [*text.splitlines()[1:], "-- resumed --"]
    return save_file or load, log_path, s.notes, before


def run_table(g: TableGame, save_path: Path, log_path: Path | None, inp: TextIO | None = None,
              out: TextIO | None = None, width: int | None = None, fresh: bool = True,
              before: Sequence[str] = ()) -> int:
    """Play the session at the terminal; 0 when it ends or is saved, 1 when it could not be saved. ``before``:
    the log of a resumed session so far."""
    console = WholeLines(file=out or sys.stdout, width=width, highlight=False)
    term = Terminal(inp or sys.stdin, console)
    t = TerminalTable(term, g, save_path, log_path, list(before))
    console.print(f"[bold]{escape(g.engine.name)}[/bold] on the table - you are P{g.person + 1}; "
                  f"{escape(', '.join(f'P{i + 1} {b}' for i, b in enumerate(g.bots) if b))} played by the program; "
                  f"dice: {g.dice}. Type 'help' for help.")
    t.say([g.policy.policy])
    try:
        if fresh:
            g.start(t)
        points: list[Point] = []  # the position before each of the person's decisions, latest last
        while not g.belief.is_terminal():
            try:
                if g.belief.current_player == g.person and (not points or points[-1][0].steps != g.belief.steps):
                    points.append(save_point(g))
                g.step(t)
            except Undo:
                if len(points) < 2:
                    t.say(["Nothing to undo yet: this is your first choice."])
                    continue
                points.pop()  # this decision's own point: the choice taken back is the one before it
                restore(g, points.pop(), t)
        t.say([g.outcome_words()])
        with contextlib.suppress(WizprintError):
            save_table(g, save_path)
        return 0
    except (Stop, KeyboardInterrupt) as stop:
        if isinstance(stop, Stop) and stop.saved:
            return 0
        try:
            done = save_table(g, save_path)
        except WizprintError as exc:
            term.say(f"Cannot save to {save_path}: {reason(exc)}")
            return 1
        term.say(f"Saved to {done}. Resume with: wizprint solo table {g.engine.id} --load {shlex.quote(str(done))}")
        return 0
    except WizprintError as exc:
        term.say(f"error: {reason(exc)}")
        with contextlib.suppress(WizprintError):
            save_table(g, save_path)
        return 1
    except Exception as exc:
        tb = traceback.extract_tb(exc.__traceback__)[-1]
        term.say(f"error: the table driver failed ({reason(exc)}, at {Path(tb.filename).name}:{tb.lineno})")
        with contextlib.suppress(WizprintError):
            save_table(g, save_path)
        return 1


Point = tuple[State[Any], set[str], int, int]  # the belief, the cards known, the log lines told, the exchanges


def save_point(g: TableGame) -> Point:
    return g.belief.clone(), set(g.known), g.told, len(g.swaps)


def restore(g: TableGame, point: Point, t: TerminalTable) -> None:
    """Back to before the person's last choice: the belief as it was, and what to put back on the table (said of
    the cards as they are now known: a card of the person's entered since goes back to their hand)."""
    state, known, told, swaps = point
    then = state
    for x, y in g.swaps[swaps:]:
        then = relabel(then, {x: y, y: x})
    undo = g.instructions_between(g.belief, then)
    g.belief, g.known, g.told = state, known, told
    del g.swaps[swaps:]
    g.shown, g.ruled = None, False  # (a move told in pieces, taken back in the middle)
    head = "Undone: back to before your last choice." + (" On the table:" if undo else "")
    t.say([head] + [f"  {ln}" for ln in undo])


def start_names(g: TableGame, save_file: Path | None, log_file: Path | None) -> tuple[Path, Path, list[str]]:
    """The session's save and log files: free names, as a new game of `solo play` takes them."""
    from .play import Session

    s = Session(g.engine, g.belief, g.person, g.bots, g.seed)
    want_save = save_file or Path(f"wizprint-{g.engine.id}-table-seed{g.seed}.save.json")
    want_log = log_file or Path(f"wizprint-{g.engine.id}-table-seed{g.seed}.log")
    notes = claim_names(s, want_save, want_log, save_given=save_file is not None, log_given=log_file is not None)
    assert s.save_path is not None and s.log_path is not None
    with contextlib.suppress(WizprintError):
        save_table(g, s.save_path)
    return s.save_path, s.log_path, notes

