"""Relic, continued: experience, missions, corruption, shops, the Inner tier, hidden information and the
vocabulary: the engine's rules and the project's rulings (docs/rulings/relic.md), one or more tests each. Positions
come from the engine's ``setup``; dice are scripted (strict: an unscripted roll is an error), so every number asserted
here is worked out by hand in the comments. Unless a test says otherwise: two players, scenario SC01 (The Mystery
Beyond, no enemy bonuses), seat 0 the Ultramarine Captain (Str 5, Wil 4, Cun 3, Life 5; +1 in Strength battles, +1
to Willpower tests), seat 1 the Callidus Assassin holding one Power card (so that its turn waits for a decision)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from relic_helpers import ENGINE, D, do, legal, mk, new_state, rolling, said, skill_test, turn_over

from wizprint.errors import EngineError, IllegalActionError
from wizprint.solo.games.relic import KINDS, RULES, VANQUISHED_SPACE, RelicAutomaton
from wizprint.solo.games.relic.effects import WORDS
from wizprint.solo.games.relic.estimates import p_beat, p_pass
from wizprint.solo.games.relic.heroes import gain, lose
from wizprint.solo.games.relic.pending import RelicPending, RollKind
from wizprint.solo.kernel import Action, SaveError, Stats
from wizprint.solo.kernel.rng import Rng


# -- experience -----------------------------------------------------------------------------------------------
def test_trophies_buy_levels_the_engine_spends_the_fewest_points_and_rewards_come_in_order() -> None:
    s = mk(hands=[["PW27"]], trophies=[["TR08", "TR02", "TR01", "TR03"]], phase="experience")  # 4+2+1+1 = 8
    assert "level 1" in legal(s) and "level 2" not in legal(s)
    do(s, "level 1")
    assert sorted(s.trophies[0]) == ["TR01#1", "TR03#1"] and s.level[0] == 1 and s.attributes[0][0] == 6
    # level 7 of the Ultramarine Captain: attribute (choice), then Life
    s = mk(hands=[["PW27"]], level=[6], trophies=[["TR13"]], phase="experience")  # Deff Dread: 7 points
    do(s, "level 1")
    assert legal(s) == ["stat cunning", "stat strength", "stat willpower"] and s.life[0] == 5
    do(s, "stat cunning")
    assert s.attributes[0][2] == 4 and s.life[0] == 6 and s.level[0] == 7


def test_the_player_chooses_the_trophies_to_spend_and_points_above_six_are_lost() -> None:
    s = mk(hands=[["PW27"]], trophies=[["TR08", "TR02", "TR01", "TR03"]], phase="experience")  # 4+2+1+1 = 8
    assert {"spend TR08#1", "spend TR02#1", "spend TR01#1", "spend TR03#1"} <= set(legal(s))
    do(s, "spend TR08#1", "spend TR01#1")  # 5 points set aside: no level yet
    assert "level 1" not in legal(s) and "unspend TR01#1" in legal(s)
    do(s, "spend TR03#1")  # 6 points
    do(s, "level 1")
    assert s.trophies[0] == ["TR02#1"] and s.level[0] == 1
    s = mk(hands=[["PW27"]], trophies=[["TR08", "TR02", "TR01", "TR03"]], phase="experience")
    do(s, "spend TR08#1", "spend TR02#1", "spend TR01#1", "level 1")  # 7 points: one level, one point lost
    assert sorted(s.trophies[0]) == ["TR03#1"] and s.level[0] == 1 and said(s, "1 point is lost")


def test_the_special_reward_and_level_twelve() -> None:
    s = mk(hands=[["PW27"]], level=[5], trophies=[["TR15"]], phase="experience", decks={"wargear": ["WG04"]})
    do(s, "level 1")  # the Captain's level 6 is "special": draw a Wargear card
    assert s.assets[0] == ["WG04"]
    s = mk(hands=[["PW27"]], level=[12], trophies=[["TR15"]], phase="experience", decks={"mission": ["MS07"]})
    do(s, "level 1")
    assert s.level[0] == 12 and s.completed_hidden[0] == ["MS07"] and s.completed_count(0) == 1


def test_three_completed_missions_reveal_two_relics_keep_one() -> None:
    s = mk(hands=[["PW27"]], completed=[["MS01", "MS02", "MS03"]], phase="experience",
           decks={"relic": ["RL01", "RL02"]})
    do(s, "relic")
    assert legal(s) == ["take RL01", "take RL02"] and s.revealed == ["RL01", "RL02"]
    do(s, "take RL02")
    assert s.assets[0] == ["RL02"] and "RL01" in s.decks["relic"] and len(s.decks["relic"]) == 17
    assert s.completed_count(0) == 0 and s.discards["mission"] == ["MS01", "MS02", "MS03"]


def test_a_mission_is_drawn_when_none_is_active_and_only_one_is_kept() -> None:
    s = mk(hands=[["PW27"]], missions=["", "MS15"], phase="experience", decks={"mission": ["MS07"]})
    assert s.missions[0] == "MS07"
    s = mk(positions=["O18"], hands=[["PW27"]], phase="engagement", decks={"mission": ["MS08"]})
    do(s, "pass", "box 1")  # Freeport Kastellon: draw a Mission; the active MS14 is there already
    assert legal(s) == ["mission MS08", "mission MS14"]
    do(s, "mission MS08")
    assert s.missions[0] == "MS08" and s.objective_tokens[0] == ["O01", "O04"] and s.discards["mission"] == ["MS14"]


def test_the_experience_phase_asks_only_when_there_is_something_to_choose() -> None:
    # cards in hand and in play, none with an ability of the phase, no trophies worth a level, no relic to take: a
    # discard below the limits would only lose a card, so the phase asks nothing and the next turn begins
    s = mk(hands=[["PW27"]], assets=[["WG04"]], phase="experience")
    assert turn_over(s) and s.hands[0] == ["PW27#1"] and s.assets[0] == ["WG04"]
    # trophies worth a level: asked, and the discards the phase allows are offered with them
    s = mk(hands=[["PW27"]], assets=[["WG04"]], trophies=[["TR13"]], phase="experience")
    assert legal(s) == ["discard PW27#1", "discard WG04", "end", "level 1", "spend TR13"]
    # a Power card of this phase (Moment of Clarity: gain 1 attribute): asked, with the other cards to play
    s = mk(hands=[["PW05", "PW01"]], level=[4], phase="experience")  # the Captain's power limit is 2 at level 4
    assert legal(s) == ["discard PW01#1", "discard PW05", "end", "play PW01#1", "play PW05"]
    # a card of any time (Emperor's Grace: gain 2 Life) was offered in the turn's windows and comes again: not asked,
    # unless the player holds more cards than the limit (play it rather than discard it)
    s = mk(hands=[["PW01"]], phase="experience")
    assert turn_over(s)
    s = mk(hands=[["PW01", "PW27"]], phase="experience")  # limit 1 at level 0
    assert legal(s) == ["discard PW01#1", "discard PW27#1", "end", "play PW01#1"]
    # removing Corruption without any: not asked
    s = mk(hands=[["PW03"]], phase="experience")
    assert turn_over(s)
    # three completed missions: the relic is asked
    s = mk(hands=[["PW27"]], completed=[["MS01", "MS02", "MS03"]], phase="experience")
    assert "relic" in legal(s)


def test_discard_down_to_the_power_and_asset_limits_at_the_end_of_the_experience_phase() -> None:
    s = mk(characters=["CH02"], hands=[["PW27", "PW26", "PW01"]],
           assets=[["WG03", "WG04", "WG09", "WG14", "WG15"]], phase="experience")
    do(s, "end")
    assert sorted(legal(s)) == ["discard PW01#1", "discard PW26#1", "discard PW27#1"]  # limit 1 at level 0
    do(s, "discard PW01#1", "discard PW26#1")
    assert legal(s) == ["discard WG03", "discard WG04", "discard WG09", "discard WG14", "discard WG15"]  # limit 4
    do(s, "discard WG04")
    assert s.turn_player == 1


# -- missions -------------------------------------------------------------------------------------------------
def test_defeat_objectives_count_from_activation_and_complete_at_once() -> None:
    s = mk(variant="SC02", positions=["O09"], hands=[["PW27"]], missions=["MS01", "MS15"], phase="engagement",
           threats={"O09": ["TR01", "TR02"]})  # Cleanse the Greenskins: 2 Orks; SC02: +1 influence per mission
    do(s, "pass", "pass", "roll", "pass", dice=(1, 5))  # 3 + 1 = 4 against 5 + 1 + 5 = 11
    assert s.completed[0] == ["MS01"] and s.influence[0] == 3 + 3 + 1


def test_objective_tokens_are_taken_back_at_the_end_of_a_movement() -> None:
    s = mk(positions=["O02"], hands=[["PW27"]], missions=["MS08", "MS15"], phase="movement")  # tokens O01, O04
    assert s.objective_tokens[0] == ["O01", "O04"]
    do(s, "roll", "pass", "cw", dice=(2,))
    assert s.objective_tokens[0] == ["O01"] and s.missions[0] == "MS08"


def test_visit_and_trophy_and_level_objectives() -> None:
    s = mk(positions=["M11"], hands=[["PW27"]], phase="movement")  # Board the Space Hulk
    do(s, "roll", "pass", "acw", dice=(3,))
    assert s.completed[0] == ["MS14"] and s.influence[0] == 6
    s = mk(positions=["O01"], hands=[["PW27"]], missions=["MS17", "MS15"], trophies=[["TR13"]],
           phase="engagement", threats={"O01": ["TR08"]})  # Trophy Hunter: 10 points at the end of engagement
    do(s, "pass", "pass", "roll", "pass", dice=(1, 4))
    assert s.completed[0] == ["MS17"]
    s = mk(hands=[["PW27"]], missions=["MS23", "MS15"], level=[3], trophies=[["TR15"]], phase="experience")
    do(s, "level 1")  # Rise Through the Ranks: level 4
    assert s.completed[0] == ["MS23"]


# -- corruption -----------------------------------------------------------------------------------------------
def test_reaching_the_corruption_threshold_starts_a_new_character() -> None:
    s = mk(positions=["I4"], hands=[["PW27", "PW01"]], corruption=[["CR01", "CR02", "CR03", "CR04", "CR05"]],
           trophies=[["TR01"]], assets=[["WG03"]], influence=[7], phase="engagement", seed=3)
    do(s, "pass")  # Crone World: the first card is the sixth: corrupted; the second is not drawn
    assert legal(s) == ["concede", "new"] and s.current_player == 0  # relic.txt: may lose the game instead
    assert s.unused_characters == [c for c in D.character_ids if c not in ("CH01", "CH02")]
    do(s, "new", picks=("CH05",))  # a random unused sheet: scripted here
    assert s.characters[0] == "CH05" and "CH05" not in s.unused_characters
    assert s.characters[0] != "CH01" and s.characters[0] in D.characters and "CH01" in s.retired_characters
    c = D.characters[s.characters[0]]
    assert s.positions[0] == c.start and s.level[0] == 0 and tuple(s.attributes[0]) == c.attributes
    assert s.life[0] == c.life
    assert s.hands[0] == [] and s.corruption(0) == 0 and s.trophies[0] == [] and s.influence[0] == 0
    assert s.assets[0] == ["WG03"] and s.turn_player == 1  # assets kept; the turn ended
    assert len(s.discards["corruption"]) == 6


def test_the_new_character_is_drawn_from_the_unused_sheets_the_set_up_names() -> None:
    s = mk(positions=["I4"], hands=[["PW27"]], corruption=[["CR01", "CR02", "CR03", "CR04", "CR05"]],
           phase="engagement", unused_characters=["CH08", "CH10"])
    do(s, "pass")
    with pytest.raises(EngineError, match="does not script"):  # strict: the random sheet must be scripted
        s.apply_key("new")
    s = mk(positions=["I4"], hands=[["PW27"]], corruption=[["CR01", "CR02", "CR03", "CR04", "CR05"]],
           phase="engagement", unused_characters=["CH08", "CH10"])
    s.script(strict=False)
    do(s, "pass", "new")  # from the seeded generator: one of the two sheets in the box
    assert s.characters[0] in ("CH08", "CH10") and len(s.unused_characters) == 1
    assert s.unused_characters[0] != s.characters[0]
    with pytest.raises(EngineError, match="played by a seat"):
        mk(unused_characters=["CH01"])


def test_threshold_modifiers_and_elimination_when_no_character_is_left() -> None:
    s = mk(characters=["CH06"], positions=["O05"], hands=[["PW27"]],
           corruption=[["CR01", "CR02", "CR03", "CR04", "CR05"]], phase="engagement", decks={"corruption": ["CR09"]})
    do(s, "pass", "roll", "pass", dice=(1,))  # Cult Warrens: the test fails, draw a Corruption card
    # the Sister Superior's threshold is 7: a sixth card does not corrupt her; it activates (3 <= 6)
    assert s.characters[0] == "CH06" and s.corruption(0) == 6 and s.corruption_face_up[0] == ["CR09"]
    assert s.threshold(0) == 7
    s = mk(positions=["I4"], hands=[["PW27"]], corruption=[["CR01", "CR02", "CR03", "CR04", "CR05"]],
           phase="engagement", unused_characters=[])
    do(s, "pass")
    assert s.eliminated[0] and s.is_terminal() and s.outcome() is not None and s.outcome().winners == (1,)


def test_removing_corruption_is_the_players_choice() -> None:
    s = mk(positions=["M14"], hands=[["PW27"]], corruption=[["CR01"]], corruption_up=[["CR11"]],
           phase="engagement")
    do(s, "pass", "box 2", "yes")  # pay 3: discard 1 Corruption card
    assert legal(s) == ["purge CR01#1", "purge CR11"]
    do(s, "purge CR11")
    assert s.corruption_face_up[0] == [] and s.corruption_face_down[0] == ["CR01#1"] and s.influence[0] == 0


# -- vanquished, missed turns, limits on stats -----------------------------------------------------------------
def test_vanquished_in_the_green_tide_lose_the_highest_attribute() -> None:
    s = mk(variant="SC03", positions=["O01"], life=[1], attributes=[[6, 6, 3]], hands=[["PW27"]],
           phase="engagement", threats={"O01": ["TR04"]})
    do(s, "pass", "pass", "roll", "pass", dice=(6, 6, 1, 1))  # 2 + 1 + 13 = 16 against 6 + 1 + 1 = 8
    assert s.positions[0] == VANQUISHED_SPACE and s.life[0] == 5 and legal(s) == ["stat strength", "stat willpower"]
    do(s, "stat willpower")
    assert s.attributes[0] == [6, 5, 3] and s.turn_player == 1


def test_missing_a_turn_ends_this_turn_and_skips_the_next() -> None:
    s = mk(positions=["O01"], hands=[["PW27"]], phase="engagement", threats={"O01": ["TR28", "TR31"]})
    do(s, "pass", "option 2")  # Lost in the Scrapyards: miss a turn
    assert s.turn_player == 1 and s.skips[0] == 1 and s.board["O01"] == ["TR31"]  # no Grot Trader, no Experience
    s.hands[1] = []  # seat 1 plays on without a decision until seat 0's missed turn
    s.script(strict=False)
    turn = s.turn_number
    while s.turn_player == 1 and s.turn_number < turn + 2:
        s.apply(s.legal_actions()[0])
    assert said(s, "P1 misses this turn") and s.skips[0] == 0


def test_attributes_stay_between_1_and_12_and_life_at_most_12_and_cannot_heal() -> None:
    s = mk(hands=[["PW27"]], attributes=[[12, 1, 3]], life=[12], phase="experience")
    gain(s, 0, "strength", 2)
    lose(s, 0, "willpower", 3)
    gain(s, 0, "life", 2)
    lose(s, 0, "influence", 9)
    assert s.attributes[0][:2] == [12, 1] and s.life[0] == 12 and s.influence[0] == 0
    s = mk(hands=[["PW27"]], corruption_up=[["CR19"]], life=[3], phase="experience")
    gain(s, 0, "life", 2)
    assert s.life[0] == 3


# -- shops ----------------------------------------------------------------------------------------------------
def test_buying_power_cards_and_wargear() -> None:
    s = mk(positions=["O06"], influence=[5], phase="engagement")
    do(s, "box 1")
    assert legal(s) == ["buy 0", "buy 1", "buy 2"]
    do(s, "buy 2")
    assert len(s.hands[0]) == 2 and s.influence[0] == 1
    s = mk(positions=["O12"], influence=[5], phase="engagement", decks={"wargear": ["WG13", "WG04", "WG09"]})
    do(s, "box 1")
    assert legal(s) == ["buy WG04", "buy WG09", "done"]  # the Master-Crafted Plate costs 8
    do(s, "buy WG04", "done")
    assert s.assets[0] == ["WG04"] and s.influence[0] == 3 and s.decks["wargear"][:2] == ["WG09", "WG13"]
    s = mk(positions=["O12"], influence=[5], corruption_up=[["CR11"]], hands=[["PW27"]], phase="engagement")
    do(s, "pass", "box 1")  # Mark of the Shunned: cannot buy Wargear
    assert turn_over(s) and s.revealed == []


# -- the Inner tier and the confrontation ---------------------------------------------------------------------
def test_the_warp_rift_skips_for_two_relics_and_resolves_only_the_landing_space() -> None:
    s = mk(positions=["I0"], assets=[["RL01", "RL02"]], hands=[["PW27"]], phase="engagement")
    do(s, "pass")  # 1 + 1 (two relics): the Bone Fields of Korvane, a Strength test
    assert s.positions[0] == "I2" and rolling(s, RollKind.TEST) and skill_test(s).target == 10


def test_the_confrontation_is_won_by_a_battle_or_by_scenario_tokens() -> None:
    s = mk(positions=["C"], attributes=[[10, 4, 3]], hands=[["PW27"]], phase="engagement")
    do(s, "pass", "option 1", "pass", "roll", "pass", dice=(1, 3))  # 10 + 1 + 3 = 14 against 11 + 1 = 12
    assert s.is_terminal() and s.outcome() is not None and s.outcome().winners == (0,)
    assert "wins the scenario" in s.outcome().reason
    # The Devouring: the Norn-Beast must be beaten twice (two tokens)
    s = mk(variant="SC04", positions=["C"], attributes=[[4, 10, 3]], hands=[["PW27"]], phase="engagement")
    do(s, "pass", "pass", "roll", "pass", dice=(1, 4))  # 10 + 4 = 14 against 11 + 1 = 12
    assert s.scenario_tokens[0] == 1 and not s.is_terminal()


# -- hidden information ---------------------------------------------------------------------------------------
def test_observations_hide_power_cards_facedown_cards_and_the_decks() -> None:
    s = mk(hands=[["PW27", "PW01"], ["PW26"]], corruption=[["CR01"], ["CR02"]], completed=[[], []],
           phase="experience")
    s.completed_hidden[1].append(s.decks["mission"].pop())
    obs = s.observation(0)
    text = json.dumps(obs)
    assert "PW26" not in text and "CR02" not in text and s.completed_hidden[1][0] not in text
    assert obs["table"][1]["hand"] == 1 and obs["table"][1]["corruption_down"] == 1
    assert obs["my_corruption_down"] == ["CR01#1"] and obs["hand"] == ["PW01#1", "PW27#1"]
    assert all(isinstance(v, int) for v in obs["decks"].values())


def test_determinize_depends_only_on_the_observation() -> None:
    s = mk(hands=[["PW27"], ["PW26"]], phase="experience")
    t = s.clone()
    # a state seat 0 cannot tell apart: seat 1 holds another card, the decks are in another order
    x = t.decks["power"].pop()
    t.decks["power"].insert(0, t.hands[1][0])
    t.hands[1] = [x]
    t.decks["red"].reverse()
    assert s.observation(0) == t.observation(0)
    a, b = s.determinize(0, Rng(42)), t.determinize(0, Rng(42))
    assert a.to_json() == b.to_json()
    assert a.observation(0) == s.observation(0)


def test_json_round_trip_and_clone_mid_battle() -> None:
    s = mk(positions=["O01"], hands=[["PW27"]], phase="engagement", threats={"O01": ["TR08"]})
    do(s, "pass")
    snap = s.to_json()
    back = ENGINE.from_json(json.loads(json.dumps(snap)))
    assert back.to_json() == snap and s.clone().to_json() == snap


def test_every_pending_kind_has_its_code_and_is_saved_by_its_name() -> None:
    assert RULES.unhandled(KINDS) == []
    named: set[type[RelicPending]] = set()
    todo = list(RelicPending.__subclasses__())
    while todo:
        c = todo.pop()
        todo.extend(c.__subclasses__())
        if c.__dict__.get("kind"):
            named.add(c)
    assert named == set(KINDS) and len({k.kind for k in KINDS}) == len(KINDS)
    assert all(re.fullmatch(r"[a-z]+(_[a-z]+)*", k.kind) for k in KINDS)
    s = mk(positions=["O01"], hands=[["PW27"]], phase="engagement", threats={"O01": ["TR08"]})
    do(s, "pass")
    snap = s.to_json()
    assert [f["kind"] for f in snap["stack"]] == ["turn", "engagement", "threats", "battle"]
    assert snap["stack"][-1]["step"] == 1 and snap["stack"][-1]["foes"] == ["TR08#1"]  # Prepare for Battle


def test_a_save_that_names_what_does_not_exist_is_refused() -> None:
    s = mk(positions=["O01"], hands=[["PW27"]], phase="engagement", threats={"O01": ["TR08"]})
    do(s, "pass")
    snap = json.loads(json.dumps(s.to_json()))
    bad = json.loads(json.dumps(snap))
    bad["stack"][-1]["seat"] = 5
    with pytest.raises(SaveError, match="names a seat or an effect list"):
        ENGINE.from_json(bad)
    bad = json.loads(json.dumps(snap))
    bad["positions"][0] = "Z99"
    with pytest.raises(SaveError, match="a space that does not exist"):
        ENGINE.from_json(bad)
    bad = json.loads(json.dumps(snap))
    bad["life"] = [6]
    with pytest.raises(SaveError, match=r"state\.life: expected one entry per seat"):
        ENGINE.from_json(bad)
    bad = json.loads(json.dumps(snap))
    bad["stack"][-1]["step"] = 17
    with pytest.raises(SaveError, match="step"):
        ENGINE.from_json(bad)
    assert ENGINE.from_json(snap).to_json() == snap


def test_illegal_actions_raise() -> None:
    s = mk(hands=[["PW27"]], phase="experience")
    with pytest.raises(IllegalActionError):
        s.apply_key("relic")


# -- the vocabulary and the data ------------------------------------------------------------------------------
def test_every_vocabulary_word_is_handled_and_every_word_used_is_known() -> None:
    import tomllib

    vocab = tomllib.loads((Path(__file__).parents[1] / "cards" / "relic" / "vocabulary.toml").read_text(
        encoding="utf-8"))
    words = set(vocab["words"])
    assert words == set(WORDS.handlers) == ENGINE.code.handled()
    assert D.words_used() <= set(WORDS.handlers)


def test_the_engine_names_no_card_space_character_or_scenario() -> None:
    code = ""
    for path in sorted((Path(__file__).parents[1] / "solo" / "games" / "relic").glob("*.py")):
        src = path.read_text(encoding="utf-8")
        lines = "\n".join(ln for ln in src.splitlines() if not ln.strip().startswith("#"))
        code += lines.split('"""', 2)[2]  # after the module docstring
    found = set(re.findall(r'"((?:TR|TB|TY|PW|CR|MS|RL|WG|CH|SC)\d\d|[OMI]\d\d?|C)"', code))
    assert found == {"O00"}  # VANQUISHED_SPACE, fixed by the rulebook (Vanquished Players)
    assert 'VANQUISHED_SPACE = "O00"' in code


