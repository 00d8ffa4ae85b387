"""Scenario files: a position set up from a short TOML file, scripted moves and dice, and expectations
(after Forge puzzles and XMage tests).

    game = "wizard-cards"
    title = "Sara's ward"
    source = "wizard-cards.txt, Ward: the example of Sara and Julia"
    players = 2
    seed = 1                     # for anything not scripted (shuffles of unnamed cards)
    variant = ""                 # optional
    strict = true                # default: an unscripted die roll, or a choice by another seat than the
                                 # script's next step names, is an error
    [setup]                      # the game's own set-up keys (see each engine's ``setup`` docstring)
    hands = [["KH", "3S", "7S"], ["JC", "2C"]]

    [[step]]
    do = "play KH"               # an action key; ``seat = 0`` may be added to check who acts
    [[step]]
    dice = [6, 6, 2]             # the next die results
    [[step]]
    expect = { "ward.0" = 3 }    # probe values that must hold at this point
    said = "draws 5"             # text the game log must show since the previous step (or a list of texts)

    [expect]                     # probe values that must hold at the end
    "damage.0" = 0

With ``strict = false``, a choice the script leaves out is made by the game's automaton and unscripted dice
come from the seeded RNG.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from wizprint.errors import EngineError, IllegalActionError, WizprintError

from .core import State
from .games import get


class ScenarioError(WizprintError):
    """A scenario file that cannot run (bad file, illegal scripted move, unscripted choice in strict mode)."""


@dataclass
class ScenarioResult:
    file: str
    title: str
    ok: bool
    failures: list[str] = field(default_factory=list)
    state: State | None = None

    def report(self) -> str:
        head = f"{'ok' if self.ok else 'FAIL'}: {self.file}: {self.title}"
        return "\n".join([head] + [f"  {f}" for f in self.failures])


def _line_of_step(text: str, n: int) -> int:
    count = 0
    for i, ln in enumerate(text.splitlines(), 1):
        if ln.strip().startswith("[[step]]"):
            count += 1
            if count == n:
                return i
    return 0


def _compare(state: State, expected: Mapping[str, Any], where: str) -> list[str]:
    probe = state.probe()
    out = []
    for key, want in expected.items():
        if key not in probe:
            out.append(f"{where}: unknown probe '{key}' (known: {', '.join(sorted(probe))})")
            continue
        got = probe[key]
        if isinstance(want, list) and isinstance(got, (list, tuple)):
            same = list(got) == list(want)
        else:
            same = got == want
        if not same:
            out.append(f"{where}: {key}: expected {want!r}, got {got!r}")
    return out


def run_scenario(path: Path) -> ScenarioResult:
    try:
        text = path.read_text(encoding="utf-8")
        data = tomllib.loads(text)
    except OSError as exc:
        raise ScenarioError(f"{path}: cannot read: {exc.strerror or exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(f"{path}: malformed TOML: {exc}") from None
    shown = str(path)
    title = str(data.get("title", path.stem))
    try:
        spec = get(str(data["game"]))
    except KeyError:
        raise ScenarioError(f"{shown}: the file must name its 'game'") from None
    players = int(data.get("players", spec.min_players))
    strict = bool(data.get("strict", True))
    variant = str(data.get("variant", ""))
    try:
        state = spec.setup(data.get("setup", {}), players=players, seed=int(data.get("seed", 1)), variant=variant)
    except (EngineError, KeyError, ValueError, TypeError) as exc:
        raise ScenarioError(f"{shown}: [setup]: {exc}") from None
    state.dice.strict = strict
    failures: list[str] = []
    auto = spec.automaton() if not strict else None
    log_mark = len(state.log)
    for n, step in enumerate(data.get("step", []), start=1):
        where = f"{shown}:{_line_of_step(text, n)}: step {n}"
        try:
            if "said" in step:
                wanted = step["said"] if isinstance(step["said"], list) else [step["said"]]
                recent = [e.text for e in state.log[log_mark:]]
                for w in wanted:
                    if not any(str(w) in t for t in recent):
                        failures.append(f"{where}: the log does not say {w!r} (it says: {' | '.join(recent[-8:])})")
            log_mark = len(state.log)
            if "dice" in step:
                state.dice.script.extend(int(v) for v in step["dice"])
            if "do" in step:
                key = str(step["do"])
                seat = step.get("seat")
                legal_keys = {a.key for a in state.legal_actions()}
                while key not in legal_keys and auto is not None and not state.is_terminal() and (
                        seat is None or state.current_player != int(seat)):
                    state.apply(auto.choose(state, state.current_player))
                    legal_keys = {a.key for a in state.legal_actions()}
                if seat is not None and state.current_player != int(seat):
                    raise ScenarioError(
                        f"{where}: the script has seat {seat} play {key!r}, but seat {state.current_player} must "
                        f"choose now ({', '.join(sorted(legal_keys)[:10])})")
                if key not in legal_keys:
                    raise ScenarioError(f"{where}: {key!r} is not legal for seat {state.current_player} now "
                                        f"(legal: {', '.join(sorted(legal_keys)[:14])})")
                state.apply_key(key)
            if "expect" in step:
                failures.extend(_compare(state, step["expect"], where))
        except IllegalActionError as exc:
            raise ScenarioError(f"{where}: {exc}") from None
        except EngineError as exc:
            raise ScenarioError(f"{where}: {exc}") from None
    if strict and state.dice.script:
        failures.append(f"{shown}: {len(state.dice.script)} scripted dice were never rolled: {state.dice.script}")
    failures.extend(_compare(state, data.get("expect", {}), f"{shown}: final"))
    return ScenarioResult(shown, title, not failures, failures, state)
