"""Wizards & Relics on a real table (`wizprint solo table wizards-and-relics`): the program keeps the automaton's
deck and hand in the reserve and never reads the person's hand. Where the rules read a hand (no wizard or no relic to
play, another relic or a wizard to play from it, the relics a card reveals), the person on a real table says it;
every card they show is checked against the rules; the deck they take is named card by card and what they draw
never. Whole games on a simulated table (the program's samples of the person's cards drawn anew after every move)
and one through the real command at an 80 x 24 terminal."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import run_here
from table_helpers import PROMPTS, Recorder, SimulatedTable, play_on_terminal

from wizprint.errors import IllegalActionError
from wizprint.solo.games.wizards_and_relics import WizardsAndRelicsState
from wizprint.solo.games.wizards_and_relics.table import POLICY
from wizprint.solo.kernel import Action, Chance, State, engine
from wizprint.solo.kernel.table import relabel
from wizprint.solo.table import Ask, Entry, TableGame

GAME = "wizards-and-relics"
ENGINE = engine(GAME)


def mk(master: int = 0, **table: Any) -> WizardsAndRelicsState:
    """A round about to begin (the shrine S05 Sunken Obelisk), its Play phase waiting for the Master Wizard."""
    table.setdefault("shrine", "S05")
    s = ENGINE.setup({**table, "master": master}, 2, 1, "", Chance(strict=True))
    assert isinstance(s, WizardsAndRelicsState)
    return s


def legal(s: State[Any]) -> list[str]:
    return sorted(a.key for a in s.legal_actions())


def said(s: State[Any]) -> list[str]:
    return s.log_texts()


# -- the rules, with a hand on a real table --------------------------------------------------------------------------
def test_a_player_at_the_table_without_a_relic_says_so_and_the_rules_do_not_look_at_the_hand() -> None:
    table = {"hands": [["W19", "W13", "W14"], ["W01", "R01"]],
             "decks": [["R46", "W46", "R47", "W47", "R48", "W48", "R49", "W49"], ["R50"]]}
    ordinary = mk(master=1, **table)
    ordinary.apply_key("play W01 R01")  # P1 has no relic: the rules discard their hand at once
    assert "P1 has no relic in hand: they discard their hand and Replenish" in said(ordinary)
    at_table = mk(master=1, **table)
    at_table.table_seat = 0
    at_table.apply_key("play W01 R01")
    assert legal(at_table) == ["lack relic"] and at_table.hands[0] == ["W19", "W13", "W14"]
    assert not any("has no relic" in line for line in said(at_table))
    at_table.apply_key("lack relic")  # their hand goes face up to the discard pile, in the order of the ids
    assert at_table.discards[0] == ["W13", "W14", "W19"] and "P1 discards W13" in said(at_table)[-3]
    assert len(at_table.hands[0]) == 7 and at_table.current_player == 0  # Replenished to 7, to play


def test_a_wizard_that_reveals_the_relics_in_hand_has_the_player_at_the_table_show_them_one_at_a_time() -> None:
    # W59 Hollis Burrowfoot: +1 for each relic revealed from hand (2 at most): R44 and R45, not W13
    s = mk(hands=[["W59", "R37", "R44", "R45", "W13"], ["W01", "R01", "W14"]], decks=[["R46", "W46"], ["R47"]])
    s.table_seat = 0
    s.apply_key("play W59 R37")
    s.apply_key("play W01 R01")
    assert legal(s) == ["show R44", "show R45"]  # "no more" only once every relic is shown
    s.apply_key("show R45")
    assert legal(s) == ["show R44"] and s.observation(1)["known_hand"][0] == ["R45"]
    s.apply_key("show R44")
    assert legal(s) == ["done"]
    s.apply_key("done")
    assert s.last_totals == {0: 6, 1: 9}  # as when the rules read the hand (2 + 2 + 2 against 5 + 3 + 1)
    assert "P1 reveals R45 Frayed Spellbook from their hand (Hollis Burrowfoot)" in said(s)


def test_another_relic_is_asked_of_the_player_at_the_table_even_when_their_hand_holds_none() -> None:
    # R10 Gilded Reliquary: you may play another relic from your hand; P1 holds none
    table = {"hands": [["W19", "R10", "W13", "W14"], ["W01", "R01", "W15"]], "decks": [["R46", "W46"], ["R47"]]}
    ordinary = mk(**table)
    ordinary.apply_key("play W19 R10")
    ordinary.apply_key("play W01 R01")
    assert ordinary.current_player != 0 or legal(ordinary) != ["pass"]
    at_table = mk(**table)
    at_table.table_seat = 0
    at_table.apply_key("play W19 R10")
    at_table.apply_key("play W01 R01")
    assert at_table.current_player == 0 and legal(at_table) == ["pass"]  # they say they have none


def test_a_card_said_to_be_the_wizard_laid_face_down_must_be_a_wizard() -> None:
    s = mk(hands=[["W59", "R37", "R44"], ["W01", "R01", "W14"]], decks=[["R46"], ["R47"]])
    s.table_seat = 0
    s.apply_key("play W59 R37")
    wrong = relabel(s, {"W59": "R44", "R44": "W59"})  # the table said R44 was the card laid as the wizard
    with pytest.raises(IllegalActionError, match="a relic cannot be played as the wizard"):
        wrong.apply(Action("play", "W01", "R01"))


# -- the program and the person ----------------------------------------------------------------------------------------
class Scripted:
    """A person who picks the option containing given words, types given cards, and records what they are told."""

    def __init__(self, choose: Sequence[str], cards: Sequence[str]) -> None:
        self.choose = list(choose)
        self.cards = list(cards)
        self.told: list[str] = []
        self.offered: list[list[str]] = []

    def tell(self, lines: Sequence[str]) -> None:
        self.told.extend(lines)

    def decide(self, question: str, options: Sequence[str], actions: Sequence[Action],
               cards_hint: str | None) -> Entry | None:
        self.offered.append(list(options))
        assert self.choose, f"{question}: {options}"
        want = self.choose.pop(0)
        return Entry("option", next(i for i, o in enumerate(options) if want in o))

    def card(self, prompt: str, ask: Ask) -> str | None:
        self.told.append(prompt)
        return self.cards.pop(0)

    def roll(self, sides: int, why: str, ask: Ask) -> int | None:
        raise AssertionError("no dice in this game")

    def moved(self, action: Action, by: int, dice: Sequence[int], picks: Sequence[str], prior: State[Any]) -> None:
        return None


def on_table(s: WizardsAndRelicsState) -> TableGame:
    """The program at a table where P1's hand and deck are the person's (unknown to it), the rest known."""
    s.table_seat = 0
    g = TableGame(ENGINE, s, 0, ["", "automaton"], POLICY)
    g.known = set(s.data.instances) - set(s.hands[0]) - set(s.decks[0])
    return g


def test_the_person_may_say_they_have_no_relic_though_the_programs_guess_at_their_hand_holds_one() -> None:
    """The program's samples of the person's hand hold a relic (R37); the person's real hand holds only wizards
    (W13, W14, W19, which the program has as samples in their deck). They say so, and show the cards they discard."""
    s = mk(master=1, hands=[["W46", "R37", "W47"], ["W01", "R01"]],
           decks=[["W13", "W14", "W19", "R46", "R47", "W48", "R49", "W49", "R50", "W50"], ["R48"]])
    s.table_seat = 0
    s.apply_key("play W01 R01")
    g = on_table(s)
    assert legal(g.belief) != ["lack relic"]
    person = Scripted(["no relic in hand"], ["W13", "W14", "W19"])
    assert g.person_move(g.belief.legal_actions(), person)
    assert any("you have no wizard in hand" in o for o in person.offered[0])  # either kind of hand
    assert sorted(g.belief.discards[0]) == ["W13", "W14", "W19"]
    assert "P1 discards W13 Grub the Torchbearer, W14 Milla Emberfoot, W19 Nettie Cinderwick" in said(g.belief)


def test_a_relic_shown_as_the_wizard_is_refused_with_the_reason_and_asked_again() -> None:
    s = mk(hands=[["W59", "R37", "R44"], ["W01", "R01", "W14"]], decks=[["R46"], ["R47"]])
    g = on_table(s)
    person = Scripted(["lay a wizard and a relic"], ["R44", "W59", "R37"])
    assert g.person_move(g.belief.legal_actions(), person)
    g.step(person)  # the automaton plays: the cards come to light
    assert "R44 Bag of Marbles: a relic cannot be played as the wizard." in person.told
    assert g.belief.wizards[0] == ["W59"] and g.belief.relics[0] == ["R37"]
    # what happened before a card is asked is told first
    assert person.told.index("P2 lays a wizard and a relic face down") < person.told.index(
        "The card from your hand goes to your wizard in play (face up): which card is it?")


# -- the command -------------------------------------------------------------------------------------------------------
def _seed_with_master(master: int) -> int:
    return next(x for x in range(1, 100) if ENGINE.new_state(2, x).master == master)  # type: ignore[attr-defined]


@pytest.mark.parametrize("master", [0, 1])
def test_the_deck_a_person_takes_is_named_card_by_card_and_what_they_draw_never(master: int, tmp_path: Path) -> None:
    """Whether the person chooses a deck first or last (the draws of the starting hands then come in the same
    move), the program names the 30 cards to take from the reserve, and none of the person's hand."""
    seed = _seed_with_master(master)
    r = run_here("solo", "table", GAME, "--seed", str(seed), cwd=tmp_path, input="2\nquit\n")
    out = " ".join(r.stdout.split())
    assert r.returncode == 0, r.stdout
    chosen = json.loads((tmp_path / f"wizprint-{GAME}-table-seed{seed}.save.json").read_text())["state"]["chosen_deck"]
    deck = sorted(ENGINE.new_state(2, seed).piles[chosen[0]])  # type: ignore[attr-defined]
    assert f"Move these 30 cards from the reserve to your deck (face down): {', '.join(deck)}." in out
    assert "Take 7 cards from your deck (face down) to your hand." in out or master == 1  # (the person's own move)
    assert not re.search(r"Move [^.]* to your hand", out), out
    options = out[out.index("set aside any cards of your opening hand"):]
    assert not any(c in options for c in deck)  # the mulligan names none of their cards


