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
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from wizprint.errors import EngineError, IllegalActionError, WizprintError

from .kernel import Chance, Engine, State, engine
from .kernel.setup import SetupError

TOP_KEYS = {"game", "title", "source", "players", "seed", "variant", "strict", "setup", "step", "expect"}
STEP_KEYS = {"do", "seat", "dice", "picks", "arrange", "refuse", "legal", "legal_includes", "expect", "said"}
KERNEL_SETUP_KEYS = {"dice": "dice rolled during the set-up (and after, until used)",
                     "picks": "random choices made during the set-up (and after, until used)"}
MAX_STEPS = 10_000
MAX_FILE = 1 << 20


class ScenarioError(WizprintError):
    """A scenario file that cannot run; the message starts with its file and line."""


@dataclass
class ScenarioResult:
    file: str
    title: str
    ok: bool
    failures: list[str] = field(default_factory=list)
    state: State[Any] | None = None

    def report(self) -> str:
        head = f"{'ok' if self.ok else 'FAIL'}: {self.file}: {self.title}"
        return "\n".join([head] + [f"  {f}" for f in self.failures])


class Lines:
    """Where the keys of a scenario file are: top-level keys, [setup] and [expect] keys, each [[step]] and its keys
    (tomllib reports no positions)."""

    _HEAD = re.compile(r"^\s*\[(\[)?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")
    _KEY = re.compile(r"""^\s*("[^"]*"|'[^']*'|[A-Za-z0-9_.-]+)\s*=""")

    def __init__(self, text: str):
        self.top: dict[str, int] = {}
        self.sections: dict[str, int] = {}
        self.keys: dict[str, dict[str, int]] = {}
        self.steps: list[int] = []
        self.step_keys: list[dict[str, int]] = []
        current: dict[str, int] = self.top
        for no, line in enumerate(text.splitlines(), 1):
            m = self._HEAD.match(line)
            if m:
                name = m.group(2)
                if m.group(1):  # [[array]]
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
    if isinstance(v, list) and all(isinstance(x, str) for x in v):
        return list(v)
    raise ScenarioError(f"{where}: expected a text or a list of texts")


def _ints(v: Any, where: str) -> list[int]:
    if isinstance(v, list) and all(isinstance(x, int) and not isinstance(x, bool) for x in v) and len(v) <= 10_000:
        return list(v)
    raise ScenarioError(f"{where}: expected a list of whole numbers")


def _compare(state: State[Any], expected: Any, where: Any) -> list[str]:
    """Probe values against ``expected``; ``where(key)`` names the line of each key."""
    if not isinstance(expected, Mapping):
        return [f"{where('')}: 'expect' must be a table of probe values"]
    probe = state.probe()
    out = []
    for key, want in expected.items():
        if key not in probe:
            out.append(f"{where(key)}: unknown probe '{key}' (known: {', '.join(sorted(probe))})")
            continue
        got = probe[key]
        same = list(got) == list(want) if isinstance(want, list) and isinstance(got, (list, tuple)) else got == want
        if not same:
            out.append(f"{where(key)}: {key}: expected {want!r}, got {got!r}")
    return out


def _load(path: Path) -> tuple[str, dict[str, Any]]:
    try:
        if path.stat().st_size > MAX_FILE:
            raise ScenarioError(f"{path}: a scenario file is at most {MAX_FILE // 1024} KiB")
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise ScenarioError(f"{path}: is not UTF-8 text") from None
    except OSError as exc:
        raise ScenarioError(f"{path}: cannot read: {exc.strerror or exc}") from None
    try:
        return text, tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"at line (\d+)", str(exc))
        raise ScenarioError(f"{path}:{m.group(1) if m else 0}: malformed TOML: "
                            f"{re.sub(r' [(]at line .*', '', str(exc))}") from None


