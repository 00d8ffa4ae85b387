"""Games declared in data: the ``[engine]`` table of a game's ``game.toml`` names its rules package and settings
(players, variants, step cap, search budget); the package declares, once, the code side (:class:`EngineCode`).
:func:`engine` binds the two to a loaded game folder, so an edited copy of a game plays as it prints.

Only packages under ``wizprint.solo.games`` can be named: a game folder chooses among the shipped engines, it never
brings code of its own.
"""

from __future__ import annotations

import importlib
import os
import pkgutil
import re
from collections.abc import Callable, Mapping
from contextlib import suppress
from dataclasses import dataclass, field
from functools import cache, cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from wizprint.errors import (
    DataErrors,
    EngineBug,
    EngineError,
    Issue,
    SaveError,
    StepCapError,
    UsageError,
    WizprintError,
    quote,
)

from .checks import reason
from .rng import Rng, derive
from .screen import Panel, Screen
from .shape import Shape, shape_problems
from .state import RECORDING, RulesData, State
from .values import Chance, Stats

if TYPE_CHECKING:
    from wizprint.cards.model import EngineDecl, Game

    from .agents import Agent

S = TypeVar("S", bound=State[Any])
D = TypeVar("D", bound=RulesData)
Obs = TypeVar("Obs", bound=Mapping[str, object])  # a game's observation (a TypedDict)

_MODULE = re.compile(r"^[a-z][a-z0-9_]{0,31}$")


@dataclass(frozen=True)
class EngineCode(Generic[S, D, Obs]):
    """What a game's package declares about its engine, once (its ``ENGINE``).

    - ``state``: the State class, whose ``observation(seat)`` is of the type ``Obs`` (what the view, the screen and
      ``look`` read); ``data``: compiles the loaded game into the engine's card data;
    - ``new_state(data, players, seed, variant)``: a new game, dealt;
    - ``setup(data, table, players, seed, variant, chance)``: a position from a scenario file's ``[setup]``,
      whose keys ``setup_keys`` lists with what each means;
    - ``automaton()``: the game's heuristic player; ``view(data, observation)``: the terminal's lines (rich
      markup, every data text escaped);
    - ``look(data, observation, query)``: what a player reads when they look a card, space, mission or character
      up by id or name at the prompt: its full printed text and its state now as the seat sees it (rich markup
      lines), or None when nothing is called that;
    - ``evaluate(state)``: the returns a cut-short search playout is scored by (optional);
    - ``screen(data, observation)``: the seat's :class:`Screen` at the terminal, its header and the panels a player
      asks for by name (optional: without it, the header is the observation's ``heading`` and ``view`` is the one
      panel, ``status``, shown whenever it changes);
    - ``words(data)``: every effect word the data uses, and ``handled``: the words the engine has a handler for;
    - ``shape``: what the engine reads of a game folder (:class:`~.shape.Shape`), checked before it runs on one.
    """

    state: type[S]
    data: Callable[[Game], D]
    new_state: Callable[[D, int, int, str], S]
    setup: Callable[[D, Mapping[str, Any], int, int, str, Chance], S]
    setup_keys: Mapping[str, str]
    automaton: Callable[[], Agent]
    view: Callable[[D, Obs], list[str]]
    words: Callable[[D], set[str]]
    handled: Callable[[], set[str]]
    look: Callable[[D, Obs, str], list[str] | None]
    evaluate: Callable[[S], list[float]] | None = None
    screen: Callable[[D, Obs], Screen] | None = None
    shape: Shape | None = None
    doc: str = ""


