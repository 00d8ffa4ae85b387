"""Scenario files: a position set up from a short TOML file, scripted moves and chance, and assertions (after Forge
puzzles and XMage tests). Every key is checked: a misspelt key or section is an error with its file and line.

    game = "wizard-cards"        # a game id (or, with `solo scenario --game PATH`, the folder given there)
    title = "Sara's ward"
    source = "wizard-cards.txt, Ward: the example of Sara and Julia"
    players = 2                  # default: the game's fewest
    seed = 1                     # for anything not scripted (shuffles of unnamed cards)
    variant = ""                 # optional
    strict = true                # default: a choice the script does not make, or a die or random choice it does
                                 # not script (set-up included), is an error
    [setup]                      # the game's own set-up keys (listed by each game: `setup_keys`), plus
    hands = [["KH", "3S", "7S"], ["JC", "2C"]]
    dice = [6]                   # dice rolled during the set-up (and after, until used)
    picks = ["CH05"]             # random choices (a character sheet, the first drafter...), by what is chosen

    [[step]]                     # in this order: chance, assertions on the moves, the move, assertions after it
    dice = [6, 6, 2]             # the next die results
    picks = ["1"]                # the next random choices
    arrange = { spell_pile = ["QS", "KH"] }   # put these cards on top of a pile, the first on top
    seat = 0                     # whose decision it must be now
    refuse = "play QS"           # a move (or a list) that must be refused now, leaving the game unchanged
    legal = ["play KH", "stop"]  # the legal moves now are exactly these (legal_includes: at least these)
    do = "play KH"               # an action key
    expect = { "ward.0" = 3 }    # probe values that must hold after the step
    said = "draws 5"             # text the log must show since the last move (`do`) was begun: after this
                                 # step's move, or after the previous one's (or a list of texts)

    [expect]                     # probe values that must hold at the end
    "damage.0" = 0

With ``strict = false``, a choice the script leaves out is made by the game's automaton and unscripted chance
comes from the seeded generator. A file that fails does not stop the others: each is reported with the line of what
failed and the expected and actual values.

A scenario file is untrusted input: every value is checked for its type and range (the game's ``setup`` checks its
own keys with ``wizprint.solo.kernel.setup``), a failure names the file and line and quotes at most a short part of
any value, and nothing can run without end: at most :data:`MAX_FILE` bytes, :data:`MAX_STEPS` steps,
:data:`MAX_ITEMS` dice, picks or moves in a list, and :data:`MAX_AUTO` automaton moves in a file that is not strict
(besides the game's step cap).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import tomli

from wizprint.cards.lines import TomlLines
from wizprint.cards.schema import human_path
from wizprint.errors import IllegalActionError, WizprintError, capped, one_line, quote
from wizprint.files import FileProblem, read_file
from wizprint.finite import NonFinite, loads_toml

from .kernel import Chance, Engine, State, engine
from .kernel.checks import reason
from .kernel.rng import MASK
from .kernel.setup import SetupError

TOP_KEYS = {"game", "title", "source", "players", "seed", "variant", "strict", "setup", "step", "expect"}
STEP_KEYS = {"do", "seat", "dice", "picks", "arrange", "refuse", "legal", "legal_includes", "expect", "said"}
KERNEL_SETUP_KEYS = {"dice": "dice rolled during the set-up (and after, until used)",
                     "picks": "random choices made during the set-up (and after, until used)"}
MAX_STEPS = 10_000  # [[step]] tables of a file
MAX_ITEMS = 10_000  # dice, picks or moves in one list
MAX_AUTO = 20_000  # moves the automaton makes in a file that is not strict (between the scripted ones)
MAX_FILE = 1 << 20


class ScenarioError(WizprintError):
    """A scenario file that cannot run; the message starts with its file and line (or, raised while reading a
    table, names the ``key`` whose line the runner adds)."""

    def __init__(self, message: str, key: str = ""):
        self.key = key
        super().__init__(message)


@dataclass
class ScenarioResult:
    file: str
    title: str
    ok: bool
    failures: list[str] = field(default_factory=list)
    state: State[Any] | None = None

    def report(self) -> str:
        head = f"{'ok' if self.ok else 'FAIL'}: {self.file}: {one_line(self.title, 120)}"
        return "\n".join([head] + [f"  {one_line(f)}" for f in capped(self.failures)])


def _header(line: str) -> tuple[str, bool] | None:
    """A table header ``[name]`` or ``[[name]]`` (with an optional comment after it): the name and whether it is an
    array of tables; None for any other line. Plain string work, so a long line costs no more than its length."""
    t = line.strip()
    array = t.startswith("[[")
    if not t.startswith("["):
        return None
    body = t[2:] if array else t[1:]
    end = body.find("]")
    if end < 0:
        return None
    name, rest = body[:end].strip(), body[end + 1:]
    if array:
        if not rest.startswith("]"):
            return None
        rest = rest[1:]
    rest = rest.strip()
    if not name or (rest and not rest.startswith("#")):
        return None
    return name, array


class Lines:
    """Where the keys of a scenario file are: top-level keys, [setup] and [expect] keys, each [[step]] and its keys
    (tomllib reports no positions)."""

    _KEY = re.compile(r"""^\s*("[^"]*"|'[^']*'|[A-Za-z0-9_.-]+)\s*=""")  # linear: no nested repeats

    def __init__(self, text: str):
        self.top: dict[str, int] = {}
        self.sections: dict[str, int] = {}
        self.keys: dict[str, dict[str, int]] = {}
        self.steps: list[int] = []
        self.step_keys: list[dict[str, int]] = []
        self.text = text.splitlines()
        current: dict[str, int] = self.top
        for no, line in enumerate(self.text, 1):
            head = _header(line)
            if head:
                name, array = head
                if array:  # [[array]]
                    if name == "step":
                        self.steps.append(no)
                        self.step_keys.append({})
                        current = self.step_keys[-1]
                    else:
                        self.sections.setdefault(f"[[{name}]]", no)
                        current = {}
                else:
                    self.sections.setdefault(name, no)
                    current = self.keys.setdefault(name, {})
                continue
            k = self._KEY.match(line)
            if k:
                current.setdefault(k.group(1).strip("\"'"), no)

    def top_key(self, key: str) -> int:
        return self.top.get(key) or self.sections.get(key) or self.sections.get(f"[[{key}]]", 0)

    def key(self, section: str, key: str) -> int:
        return self.keys.get(section, {}).get(key) or self.sections.get(section, 0)

    def step(self, n: int) -> int:
        return self.steps[n - 1] if 0 < n <= len(self.steps) else 0

    def step_key(self, n: int, key: str) -> int:
        if 0 < n <= len(self.step_keys):
            return self.step_keys[n - 1].get(key) or self.step(n)
        return 0


