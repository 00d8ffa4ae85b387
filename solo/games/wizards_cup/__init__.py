"""Wizards Cup (``../shared/rules/wizards-cup.txt``): the game's rules engine, declared for the kernel.

- ``data.py``: the two sets of wizards as the engine reads them, the Element diagram, how a game ends;
- ``pending.py``: the pending work; ``state.py``: the state, the Magic powers in play and the adjusted Values;
- ``phases.py``: the selection, the planning, the duels, the end of a round and the swap, the Immediate powers;
- ``view.py``: what a seat sees (its observation's type), the screen (header and panels), questions and actions in
  words; ``check.py``: the checks of a saved game; ``saved.py``: older saves mended;
- ``game.py``: the state with its observation, words and checks, the class the engine declares;
- ``setup.py``: positions for scenario files; ``automaton.py``: the heuristic player.

The settings (step cap, search) are in ``cards/wizards-cup/game.toml``, ``[engine]``.
"""

from __future__ import annotations

from wizprint.solo.kernel import EngineCode, Shape

from .automaton import WizardsCupAutomaton, WizardsCupView
from .data import WizardsCupData, needs
from .game import WizardsCupGame
from .phases import handled
from .setup import SETUP_KEYS, setup
from .state import WizardsCupState
from .view import WizardsCupObservation, look, screen, view


def evaluate(s: WizardsCupState) -> list[float]:
    """A cut-short playout's returns: the Victory tokens, centred."""
    d = s.tokens[0] - s.tokens[1]
    return [0.5 * d, -0.5 * d]


ENGINE: EngineCode[WizardsCupGame, WizardsCupData, WizardsCupObservation] = EngineCode(
    state=WizardsCupGame, data=WizardsCupData, new_state=WizardsCupGame.new, setup=setup, setup_keys=SETUP_KEYS,
    automaton=WizardsCupAutomaton,
    view=view, words=WizardsCupData.words, handled=handled, look=look, evaluate=evaluate, screen=screen,
    shape=Shape("wizards-cup", types=("wizard",), needs=needs), doc=__doc__ or "",
)

__all__ = ["ENGINE", "WizardsCupAutomaton", "WizardsCupData", "WizardsCupGame", "WizardsCupObservation",
           "WizardsCupState", "WizardsCupView"]
