"""What Relic's speed-ups rely on: a roll that asks nothing, made at once (``dice.roll_at_once``), is the roll a
``Dice`` on the stack makes; the automaton's estimates kept across decisions (by a seat's features, by the card
data) are the estimates worked out afresh."""

from __future__ import annotations

from typing import Any

import pytest

from wizprint.solo.agents import RandomAgent
from wizprint.solo.games.relic import RelicAutomaton, dice
from wizprint.solo.kernel import Action, State, engine
from wizprint.solo.kernel.rng import derive


def _game(seed: int, players: int, bot: str, before: Any = None) -> tuple[State[Any], list[str]]:
    """A game to its end, and the moves chosen (``before(state)`` is called before every choice)."""
    eng = engine("relic")
    s = eng.new_state(players, seed)
    agents: list[Any] = []
    for i in range(players):
        if bot == "random":
            agents.append(RandomAgent(seed * 10 + i))
        else:
            a = RelicAutomaton()
            a.seed(derive(seed, "agent", i))
            agents.append(a)
    moves: list[str] = []
    while not s.is_terminal():
        legal = s.legal_actions()
        if before is not None:
            before(s)
        a: Action = legal[0] if len(legal) == 1 else agents[s.current_player].choose(s, s.current_player)
        moves.append(a.key)
        s.apply(a)
    return s, moves


@pytest.mark.parametrize("bot", ["random", "automaton"])
def test_rolls_made_at_once_are_the_dice_rolls(bot: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same games, move for move and line for line, when every roll goes through a ``Dice`` on the stack."""
    fast = [_game(seed, 2 + seed % 3, bot) for seed in range(4)]
    monkeypatch.setattr(dice, "can_roll_at_once", lambda *args: False)  # every roll asks (``roll_for``, tests)
    for seed, (s, moves) in enumerate(fast):
        t, again = _game(seed, 2 + seed % 3, bot)
        assert again == moves
        assert [(e.text, e.seats) for e in t.log] == [(e.text, e.seats) for e in s.log]
        assert t.to_json() == s.to_json()


def test_automaton_estimates_kept_or_afresh() -> None:
    """The automaton chooses the same moves when every estimate it keeps with the card data (by a seat's features,
    compiled effect lists, landing spaces, distances, nearest spaces) is thrown away before each decision."""
    D = engine("relic").data

    def forget(state: State[Any]) -> None:
        for kept in (D.feature_memos, D.box_values, D.list_values, D.landings, D.nearest, D.space_lists,
                     D.distances):
            kept.clear()

    for seed in range(3):
        _, warm = _game(seed, 2 + seed % 3, "automaton")
        _, cold = _game(seed, 2 + seed % 3, "automaton", forget)
        assert cold == warm