def _texts(v: Any, where: str) -> list[str]:
    if isinstance(v, str):
        return [v]
    if isinstance(v, list) and all(isinstance(x, str) for x in v) and len(v) <= MAX_ITEMS:
        return list(v)
    raise ScenarioError(f"{where}: expected a text or a list of at most {MAX_ITEMS:,} texts", where)


def _dice(v: Any, where: str, sides: int) -> list[int]:
    """Scripted die results: a list of whole numbers from 1 to ``sides``."""
    if isinstance(v, list) and len(v) <= MAX_ITEMS and all(
            isinstance(x, int) and not isinstance(x, bool) and 1 <= x <= sides for x in v):
        return list(v)
    raise ScenarioError(f"{where}: expected a list of die results, whole numbers from 1 to {sides} "
                        f"(at most {MAX_ITEMS:,}), not {quote(v, 60)}", where)


def _compare(state: State[Any], expected: Any, where: Any) -> list[str]:
    """Probe values against ``expected``; ``where(key)`` names the line of each key."""
    if not isinstance(expected, Mapping):
        return [f"{where('')}: 'expect' must be a table of probe values"]
    probe = state.probe()
    out = []
    for key, want in expected.items():
        if key not in probe:
            known = ", ".join(sorted(probe)[:40]) + (", ..." if len(probe) > 40 else "")
            out.append(f"{where(key)}: unknown probe {quote(key, 40)} (known: {known})")
            continue
        got = probe[key]
        same = list(got) == list(want) if isinstance(want, list) and isinstance(got, (list, tuple)) else got == want
        if not same:
            out.append(f"{where(key)}: {key}: expected {quote(want, 200)}, got {quote(got, 200)}")
    return out


