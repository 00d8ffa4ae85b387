"""Wizards Cup (``../shared/rules/wizards-cup.txt``): what each seat may see while the other plans, what the search
bot's redeal keeps and hides, the draft report, and the content's draft floor (issue 14: the automaton drafts every
wizard in at least 5 % of a player's games). Positions come from the engine's scenario ``setup`` under strict chance;
"P1" is seat 0 (the Black set, copies ``#1``), "P2" seat 1 (the White set, copies ``#2``)."""

from __future__ import annotations

import json
from typing import Any

from wizprint.solo.check import run_games, summarise
from wizprint.solo.games.wizards_cup import WCState
from wizprint.solo.kernel import Chance, Rng, engine

GAME = "wizards-cup"
ENGINE = engine(GAME)
D = ENGINE.data
P1 = ["C03", "C13", "C17", "C18", "C09", "C12"]
P2 = ["C13", "C15", "C16", "C14", "C11", "C10"]


def planning(**table: Any) -> WCState:
    s = ENGINE.setup({"phase": "plan", "decks": [P1, P2], **table}, 2, 1, "", Chance(strict=True))
    assert isinstance(s, WCState)
    return s


def plan(s: WCState, waiting: str, order: list[str]) -> None:
    s.apply_key(f"wait {waiting}")
    for c in order[:-1]:  # the fifth card goes where it must
        s.apply_key(f"next {c}")


def test_a_plan_is_secret_until_its_cards_are_revealed() -> None:
    a, b = planning(), planning()
    plan(a, "C03#1", ["C13#1", "C17#1", "C18#1", "C09#1", "C12#1"])
    plan(b, "C18#1", ["C12#1", "C09#1", "C03#1", "C17#1", "C13#1"])
    assert a.current_player == b.current_player == 1
    assert a.decks[0] != b.decks[0]  # two different plans ...
    assert a.observation(1) == b.observation(1)  # ... that P2 cannot tell apart
    mine = a.observation(0)
    assert mine["my_deck"] == ["C13#1", "C17#1", "C18#1", "C09#1", "C12#1"] and mine["my_waiting"] == ["C03#1"]
    theirs = json.dumps(a.observation(1))
    assert "C03#1" not in theirs and "C13#1" not in theirs  # neither P1's Waiting card nor its first wizard
    plan(a, "C13#2", ["C15#2", "C16#2", "C14#2", "C11#2", "C10#2"])  # both planned: the duels follow the plans
    assert any(t.startswith("Duel 1: P1's The Detective (shadow 5) against P2's The Nightweaver (shadow 7)")
               for t in a.log_texts())


def test_the_search_bots_redeal_hides_the_rivals_order_and_keeps_what_is_known() -> None:
    s = planning()
    plan(s, "C03#1", ["C13#1", "C17#1", "C18#1", "C09#1", "C12#1"])
    s.apply_key("wait C13#2")  # P2 is planning: its own choices so far stay as they are
    orders, waits = set(), set()
    for i in range(40):
        t = s.determinize(1, Rng(i))
        assert t.waiting[1] == ["C13#2"] and sorted(t.decks[1]) == sorted(s.decks[1])
        six = [*t.decks[0], *t.waiting[0]]
        assert len(t.decks[0]) == 5 and len(t.waiting[0]) == 1 and len(set(six)) == 6
        assert sorted([*six, *t.sets[0]]) == sorted(c for c in D.cards if D.owner(c) == 0)
        orders.add(tuple(t.decks[0]))
        waits.add(t.waiting[0][0])
    assert len(orders) > 30 and len(waits) > 5  # P1's six, order and Waiting card are guessed, not seen


def test_the_draft_report_gives_each_wizards_draft_rate_and_every_wizard_is_drafted() -> None:
    designs = sorted(D.designs)
    games = 1500
    s = summarise(GAME, run_games(GAME, games, 11, ["automaton"], 2, jobs=1), 11, ["automaton"], 2, "", designs, {})
    assert s["completed"] == games and not s["errors"] and s["never_played"] == []
    drafted = {k.removeprefix("drafted: "): g for k, g in s["groups"].items() if k.startswith("drafted: ")}
    assert sorted(drafted) == sorted(w.name for w in D.designs.values())
    # each player drafts 5 wizards a game: the rates add up to 5, and each is its count over the seats' games
    assert abs(sum(g["per_seat_game"] for g in drafted.values()) - 5) < 0.01
    for name, g in drafted.items():
        assert g["per_seat_game"] == round(g["contests"] / (2 * games), 4)
        assert g["per_seat_game"] >= 0.05, f"{name} is drafted in {g['per_seat_game']:.1%} of a player's games"


def duel_position(pile: str, in_play: list[str]) -> WCState:
    """P1's Geomancer (water 8: Dormant powers do not act) against P2's Rogues (shadow 6), ``pile`` visible on P2's
    discard pile, the powers in play in the order ``in_play`` (an earlier one has precedence)."""
    s = WCState.blank(D, 2, 0)
    s.duel = [["C05#1"], ["C14#2"]]
    s.discards = [[], [pile]]
    s.in_play = in_play
    return s


def test_a_power_in_play_has_precedence_over_one_that_comes_into_play_after_it() -> None:
    # The Traveler (+2) visible before the Geomancer came into play: it still acts (6 + 2)
    assert duel_position("C17#2", ["C17#2", "C05#1", "C14#2"]).value(1) == 8
    # the Geomancer in play first, the Traveler visible after: the Geomancer stops it
    assert duel_position("C17#2", ["C05#1", "C14#2", "C17#2"]).value(1) == 6
    # the Geomancer placed but not yet come into play (a wizard of lower Value placed with it acts first)
    s = duel_position("C17#2", ["C17#2", "C14#2"])
    assert s.permanent(0, "no_dormant") is None and s.value(1) == 8
    # The Soldier guards P2 when it was in play before the Geomancer, not when it became visible after it
    assert duel_position("C10#2", ["C10#2", "C05#1", "C14#2"]).guarded(1)
    assert not duel_position("C10#2", ["C05#1", "C14#2", "C10#2"]).guarded(1)
