"""Wizard Cards rules (wizard-cards.txt), one test per rule; positions are set up with the engine's scenario
set-up, and the expected numbers are worked out from the rulebook by hand."""

from __future__ import annotations

from typing import Any

import pytest

from wizprint.errors import IllegalActionError, SaveError
from wizprint.solo.games.wizard_cards import Phase, WizardCardsState
from wizprint.solo.kernel import Chance, engine
from wizprint.solo.kernel.rng import Rng

ENGINE = engine("wizard-cards")


def new_state(players: int, seed: int, variant: str = "") -> WizardCardsState:
    s = ENGINE.new_state(players, seed, variant)
    assert isinstance(s, WizardCardsState)
    return s


def setup(table: dict[str, Any], variant: str = "", picks: tuple[str, ...] = ()) -> WizardCardsState:
    s = ENGINE.setup(table, 2, 1, variant, Chance(picks=picks, strict=True))
    assert isinstance(s, WizardCardsState)
    return s


def pos(**table: Any) -> WizardCardsState:
    table.setdefault("rest", "discard")  # cards not named are out of the game unless a test wants a deck
    return setup(table)


def ward(s: WizardCardsState, seat: int) -> list[list[Any]]:
    return [[c, s.ward_left[c]] for c in s.wards[seat]]


def keys(s: WizardCardsState) -> set[str]:
    return {a.key for a in s.legal_actions()}


def test_schools_and_magnitudes_follow_suit_and_rank() -> None:
    school = {"S": "ward", "H": "vigor", "D": "fortune", "C": "wrath"}
    spells = ENGINE.data.spells
    for cid, sp in spells.items():
        word, mag = sp.school, sp.magnitude
        if word == "wild":
            assert mag == 4
            continue
        rank, suit = cid[:-1], cid[-1]
        assert word == school[suit]
        assert mag == (1 if rank in ("A", "2", "3", "4", "5") else 2 if rank in ("6", "7", "8", "9", "10") else 3)
    assert len(spells) == 54


def test_one_shared_spell_pile_and_five_card_hands() -> None:
    s = new_state(2, 11)
    assert s.decks == [] and len(s.spell_pile) == 54 - 10
    assert [len(h) for h in s.hands] == [5, 5]


def test_draw_back_up_to_five_and_never_discard_extras() -> None:
    # Major Fortune first: 3 cards drawn; the spell is spent with 7 in hand; no discard, no further draw
    s = pos(hands=[["KD", "2S", "3S", "4S", "5S"], ["6C"]], deck=["7S", "8S", "9S", "10S", "JS", "QS"])
    s.apply_key("play KD")
    assert s.turn_player == 1  # one component only: the spell ended
    assert len(s.hands[0]) == 7 and s.discard[-1] == "KD" and len(s.spell_pile) == 3


def test_draw_back_up_to_five_after_a_spell() -> None:
    s = pos(hands=[["AH", "JC", "3S"], ["6C", "7C"]], deck=["7S", "8S", "9S", "10S"])
    s.apply_key("play JC")  # Major Wrath: Rival's two cards go, the spell is spent
    assert len(s.hands[0]) == 5 and s.hands[0][-3:] == ["7S", "8S", "9S"]


def test_lesser_vigor_only_pays_for_itself_and_major_vigor_adds_three() -> None:
    s = pos(hands=[["AH", "2C", "3C", "KH", "5C"], ["6S", "7S", "8S", "9S", "10S"]])
    s.apply_key("play AH")
    assert s.plays_left == 1  # 1 play - 1 for Lesser Vigor + 1
    s.apply_key("play KH")
    assert s.plays_left == 3


def test_the_spell_may_stop_after_the_first_component_but_not_before() -> None:
    s = pos(hands=[["AH", "2S"], ["6S"]], deck=["3S", "4S", "5S", "7S", "8S", "9S", "10S", "JS", "QS"])
    assert "stop" not in keys(s)
    s.apply_key("play AH")
    assert "stop" in keys(s)
    s.apply_key("stop")
    assert s.turn_player == 1 and s.discard[-1] == "AH"


def test_ward_survives_to_absorb_damage_then_goes_at_the_start_of_the_casters_turn() -> None:
    s = pos(hands=[["7S", "2D"], ["AC", "KH", "4S"]], deck=["3D", "4D", "5D", "6D", "7D", "8D", "9D", "10D"])
    s.apply_key("play 7S")  # Greater Ward 2, spell spent
    assert s.turn_player == 1 and s.wards[0] == ["7S"]
    s.apply_key("play KH")  # Major Vigor: three more components
    s.apply_key("play AC")  # Lesser Wrath 1: absorbed, the ward has 1 left and stays
    assert len(s.damage[0]) == 0 and ward(s, 0) == [["7S", 1]] and "7S" not in s.discard
    s.apply_key("stop")
    # back to the caster: the half-used ward is dismissed before she casts
    assert s.turn_player == 0 and s.wards[0] == [] and "7S" in s.discard