def _load(path: Path) -> tuple[str, dict[str, Any]]:
    try:
        raw = read_file(path, MAX_FILE, "a scenario file", quote(str(path)) if "\0" in str(path) else str(path))
        text = raw.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")  # line ends as a text file's read
    except FileProblem as exc:
        raise ScenarioError(f"{exc.shown}: cannot read: {exc.detail}" if exc.kind == "os" else str(exc)) from None
    except UnicodeDecodeError:
        raise ScenarioError(f"{path}: is not UTF-8 text") from None
    try:
        return text, loads_toml(text)
    except NonFinite as exc:
        raise ScenarioError(f"{path}:{max(TomlLines(text).line(exc.path), 1)}: {human_path(exc.path)}: must be a "
                            f"finite number, not {exc.literal}") from None
    except tomli.TOMLDecodeError as exc:
        m = re.search(r"at line (\d+)", str(exc))
        raise ScenarioError(f"{path}:{m.group(1) if m else 0}: malformed TOML: "
                            f"{re.sub(r' [(]at line .*', '', str(exc))}") from None
    except RecursionError:
        raise ScenarioError(f"{path}:{_deep_line(text)}: malformed TOML: arrays or tables nested too deeply") from None
    except ValueError as exc:  # a number of more than 4300 digits
        m = next((m for m in re.finditer(r"[0-9_]+", text) if len(m.group()) > 1000), None)
        line = text.count("\n", 0, m.start()) + 1 if m else 1
        raise ScenarioError(f"{path}:{line}: malformed TOML: {one_line(str(exc), 120)}") from None


def _deep_line(text: str, limit: int = 100) -> int:
    """The line where brackets first nest more than ``limit`` deep (outside strings, roughly: for a message)."""
    depth = 0
    line = 1
    for ch in text:
        if ch == "\n":
            line += 1
        elif ch in "[{":
            depth += 1
            if depth > limit:
                return line
        elif ch in "]}":
            depth -= 1
    return 1


def run_scenario(path: Path, game: str | Engine | None = None) -> ScenarioResult:
    """Run one scenario file. A file that cannot run is a failed result naming the file and line (raises only for
    what the caller must fix: a file that cannot be read or parsed)."""
    text, data = _load(path)
    shown = str(path)
    lines = Lines(text)
    title = data.get("title", path.stem)
    title = title if isinstance(title, str) else path.stem

    def fail(msg: str, line: int) -> ScenarioResult:
        return ScenarioResult(shown, title, False, [f"{shown}:{max(line, 1)}: {msg}"])

    for key in data:
        if key not in TOP_KEYS:
            what = "section" if isinstance(data[key], (dict, list)) else "key"
            return fail(f"unknown {what} {quote(key, 40)} (allowed: {', '.join(sorted(TOP_KEYS))})",
                        lines.top_key(key))
    try:
        eng = game if isinstance(game, Engine) else engine(game if game is not None else _text(data, "game"))
    except WizprintError as exc:
        return fail(str(exc), lines.top_key("game"))
    if game is None and data.get("game") != eng.id:
        return fail(f"'game' must be a game id, not {quote(data.get('game'), 60)}", lines.top_key("game"))
    try:
        for key in ("title", "source"):
            _text(data, key, "")
        players = _whole(data, "players", eng.min_players, 1, 16)
        _checked(eng.check_players, players, "players")
        seed = _whole(data, "seed", 1, 0, MASK)
        variant = _text(data, "variant", "")
        _checked(eng.check_variant, variant, "variant")
        strict = data.get("strict", True)
        if not isinstance(strict, bool):
            raise ScenarioError("'strict' must be true or false", "strict")
        table = data.get("setup", {})
        if not isinstance(table, dict):
            raise ScenarioError("[setup] must be a table", "setup")
        steps = data.get("step", [])
        if not isinstance(steps, list) or not all(isinstance(st, dict) for st in steps):
            raise ScenarioError("'step' must be an array of tables: write [[step]]", "step")
        if len(steps) > MAX_STEPS:
            raise ScenarioError(f"a scenario has at most {MAX_STEPS:,} steps", "step")
    except ScenarioError as exc:
        return fail(str(exc), lines.top_key(exc.key))
    allowed = {**eng.code.setup_keys, **KERNEL_SETUP_KEYS}
    for key in table:
        if key not in allowed:
            return fail(f"[setup]: unknown key {quote(key, 40)} for {eng.name} (allowed: {', '.join(sorted(allowed))})",
                        lines.key("setup", key))
    for n, step in enumerate(steps, 1):
        for key in step:
            if key not in STEP_KEYS:
                return fail(f"step {n}: unknown key {quote(key, 40)} (allowed: {', '.join(sorted(STEP_KEYS))})",
                            lines.step_key(n, key))
    sides = eng.code.state.DIE_SIDES
    try:
        chance = Chance(tuple(_dice(table.get("dice", []), "dice", sides)), tuple(_texts(table.get("picks", []),
                                                                                         "picks")), strict)
        state = eng.setup({k: v for k, v in table.items() if k not in KERNEL_SETUP_KEYS}, players, seed, variant,
                          chance)
    except SetupError as exc:
        return fail(str(exc), lines.key("setup", exc.key.split(".")[0]))
    except ScenarioError as exc:
        return fail(f"[setup] {exc}", lines.key("setup", exc.key))
    except WizprintError as exc:
        return fail(f"[setup]: {exc}", lines.sections.get("setup", 0))
    except Exception as exc:  # a set-up the game's checks let through, yet cannot be made: never a traceback
        return fail(f"[setup]: this position cannot be set up ({reason(exc)})", lines.sections.get("setup", 0))
    return _run_steps(state, steps, data, strict, eng, lines, ScenarioResult(shown, title, True, []))


