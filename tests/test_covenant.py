"""Covenant of Wizards: the engine's rules and the project's rulings (docs/rulings/covenant.md), one or more tests
each. Positions come from ``setup()``; dice are scripted (strict: an unscripted roll is an error), so every
number asserted here is worked out by hand in the comments."""

from __future__ import annotations

import sys

from covenant_helpers import ENGINE, cards, do, duel_position, legal, mk, new_state, p

from wizprint.cards.loader import load_game
from wizprint.solo.games.covenant import handled
from wizprint.solo.games.covenant.pending import Negation, Quest, Roll, Slaying, WizardAct
from wizprint.solo.kernel.rng import Rng


# -- set-up, VP, winning ---------------------------------------------------------------------------------------
def test_setup_shared_deck_seven_each_seat_zero_first() -> None:
    s = new_state(3, 7)
    assert len(cards()) == 91
    s.check_zones()
    assert s.log_texts()[:6:2] == [f"P{i} draws 7 cards (the starting hand)" for i in (1, 2, 3)]
    assert next(t for t in s.log_texts() if t.startswith("Turn")) == "Turn 1: P1"
    # seat 0 drew 7 and its research card; nothing else has been drawn yet
    assert p(s, "turn_player") == 0
    assert [len(h) for h in s.hands[1:]] == [7, 7]
    on_table = sum(len(s.in_play(x)) for x in range(3))
    assert len(s.hands[0]) + on_table + len(s.limbo) + len(s.discard) == 8
    assert p(s, "deck") == 91 - 22


def test_same_seed_same_game() -> None:
    assert new_state(2, 5).to_json() == new_state(2, 5).to_json()
    assert new_state(2, 5).to_json() != new_state(2, 6).to_json()


def test_vp_counts_cards_in_play_and_quests() -> None:
    # W01 1 + Ancient Grimoire 2 + Crown of Command 2 + Menagerie 2 + Library 1 + Champion 0 + Slay the Dragon 7
    # + Defeat the Giant 4 = 19; seat 1: Seer 1 (+ Apprentice 0)
    s = mk(hands=[["R05"], []], in_play=[["W01+I02+I09", "R04", "R01", "F04"], ["W05+F02"]],
           quests=[["Q01", "Q02"], []], phase="summon")
    assert p(s, "vp.0") == 19
    assert p(s, "vp.1") == 1
    do(s, "summon R05")  # Greenhouse: 2
    assert p(s, "vp.0") == 21


def test_reaching_25_vp_wins_at_once() -> None:
    # quests 7 + 7 + 5 + 5 = 24; a wizard makes 25 in the Summon phase: the game ends there
    s = mk(hands=[["W02", "R04"], ["S07"]], quests=[["Q01", "Q07", "Q03", "Q04"], []], phase="summon",
           in_play=[[], ["W05"]])
    assert p(s, "vp.0") == 24
    do(s, "summon W02")
    assert s.is_terminal()
    assert p(s, "winners") == [0]
    assert p(s, "vp.0") == 25
    assert s.current_player == -1
    assert s.legal_actions() == []


def test_stealing_to_25_vp_wins_at_once() -> None:
    # 24 VP; Treachery takes W10 (1 VP): 25, and the game is over before anything else happens
    s = mk(hands=[["E03"], []], quests=[["Q01", "Q07", "Q03", "Q04"], []], in_play=[[], ["W10", "W11"]],
           phase="event")
    do(s, "play E03 W10")
    assert p(s, "winners") == [0]
    assert p(s, "wizards.0") == ["W10"]


def test_no_draw_when_deck_and_discard_are_empty() -> None:
    s = mk(hands=[["R04"], []], deck=[], rest="discard", phase="summon")
    s.hands[1].extend(s.discard)  # every other card into seat 1's hand: no deck, no discard pile
    s.discard.clear()
    do(s, "summon R04")
    # seat 1's research draws nothing; then it must discard down to 8
    assert p(s, "turn_player") == 1
    assert p(s, "hand_size.1") == 90
    assert p(s, "deck") == 0
    assert p(s, "phase") == "discard"
    s.check_zones()


def test_empty_deck_reshuffles_the_discard_pile() -> None:
    # the 89 cards not named are the discard pile; seat 1's research draw shuffles them into a new deck
    s = mk(hands=[["R04"], []], in_play=[[], ["W05"]], deck=[], rest="discard", phase="summon")
    assert p(s, "discard") == 89
    do(s, "summon R04")
    assert p(s, "turn_player") == 1
    assert p(s, "hand_size.1") == 1
    assert p(s, "deck") == 88
    assert p(s, "discard") == 0


def test_turns_go_clockwise_and_phases_in_order() -> None:
    s = mk(players=3, hands=[["R04"], [], []], in_play=[[], ["W05"], ["W16"]], phase="summon",
           deck=["S04", "S05"])
    do(s, "summon R04")
    assert (p(s, "turn_player"), p(s, "phase")) == (1, "event")
    do(s, "end")  # seat 1 has nothing for the other phases: its turn ends
    assert (p(s, "turn_player"), p(s, "phase")) == (2, "event")


def test_skip_turn_misses_the_whole_next_turn() -> None:
    s = mk(players=3, hands=[["R04"], ["S04"], []], in_play=[[], [], ["W05"]], skips=[0, 1, 0], phase="summon",
           deck=["S05", "S06"])
    do(s, "summon R04")
    assert p(s, "turn_player") == 2
    assert p(s, "skips.1") == 0
    assert p(s, "hand.1") == ["S04"]  # seat 1 did not even draw
    assert "P2 misses this turn" in s.log_texts()


# -- research --------------------------------------------------------------------------------------------------
def test_spell_forge_discards_a_card_that_is_not_a_spell() -> None:
    # research: draw R04; the Spell Forge draws W05 and shows it: not a spell, discarded
    s = mk(in_play=[["W03+I03"], []], deck=["R04", "W05", "S04"])
    assert p(s, "hand.0") == ["R04"]
    assert p(s, "discard_pile") == ["W05"]
    assert p(s, "deck_top")[0] == "S04"


