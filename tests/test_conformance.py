"""Conformance tests every rules engine passes (after OpenSpiel's random-simulation test): seeded random and
automaton playouts never raise and never hit the step cap; every card is always in exactly one zone; clone and
JSON round trip give equal states; an observation never shows another seat's hidden cards; the ISMCTS bot's
choice does not change when hidden cards it cannot see are swapped; illegal actions raise and change nothing."""

from __future__ import annotations

import json
import math
from collections import Counter

import pytest

from wizprint.errors import IllegalActionError, StepCapError
from wizprint.solo.agents import RandomAgent, make_agent
from wizprint.solo.agents.mcts import MctsAgent
from wizprint.solo.core import Action, State
from wizprint.solo.games import get
from wizprint.solo.rng import Rng, derive

CASES = [("wizard-cards", 2, ""), ("wizard-cards", 2, "hectic"), ("wizard-cards", 2, "constructed"),
         ("covenant", 2, ""), ("covenant", 3, ""), ("covenant", 4, ""),
         ("relic", 2, ""), ("relic", 3, ""), ("relic", 4, "")]
ONE_PER_GAME = [CASES[0], CASES[3], CASES[6]]
# per game: seeds and check intervals of the round-trip and observation tests (Relic games are long: few seeds, and
# a check every so many steps, to keep each game's tests within a few seconds)
ROUND_TRIP = {"wizard-cards": (15, 5), "covenant": (4, 23), "relic": (2, 89)}
OBSERVE = {"wizard-cards": (12, 4), "covenant": (3, 17), "relic": (2, 97)}
PLAYOUTS = {"wizard-cards": 60, "covenant": 25, "relic": 25}


def new(game: str, players: int, variant: str, seed: int) -> State:
    spec = get(game)
    return spec.new_state(players, seed, variant) if variant else spec.new_state(players, seed)


def all_cards(state: State) -> Counter[str]:
    return Counter(c for zone in state.zones().values() for c in zone)


@pytest.mark.parametrize("game,players,variant", CASES)
def test_random_and_automaton_playouts(game: str, players: int, variant: str) -> None:
    for seed in range(PLAYOUTS[game]):
        s = new(game, players, variant, seed)
        full = all_cards(s)
        assert all(n == 1 for n in full.values()), "a card is in two zones at the start"
        bots = [RandomAgent(seed * 7 + i) if (seed + i) % 2 else make_agent("automaton", game, seed + i)
                for i in range(players)]
        while not s.is_terminal():
            seat = s.current_player
            assert 0 <= seat < players
            legal = s.legal_actions()
            assert legal, "a live state must offer an action"
            assert len({a.key for a in legal}) == len(legal), "two legal actions share a key"
            s.apply(bots[seat].choose(s, seat))
            if seed < 6:  # every step of the first games: every card in exactly one zone
                assert all_cards(s) == full
        assert all_cards(s) == full
        r = s.returns()
        assert len(r) == players and all(-1.0 <= x <= 1.0 for x in r)
        assert s.outcome() is not None and s.current_player == -1 and s.legal_actions() == []


@pytest.mark.parametrize("game,players,variant", CASES)
def test_clone_and_json_round_trip(game: str, players: int, variant: str) -> None:
    spec = get(game)
    seeds, every = ROUND_TRIP[game]
    for seed in range(seeds):
        s = new(game, players, variant, seed)
        agent = RandomAgent(seed)
        i = 0
        while not s.is_terminal():
            if i % every == 0:
                snap = s.to_json()
                assert s.clone().to_json() == snap
                text = json.dumps(snap)
                back = spec.from_json(json.loads(text))
                assert back.to_json() == snap
                # the copies play on exactly like the original
                c1, c2 = s.clone(), back
                for _ in range(6):
                    if c1.is_terminal():
                        break
                    a = RandomAgent(i).choose(c1, c1.current_player)
                    c1.apply(a)
                    c2.apply(a)
                assert c1.to_json() == c2.to_json()
            s.apply(agent.choose(s, s.current_player))
            i += 1
        assert spec.from_json(json.loads(json.dumps(s.to_json()))).to_json() == s.to_json()


@pytest.mark.parametrize("game,players,variant", CASES)
def test_observation_never_shows_hidden_cards(game: str, players: int, variant: str) -> None:
    """Change every card a seat cannot see (determinize with other seeds): its observation stays the same."""
    changed = 0
    seeds, every = OBSERVE[game]
    for seed in range(seeds):
        s = new(game, players, variant, seed)
        agent = RandomAgent(seed)
        i = 0
        while not s.is_terminal():
            if i % every == 0:
                for seat in range(players):
                    obs = s.observation(seat)
                    for k in range(3):
                        d = s.determinize(seat, Rng(seed * 1000 + i * 10 + k))
                        assert d.observation(seat) == obs
                        assert all_cards(d) == all_cards(s)
                        if d.to_json() != s.to_json():
                            changed += 1
            s.apply(agent.choose(s, s.current_player))
            i += 1
    assert changed > 50, "determinize never changed anything: the test would not catch a leak"


def test_a_leak_would_be_caught() -> None:
    """The observation test has teeth: an observation that included the rival's hand differs after
    determinize."""
    s = new("wizard-cards", 2, "", 3)
    d = s.determinize(0, Rng(99))
    assert sorted(d.hands[1]) != sorted(s.hands[1])  # type: ignore[attr-defined]


