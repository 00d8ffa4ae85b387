"""Relic: the engine's rules and the project's rulings (README.md, Rulings: Relic), one or more tests each. Positions
come from the engine's ``setup``; dice are scripted (strict: an unscripted roll is an error), so every number asserted
here is worked out by hand in the comments. Unless a test says otherwise: two players, scenario SC01 (The Mystery
Beyond, no enemy bonuses), seat 0 the Ultramarine Captain (Str 5, Wil 4, Cun 3, Life 5; +1 in Strength battles, +1
to Willpower tests), seat 1 the Callidus Assassin holding one Power card (so that its turn waits for a decision)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from wizprint.errors import EngineError, IllegalActionError, UsageError
from wizprint.solo.games.relic import KINDS, RULES, VANQUISHED_SPACE, RelicAutomaton, RelicState
from wizprint.solo.games.relic.data import SEAT_COLOURS
from wizprint.solo.games.relic.effects import WORDS
from wizprint.solo.games.relic.estimates import p_beat, p_pass
from wizprint.solo.games.relic.heroes import gain, lose
from wizprint.solo.games.relic.pending import Battle, Dice, RelicPending, RollKind, SkillTest
from wizprint.solo.kernel import Chance, SaveError, Stats, engine
from wizprint.solo.kernel.rng import Rng

SCENARIOS = Path(__file__).parent / "scenarios"
ENGINE = engine("relic")
D = ENGINE.data


def new_state(players: int, seed: int, variant: str = "") -> RelicState:
    s = ENGINE.new_state(players, seed, variant)
    assert isinstance(s, RelicState)
    return s


def mk(players: int = 2, seed: int = 1, variant: str = "SC01", **table: Any) -> RelicState:
    table.setdefault("missions", ["MS14", "MS15", "MS16", "MS22"][:players])
    hands = list(table.get("hands", []))
    while len(hands) < players:
        hands.append(["PW26"] if len(hands) == 1 else [])
    table["hands"] = hands
    s = ENGINE.setup(table, players, seed, variant, Chance(strict=True))
    assert isinstance(s, RelicState)
    return s


def do(s: RelicState, *keys: str, dice: tuple[int, ...] = (), picks: tuple[str, ...] = ()) -> None:
    s.script(dice=dice, picks=picks)
    for k in keys:
        s.apply_key(k)


def legal(s: RelicState) -> list[str]:
    return sorted(a.key for a in s.legal_actions())


def said(s: RelicState, text: str) -> bool:
    return any(text in e.text for e in s.log)


def rolling(s: RelicState, context: RollKind) -> bool:
    """The seat is about to roll its dice for ``context``."""
    f = s.pending
    return isinstance(f, Dice) and f.context == context


def skill_test(s: RelicState) -> SkillTest:
    """The skill test the turn player is rolling for."""
    f = s.nearest(SkillTest, s.turn_player)
    assert f is not None
    return f


def battle(s: RelicState) -> Battle:
    f = s.pending
    assert isinstance(f, Battle)
    return f


# -- set-up ---------------------------------------------------------------------------------------------------
def test_setup_deals_two_sheets_and_the_choice_is_secret_and_simultaneous() -> None:
    s = new_state(3, 11)
    assert s.phase == "select" and s.current_player == 0
    dealt = [s.observation(i)["dealt"] for i in range(3)]
    assert all(len(d) == 2 for d in dealt) and len({c for d in dealt for c in d}) == 6
    assert legal(s) == sorted(f"pick {c}" for c in dealt[0])
    s.apply_key(f"pick {dealt[0][1]}")
    assert s.current_player == 1
    assert s.observation(1)["choices"] == {"0": "committed", "1": None, "2": None}
    assert s.observation(0)["choices"]["0"] == dealt[0][1]
    assert s.characters == ["", "", ""]  # nothing is revealed before everybody has chosen
    s.apply_key(f"pick {dealt[1][0]}")
    s.apply_key(f"pick {dealt[2][0]}")
    picks = [dealt[0][1], dealt[1][0], dealt[2][0]]
    assert s.characters == picks
    # unused sheets, dealt or not, go back
    assert sorted(s.unused_characters) == sorted(set(D.character_ids) - set(picks))
    for i, ch in enumerate(picks):
        c = D.characters[ch]
        obs = s.observation(0)["table"][i]
        assert obs["colour"] == SEAT_COLOURS[i]
        assert s.positions[i] == c.start and tuple(s.attributes[i]) == c.attributes and s.life[i] == c.life
        assert s.influence[i] == 3 and s.level[i] == 0
        assert len(s.hands[i]) == c.power_limits[0][2]  # the power limit under "Start"
        assert s.missions[i]
        obj = D.cards[s.missions[i]].objective
        if obj.word == "objective_tokens":
            assert s.objective_tokens[i] == list(obj["spaces"])
    assert s.turn_player == 0 and s.turn_number == 1  # the oldest player (seat 0) begins


def test_scenario_is_the_variant_or_chosen_by_the_seeded_rng() -> None:
    assert new_state(2, 1, "SC04").scenario == "SC04"
    assert len({new_state(2, seed).scenario for seed in range(20)}) > 2
    assert new_state(2, 5).scenario == new_state(2, 5).scenario
    with pytest.raises(UsageError):
        new_state(2, 1, "SC99")
    with pytest.raises(EngineError):
        RelicState.new(D, 2, 1, "SC99")


# -- movement -------------------------------------------------------------------------------------------------
def test_roll_one_die_and_move_exactly_that_far_in_either_direction() -> None:
    s = mk(positions=["O03"], hands=[["PW27"]], phase="movement")
    assert "roll" in legal(s) and "number PW27#1" in legal(s)
    do(s, "roll", "pass", dice=(3,))
    assert legal(s) == ["acw", "cw"]
    do(s, "cw")  # O03 + 3 clockwise = O06, the Grey Knight Envoy (no threat icons)
    assert s.positions[0] == "O06" and s.phase == "engagement"
    s = mk(positions=["O09"], hands=[["PW27"]], phase="movement")
    do(s, "roll", "pass", "acw", dice=(3,))
    assert s.positions[0] == "O06"


def test_a_power_number_replaces_the_movement_roll() -> None:
    s = mk(positions=["O02"], hands=[["PW15"]], phase="movement")  # Forced March: number 4
    do(s, "number PW15#1", "cw")  # no die is rolled (strict)
    assert s.positions[0] == "O06" and s.discards["power"] == ["PW15#1"] and s.hands[0] == []


def test_movement_dice_roll_several_and_keep_one() -> None:
    s = mk(characters=["CH04"], positions=["O03"], hands=[["PW27"]], phase="movement")  # Rogue Trader: 2 dice
    do(s, "roll", "pass", dice=(5, 3))
    assert legal(s) == ["move 3", "move 5"]
    do(s, "move 3", "cw")
    assert s.positions[0] == "O06"


def test_space_hulk_movement_box_jump_then_change_direction() -> None:
    # the rulebook's example: from The Haunted Cluster, 3 anticlockwise: Space Hulk, jump to the Webway Portal,
    # turn clockwise, Foothills of Liliath
    s = mk(positions=["M09"], hands=[["PW27"]], phase="movement", decks={"yellow": ["TY27", "TY27"]})
    do(s, "roll", "pass", "acw", dice=(3,))
    assert s.positions[0] == "M08" and legal(s) == ["jump", "pass"]
    do(s, "jump")
    assert s.positions[0] == "M01" and legal(s) == ["acw", "cw"]  # the direction may change
    do(s, "cw")
    assert s.positions[0] == "M02" and said(s, "spends a movement point to move to Webway Portal")


def test_a_movement_box_may_be_resolved_at_the_start_of_the_movement_phase() -> None:
    s = mk(positions=["M08"], hands=[["PW27"]], phase="movement")
    do(s, "roll", "pass", dice=(2,))
    assert legal(s) == ["jump", "pass"]
    do(s, "jump", "acw")  # 1 point to the Webway Portal, 1 anticlockwise
    assert s.positions[0] == "M00"


def test_the_guardian_of_the_rift_leads_a_player_with_a_relic_onto_the_warp_rift() -> None:
    # without a relic: the box asks nothing
    s = mk(positions=["M11"], hands=[["PW27"]], phase="movement")
    do(s, "roll", "pass", "cw", dice=(1,))
    assert s.positions[0] == "M12"
    # with a relic, passing through: the Movement phase ends on the Warp Rift; SC01 draws a Corruption card
    s = mk(positions=["M10"], hands=[["PW27"]], assets=[["RL01"]], phase="movement",
           decks={"corruption": ["CR04"]})
    do(s, "roll", "pass", "cw", dice=(4,))
    assert s.positions[0] == "M12" and legal(s) == ["pass", "rift"]
    do(s, "rift")
    assert said(s, "enters the Inner tier: Warp Rift") and s.corruption_face_down[0] == ["CR04#1"]
    # the Engagement phase on the Warp Rift: skip 1 (level 0, 3 influence, 1 relic) to the Sea of Whispering Souls
    assert s.positions[0] == "I0"
    do(s, "pass")
    assert s.positions[0] == "I1" and rolling(s, RollKind.TEST)
    # at the start of the Movement phase on the Guardian's space, without rolling
    s = mk(positions=["M12"], hands=[["PW27"]], assets=[["RL01"]], phase="movement")
    assert "rift" in legal(s)


def test_inner_tier_one_space_along_the_arrow_and_no_movement_on_the_scenario_space() -> None:
    s = mk(positions=["I1"], hands=[["PW27"]], phase="movement")
    assert s.positions[0] == "I2" and not said(s, "rolls movement")  # no roll
    do(s, "pass")
    assert rolling(s, RollKind.TEST)  # the box (a test) is mandatory
    s = mk(positions=["C"], hands=[["PW27"]], phase="movement")
    do(s, "pass")
    assert s.positions[0] == "C" and legal(s) == ["option 1", "option 2", "option 3"]  # the confrontation


def test_twisted_gait_lowers_the_movement_score_but_a_player_always_moves() -> None:
    s = mk(positions=["O03"], corruption_up=[["CR06"]], hands=[["PW27"]], phase="movement")
    do(s, "roll", "pass", dice=(4,))
    assert said(s, "movement score is 3")
    do(s, "cw")
    assert s.positions[0] == "O06"
    s = mk(positions=["O05"], corruption_up=[["CR06"]], hands=[["PW27"]], phase="movement")
    do(s, "roll", "pass", "cw", dice=(1,))  # 1 - 1 = 0: the score is at least 1 (ruling)
    assert s.positions[0] == "O06"


def test_forced_march_moves_up_to_two_more_spaces_at_the_end() -> None:
    s = mk(positions=["O02"], hands=[["PW15", "PW27"]], phase="movement")
    assert "play PW15#1" not in legal(s)  # before the roll there is no direction for "the same direction"
    do(s, "roll", "pass", "cw", dice=(2,))
    assert s.positions[0] == "O04" and legal(s) == ["play PW15#1", "stop"]
    do(s, "play PW15#1")
    assert legal(s) == ["more", "stop"]
    do(s, "more", "more")
    assert s.positions[0] == "O06"
    s = mk(positions=["O02"], hands=[["PW15", "PW27"]], phase="movement")
    do(s, "roll", "pass", "cw", "stop", dice=(2,))  # declined: the card stays in hand, the move ends on O04
    assert s.positions[0] == "O04" and "PW15#1" in s.hands[0] and s.turn_player == 0


def test_reroll_a_movement_die() -> None:
    s = mk(positions=["O02"], hands=[["PW11", "PW27"]], phase="movement")  # Fate's Favour: reroll, any time
    do(s, "roll", dice=(1,))
    assert "reroll PW11#1 0" in legal(s)
    do(s, "reroll PW11#1 0", dice=(4,))
    do(s, "pass", "cw")
    assert s.positions[0] == "O06"


# -- exploration ----------------------------------------------------------------------------------------------
def test_threat_icons_on_drawn_cards_draw_more_cards() -> None:
    s = mk(positions=["O01"], hands=[["PW27"]], phase="exploration", decks={"red": ["TR03", "TR01", "TR02"]})
    # Hab-Stack Tertius: one red icon; the Snotling Swarm drawn shows another red icon: one more card
    assert sorted(s.board["O01"]) == ["TR01#1", "TR03#1"] and s.decks["red"][-1] == "TR02#1"


def test_no_threat_cards_in_the_inner_tier() -> None:
    s = mk(positions=["I2"], hands=[["PW27"]], phase="exploration")
    assert "I2" not in s.board


def test_an_exhausted_deck_is_the_shuffled_discard_pile_and_nothing_when_both_are_empty() -> None:
    s = mk(hands=[["PW27"]], phase="movement")
    s.discards["red"].extend(s.decks["red"])
    s.decks["red"] = []
    x = s.take_top("red")
    assert x and s.discards["red"] == [] and len(s.decks["red"]) == 67
    s.discards["red"].extend(s.decks["red"] + [x])
    s.decks["red"] = []
    s.discards["red"] = []
    assert s.take_top("red") == ""


# -- engagement -----------------------------------------------------------------------------------------------
def test_events_then_battles_then_encounters_then_assets() -> None:
    s = mk(positions=["O01"], hands=[["PW27"]], phase="engagement",
           threats={"O01": ["TR31", "TR36", "TR01", "TR24"]})  # encounter, asset, enemy, event
    do(s, "pass")  # the event first: Scrap Salvage, +2 influence, discarded; then the battle
    assert s.influence[0] == 5 and "TR24" in s.discards["red"]
    do(s, "pass", "roll", "pass", dice=(1, 3))  # Gretchin 1 + 1 = 2; Captain 5 + 1 + 3 = 9
    assert s.trophies[0] == ["TR01#1"]
    assert legal(s) == ["no", "yes"]  # the Grot Trader encounter: pay 2 for 2 Life
    do(s, "yes")
    assert s.influence[0] == 3 and s.life[0] == 7  # the Captain starts with 5 Life
    assert s.assets[0] == ["TR36#1"]  # the asset is taken last
    assert s.board["O01"] == ["TR31"] and s.phase == "experience"  # the encounter stays


def test_choose_one_boxes_are_optional_and_a_single_box_is_mandatory() -> None:
    s = mk(positions=["O03"], hands=[["PW27"]], phase="engagement")
    do(s, "pass")
    assert legal(s) == ["box 1", "box 2", "end"]
    do(s, "box 2")
    assert s.influence[0] == 4
    s = mk(positions=["O03"], hands=[["PW27"]], phase="engagement")
    do(s, "pass", "end")
    assert s.influence[0] == 3 and s.phase == "experience"
    s = mk(positions=["O05"], hands=[["PW27"]], phase="engagement")  # Cult Warrens: one box, a test
    do(s, "pass")
    assert rolling(s, RollKind.TEST)


def test_crossing_costs_influence_and_ends_the_engagement_phase() -> None:
    s = mk(positions=["O00"], hands=[["PW27"]], phase="engagement")
    do(s, "pass", "box 2")
    assert s.positions[0] == "M00" and s.influence[0] == 1 and s.phase == "experience"  # nothing on M00 is resolved
    s = mk(positions=["O00"], hands=[["PW27"]], influence=[1], phase="engagement")
    do(s, "pass")
    assert legal(s) == ["box 1", "end"]  # cannot pay 2 to cross


def test_special_timing_at_the_start_of_the_engagement_and_end_of_the_exploration() -> None:
    s = mk(positions=["O01"], hands=[["PW27"]], phase="engagement", threats={"O01": ["TR17"]})
    assert s.life[0] == 4  # Sneaky Kommandos: lose 1 Life at the start of the Engagement phase ...
    do(s, "pass")
    assert isinstance(s.pending, Battle)  # ... and is still battled
    s = mk(positions=["O19"], hands=[["PW27"]], phase="exploration", threats={"O19": ["TY22"]})
    assert s.life[0] == 4  # Eldar Pathfinder: lose 1 Life at the end of the Exploration phase (5 to start)


def test_ignoring_events_leaves_them_on_the_space() -> None:
    s = mk(characters=["CH03"], positions=["O01"], hands=[["PW27"]], phase="engagement", threats={"O01": ["TR24"]})
    do(s, "pass")
    assert legal(s) == ["event TR24", "ignore TR24"]
    do(s, "ignore TR24")
    assert s.board["O01"] == ["TR24"] and s.influence[0] == 3


def test_an_encounter_that_says_stays_leave_is_discarded_after_it_resolves() -> None:
    s = mk(positions=["O01"], hands=[["PW27"]], phase="engagement", threats={"O01": ["TR35"]})
    do(s, "pass", dice=(3,))  # Looted Supply Dump: 3 -> +1 influence
    assert s.influence[0] == 4 and "O01" not in s.board and s.discards["red"] == ["TR35"]


def test_a_box_that_draws_a_threat_card_resolves_it_at_once() -> None:
    s = mk(positions=["O01"], hands=[["PW27"]], phase="engagement", decks={"red": ["TR24"]})
    do(s, "pass", "box 2")  # Hab-Stack Tertius, box 2: draw 1 red and resolve it: Scrap Salvage
    assert s.influence[0] == 5 and s.discards["red"] == ["TR24"]


def test_evading_enemies_and_cannot_overrides_it() -> None:
    s = mk(characters=["CH02"], positions=["O01"], hands=[["PW27"]], phase="engagement", threats={"O01": ["TR08"]})
    do(s, "pass")
    assert legal(s) == ["evade TR08#1", "fight strength"]
    do(s, "evade TR08#1")
    assert s.board["O01"] == ["TR08#1"] and s.phase == "experience" and s.life[0] == 6
    # Blood Rage: the Callidus Assassin cannot evade, despite her ability (relic.txt, Cannot)
    s = mk(characters=["CH02"], positions=["O01"], hands=[["PW27"]], corruption_up=[["CR18"]], phase="engagement",
           threats={"O01": ["TR08"]})
    do(s, "pass")
    assert isinstance(s.pending, Battle)
    # a Power card that evades is played in the Engagement phase
    s = mk(positions=["O01"], hands=[["PW08"]], phase="engagement", threats={"O01": ["TR08"]})
    assert legal(s) == ["evade TR08#1 PW08", "pass"]
    do(s, "evade TR08#1 PW08")  # no battle; the turn goes on (and ends: nothing else to decide)
    assert s.board["O01"] == ["TR08#1"] and s.life[0] == 5 and s.turn_player == 1 and said(s, "to evade TR08#1 Ork Nob")


def test_the_callidus_assassin_evades_one_enemy_each_turn() -> None:
    # her sheet: may_evade with per_turn = 1; the second enemy must be battled, and the limit is new each turn
    s = mk(characters=["CH02"], positions=["O09"], hands=[["PW21"]], phase="engagement",
           threats={"O09": ["TR08", "TB09"]})
    do(s, "pass")
    assert legal(s) == ["evade TB09#1", "evade TR08#1", "fight strength", "fight willpower"]
    do(s, "evade TR08#1")  # the Willpower battle is all that is left: it starts at once
    assert s.evade_uses == ["CH02"] and isinstance(s.pending, Battle) and s.pending.foes == ("TB09#1",)
    assert "evade TB09#1" not in legal(s)
    s.stack = []
    s.start_turn(1)
    assert s.turn_player == 0 and s.evade_uses == [] and s.evaded == []
    # an ability without a limit is used first: the Cameleoline Shroud (value 4 or less) takes the Ork Nob
    s = mk(characters=["CH02"], positions=["O09"], hands=[["PW21"]], assets=[["WG18"]], phase="engagement",
           threats={"O09": ["TR08", "TB14"]})
    do(s, "pass", "evade TR08#1")
    assert s.evade_uses == [] and said(s, "evades TR08#1 Ork Nob (WG18 Cameleoline Shroud)")
    do(s, "evade TB14")  # the Hive Tyrant (value 8): only her own evasion of the turn can do it
    assert s.evade_uses == ["CH02"] and s.evaded == ["TR08#1", "TB14"] and s.phase == "experience"


def test_objectives_attempted_instead_of_the_engagement() -> None:
    # Feat of Arms: Strength 10 in the Outer tier; 5 + 5 = 10 passes; reward +1 Strength, +1 influence
    s = mk(positions=["O03"], hands=[["PW27"]], missions=["MS20", "MS15"], phase="engagement")
    assert "objective" in legal(s)
    do(s, "objective", "roll", "pass", dice=(5,))
    assert s.missions[0] == "" and s.completed[0] == ["MS20"] and s.attributes[0][0] == 6 and s.influence[0] == 4
    # Court the Envoy: spend 4 influence on the Grey Knight Envoy; reward 2 Power cards
    s = mk(positions=["O06"], influence=[4], missions=["MS19", "MS15"], phase="engagement")
    do(s, "objective")
    assert s.influence[0] == 0 and s.completed[0] == ["MS19"] and len(s.hands[0]) == 2


# -- battles --------------------------------------------------------------------------------------------------
def test_enemies_of_one_attribute_fight_together_others_separately_in_the_players_order() -> None:
    s = mk(positions=["O09"], hands=[["PW27"]], phase="engagement", threats={"O09": ["TR01", "TR02", "TB01"]})
    do(s, "pass")
    assert legal(s) == ["fight strength", "fight willpower"]
    do(s, "fight willpower")
    assert battle(s).foes == ("TB01#1",)
    do(s, "pass", "roll", "pass", dice=(1, 2))  # Willpower 4 + 2 = 6 against 1 + 1 = 2
    assert s.trophies[0] == ["TB01#1"] and battle(s).foes == ("TR01#1", "TR02#1")
    assert said(s, "battles Blood Axe Gretchin, Goff Boyz (Strength 3)")


def test_the_enemy_roll_explodes_and_enemy_dice_add_dice() -> None:
    s = mk(positions=["O01"], hands=[["PW27"]], phase="engagement", threats={"O01": ["TR12"]})  # Killa Kan: +1 die
    do(s, "pass", "pass", "roll", "pass", dice=(6, 2, 3, 4))  # enemy 6 + 2 + 3 (the 6 explodes) = 11
    assert s.last.enemy_roll == 11 and s.last.enemy == 15 and s.last.player == 10


def test_an_extra_battle_die_is_rolled_with_the_first() -> None:
    s = mk(positions=["O01"], hands=[["PW27"]], corruption_up=[["CR20"]], phase="engagement",
           threats={"O01": ["TR01"]})  # Daemonic Vigour
    do(s, "pass", "pass", "roll", "pass", dice=(1, 2, 3))
    assert s.last.roll == 5 and s.last.player == 11


def test_power_numbers_replace_the_battle_roll_and_exploding_dice() -> None:
    s = mk(positions=["O01"], hands=[["PW27", "PW26", "PW01"]], phase="engagement", threats={"O01": ["TR08"]})
    do(s, "pass", "pass", "number PW27#1", dice=(2,))  # 6: it explodes
    do(s, "pass")
    assert "number PW26#1" in legal(s)
    do(s, "number PW26#1")  # another 6: it explodes again
    do(s, "roll", dice=(1,))
    assert s.last.roll == 13 and s.last.player == 19


def test_only_one_weapon_and_one_armour_count_the_player_chooses() -> None:
    s = mk(positions=["O01"], hands=[["PW27"]], phase="engagement", threats={"O01": ["TR01"]},
           assets=[["WG03", "WG05", "WG09", "WG10"]])
    do(s, "pass")
    f = battle(s)
    assert (f.weapon, f.armour) == ("WG05", "WG09")  # the best by default: Power Fist +3, Flak Vest +1
    assert s.battle_bonus(f) == 5 + 1 + 3 + 1
    do(s, "weapon WG03#1")
    assert s.battle_bonus(f) == 5 + 1 + 2 + 1


def test_the_last_charge_discards_the_card() -> None:
    s = mk(positions=["O01"], hands=[["PW27"]], phase="engagement", threats={"O01": ["TR01"]}, assets=[["WG02"]],
           charges={"WG02": 1})
    do(s, "pass", "charge WG02#1")
    assert s.assets[0] == [] and s.discards["wargear"] == ["WG02#1"] and "WG02#1" not in s.charges
    assert battle(s).bonus == 4


def test_enemy_bonus_per_power_card_is_counted_at_step_five() -> None:
    # Shadowseer: Cunning 4, +1 for each Power card; the card played for the roll no longer counts
    s = mk(positions=["O02"], hands=[["PW27", "PW26", "PW01"]], phase="engagement", threats={"O02": ["TY23"]})
    do(s, "pass", "pass", "number PW01#1", "pass", dice=(2,))
    assert s.last.enemy == 4 + 2 + 2 and s.last.player == 3 + 1


def test_winning_resolves_on_defeat_then_takes_trophies() -> None:
    s = mk(positions=["O01"], hands=[["PW27"]], phase="engagement", threats={"O01": ["TR05"]})  # Lootas: +1 infl.
    do(s, "pass", "pass", "roll", "pass", dice=(1, 4))
    assert s.influence[0] == 4 and s.trophies[0] == ["TR05#1"] and "O01" not in s.board


def test_a_tie_ends_the_engagement_and_the_enemy_stays() -> None:
    s = mk(positions=["O01"], hands=[["PW27"]], phase="engagement", threats={"O01": ["TR01", "TR31"]})
    do(s, "pass", "pass", "roll", "pass", dice=(6, 1, 2))  # 1 + 7 = 8 against 5 + 1 + 2 = 8
    assert s.last.result == 0 and s.life[0] == 5 and sorted(s.board["O01"]) == ["TR01#1", "TR31"]
    assert s.phase == "experience"  # the Grot Trader encounter was not resolved


def test_scenario_enemy_bonus_and_trait_bonuses() -> None:
    # The Green Tide: Orks +1; the Regimental Commissar: +1 against Orks
    s = mk(variant="SC03", characters=["CH07"], positions=["O01"], hands=[["PW27"]], phase="engagement",
           threats={"O01": ["TR01"]})
    do(s, "pass", "pass", "roll", "pass", dice=(2, 2))
    assert s.last.enemy == 1 + 1 + 2 and s.last.player == 4 + 1 + 2


def test_a_text_box_battle_has_no_trophy_and_losing_costs_one_life() -> None:
    s = mk(positions=["M11"], hands=[["PW27"]], phase="engagement")  # Bastion Line Varrus: Willpower 8
    do(s, "pass", "box 2", "pass", "roll", "pass", "roll", dice=(1, 6, 1))  # 8 + 1 = 9 against 4 + 6 + 1 = 11
    assert s.influence[0] == 6 and s.trophies[0] == []
    s = mk(positions=["M11"], hands=[["PW27"]], phase="engagement")
    do(s, "pass", "box 2", "pass", "roll", "pass", dice=(3, 2))  # 11 against 6
    assert s.life[0] == 4 and s.influence[0] == 3 and s.phase == "experience"


def test_when_you_win_a_battle_triggers() -> None:
    s = mk(characters=["CH04"], positions=["O01"], hands=[["PW27"]], phase="engagement", threats={"O01": ["TR01"]})
    do(s, "pass", "pass", "roll", "pass", dice=(1, 4))
    assert s.influence[0] == 4  # the Rogue Trader: +1 influence when she wins a battle


# -- skill tests ----------------------------------------------------------------------------------------------
def test_a_natural_one_fails_a_six_explodes_and_skill_bonuses_add() -> None:
    s = mk(positions=["O03"], attributes=[[5, 12, 3]], hands=[["PW27"]], phase="engagement")
    do(s, "pass", "box 1", "roll", "pass", dice=(1,))  # 12 + 1 + 1 >= 8, but a natural 1 fails
    assert s.last.result == -1 and s.influence[0] == 2
    s = mk(positions=["O03"], attributes=[[5, 1, 3]], hands=[["PW27"]], phase="engagement")
    do(s, "pass", "box 1", "roll", "pass", "roll", dice=(6, 1))  # 1 + 1 (Captain) + 6 + 1 = 9 >= 8
    assert s.last.result == 1 and s.last.score == 9 and s.attributes[0][1] == 2


def test_extra_test_dice_fail_only_when_every_die_shows_one() -> None:
    s = mk(positions=["O03"], assets=[["WG19"]], hands=[["PW27"]], phase="engagement")  # Servo-Skull: +1 die
    do(s, "pass", "box 1", "roll", "pass", dice=(1, 1))
    assert s.last.result == -1
    s = mk(positions=["O03"], assets=[["WG19"]], hands=[["PW27"]], phase="engagement")
    do(s, "pass", "box 1", "roll", "pass", dice=(1, 2))  # 4 + 1 + 3 = 8
    assert s.last.result == 1


def test_a_power_card_adds_to_a_test_and_a_number_replaces_its_roll() -> None:
    s = mk(positions=["O03"], hands=[["PW07", "PW27"]], phase="engagement")  # Psychic Ward: +3 to a test
    do(s, "pass", "box 1", "play PW07", "roll", "pass", dice=(2,))  # 4 + 1 + 3 + 2 = 10
    assert s.last.score == 10
    s = mk(positions=["O03"], hands=[["PW27"]], phase="engagement")
    do(s, "pass", "box 1", "number PW27#1", dice=(1,))  # 6 explodes: + 1 = 7; 4 + 1 + 7 = 12
    assert s.last.score == 12 and s.last.result == 1


def test_each_player_effects_ask_each_player_in_turn() -> None:
    s = mk(positions=["O03"], hands=[["PW27"]], phase="engagement", threats={"O03": ["TB24"]})  # Spore Cloud
    do(s, "pass", "roll", "pass", dice=(3,))  # seat 0 tests Strength 6: 5 + 3 = 8
    assert s.current_player == 1  # seat 1 decides its own test
    do(s, "roll", "pass", dice=(1,))  # natural 1: seat 1 (the Callidus Assassin, 6 Life) loses 1 Life
    assert s.life[1] == 5 and s.life[0] == 5


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
    do(s, "end")
    assert s.missions[0] == "MS07"
    s = mk(positions=["O18"], hands=[["PW27"]], phase="engagement", decks={"mission": ["MS08"]})
    do(s, "pass", "box 1")  # Freeport Kastellon: draw a Mission; the active MS14 is there already
    assert legal(s) == ["mission MS08", "mission MS14"]
    do(s, "mission MS08")
    assert s.missions[0] == "MS08" and s.objective_tokens[0] == ["O01", "O04"] and s.discards["mission"] == ["MS14"]


def test_discard_down_to_the_power_and_asset_limits_at_the_end_of_the_experience_phase() -> None:
    s = mk(characters=["CH02"], hands=[["PW27", "PW26", "PW01"]],
           assets=[["WG03", "WG04", "WG09", "WG14", "WG15"]], phase="experience")
    do(s, "end")
    assert sorted(legal(s)) == ["discard PW01#1", "discard PW26#1", "discard PW27#1"]  # limit 1 at level 0
    do(s, "discard PW01#1", "discard PW26#1")
    assert legal(s) == ["discard WG03#1", "discard WG04", "discard WG09", "discard WG14", "discard WG15"]  # limit 4
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
    assert s.assets[0] == ["WG03#1"] and s.turn_player == 1  # assets kept; the turn ended
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
    assert s.phase == "experience" and s.revealed == []


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
    do(s, "end")
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
    texts = [e.text for e in s.log]
    i1 = texts.index("P1 gains 1 influence (now 4): the Rogue Trader's ability, on winning a battle")
    i2 = texts.index("P1 gains 1 influence (now 5): the asset Warboss's Skull, on winning a battle")
    i3 = texts.index("P1 gains 1 Life (now 5): the Corruption card Leech Maw, on winning a battle")
    assert i1 < i2 < i3


def test_move_any_goes_to_another_space_of_the_tier_and_ends_the_engagement() -> None:
    s = mk(positions=["M01"], hands=[["PW27"]], phase="engagement")
    do(s, "pass", "box 1")  # Webway Portal: any space of the Middle tier
    assert legal(s) == sorted(f"to {x}" for x in D.rings["middle"] if x != "M01")
    do(s, "to M12")
    assert s.positions[0] == "M12" and s.phase == "experience"


def test_losing_a_card_that_raised_the_threshold_can_corrupt() -> None:
    s = mk(positions=["M14"], hands=[["PW27"]], corruption=[["CR01", "CR01", "CR02", "CR03", "CR04", "CR04"]],
           corruption_up=[["CR24"]], phase="engagement")  # Daemonic Patronage: threshold 8, seven cards
    do(s, "pass", "box 2", "yes", "purge CR24", "new", picks=("CH09",))  # six cards, threshold 6: corrupted
    assert s.characters[0] != "CH01" and s.corruption(0) == 0 and s.turn_player == 1


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
    texts = [e.text for e in s.log]
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
    s = mk(variant="SC05", characters=["CH03"], positions=["O03"], hands=[["PW27"]], assets=[["RL17", "WG08"]],
           phase="engagement", threats={"O03": ["TB21"]})  # Nurgling Swarm: Daemon, Willpower 1
    s.stats = Stats()
    do(s, "pass", "pass", "roll", "pass", dice=(1, 3))  # 1 + 1 + 1 = 3 against 5 + 2 + 1 (Bolter) + 2 + 3 = 13
    assert s.last.enemy == 1 + 1 + 1 and s.last.player == 5 + 2 + 1 + 2 + 3
    assert s.stats.events == {"Ordo Malleus Inquisitor's bonus against Daemon enemies": 1,
                              "Thunder Maul of Sanctus's bonus against Daemon enemies": 1,
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
    assert "WG03#1" in s.discards["wargear"]
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
    # an icon that stands for its word is spelt out; buying Power cards names the number and the price
    s = mk(positions=["O06"], hands=[["PW27"]], phase="engagement")  # Grey Knight Envoy; 3 influence
    do(s, "pass")
    assert s.describe(next(a for a in s.legal_actions() if a.key == "box 1")) == (
        "resolve text box 1: Draw any number of Power cards, spending 2 influence for each.")
    do(s, "box 1")
    assert [s.describe(a) for a in s.legal_actions()] == ["draw no Power cards",
                                                          "draw 1 Power card for 2 influence"]


def test_on_the_inner_tier_the_view_shows_the_way_to_the_scenario_space_and_what_each_space_does() -> None:
    s = mk(variant="SC05", positions=["I2"], hands=[["PW27"]], phase="engagement")
    lines = ENGINE.view(s.observation(0))
    start = lines.index("The Inner tier, along the arrow:")
    rows = lines[start + 1:start + 8]
    assert [r.split()[0] if not r.startswith(" here") else r.split()[1] for r in rows] == [
        "I0", "I1", "I2", "I3", "I4", "I5", "C"]
    assert rows[2].startswith(" here I2") and "(you)" in rows[2] and "Test Strength 10." in rows[2]
    assert "The Daemon Unbound: Choose one." in rows[6]