def test_spell_forge_keeps_a_spell_and_everybody_sees_it() -> None:
    s = mk(in_play=[["W03+I03"], []], deck=["R04", "S04", "W05"])
    assert p(s, "hand.0") == ["R04", "S04"]
    assert p(s, "discard") == 0
    assert s.observation(1)["seen"] == {"S04": "h0"}


def test_hand_limit_is_eight_and_the_player_chooses_the_discard() -> None:
    hand = ["R01", "R02", "R03", "R04", "R05", "R06", "R07", "R08"]
    s = mk(hands=[hand, []], deck=["R09"])
    assert p(s, "phase") == "discard"
    assert legal(s) == [f"discard {c}" for c in sorted([*hand, "R09"])]
    do(s, "discard R03")
    assert p(s, "hand_size.0") == 8
    assert p(s, "phase") != "discard"
    assert p(s, "discard_pile") == ["R03"]


def test_hand_limit_is_nine_with_a_scry_wizard_however_many() -> None:
    hand = ["R01", "R02", "R03", "R04", "R05", "R06", "R07", "R08"]
    s = mk(hands=[hand, []], in_play=[["W05"], []], deck=["R09"])  # Seer: 9 is allowed
    assert p(s, "phase") == "event"
    assert p(s, "hand_size.0") == 9
    s = mk(hands=[[*hand, "R10"], []], in_play=[["W05", "W16", "W01+I08"], []], deck=["R09"])  # three scry: still 9
    assert p(s, "phase") == "discard"
    do(s, "discard R10")
    assert p(s, "phase") == "event"


# -- event phase: spells, events, actions, grants ----------------------------------------------------------------
def test_casting_a_spell_needs_a_wizard_events_do_not() -> None:
    s = mk(hands=[["S01", "S17", "E03", "E04", "E01"], []], in_play=[["R01"], ["W05+I05"]], phase="event")
    keys = legal(s)
    assert "play E03 W05" in keys  # Treachery
    assert "play E01 W05" in keys  # Wizard Hunter
    assert not any(k.startswith("cast") for k in keys)
    assert "play E04 I05" not in keys  # Theft: a stolen item needs a wizard to go to


def test_conjuror_draws_on_4_to_6_and_each_wizard_acts_once() -> None:
    s = mk(hands=[[], []], in_play=[["W03", "W09"], []], deck=["S04", "S05"], phase="event")
    do(s, "act W03 conjuror", dice=(4,))
    assert p(s, "hand.0") == ["S04"]
    assert "act W03 conjuror" not in legal(s)
    assert "act W09 conjuror" in legal(s)
    do(s, "act W09 conjuror", dice=(3,))  # 3: no card
    assert p(s, "hand.0") == ["S04"]


def test_negated_action_still_uses_the_wizard() -> None:
    # Alter Reality on the Sorcerer's action: no roll, the action is spent and the wizard cannot go on the quest
    s = mk(hands=[["Q03"], ["S19"]], in_play=[["W03"], ["W10", "W05"]], phase="event")
    do(s, "act W03 conjuror", "negate S19", "pass")  # seat 0 holds a card: it may Dispell the Alter Reality
    assert p(s, "discard_pile") == ["S19"]  # no die was rolled (none is scripted)
    assert p(s, "turn_player") == 1  # no wizard could go on the quest: the turn ended
    assert p(s, "hand.0") == ["Q03"]


def test_scry_sees_a_hand_and_remembers_it() -> None:
    s = mk(hands=[[], ["R04", "S07"]], in_play=[["W05", "W03"], ["W10"]], phase="event")
    do(s, "act W05 scry:1", "pass")  # seat 1 may answer the action with Alter Reality; it passes
    assert s.observation(0)["seen"] == {"R04": "h1", "S07": "h1"}
    assert s.observation(1)["seen_by"] == {"0": ["R04", "S07"]}
    for r in range(5):
        d = s.determinize(0, Rng(r))
        assert sorted(d.hands[1]) == ["R04", "S07"]


def test_a_wizard_action_move_carries_its_ability_and_what_it_looks_at_as_values() -> None:
    """The argument of ``act W scry:1`` is a value with its parts (the ability; the seat whose hand, or the deck, it
    looks at), made by the rules that offer the move; its text stays the move's key; a move written by hand reads
    the same."""
    s = mk(hands=[[], ["R04", "S07"]], in_play=[["W05", "W03"], ["W10"]], deck=["S04"], phase="event")
    acts = {a.key: a.b for a in s.legal_actions() if a.kind == "act"}
    assert sorted(acts) == ["act W03 conjuror", "act W05 scry:1", "act W05 scry:deck"]
    hand, deck, conjure = acts["act W05 scry:1"], acts["act W05 scry:deck"], acts["act W03 conjuror"]
    assert isinstance(conjure, WizardAct) and (conjure.ability, conjure.looks_at) == ("conjuror", None)
    assert isinstance(hand, WizardAct) and (hand.ability, hand.looks_at, hand.target) == ("scry", 1, "1")
    assert isinstance(deck, WizardAct) and (deck.ability, deck.looks_at) == ("scry", "deck")
    assert WizardAct.of("scry:1").looks_at == 1 and WizardAct.of("maker").looks_at is None


def test_scry_and_prophecy_see_the_deck_top_in_place() -> None:
    top = ["Q01", "Q02", "Q03", "Q04", "Q05", "Q06", "Q07"]
    s = mk(hands=[["S05"], ["R01"]], in_play=[["W05"], []], deck=top, phase="event")
    do(s, "cast S05")
    seen = s.observation(0)["seen"]
    assert sorted(seen) == sorted(top)
    for r in range(5):
        d = s.determinize(0, Rng(r))
        assert list(reversed(d.deck[-7:])) == top
    do(s, "end")  # seat 0 ends; seat 1 draws Q01: seat 0 knows where it went
    assert s.observation(0)["seen"]["Q01"] == "h1"
    d = s.determinize(0, Rng(3))
    assert "Q01" in d.hands[1]


