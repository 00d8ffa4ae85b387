"""Wizards & Relics at the terminal (``../shared/rules/wizards-and-relics.txt``): the screen a player reads (the header,
the panels ``shrine``, ``status``, ``hand``, ``deck`` and ``piles``), the Play phase asked in two steps, the questions
and options in words, and the log lines. Positions come from the engine's scenario ``setup`` under strict chance;
unless a test says otherwise the shrine is S05 Sunken Obelisk (blue wizards +2) and nobody plays a blue wizard; "P1"
is seat 0."""

from __future__ import annotations

from typing import Any

import pytest

from wizprint.cards.markup import spoken
from wizprint.solo.games.wizards_and_relics import WizardsAndRelicsState
from wizprint.solo.kernel import Action, Chance, engine
from wizprint.solo.kernel.screen import Screen

GAME = "wizards-and-relics"
ENGINE = engine(GAME)
D = ENGINE.data


def mk(players: int = 2, **table: Any) -> WizardsAndRelicsState:
    """A round about to begin (the Play phase is waiting for the Master Wizard, seat 0 unless told)."""
    table.setdefault("shrine", "S05")
    s = ENGINE.setup(table, players, 1, "", Chance(strict=True))
    assert isinstance(s, WizardsAndRelicsState)
    return s


def dealt(players: int = 2) -> WizardsAndRelicsState:
    s = ENGINE.setup({"phase": "setup", "master": 0}, players, 1, "", Chance(strict=True))
    assert isinstance(s, WizardsAndRelicsState)
    return s


def do(s: WizardsAndRelicsState, *keys: str) -> None:
    for k in keys:
        s.apply_key(k)


def said(s: WizardsAndRelicsState, text: str) -> int:
    """The index of the first log line containing ``text`` (-1 if none)."""
    return next((i for i, e in enumerate(s.log_texts()) if text in e), -1)


def screen(s: WizardsAndRelicsState, seat: int = 0) -> Screen:
    return ENGINE.screen(s.observation(seat))


def panel(s: WizardsAndRelicsState, name: str, seat: int = 0) -> str:
    p = screen(s, seat).panel(name)
    assert p is not None, f"no panel {name!r}"
    return "\n".join(p.lines)


# -- the Play phase in two steps --------------------------------------------------------------------------------
def test_the_play_is_asked_wizard_first_then_the_relic_and_agents_still_choose_among_the_pairs() -> None:
    s = mk(hands=[["W01", "W13", "W52", "R01", "R37", "R33", "R40"], ["W14", "R38", "W15", "R39"]],
           decks=[["R44"], ["R45"]])
    legal = s.legal_actions()
    assert len(legal) == 12 and all(a.kind == "play" for a in legal)  # 3 wizards x 4 relics, as before
    two = s.two_step(legal)
    assert two is not None and "which wizard" in two.question
    assert [g.label.split(" (")[0] for g in two.groups] == ["W01 Magmara the Undimmed", "W13 Grub the Torchbearer",
                                                             "W52 Elder Rootwhisper"]  # strongest first
    assert D.spoken("W52") in two.groups[2].label  # the wizard's whole text, to choose by
    assert two.groups[1].question == "Round 1: which relic do you play with W13 Grub the Torchbearer?"
    for g, w in zip(two.groups, ("W01", "W13", "W52"), strict=True):
        assert sorted(a.key for a, _ in g.options) == sorted(f"play {w} {r}" for r in ("R01", "R33", "R37", "R40"))
    assert sorted(a.key for g in two.groups for a, _ in g.options) == sorted(a.key for a in legal)
    assert two.groups[0].options[0][1] == "R01 Sunforged Crown (relic, power 3, Glorious)"