@pytest.mark.parametrize("game,players,variant", ONE_PER_GAME)
def test_ismcts_choice_ignores_hidden_cards(game: str, players: int, variant: str) -> None:
    checked = 0
    for seed in range(2 if game == "relic" else 6):
        s = new(game, players, variant, seed)
        agent = RandomAgent(seed)
        i = 0
        while not s.is_terminal() and i < {"wizard-cards": 40, "covenant": 120, "relic": 120}[game]:
            seat = s.current_player
            if i % 7 == 3 and len(s.legal_actions()) > 1:
                its = {"wizard-cards": 60, "covenant": 25, "relic": 12}[game]
                bot = MctsAgent(game, iterations=its, seed=5)
                mine = bot.choose(s, seat)
                for k in range(2):
                    swapped = s.determinize(seat, Rng(777 + k))
                    assert MctsAgent(game, iterations=its, seed=5).choose(swapped, seat) == mine
                checked += 1
            s.apply(agent.choose(s, seat))
            i += 1
    assert checked >= 4


@pytest.mark.parametrize("game,players,variant", ONE_PER_GAME)
def test_ismcts_early_stop_chooses_what_the_whole_budget_would(game: str, players: int, variant: str) -> None:
    """The search stops once its leading move cannot be overtaken: same move as the whole budget, fewer iterations
    on the easy decisions."""
    saved = 0
    compared = 0
    budget = 48 if game == "relic" else 160  # Relic's playouts are long: a smaller budget keeps this test quick
    for seed in range(2 if game == "relic" else 3):
        s = new(game, players, variant, seed)
        agent = RandomAgent(seed)
        i = 0
        while not s.is_terminal() and i < 90:
            seat = s.current_player
            if i % 9 == 2 and len(s.legal_actions()) > 1:
                fast = MctsAgent(game, iterations=budget, seed=3, search="tree")
                full = MctsAgent(game, iterations=budget, seed=3, early_stop=False, search="tree")
                assert fast.choose(s, seat) == full.choose(s, seat)
                assert full.last_iterations == budget and fast.last_iterations <= budget
                saved += budget - fast.last_iterations
                compared += 1
            s.apply(agent.choose(s, seat))
            i += 1
    assert compared >= 5 and saved > 0


@pytest.mark.parametrize("game,players,variant", ONE_PER_GAME)
def test_paired_search_spends_its_budget_and_keeps_the_automaton_move_without_evidence(
        game: str, players: int, variant: str) -> None:
    """The paired root search plays its budget (less at most one round's rounding), and with an unreachable margin
    it always keeps the automaton's move, which it reads from a sample of what its seat sees."""
    compared = 0
    for seed in range(2):
        s = new(game, players, variant, seed)
        agent = RandomAgent(seed)
        i = 0
        while not s.is_terminal() and i < 60:
            seat = s.current_player
            legal = s.legal_actions()
            if i % 6 == 2 and len(legal) > 1:
                bot = MctsAgent(game, iterations=40, seed=3, search="paired", max_rollout=12)
                bot.choose(s, seat)
                assert 40 - len(legal) <= bot.last_iterations <= 40 + len(legal)
                stubborn = MctsAgent(game, iterations=40, seed=3, search="paired", max_rollout=12, margin=math.inf)
                policy = get(game).automaton()
                rng = Rng(derive("mcts", 3, s.steps, seat))
                if hasattr(policy, "seed"):
                    policy.seed(derive("mcts-policy", 3, s.steps, seat))
                expected = policy.choose(s.determinize(seat, rng), seat)
                assert stubborn.choose(s, seat) == expected
                compared += 1
            s.apply(agent.choose(s, seat))
            i += 1
    assert compared >= 4


def test_paired_search_with_a_time_budget_stops_and_chooses_a_legal_move() -> None:
    s = new("covenant", 2, "", 8)
    while len(s.legal_actions()) < 3:
        s.apply(s.legal_actions()[0])
    legal = s.legal_actions()
    for bot in (MctsAgent("covenant", iterations=None, seconds=0.2, seed=1),
                MctsAgent("covenant", iterations=10**9, seconds=0.2, seed=1)):
        assert bot.search == "paired"
        assert bot.choose(s, s.current_player) in legal
        assert len(legal) <= bot.last_iterations < 10**6


def test_paired_differences_decide_only_beyond_the_margin() -> None:
    bot = MctsAgent("wizard-cards", iterations=10, search="paired")
    better = {0: 1.0, 1: 1.0, 2: 1.0, 3: 0.0}
    base = {0: 0.0, 1: 0.0, 2: 0.0, 3: 0.0, 4: 1.0}  # sample 4 was not played for both: it does not count
    # differences 1, 1, 1, 0: mean 0.75, standard error 0.25, so 3 standard errors
    assert bot._beats(better, base)
    bot.margin = 2.9
    assert bot._beats(better, base)
    bot.margin = 3.1
    assert not bot._beats(better, base)
    assert not bot._beats(base, better)
    assert not bot._beats({0: 1.0, 1: 1.0}, {0: 0.0, 1: 0.0})  # too few samples


@pytest.mark.parametrize("game,players,variant", ONE_PER_GAME)
def test_illegal_actions_raise_and_change_nothing(game: str, players: int, variant: str) -> None:
    s = new(game, players, variant, 4)
    before = s.to_json()
    with pytest.raises(IllegalActionError):
        s.apply(Action("no-such-move", "X"))
    assert s.to_json() == before
    s.apply(s.legal_actions()[0])
    assert s.to_json() != before


@pytest.mark.parametrize("game,players,variant", ONE_PER_GAME)
def test_step_cap_ends_a_runaway_game_as_an_error(game: str, players: int, variant: str) -> None:
    s = new(game, players, variant, 5)
    s.step_cap = 10  # type: ignore[misc]
    agent = RandomAgent(1)
    with pytest.raises(StepCapError):
        while not s.is_terminal():
            s.apply(agent.choose(s, s.current_player))