def test_stealth_on_a_six_takes_an_item_to_a_wizard_of_choice() -> None:
    s = mk(in_play=[["W07", "W01"], ["W10+I05+I06"]], phase="event")
    do(s, "act W07 stealth", dice=(6,))
    assert legal(s) == ["target I05", "target I06"]
    do(s, "target I05")
    assert legal(s) == ["to W07", "to W01"]
    do(s, "to W01")
    assert p(s, "attached.0") == {"W01": ["I05"]}
    assert p(s, "attached.1") == {"W10": ["I06"]}


def test_stealth_fails_below_six() -> None:
    s = mk(hands=[[], ["R01"]], in_play=[["W07"], ["W10+I05"]], phase="event")
    do(s, "act W07 stealth", "pass", dice=(5,))  # seat 1 passes on Alter Reality; the d6 is a 5
    do(s, "pass")  # seat 1 passes on Probability Shift
    assert p(s, "attached.1") == {"W10": ["I05"]}


def test_maker_on_a_six_searches_an_item_shown_then_shuffles() -> None:
    s = mk(in_play=[["W02"], []], phase="event")
    deck_before = p(s, "deck")
    do(s, "act W02 maker", dice=(6,))
    items = sorted(c for c in cards() if c.startswith("I"))
    assert legal(s) == [f"target {c}" for c in items]
    do(s, "target I02")
    assert "I02" in p(s, "hand.0")
    assert p(s, "deck") == deck_before - 1
    assert s.observation(1)["seen"] == {"I02": "h0"}
    assert "I02" in s.observation(0)["hand"]


def test_grant_one_gives_an_ability_for_this_turn_once_per_resource() -> None:
    s = mk(hands=[["W03", "W04"], []], in_play=[["W10", "R01"], ["W05"]], phase="event")
    assert "adventurer" not in s.abilities("W10")
    do(s, "grant R01 W10")
    assert "adventurer" in s.abilities("W10")
    assert not any(k.startswith("grant") for k in legal(s))
    assert p(s, "phase") == "summon"  # nothing else to do in the Event and Duel phases: they are skipped
    do(s, "summon W03", "summon W04")  # the granted Adventurer allows one more wizard
    assert p(s, "wizards.0") == ["W03", "W04", "W10"]
    # the grant ends with the turn
    assert p(s, "turn_player") == 1
    assert "adventurer" not in s.abilities("W10")


def test_grant_one_offers_only_wizards_lacking_the_ability() -> None:
    s = mk(in_play=[["W01", "W10", "R01"], ["W05"]], phase="event", hands=[["S11"], []])
    assert [k for k in legal(s) if k.startswith("grant")] == ["grant R01 W10"]


def test_stealth_needs_a_rival_item_and_scry_a_target() -> None:
    s = mk(hands=[[], []], in_play=[["W07", "W05"], ["W10"]], deck=["S04"], rest="discard", phase="event")
    assert legal(s) == ["act W05 scry:deck", "end"]  # no rival item to take; seat 1 holds no card to see


def test_legend_lore_may_be_cast_when_no_quest_is_left_in_the_deck() -> None:
    quests = [f"Q{i:02d}" for i in range(1, 11)]
    s = mk(hands=[["S06"], quests], in_play=[["W03"], []], phase="event")
    assert "cast S06" in legal(s)  # legality never depends on the hidden deck
    do(s, "cast S06")
    assert p(s, "hand.0") == []
    assert "P1 searches the deck: no Quest; the deck is shuffled" in s.log_texts()


# -- duel --------------------------------------------------------------------------------------------------------
def test_duel_totals_add_abilities_items_followers_and_spells() -> None:
    s = duel_position(p0_extra=["S14"])
    do(s, "duel W08 1", "answer W12", dice=(2, 2, 2))  # seat 1 has no cards: no Alter Reality window
    do(s, "pass", dice=(4, 4, 2))  # seat 0 passes on Probability Shift for its roll of 6
    do(s, "pass")  # and for seat 1's 10
    # 6 + 5 = 11 against 10 + 2 = 12: seat 0 casts Feeblemind (+2): 13 against 12, the Druid is slain
    assert legal(s) == ["pass", "bonus S14"]
    do(s, "bonus S14")
    assert p(s, "wizards.1") == ["W01"]
    assert {"W12", "I06", "D01#1", "S14"} <= set(p(s, "discard_pile"))
    assert p(s, "vp.1") == 1
    assert p(s, "phase") != "duel"


def test_duel_tie_slays_nobody() -> None:
    s = duel_position()
    do(s, "duel W08 1", "answer W12", dice=(2, 2, 2, 4, 4, 1))  # 6 + 5 = 11; 9 + 2 = 11
    assert p(s, "wizards.0") == ["W08"]
    assert p(s, "wizards.1") == ["W01", "W12"]
    assert ("The duel is a tie, W08 Elementalist 11 (6 rolled, +5 bonuses) against W12 Druid 11 (9 rolled, +2 "
            "bonuses): nobody is slain") in s.log_texts()


def test_duel_loser_is_slain_with_its_attachments() -> None:
    s = duel_position()
    do(s, "duel W08 1", "answer W12", dice=(1, 1, 1, 6, 6, 6))  # 3 + 5 = 8 against 18 + 2 = 20
    assert p(s, "wizards.0") == []
    assert {"W08", "I05", "F02"} <= set(p(s, "discard_pile"))


def test_alter_reality_negates_the_duel_and_closes_the_duel_phase() -> None:
    s = duel_position(p1_hand=["S19"], p0_extra=["D01"])
    do(s, "duel W08 1", "negate S19", "pass")  # seat 0 could Dispell the Alter Reality (it holds a card); it passes
    assert p(s, "wizards.0") == ["W08"] and p(s, "wizards.1") == ["W01", "W12"]
    assert sorted(p(s, "discard_pile")) == ["D01#1", "S19"]
    assert s.duelled == []
    # no second duel although seat 0 holds another Wizards Duel: the turn went on and ended
    assert "Turn 2: P2" in s.log_texts()