def test_a_single_relic_is_named_in_the_question_and_each_option_is_a_wizard() -> None:
    s = mk(hands=[["W01", "W52", "R37"], ["W14", "R38", "W15", "R39"]], decks=[["R44", "R45"], ["R46"]])
    legal = s.legal_actions()
    assert s.two_step(legal) is None  # one list: a second step would offer one relic
    assert s.question() == ("Round 1: which wizard do you play face down with R37 Apprentice's Wand (relic, power 2, "
                            "Common), your only relic?")
    assert [s.describe(a) for a in legal] == [
        "play W01 Magmara the Undimmed (red wizard, power 5, Glorious, Devoted)",
        f"play W52 Elder Rootwhisper (green wizard, power 1, Superb): {D.spoken('W52')}"]


def test_a_single_wizard_is_shown_whole_in_the_question_of_its_relics() -> None:
    s = mk(hands=[["W52", "R37", "R33"], ["W14", "R38", "W15", "R39"]], decks=[["R44", "R45"], ["R46"]])
    two = s.two_step(s.legal_actions())
    assert two is not None and len(two.groups) == 1  # asked at once: the relic
    assert two.groups[0].question == (f"Round 1: your only wizard is W52 Elder Rootwhisper (green wizard, power 1, "
                                      f"Superb): {D.spoken('W52')} Which relic do you play with it?")


# -- texts whole, options in words ---------------------------------------------------------------------------------
def test_a_card_text_is_never_cut_in_the_hand_or_an_option() -> None:
    # Gaiana Stonesinger's text ends with its loss trigger, past 90 characters
    s = mk(hands=[["W19", "R37", "W44", "R38"], ["W14", "R39", "W15", "R40"]], decks=[["R44", "R45"], ["R46"]])
    whole = spoken(D.printed("W44"))
    assert whole.endswith("If you lose the round: Return this card to your hand.")
    do(s, "play W19 R37", "play W14 R39")  # Nettie Cinderwick: you may discard up to 1 card for +2 power
    option = s.describe(Action("discard", "W44"))
    assert whole in option and "…" not in option
    assert option == f"discard W44 Gaiana Stonesinger (green wizard, power 3, Glorious): {whole}"
    assert s.describe(Action("pass")) == "discard nothing"
    assert f"W44 Gaiana Stonesinger (green wizard, power 3, Glorious): {whole}" in panel(s, "hand")


def test_options_too_many_for_a_screen_with_their_texts_go_without_them() -> None:
    # a hand check of eleven cards, every wizard with an ability: the options' texts would not fit on a screen
    from wizprint.solo.games.wizards_and_relics.view import OPTION_ROWS, rows

    hand = ["W02", "W03", "W04", "W09", "W18", "W19", "W44", "W49", "W50", "W51", "W52"]
    s = mk(hands=[["W01", "R01", *hand], ["W14", "R38", "W15", "R39"]], decks=[["R44"], ["R45", "R46"]])
    do(s, "play W01 R01", "play W14 R38")  # 8 against 6: P1 wins and holds 11 cards at the hand check
    texts = [s.describe(a) for a in s.legal_actions()]
    assert s.question().startswith("Spoils, hand check: you hold 11 cards; discard 4 cards")
    assert rows([f"discard {c}: {D.spoken(c)}" for c in hand]) > OPTION_ROWS
    assert texts[0] == "discard W02 Brannoc Ironflame (red wizard, power 2, Glorious)"
    assert rows(texts) <= OPTION_ROWS and D.spoken("W44") in panel(s, "hand")


def test_the_mulligan_option_says_what_the_engine_does_draw_then_shuffle_back() -> None:
    s = dealt()
    do(s, "deck 1", "deck 2")
    hand = sorted(s.hands[0])
    assert "you draw as many new cards, then the cards set aside are shuffled into your deck" in s.question()
    assert s.describe(Action("keep")) == "keep this hand"
    do(s, f"aside {hand[0]}", f"aside {hand[1]}")
    assert s.describe(Action("keep")) == "done: draw 2 new cards, then shuffle the 2 set aside into your deck"
    assert s.describe(Action("back", hand[0])) == f"keep {D.label(hand[0])} after all"
    top = s.decks[0][-2:]
    do(s, "keep")
    assert sorted(s.hands[0]) == sorted(hand[2:] + top)  # drawn first, from the deck as it was
    assert set(hand[:2]) <= set(s.decks[0])  # then shuffled in