def test_every_card_is_in_exactly_one_zone_throughout_a_game() -> None:
    s = new_state(3, 5)
    bots = [RelicAutomaton() for _ in range(3)]
    n = 0
    while not s.is_terminal() and n < 1500:
        s.apply(bots[s.current_player].choose(s, s.current_player))
        if n % 50 == 0:
            s.check_zones()
        n += 1
    s.check_zones()


# -- the automaton --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("players,seed", [(2, 1), (2, 2), (3, 3), (4, 4)])
def test_automaton_games_end_by_a_scenario_win(players: int, seed: int) -> None:
    s = new_state(players, seed)
    bots = [RelicAutomaton() for _ in range(players)]
    for i, b in enumerate(bots):
        b.seed(seed + i)
    while not s.is_terminal():
        s.apply(bots[s.current_player].choose(s, s.current_player))
    o = s.outcome()
    assert o is not None and "wins the scenario" in o.reason


def test_the_automatons_odds() -> None:
    assert p_beat(0) == pytest.approx(p_beat(0, 1, 1))
    assert 0.4 < p_beat(0) < 0.5  # ties go to nobody
    assert p_beat(6) > 0.85 and p_beat(-6) < 0.1 and p_beat(3) > p_beat(2)
    assert p_pass(1) == pytest.approx(5 / 6, rel=1e-4)  # only a natural 1 fails
    assert p_pass(7) == pytest.approx(1 / 6, rel=1e-4)  # a 6 and anything: 7 or more