def test_dispell_answers_alter_reality() -> None:
    s = duel_position(p1_hand=["S19"], p0_extra=["S18"])
    do(s, "duel W08 1", "negate S19", "negate S18")  # the Alter Reality is Dispelled: the duel goes on
    assert legal(s) == ["answer W12", "answer W01"]
    assert sorted(p(s, "discard_pile")) == ["S18", "S19"]


def test_window_goes_on_after_a_failed_negation() -> None:
    s = mk(players=3, hands=[["D01", "S18"], ["S19"], ["R01"]], in_play=[["W08"], ["W10"], ["W11"]], phase="duel")
    do(s, "duel W08 1", "negate S19")  # seat 1 tries Alter Reality on the duel
    assert s.current_player == 2  # the Alter Reality's Dispell window: from seat 1's left, seat 2 ...
    do(s, "pass", "negate S18")  # ... then seat 0 Dispells it
    assert s.current_player == 2  # the Dispell's own window: seat 1 holds no card any more, seat 2 is asked
    do(s, "pass")
    assert "S19 Alter Reality is negated: it has no effect" in s.log_texts()
    assert s.current_player == 2  # the duel card's window goes on with the next player, seat 2
    assert isinstance(s.pending, Negation) and s.pending.source == "D01#1"
    do(s, "pass", dice=(3, 3, 3))
    assert s.duelled == ["W08", "W10"]


def test_defender_chooses_and_three_player_challenger_chooses_rival() -> None:
    s = mk(players=3, hands=[["D01"], [], []], in_play=[["W08"], ["W10"], ["W11", "W12"]], phase="duel")
    assert sorted(legal(s)) == ["duel W08 1", "duel W08 2", "end"]
    do(s, "duel W08 2")
    assert s.current_player == 2
    assert legal(s) == ["answer W11", "answer W12"]


def test_healing_saves_the_duel_loser() -> None:
    s = duel_position(p1_hand=["S07"])
    do(s, "duel W08 1", "pass", "answer W12", dice=(1, 1, 1))  # seat 1 passes on Alter Reality
    do(s, "pass", dice=(1, 1, 1))  # Probability Shift window after seat 0's roll: seat 1 passes
    do(s, "pass", "pass")  # after its own roll; then the bonus window (seat 1 has no bonus spell)
    # 3 + 5 = 8 against 3 + 2 = 5: the Druid would be slain; its controller heals it
    assert legal(s) == ["pass", "heal S07"]
    do(s, "heal S07")
    assert p(s, "wizards.1") == ["W01", "W12"]


def test_one_duel_per_turn_and_acting_wizard_may_duel_but_not_quest() -> None:
    s = mk(hands=[["D01", "D01", "Q03"], []], in_play=[["W03", "W08"], ["W10", "W05"]], phase="event")
    do(s, "act W03 conjuror", dice=(1,))
    do(s, "pass")  # seat 0 holds cards: it is asked on its own roll; then the Event phase has nothing left
    assert "duel W03 1" in legal(s)  # a wizard that acted may still duel
    do(s, "duel W08 1", "answer W10", dice=(3, 3, 3, 3, 3, 3))  # 9 + 2 against 9 + 2
    do(s, "pass", "pass", "pass")  # Probability Shift twice, then the bonus window (seat 1 has no cards)
    # a tie; the duel phase is over (one duel a turn); no wizard may quest: W03 acted, W08 duelled
    assert p(s, "turn_player") == 1
    assert p(s, "hand.0") == ["D01#2", "Q03"]


# -- summon ------------------------------------------------------------------------------------------------------
def test_summon_one_card_a_turn() -> None:
    s = mk(hands=[["W03", "R04"], []], in_play=[[], ["W05"]], phase="summon")
    do(s, "summon W03")
    assert p(s, "turn_player") == 1


def test_summon_extras_one_per_ability() -> None:
    # two Adventurers still give one extra Wizard
    s = mk(hands=[["W03", "W06", "W07"], []], in_play=[["W01", "W04"], ["W05"]], phase="summon")
    do(s, "summon W03", "summon W06")
    assert p(s, "turn_player") == 1
    # Nature: one more Follower; Maker: one more Item
    s = mk(hands=[["F04", "F05", "F06"], []], in_play=[["W12"], ["W05"]], phase="summon")
    do(s, "summon F04", "summon F05")
    assert p(s, "turn_player") == 1
    s = mk(hands=[["I05", "I06", "I01"], []], in_play=[["W02"], ["W05"]], phase="summon")
    do(s, "attach I05 W02", "attach I06 W02")
    assert p(s, "turn_player") == 1
    assert p(s, "attached.0") == {"W02": ["I05", "I06"]}


def test_summoned_adventurer_counts_at_once() -> None:
    s = mk(hands=[["W01", "W03", "R04"], []], in_play=[[], ["W10"]], phase="summon")
    do(s, "summon W01")
    assert legal(s) == ["summon W03", "end"]  # the extra Wizard, and nothing else
    do(s, "summon W03")
    assert p(s, "wizards.0") == ["W01", "W03"]


def test_items_and_attaching_followers_need_a_wizard() -> None:
    s = mk(hands=[["I05", "F02", "F04", "R04"], []], in_play=[[], ["W10"]], phase="summon")
    assert sorted(legal(s)) == ["end", "summon F04", "summon R04"]
    s = mk(hands=[["I05", "F02"], []], in_play=[["W03", "W05"], ["W10"]], phase="summon")
    assert sorted(legal(s)) == ["attach F02 W03", "attach F02 W05", "attach I05 W03", "attach I05 W05", "end"]


