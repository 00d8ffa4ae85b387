"""Wizards Cup (``../shared/rules/wizards-cup.txt``): what each seat may see while the other plans, what the search
bot's redeal keeps and hides, the draft report, and the content's draft floor (the automaton drafts every
wizard in at least 5 % of a player's games); the order in which powers come into play; what a seat knows of its
rival's 6 after a swap (the rival panel, the redeal, the checks of a saved game). Positions come from the engine's
scenario ``setup`` under strict chance; "P1" is seat 0 (the Black set, copies ``#1``), "P2" seat 1 (the White set,
copies ``#2``)."""

from __future__ import annotations

import json
import re
from itertools import combinations
from typing import Any

import pytest

from wizprint.errors import SaveError
from wizprint.solo.agents import RandomAgent, make_agent
from wizprint.solo.games.wizards_cup import WizardsCupGame, WizardsCupState
from wizprint.solo.kernel import Chance, Rng, engine, line_text, readable
from wizprint.solo.playtest import run_games, summarise

GAME = "wizards-cup"
ENGINE = engine(GAME)
D = ENGINE.data
P1 = ["C03", "C13", "C17", "C18", "C09", "C12"]
P2 = ["C13", "C15", "C16", "C14", "C11", "C10"]


def planning(**table: Any) -> WizardsCupState:
    s = ENGINE.setup({"phase": "plan", "decks": [P1, P2], **table}, 2, 1, "", Chance(strict=True))
    assert isinstance(s, WizardsCupState)
    return s


def plan(s: WizardsCupState, waiting: str, order: list[str]) -> None:
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


def duel_position(pile: str, in_play: list[str]) -> WizardsCupState:
    """P1's Geomancer (water 8: Dormant powers do not act) against P2's Rogues (shadow 6), ``pile`` visible on P2's
    discard pile, the powers in play in the order ``in_play`` (an earlier one has precedence)."""
    s = WizardsCupGame.blank(D, 2, 0)
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


def swapped_then_seen() -> WizardsCupState:
    """Round 1: all 6 of P1's wizards are seen (five on its discard pile, the Beastcaller in the first duel) and P1
    wins at once; P1 swaps the Beastcaller for its Stargazer (never seen) and in round 2 keeps the Stargazer waiting
    while P2's Stargazer beats its other five, one after the other: P2 wins the round and P1 is to swap again."""
    s = ENGINE.setup({"phase": "duel", "decks": [["C09"], ["C04"]], "waiting": [[], ["C16"]],
                      "discards": [["C12", "C10", "C03", "C05", "C07"], ["C18", "C13", "C11", "C17"]]},
                     2, 1, "", Chance(strict=True))
    assert isinstance(s, WizardsCupState) and s.tokens == [1, 0]
    s.apply_key("out C09#1")
    s.apply_key("in C18#1")
    s.apply_key("keep")
    plan(s, "C18#1", ["C12#1", "C10#1", "C03#1", "C05#1", "C07#1"])
    plan(s, "C16#2", ["C18#2", "C04#2", "C13#2", "C11#2", "C17#2"])
    assert s.tokens == [1, 1] and s.current_player == 0 and s.legal_actions()[0].key == "keep"
    return s


def test_after_a_swap_the_sample_never_puts_a_card_known_out_into_the_rivals_six() -> None:
    s = swapped_then_seen()
    # P2 saw P1's 6 in round 1, then a swap, then five of those 6 in round 2: the Beastcaller is out, the sixth
    # card is one of the 12 P2 has never seen
    obs = s.observation(1)
    assert obs["known"][0] == ["C03#1", "C05#1", "C07#1", "C10#1", "C12#1"] and obs["known_out"][0] == ["C09#1"]
    sixth = set()
    for i in range(60):
        t = s.determinize(1, Rng(i))
        six = set(t.six(0))
        assert "C09#1" not in six and {"C03#1", "C05#1", "C07#1", "C10#1", "C12#1"} < six
        sixth |= six
    assert len(sixth - {"C03#1", "C05#1", "C07#1", "C10#1", "C12#1"}) > 8  # the sixth: any card never seen


def test_the_rival_panel_lists_what_is_known_of_the_rivals_six_after_a_swap() -> None:
    s = swapped_then_seen()
    s.apply_key("keep")
    s.apply_key("keep")
    plan(s, "C07#1", ["C18#1", "C12#1", "C10#1", "C03#1", "C05#1"])  # round 3: P1's Stargazer duels
    plan(s, "C16#2", ["C18#2", "C04#2", "C13#2", "C11#2", "C17#2"])
    assert any(t.startswith("Duel 1: P1's The Stargazer (void 9)") for t in s.log_texts())
    rival = ENGINE.screen(s.observation(1)).panel("rival")  # 6 known (not 7): the Beastcaller was swapped out
    assert rival is not None
    text = "\n".join(rival.lines)
    assert ("Seen among their 6: C03 The Revolutionary (fire 6), C05 The Geomancer (water 8), C07 The Botanist "
            "(nature 2), C10 The Soldier (light 7), C12 The Lamplighter (light 7), C18 The Stargazer (void 9)") in text
    assert "Swapped out (set aside): C09 The Beastcaller (nature 8)" in text