def run_scenario(path: Path, game: str | Engine | None = None) -> ScenarioResult:
    """Run one scenario file. A file that cannot run is a failed result (raises only for what the caller must fix:
    a file that cannot be read or parsed)."""
    text, data = _load(path)
    shown = str(path)
    lines = Lines(text)
    title = data.get("title", path.stem)
    title = title if isinstance(title, str) else path.stem
    failures: list[str] = []

    def at(line: int) -> str:
        return f"{shown}:{line}"

    def fail(msg: str, line: int) -> ScenarioResult:
        return ScenarioResult(shown, title, False, [*failures, f"{at(line)}: {msg}"])

    for key in data:
        if key not in TOP_KEYS:
            what = "section" if isinstance(data[key], (dict, list)) else "key"
            return fail(f"unknown {what} '{key}' (allowed: {', '.join(sorted(TOP_KEYS))})", lines.top_key(key))
    try:
        eng = game if isinstance(game, Engine) else engine(game if game is not None else _text(data, "game", lines))
    except ScenarioError as exc:
        return fail(str(exc), lines.top_key("game"))
    except WizprintError as exc:
        return fail(str(exc), lines.top_key("game"))
    if game is None and data.get("game") != eng.id:
        return fail(f"'game' must be a game id, not {data.get('game')!r}", lines.top_key("game"))
    try:
        players = _whole(data, "players", eng.min_players)
        seed = _whole(data, "seed", 1, hi=(1 << 63))
        variant = _text(data, "variant", lines, "")
        strict = data.get("strict", True)
        if not isinstance(strict, bool):
            raise ScenarioError("'strict' must be true or false")
        table = data.get("setup", {})
        if not isinstance(table, dict):
            raise ScenarioError("[setup] must be a table")
        steps = data.get("step", [])
        if not isinstance(steps, list) or not all(isinstance(st, dict) for st in steps):
            raise ScenarioError("'step' must be an array of tables: write [[step]]")
        if len(steps) > MAX_STEPS:
            raise ScenarioError(f"a scenario has at most {MAX_STEPS} steps")
    except ScenarioError as exc:
        key = str(exc).split("'")[1] if "'" in str(exc) else ""
        return fail(str(exc), lines.top_key(key))
    allowed = {**eng.code.setup_keys, **KERNEL_SETUP_KEYS}
    for key in table:
        if key not in allowed:
            return fail(f"[setup]: unknown key '{key}' for {eng.name} (allowed: {', '.join(sorted(allowed))})",
                        lines.key("setup", key))
    for n, step in enumerate(steps, 1):
        for key in step:
            if key not in STEP_KEYS:
                return fail(f"step {n}: unknown key '{key}' (allowed: {', '.join(sorted(STEP_KEYS))})",
                            lines.step_key(n, key))
    try:
        chance = Chance(tuple(_ints(table.get("dice", []), "dice")), tuple(_texts(table.get("picks", []), "picks")),
                        strict)
        state = eng.setup({k: v for k, v in table.items() if k not in KERNEL_SETUP_KEYS}, players, seed, variant,
                          chance)
    except SetupError as exc:
        return fail(str(exc), lines.key("setup", exc.key))
    except (EngineError, ScenarioError) as exc:
        return fail(f"[setup]: {exc}", lines.sections.get("setup", 0))
    state.script(strict=strict)
    auto = eng.automaton() if not strict else None
    mark = len(state.log)
    for n, step in enumerate(steps, 1):

        def where(key: str, n: int = n) -> str:
            return f"{at(lines.step_key(n, key))}: step {n}"

        part = "do"
        try:
            for part in ("dice", "picks", "arrange"):
                if part in step:
                    _chance(state, part, step[part])
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
                recent = [e.text for e in state.log[mark:]]
                for w in _texts(step["said"], "said"):
                    if not any(w in t for t in recent):
                        failures.append(f"{where('said')}: the log does not say {w!r} (it says: "
                                        f"{' | '.join(recent[-8:]) or 'nothing'})")
        except (EngineError, ScenarioError) as exc:
            return ScenarioResult(shown, title, False, [*failures, f"{where(part)}: {exc}"], state)
        if "expect" in step:
            failures.extend(_compare(state, step["expect"], lambda k, n=n: where("expect", n)))
    if strict and state.chance.dice:
        failures.append(f"{shown}: {len(state.chance.dice)} scripted dice were never rolled: {list(state.chance.dice)}")
    if strict and state.chance.picks:
        failures.append(f"{shown}: scripted random choices were never made: {list(state.chance.picks)}")
    failures.extend(_compare(state, data.get("expect", {}), lambda k: f"{at(lines.key('expect', k))}: final"))
    return ScenarioResult(shown, title, not failures, failures, state)


