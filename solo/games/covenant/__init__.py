"""Covenant of Wizards (``../shared/rules/covenant.txt``): 2-4 players build covenants of wizards from one shared
deck; the first to 25 victory points wins. The project's rulings (docs/rulings/covenant.md) settle what the
rulebook leaves open.

- ``data.py``: the cards as the engine reads them, one compiling handler per effect word (``TRAITS``), how a game
  ends;
- ``pending.py``: the typed pending work; ``state.py``: the state's fields, the small queries, card movement, the
  turn sequence (its phases and their summons), the registry of the pending work's code (``RULES``);
- ``phases.py``: what the turn player may do in each phase;
- ``windows.py``: response windows, plays, rolls, slayings, thefts, bonus spells, wizard actions, choices;
- ``duel.py``: the Wizards Duel; ``quest.py``: quests; ``effects.py``: one handler per effect word (``EFFECTS``);
- ``view.py``: the question of each decision and each action in words (a long decision in two steps);
  ``observation.py``: what a seat sees (its observation's type); ``screen.py``: the play screen (its header and
  panels, ``look`` of a player); ``texts.py``: card texts in words and ``look`` (a card by id or name, and where it
  is); ``check.py``: the checks of a saved game;
- ``game.py``: the state with the loop of its pending work, its observation, words and checks, the class the
  engine declares; ``setup.py``: positions for scenario files;
- ``automaton.py``: the heuristic player, deciding from what its seat may see; ``evaluate.py``: the fitted
  evaluation that scores the search bot's shortened playouts.

The settings (players, step cap, search) are in ``cards/covenant/game.toml``, ``[engine]``.
"""

from __future__ import annotations

from wizprint.solo.kernel import EngineCode, Shape

from . import duel, quest, windows  # noqa: F401  (the pending kinds' handlers register themselves in RULES)
from .automaton import CovenantAutomaton, CovenantView
from .data import RESOLVED_WORDS, ROUND_LIMIT, TRAITS, CovenantData, Info, compile_card
from .effects import EFFECTS
from .evaluate import FEATURES, WEIGHTS, eval_features, evaluate, win_chances
from .game import CovenantGame
from .observation import CovenantObservation
from .pending import KINDS
from .screen import look, screen, view
from .setup import SETUP_KEYS, setup
from .state import RULES, CovenantState, Phase, Sighting


def handled() -> set[str]:
    """The effect words the engine handles: each compiles (``TRAITS``), and each that a card resolves has its
    handler in ``EFFECTS``."""
    return {w for w in TRAITS.handlers if w not in RESOLVED_WORDS or w in EFFECTS.handlers}


ENGINE: EngineCode[CovenantGame, CovenantData, CovenantObservation] = EngineCode(
    state=CovenantGame, data=CovenantData, new_state=CovenantGame.new, setup=setup, setup_keys=SETUP_KEYS,
    automaton=CovenantAutomaton, view=view, words=CovenantData.words, handled=handled, look=look, evaluate=evaluate,
    screen=screen, shape=Shape("covenant", types=("wizard", "spell", "follower", "quest", "event", "item", "duel",
                                                  "resource"), every_card=True),
    doc=__doc__ or "",
)

__all__ = ["ENGINE", "FEATURES", "KINDS", "ROUND_LIMIT", "RULES", "SETUP_KEYS", "WEIGHTS", "CovenantAutomaton",
           "CovenantData", "CovenantGame", "CovenantObservation", "CovenantState", "CovenantView", "Info", "Phase",
           "Sighting", "compile_card",
           "eval_features", "evaluate", "handled", "win_chances"]