def _run_steps(state: State[Any], steps: list[dict[str, Any]], data: Mapping[str, Any], strict: bool, eng: Engine,
               lines: Lines, res: ScenarioResult) -> ScenarioResult:
    """Run the steps of a scenario on its set-up, then check the final expectations."""
    shown = res.file
    failures = res.failures
    res.state = state
    state.script(strict=strict)
    auto = _Auto(eng) if not strict else None
    sides = eng.code.state.DIE_SIDES
    mark = len(state.log)
    for n, step in enumerate(steps, 1):

        def where(key: str, n: int = n) -> str:
            return f"{shown}:{lines.step_key(n, key)}: step {n}"

        part = "do"
        try:
            for part in ("dice", "picks", "arrange"):
                if part in step:
                    _chance(state, part, step[part], sides)
            if "seat" in step and "do" not in step:
                part = "seat"
                _seat(state, step["seat"])
            for part in ("refuse", "legal", "legal_includes"):
                if part in step:
                    _moves(state, part, step[part])
            if "do" in step:
                part = "do"
                mark = len(state.log)
                _do(state, step, auto)
            part = "said"
            if "said" in step:
                recent = state.log_texts(start=mark)
                for w in _texts(step["said"], "said"):
                    if not any(w in t for t in recent):
                        failures.append(f"{where('said')}: the log does not say {quote(w, 80)} (it says: "
                                        f"{one_line(' | '.join(recent[-8:]), 400) or 'nothing'})")
        except WizprintError as exc:
            failures.append(f"{where(part)}: {exc}")
            res.ok = False
            return res
        except Exception as exc:  # a rules engine failing on the position: a failure of the file, with its line
            failures.append(f"{where(part)}: the rules engine failed ({reason(exc)})")
            res.ok = False
            return res
        if "expect" in step:
            failures.extend(_compare(state, step["expect"], lambda k, n=n: where("expect", n)))
    if strict and state.chance.dice:
        failures.append(f"{shown}:{_last(lines, steps, 'dice')}: {len(state.chance.dice)} scripted dice were never "
                        f"rolled: {quote(list(state.chance.dice), 200)}")
    if strict and state.chance.picks:
        failures.append(f"{shown}:{_last(lines, steps, 'picks')}: scripted random choices were never made: "
                        f"{quote(list(state.chance.picks), 200)}")
    failures.extend(_compare(state, data.get("expect", {}), lambda k: f"{shown}:"
                             f"{lines.key('expect', k) or lines.top_key('expect') or max(len(lines.text), 1)}: final"))
    res.ok = not failures
    return res


def _last(lines: Lines, steps: list[dict[str, Any]], key: str) -> int:
    """The line of the last step that scripts ``key`` (else of the set-up's, else 1)."""
    for n in range(len(steps), 0, -1):
        if key in steps[n - 1]:
            return lines.step_key(n, key)
    return lines.key("setup", key) or 1


def _checked(check: Any, value: Any, key: str) -> None:
    """Run an engine check of a top-level value; its error names the key."""
    try:
        check(value)
    except WizprintError as exc:
        raise ScenarioError(str(exc), key) from None


def _whole(data: Mapping[str, Any], key: str, default: int, lo: int, hi: int) -> int:
    v = data.get(key, default)
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise ScenarioError(f"'{key}' must be a whole number from {lo} to {hi:,}, not {quote(v, 60)}", key)
    return v


