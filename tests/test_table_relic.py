"""Relic on a real table (``wizprint solo table relic``): the engine opens the person's windows of play by the Power
cards they may hold (not by the program's samples of their hand), the person may play a card the samples do not
show, a Corruption card the person draws is placed by the rules without naming it to the program, games with three
and four players on a simulated table, and one whole game through the real command on an 80 x 24 pseudo-terminal.
The twenty games with two players and the honesty test are those of ``test_table.py`` (``TABLE_GAMES``)."""

from __future__ import annotations

import os
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pexpect
import pyte
from relic_helpers import ENGINE, do, legal, mk
from table_helpers import SimulatedTable, ignorance, typed_for

from wizprint.solo.games.relic import RelicState
from wizprint.solo.games.relic.plays import may_hold
from wizprint.solo.games.relic.table import POLICY
from wizprint.solo.kernel import Action, design_of
from wizprint.solo.kernel.table import relabel
from wizprint.solo.table import Ask, Entry, TableGame
from wizprint.solo.tableplay import load_table, new_table, save_table


class Recording(SimulatedTable):
    """A simulated table that keeps what it was asked: ("card", prompt), ("which", question, options)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.asked: list[tuple[str, ...]] = []

    def card(self, prompt: str, ask: Ask) -> str | None:
        got = super().card(prompt, ask)
        self.asked.append(("card", prompt, str(got)))
        return got

    def which(self, question: str, options: Sequence[str], ask: Ask) -> int | None:
        got = super().which(question, options, ask)
        assert got is not None
        self.asked.append(("which", question, options[got]))
        return got


def on_table(truth: RelicState, swaps: Sequence[tuple[str, str]], person: int = 0) -> Recording:
    """A simulated table whose cards lie as in ``truth``, and the program's belief: the truth with the cards of
    ``swaps`` exchanged (its samples of cards it does not know), every card on the table known to it."""
    st = Recording(ENGINE, POLICY, truth.players, person, 3)
    POLICY.prepare(truth, person)  # type: ignore[misc]
    belief = truth.clone()
    for x, y in swaps:
        belief = relabel(belief, {x: y, y: x})
    g = TableGame(ENGINE, belief, person, ["" if s == person else "automaton" for s in range(truth.players)],
                  POLICY, seed=3)
    g.known = set(g.to_learn(belief))
    st.truth, st.game = truth, g
    return st


# -- the engine at a table ----------------------------------------------------------------------------------------
def test_at_a_table_the_persons_window_after_the_move_opens_by_the_power_cards_they_may_hold() -> None:
    """Seat 0 holds Martyr's Fury (battles only); Forced March (played at the end of a move) lies in the Power deck.
    In solo play the move goes on to the Engagement phase; at a table, where the program does not know seat 0's
    hand, the window at the end of the move opens all the same."""
    for seat, pending in ((-1, "engagement"), (0, "movement")):
        s = mk(hands=[["PW02"], ["PW26"]], phase="movement", decks={"power": ["PW15#1"]})
        s.table_seat = seat
        do(s, "roll", "pass", "cw", dice=(3,))
        assert s.pending is not None and s.pending.kind == pending
        if seat == 0:
            assert legal(s) == ["stop"]


def test_at_a_table_the_persons_experience_phase_asks_by_the_cards_they_may_hold_with_its_discards() -> None:
    """Seat 0 holds only Martyr's Fury (battles only) and has nothing to spend: in solo play its Experience phase
    asks nothing. At a table it asks (the person may hold a card of the phase, as Moment of Clarity), and offers
    the discards it offers with a real choice, so that the person can discard a card of theirs the program does
    not know."""
    for seat, pending in ((-1, "dice"), (0, "experience")):
        s = mk(hands=[["PW02"], ["PW26"]], phase="engagement", positions=["O18", "O12"])
        s.table_seat = seat
        do(s, "pass", "box 2")
        assert s.pending is not None and s.pending.kind == pending
        if seat == 0:
            assert legal(s) == ["discard PW02", "end"]


def test_the_power_cards_the_person_may_hold_are_those_no_other_seat_sees() -> None:
    s = mk(hands=[["PW02"], ["PW09"]])
    s.decks["power"].remove("PW03")
    s.discards["power"].append("PW03")
    s.table_seat = 0
    held = {design_of(x) for x in may_hold(s, 0)}
    assert held == {design_of(x) for x in s.decks["power"] + s.hands[0]}
    assert "PW09" not in held and "PW03" not in held and {"PW02", "PW15"} <= held
    s.table_seat = -1
    assert may_hold(s, 0) == ["PW02"]


def test_the_seat_at_a_table_is_saved_with_the_game(tmp_path: Path) -> None:
    g = new_table("relic", 2, "automaton", 11, 1, "", "app")
    assert g.belief.table_seat == 1  # type: ignore[attr-defined]
    path = save_table(g, tmp_path / "t.save.json")
    assert load_table(ENGINE, path).belief.table_seat == 1  # type: ignore[attr-defined]


# -- the person's secret cards --------------------------------------------------------------------------------------
def test_the_person_plays_a_card_of_their_hand_that_the_programs_samples_do_not_show() -> None:
    """The person holds Forced March; the program's sample of their hand is Martyr's Fury, which offers nothing at
    the end of the move. The program asks all the same, and the person plays Forced March by naming it."""
    truth = mk(hands=[["PW15#1"], ["PW26"]], phase="movement")
    st = on_table(truth, [("PW15#1", "PW02")])
    g = st.game
    for key in ("roll", "pass", "cw"):
        st.intended = _action(st.truth, key)
        assert g.person_move(g.belief.legal_actions(), st)
    assert sorted(a.key for a in st.truth.legal_actions()) == ["play PW15#1", "stop"]
    st.intended = _action(st.truth, "play PW15#1")
    assert g.person_move(g.belief.legal_actions(), st)
    assert "PW15#1" in g.belief.discards["power"] and g.belief.hands[0] == []  # type: ignore[attr-defined]


def _action(s: Any, key: str) -> Action:
    return next(a for a in s.legal_actions() if a.key == key)


def test_a_corruption_card_the_person_draws_is_placed_by_the_rules_without_naming_it_when_it_lies_face_down() -> None:
    """Seat 0 resolves Crone World Yllen Satari: two Corruption cards. On the table the first is Lidless Eye
    (activation 1: face up) and the second Daemonic Patronage (activation 6: face down); the program's sample of
    the first is Vessel of the Warp (activation 6), which would lie face down. The person is asked where each goes;
    they name the face-up card, and the face-down one stays unknown to the program."""
    truth = mk(positions=["I4", "O12"], hands=[["PW02"], ["PW26"]], phase="engagement",
               decks={"corruption": ["CR03", "CR24"]})
    st = on_table(truth, [("CR03", "CR22")])
    g = st.game
    st.intended = _action(st.truth, "pass")
    assert g.person_move(g.belief.legal_actions(), st)  # the simulated table checks what P2 sees after it
    asked = [a for a in st.asked if a[0] == "which"]
    assert [a[2] for a in asked] == ["your face-up Corruption cards",
                                     "your face-down Corruption cards (secret)"], st.asked
    named = [a[2] for a in st.asked if a[0] == "card"]
    assert named == ["CR03"], st.asked
    b = g.belief
    assert isinstance(b, RelicState)
    assert b.corruption_face_up[0] == ["CR03"] and len(b.corruption_face_down[0]) == 1
    assert b.corruption_face_down[0][0] not in g.known


def test_a_power_card_the_person_draws_asks_nothing() -> None:
    """Seat 0 spends 2 influence at Underhive Sump-Market for a Power card: whichever card it is, the automaton
    sees the same, and nothing is asked."""
    truth = mk(positions=["O02", "O12"], hands=[["PW02"], ["PW26"]], phase="engagement")
    st = on_table(truth, [])
    g = st.game
    for key in ("pass", "box 1", "yes"):
        st.intended = _action(st.truth, key)
        assert g.person_move(g.belief.legal_actions(), st)
    b = g.belief
    assert isinstance(b, RelicState) and len(b.hands[0]) == 2 and b.influence[0] == 1
    assert st.asked == []


def test_the_die_for_the_enemy_in_a_battle_is_asked_as_the_enemys_roll() -> None:
    """Seat 0 battles Hive Tyrant: the first die the person rolls is the enemy's, made by the player to the left
    (P2), and the prompt says so; the second is their own."""
    truth = mk(hands=[["PW02"], ["PW26"]], phase="engagement", positions=["O15", "O12"], threats={"O15": ["TB14"]})
    st = on_table(truth, [])
    asked: list[str] = []
    roll = st.roll

    def rolled(sides: int, why: str, ask: Ask) -> int | None:
        asked.append(why)
        return roll(sides, why, ask)

    st.roll = rolled  # type: ignore[method-assign]
    g = st.game
    for key in ("pass", "pass", "roll"):
        st.intended = _action(st.truth, key)
        assert g.person_move(g.belief.legal_actions(), st)
    assert asked[:2] == ["the enemy's battle roll, made by P2", "P1: roll a die"]


# -- whole games --------------------------------------------------------------------------------------------------
def test_games_with_three_and_four_players_on_a_simulated_table() -> None:
    for players, seed in ((3, 202), (4, 401)):
        st = SimulatedTable(ENGINE, POLICY, players, seed % players, seed, dice="physical" if seed % 2 else "app",
                            player="automaton")
        st.play()
        assert st.truth.is_terminal() and st.moves > 100


# -- the command on a pseudo-terminal -----------------------------------------------------------------------------
PROMPTS = {"decide": "your choice> ", "card": "card> ", "roll": "die> ", "which": "your answer> "}
MORE = "-- more: press Enter --"


class Typist(SimulatedTable):
    """A simulated table that writes down what a person at the terminal types for each of its answers."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.typed: list[tuple[str, str]] = []

    def decide(self, question: str, options: Sequence[str], actions: Sequence[Any],
               cards_hint: str | None) -> Entry | None:
        got = super().decide(question, options, actions, cards_hint)
        assert got is not None
        self.typed.extend(("decide", text) for text in typed_for(self.game.belief, actions, got))
        return got

    def card(self, prompt: str, ask: Ask) -> str | None:
        got = super().card(prompt, ask)
        assert got is not None
        self.typed.append(("card", design_of(got)))
        return design_of(got)  # as a person types it (copies of a card are the same card)

    def roll(self, sides: int, why: str, ask: Ask) -> int | None:
        got = super().roll(sides, why, ask)
        self.typed.append(("roll", str(got)))
        return got

    def which(self, question: str, options: Sequence[str], ask: Ask) -> int | None:
        got = super().which(question, options, ask)
        assert got is not None
        self.typed.append(("which", str(got + 1)))
        return got