# -- rulings --------------------------------------------------------------------------------------------------
def test_a_power_number_of_one_in_a_test_is_a_natural_one() -> None:
    s = mk(positions=["O03"], attributes=[[5, 12, 3]], hands=[["PW01", "PW27"]], phase="engagement")
    do(s, "pass", "box 1", "number PW01#1", "pass")  # 12 + 1 + 1 >= 8, but the 1 counts as a die showing 1
    assert s.last.result == -1 and s.influence[0] == 2


def test_a_level_objective_already_reached_completes_when_the_mission_becomes_active() -> None:
    s = mk(hands=[["PW27"]], missions=["", "MS15"], level=[4], phase="experience", decks={"mission": ["MS23"]})
    assert s.completed[0] == ["MS23"] and s.missions[0] == "" and s.influence[0] == 6


def test_a_completed_mission_from_the_deck_is_not_completing_a_mission() -> None:
    # The Seers' Gambit gives 1 influence whenever a player completes a mission; a level past 12 does not
    s = mk(variant="SC02", hands=[["PW27"]], level=[12], trophies=[["TR15"]], phase="experience")
    do(s, "level 1")
    assert s.completed_count(0) == 1 and s.influence[0] == 3


def test_triggers_of_one_timing_resolve_character_then_assets_then_corruption() -> None:
    s = mk(characters=["CH04"], positions=["O01"], hands=[["PW27"]], assets=[["TR39"]], corruption_up=[["CR10"]],
           life=[4], phase="engagement", threats={"O01": ["TR01"]})
    do(s, "pass", "pass", "roll", "pass", dice=(1, 4))
    texts = s.log_texts()
    i1 = texts.index("P1 gains 1 influence (now 4): the Rogue Trader's ability, on winning a battle")
    i2 = texts.index("P1 gains 1 influence (now 5): the asset Warboss's Skull, on winning a battle")
    i3 = texts.index("P1 gains 1 Life (now 5): the Corruption card Leech Maw, on winning a battle")
    assert i1 < i2 < i3


