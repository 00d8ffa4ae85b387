"""Covenant of Wizards on a real table (`wizprint solo table covenant`): the rules that run otherwise when the
person's cards lie on a table the program cannot see (their phases asked whenever their hand could act, a search by
the automaton laid out by the person, a search of their own that may find nothing), the person playing cards the
program did not guess in their hand, what the program says to move being what moves on the table, the table's own
shuffles, and one whole game through the real command on an 80 x 24 pseudo-terminal."""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from covenant_helpers import ENGINE, do, legal, mk, p
from table_helpers import PROMPTS, Recorder, SimulatedTable, ignorance, play_on_terminal

from wizprint.solo.games.covenant import CovenantState
from wizprint.solo.games.covenant.table import POLICY
from wizprint.solo.kernel import Action, State, design_of
from wizprint.solo.kernel.rng import Rng
from wizprint.solo.kernel.state import ChanceNeeded
from wizprint.solo.kernel.table import Place, zones_moved
from wizprint.solo.table import Ask, Entry, Stop, TableGame
from wizprint.solo.tableplay import load_table, save_table

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


def test_who_saw_a_card_held_twice_cannot_tell_which_copy_left_the_hand() -> None:
    """P2 looks at P1's hand holding two Wizards Duels; P1 plays one: P2 no longer knows a Wizards Duel is left (on
    the table the copies are the same card, so which copy P2 saw cannot be told)."""
    s = mk(hands=[["D01", "D01", "R01"], ["S04"]], in_play=[["W10"], ["W06"]], turn=1, phase="event",
           deck=["R02", "R03"])
    do(s, "cast S04 0", "pass")  # Divination on P1's hand; P1 lets it resolve (then P2's turn ends)
    assert s.observation(1)["seen"] == {"D01#1": "h0", "D01#2": "h0", "R01": "h0"}
    do(s, "duel W10 1", dice=(6, 6, 6, 1, 1, 1))  # P1's Duel phase: W10 challenges with a Wizards Duel
    assert s.observation(1)["seen"] == {"R01": "h0"}


def test_a_die_the_table_must_roll_says_what_it_is_for() -> None:
    s = mk(hands=[["Q01"], []], in_play=[["W10"], []], phase="adventure")
    s.script(strict=True)
    try:
        s.apply_key("quest Q01")
    except ChanceNeeded as need:
        assert (need.sides, need.what) == (6, "the Danger of Q01 Slay the Dragon, round 1: P1 rolls, die 1 of 3")
    else:
        raise AssertionError("the quest rolled no die")


# -- the person's cards the program did not guess -------------------------------------------------------------------
class Typist:
    """A person at the table who answers each decision from a list: an option's number, or the cards typed."""

    def __init__(self, answers: Sequence[Entry], cards: Sequence[str] = ()) -> None:
        self.answers = list(answers)
        self.cards = list(cards)
        self.asked: list[tuple[str, list[str], str | None]] = []
        self.told: list[str] = []

    def tell(self, lines: Sequence[str]) -> None:
        self.told.extend(lines)

    def decide(self, question: str, options: Sequence[str], actions: Sequence[Action],
               cards_hint: str | None) -> Entry | None:
        self.asked.append((question, list(options), cards_hint))
        return self.answers.pop(0) if self.answers else None

    def card(self, prompt: str, ask: Ask) -> str | None:
        self.asked.append((prompt, [], None))
        return self.cards.pop(0) if self.cards else None

    def roll(self, sides: int, why: str, ask: Ask) -> int | None:
        raise AssertionError(f"asked for a die: {why}")

    def moved(self, action: Action, by: int, dice: Sequence[int], picks: Sequence[str], prior: State[Any]) -> None:
        return None


def _table_game(s: CovenantState) -> TableGame:
    """The person's hand and the deck unknown to the program; everything else known."""
    secret = set(s.hands[PERSON]) | set(s.deck)
    return TableGame(ENGINE, s, PERSON, ["", "automaton"], POLICY, known=set(s.data.instances) - secret)