def test_fortune_draws_can_join_the_same_spell() -> None:
    s = pos(hands=[["KH", "AD"], ["2S", "3S"]], deck=["QC"])
    s.apply_key("play KH")
    s.apply_key("play AD")  # draws the Major Wrath
    assert "play QC" in keys(s)
    s.apply_key("play QC")
    assert len(s.damage[1]) == 2  # both of the rival's cards


def test_wrath_damage_goes_to_the_damage_pile_and_the_victim_chooses() -> None:
    s = pos(hands=[["9C"], ["AS", "KS", "QH", "2D"]])
    s.apply_key("play 9C")  # Greater Wrath: 2 damage, rival has 4 cards: they choose
    assert s.current_player == 1 and keys(s) == {"discard AS", "discard KS", "discard QH", "discard 2D"}
    with pytest.raises(IllegalActionError):
        s.apply_key("play AS")
    s.apply_key("discard AS")
    s.apply_key("discard 2D")
    assert sorted(s.damage[1]) == ["2D", "AS"] and sorted(s.hands[1]) == ["KS", "QH"]


def test_damage_beyond_an_empty_hand_is_ignored() -> None:
    s = pos(hands=[["KH", "KC", "QC"], ["AS", "2S"]])
    s.apply_key("play KH")
    s.apply_key("play KC")  # 3 damage, 2 cards: the whole hand goes, the extra point is ignored
    assert len(s.damage[1]) == 2 and s.hands[1] == []
    s.apply_key("play QC")  # another 3: nothing more happens
    assert len(s.damage[1]) == 2


def test_a_player_with_no_cards_only_draws() -> None:
    s = pos(hands=[["KC"], ["AS", "2S"]], deck=["3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS"])
    s.apply_key("play KC")  # empties the rival's hand
    # P1 drew back to five; P2 had no cards: no spell, drew five; it is P1's turn again
    assert s.turn_player == 0 and s.turn_number == 2 and len(s.hands[1]) == 5
    assert any("has no cards" in t for t in s.log_texts())


def test_seat_0_takes_the_first_turn() -> None:
    for variant in ("", "hectic"):
        for seed in range(1, 9):
            s = new_state(2, seed, variant)
            assert (s.first_player, s.turn_player, s.current_player, s.turn_number) == (0, 0, 0, 0)
            assert s.observation(1)["first"] == 0 and s.observation(1)["turn_player"] == 0


def test_damage_piles_are_public() -> None:
    s = pos(hands=[["9C", "AS"], ["2H", "KS", "QH", "2D", "3D"]], deck=["4S", "5S", "6S", "7S", "8S", "9S", "JS"])
    s.apply_key("play 9C")  # Greater Wrath: P2 chooses the 2 cards
    s.apply_key("discard 2H")
    s.apply_key("discard 2D")
    assert "P2 puts 2H Haste (Vigor 1) on their damage pile" in s.log_texts(0)  # which cards, told to P1 too
    for seat in (0, 1):
        assert s.observation(seat)["damage"] == [[], ["2H", "2D"]]
    shown = ENGINE.look(s.observation(0), "2D")
    assert shown is not None and shown[-1] == "It is on P2's damage pile."
    # a search from P1's seat redeals P2's hand and the pile, never the damage piles
    hands: set[tuple[str, ...]] = set()
    for i in range(6):
        d = s.determinize(0, Rng(i))
        assert d.damage == [[], ["2H", "2D"]]
        hands.add(tuple(sorted(d.hands[1])))
    assert len(hands) > 1


def test_final_phase_when_the_first_player_empties_the_pile() -> None:
    # first player P1 (seat 0) draws the last card: P2 takes one more turn, then the game is over
    s = pos(hands=[["AS", "2S"], ["3S", "4S", "5S", "6S", "7S"]], deck=["8S"], first=0, turn=0)
    s.apply_key("play AS")
    assert s.last_turn == 1 and not s.is_terminal()
    s.apply_key("play 3S")
    assert s.is_terminal() and s.turn_number == 1


def test_final_phase_when_the_second_player_empties_the_pile() -> None:
    # second player P2 draws the last card: P1 takes a turn, then P2 takes a turn, then the game is over
    s = pos(hands=[["AS", "2S", "3S", "4S", "5S"], ["6S", "7S"]], deck=["8S"], first=0, turn=1, turn_number=1)
    s.apply_key("play 6S")
    assert s.last_turn == 3 and s.turn_player == 0
    s.apply_key("play AS")
    assert not s.is_terminal() and s.turn_player == 1
    s.apply_key("play 7S")
    assert s.is_terminal()


