"""Wizards & Relics (``../shared/rules/wizards-and-relics.txt``): the engine's set-up, turn order, Replenish,
reshuffle, what each seat may see, illegal plays and automaton checks. Positions come from the engine's
scenario ``setup`` under strict chance (an unscripted random choice is an error), so every number asserted is worked
out by hand in the comments. Unless a test says otherwise the shrine is S05 Sunken Obelisk (blue wizards +2) and
nobody plays a blue wizard; "P1" in the log is seat 0."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import run_here

from wizprint.errors import IllegalActionError, SaveError
from wizprint.solo.agents import RandomAgent
from wizprint.solo.games.wizards_and_relics import WizardsAndRelicsState
from wizprint.solo.games.wizards_and_relics.pending import Ask, Choose, Round, Setup
from wizprint.solo.kernel import Action, Chance, engine

GAME = "wizards-and-relics"
ENGINE = engine(GAME)
D = ENGINE.data


def mk(players: int = 2, seed: int = 1, **table: Any) -> WizardsAndRelicsState:
    """A round about to begin (the Play phase is waiting for the Master Wizard)."""
    table.setdefault("shrine", "S05")
    s = ENGINE.setup(table, players, seed, "", Chance(strict=True))
    assert isinstance(s, WizardsAndRelicsState)
    return s


def dealt(players: int, master: int = 0, seed: int = 1) -> WizardsAndRelicsState:
    """The set-up itself: the four decks dealt from the seed, waiting for the Master Wizard to choose one."""
    s = ENGINE.setup({"phase": "setup", "master": master}, players, seed, "", Chance(strict=True))
    assert isinstance(s, WizardsAndRelicsState)
    return s


def do(s: WizardsAndRelicsState, *keys: str) -> None:
    for k in keys:
        s.apply_key(k)


def legal(s: WizardsAndRelicsState) -> list[str]:
    return sorted(a.key for a in s.legal_actions())


def said(s: WizardsAndRelicsState, text: str) -> int:
    """The index of the first log line containing ``text`` (-1 if none)."""
    return next((i for i, e in enumerate(s.log_texts()) if text in e), -1)


# -- set-up --------------------------------------------------------------------------------------------------------
def test_the_setup_deals_four_decks_of_30_with_15_wizards_and_15_relics_by_rarity() -> None:
    want = Counter({("wizard", "glorious"): 3, ("wizard", "superb"): 6, ("wizard", "common"): 6,
                    ("relic", "glorious"): 3, ("relic", "superb"): 6, ("relic", "common"): 6})
    for seed in (1, 2):
        s = ENGINE.new_state(2, seed)
        assert isinstance(s, WizardsAndRelicsState)
        assert [len(p) for p in s.piles] == [30, 30, 30, 30]
        for p in s.piles:
            assert Counter((D[c].kind, D[c].rarity) for c in p) == want
        every = [c for p in s.piles for c in p]
        assert sorted(every) == sorted(D.wizards + D.relics)  # 120 cards, each dealt once
        assert sorted(s.shrine_pile) == D.shrines and len(D.shrines) == 24
        assert isinstance(s.stack[-1], Setup) and s.current_player == s.master
    a, b = ENGINE.new_state(2, 1), ENGINE.new_state(2, 2)
    assert isinstance(a, WizardsAndRelicsState) and isinstance(b, WizardsAndRelicsState)
    assert a.piles != b.piles  # each rarity pile is shuffled


def test_each_player_chooses_a_deck_clockwise_from_the_master_and_draws_7() -> None:
    s = dealt(3, master=1)
    piles = [sorted(p) for p in s.piles]
    assert s.current_player == 1 and legal(s) == ["deck 1", "deck 2", "deck 3", "deck 4"]
    do(s, "deck 3")
    assert s.current_player == 2 and legal(s) == ["deck 1", "deck 2", "deck 4"]
    do(s, "deck 1")
    assert s.current_player == 0 and "deck 1" not in legal(s)
    do(s, "deck 4")
    assert s.chosen_deck == [3, 2, 0]
    for seat, pile in ((0, 3), (1, 2), (2, 0)):
        assert len(s.hands[seat]) == 7 and len(s.decks[seat]) == 23
        assert sorted(s.hands[seat] + s.decks[seat]) == piles[pile]
    assert sorted(s.piles[1]) == piles[1] and [len(p) for p in s.piles] == [0, 30, 0, 0]  # the extra deck, aside
    # the mulligan is next, from the Master Wizard; the decks are private: a seat sees its own deck only
    top = s.stack[-1]
    assert isinstance(top, Choose) and top.ask is Ask.MULLIGAN and s.current_player == 1
    assert s.observation(1)["my_deck"] == sorted(s.decks[1]) and s.observation(2)["my_deck"] == sorted(s.decks[2])
    four = dealt(4)
    do(four, "deck 2", "deck 4", "deck 1")  # the fourth player is left one deck: no choice to make
    assert four.chosen_deck == [1, 3, 0, 2] and all(len(h) == 7 for h in four.hands)


def test_the_master_wizard_of_the_first_round_is_chosen_at_random() -> None:
    for players in (2, 3, 4):
        masters = []
        for seed in range(1, 25):
            s = ENGINE.new_state(players, seed)
            assert isinstance(s, WizardsAndRelicsState)
            assert s.log_texts()[0] == f"P{s.master + 1} is the Master Wizard of the first round"
            assert s.current_player == s.master  # the first to choose a deck
            masters.append(s.master)
        assert set(masters) == set(range(players))  # any seat can be the first Master Wizard


def test_the_mulligan_sets_cards_aside_redraws_then_shuffles_them_back_once() -> None:
    s = dealt(2)
    do(s, "deck 1", "deck 2")
    hand = sorted(s.hands[0])
    aside = hand[:3]
    deck = list(s.decks[0])
    new = deck[-3:]  # the top three (a pile's top is its end)
    assert legal(s) == sorted(["keep"] + [f"aside {c}" for c in hand])
    do(s, f"aside {aside[0]}", f"aside {hand[3]}", f"back {hand[3]}", f"aside {aside[1]}", f"aside {aside[2]}")
    assert "pending" in s.observation(1) and "aside" not in s.observation(1)["pending"]  # the picks are private
    do(s, "keep")
    assert sorted(s.hands[0]) == sorted(hand[3:] + new)  # drawn before the set-aside cards go back
    assert len(s.decks[0]) == 23 and set(aside) <= set(s.decks[0])
    assert s.decks[0] != deck[:-3] + aside  # shuffled back in, not laid on top
    assert said(s, "P1 keeps the rest and draws 3 new cards") >= 0
    kept = sorted(s.hands[1])
    do(s, "keep")
    assert sorted(s.hands[1]) == kept
    # once only: the first round has begun and nothing but plays is offered
    assert s.round == 1 and isinstance(s.stack[-1], Round)
    assert all(k.startswith("play ") for k in legal(s))
    agent = RandomAgent(3)
    while not s.is_terminal():  # and never again, to the end of the game
        assert not any(k.split()[0] in ("keep", "aside", "back") for k in legal(s))
        s.apply(agent.choose(s, s.current_player))
    assert s.round > 1


# -- order ---------------------------------------------------------------------------------------------------------
def test_play_goes_clockwise_from_the_master_and_the_round_winner_becomes_master() -> None:
    s = mk(4, master=2, hands=[["W01", "R01", "W13", "R37"], ["W14", "R38", "W15", "R39"],
                               ["W16", "R40", "W17", "R41"], ["W05", "R42", "W06", "R43"]],
           decks=[["R44"], ["R45", "W45"], ["R46", "W46"], ["R47", "W47"]])
    seen = []
    for key in {2: "play W16 R40", 3: "play W05 R42", 0: "play W01 R01", 1: "play W14 R38"}.values():
        seen.append(s.current_player)
        do(s, key)
    assert seen == [2, 3, 0, 1]
    # seat 0: red Devoted 5 + Sunforged Crown 3 = 8 beats three red Devoted 4 + 2 = 6
    assert s.last_totals == {2: 6, 3: 6, 0: 8, 1: 6} and s.current_player == 0
    do(s, "draw")
    assert s.master == 0 and s.round == 2 and s.order() == [0, 1, 2, 3] and s.current_player == 0
    assert said(s, "P1 won the round and is the Master Wizard of the next") >= 0


# -- Replenish, reshuffle --------------------------------------------------------------------------------------------
def test_replenish_at_one_card_happens_at_once_in_any_phase() -> None:
    # Seat 1 (two wizards in the Hall: up to 5) keeps 2 cards after playing: no Replenish; Thief's Hook then makes it
    # discard one during the reveal: down to 1, it Replenishes at once, before the totals are made.
    s = mk(halls=[[], ["W21", "W22"]], hands=[["W01", "R29", "W13", "R37"], ["W14", "R38", "W15", "R39"]],
           decks=[["R44"], ["W45", "R45", "W46", "R46", "W47", "R47"]])
    do(s, "play W01 R29", "play W14 R38")
    assert s.current_player == 1 and len(s.hands[1]) == 2 and legal(s) == ["discard R39", "discard W15"]
    do(s, "discard R39")
    assert sorted(s.hands[1]) == ["R45", "R46", "W15", "W45", "W46"]
    replenish = said(s, "P2 draws 4 cards (Replenish: down to 1 card, up to 5)")
    assert 0 <= replenish < said(s, "Totals: P1 8, P2 6")  # 5 + 3 against 4 + 2
    assert len(s.hands[0]) == 2  # two cards: no Replenish


def test_the_gatherer_adds_one_per_card_drawn_this_round_at_most_four() -> None:
    # Seat 0 plays down to 1 card: Replenish 6 (up to 7), The Gatherer draws 1: 7 cards drawn, +4 at most:
    # 3 + Apprentice's Wand 2 + 4 = 9 against green Devoted 4 + 2 = 6
    s = mk(hands=[["W49", "R37", "W13"], ["W54", "R38", "W55", "R39"]],
           decks=[["W14", "R40", "W15", "R41", "W16", "R42", "W17", "R43"], ["R44"]])
    do(s, "play W49 R37", "play W54 R38")
    assert s.drawn[0] == 7 and s.last_totals == {0: 9, 1: 6}
    assert said(s, "P1 +4 power (The Gatherer") >= 0


def test_an_empty_deck_is_reshuffled_from_the_discard_pile() -> None:
    s = mk(hands=[["W01", "R01", "W13", "R37"], ["W14", "R38", "W15", "R39"]], discards=[["W45", "R46"], []],
           decks=[[], []])
    do(s, "play W01 R01", "play W14 R38")  # 8 against 6; Phase 4 puts Sunforged Crown on the discard pile
    assert s.discards[0] == ["W45", "R46", "R01"] and s.decks[0] == []
    do(s, "draw")  # the spoils: the deck is empty, so the discard pile becomes the deck
    assert said(s, "P1's deck is empty: their discard pile is shuffled into it") >= 0
    assert s.discards[0] == [] and len(s.decks[0]) == 2
    assert sorted(s.hands[0] + s.decks[0]) == ["R01", "R37", "R46", "W13", "W45"]
    # the loser: deck and discard pile both empty when it draws 2 for losing; nothing to draw
    assert said(s, "P2 draws no card: deck and discard pile are empty") >= 0
    assert s.hands[1] == ["W15", "R39"] and s.discards[1] == ["W14", "R38"]


def test_the_used_shrines_are_shuffled_into_a_new_pile_when_the_pile_runs_out() -> None:
    s = mk(hands=[["W01", "R01", "W13", "R37"], ["W14", "R38", "W15", "R39"]], decks=[["R40", "W16"], ["R41", "W17"]])
    assert s.shrine == ["S05"] and len(s.shrine_pile) == 23
    s.shrines_used, s.shrine_pile = list(s.shrine_pile), []  # as after 23 rounds: S05 is the last shrine
    s.check_zones()
    used = [*s.shrines_used, "S05"]
    do(s, "play W01 R01", "play W14 R38", "draw")  # 8 against 6; then round 2 begins with an empty shrine pile
    assert said(s, "The shrine pile is empty: the used shrines are shuffled into a new pile") >= 0
    assert s.round == 2 and s.shrines_used == [] and len(s.shrine) == 1 and len(s.shrine_pile) == 23
    assert sorted(s.shrine_pile + s.shrine) == D.shrines  # every shrine, S05 included
    assert s.shrine_pile + s.shrine != used  # shuffled
    assert said(s, f"Round 2: the shrine is {D.label(s.shrine[0])}") >= 0


# Each battle's plays of P1 (seat 0) and P3 (seat 2): the same colour, equal totals, never advantage between them
TIE_PLAYS = [(("W13", "R37"), ("W14", "R38")),  # red 4 + 2 each (+1 each for advantage over P2's green wizard)
             (("W15", "R40"), ("W16", "R41")),  # red 4 + 2
             (("W17", "R42"), ("W05", "R43")),  # red 4 + 2
             (("W06", "R01"), ("W01", "R45")),  # red 4 + 3 and 5 + 2
             (("W07", "R46"), ("W08", "R47")),  # red 5 + 2
             (("W25", "R48"), ("W26", "R13")),  # blue 4 + 2
             (("W27", "R14"), ("W28", "R15")),  # blue 4 + 2
             (("W33", "R17"), ("W34", "R18")),  # blue 4 + 2
             (("W35", "R19"), ("W36", "R21")),  # blue 4 + 2
             (("W37", "R02"), ("W21", "R44")),  # blue 4 + 3 and 5 + 2
             (("W45", "R03"), ("W46", "R04")),  # green 4 + 3
             (("W54", "R05"), ("W55", "R06"))]  # green 4 + 3


def test_the_twelfth_tie_of_a_round_is_broken_for_the_first_tied_player_clockwise_from_the_master() -> None:
    # Each hand holds the next plays in order: two cards played a battle, a Replenish of 6 whenever one is left.
    # The shrine, Wishing Stump, affects wizards of power 3 or less: none here.
    p1 = [c for plays in TIE_PLAYS for c in plays[0]]
    p3 = [c for plays in TIE_PLAYS for c in plays[1]]
    s = mk(3, master=1, shrine="S21", hands=[p1[:7], ["W53", "R39"], p3[:7]],
           decks=[[*p1[7:], "R16", "R20", "W56"], ["R24", "W41", "W47", "W48", "R22", "W18", "W20"],
                  [*p3[7:], "R23", "W57"]])
    do(s, "play W53 R39")  # P2, the Master Wizard: green 4 + 2 = 6, out of the round after the first battle
    for battle, ((w1, r1), (w3, r3)) in enumerate(TIE_PLAYS):
        assert s.battle == battle and s.current_player == 2  # clockwise from P2: P3, then P1
        do(s, f"play {w3} {r3}", f"play {w1} {r1}")
        total = s.last_totals[0]
        assert s.last_totals[2] == total == (7 if battle in (0, 3, 4, 9, 10, 11) else 6)
        if battle < 11:  # ties 1 to 11: the tied players battle again
            assert said(s, f"A tie at {total}: P3 and P1 battle again") >= 0 and s.fighters == [2, 0]
    # the 12th tie is broken for P3, the first of the tied players clockwise from the Master Wizard (P2)
    assert said(s, "A tie for the 12th time this round: it is broken for P3, first from the Master Wizard") >= 0
    assert s.halls == [[], [], ["W55"]] and s.current_player == 2
    assert {"take R05", "take R37", "take R39"} <= set(legal(s))  # P1's relics of every battle, P2's of the first


# -- what each seat sees -----------------------------------------------------------------------------------------
def test_discard_piles_are_public() -> None:
    s = mk(hands=[["W01", "R01", "W13"], ["W14", "R38", "W15"]], discards=[["W45", "R46"], ["R49"]],
           decks=[["R44"], ["R45", "W46"]])
    for seat in (0, 1):
        obs = s.observation(seat)
        assert obs["discards"] == [["W45", "R46"], ["R49"]]
    look = ENGINE.code.look(D, s.observation(1), "W45")
    assert look is not None and "It is in P1's discard pile." in look[-1]
    assert any("top: R46" in line for line in ENGINE.code.view(D, s.observation(1)))


def test_a_secret_play_is_hidden_from_the_others_until_everyone_has_played() -> None:
    s = mk(3, hands=[["W01", "R37", "W13"], ["W14", "R38", "W15"], ["W07", "R01", "W16"]],
           decks=[["R44", "W45"], ["R45", "W46"], ["R46"]])
    do(s, "play W01 R37")
    assert s.observation(0)["committed"] == {"0": "W01 R37", "1": None, "2": None}
    for seat in (1, 2):
        obs = s.observation(seat)
        assert obs["committed"] == {"0": "committed", "1": None, "2": None}
        text = json.dumps(obs)
        assert "W01" not in text and "R37" not in text, f"seat {seat} sees seat 0's face-down cards"
        assert obs["hand_sizes"][0] == 3  # the cards are face down, not yet gone from the count
    do(s, "play W14 R38")
    assert "W01" not in json.dumps(s.observation(2)) and "W14" not in json.dumps(s.observation(2))
    do(s, "play W07 R01")  # all have played: the reveal. Seat 2 wins, 5 + 3 = 8 against 5 + 2 = 7 and 4 + 2 = 6
    obs = s.observation(1)
    assert obs["wizards"][0] == ["W01"] and obs["relics"][0] == ["R37"] and obs["halls"][2] == ["W07"]


def test_illegal_plays_are_refused_and_change_nothing() -> None:
    s = mk(hands=[["W01", "R37", "W13"], ["W14", "R38", "W15"]], decks=[["R44"], ["R45", "W46"]])
    before = s.to_json()
    for bad in (Action("play", "W02", "R37"),   # W02 is not in the hand
                Action("play", "W01", "R38"),   # R38 is in the other player's hand
                Action("play", "R37", "W01"),   # a relic is no wizard
                Action("play", "none", "R37"),  # holding a wizard, the player must play one
                Action("draw")):                # not the spoils
        with pytest.raises(IllegalActionError):
            s.apply(bad)
        assert s.to_json() == before
    with pytest.raises(IllegalActionError):
        s.apply_key("play W13 R44")  # R44 is on the deck, not in the hand
    assert s.to_json() == before and s.current_player == 0


def test_a_card_revealed_from_hand_is_known_to_every_seat() -> None:
    # Hollis Burrowfoot reveals each relic in hand: R44 and R45 (+2); W13 stays hidden
    s = mk(hands=[["W59", "R37", "R44", "R45", "W13"], ["W01", "R01", "W14"]], decks=[["R46", "W46"], ["R47"]])
    do(s, "play W59 R37", "play W01 R01")
    assert said(s, "P1 reveals from their hand: R44 Bag of Marbles, R45 Frayed Spellbook") >= 0
    assert s.last_totals == {0: 6, 1: 9}  # 2 + 2 + 2 against 5 + 3 + 1 (red has advantage over green)
    obs = s.observation(1)
    assert obs["known_hand"][0] == ["R44", "R45"] and "W13" not in json.dumps(obs)
    assert any("known in hand: R44 Bag of Marbles, R45 Frayed Spellbook" in line for line in ENGINE.code.view(D, obs))
    look = ENGINE.code.look(D, obs, "R44")
    assert look is not None and look[-1] == "It is in P1's hand (everyone has seen it)."
    do(s, "draw")  # the cards drawn for losing stay hidden; the revealed ones stay known
    assert s.hands[0][-2:] == ["R46", "W46"]
    assert ENGINE.code.look(D, s.observation(1), "R46") == [
        "[bold]R46 Wooden Spoon[/bold]: Basic relic, power 2, Common", "Basic relic: adds 2 power, no enchantment",
        "You do not know where it is."]
    assert s.observation(1)["known_hand"][0] == ["R44", "R45"] and "R46" not in json.dumps(s.observation(1))


# -- ignored and silenced cards -------------------------------------------------------------------------------------
def test_a_relic_ignored_in_a_battle_that_ends_in_a_tie_fires_no_loss_trigger() -> None:
    # battle 1, every wizard red (no advantage): P1 4 + Shard of Binding 1 = 5 (it ignores P3's Homing Pebble),
    # P2 4 + Counting Stones 1 (no wizard in the discard pile) = 5, P3 4 + the ignored Pebble = 4: P3 is out
    s = mk(3, hands=[["W13", "R26", "W16", "R38", "W01", "R44", "R45"],
                     ["W14", "R60", "W18", "R39", "W02", "R46", "R47"], ["W15", "R51", "W05", "R40", "R41"]],
           decks=[["W45"], ["W46", "R48"], ["W47", "W48"]])
    do(s, "play W13 R26", "play W14 R60", "play W15 R51")
    assert legal(s) == ["ignore R51", "ignore R60"]
    do(s, "ignore R51")
    assert s.last_totals == {0: 5, 1: 5, 2: 4} and s.fighters == [0, 1] and s.tied[2] == ["W15", "R51"]
    # battle 2: P1 4 + 2 = 6 against P2 3 + 2 = 5; P1 wins and draws; P3 lost with the ignored Pebble: it stays out
    do(s, "play W16 R38", "play W18 R39", "draw")
    assert s.round == 2 and sorted(s.hands[2]) == ["R40", "R41", "W05", "W47", "W48"]
    assert s.discards[2] == ["W15", "R51"] and said(s, "R51 Homing Pebble lost the round") == -1


# -- triggers that fire together -----------------------------------------------------------------------------------
def quill_and_tome() -> WizardsAndRelicsState:
    """P2 holds no wizard in phase 2: the hand (Dusty Tome, Owl-Feather Quill, Crystal Pendant) is discarded, P2
    Replenishes 7 (W53 ... W56), and the Tome (draw 2) and the Quill (put a card from the discard pile on top of the
    deck) fire together: P2 is asked which resolves first."""
    s = mk(hands=[["W13", "R37", "W14"], ["R49", "R53", "R42"]], discards=[[], ["W57"]],
           decks=[["R38", "W15", "R39"], ["W53", "R44", "W54", "R46", "W55", "R47", "W56", "R48", "R50"]])
    do(s, "play W13 R37")
    return s


def test_the_owner_orders_triggers_that_fire_together_and_the_order_changes_the_result() -> None:
    s = quill_and_tome()
    top = s.stack[-1]
    assert isinstance(top, Choose) and top.ask is Ask.TRIGGER and s.current_player == 1
    assert legal(s) == ["resolve R49", "resolve R53"]
    assert s.question() == ("Your cards' triggers fire together (they were discarded): you choose the order; which "
                            "resolves first?")
    assert s.describe(Action("resolve", "R53")).startswith("resolve this trigger first: R53 Owl-Feather Quill (")
    quill_first = s.clone()
    do(quill_first, "resolve R53", "put W57")  # the Quill puts W57 on top, then the Tome draws W57 and R48
    assert sorted(quill_first.hands[1])[-3:] == ["W55", "W56", "W57"] and "R48" in quill_first.hands[1]
    assert quill_first.decks[1] == ["R50"] and quill_first.discards[1] == ["R49", "R53", "R42"]
    tome_first = s.clone()
    do(tome_first, "resolve R49")  # the Tome draws R48 and R50: the deck runs out and the discard pile refills it
    assert "R50" in tome_first.hands[1] and "W57" not in tome_first.hands[1]
    assert sorted(tome_first.decks[1]) == ["R42", "R49", "R53", "W57"] and tome_first.discards[1] == []
    assert said(tome_first, "Owl-Feather Quill: P2 has no card in their discard pile") >= 0
    assert tome_first.current_player == 1 and legal(tome_first)[0].startswith("play ")
    # the pending triggers and the question survive a save and a clone, and a saved game is checked
    for x in (s.clone(), ENGINE.from_json(json.loads(json.dumps(s.to_json())))):
        assert isinstance(x, WizardsAndRelicsState) and x.to_json() == s.to_json() and legal(x) == legal(s)
    bad = json.loads(json.dumps(s.to_json()))
    bad["stack"] = [item for item in bad["stack"] if item["kind"] != "triggers"]
    with pytest.raises(SaveError, match=r"state\.stack\[\d\]\.ask: an order of triggers is asked with no triggers"):
        ENGINE.from_json(bad)


def test_the_automaton_and_the_search_choose_an_order_of_triggers() -> None:
    from wizprint.solo.agents.mcts import MctsAgent

    s = quill_and_tome()
    # the automaton resolves a trigger that puts a card on top before one that draws
    assert ENGINE.code.automaton().choose(s, 1) == Action("resolve", "R53")
    assert MctsAgent(ENGINE, iterations=20, seed=1, max_rollout=30).choose(s, 1) in s.legal_actions()


def test_triggers_whose_order_cannot_matter_resolve_without_a_question() -> None:
    # P2 loses with Pebble the Patient and Homing Pebble: both return to hand, whatever the order
    s = mk(hands=[["W01", "R01", "W13"], ["W60", "R51", "W14"]], decks=[["R44", "W45"], ["R45", "W46"]])
    do(s, "play W01 R01", "play W60 R51", "draw")  # 5 + 3 + advantage 1 (red over green) = 9 against 3 + 1 + 2 = 6
    assert sorted(s.hands[1]) == ["R45", "R51", "W14", "W46", "W60"] and s.round == 2
    assert said(s, "W60 Pebble the Patient lost the round") >= 0 and said(s, "R51 Homing Pebble lost the round") >= 0


# -- automaton checks ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_solo_check_plays_50_games_without_errors(players: int, tmp_path: Path) -> None:
    out = tmp_path / "check.json"
    # one process (--jobs 1, the default): the command runs in this one
    r = run_here("solo", "check", GAME, "--games", "50", "--players", str(players), "--quiet", "--json", str(out))
    assert r.returncode == 0, r.stdout + r.stderr
    summary = json.loads(out.read_text(encoding="utf-8"))
    assert summary["players"] == players and summary["games"] == 50
    assert summary["completed"] == 50 and summary["errors"] == [] and summary["step_cap_hits"] == 0
    assert "0 errors" in r.stdout


def test_wizprint_games_lists_every_count_of_the_rulebook() -> None:
    """`wizprint games` lists the game with its components and the colour and rarity split of the 120 cards."""
    res = run_here("games")  # what it prints: in-process
    assert res.returncode == 0, res.stderr
    out = res.stdout
    block = out.split("wizards-and-relics:", 1)[1].split("\n\n", 1)[0]
    for line in ("deck duel: Wizard and relic cards, 120 cards (60 wizard, 60 relic)",
                 "wizard: colour 20 red, 20 blue, 20 green; rarity 24 common, 24 superb, 12 glorious",
                 "relic: rarity 24 common, 24 superb, 12 glorious",
                 "deck shrines: Shrine cards, 24 cards (24 shrine)", "deck friends: Friend cards, 4 cards (4 friend)",
                 "board map:", "tokens power-tokens: +1/+3 tokens (double-sided: +1 on the front, +3 on the back) x12"):
        assert line in block, line
