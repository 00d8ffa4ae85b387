"""Wizards & Relics (``../shared/rules/wizards-and-relics.txt``): the game's rules engine, declared for the kernel.

- ``data.py``: the wizards, relics and shrines as the engine reads them, how a game ends;
- ``pending.py``: the pending work (set-up, round, reveal, an extra wizard entering play, effects, choices);
- ``state.py``: the state, how cards move, the battle's totals and advantage;
- ``phases.py``: the set-up and the five phases of a round; ``effects.py``: one handler per effect word and the
  choices; ``check.py``: the checks of a saved game;
- ``view.py``: what a seat sees (its observation's type), the screen (a header and the panels ``shrine``,
  ``status``, ``hand``, ``deck``, ``piles``), the questions and actions in words (the play asked in two steps: the
  wizard, then its relic);
- ``game.py``: the state with its deal, observation, words and checks, the class the engine declares;
- ``setup.py``: positions for scenario files; ``automaton.py``: the heuristic player.

The settings (players, step cap, search) are in ``cards/wizards-and-relics/game.toml``, ``[engine]``.
"""

from __future__ import annotations

from wizprint.solo.kernel import EngineCode, Shape

from .automaton import WizardsAndRelicsAutomaton, WizardsAndRelicsView
from .data import WizardsAndRelicsData, needs
from .effects import WORDS
from .game import WizardsAndRelicsGame
from .setup import SETUP_KEYS, setup
from .state import WizardsAndRelicsState
from .view import WizardsAndRelicsObservation, look, screen, view


def evaluate(s: WizardsAndRelicsState) -> list[float]:
    """A cut-short playout's returns: the share of the Hall each seat has filled, centred."""
    need = s.hall_to_win
    score = [len(h) / need for h in s.halls]
    mean = sum(score) / len(score)
    return [max(-1.0, min(1.0, 2 * (x - mean))) for x in score]


ENGINE: EngineCode[WizardsAndRelicsGame, WizardsAndRelicsData, WizardsAndRelicsObservation] = EngineCode(
    state=WizardsAndRelicsGame, data=WizardsAndRelicsData, new_state=WizardsAndRelicsGame.new, setup=setup,
    setup_keys=SETUP_KEYS, automaton=WizardsAndRelicsAutomaton,
    view=view, screen=screen, words=WizardsAndRelicsData.words, handled=lambda: set(WORDS.handlers), look=look,
    evaluate=evaluate, shape=Shape("wizards-and-relics", types=("wizard", "relic", "shrine"), needs=needs),
    doc=__doc__ or "",
)

__all__ = ["ENGINE", "WizardsAndRelicsAutomaton", "WizardsAndRelicsData", "WizardsAndRelicsGame",
           "WizardsAndRelicsObservation", "WizardsAndRelicsState", "WizardsAndRelicsView"]