def test_no_reshuffle_when_the_pile_is_empty() -> None:
    s = pos(hands=[["KD", "AS"], ["2S"]], deck=["3S"])
    s.apply_key("play KD")  # Major Fortune: only one card left to draw
    assert s.hands[0] == ["AS", "3S"] and s.spell_pile == []


def test_smallest_damage_pile_wins_and_ties_are_reported() -> None:
    s = pos(hands=[["AS"], ["2S"]], deck=[], damage=[["3S", "4S"], ["5S"]], end_after_turn=0)
    s.apply_key("play AS")
    o = s.outcome()
    assert o is not None and o.winners == (1,) and "1 against 2" in o.reason
    s = pos(hands=[["AS"], ["2S"]], deck=[], damage=[["3S"], ["5S"]], end_after_turn=0)
    s.apply_key("play AS")
    o = s.outcome()
    assert o is not None and o.winners == (0, 1) and o.reason.startswith("tie") and s.returns() == [0.0, 0.0]


def test_wild_magic_is_a_major_and_lesser_component_of_a_chosen_school() -> None:
    s = pos(hands=[["WM#1", "2S"], ["AS", "3S", "4S", "5S", "6S"]])
    assert {"play WM#1 ward", "play WM#1 vigor", "play WM#1 fortune", "play WM#1 wrath"} <= keys(s)
    s.apply_key("play WM#1 wrath")  # magnitude 4
    assert s.current_player == 1 and s.damage_due == 4
    s = pos(hands=[["WM#2", "2C", "3C", "4C", "5C", "6C"], ["AS"]])
    s.apply_key("play WM#2 vigor")
    assert s.plays_left == 4  # 1 - 1 + 4
    s = pos(hands=[["WM#1"], ["KC", "QC"]])
    s.apply_key("play WM#1 ward")
    assert ward(s, 0) == [["WM#1", 4]] and "WM#1" not in s.discard


def test_hectic_vigor_costs_no_play_and_players_draw_at_the_start_too() -> None:
    s = setup({"hands": [["AH", "2C"], ["3S"]], "deck": ["4S", "5S", "6S", "7S", "8S", "9S"], "rest": "discard"},
              variant="hectic")
    assert len(s.hands[0]) == 5  # drew up to five at the start of the turn
    s.apply_key("play AH")
    assert s.plays_left == 2  # Lesser Vigor gave 1 without using the free play


def test_constructed_draft_then_separate_decks() -> None:
    s = new_state(2, 21, "constructed")
    assert s.phase == Phase.DRAFT and s.current_player == s.first_drafter
    assert all(pile[-1].startswith("K") and pile[0].startswith("A") for pile in s.draft_piles.values())
    s.apply_key("draft spades")
    assert s.decks[s.first_drafter][-1] == "KS" and s.current_player == 1 - s.first_drafter
    picks = 1
    while s.phase == Phase.DRAFT:
        s.apply(s.legal_actions()[0])
        picks += 1
    assert picks == 52
    assert sorted(len(d) + len(h) for d, h in zip(s.decks, s.hands)) == [27, 27]  # 26 drafted + 1 joker each
    assert s.first_player == 1 - s.first_drafter and s.turn_player == s.first_player  # the second picker starts
    assert all(len(h) == 5 for h in s.hands)


def test_a_saved_game_with_a_card_twice_or_missing_is_refused() -> None:
    data = new_state(2, 5).to_json()
    data["hands"][0] = data["hands"][0] + [data["hands"][1][0]]  # one card in both hands
    with pytest.raises(SaveError, match="twice"):
        ENGINE.from_json(data)
    data = new_state(2, 5).to_json()
    gone = data["hands"][0].pop()
    with pytest.raises(SaveError, match=f"missing: \\['{gone}'\\]"):
        ENGINE.from_json(data)


def test_the_constructed_draft_can_be_set_up_with_its_first_picker_scripted() -> None:
    """The draft's first picker is left to chance by the rules: a scenario names it, or scripts the pick."""
    s = setup({"phase": "draft", "drafter": 1}, variant="constructed")
    assert s.phase == Phase.DRAFT and s.current_player == 1 and s.draft_piles["hearts"][-1] == "KH"
    s = setup({}, variant="constructed", picks=("0",))
    assert s.current_player == 0 and s.chance.picks == ()
    from wizprint.errors import EngineError

    with pytest.raises(EngineError, match="does not script"):
        setup({}, variant="constructed")  # strict: the random first picker must be scripted


def test_constructed_decks_per_seat_can_be_set_up() -> None:
    s = setup({"decks": [["KS", "QS"], ["KH"]], "hands": [["AS"], ["AH"]], "rest": "discard"}, variant="constructed")
    assert s.phase == Phase.SPELL and s.decks[0][-1] == "KS" and s.decks[1] == ["KH"] and s.hands[0] == ["AS"]
    assert s.probe()["deck.1"] == 1