def test_move_any_goes_to_another_space_of_the_tier_and_ends_the_engagement() -> None:
    s = mk(positions=["M01"], hands=[["PW27"]], phase="engagement")
    do(s, "pass", "box 1")  # Webway Portal: any space of the Middle tier
    assert legal(s) == sorted(f"to {x}" for x in D.rings["middle"] if x != "M01")
    do(s, "to M12")
    assert s.positions[0] == "M12" and turn_over(s)


def test_losing_a_card_that_raised_the_threshold_can_corrupt() -> None:
    s = mk(positions=["M14"], hands=[["PW27"]], corruption=[["CR01", "CR01", "CR02", "CR03", "CR04", "CR04"]],
           corruption_up=[["CR24"]], phase="engagement")  # Daemonic Patronage: threshold 8, seven cards
    do(s, "pass", "box 2", "yes", "purge CR24", "new", picks=("CH09",))  # six cards, threshold 6: corrupted
    assert s.characters[0] != "CH01" and s.corruption(0) == 0 and s.turn_player == 1


def test_a_game_still_running_after_400_rounds_ends_and_the_most_progress_wins() -> None:
    # With 2 players a round is 2 turns: 400 rounds are 800 turns. Turn 800, the last of round 400, is played.
    s = mk(turn=0, turn_number=799, phase="experience")
    assert not s.is_terminal() and s.turn_number == 800 and s.turn_player == 1
    # Its end ends the game. CH01 (strength 5, willpower 4, cunning 3, Life 5) holding a relic: progress
    # 5 (one relic) + 0.15 * 12 + 0.1 * 5 = 7.3; CH02 (4, 4, 6, Life 6): 0.15 * 14 + 0.1 * 6 = 2.7
    s = mk(turn=1, turn_number=800, phase="experience", assets=[["RL01"], []])
    o = s.outcome()
    assert o is not None and o.winners == (0,) and o.reason.startswith("round limit: 800 turns played")
    # The other way round: CH02 on the Inner tier (I3: 6 + 3) has 9 + 2.7 = 11.7 against 2.3
    s = mk(turn=1, turn_number=800, phase="experience", positions=["O01", "I3"])
    o = s.outcome()
    assert o is not None and o.winners == (1,) and o.scores == pytest.approx((2.3, 11.7))
    # Equal progress is a shared win
    s = mk(turn=1, turn_number=800, phase="experience", attributes=[[5, 5, 5], [5, 5, 5]], life=[8, 8])
    o = s.outcome()
    assert o is not None and o.winners == (0, 1)
    # With 3 players, 400 rounds are 1,200 turns
    s = mk(3, turn=2, turn_number=1199, phase="experience", hands=[["PW26"], [], []])
    assert not s.is_terminal() and s.turn_number == 1200 and s.turn_player == 0
    s = mk(3, turn=2, turn_number=1200, phase="experience", assets=[[], ["RL01"], []])
    o = s.outcome()
    assert o is not None and o.winners == (1,)


