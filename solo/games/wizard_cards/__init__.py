"""Wizard Cards (``../shared/rules/wizard-cards.txt``): the game's rules engine, declared for the kernel.

- ``data.py``: the spell deck as the engine reads it, and how a game ends; ``state.py``: the state, the turn and every
  rule;
- ``view.py``: what a seat sees (its observation's type), the play screen (header and panels), the questions and
  actions in words, ``look``; ``game.py``: the state with its observation and words, the class the engine declares;
- ``setup.py``: positions for scenario files;
- ``automaton.py``: the heuristic player, deciding from what its seat may see.

The settings (players, variants, step cap, search) are in ``cards/wizard-cards/game.toml``, ``[engine]``.
"""

from __future__ import annotations

from wizprint.solo.kernel import EngineCode, Shape

from .automaton import WizardCardsAutomaton, WizardCardsView
from .data import WORDS, WizardCardsData, needs
from .game import WizardCardsGame
from .setup import SETUP_KEYS, setup
from .state import Phase, WizardCardsState
from .view import WizardCardsObservation, look, screen, view

ENGINE: EngineCode[WizardCardsGame, WizardCardsData, WizardCardsObservation] = EngineCode(
    state=WizardCardsGame, data=WizardCardsData, new_state=WizardCardsGame.new, setup=setup,
    setup_keys=SETUP_KEYS, automaton=WizardCardsAutomaton, view=view, words=WizardCardsData.words,
    handled=lambda: set(WORDS), look=look, screen=screen,
    shape=Shape("wizard-cards", types=("component", "wild"), needs=needs), doc=__doc__ or "",
)

__all__ = ["ENGINE", "Phase", "WizardCardsAutomaton", "WizardCardsData", "WizardCardsGame", "WizardCardsObservation",
           "WizardCardsState", "WizardCardsView"]