def test_ancient_grimoire_draws_two_when_it_enters() -> None:
    s = mk(hands=[["I02"], []], in_play=[["W03"], ["W10"]], deck=["S04", "S05", "S06"], phase="summon")
    do(s, "attach I02 W03")
    assert p(s, "hand.0") == ["S04", "S05"]
    assert p(s, "vp.0") == 3


def test_crown_of_command_steals_a_follower_when_it_enters() -> None:
    s = mk(hands=[["I09"], []], in_play=[["W03"], ["W10+F02", "F04"]], phase="summon")
    do(s, "attach I09 W03")
    assert legal(s) == ["target F02", "target F04"]
    do(s, "target F02")  # an Apprentice: it joins the thief's only wizard
    assert p(s, "attached.0") == {"W03": ["F02", "I09"]}
    assert p(s, "attached.1") == {}
    assert p(s, "vp.0") == 3


# -- quests ------------------------------------------------------------------------------------------------------
def test_quest_round_one_slays_the_difference_then_round_two_completes() -> None:
    s = mk(hands=[["Q03"], ["E02", "S07"]], in_play=[["W01", "W03+F09", "F04", "F05"], ["W10", "W05"]],
           phase="adventure",
           deck=["S01", "S02", "S03"])
    do(s, "quest Q03", "join F04", "join W01", "join W03", "go")  # the Imp goes with its Sorcerer
    do(s, "danger E02", dice=(3, 3, 2))  # Tricks & Traps: +2 to every Danger roll of this quest
    do(s, "pass", dice=(1, 1))  # seat 1 passes on rerolling
    do(s, "pass")
    # Danger 8 + 2 = 10; Quest Level 2 + 4 participants + Adventurer 2 = 8: two are slain, the quester chooses
    assert legal(s) == ["slay F04", "slay W01", "slay W03", "slay F09"]
    do(s, "slay F04")
    do(s, "slay W03", dice=(1, 1, 1))  # the Imp dies with its Sorcerer
    do(s, "pass", dice=(3, 3))
    do(s, "pass")
    # round 2: Danger 3 + 2 = 5; Quest Level 6 + 1 + 2 = 9: complete; Banish the Demon draws 2
    assert ("Round 2 of Q03 Banish the Demon: Danger 5 (3 rolled, +2 Tricks & Traps), Quest Level 9 (6 rolled, +3 "
            "bonuses): completed") in s.log_texts()
    assert p(s, "quests.0") == ["Q03"]
    assert p(s, "vp.0") == 1 + 5
    assert p(s, "hand.0") == ["S01", "S02"]
    assert p(s, "in_play.0") == ["F05", "W01"]
    assert sorted(p(s, "discard_pile")) == ["E02", "F04", "F09", "W03"]


def test_quest_fails_when_round_one_slays_everyone() -> None:
    s = mk(hands=[["Q03"], []], in_play=[["W03"], ["W05"]], phase="adventure")
    do(s, "quest Q03", dice=(6, 6, 6, 1, 1))  # 18 against 2 + 1 = 3: the only wizard goes alone and dies
    assert p(s, "quests.0") == []
    assert sorted(p(s, "discard_pile")) == ["Q03", "W03"]
    assert p(s, "turn_player") == 1


def test_quest_round_two_failure_slays_nobody() -> None:
    # round 1: Danger 3 against 2 + 1 = 3: nobody is slain; round 2: Danger 18 against 3: the quest fails
    s = mk(hands=[["Q03"], []], in_play=[["W03"], ["W10"]], phase="adventure")
    do(s, "quest Q03", dice=(1, 1, 1, 1, 1, 6, 6, 6, 1, 1))
    assert p(s, "wizards.0") == ["W03"]
    assert p(s, "discard_pile") == ["Q03"]


def test_quest_level_counts_every_bonus() -> None:
    # W01 Adventurer +2 with Flying Ship +2 and Wand of Wonder +1; W12 Nature +1; Champion +1 on Slay the Dragon;
    # Hero (+1 only on Defeat the Giant); 4 participants +4; Slay the Dragon itself +2: 2d6 + 13
    s = mk(hands=[["Q01"], []], in_play=[["W01+I01+I06", "W12", "F04", "F05"], ["W10"]], phase="adventure")
    assert s.quest_bonus("Q01", ["W01", "W12", "F04", "F05"]) == 13
    assert s.quest_bonus("Q02", ["W01", "W12", "F04", "F05"]) == 4 + 2 + 2 + 1 + 1 + 1 - 1
    do(s, "quest Q01", "join F04", "join F05", "join W01", "join W12")
    do(s, "go", dice=(6, 6, 6, 2, 3, 6, 6, 6, 1, 1))  # round 1: 18 against 5 + 13, nobody slain
    assert ("Round 1 of Q01 Slay the Dragon: Danger 18, Quest Level 18 (5 rolled, +13 bonuses): nobody is lost"
            in s.log_texts())
    assert ("Round 2 of Q01 Slay the Dragon: Danger 18, Quest Level 15 (2 rolled, +13 bonuses): failed"
            in s.log_texts())
    assert p(s, "in_play.0") == ["F04", "F05", "I01", "I06", "W01", "W12"]
    assert p(s, "discard_pile") == ["Q01"]


def test_quest_level_equal_to_danger_completes() -> None:
    s = mk(hands=[["Q01"], []], in_play=[["W01+I01+I06", "W12", "F04", "F05"], ["W10"]], phase="adventure")
    do(s, "quest Q01", "join F04", "join F05", "join W01", "join W12")
    do(s, "go", dice=(6, 6, 6, 2, 3, 6, 6, 6, 2, 3))  # 18 against 5 + 13 in both rounds
    assert p(s, "quests.0") == ["Q01"]
    assert p(s, "vp.0") == 2 + 7