LABEL = r"(The [^()]+ \(\w+ \d+\))"
SEEN = [re.compile(p + LABEL) for p in (r"P([12])'s ", r"P([12])'s Waiting card ",
                                        r"P([12]) discards their Waiting card, ",
                                        r"The Revolutionary: P([12]) discards the top card of their Deck, ")]
SWAP = re.compile(r"P([12]) swaps a card of their Deck")


def sightings_in_log(s: WizardsCupState, seat: int, x: int) -> list[frozenset[str]]:
    """The cards of P(x+1)'s set seen face up, one set for each stretch between its swaps, as read in the log lines
    ``seat`` may read (each wizard named with its Element and Value)."""
    cards = {D.label(c): c for c in D.cards if D.owner(c) == x}
    out: list[set[str]] = [set()]
    for e in s.log:
        if not readable(e, seat):
            continue
        text = line_text(e)
        m = SWAP.match(text)
        if m and int(m.group(1)) == x + 1:
            out.append(set())
        for p in SEEN:
            out[-1].update(cards[m.group(2)] for m in p.finditer(text) if int(m.group(1)) == x + 1)
    return [frozenset(o) for o in out]


def decks_by_brute_force(x: int, sightings: tuple[frozenset[str], ...]) -> set[frozenset[str]] | None:
    """Every 6 P(x+1) can have now: 6 of its 18 holding the first stretch's sightings, then for each swap one card
    out and one of the others in, holding that stretch's sightings (None: too many to list quickly)."""
    mine = frozenset(c for c in D.cards if D.owner(c) == x)
    first = sightings[0]
    if len(list(combinations(sorted(mine - first), 6 - len(first)))) > 300:
        return None
    now = {first | frozenset(c) for c in combinations(sorted(mine - first), 6 - len(first))}
    for need in sightings[1:]:
        now = {t - {o} | {i} for t in now for o in t for i in mine - t}
        now = {t for t in now if need <= t}
    return now


def test_what_a_seat_knows_of_the_rivals_six_is_exactly_what_its_sightings_and_swaps_allow() -> None:
    """In automaton and random games with swaps, at every decision: the seen cards the observation gives as among the
    rival's 6, perhaps swapped out and swapped out are exactly those of every 6 the rival can have by the log (a
    brute force over its swaps), and the search bot's redeal gives the rival one of those 6."""
    memo: dict[tuple[int, tuple[frozenset[str], ...]], set[frozenset[str]] | None] = {}
    checked, out = 0, 0
    for seed in range(40):
        s = ENGINE.new_state(2, seed, "")
        bots = [RandomAgent(seed + 7) if seed % 2 else make_agent("automaton", ENGINE, seed), RandomAgent(seed)]
        while not s.is_terminal():
            for seat in (0, 1):
                x = 1 - seat
                seen = tuple(sightings_in_log(s, seat, x))
                if len(seen) < 2:
                    continue  # no swap yet
                key = (x, seen)
                if key not in memo:
                    memo[key] = decks_by_brute_force(x, seen)
                decks = memo[key]
                if decks is None:
                    continue
                assert frozenset(s.six(x)) in decks
                surely, maybe = frozenset.intersection(*decks), frozenset.union(*decks)
                all_seen = frozenset.union(*seen)
                obs = s.observation(seat)
                assert obs["known"][x] == sorted(all_seen & surely)
                assert obs["maybe"][x] == sorted(all_seen & maybe - surely)
                assert obs["known_out"][x] == sorted(all_seen - maybe)
                out += bool(obs["known_out"][x])
                for k in range(2):
                    assert frozenset(s.determinize(seat, Rng(seed * 100 + k)).six(x)) in decks
                checked += 1
            s.apply(bots[s.current_player].choose(s, s.current_player))
    assert checked > 500 and out > 10  # some positions have a seen card that is surely out


def test_a_saved_game_whose_sightings_do_not_fit_the_deck_is_refused() -> None:
    j = json.loads(json.dumps(swapped_then_seen().to_json()))
    ENGINE.from_json(j)
    bad = json.loads(json.dumps(j))
    bad["earlier"][0] = [["C01#1", "C02#1", "C04#1", "C06#1", "C08#1", "C14#1"]]  # 6 seen, none kept by one swap
    with pytest.raises(SaveError, match=r"state\.known\[0\]: what was seen of P1's 6 does not fit its Deck"):
        ENGINE.from_json(bad)
    bad = json.loads(json.dumps(j))
    bad["known"][0].append("C09#1")  # seen since the swap, yet swapped out
    with pytest.raises(SaveError, match=r"state\.known\[0\]"):
        ENGINE.from_json(bad)
