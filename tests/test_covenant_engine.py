"""Covenant of Wizards: the engine as a whole (hidden information, copies and samples for the search, set-up
errors, limits, whole games, the automaton and its evaluation, the scenario files). The rules, one ruling per test,
are in ``test_covenant.py``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from covenant_helpers import ENGINE, SCENARIOS, cards, do, duel_position, legal, mk, new_state, p, setup

from wizprint.cards.model import Effect, Record
from wizprint.errors import EngineError, IllegalActionError
from wizprint.solo.agents import RandomAgent
from wizprint.solo.games.covenant import ROUND_LIMIT, CovenantAutomaton, CovenantView, compile_card
from wizprint.solo.kernel import Action
from wizprint.solo.kernel.rng import Rng
from wizprint.solo.scenario import run_scenario


# -- hidden information, copies, determinisation ---------------------------------------------------------------------
def test_observation_hides_other_hands_and_the_deck() -> None:
    s = new_state(2, 3)
    obs = json.dumps(s.observation(0))
    for c in s.hands[1]:
        assert f'"{c}"' not in obs
    for c in s.deck:
        assert f'"{c}"' not in obs
    assert s.observation(0)["hand_sizes"] == [len(s.hands[0]), len(s.hands[1])]


def test_clone_and_json_round_trip_mid_duel() -> None:
    s = duel_position(p1_hand=["S07"])
    do(s, "duel W08 1", "pass", "answer W12", dice=(1, 2, 3))
    assert s.stack
    j = s.to_json()
    assert s.clone().to_json() == j
    assert ENGINE.from_json(json.loads(json.dumps(j))).to_json() == j


def test_determinize_keeps_the_observation_and_depends_only_on_it() -> None:
    s = new_state(3, 11)
    for seat in range(3):
        d = s.determinize(seat, Rng(1))
        d.check_zones()
        assert d.observation(seat) == s.observation(seat)
        assert sorted(d.hands[seat]) == sorted(s.hands[seat])
        other = s.determinize(seat, Rng(2))
        assert other.determinize(seat, Rng(1)).to_json() == d.to_json()
    d1, d2 = s.determinize(0, Rng(1)), s.determinize(0, Rng(2))
    assert d1.hands[1] != d2.hands[1] or d1.deck != d2.deck


def test_a_search_choice_is_read_from_the_deck_of_a_determinised_state() -> None:
    s = mk(hands=[["S06"], ["Q01", "Q02", "Q03", "Q04", "Q05", "Q06", "Q07", "Q08"]], in_play=[["W03"], []],
           phase="event")
    do(s, "cast S06")
    assert legal(s) == ["target Q09", "target Q10"]  # the searcher sees the deck's two quests
    assert s.observation(0)["seen"]["Q09"].startswith("d")
    for seed in range(6):  # seat 1 cannot know where the two quests are: its samples may differ
        d = s.determinize(1, Rng(seed))
        keys = legal(d)
        assert keys == [f"target {c}" for c in sorted(x for x in d.deck if x.startswith("Q"))] or keys == [
            "target none"]
        d.apply_key(keys[0])
        d.check_zones()
    do(s, "target Q10")
    assert p(s, "hand.0") == ["Q10"]
    assert "Q09" not in s.observation(0)["seen"]  # the deck was shuffled


def test_legal_actions_in_a_window_do_not_depend_on_hidden_cards() -> None:
    s = mk(hands=[["S02"], ["R01"]], in_play=[["W03"], ["W10+I05"]], phase="event")
    do(s, "cast S02 I05")
    assert s.current_player == 1 and legal(s) == ["pass"]


# -- set-up errors, limits, handlers --------------------------------------------------------------------------------
def test_every_pending_kind_has_its_handlers_and_saves_by_its_kind() -> None:
    from wizprint.solo.games.covenant import KINDS, RULES

    assert RULES.unhandled(KINDS) == []
    assert len({k.kind for k in KINDS}) == len(KINDS)
    s = duel_position(p1_hand=["S07"])
    do(s, "duel W08 1", "pass", "answer W12", dice=(1, 2, 3))
    assert [f["kind"] for f in s.to_json()["stack"]] == ["duel", "roll"]


def test_an_unknown_effect_word_is_an_error() -> None:
    bad = Record("card", "S99", "Mistake", type="spell", effects=(Effect("rerol", {}),))
    with pytest.raises(EngineError, match="rerol"):
        compile_card("S99", bad)


def test_describe_names_cards() -> None:
    s = mk(hands=[["S05", "W03", "I05"], []], in_play=[["W10"], []], phase="event")
    assert s.describe(Action("cast", "S05")) == "cast S05 Prophecy (see the deck's top 7)"
    assert s.describe(Action("summon", "W03")) == "summon W03 Sorcerer (Conjuror: action, 4+ on a die draws a card)"
    assert s.describe(Action("attach", "I05", "W10")) == "attach I05 Staff of Power (duel +2) to W10 Mentalist"
    s = mk(hands=[["S01"], []], in_play=[["W10"], ["W11+I05"]], phase="event")
    assert s.describe(Action("cast", "S01", "I05")) == "cast S01 Dimension Door: take P2's I05 Staff of Power"


def test_setup_rejects_unknown_and_repeated_cards() -> None:
    with pytest.raises(EngineError, match="unknown card 'W99'"):
        setup({"hands": [["W99"], []]}, 2, 1)
    with pytest.raises(EngineError, match="named twice"):
        setup({"hands": [["W01"], ["W01"]]}, 2, 1)
    with pytest.raises(EngineError, match="cannot stand alone"):
        setup({"in_play": [["I05"], []]}, 2, 1)


def test_illegal_action_raises_and_changes_nothing() -> None:
    s = mk(hands=[["R04"], []], phase="summon")
    before = s.to_json()
    with pytest.raises(IllegalActionError):
        s.apply(Action("summon", "R05"))
    assert s.to_json() == before


def test_round_limit_ends_the_game_on_points() -> None:
    s = mk(hands=[["R04"], []], in_play=[["W01"], ["W10", "W11"]], phase="summon",
           turn_number=ROUND_LIMIT * 2)
    do(s, "end")
    assert s.is_terminal()
    assert p(s, "winners") == [1]
    assert "turn limit" in p(s, "reason")


# -- whole games -----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_and_automaton_games_end_cleanly(players: int) -> None:
    for g in range(4):
        s = new_state(players, 100 + g)
        agents: list[Any] = [RandomAgent(g * 10 + i) if (g + i) % 2 else CovenantAutomaton() for i in range(players)]
        while not s.is_terminal():
            s.apply(agents[s.current_player].choose(s, s.current_player))
            s.check_zones()
        assert s.outcome() is not None
        assert s.steps < ENGINE.decl.step_cap == s.step_cap


def test_automaton_beats_random() -> None:
    wins = 0
    for g in range(30):
        s = new_state(2, 200 + g)
        auto = CovenantAutomaton()
        auto.seed(g)
        agents: list[Any] = [auto, RandomAgent(g)] if g % 2 == 0 else [RandomAgent(g), auto]
        me = g % 2
        while not s.is_terminal():
            s.apply(agents[s.current_player].choose(s, s.current_player))
        outcome = s.outcome()
        assert outcome is not None
        wins += me in outcome.winners
    assert wins >= 22


def test_quest_odds_kept_across_choices_equal_a_fresh_computation() -> None:
    # the automaton keeps quest odds across choices, keyed by what they depend on: every kept answer must be the
    # one a fresh computation gives in the position at hand
    ENGINE.data.quest_odds.clear()
    auto = CovenantAutomaton()
    checked = 0
    for g in range(6):
        s = new_state(2, 300 + g)
        auto.seed(g)
        while not s.is_terminal():
            for seat in range(2):
                v = CovenantView(s, seat)
                parts = auto.all_parts(v, seat)
                for q in (x for x in s.hands[seat] if cards()[x].type == "quest"):
                    for extra in (0, 2):
                        assert auto.quest_odds(v, q, parts, extra) == auto.fresh_quest_odds(v, q, parts, extra)
                        checked += 1
            s.apply(auto.choose(s, s.current_player))
    assert checked > 500


def test_evaluation_is_a_win_chance_that_grows_with_points_wizards_and_cards() -> None:
    from wizprint.solo.games.covenant import evaluate, win_chances

    base: dict[str, Any] = {"in_play": [["W01"], ["W02"]], "hands": [["Q01", "Q03"], ["Q04", "Q05"]], "phase": "event"}
    s = mk(**base)
    ev = evaluate(s)
    assert abs(sum(win_chances(s)) - 1.0) < 1e-9 and all(-1.0 < v < 1.0 for v in ev)
    assert abs(ev[0] + ev[1]) < 1e-9  # two seats: one's gain is the other's loss
    more_vp = mk(**{**base, "in_play": [["W01", "R04"], ["W02"]]})
    more_wizards = mk(**{**base, "in_play": [["W01", "W03"], ["W02"]]})
    more_cards = mk(**{**base, "hands": [["Q01", "Q03", "R01"], ["Q04", "Q05"]]})
    for better in (more_vp, more_wizards, more_cards):
        assert evaluate(better)[0] > ev[0]
    near_win = mk(**{**base, "quests": [["Q07", "Q02", "Q08", "Q09"], []]})  # 22 VP against 1
    assert evaluate(near_win)[0] > 0.8


def test_fitting_the_evaluation_recovers_known_weights() -> None:
    import importlib.util

    path = Path(__file__).parents[1] / "scripts" / "fit_eval.py"
    spec = importlib.util.spec_from_file_location("fit_eval", path)
    assert spec is not None and spec.loader is not None
    fit_mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fit_mod)
    sol = fit_mod.solve([[2.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 4.0]], [3.0, 5.0, 5.0])
    assert all(abs(a - 1.0) < 1e-9 for a in sol)
    # positions drawn from a known conditional logit (two features, three seats): the fit must find its weights
    rng = Rng(11)
    true = (0.8, -0.5)
    rows = []
    for _ in range(3000):
        x = [(float(rng.below(7)), float(rng.below(4))) for _ in range(3)]
        p = fit_mod.chances(x, true)
        u, acc, win = rng.random(), 0.0, 2
        for k in range(3):
            acc += p[k]
            if u < acc:
                win = k
                break
        rows.append((x, win))
    w = fit_mod.fit(rows, ridge=0.1)
    assert abs(w[0] - true[0]) < 0.1 and abs(w[1] - true[1]) < 0.1
    assert fit_mod.score(rows, w)[0] > fit_mod.score(rows, (0.0, 0.0))[0]


@pytest.mark.parametrize("path", sorted(SCENARIOS.glob("covenant-*.toml")), ids=lambda x: x.stem)
def test_scenarios(path: Path) -> None:
    result = run_scenario(path)
    assert result.ok, result.report()


def test_there_are_covenant_scenarios() -> None:
    assert len(list(SCENARIOS.glob("covenant-*.toml"))) >= 4
