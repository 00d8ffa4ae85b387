"""Wizards Cup on a real table (`wizprint solo table wizards-cup`): the person's selection, plans and swaps are
made in secret and said once, never named by the program; each wizard of theirs is asked when it comes to light, in
the order the duels bring them, after what led to it was told; the automaton's set waits in a sorted pile and only
the cards the rules turn face up are taken out. A whole game through the real command at an 80 x 24 terminal, played
by a person who holds a physical Deck and answers from it."""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pexpect
import pyte
from cli_helpers import run_here
from table_helpers import SimulatedTable

from wizprint.solo.games.wizards_cup.table import POLICY
from wizprint.solo.kernel import Action, State, engine
from wizprint.solo.table import Ask, Entry

ENGINE = engine("wizards-cup")
DESIGNS = ENGINE.new_state(2, 1).data.designs  # type: ignore[attr-defined]
NAMES = {w.name: d for d, w in DESIGNS.items()}
WIZARD = re.compile("|".join(re.escape(n) for n in sorted(NAMES, key=len, reverse=True)))


class Transcript(SimulatedTable):
    """A simulated table that keeps, in order, what the program said and asked and what the person answered."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.events: list[tuple[str, str]] = []  # ("tell", line), ("decide", question and options), ("card", ...)

    def tell(self, lines: Any) -> None:
        self.events.extend(("tell", ln) for ln in lines)
        super().tell(lines)

    def decide(self, question: str, options: Any, actions: Any, cards_hint: str | None) -> Entry | None:
        self.events.append(("decide", " | ".join([question, *options])))
        return super().decide(question, options, actions, cards_hint)

    def card(self, prompt: str, ask: Ask) -> str | None:
        got = super().card(prompt, ask)
        self.events.append(("card", f"{prompt} -> {got}"))
        return got

    def moved(self, action: Action, by: int, dice: Any, picks: Any, prior: State[Any]) -> None:
        super().moved(action, by, dice, picks, prior)


def games(n: int) -> list[Transcript]:
    out = []
    for i in range(n):
        st = Transcript(ENGINE, POLICY, 2, i % 2, 300 + i, player="random" if i % 2 else "automaton")
        st.play()
        out.append(st)
    return out


def test_the_persons_secret_moves_are_asked_once_each_and_name_no_wizard() -> None:
    """The selection once, each round's planning once, the swap between rounds once: as moves made on the table
    in secret, whose words name no wizard (the program does not know which the person holds or where)."""
    for st in games(6):
        asked = [text for kind, text in st.events if kind == "decide"]
        rounds = st.truth.round  # type: ignore[attr-defined]
        assert sum("Wizard selection" in q for q in asked) == 1, asked
        for r in range(1, rounds + 1):
            assert sum(q.startswith(f"Round {r}: the planning") for q in asked) == 1, asked
        assert sum(q.startswith("Before round") for q in asked) == rounds - 1, asked
        for q in asked:  # (The Rogues' question names the Rogues, face up in the Duel zone)
            assert not WIZARD.search(q.removeprefix("The Rogues: ")), f"a decision names a wizard: {q}"
        prompts = [text.partition(" -> ")[0] for kind, text in st.events if kind == "card"]
        for p in prompts:
            assert not WIZARD.search(p), f"a card prompt names a wizard: {p}"


def test_each_wizard_of_the_persons_is_asked_as_it_comes_to_light_and_the_duel_is_told_after_it() -> None:
    """A duel that places one of the person's wizards is told right after the person said which wizard it is, and
    what went before it (the duel before, the automaton's card moves) before the question."""
    checked = 0
    for st in games(4):
        me = st.person + 1
        last_card = ""
        for kind, text in st.events:
            if kind == "card":
                last_card = text.rpartition(" -> ")[2]
                continue
            m = re.match(r"Duel \d+: (.*)", text) if kind == "tell" else None
            if m is None:
                continue
            mine = re.search(rf"P{me}'s ({WIZARD.pattern}) \(\w+ \d+\)( \(stays\))?", m.group(1))
            assert mine is not None, text
            if mine.group(2):
                continue  # the person's wizard stayed from the duel before
            assert last_card and DESIGNS[last_card.partition("#")[0]].name == mine.group(1), (text, last_card)
            last_card = ""  # each answer places one wizard
            checked += 1
    assert checked > 20


def test_when_both_take_their_second_token_the_persons_waiting_card_is_asked_before_the_decks_are_counted() -> None:
    """The tie-break counts the 6 of each Deck: the person's Waiting card, which the program does not know, is
    turned face up and asked first, so the program's count is the table's."""
    st = Transcript(ENGINE, POLICY, 2, 0, 150, player="automaton", dice="app")
    st.play()
    outcome = st.game.belief.outcome()
    assert outcome is not None and "Both players reach 2 Victory tokens" in outcome.reason
    assert outcome == st.truth.outcome()
    asked = [text for kind, text in st.events if kind == "card"]
    assert any(text.startswith("The card from your Waiting place goes to your discard pile") for text in
               asked), asked[-3:]


# -- the real command at a terminal --------------------------------------------------------------------------------
ROWS, COLS = 24, 80


@dataclass
class Person:
    """The person at the table, P1 with the Black set: their 6, the order of their Deck (top first), their Waiting
    card and the wizard they have in the Duel zone, followed from what the program says."""

    six: list[str]
    deck: list[str] = field(default_factory=list)
    waiting: str = ""
    duel: str = ""
    swapped: bool = False

    def plan(self) -> None:
        self.deck, self.waiting, self.duel = self.six[:5], self.six[5], ""

    def follow(self, text: str) -> None:
        """What the program said since the last question, in order."""
        pat = re.compile(r"P1 puts the top card of their Deck at the bottom|Every wizard goes back into its Deck|"
                         rf"P1's Waiting card ({WIZARD.pattern}) \(\w+ \d+\) takes the place of ({WIZARD.pattern})")
        for m in pat.finditer(text):
            if m.group(0).startswith("P1 puts"):
                self.deck.append(self.deck.pop(0))
            elif not m.group(0).startswith("Every"):
                self.duel, self.waiting = NAMES[m.group(1)], NAMES[m.group(2)]

    def answer(self, prompt: str) -> str:
        if prompt.startswith("The card from your Waiting place"):
            card, self.waiting = self.waiting, ""
        else:
            assert prompt.startswith("The card from your Deck"), prompt
            card = self.deck.pop(0)
        if "the Duel zone" in prompt:
            self.duel = card
        return card


def test_a_whole_game_through_the_command_at_an_80_by_24_terminal(tmp_path: Path) -> None:
    env = dict(os.environ, NO_COLOR="1", TERM="dumb", COLUMNS=str(COLS), LINES=str(ROWS))
    p = pexpect.spawn(sys.executable, ["-m", "wizprint", "solo", "table", "wizards-cup", "--seed", "5"], env=env,
                      encoding="utf-8", timeout=60, cwd=str(tmp_path), dimensions=(ROWS, COLS))
    p.delaybeforesend = None
    term = pyte.Screen(COLS, ROWS)
    stream = pyte.Stream(term)

    def expect(patterns: list[Any]) -> tuple[int, str]:
        i = p.expect(patterns)
        chunk = p.before + (p.after if isinstance(p.after, str) else "")
        stream.feed(chunk)
        return i, " ".join(chunk.split())

    person: Person | None = None
    said = ""
    prompts = slips = 0
    while True:
        i, text = expect(["your choice> ", "card> ", "Game over[^\n]*\n", pexpect.EOF])
        said += " " + text
        if i >= 2:
            break
        prompts += 1
        assert prompts < 80, "the game did not end"
        rows = [r.rstrip() for r in term.display if r.strip()]
        assert rows[-1].startswith(("your choice>", "card>")) and not any("…" in r for r in rows), rows
        if person is None:  # the set-up named the person's random wizard: their 6 are it and five more
            m = re.search(r"P2 picks your (C\d\d) ", said)
            assert m is not None, said
            person = Person([m.group(1), *[d for d in sorted(DESIGNS) if d != m.group(1)][:5]])
        person.follow(text)
        if i == 0:
            question = text.rpartition("your choice>")[0]
            assert " 1 " in question and "which card" not in question, question
            if "the planning" in question:
                person.plan()  # the last of the 6 waits, the others duel in their order
            if "Before round" in question and not person.swapped:  # swap one wizard, in secret: the first of
                p.sendline("2")  # the 6 for the first set aside
                person.six = [*person.six[1:], next(d for d in sorted(DESIGNS) if d not in person.six)]
                person.swapped = True
            else:
                p.sendline("1")  # the selection, a planning (always one option), keeping the Deck, The Rogues: keep
            continue
        prompt = re.sub(r"^.*?(The card from)", r"\1", text.rpartition("card>")[0]).strip()
        assert prompt.endswith("which card is it?") and prompt in " ".join(" ".join(rows[-4:-1]).split()), rows[-4:]
        card = person.answer(prompt)
        if not slips:  # a slip first: the program asks again, with a close name; and a note for the record
            name = DESIGNS[card].name
            p.sendline(name[:-1] + ("x" if name[-1] != "x" else "y"))
            assert "did you mean" in expect(["card> "])[1]
            p.sendline(f"note the Element icon on {card} is hard to tell at arm's length")
            assert "Noted." in expect(["card> "])[1]
            slips += 1
        p.sendline(card)
    expect([pexpect.EOF])
    p.close()
    assert re.search(r"Game over\. .*\. (You win|You lose|A shared result)\.", said), said[-300:]
    assert p.exitstatus == 0
    assert person is not None and person.swapped
    log = (tmp_path / "wizprint-wizards-cup-table-seed5.log").read_text(encoding="utf-8")
    assert "is hard to tell at arm's length" in log and "Duel 1:" in log


def test_a_session_saved_in_the_middle_of_a_round_resumes_there_and_tells_the_move_again(tmp_path: Path) -> None:
    """Seed 12: P1 plays C14 The Rogues first, rearranges their Deck with it (C05 The Geomancer next), and quits
    when the third wizard is asked, in the middle of the round. Resumed, the move in progress (the rest of the
    rearranging, then the duels) is made again and told again from its start, and no wizard already entered is
    asked again: the next question is the third wizard."""
    r = run_here("solo", "table", "wizards-cup", "--seed", "12", cwd=tmp_path,
                 input="\n".join(["1", "1", "rogues", "2", "C05", "quit"]) + "\n")
    assert r.returncode == 0, r.stdout
    first = " ".join(r.stdout.split())
    assert "Duel 2: P1's The Geomancer (water 8)" in first and first.count("which card is it?") == 3
    save = "wizprint-wizards-cup-table-seed12.save.json"
    r2 = run_here("solo", "table", "wizards-cup", "--load", save, cwd=tmp_path, input="detective\nquit\n")
    assert r2.returncode == 0, r2.stdout
    again = " ".join(r2.stdout.split())
    told, _, rest = again.partition("which card is it?")
    assert "P1 has put their Deck in a new order" in told and "Duel 2: P1's The Geomancer (water 8)" in told
    assert "Duel 1" not in told
    assert rest.lstrip().startswith("card>") and "Duel 3: P1's The Detective (shadow 5)" in rest


def test_look_says_nothing_of_where_the_automatons_kept_wizards_or_the_persons_face_down_ones_lie(
        tmp_path: Path) -> None:
    """At the first planning, every wizard looked up: where the automaton's copy lies (its Deck, its set aside) is
    the program's secret, and where the person's lies among their face-down cards the program does not know; look
    says only what everyone has seen (the random wizards are among the 6)."""
    looks = [f"look {d}" for d in sorted(DESIGNS)]
    r = run_here("solo", "table", "wizards-cup", "--seed", "12", cwd=tmp_path,
                 input="\n".join(["1", *looks, "quit"]) + "\n")
    assert r.returncode == 0, r.stdout
    out = " ".join(r.stdout.split())
    assert out.count("Your opponent's copy") == len(DESIGNS)
    for placed in ("is in your Deck", "is set aside", "is your Waiting card"):
        assert placed not in out, placed
    assert "Your copy is among their 6 (everyone has seen it)." in out  # C11 The Matron, the person's random one