# -- every scenario can be won -----------------------------------------------------------------------------------
@pytest.mark.parametrize("scenario", ["SC01", "SC02", "SC03", "SC04", "SC05"])
def test_every_scenario_is_won_by_an_automaton(scenario: str) -> None:
    """Automaton games on each scenario end by a player winning it (not by the round limit or a last survivor)."""
    from wizprint.solo.runner import run_one

    results = [run_one("relic", i, 11, ["automaton"], 2, scenario) for i in range(4)]
    for r in results:
        assert r.error is None, r.error
        assert r.setting is not None and r.setting.startswith(scenario)
        assert r.outcome is not None and "wins the scenario" in r.outcome["reason"], r.outcome


def test_the_active_player_orders_abilities_with_the_same_timing_word() -> None:
    # relic.txt, Timing Language: the active player chooses the order of abilities with the same timing word.
    # Sneaky Kommandos (lose 1 Life) and Striking Scorpions (test Cunning 7, fail: lose 1 Life), both "at the start
    # of your Engagement phase"
    s = mk(positions=["O01"], hands=[["PW27"]], phase="engagement", threats={"O01": ["TR17", "TY04"]})
    assert legal(s) == ["first TR17#1", "first TY04#1"] and s.life[0] == 5
    do(s, "first TY04#1", "roll", "pass", dice=(2,))  # the Scorpions first: Cunning 3 + 2 = 5 < 7, lose 1 Life
    assert s.life[0] == 3  # ... then the Kommandos: 5 - 1 - 1 = 3
    texts = s.log_texts()
    assert texts.index("Striking Scorpions takes effect") < texts.index("Sneaky Kommandos takes effect")
    assert "pass" in legal(s)  # the Engagement phase window
    s = mk(positions=["O01"], hands=[["PW27"]], phase="engagement", threats={"O01": ["TR17", "TY04"]})
    do(s, "first TR17#1")  # the Kommandos first: 5 - 1 = 4, then the Scorpions' test
    assert s.life[0] == 4 and rolling(s, RollKind.TEST)
    # two copies of one ability: nothing to choose
    s = mk(positions=["O01"], hands=[["PW27"]], phase="engagement", threats={"O01": ["TR17", "TR17"]})
    assert s.life[0] == 3 and "pass" in legal(s)