def test_the_person_saves_a_wizard_with_a_card_the_program_did_not_guess_in_their_hand() -> None:
    s = on_table(mk(hands=[["R01"], ["S17"]], in_play=[["W10"], ["W06"]], turn=1, phase="event",
                    deck=["W03", "S07", "Q01"]))
    do(s, "cast S17 W10")  # Poison Potion on P1's W10 Mentalist: P1 may cancel it, then save the wizard
    g = _table_game(s)
    person = Typist([Entry("option", 0), Entry("cards", cards=("Healing",))])
    assert g.person_move(g.belief.legal_actions(), person)  # no Dispell: let it resolve
    assert g.person_move(g.belief.legal_actions(), person)  # the program holds R01 for P1's hand: P1 types Healing
    assert person.asked[1][1] == ["pass: let it be slain"] and person.asked[1][2] is not None
    b = g.belief
    assert "W10" in b.wizards[PERSON] and "S07" in b.discard and "W10 Mentalist is saved" in b.log_texts()
    assert "S07" in g.known


def test_the_person_challenges_with_a_duel_card_the_program_did_not_guess_in_their_hand() -> None:
    s = on_table(mk(hands=[["R01"], ["Q01"]], in_play=[["W10"], ["W06"]], turn=1, phase="adventure",
                    deck=["R02", "D01"], rest="discard"))
    do(s, "end")  # P1 draws R02 and holds R01, R02
    g = _table_game(s)
    person = Typist([Entry("option", 0), Entry("cards", cards=("D01",))])
    assert g.person_move(g.belief.legal_actions(), person)  # end the Event phase
    assert g.person_move(g.belief.legal_actions(), person)  # the Duel phase lists only its end: P1 types D01
    assert person.asked[1][1] == ["end the Duel phase (no duel this turn)"]
    b = g.belief
    assert [f.kind for f in b.stack][:1] == ["duel"] and any(design_of(x) == "D01" for x in b.limbo)
    assert any(x.startswith("P1 plays D01") for x in b.log_texts())


def test_a_card_the_persons_move_cannot_take_is_refused_with_a_clear_line() -> None:
    """The program guessed a Wizards Duel in P1's hand and offered the duel; P1 chooses it, but names another card
    when asked which card they play: refused, the program's guess kept; P1 can take back their choice."""
    s = on_table(mk(hands=[["R01"], ["Q01"]], in_play=[["W10"], ["W06"]], turn=1, phase="adventure",
                    deck=["D01", "I06"], rest="discard"))
    do(s, "end")  # P1 draws D01 (the program's guess of the card drawn)
    g = _table_game(s)
    person = Typist([Entry("option", 0), Entry("option", 0)], cards=["Wand of Wonder"])
    assert g.person_move(g.belief.legal_actions(), person)  # end the Event phase
    with pytest.raises(Stop):
        g.person_move(g.belief.legal_actions(), person)  # the duel; then Wand of Wonder named; then nothing
    assert person.asked[1][1][0].startswith("W10 Mentalist (duel roll +2) challenges P2")
    assert "I06 Wand of Wonder: this move cannot take it (type 'undo' to take back your choice)." in person.told
    assert "D01#1" in g.belief.hands[PERSON] and p(g.belief, "phase") == "duel"


