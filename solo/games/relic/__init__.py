"""Relic (``../shared/rules/relic.txt``): 2-4 heroes cross the Outer, Middle and Inner tiers of the Antian Sector,
battle Threat cards, gain levels and wargear, complete missions for relics and confront the scenario's foe at the
centre of the board; the first to fulfil the scenario's confrontation wins.

The engine reads the card database (``cards/relic``): every card, character sheet, scenario sheet and board space
says what it does in the words of ``vocabulary.toml``, and the engine interprets those words; no code here tests a
card's, space's, character's or scenario's name or id. The only board id the engine knows is fixed by the
rulebook itself: the space where vanquished players go (``VANQUISHED_SPACE``, St. Antias' Sanctuary). The Warp
Rift is the ``to`` of the ``enter_inner`` movement box; the scenario space is the space of the ``centre`` tier.
The project's rulings (docs/rulings/relic.md) settle what the rulebook leaves open.

A turn: Movement (roll one die, or play a Power card's number instead; choose a direction; movement boxes),
Exploration (draw Threat cards up to the icons), Engagement (Threat cards: events, battles, encounters, assets;
else the text box; the Inner tier's boxes; the scenario's confrontation), Experience (spend trophies for levels,
three completed missions for a relic, draw a Mission, discard down to the limits). Set-up: ``pick CH03`` (the
secret, simultaneous character choice); the variant is the scenario.

Which file holds what:

- ``data.py``: the card data compiled from the loaded game, how a game ends, what causes an effect in words;
  ``pending.py``: the typed pending kinds;
- ``state.py``: the state's fields, small queries, the stack of pending work (its code registered in ``RULES``) and
  the loop that runs it;
- ``turn.py``: the turn, Movement and Exploration; ``dice.py``: rolls and skill tests; ``battle.py``: the
  Engagement phase, Threat cards and battles; ``experience.py``: levels, relics, Mission and Corruption draws;
- ``heroes.py``: attributes, Life, vanquished, corrupted, eliminated, missions; ``plays.py``: Power cards,
  charges and uses in each window; ``effects.py``: one handler per effect word (``WORDS``); ``questions.py``:
  the questions effects ask;
- ``game.py``: the state with the secret choice of the characters, the legal actions and ``apply``, what a seat
  sees (``observation.py``: its declared type), the words and the checks of a loaded game: the class the engine
  declares;
- ``setup.py``: positions for scenario files (``SETUP_KEYS``); ``view.py``: the screen (header and panels);
  ``asking.py``: each question and option in words; ``look.py``: any card, space or sheet looked up;
  ``texts.py``: the words they share; ``seatview.py``, ``estimates.py``, ``automaton.py``: the heuristic player and
  what it may see.

The settings (players, scenarios, step cap, search) are in ``cards/relic/game.toml``, ``[engine]``.
"""

from __future__ import annotations

from wizprint.cards.model import Game
from wizprint.errors import EngineError
from wizprint.solo.kernel import EngineCode, Shape

from . import battle, dice, experience, questions, turn  # noqa: F401  (they register their handlers in RULES)
from .automaton import RelicAutomaton
from .data import DECK_OF, VANQUISHED_SPACE, RelicData, needs
from .effects import WORDS
from .game import RelicGame
from .look import look
from .observation import RelicObservation
from .pending import KINDS, Phase
from .seatview import RelicView
from .setup import SETUP_KEYS, setup
from .state import RULES, RelicState
from .view import screen, view


def compile_data(game: Game) -> RelicData:
    """The card data of a Relic game folder; every effect word it uses must have a handler."""
    data = RelicData(game)
    missing = WORDS.missing(data.words_used())
    if missing:
        raise EngineError(f"{game.id}: the Relic engine does not handle the effect word(s) {', '.join(missing)}")
    return data


def evaluate(state: RelicState) -> list[float]:
    """A quick estimate of the returns of an unfinished game, for truncated search playouts: each seat's progress
    (relics, the Inner tier, completed missions, levels, attributes) against the best rival."""
    score = [state.progress(s) for s in range(state.players)]
    out = []
    for s in range(state.players):
        best = max(score[t] for t in range(state.players) if t != s)
        d = (score[s] - best) / 8.0
        out.append(d / (1.0 + abs(d)))
    return out


ENGINE: EngineCode[RelicGame, RelicData, RelicObservation] = EngineCode(
    state=RelicGame, data=compile_data, new_state=RelicGame.new, setup=setup, setup_keys=SETUP_KEYS,
    automaton=RelicAutomaton, view=view, screen=screen, words=RelicData.words_used, handled=lambda: set(WORDS.handlers),
    look=look, evaluate=evaluate, shape=Shape("relic", types=tuple(DECK_OF), kinds=("character", "scenario", "space"),
                                              every_card=True, needs=needs),  # its types are its decks
    doc=__doc__ or "",
)

__all__ = ["ENGINE", "KINDS", "RULES", "VANQUISHED_SPACE", "Phase", "RelicAutomaton", "RelicData", "RelicGame",
           "RelicObservation", "RelicState", "RelicView", "evaluate"]
