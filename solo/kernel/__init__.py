"""The engine kernel: what every game's rules engine is built on.

- :mod:`.fields`: state declared once (clone and JSON derived from the dataclass fields);
- :mod:`.state`: the OpenSpiel-like :class:`State` API, zones, dice and random choices, ``determinize``;
- :mod:`.pending`: typed pending work and the registries of handlers (:class:`Rules`, :class:`Words`);
- :mod:`.stack`: :class:`StackGame`, the loop of a game driven by its stack of pending work;
- :mod:`.agents`: the :class:`Agent` protocol, :class:`SeatView` and :class:`Automaton`;
- :mod:`.checks`: the checks of a loaded (untrusted) state;
- :mod:`.engine`: games declared in data (``[engine]``), bound to a loaded game folder; :mod:`.shape`: what an
  engine reads of a folder, checked before it runs on one;
- :mod:`.commit`: simultaneous secret choices; :mod:`.rng`: the seeded generator.

Imports only go down: games import the kernel and ``wizprint.cards``; the kernel imports no game.
"""

from wizprint.errors import SaveError

from .agents import Agent, Automaton, SeatView
from .checks import Checks
from .commit import Commitments
from .engine import Engine, EngineCode, engine, engine_games
from .fields import Declared, added, declare, shared, transient, value
from .pending import Pending, Rules, Words
from .rng import Rng, derive
from .shape import Shape
from .stack import StackGame
from .state import RulesData, State, zone, zone_map
from .values import (
    Action,
    Chance,
    LogEntry,
    LogLine,
    Outcome,
    Stats,
    Termination,
    design_of,
    line_seats,
    line_text,
    one_per_design,
    readable,
)

__all__ = ["Action", "Agent", "Automaton", "Chance", "Checks", "Commitments", "Declared", "Engine", "EngineCode",
           "LogEntry", "LogLine", "Outcome", "Pending", "Rng", "Rules", "RulesData", "SaveError", "SeatView", "Shape",
           "StackGame", "State", "Stats", "Termination", "Words", "added", "declare", "derive", "design_of", "engine",
           "engine_games", "line_seats", "line_text", "one_per_design", "readable", "shared", "transient", "value",
           "zone", "zone_map"]
