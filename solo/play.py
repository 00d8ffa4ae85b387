"""``wizprint solo play``: one person against automata in the terminal.

The view shows only what the human's seat may see (its observation), the numbered legal actions with card names
and ids, and what the other seats just did. Commands at the prompt: a number, ``help``, ``log``, ``save
[FILE]``, ``quit``. End of input or Ctrl-C saves the game to a JSON file that ``--load`` resumes.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from rich.console import Console
from rich.markup import escape

from wizprint.atomic import write_atomic
from wizprint.errors import WizprintError

from .agents import Agent, make_agent
from .kernel import Engine, State, engine
from .kernel.rng import derive

SAVE_FORMAT = "wizprint-solo-save/1"


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

    @property
    def game(self) -> str:
        return self.engine.id

    def to_json(self) -> dict[str, Any]:
        return {"format": SAVE_FORMAT, "game": self.game, "human": self.human, "bots": self.bots, "seed": self.seed,
                "shown": self.shown, "state": self.state.to_json()}

    @classmethod
    def from_json(cls, eng: Engine, data: Any) -> Session:
        """A saved session of ``eng``'s game (checked: a save is untrusted input)."""
        if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
            raise WizprintError("not a wizprint saved game (unknown format)")
        if data.get("game") != eng.id:
            raise WizprintError(f"this is a saved game of {str(data.get('game'))[:40]!r}, not {eng.id}")
        state = eng.from_json(data.get("state"))  # type: ignore[arg-type]
        human, bots, seed, shown = data.get("human"), data.get("bots"), data.get("seed"), data.get("shown", 0)
        if not isinstance(human, int) or isinstance(human, bool) or not 0 <= human < state.players:
            raise WizprintError("the saved game names no seat of the game for the human")
        if not isinstance(bots, list) or len(bots) != state.players or not all(isinstance(b, str) for b in bots):
            raise WizprintError("the saved game does not name a bot for each seat")
        if not isinstance(seed, int) or isinstance(seed, bool) or not isinstance(shown, int):
            raise WizprintError("the saved game's seed is not a whole number")
        for b in bots:
            if b:
                make_agent(b, eng)
        s = cls(eng, state, human, list(bots), seed)
        s.shown = max(0, shown)
        return s


def new_session(game: str | Engine, players: int, bot: str, seed: int, seat: int, variant: str) -> Session:
    eng = game if isinstance(game, Engine) else engine(game)
    eng.check_players(players)
    if not 0 <= seat < players:
        raise WizprintError(f"--seat must be between 0 and {players - 1}")
    eng.check_variant(variant)
    state = eng.new_state(players, seed, variant)
    bots = ["" if i == seat else bot for i in range(players)]
    return Session(eng, state, seat, bots, seed)


def _agents(s: Session) -> list[Agent | None]:
    return [None if not b else make_agent(b, s.engine, derive(s.seed, "bot", i)) for i, b in enumerate(s.bots)]


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


def _print_new_log(s: Session, term: Terminal) -> None:
    lines = [e.text for e in s.state.log if e.seats is None or s.human in e.seats]
    for ln in lines[s.shown:]:
        term.console.print(f"  [dim]>[/dim] {escape(ln)}", highlight=False)
    s.shown = len(lines)


def _append_log(s: Session) -> None:
    if s.log_path is None:
        return
    lines = [e.text for e in s.state.log if e.seats is None or s.human in e.seats]
    try:
        s.log_path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    except OSError as exc:
        raise WizprintError(f"cannot write the game log {s.log_path}: {exc.strerror or exc}") from None


def save(s: Session, path: Path) -> Path:
    return write_atomic(path, json.dumps(s.to_json(), indent=1) + "\n")


HELP = ("Type the number of an action. Other commands: 'help' this text, 'log' the whole game log so far, "
        "'save [FILE]' save the game, 'quit' save and stop. Ctrl-D or Ctrl-C also save and stop.")


def run(s: Session, inp: TextIO | None = None, out: TextIO | None = None, width: int | None = None) -> int:
    """Play until the end (exit 0) or until the human stops (the game is saved; exit 0)."""
    console = Console(file=out or sys.stdout, width=width, highlight=False, soft_wrap=True)
    term = Terminal(inp or sys.stdin, console)
    eng = s.engine
    s.agents = _agents(s)
    save_path = s.save_path or Path(f"wizprint-{s.game}-seed{s.seed}.save.json")
    console.print(f"[bold]{eng.name}[/bold] - you are P{s.human + 1} (seat {s.human}); "
                  f"bots: {', '.join(f'P{i + 1} {b}' for i, b in enumerate(s.bots) if b)}. Type 'help' for help.")
    while not s.state.is_terminal():
        seat = s.state.current_player
        if seat != s.human:
            agent = s.agents[seat]
            assert agent is not None
            legal = s.state.legal_actions()
            s.state.apply(legal[0] if len(legal) == 1 else agent.choose(s.state, seat))
            continue
        legal = s.state.legal_actions()
        if len(legal) == 1 and legal[0].kind in ("pass",):
            s.state.apply(legal[0])
            continue
        _print_new_log(s, term)
        _append_log(s)
        obs = s.state.observation(s.human)
        console.rule(f"turn {obs.get('turn', '')}")
        for line in eng.view(obs):
            console.print(line, highlight=False)
        for i, a in enumerate(legal, 1):
            console.print(f"  [bold cyan]{i:>2}[/bold cyan]  {escape(s.state.describe(a))}", highlight=False)
        while True:
            answer = term.ask("your choice> ")
            if answer is None:
                path = save(s, save_path)
                console.print(f"\nSaved to {path}; resume with: wizprint solo play {s.game} --load {path}")
                return 0
            word, _, rest = answer.partition(" ")
            if word == "help":
                console.print(HELP)
                continue
            if word == "log":
                for ln in s.state.visible_log(s.human, last=10_000):
                    console.print(f"  {escape(ln)}", highlight=False)
                continue
            if word in ("save", "quit"):
                path = save(s, Path(rest) if rest else save_path)
                console.print(f"Saved to {path}; resume with: wizprint solo play {s.game} --load {path}")
                if word == "quit":
                    return 0
                continue
            try:
                k = int(answer)
            except ValueError:
                console.print(f"'{answer}' is not a choice: type a number from 1 to {len(legal)}, or 'help'.")
                continue
            if not 1 <= k <= len(legal):
                console.print(f"There is no choice {k}: type a number from 1 to {len(legal)}.")
                continue
            s.state.apply(legal[k - 1])
            break
    _print_new_log(s, term)
    _append_log(s)
    o = s.state.outcome()
    if o is not None:
        mine = "You win" if o.winners == (s.human,) else (
            "A shared result" if s.human in o.winners else "You lose")
        console.print(f"[bold]Game over.[/bold] {o.reason}. {mine}.")
    return 0
