"""What Relic's speed-ups rely on: a roll that asks nothing, made at once (``dice.roll_at_once``), is the roll a
``Dice`` on the stack makes; the automaton's estimates kept across decisions (by a seat's features, by the card
data) are the estimates worked out afresh; a battle's traits kept by its enemies are the traits read afresh; the
battles offered skip the evading abilities only when the seat has none."""

from __future__ import annotations

from typing import Any

import pytest

from wizprint.solo.agents import RandomAgent
from wizprint.solo.games.relic import RelicAutomaton, dice
from wizprint.solo.games.relic.data import ATTRS
from wizprint.solo.games.relic.pending import Battle, Threats, ThreatStep
from wizprint.solo.games.relic.plays import evadable
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
        assert t.log == s.log
        assert t.to_json() == s.to_json()


def test_automaton_estimates_kept_or_afresh() -> None:
    """The automaton chooses the same moves when every estimate it keeps with the card data (by a seat's features,
    compiled effect lists, landing spaces, distances, nearest spaces) is thrown away before each decision."""
    D = engine("relic").data

    def forget(state: State[Any]) -> None:
        for kept in (D.feature_memos, D.box_values, D.list_values, D.landings, D.nearest, D.space_lists,
                     D.distances, D.foe_traits):
            kept.clear()

    for seed in range(3):
        _, warm = _game(seed, 2 + seed % 3, "automaton")
        _, cold = _game(seed, 2 + seed % 3, "automaton", forget)
        assert cold == warm


@pytest.mark.parametrize("bot", ["random", "automaton"])
def test_battle_traits_kept_are_the_traits(bot: str) -> None:
    """``RelicState.traits`` keeps a battle's traits with the data by its enemies: at every decision, each battle
    on the stack has the traits of its enemies read afresh, in their order."""
    seen = 0

    def check(state: State[Any]) -> None:
        nonlocal seen
        C = state.data.cards
        for f in state.stack:  # type: ignore[attr-defined]
            if isinstance(f, Battle):
                assert state.traits(f) == tuple(C[x].trait for x in f.foes if C[x].trait)  # type: ignore[attr-defined]
                seen += 1

    for seed in range(6):
        _game(seed, 2 + seed % 3, bot, check)
    assert seen > 50  # battles were met, with enemies of several traits


def test_battles_offered_are_the_rules_battles() -> None:
    """The Threat cards' battle step offers one ``fight`` per attribute of the enemies not evaded, then ``evade X``
    for each enemy the seat's own abilities may evade (``evadable``), which is asked only when the seat has an
    evading ability at all: with none it offers nothing."""
    seen = 0

    def check(state: State[Any]) -> None:
        nonlocal seen
        top = state.stack[-1] if state.stack else None  # type: ignore[attr-defined]
        if not isinstance(top, Threats) or top.step != ThreatStep.BATTLES:
            return
        s: Any = state
        C = s.data.cards
        here = s.board.get(s.positions[top.seat], [])
        groups = sorted({C[x].attribute for x in here if C[x].category == "enemy" and x not in s.evaded})
        want = [Action("fight", ATTRS[a]) for a in groups]
        if want:
            want += [Action("evade", x) for x in evadable(s, top.seat, False)]
        if not s.kit(top.seat).evade:
            assert evadable(s, top.seat, False) == []
        assert s.legal_actions() == want
        seen += 1

    for seed in range(12):
        _game(seed, 2 + seed % 3, "random", check)
    assert seen > 5