@dataclass
class Engine:
    """A game's engine bound to its loaded data (see :func:`engine`)."""

    game: Game
    decl: EngineDecl
    code: EngineCode[Any, Any, Any]
    _data: Any = field(default=None, repr=False)

    @property
    def id(self) -> str:
        return self.game.id

    @property
    def name(self) -> str:
        return self.game.name

    @property
    def min_players(self) -> int:
        return self.decl.players_min or self.game.decl.players_min

    @property
    def max_players(self) -> int:
        return self.decl.players_max or self.game.decl.players_max

    @cached_property
    def variants(self) -> tuple[str, ...]:
        if self.decl.variant_kind:
            return tuple(sorted(r.id for r in self.game.of_kind(self.decl.variant_kind)))
        return self.decl.variants

    @property
    def data(self) -> Any:
        """The compiled card data (made once). A folder the compiler finds wanting (a board without its scenario
        space...) is an error naming the folder."""
        if self._data is None:
            try:
                self._data = self.code.data(self.game)
            except EngineError as exc:
                raise _cannot_play(self.game, self.decl.module, [str(exc)]) from None
        return self._data

    def check_players(self, players: int) -> None:
        if not self.min_players <= players <= self.max_players:
            raise UsageError(f"{self.name} is for {self._range()} players, not {players}")

    def _range(self) -> str:
        lo, hi = self.min_players, self.max_players
        return f"{lo}" if lo == hi else f"{lo}-{hi}"

    def check_variant(self, variant: str) -> None:
        if variant and variant not in self.variants:
            raise UsageError(f"{self.name} has no variant {variant!r} (variants: {', '.join(self.variants) or 'none'})")

    def new_state(self, players: int | None = None, seed: int = 0, variant: str = "", stats: Stats | None = None
                  ) -> State[Any]:
        """A new game, dealt from ``seed``; with ``stats``, the game records into them from its set-up on (the
        opening hands count as drawn)."""
        n = self.min_players if players is None else players
        self.check_players(n)
        self.check_variant(variant)
        token = RECORDING.set(stats)
        try:
            s: State[Any] = self.code.new_state(self.data, n, seed, variant)
        finally:
            RECORDING.reset(token)
        s.step_cap = self.decl.step_cap
        return s

    def from_json(self, data: Mapping[str, Any]) -> State[Any]:
        """A saved state, checked against the declaration and the rules' invariants, then tried: a few moves are
        played on copies of it (:meth:`check_playable`). Raises :class:`SaveError` naming each problem."""
        s: State[Any] = self.code.state.from_json(data, self.data, self.decl.step_cap)
        if not self.min_players <= s.players <= self.max_players:
            raise SaveError([f"state.players: the saved game has {s.players} players; {self.name} is for "
                             f"{self._range()}"])
        if s.variant and s.variant not in self.variants:
            raise SaveError([f"state.variant: {self.name} has no variant {quote(s.variant, 40)}"])
        self.check_playable(s)
        return s

    def check_playable(self, state: State[Any]) -> None:
        """Play a few moves on copies of a loaded state (every first move, random and automaton playouts, a search
        bot's sample, the views): a position that the rules' invariants let through but that cannot be played on is
        refused now, with :class:`SaveError`, rather than failing later in the game. The state is not changed."""
        try:
            _trial(self, state)
        except StepCapError:
            pass  # a game at its step cap ends as an error when it is played: that is not a broken save
        except Exception as exc:
            raise SaveError([f"state: the saved position cannot be played on ({reason(exc)})"]) from None

    def setup(self, table: Mapping[str, Any], players: int, seed: int, variant: str, chance: Chance) -> State[Any]:
        """A position from a scenario file's ``[setup]`` table."""
        self.check_players(players)
        self.check_variant(variant)
        s: State[Any] = self.code.setup(self.data, table, players, seed, variant, chance)
        s.step_cap = self.decl.step_cap
        return s

    def automaton(self) -> Agent:
        return self.code.automaton()

    def view(self, observation: Mapping[str, object]) -> list[str]:
        return self.code.view(self.data, observation)

    def screen(self, observation: Mapping[str, object]) -> Screen:
        """The seat's screen: its header and panels (see :class:`Screen`)."""
        if self.code.screen is not None:
            s: Screen = self.code.screen(self.data, observation)
            return s
        lines = tuple(self.view(observation))
        return Screen(str(observation.get("heading") or self.name),
                      (Panel("status", "the whole table as you see it", lines, key="\n".join(lines)),))

    def look(self, observation: Mapping[str, object], query: str) -> list[str] | None:
        """A card (space, mission, character...) looked up by id or name, as the observing seat may see it."""
        return self.code.look(self.data, observation, query)

    @property
    def evaluate(self) -> Callable[[State[Any]], list[float]] | None:
        return self.code.evaluate

    def unhandled_words(self) -> list[str]:
        """Effect words the game's data uses that the engine has no handler for."""
        return sorted(self.code.words(self.data) - self.code.handled())


TRIAL_FIRST = 40  # first moves tried, each followed by a few random moves
TRIAL_AFTER = 6
TRIAL_PLAYOUT = 40  # moves of each whole-table playout (one random, one by the automaton, one on a bot's sample)


def _trial(eng: Engine, state: State[Any]) -> None:
    """Play on copies of ``state`` (raises whatever the rules raise)."""
    if state.is_terminal():
        if state.legal_actions():
            raise EngineBug("the game is over, yet moves are offered")
        return
    base = state.clone()
    base.chance = Chance()  # a save's scripted chance is tried as the generator's
    n = base.players
    rng = Rng(derive("trial", state.steps, state.rng.state))

    def step(s: State[Any], agent: Agent | None) -> bool:
        """One move; False once the game is over."""
        if s.is_terminal():
            return False
        p = s.current_player
        if not 0 <= p < n:
            raise EngineBug(f"seat {p} is to decide")
        legal = s.legal_actions()
        if not legal:
            raise EngineBug(f"seat {p} is to decide but has no legal move")
        s.apply(legal[rng.below(len(legal))] if agent is None or len(legal) == 1 else agent.choose(s, p))
        return True

    for seat in range(n):
        eng.view(base.observation(seat))
        eng.screen(base.observation(seat))
    first = base.legal_actions()
    if not 0 <= base.current_player < n or not first:
        step(base.clone(), None)  # raises the reason
    if first:
        base.two_step(first)
    for a in first[:TRIAL_FIRST]:
        base.describe(a)
        c = base.clone()
        c.apply(a)
        for _ in range(TRIAL_AFTER):
            if not step(c, None):
                break
    auto = eng.automaton()
    seeder = getattr(auto, "seed", None)
    if callable(seeder):
        seeder(rng.next64())
    for c, agent in ((base.clone(), None), (base.clone(), auto),
                     (base.determinize(base.current_player, Rng(rng.next64())), None)):
        for _ in range(TRIAL_PLAYOUT):
            if not step(c, agent):
                break


