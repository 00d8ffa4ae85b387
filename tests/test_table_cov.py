"""Covenant of Wizards on a real table (`wizprint solo table covenant`): the rules that run otherwise when the
person's cards lie on a table the program cannot see (their phases asked whenever their hand could act, a search by
the automaton laid out by the person, a search of their own that may find nothing)."""

from __future__ import annotations

from covenant_helpers import do, legal, mk, p

from wizprint.solo.games.covenant import CovenantState
from wizprint.solo.kernel.state import ChanceNeeded

PERSON = 0


def on_table(s: CovenantState, person: int = PERSON) -> CovenantState:
    """The position with seat ``person`` played on a real table (and its twin without: ``plain``)."""
    s.table_seat = person
    return s


# -- the rules with the person's cards on a table ----------------------------------------------------------------------
def _p2_questing() -> CovenantState:
    """P2's Adventure phase (a quest in hand: it decides), P1 to draw R02 next; P1 holds a resource only."""
    return mk(hands=[["R01"], ["Q01"]], in_play=[["W10"], ["W06"]], turn=1, phase="adventure", deck=["R02"],
              rest="discard")


def test_on_a_table_the_persons_phases_wait_when_some_hand_could_act_in_them() -> None:
    plain, table = _p2_questing(), on_table(_p2_questing())
    do(plain, "end")
    do(table, "end")
    # P1 holds R01 and R02: nothing to cast, no duel card; the engine skips to the Summon phase, but on a table the
    # program does not know the hand: it asks
    assert (p(plain, "phase"), p(plain, "current")) == ("summon", 0)
    assert (p(table, "phase"), p(table, "current"), legal(table)) == ("event", 0, ["end"])
    do(table, "end")
    assert (p(table, "phase"), legal(table)) == ("duel", ["end"])  # a Wizards Duel could challenge W06
    do(table, "end")
    assert p(table, "phase") == "summon"


def test_on_a_table_a_phase_no_hand_could_act_in_is_skipped() -> None:
    s = on_table(mk(hands=[["R01"], ["W06"]], in_play=[["W10"], []], turn=1, phase="summon", deck=["R02"],
                    rest="discard"))
    do(s, "end")  # P2 ends its turn without a wizard in play
    assert (p(s, "phase"), legal(s)) == ("event", ["end"])
    do(s, "end")
    assert p(s, "phase") == "summon"  # no rival wizard to challenge: the Duel phase is skipped whatever P1 holds


def _p2_casts_legend_lore(table_seat: int) -> CovenantState:
    s = mk(hands=[[], ["S06"]], in_play=[[], ["W10"]], turn=1, phase="event", deck=["Q01", "W03", "Q02"],
           rest="discard")
    s.table_seat = table_seat
    do(s, "cast S06")
    return s


def test_on_a_table_the_automatons_search_is_laid_out_by_the_person_and_it_sees_only_that() -> None:
    assert p(_p2_casts_legend_lore(-1), "current") == 1  # off the table, the searcher looks through the deck
    s = _p2_casts_legend_lore(PERSON)
    assert p(s, "current") == PERSON and legal(s) == ["found Q01", "found Q02", "done"]
    assert s.observation(1)["seen"] == {}
    do(s, "found Q02", "found Q01")
    assert p(s, "limbo") == ["S06", "Q02", "Q01"] and sorted(s.deck) == ["W03"]  # (S06 Legend Lore resolving)
    assert "P1 lays out Q02 Defeat the Giant from the deck for P2's search" in s.log_texts()
    do(s, "done")
    assert p(s, "current") == 1 and legal(s) == ["target Q02", "target Q01"]  # (in the order laid out)
    do(s, "target Q02")
    assert p(s, "hand.1") == ["Q02"] and sorted(s.deck) == ["Q01", "W03"] and "Q01" not in p(s, "limbo")
    assert s.observation(0)["seen"] == {"Q02": "h1"}


def test_on_a_table_a_search_laid_out_empty_finds_nothing() -> None:
    s = _p2_casts_legend_lore(PERSON)
    do(s, "done")  # (then P2's turn ends, and P1 draws)
    assert p(s, "hand.1") == [] and sorted(s.deck + s.hands[0]) == ["Q01", "Q02", "W03"]
    assert "P2 searches the deck: no Quest; the deck is shuffled" in s.log_texts()


def test_on_a_table_the_persons_own_search_may_find_nothing() -> None:
    s = on_table(mk(hands=[["S06"], []], in_play=[["W10"], []], phase="event", deck=["Q01", "W03", "Q02"],
                    rest="discard"))
    do(s, "cast S06")
    assert legal(s) == ["target Q01", "target Q02", "target none"]
    do(s, "target none")
    assert p(s, "hand.0") == [] and "P1 searches the deck: no Quest; the deck is shuffled" in s.log_texts()


def test_magical_vortex_throws_each_hand_away_in_id_order() -> None:
    s = mk(hands=[["E06", "S02", "R01"], ["W03", "D01"]], in_play=[["W10"], []], phase="event")
    do(s, "play E06")
    assert p(s, "discard_pile")[-5:] == ["R01", "S02", "D01#1", "W03", "E06"]


def test_a_die_the_table_must_roll_says_what_it_is_for() -> None:
    s = mk(hands=[["Q01"], []], in_play=[["W10"], []], phase="adventure")
    s.script(strict=True)
    try:
        s.apply_key("quest Q01")
    except ChanceNeeded as need:
        assert (need.sides, need.what) == (6, "the Danger of Q01 Slay the Dragon, round 1: P1 rolls, die 1 of 3")
    else:
        raise AssertionError("the quest rolled no die")
