"""Covenant of Wizards (``../shared/rules/covenant.txt``): 2-4 players build covenants of wizards from one shared
deck; the first to 25 victory points wins. The project's rulings (docs/rulings/covenant.md) settle what the
rulebook leaves open.

- ``data.py``: the cards as the engine reads them, one compiling handler per effect word (``TRAITS``);
- ``state.py``: the state's fields, the small queries, card movement, the turn sequence, what a seat sees;
- ``phases.py``: what the turn player may do in each phase; ``pending.py``: the typed pending work;
- ``windows.py``: response windows, plays, rolls, slayings, thefts, bonus spells, wizard actions, choices;
- ``duel.py``: the Wizards Duel; ``quest.py``: quests; ``effects.py``: one handler per effect word (``EFFECTS``);
- ``setup.py``: positions for scenario files; ``view.py``: the question of each decision and each action in words
  (a long decision in two steps); ``screen.py``: the play screen (its header and panels, ``look`` of a player);
  ``texts.py``: card texts in words and ``look`` (a card by id or name, and where it is);
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
from .pending import KINDS, RULES
from .phases import Phase
from .screen import look, screen, view
from .setup import SETUP_KEYS, setup
from .state import CovenantState, Sighting


def handled() -> set[str]:
    """The effect words the engine handles: each compiles (``TRAITS``), and each that a card resolves has its
    handler in ``EFFECTS``."""
    return {w for w in TRAITS.handlers if w not in RESOLVED_WORDS or w in EFFECTS.handlers}


ENGINE: EngineCode[CovenantState, CovenantData] = EngineCode(
    state=CovenantState, data=CovenantData, new_state=CovenantState.new, setup=setup, setup_keys=SETUP_KEYS,
    automaton=CovenantAutomaton, view=view, words=CovenantData.words, handled=handled, look=look, evaluate=evaluate,
    screen=screen, shape=Shape("covenant", types=("wizard", "spell", "follower", "quest", "event", "item", "duel",
                                                  "resource"), every_card=True),
    doc=__doc__ or "",
)

__all__ = ["ENGINE", "FEATURES", "KINDS", "ROUND_LIMIT", "RULES", "SETUP_KEYS", "WEIGHTS", "CovenantAutomaton",
           "CovenantData", "CovenantState", "CovenantView", "Info", "Phase", "Sighting", "compile_card",
           "eval_features", "evaluate", "handled", "win_chances"]