def _text(data: Mapping[str, Any], key: str, default: str | None = None) -> str:
    v = data.get(key, default)
    if v is None:
        raise ScenarioError(f"the file must name its '{key}'", key)
    if not isinstance(v, str):
        raise ScenarioError(f"'{key}' must be a string, not {quote(v, 60)}", key)
    return v


def _chance(state: State[Any], part: str, v: Any, sides: int) -> None:
    if part == "dice":
        state.script(dice=_dice(v, "dice", sides))
    elif part == "picks":
        state.script(picks=_texts(v, "picks"))
    else:
        if not isinstance(v, Mapping):
            raise ScenarioError("'arrange' must be a table: { pile = [cards, top first] }")
        for pile, cards in v.items():
            state.arrange(str(pile), _texts(cards, "arrange"))


def _seat(state: State[Any], seat: Any) -> None:
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise ScenarioError(f"'seat' must be a seat number, not {quote(seat, 40)}")
    if state.current_player != seat:
        raise ScenarioError(f"the script says seat {seat} decides now, but it is seat {state.current_player} "
                            f"({', '.join(sorted(a.key for a in state.legal_actions())[:10])})")


def _moves(state: State[Any], part: str, v: Any) -> None:
    keys = {a.key for a in state.legal_actions()}
    want = _texts(v, part)
    if part == "refuse":
        for move in want:
            before = state.to_json()
            try:
                state.apply_key(move)
            except IllegalActionError:
                if state.to_json() != before:
                    raise ScenarioError(f"refusing {quote(move, 60)} changed the game") from None
                continue
            raise ScenarioError(f"{quote(move, 60)} should be refused now, but it was accepted")
    elif part == "legal":
        if set(want) != keys:
            raise ScenarioError(f"the legal moves are not as expected: missing {quote(sorted(set(want) - keys), 200)}, "
                                f"not expected {sorted(keys - set(want))}")
    elif not set(want) <= keys:
        raise ScenarioError(f"these moves are not legal now: {quote(sorted(set(want) - keys), 200)} (legal: "
                            f"{', '.join(sorted(keys)[:14])})")


class _Auto:
    """The automaton that makes the choices a file that is not strict leaves out, at most :data:`MAX_AUTO` of them
    in a file (a scenario cannot make the engine play on without end)."""

    def __init__(self, eng: Engine):
        self.agent = eng.automaton()
        self.left = MAX_AUTO

    def move(self, state: State[Any]) -> None:
        if self.left <= 0:
            raise ScenarioError(f"the automaton has made {MAX_AUTO:,} moves for this file: script more of them")
        self.left -= 1
        state.apply(self.agent.choose(state, state.current_player))


def _do(state: State[Any], step: Mapping[str, Any], auto: _Auto | None) -> None:
    key = step["do"]
    if not isinstance(key, str):
        raise ScenarioError(f"'do' must be an action key, not {quote(key, 60)}")
    seat = step.get("seat")
    if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)):
        raise ScenarioError(f"'seat' must be a seat number, not {quote(seat, 40)}")
    if state.is_terminal():
        raise ScenarioError(f"the game is over: {quote(key, 60)} cannot be played")
    legal_keys = {a.key for a in state.legal_actions()}
    while key not in legal_keys and auto is not None and not state.is_terminal() and (
            seat is None or state.current_player != seat):
        auto.move(state)
        legal_keys = {a.key for a in state.legal_actions()}
    if seat is not None and state.current_player != seat:
        raise ScenarioError(f"the script has seat {seat} play {quote(key, 60)}, but seat {state.current_player} must "
                            f"choose now ({', '.join(sorted(legal_keys)[:10])})")
    outcome = state.outcome()
    if outcome is not None:
        raise ScenarioError(f"the game ended before {quote(key, 60)} could be played ({outcome.reason})")
    if key not in legal_keys:
        raise ScenarioError(f"{quote(key, 60)} is not legal for seat {state.current_player} now "
                            f"(legal: {', '.join(sorted(legal_keys)[:14])})")
    state.apply_key(key)


def run_all(paths: list[Path], game: str | None = None) -> tuple[list[ScenarioResult], int]:
    """Run every file; a file that cannot even be read is a failed result too. Returns the results and the
    number that failed. A ``game`` folder that cannot be played is an error before any file runs (raised)."""
    if game is not None:
        engine(game)
    out = []
    for p in paths:
        try:
            out.append(run_scenario(p, game))
        except WizprintError as exc:
            out.append(ScenarioResult(str(p), p.stem, False, [str(exc)]))
    return out, sum(1 for r in out if not r.ok)