def test_the_deck_chosen_is_there_to_look_at_as_the_question_promises() -> None:
    s = dealt()
    assert "'deck' shows its cards" in s.question()
    assert "not chosen a deck" in panel(s, "deck")
    do(s, "deck 3", "deck 1")
    text = panel(s, "deck")
    deck = s.decks[0]
    assert len(deck) == 23 and text.startswith(f"[bold]Your deck[/bold] (23 cards: {sum(map(D.is_wizard, deck))} "
                                               "wizards")
    for c in deck:
        assert D.label(c) in text
    assert not any(D.label(c) in text for c in s.decks[1])  # another player's deck stays unknown


def test_the_spoils_show_the_battles_totals_not_stale_ones() -> None:
    s = mk(hands=[["W01", "R01", "W13", "R37"], ["W14", "R38", "W15", "R39"]], decks=[["R44"], ["R45", "W45"]])
    do(s, "play W01 R01", "play W14 R38")  # red Devoted 5 + Sunforged Crown 3 = 8 against 4 + 2 = 6
    assert s.question().startswith("You won the round. Spoils")
    obs = s.observation(0)
    assert obs["totals"] == {} and obs["advantage"] == {}
    status = panel(s, "status")
    assert "total power" not in status and "Last battle's totals: P1 8, P2 6" in status
    assert "played: W14 Milla Emberfoot, R38 Pointy Hat" in status
    assert [s.describe(a) for a in s.legal_actions()] == [
        "draw 1 card from your deck", "take P2's R38 Pointy Hat into your hand (relic, power 2, Common)"]


def test_advantage_counts_on_the_screen_and_in_the_log_only_once_it_is_checked() -> None:
    # (the shrine: S01 Ember Altar, red wizards +2) P1's green Clod Hammerstone faces two blue wizards: advantage,
    # checked after the relics. Shard of Binding (P1, the Master) resolves first: P1 chooses which rival relic to
    # ignore while the totals leave advantage out
    s = mk(3, shrine="S01", hands=[["W53", "R26", "W54", "R39"], ["W33", "R37", "W35", "R40"],
                                   ["W25", "R38", "W37", "R41"]], decks=[["R44"], ["R45"], ["R46"]])
    do(s, "play W53 R26", "play W33 R37", "play W25 R38")
    assert s.current_player == 0 and s.question().startswith("Shard of Binding: which rival relic do you ignore?")
    obs = s.observation(0)
    assert obs["totals"] == {"0": 5, "1": 6, "2": 6} and obs["advantage"] == {}  # 4 + 1, not yet + 1
    assert s.total(0) == 6  # (what the battle will count)
    assert "in play: W53 Clod Hammerstone, R26 Shard of Binding; total power 5\n" in panel(s, "status") + "\n"
    assert "advantage +" not in panel(s, "status")
    do(s, "ignore R37")
    ignored = said(s, "P1 ignores R37 Apprentice's Wand: it adds no power and its enchantment does not count; totals "
                      "now P1 5, P2 4, P3 6")
    advantage = said(s, "P1's W53 Clod Hammerstone has advantage: +1")
    assert 0 <= ignored < advantage < said(s, "Totals: P1 6, P2 4, P3 6")


