"""Relic: the engine's rules and the project's rulings (docs/rulings/relic.md), one or more tests each. Positions
come from the engine's ``setup``; dice are scripted (strict: an unscripted roll is an error), so every number asserted
here is worked out by hand in the comments. Unless a test says otherwise: two players, scenario SC01 (The Mystery
Beyond, no enemy bonuses), seat 0 the Ultramarine Captain (Str 5, Wil 4, Cun 3, Life 5; +1 in Strength battles, +1
to Willpower tests), seat 1 the Callidus Assassin holding one Power card (so that its turn waits for a decision)."""

from __future__ import annotations

from typing import Any

import pytest
from relic_helpers import D, battle, do, legal, mk, new_state, rolling, said, turn_over

from wizprint.errors import EngineError, UsageError
from wizprint.solo.games.relic import RelicState
from wizprint.solo.games.relic.data import SEAT_COLOURS
from wizprint.solo.games.relic.pending import Battle, RollKind


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
    assert s.positions[0] == "I2" and not said(s, "for movement")  # no roll
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
    assert s.board["O01"] == ["TR31"] and turn_over(s)  # the encounter stays


def test_choose_one_boxes_are_optional_and_a_single_box_is_mandatory() -> None:
    s = mk(positions=["O03"], hands=[["PW27"]], phase="engagement")
    do(s, "pass")
    assert legal(s) == ["box 1", "box 2", "end"]
    do(s, "box 2")
    assert s.influence[0] == 4
    s = mk(positions=["O03"], hands=[["PW27"]], phase="engagement")
    do(s, "pass", "end")
    assert s.influence[0] == 3 and turn_over(s)
    s = mk(positions=["O05"], hands=[["PW27"]], phase="engagement")  # Cult Warrens: one box, a test
    do(s, "pass")
    assert rolling(s, RollKind.TEST)


def test_crossing_costs_influence_and_ends_the_engagement_phase() -> None:
    s = mk(positions=["O00"], hands=[["PW27"]], phase="engagement")
    do(s, "pass", "box 2")
    assert s.positions[0] == "M00" and s.influence[0] == 1 and turn_over(s)  # nothing on M00 is resolved
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
    assert s.board["O01"] == ["TR08#1"] and turn_over(s) and s.life[0] == 6
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
    s = mk(characters=["CH02"], positions=["O09"], hands=[["PW21", "PW05"]], assets=[["WG18"]], phase="engagement",
           threats={"O09": ["TR08", "TB14"]})  # Moment of Clarity: the Experience phase asks, and the turn waits there
    do(s, "pass", "evade TR08#1")
    assert s.evade_uses == [] and said(s, "evades TR08#1 Ork Nob (WG18 Cameleoline Shroud)")
    do(s, "evade TB14")  # the Hive Tyrant (value 8): only her own evasion of the turn can do it
    assert s.evade_uses == ["CH02"] and s.evaded == ["TR08#1", "TB14"] and s.phase == "experience"


def test_objectives_attempted_instead_of_the_engagement() -> None:
    # Feat of Arms: Strength 10 in the Outer tier; 5 + 5 = 10 passes; reward +1 Strength, +1 influence
    s = mk(positions=["O03"], hands=[["PW27"]], missions=["MS20", "MS15"], phase="engagement")
    assert "objective" in legal(s)
    do(s, "objective", "roll", "pass", dice=(5,))
    assert s.completed[0] == ["MS20"] and s.attributes[0][0] == 6 and s.influence[0] == 4
    assert s.missions[0] not in ("", "MS20")  # a new mission is drawn in the Experience phase
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
    do(s, "weapon WG03")
    assert s.battle_bonus(f) == 5 + 1 + 2 + 1


def test_the_last_charge_discards_the_card() -> None:
    s = mk(positions=["O01"], hands=[["PW27"]], phase="engagement", threats={"O01": ["TR01"]}, assets=[["WG02"]],
           charges={"WG02": 1})
    do(s, "pass", "charge WG02")
    assert s.assets[0] == [] and s.discards["wargear"] == ["WG02"] and "WG02" not in s.charges
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
    assert turn_over(s)  # the Grot Trader encounter was not resolved


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
    assert s.life[0] == 4 and s.influence[0] == 3 and turn_over(s)


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


def test_the_evaluation_grows_with_relics_the_inner_tier_and_the_centre() -> None:
    """What a cut-short search playout is scored by: from -1 to 1, one seat's gain the other's loss, higher for a seat
    that holds a relic, stands on the Inner tier, or stands at the centre with a scenario token."""
    from wizprint.solo.games.relic import evaluate

    base: dict[str, Any] = {"positions": ["O01", "O13"], "phase": "movement", "hands": [["PW27"]]}
    s = mk(**base)
    ev = evaluate(s)
    assert all(-1.0 < v < 1.0 for v in ev) and abs(ev[0] + ev[1]) < 1e-9
    relic = mk(**{**base, "assets": [["RL01"], []]})
    inner = mk(**{**base, "positions": ["I2", "O13"]})
    centre = mk(**{**base, "positions": ["C", "O13"], "scenario_tokens": [1, 0]})
    for better in (relic, inner, centre):
        assert evaluate(better)[0] > ev[0]
    assert evaluate(centre)[0] > evaluate(inner)[0] > ev[0]