def test_healing_saves_one_participant_and_the_loss_is_not_moved() -> None:
    s = mk(hands=[["Q03", "S07"], []], in_play=[["W03", "W05"], ["W10"]], phase="adventure", deck=["S01", "S02"])
    do(s, "quest Q03", "join W03", "join W05", "go", dice=(5, 5, 5))
    do(s, "pass", dice=(6, 6))  # seat 0 holds Healing, so it is asked after its rolls
    do(s, "pass")
    do(s, "pass")  # the bonus window
    # Danger 15 against 12 + 2 = 14: one is slain; Healing saves it and nobody dies in its place
    do(s, "slay W03", "heal S07", dice=(1, 1, 1, 1, 1))
    # round 2: 3 against 2 + 2 = 4: complete
    assert p(s, "wizards.0") == ["W03", "W05"]
    assert p(s, "quests.0") == ["Q03"]
    assert p(s, "hand.0") == ["S01", "S02"]


def test_a_saved_participant_is_not_chosen_again() -> None:
    s = mk(hands=[["Q03", "S07"], []], in_play=[["W03", "W05"], ["W10"]], phase="adventure")
    do(s, "quest Q03", "join W03", "join W05", "go", dice=(5, 5, 6))
    do(s, "pass", "pass", "pass", dice=(6, 6))
    # Danger 16 against 12 + 2 = 14: two losses for two participants, no choice: the Sorcerer first, and Healing
    # saves it; the second loss cannot be the Sorcerer again, so it is the Seer
    assert legal(s) == ["pass", "heal S07"] and isinstance(s.pending, Slaying) and s.pending.target == "W03"
    do(s, "heal S07", dice=(1, 1, 1, 6, 6))
    assert p(s, "wizards.0") == ["W03"]
    assert "W05" in p(s, "discard_pile")
    assert p(s, "quests.0") == ["Q03"]  # round 2: 3 against 12 + 1


def test_completing_a_quest_to_25_ends_the_game_before_its_reward() -> None:
    # 20 VP; Banish the Demon (5) makes 25: the game is over, its two cards are not drawn
    s = mk(hands=[["Q03"], []], quests=[["Q01", "Q07", "Q10"], []], in_play=[["W03"], ["W10"]], phase="adventure",
           deck=["S01", "S02"])
    assert p(s, "vp.0") == 20
    do(s, "quest Q03", dice=(1, 1, 1, 1, 1, 1, 1, 1, 1, 1))  # 3 against 2 + 1 twice
    assert p(s, "winners") == [0]
    assert p(s, "vp.0") == 25
    assert p(s, "hand.0") == []


def test_hand_limit_is_checked_only_in_research() -> None:
    hand = ["I02", "R01", "R02", "R03", "R04", "R05", "R06", "R07"]
    s = mk(hands=[hand, []], in_play=[["W03"], ["W05"]], phase="summon", deck=["S01", "S02"])
    do(s, "attach I02 W03")  # Ancient Grimoire: 7 + 2 = 9 cards, kept until the next Research phase
    assert p(s, "hand_size.0") == 9
    assert p(s, "turn_player") == 1


def test_participants_exclude_duelled_and_acting_wizards_attached_followers_go_with_theirs() -> None:
    s = mk(hands=[["Q03"], []], in_play=[["W03+F09", "W08", "W05", "F04"], ["W10"]], phase="adventure",
           acted=["W05"], duelled=["W08"])
    do(s, "quest Q03")
    assert legal(s) == ["join F04", "join W03"]
    do(s, "join W03")
    assert isinstance(s.pending, Quest) and s.pending.participants == ("W03", "F09")


def test_bonus_spell_adds_to_one_quest_roll() -> None:
    s = mk(hands=[["Q03", "S15"], []], in_play=[["W03"], ["W10"]], phase="adventure", deck=["S01", "S02"])
    do(s, "quest Q03", dice=(4, 4, 4))
    do(s, "pass", dice=(5, 5))
    do(s, "pass")
    # 12 against 10 + 1 = 11: Control Monster +2 makes it 13, nobody is slain
    do(s, "bonus S15", dice=(4, 4, 4, 5, 6))
    # round 2 (no cards left, no windows): 12 against 11 + 1 = 12, without the spell of round 1: complete
    assert p(s, "quests.0") == ["Q03"]
    assert p(s, "wizards.0") == ["W03"]
    assert "P1's Quest Level gets +2 in round 1: S15 Control Monster" in s.log_texts()
    assert ("Round 2 of Q03 Banish the Demon: Danger 12, Quest Level 12 (11 rolled, +1 bonuses): completed"
            in s.log_texts())


def test_seal_the_portal_makes_a_chosen_rival_miss_a_turn() -> None:
    s = mk(players=3, hands=[["Q05"], [], []], in_play=[["W01"], ["W05"], ["W16"]], phase="adventure",
           deck=["S11", "S12", "S13"])
    do(s, "quest Q05", dice=(1, 1, 1, 1, 1, 1, 1, 1, 1, 1))  # 3 against 2 + 3 twice
    assert legal(s) == ["target 1", "target 2"]
    do(s, "target 2")
    assert p(s, "skips.2") == 1
    assert p(s, "quests.0") == ["Q05"]
    assert p(s, "turn_player") == 1
    do(s, "end")  # seat 1 (who drew Fireball) ends its turn; seat 2 misses its turn; seat 0's turn
    texts = s.log_texts()
    i = texts.index("Turn 2: P2")
    assert texts[i:].index("P3 misses this turn") < texts[i:].index("Turn 3: P1")
    assert p(s, "skips.2") == 0
    assert p(s, "hand.2") == []


def test_destroy_the_artifact_destroys_a_rival_item() -> None:
    s = mk(hands=[["Q06"], []], in_play=[["W01"], ["W10+I05+F02"]], phase="adventure")
    do(s, "quest Q06", dice=(1, 1, 1, 1, 1, 1, 1, 1, 1, 1))
    assert p(s, "attached.1") == {"W10": ["F02"]}
    assert "I05" in p(s, "discard_pile")