# -- what the player reads -----------------------------------------------------------------------------------------
def test_the_screen_header_says_the_turn_the_seat_and_how_to_win() -> None:
    s = pos(hands=[["AH", "2S"], ["6S"]], deck=["3S", "4S"])
    assert ENGINE.screen(s.observation(0)).header == "Turn 1: your turn · you are P1 · the smaller damage pile wins"
    assert ENGINE.screen(s.observation(1)).header == "Turn 1: P1's turn · you are P2 · the smaller damage pile wins"


def test_a_card_has_one_name_the_title_its_printed_card_shows() -> None:
    """The printed card's title is the spell's name (``Double Spell``); ``Greater Vigor`` is what it is. Hand,
    options, log and ``look`` name it the same way."""
    s = pos(hands=[["8H", "2S"], ["6S"]], deck=["3S", "4S", "5S"])
    assert ENGINE.data.label("8H") == "8H Double Spell"
    hand = ENGINE.screen(s.observation(0)).panel("hand")
    assert hand is not None and "8H Double Spell (Vigor 2)" in hand.lines[0]
    assert s.describe(next(a for a in s.legal_actions() if a.a == "8H")).startswith("play 8H Double Spell (Vigor 2)")
    shown = ENGINE.look(s.observation(0), "8H")
    assert shown is not None and shown[0].startswith("[bold]8H Double Spell[/bold] (Greater Vigor: Vigor 2")
    s.apply_key("play 8H")
    assert "P1 casts 8H Double Spell: Vigor 2" in s.log_texts()
    for c in ENGINE.data.spells:  # look's title is the card's label everywhere
        found = ENGINE.look(s.observation(0), c)
        assert found is not None and found[0].startswith(f"[bold]{ENGINE.data.label(c)}[/bold]")


def test_a_wrath_question_names_a_ward_only_when_there_is_one() -> None:
    s = pos(hands=[["9C"], ["2H", "3H", "4H"]], deck=["3S", "4S", "5S", "6S", "7S", "8S"])
    s.apply_key("play 9C")  # Greater Wrath: no ward, two cards to the damage pile
    assert s.question() == "P1's Wrath: put 2 cards from your hand on your damage pile, one at a time"
    s = pos(hands=[["9C"], ["2H", "3H", "4H"]], wards=[[], ["AS"]], deck=["3S", "4S", "5S", "6S", "7S", "8S"])
    s.apply_key("play 9C")  # the Lesser Ward stops one
    assert s.question() == "P1's Wrath: put 1 card from your hand on your damage pile"
    assert "P2's ward AS Shield of Wood stops 1 and is spent" in s.log_texts()


def test_the_log_names_every_card() -> None:
    s = pos(hands=[["AD", "9C"], ["2H", "3H", "4H"]], deck=["JS", "KS", "3S", "4S"])
    s.apply_key("play AD")  # Lesser Fortune draws the Major Ward; the spell ends, P1 draws back up to five
    mine, theirs = s.log_texts(0), s.log_texts(1)
    assert mine[mine.index("P1 draws 1 card (Fortune 1)") + 1] == "you draw JS Fortress of Iron (Ward 3)"
    assert "you draw JS Fortress of Iron (Ward 3)" not in theirs
    assert ("you draw KS Fortress of Iron (Ward 3), 3S Shield of Wood (Ward 1) and 4S Shield of Wood (Ward 1)"
            in mine)
    assert "P1 draws 3 cards (back up to five)" in theirs


def test_a_drafted_deck_shows_the_names_of_its_cards() -> None:
    s = setup({}, "constructed", picks=("0",))
    s.apply_key("draft spades")
    s.apply_key("draft hearts")
    decks = ENGINE.screen(s.observation(0)).panel("decks")
    assert decks is not None
    assert decks.lines[1] == "Your deck (2 cards): WM#1 Wild Magic (Wild Magic 4), KS Fortress of Iron (Ward 3)"
    assert decks.lines[2] == ("P2's cards, in deck or hand (2 cards): WM#2 Wild Magic (Wild Magic 4), KH Arcane "
                              "Mastery (Vigor 3)")
    assert "P1 drafts KS Fortress of Iron (Ward 3)" in s.log_texts()


def test_look_a_player() -> None:
    s = pos(hands=[["AH", "2S"], ["6S", "7C"]], wards=[[], ["3S"]], damage=[["4S"], []], deck=["5S"])
    assert ENGINE.look(s.observation(0), "P2") == ["P2: 2 cards in hand, damage pile 0 cards",
                                                   "  ward: 3S Shield of Wood (Ward 1) stops 1 more"]
    assert ENGINE.look(s.observation(0), "p1") == ["You: 2 cards in hand, damage pile 1 card"]