def test_a_whole_game_through_the_command_on_an_80_by_24_terminal(tmp_path: Path) -> None:
    """The person's answers come from a simulated table playing the same session in this process (the command's
    own start: the same seed, the same belief), its physical cards shuffled otherwise; typed at the real command,
    every prompt comes as expected and the game ends."""
    seed = 9
    g = new_table("relic", 2, "automaton", seed, 0, "", "physical")
    st = Typist(ENGINE, POLICY, 2, 0, seed, player="automaton")
    st.truth = ignorance(g.belief, g, random.Random(5))
    st.game = g
    st.play()
    rows, cols = 24, 80
    env = dict(os.environ, NO_COLOR="1", TERM="dumb", COLUMNS=str(cols), LINES=str(rows))
    p = pexpect.spawn(sys.executable, ["-m", "wizprint", "solo", "table", "relic", "--seed", str(seed)], env=env,
                      encoding="utf-8", timeout=60, cwd=str(tmp_path), dimensions=(rows, cols))
    p.delaybeforesend = None
    p.delayafterread = None
    screen = pyte.Screen(cols, rows)
    stream = pyte.Stream(screen)
    patterns = [*PROMPTS.values(), MORE, pexpect.EOF]
    todo = list(st.typed)
    while True:
        i = p.expect(patterns)
        stream.feed(p.before + (p.after if isinstance(p.after, str) else ""))
        if patterns[i] == MORE:
            p.sendline("")
            continue
        if patterns[i] is pexpect.EOF:
            break
        assert todo, "a prompt more than the simulated table answered:\n" + "\n".join(screen.display)
        kind, text = todo.pop(0)
        assert patterns[i] == PROMPTS[kind], f"expected the prompt {PROMPTS[kind]!r}:\n" + "\n".join(screen.display)
        if kind == "card":
            shown = " ".join(" ".join(r.split()) for r in screen.display)
            assert "which card is it?" in shown or "Pick one" in shown, "\n".join(screen.display)
        p.sendline(text)
    p.close()
    assert not todo and p.exitstatus == 0
    log = (tmp_path / f"wizprint-relic-table-seed{seed}.log").read_text(encoding="utf-8")
    assert "Game over" in log
    assert all(len(r.rstrip()) <= cols for r in screen.display)