def test_rescue_the_mage_searches_a_wizard_shows_it_and_shuffles() -> None:
    s = mk(hands=[["Q04"], []], in_play=[["W01"], ["W10"]], phase="adventure")
    do(s, "quest Q04", dice=(1, 1, 1, 1, 1, 1, 1, 1, 1, 1))
    assert "target W20" in legal(s)
    assert "target W01" not in legal(s)  # W01 and W10 are in play
    do(s, "target W20")
    assert p(s, "hand.0") == ["W20"]
    assert s.observation(1)["seen"] == {"W20": "h0"}


def test_tricks_and_traps_window_asks_rivals_with_cards_even_without_wizards() -> None:
    s = mk(players=3, hands=[["Q03"], ["R01"], []], in_play=[["W03"], [], ["W10"]], phase="adventure")
    do(s, "quest Q03")
    assert s.current_player == 1 and legal(s) == ["pass"]  # seat 2 holds no card: not asked
    do(s, "pass", dice=(1, 1, 1, 6, 6, 1, 1, 1, 6, 6))  # no more windows: seat 1 controls no wizard
    assert p(s, "quests.0") == ["Q03"]


def test_tricks_and_traps_can_be_negated_by_alter_reality() -> None:
    s = mk(hands=[["Q03", "S19"], ["E02"]], in_play=[["W03"], ["W10"]], phase="adventure")
    do(s, "quest Q03", "danger E02", "negate S19", dice=(6, 6, 2, 1, 1))
    # the +2 never happened: Danger 14 against 2 + 1 (nobody holds a card any more: no windows)
    assert ("Round 1 of Q03 Banish the Demon: Danger 14, Quest Level 3 (2 rolled, +1 bonuses): 1 participant to be "
            "slain") in s.log_texts()
    assert sorted(p(s, "discard_pile")) == ["E02", "Q03", "S19", "W03"]
    assert not any("rises by" in t for t in s.log_texts())


# -- responses ---------------------------------------------------------------------------------------------------
def test_dispell_negates_a_spell() -> None:
    s = mk(hands=[["S02"], ["S18"]], in_play=[["W03"], ["W10+I05"]], phase="event")
    do(s, "cast S02 I05", "negate S18")
    assert p(s, "attached.1") == {"W10": ["I05"]}
    assert sorted(p(s, "discard_pile")) == ["S02", "S18"]


def test_windows_go_from_the_left_and_skip_players_without_cards_or_wizards() -> None:
    s = mk(players=4, hands=[["S17"], ["R01"], [], ["R02"]], in_play=[["W03"], ["W05"], ["W10"], ["W11"]],
           phase="event")
    do(s, "cast S17 W10")
    assert s.current_player == 1
    assert legal(s) == ["pass"]  # asked although it holds nothing to answer with
    do(s, "pass")
    assert s.current_player == 3  # seat 2 holds no card: no window
    do(s, "pass")
    assert p(s, "wizards.2") == []  # nothing saved it (its controller has no cards: no Healing window)
    s = mk(players=3, hands=[["S17"], ["R01"], ["R02"]], in_play=[["W03"], [], ["W10"]], phase="event")
    do(s, "cast S17 W10")
    assert s.current_player == 2  # seat 1 controls no wizard: it could cast no spell


def test_probability_shift_rerolls_and_the_new_roll_stands() -> None:
    s = mk(players=3, hands=[["Q03", "R01"], ["S20"], ["R02"]], in_play=[["W03"], ["W05"], ["W10"]],
           phase="adventure")
    do(s, "quest Q03", "pass", "pass", dice=(1, 1, 1))  # seats 1 and 2 pass on Tricks & Traps
    assert s.current_player == 1  # after the Danger roll: seats 1, 2, then the roller
    do(s, "reroll S20", "pass", "pass", dice=(6, 6, 6, 1, 1))  # seats 2 and 0 may Dispell it; they pass
    assert "P1 rolls again 6+6+6 = 18: the Danger of Q03 Banish the Demon, round 1" in s.log_texts()
    # the new roll stands: seats 2 and 0 are not asked about it again; the next window follows the Quest Level
    top = s.pending
    assert isinstance(top, Roll) and (top.kind, top.label, top.total) == ("roll", "Quest Level", 2)
    assert s.current_player == 2
    quest = s.stack[-2]
    assert isinstance(quest, Quest) and quest.danger_roll == 18


def test_guardian_beast_is_discarded_instead_of_the_item() -> None:
    s = mk(hands=[["S01"], ["R01"]], in_play=[["W03"], ["W10+I05", "F10"]], phase="event")
    do(s, "cast S01 I05", "pass")
    assert s.current_player == 1
    assert legal(s) == ["pass", "guard F10"]
    do(s, "guard F10")
    assert p(s, "attached.1") == {"W10": ["I05"]}
    assert p(s, "followers.1") == []
    assert sorted(p(s, "discard_pile")) == ["F10", "S01"]


def test_steal_without_guard_moves_the_item() -> None:
    s = mk(hands=[["S09"], ["R01"]], in_play=[["W03"], ["W10+I05", "F10"]], phase="event")
    do(s, "cast S09 I05", "pass", "pass")
    assert p(s, "attached.0") == {"W03": ["I05"]}
    assert p(s, "followers.1") == ["F10"]


# -- stealing, destroying, slaying ---------------------------------------------------------------------------------
def test_stolen_wizard_comes_with_everything_attached() -> None:
    s = mk(hands=[["E03"], []], in_play=[[], ["W10+I05+F02"]], phase="event")
    do(s, "play E03 W10")
    assert p(s, "attached.0") == {"W10": ["F02", "I05"]}
    assert p(s, "vp.0") == 1 and p(s, "vp.1") == 0


def test_stolen_follower_leaves_its_wizard() -> None:
    s = mk(hands=[["S16"], []], in_play=[["W03", "W05"], ["W10+F02", "F04"]], phase="event")
    do(s, "cast S16 F02", "to W05")  # an Apprentice joins a wizard of the thief's choice
    assert p(s, "attached.0") == {"W05": ["F02"]}
    s = mk(hands=[["S16"], []], in_play=[["W03"], ["W10+F02", "F04"]], phase="event")
    do(s, "cast S16 F04")  # Champion does not attach: it stands alone
    assert p(s, "followers.0") == ["F04"]