def _whole(data: Mapping[str, Any], key: str, default: int, hi: int = 16) -> int:
    v = data.get(key, default)
    if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= hi:
        raise ScenarioError(f"'{key}' must be a whole number from 0 to {hi}, not {v!r}")
    return v


def _text(data: Mapping[str, Any], key: str, lines: Lines, default: str | None = None) -> str:
    v = data.get(key, default)
    if v is None:
        raise ScenarioError(f"the file must name its '{key}'")
    if not isinstance(v, str):
        raise ScenarioError(f"'{key}' must be a string, not {v!r}")
    return v


def _chance(state: State[Any], part: str, v: Any) -> None:
    if part == "dice":
        state.script(dice=_ints(v, "dice"))
    elif part == "picks":
        state.script(picks=_texts(v, "picks"))
    else:
        if not isinstance(v, Mapping):
            raise ScenarioError("'arrange' must be a table: { pile = [cards, top first] }")
        for pile, cards in v.items():
            state.arrange(str(pile), _texts(cards, "arrange"))


def _seat(state: State[Any], seat: Any) -> None:
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise ScenarioError(f"'seat' must be a seat number, not {seat!r}")
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
                    raise ScenarioError(f"refusing {move!r} changed the game") from None
                continue
            raise ScenarioError(f"{move!r} should be refused now, but it was accepted")
    elif part == "legal":
        if set(want) != keys:
            raise ScenarioError(f"the legal moves are not as expected: missing {sorted(set(want) - keys)}, "
                                f"not expected {sorted(keys - set(want))}")
    elif not set(want) <= keys:
        raise ScenarioError(f"these moves are not legal now: {sorted(set(want) - keys)} (legal: "
                            f"{', '.join(sorted(keys)[:14])})")


def _do(state: State[Any], step: Mapping[str, Any], auto: Any) -> None:
    key = step["do"]
    if not isinstance(key, str):
        raise ScenarioError(f"'do' must be an action key, not {key!r}")
    seat = step.get("seat")
    if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)):
        raise ScenarioError(f"'seat' must be a seat number, not {seat!r}")
    legal_keys = {a.key for a in state.legal_actions()}
    while key not in legal_keys and auto is not None and not state.is_terminal() and (
            seat is None or state.current_player != seat):
        state.apply(auto.choose(state, state.current_player))
        legal_keys = {a.key for a in state.legal_actions()}
    if seat is not None and state.current_player != seat:
        raise ScenarioError(f"the script has seat {seat} play {key!r}, but seat {state.current_player} must "
                            f"choose now ({', '.join(sorted(legal_keys)[:10])})")
    if key not in legal_keys:
        raise ScenarioError(f"{key!r} is not legal for seat {state.current_player} now "
                            f"(legal: {', '.join(sorted(legal_keys)[:14])})")
    state.apply_key(key)


def run_all(paths: list[Path], game: str | None = None) -> tuple[list[ScenarioResult], int]:
    """Run every file; a file that cannot even be read is a failed result too. Returns the results and the
    number that failed."""
    out = []
    for p in paths:
        try:
            out.append(run_scenario(p, game))
        except WizprintError as exc:
            out.append(ScenarioResult(str(p), p.stem, False, [str(exc)]))
    return out, sum(1 for r in out if not r.ok)