def test_a_session_resumes_with_the_hand_still_the_persons_to_say(tmp_path: Path) -> None:
    seed = _seed_with_master(0)
    typed = "\n".join(["1", "1", "S01", "note the shrine icons are small", "quit"]) + "\n"
    r = run_here("solo", "table", GAME, "--seed", str(seed), cwd=tmp_path, input=typed)
    assert r.returncode == 0, r.stdout
    save = tmp_path / f"wizprint-{GAME}-table-seed{seed}.save.json"
    data = json.loads(save.read_text())
    assert data["state"]["table_seat"] == 0 and data["notes"][0][1] == "the shrine icons are small"
    r2 = run_here("solo", "table", GAME, "--load", save.name, cwd=tmp_path, input="quit\n")
    out = " ".join(r2.stdout.split())
    assert r2.returncode == 0 and "Set-up" not in out
    assert "lay a wizard and a relic face down (in secret)" in out
    assert "you have no relic in hand" in out


# -- whole games -------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_whole_games_on_a_simulated_table_whose_samples_are_drawn_anew_after_every_move(players: int) -> None:
    """The program's samples of the cards it does not know never agree with the table for long: drawn anew after
    every move (the person's hand among them), the automata still see the same as on the table."""
    for i in range(4):
        st = SimulatedTable(ENGINE, POLICY, players, i % players, 300 + 10 * players + i, samples=900 + i,
                            player="random" if i % 2 else "automaton")
        st.play()
        assert st.truth.is_terminal() and st.moves > 15