def test_stolen_resource_changes_hands() -> None:
    s = mk(hands=[["S10"], []], in_play=[["W03"], ["W10", "R04"]], phase="event")
    do(s, "cast S10 R04")
    assert p(s, "resources.0") == ["R04"]
    assert (p(s, "vp.0"), p(s, "vp.1")) == (3, 1)


def test_destroy_discards_a_resource() -> None:
    s = mk(hands=[["E05", "S03"], []], in_play=[["W03"], ["W10", "R04", "R09"]], phase="event")
    do(s, "play E05 R04", "cast S03 R09")
    assert p(s, "resources.1") == []
    assert sorted(p(s, "discard_pile")) == ["E05", "R04", "R09", "S03"]


def test_shatter_destroys_an_item() -> None:
    s = mk(hands=[["S02"], []], in_play=[["W03"], ["W10+I05"]], phase="event")
    do(s, "cast S02 I05")
    assert p(s, "in_play.1") == ["W10"]


def test_wizard_hunter_and_poison_potion_slay_with_attachments() -> None:
    s = mk(hands=[["E01", "S17"], []], in_play=[["W03"], ["W10+I05", "W11"]], phase="event")
    do(s, "play E01 W10", "cast S17 W11")
    assert p(s, "in_play.1") == []
    assert sorted(p(s, "discard_pile")) == ["E01", "I05", "S17", "W10", "W11"]


def test_healing_by_the_controller_can_be_dispelled() -> None:
    s = mk(hands=[["E01", "S18"], ["S07"]], in_play=[["W03"], ["W10"]], phase="event")
    do(s, "play E01 W10", "pass")  # seat 1 passes on Alter Reality
    do(s, "heal S07", "negate S18")  # seat 0 Dispells the Healing
    assert p(s, "wizards.1") == []


def test_reincarnation_takes_a_wizard_from_the_discard_pile() -> None:
    s = mk(hands=[["S08"], []], in_play=[["W03"], ["W10"]], discard=["W05", "S01"], phase="event")
    assert "cast S08 W05" in legal(s)
    do(s, "cast S08 W05")
    assert p(s, "hand.0") == ["W05"]
    assert s.observation(1)["seen"] == {"W05": "h0"}


def test_legend_lore_searches_a_quest() -> None:
    s = mk(hands=[["S06"], []], in_play=[["W03"], ["W10"]], phase="event")
    do(s, "cast S06", "target Q07")
    assert p(s, "hand.0") == ["Q07"]


def test_magical_vortex_empties_every_hand() -> None:
    s = mk(hands=[["E06", "R01"], ["R02", "R03"]], in_play=[["W03"], []], phase="event")
    do(s, "play E06")
    assert p(s, "hand_size.0") == 0 and p(s, "hand_size.1") == 0
    assert sorted(p(s, "discard_pile")) == ["E06", "R01", "R02", "R03"]


def test_divination_sees_a_rival_hand() -> None:
    s = mk(hands=[["S04"], ["R02", "R03"]], in_play=[["W03"], []], phase="event")
    do(s, "cast S04 1")
    assert s.observation(0)["seen"] == {"R02": "h1", "R03": "h1"}


# -- vocabulary, labels, set-up errors, limits -----------------------------------------------------------------------
WORD_TESTS = {
    "ability": "test_conjuror_draws_on_4_to_6_and_each_wizard_acts_once",
    "grant": "test_hand_limit_is_nine_with_a_scry_wizard_however_many",
    "grant_one": "test_grant_one_gives_an_ability_for_this_turn_once_per_resource",
    "quest_level": "test_quest_level_counts_every_bonus",
    "on_complete": "test_quest_round_one_slays_the_difference_then_round_two_completes",
    "on_enter": "test_ancient_grimoire_draws_two_when_it_enters",
    "draw": "test_ancient_grimoire_draws_two_when_it_enters",
    "search": "test_rescue_the_mage_searches_a_wizard_shows_it_and_shuffles",
    "skip_turn": "test_seal_the_portal_makes_a_chosen_rival_miss_a_turn",
    "destroy": "test_destroy_discards_a_resource",
    "steal": "test_stolen_wizard_comes_with_everything_attached",
    "slay": "test_wizard_hunter_and_poison_potion_slay_with_attachments",
    "duel_bonus": "test_duel_totals_add_abilities_items_followers_and_spells",
    "quest_bonus": "test_quest_level_counts_every_bonus",
    "quest_bonus_on": "test_quest_level_counts_every_bonus",
    "roll_bonus": "test_bonus_spell_adds_to_one_quest_roll",
    "danger": "test_quest_round_one_slays_the_difference_then_round_two_completes",
    "attach": "test_stolen_follower_leaves_its_wizard",
    "guard": "test_guardian_beast_is_discarded_instead_of_the_item",
    "vortex": "test_magical_vortex_empties_every_hand",
    "duel": "test_duel_loser_is_slain_with_its_attachments",
    "look_hand": "test_divination_sees_a_rival_hand",
    "look_deck": "test_scry_and_prophecy_see_the_deck_top_in_place",
    "reanimate": "test_reincarnation_takes_a_wizard_from_the_discard_pile",
    "prevent_slay": "test_healing_saves_the_duel_loser",
    "negate": "test_dispell_negates_a_spell",
    "reroll": "test_probability_shift_rerolls_and_the_new_roll_stands",
    "extra_research": "test_spell_forge_discards_a_card_that_is_not_a_spell",
}


def test_every_effect_word_is_handled_and_tested() -> None:
    used = ENGINE.data.words()
    vocab = set(load_game("covenant").vocabulary.words)
    assert used <= handled()
    assert vocab <= handled()
    assert used <= set(WORD_TESTS)
    module = sys.modules[__name__]
    for word, test in WORD_TESTS.items():
        assert callable(getattr(module, test, None)), f"{word}: no test {test}"