# -- log lines ---------------------------------------------------------------------------------------------------------
def test_log_lines_count_in_words_and_say_each_play_once() -> None:
    # (the shrine: S01 Ember Altar, red wizards +2) P1: Elder Rootwhisper (+1 per relic in the discard pile: one)
    # with Turncoat Prism (advantage over every colour)
    s = mk(shrine="S01", hands=[["W52", "R33", "W13", "R37"], ["W33", "R38", "W35", "R39"]], discards=[["R40"], []],
           decks=[["R44", "W45"], ["R45", "W46"]])
    do(s, "play W52 R33", "play W33 R38")
    log = s.log_texts()
    assert said(s, "W52 Elder Rootwhisper also has advantage over wizards of every colour") >= 0
    assert said(s, "P1 +1 power (Elder Rootwhisper: 1 relic in their discard pile); total now 5") >= 0  # 1+2+1+1
    assert said(s, "Totals: P1 5, P2 6") >= 0
    for x in ("P1", "P2"):
        assert log.count(f"{x} lays a wizard and a relic face down") == 1
    assert not any("lay a wizard and a relic face down" in line for line in log)  # no second line for all of them
    assert "you play W52 Elder Rootwhisper and R33 Turncoat Prism" in s.log_texts(0)


def test_a_hand_discarded_for_want_of_a_wizard_is_one_line() -> None:
    s = mk(hands=[["W01", "R37", "W13", "R38"], ["R53", "R42", "R43"]],
           decks=[["R44"], ["W53", "W54", "R46", "W55", "R47", "W56", "R48", "R50"]])
    do(s, "play W01 R37")
    lines = [line for line in s.log_texts() if line.startswith("P2 discards")]
    assert lines == ["P2 discards R53 Owl-Feather Quill, R42 Crystal Pendant, R43 Candle Stub"]


# -- the screen ------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("players,need", [(2, 5), (3, 4), (4, 3)])
def test_the_header_says_the_round_phase_seat_master_and_the_hall_that_wins(players: int, need: int) -> None:
    hands = [[w, r] for w, r in zip(("W01", "W13", "W14", "W15"), ("R37", "R38", "R39", "R40"), strict=True)]
    s = mk(players, master=1, hands=hands[:players], decks=[[c] for c in ("R44", "R45", "R46", "R47")[:players]])
    h = screen(s, 0).header
    assert h.startswith("Round 1: Play phase · you are P1 · Master") and "P2" in h
    assert h.endswith(f"{need} wizards in the Hall win") and len(h) <= 74  # a rule across 80 columns
    assert screen(s, 1).header.startswith("Round 1: Play phase · you are P2, the Master")


def test_the_panels_show_the_table_the_hand_and_the_shrine_and_change_their_key_with_it() -> None:
    s = mk(hands=[["W01", "R01", "W13", "R37"], ["W14", "R38", "W15", "R39"]], discards=[["R40"], []],
           halls=[[], ["W21"]], decks=[["R44"], ["R45", "W45"]])
    sc = screen(s)
    assert [p.name for p in sc.panels] == ["shrine", "status", "hand", "deck", "piles"]
    assert panel(s, "shrine") == "[bold]Shrine: S05 Sunken Obelisk[/bold], for blue wizards: +2 power."
    status = panel(s, "status")
    assert "P1[/bold] (you), Master Wizard: Hall 0/5 · hand 4 · deck 1 · discard 1" in status
    assert "P2[/bold]: Hall 1/5 · hand 4 · deck 2 · discard 0" in status
    assert "R40" not in status and "P1's discard pile (1): top: R40 Knobbly Walking Stick" in panel(s, "piles")
    assert panel(s, "hand").startswith("[bold]Your hand[/bold] (4 cards: 2 wizards, 2 relics)\nW01 Magmara")
    keys = {p.name: p.key for p in sc.panels}
    assert keys["deck"] is None and keys["piles"] is None  # shown on request only
    do(s, "play W01 R01")  # face down: P2 is to play
    assert {p.name: p.key for p in screen(s).panels} == keys  # nothing that matters has changed yet
    assert "you have played W01 Magmara the Undimmed and R01 Sunforged Crown face down" in panel(s, "status")
    assert "has played a wizard and a relic face down" in panel(s, "status", 1)
    do(s, "play W14 R38")  # 8 against 6: P1's wizard to the Hall, the spoils
    after = {p.name: p.key for p in screen(s).panels}
    assert after["hand"] != keys["hand"] and after["status"] != keys["status"] and after["shrine"] == keys["shrine"]