def test_solo_checks_count_the_trait_bonuses_and_corrupted_players() -> None:
    # the events a solo check reports (share of games): every battle bonus against a trait that counted, every
    # scenario rule for enemies of a trait, and a player becoming corrupted
    s = mk(variant="SC05", characters=["CH03"], positions=["O03"], hands=[["PW27"]], assets=[["WG22#1"]],
           phase="engagement", threats={"O03": ["TB21"]})  # Nurgling Swarm: Daemon, Willpower 1
    s.stats = Stats()
    do(s, "pass", "pass", "roll", "pass", dice=(1, 3))  # 1 + 1 + 1 = 3 against 5 + 2 + 2 (Warhammer) + 3 = 12
    assert s.last.enemy == 1 + 1 + 1 and s.last.player == 5 + 2 + 2 + 3
    assert s.stats.events == {"Ordo Malleus Inquisitor's bonus against Daemon enemies": 1,
                              "Hexagrammic Warhammer's bonus against Daemon enemies": 1,
                              "SC05's special rule: Daemon enemies +1": 1}
    s = mk(characters=["CH03"], positions=["O03"], hands=[["PW27"]], assets=[["WG08"]], phase="engagement",
           threats={"O03": ["TB06"]})  # Death Guard Heavy Bolter: Chaos, Willpower 4
    s.stats = Stats()
    do(s, "pass", "pass", "roll", "pass", dice=(1, 3))
    assert s.stats.events == {"Blessed Bolter's bonus against Chaos enemies": 1}
    s = mk(positions=["I4"], hands=[["PW27"]], corruption=[["CR01", "CR02", "CR03", "CR04", "CR05"]],
           phase="engagement")  # Crone World Yllen Satari: the sixth Corruption card corrupts
    s.stats = Stats()
    do(s, "pass")
    assert s.corruption(0) == 0 and s.stats.events == {"a player is corrupted": 1}