def engine_modules() -> list[str]:
    """The engine packages wizprint ships (the only ones a game.toml may name)."""
    from wizprint.solo import games

    return sorted(m.name for m in pkgutil.iter_modules(games.__path__) if m.ispkg)


def _cannot_play(game: Game, module: str, problems: list[str], plays: str = "") -> DataErrors:
    """One error naming the folder's game.toml (at its ``module`` line) and what the engine finds wanting in it."""
    from wizprint.cards.loader import display_path

    path = game.root / "game.toml"
    line = 0
    with suppress(OSError, UnicodeDecodeError):
        text = path.read_text(encoding="utf-8")
        m = re.search(r"(?m)^[ \t]*module[ \t]*=", text)
        line = text.count("\n", 0, m.start()) + 1 if m else 0
    shown = "; ".join(problems[:SHOWN_PROBLEMS]) + (
        f" (and {len(problems) - SHOWN_PROBLEMS} more)" if len(problems) > SHOWN_PROBLEMS else "")
    who = f"[engine] module {module!r}" + (f" plays {plays} and" if plays else "")
    return DataErrors([Issue(display_path(path), line, "", f"{who} cannot play this folder: {shown}")])


SHOWN_PROBLEMS = 3  # problems of a folder named in its one line


@cache
def _reference(game_id: str) -> Game:
    """A shipped game, loaded once: the shape its engine reads."""
    from wizprint.cards.loader import load_game

    return load_game(game_id)


def check_shape(game: Game, code: EngineCode[Any, Any, Any], decl: EngineDecl) -> None:
    """Raise :class:`DataErrors` (one line naming the folder's game.toml) when ``game`` lacks what the engine reads
    (:mod:`.shape`); the shipped game an engine was made for is its own reference."""
    from wizprint.resources import cards_dir

    shape = code.shape
    if shape is None:
        return
    own = (cards_dir() / shape.game).resolve()
    ref = game if game.root.resolve() == own else _reference(shape.game)
    players = (decl.players_min or game.decl.players_min, decl.players_max or game.decl.players_max)
    problems = shape_problems(game, shape, ref, code.handled(), players)
    if problems:
        raise _cannot_play(game, decl.module, problems, ref.name)


def _code(module: str, where: str) -> EngineCode[Any, Any, Any]:
    if not _MODULE.match(module) or module not in engine_modules():
        raise WizprintError(f"{where}: [engine] module {module!r} is not an engine of wizprint "
                            f"(engines: {', '.join(engine_modules())})")
    mod = importlib.import_module(f"wizprint.solo.games.{module}")
    code = getattr(mod, "ENGINE", None)
    if not isinstance(code, EngineCode):
        raise EngineBug(f"wizprint.solo.games.{module} declares no ENGINE")
    return code


_CACHE: dict[str, Engine] = {}  # by the reference given, and by the folder's resolved path


def _given(ref: str | Path) -> str:
    """The cache's key for a reference: one other than an absolute path depends on the current folder (a relative
    path; an id, which a folder of that name holding a game.toml stands for), so it is kept for that folder only
    (an empty key, never kept, when the current folder is gone)."""
    if Path(ref).is_absolute():
        return str(ref)
    try:
        return f"{os.getcwd()}\0{ref}"
    except OSError:
        return ""


def engine(ref: str | Path | Game) -> Engine:
    """The engine of a game: a game id, a game folder (as for ``build``) or a loaded game. Loaded once per
    folder and process."""
    from wizprint.cards.loader import display_path, load_game, resolve_game_dir
    from wizprint.cards.model import Game

    if not isinstance(ref, Game):
        given = _given(ref)
        hit = _CACHE.get(given)
        if hit is not None:
            return hit
        root = str(resolve_game_dir(str(ref)).resolve())
        hit = _CACHE.get(root)
        if hit is None:
            hit = engine(load_game(root))
            if len(_CACHE) > 64:
                _CACHE.clear()
            _CACHE[root] = hit
        if given:
            _CACHE[given] = hit
        return hit
    game = ref
    if game.decl.engine is None:
        raise UsageError(f"{game.name} has no rules engine (no [engine] table in its game.toml)")
    code = _code(game.decl.engine.module, display_path(game.root / "game.toml"))
    check_shape(game, code, game.decl.engine)
    return Engine(game, game.decl.engine, code)


def engine_games() -> list[str]:
    """The shipped games that declare an engine (what the conformance tests run)."""
    return list(_shipped_engines())


@cache  # the shipped games are the installation's own: loading all five to ask is done once per process
def _shipped_engines() -> tuple[str, ...]:
    from wizprint.cards.loader import load_game
    from wizprint.resources import game_ids

    return tuple(g for g in game_ids() if load_game(g).decl.engine is not None)