# -- the simulated table ------------------------------------------------------------------------------------------
class Watched(SimulatedTable):
    """A simulated table that also checks what the program says to move after each move: every card it names, and
    the number of cards between any two places, are what moved on the table."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.expected: list[tuple[str, str, str]] = []  # the cards that moved on the table: (printed id, from, to)
        self.before: State[Any] | None = None
        self.by = -1  # who moved
        self.checked = 0  # the lines checked

    def align(self, action: Action, state: State[Any], belief: State[Any]) -> None:
        super().align(action, state, belief)
        if state is self.truth:
            self.before = self.truth.clone()  # (the table before the move: its copies named as the program's)

    def check(self) -> None:  # (right after the table made the move)
        g = self.game
        if self.before is not None:
            by = self.by
            self.expected = [(design_of(c), g.policy.name(z0, g.person), g.policy.name(z1, g.person))
                             for c, z0, z1 in zones_moved(self.before, self.truth)
                             if not (by == g.person and g.place(z0) != Place.KEPT and g.place(z1) == Place.PERSON)]
            self.before = None
        super().check()

    def moved(self, action: Action, by: int, dice: Sequence[int], picks: Sequence[str], prior: State[Any]) -> None:
        self.by = by
        super().moved(action, by, dice, picks, prior)

    def tell(self, lines: Sequence[str]) -> None:
        super().tell(lines)
        told = [x for x in lines if re.match(r"(Move |Take (a card|\d+ cards) from )", x)]
        if not told and not self.expected:
            return
        pairs = Counter((a, b) for _, a, b in self.expected)
        named = Counter(self.expected)
        for line in told:
            head, _, ids = line.partition(": ")  # (Move these N cards from A to B: ids.)
            head = head + "." if ids else head
            a, b = next(((a, b) for a, b in pairs if head.endswith(f" from {a} to {b}.")), ("", ""))
            assert a, f"after move {self.moves}, the program says {line!r}: nothing moved so on the table"
            what = head[: -len(f" from {a} to {b}.")]
            cards = ids.rstrip(".").split(", ") if ids else [] if what.startswith("Take ") else self.labels(what)
            n = len(cards) or (1 if what == "Take a card" else int(what.split()[1]))
            assert pairs[(a, b)] >= n, f"after move {self.moves}, {line!r}: fewer cards moved so on the table"
            pairs[(a, b)] -= n
            for c in cards:
                assert named[(c, a, b)] > 0, f"after move {self.moves}, {line!r}: another card moved so on the table"
                named[(c, a, b)] -= 1
        assert not +pairs, f"after move {self.moves}, moved on the table but not said: {dict(+pairs)}"
        self.expected = []
        self.checked += len(told)

    def labels(self, what: str) -> list[str]:
        """The printed ids of the cards a line names (``X``, ``X and Y``, ``X, Y and Z``, each by the program's
        label), the longest label first where one is the start of another."""
        g = self.game
        by_label = {g.label(c): design_of(c) for c in g.instances}
        out, rest = [], what.removeprefix("Move ")
        while rest:
            got = max((x for x in by_label if rest.startswith(x) and rest[len(x):][:2] in ("", ", ", " a")), key=len,
                      default="")
            assert got, f"after move {self.moves}: {what!r} names no card"
            out.append(by_label[got])
            rest = rest[len(got):].removeprefix(", ").removeprefix(" and ")
        return out


def test_what_the_program_says_to_move_is_what_moves_on_the_table() -> None:
    for i in range(6):
        st = Watched(ENGINE, POLICY, 2 + i % 2, i % 2, 700 + i, player="random" if i % 3 else "automaton",
                     dice="app" if i % 2 else "physical")
        st.play()
        assert st.checked > 20
        assert st.moves > 10


def test_the_tables_own_shuffles_never_put_the_program_wrong() -> None:
    """The person shuffles the table's deck otherwise than the program shuffles its belief (a search, the discard
    pile made a new deck): the cards drawn from it after are asked, never assumed."""
    for i in range(12):
        st = SimulatedTable(ENGINE, POLICY, 2, i % 2, 308 + i, player="random" if i % 2 else "automaton")
        st.truth.rng = Rng(9000 + i)  # the table's shuffles are the person's
        st.play()


def test_a_session_saved_during_a_search_laid_out_resumes_there(tmp_path: Path) -> None:
    s = _p2_casts_legend_lore(PERSON)
    do(s, "found Q02")
    g = _table_game(s)
    back = load_table(ENGINE, save_table(g, tmp_path / "s.json"))
    b = back.belief
    assert isinstance(b, CovenantState) and b.table_seat == PERSON
    assert legal(b) == legal(s) == ["found Q01", "done"] and p(b, "limbo") == ["S06", "Q02"]


# -- one whole game through the real command ------------------------------------------------------------------------
def test_a_whole_game_through_the_command_from_a_table_the_program_guessed_otherwise(tmp_path: Path) -> None:
    """A simulated person plays a game in this process from the program's own start for the seed, the cards it does
    not know lying otherwise on the person's table, and writes down what they type; the same entries typed at the
    real command on an 80 x 24 pseudo-terminal play the same game to its end, each prompt with its question."""
    seed = 5
    rec = Recorder(ENGINE, POLICY, 2, PERSON, seed, player="random", dice="physical")
    deal = rec.game.belief  # what the command starts from
    rec.truth = ignorance(deal, rec.game, random.Random(seed))  # the person's table
    rec.play()
    assert rec.truth.is_terminal() and len(rec.typed) > 100
    screens, last = play_on_terminal("covenant", ["--seed", str(seed), "--dice", "physical"], rec.typed, tmp_path)
    assert len(screens) == len(rec.typed)
    for shot in screens:
        rows = [row for row in shot if row.strip()]
        assert rows[-1] + " " in PROMPTS and len(rows) > 1, "\n".join(shot)
        assert not any("…" in row or "error" in row.lower() for row in shot), "\n".join(shot)
    assert "Game over" in " ".join(last.split()), last[-2000:]