def test_a_whole_three_player_game_at_an_80_by_24_terminal(tmp_path: Path) -> None:
    """A simulated person's entries (written down in-process with the same seed) typed at the real command's prompts:
    every prompt shows its question on the screen, nothing is cut, and the game ends."""
    rec = Recorder(ENGINE, POLICY, 3, 1, 44)
    rec.play()
    screens, last = play_on_terminal(GAME, ["--seed", "44", "--players", "3", "--seat", "1"], rec.typed, tmp_path)
    assert len(screens) == len(rec.typed) > 20
    for shot in screens:
        rows = [row for row in shot if row.strip()]
        assert not any("…" in row or "error" in row.lower() for row in shot), "\n".join(shot)
        assert rows[-1] + " " in PROMPTS, "\n".join(shot)
        asked = " ".join(row.strip() for row in rows[-3:-1])  # (a question may wrap)
        assert asked.endswith("which card is it?") or any(row.startswith((" 1 ", "Type the id")) or "(or type the id"
                                                          in row for row in rows[:-1]), "\n".join(shot)
    assert "Game over" in " ".join(last.split()), last[-2000:]
    log = (tmp_path / f"wizprint-{GAME}-table-seed44.log").read_text()
    assert "Move these 30 cards from the reserve to your deck (face down)" in log