def test_a_corrupted_player_may_lose_the_game_instead_of_starting_a_new_character() -> None:
    # relic.txt, Corrupted Players: the player may choose not to start a new character and lose the game instead
    s = mk(players=3, positions=["I4"], hands=[["PW27", "PW01"]], corruption=[["CR01", "CR02", "CR03", "CR04", "CR05"]],
           assets=[["WG03"]], influence=[7], phase="engagement", seed=3)
    box = list(s.unused_characters)
    do(s, "pass")  # Crone World: the first Corruption card drawn is the sixth: corrupted
    # no sheet dealt yet
    assert legal(s) == ["concede", "new"] and s.characters[0] == "CH01" and s.unused_characters == box
    do(s, "concede")  # eliminated: all cards and tokens discarded; the other two play on
    assert s.eliminated[0] and s.assets[0] == [] and s.hands[0] == [] and s.influence[0] == 0
    assert "WG03" in s.discards["wargear"]
    assert not s.is_terminal() and s.turn_player == 1 and s.unused_characters == box and "CH01" in s.retired_characters
    # two players: conceding leaves the other the last player standing
    s = mk(positions=["I4"], hands=[["PW27"]], corruption=[["CR01", "CR02", "CR03", "CR04", "CR05"]],
           phase="engagement")
    do(s, "pass", "concede")
    assert s.is_terminal() and s.outcome() is not None and s.outcome().winners == (1,)


# -- the terminal ------------------------------------------------------------------------------------------------
def test_the_terminal_names_rewards_abilities_boxes_and_the_board_around_the_player() -> None:
    s = mk(hands=[["PW27"]], level=[6], trophies=[["TR13"]], phase="experience")  # Deff Dread: 7 points
    labels = {a.key: s.describe(a) for a in s.legal_actions()}
    # the Ultramarine Captain's level 7 (data: an attribute of the player's choice and 1 Life), in printed words
    assert labels["level 1"] == ("spend trophies for 1 level: your cheapest worth it (level 7: Gain 1 attribute of "
                                 "your choice. Gain 1 Life.)")
    assert labels["spend TR13"] == "set the trophy TR13 Deff Dread (7 points) aside to spend"
    lines = ENGINE.view(s.observation(0))
    at = s.positions[0]
    ring = D.rings[D.spaces[at].tier]
    i = D.ring_index[at]
    assert any(ln.startswith(f" here {at}") and "(you)" in ln for ln in lines)
    assert any(ln.startswith(f"   +1 {ring[(i + 1) % len(ring)]}") for ln in lines)
    assert any(ln.startswith(f"   -4 {ring[(i - 4) % len(ring)]}") for ln in lines)
    s = mk(positions=["O07"], hands=[["PW27"]], phase="engagement")  # no Threat cards: the text boxes are offered
    do(s, "pass")
    boxes = [s.describe(a) for a in s.legal_actions() if a.kind == "box"]
    assert boxes and all(b.startswith("resolve text box ") and ":" in b and "_" not in b for b in boxes)
    assert "Roll a die. 1-2: Lose 1 Life. 3-6: Gain 2 influence." in boxes[0]
    # an icon that stands for its word is spelt out; buying Power cards names the number and the price, and what a
    # card over the power limit means (the Captain's limit is 1 at level 0; he holds 1)
    s = mk(positions=["O06"], hands=[["PW27"]], phase="engagement")  # Grey Knight Envoy; 3 influence
    do(s, "pass")
    assert s.describe(next(a for a in s.legal_actions() if a.key == "box 1")) == (
        "resolve text box 1: Draw any number of Power cards, spending 2 influence for each.")
    do(s, "box 1")
    assert [s.describe(a) for a in s.legal_actions()] == [
        "draw no Power cards", "draw 1 Power card for 2 influence (then 2 Power cards, over your limit of 1: at the "
                               "end of your turn you discard down to 1)"]
    s = mk(positions=["O06"], hands=[[]], phase="engagement")  # within the limit: nothing to say
    do(s, "box 1")
    assert s.describe(Action("buy", "1")) == "draw 1 Power card for 2 influence"


def test_on_the_inner_tier_the_view_shows_the_way_to_the_scenario_space_and_what_each_space_does() -> None:
    s = mk(variant="SC05", positions=["I2"], hands=[["PW27"]], phase="engagement")
    lines = ENGINE.view(s.observation(0))
    start = lines.index("The Inner tier, along the arrow:")
    rows = lines[start + 1:start + 8]
    assert [r.split()[0] if not r.startswith(" here") else r.split()[1] for r in rows] == [
        "I0", "I1", "I2", "I3", "I4", "I5", "C"]
    assert rows[2].startswith(" here I2") and "(you)" in rows[2] and "Test Strength 10." in rows[2]
    assert "The Daemon Unbound: Choose one." in rows[6]
