"""`wizprint solo table`: the printed cards on a real table. A simulated table (``table_helpers.py``: a person who
owns a shuffled physical copy of the components and answers as a person would) plays whole games through the same
driver the command uses, and after every move the program's belief and the table look the same to every automaton
seat and to everyone. The honesty of it: rearranging the person's unknown cards never changes an automaton's
decision. And the command at a terminal: entries by id or name with did-you-mean, dice both ways, undo, notes, save
and resume."""

from __future__ import annotations

import importlib
import json
import zlib
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import run_here
from screen_helpers import read_decision
from table_helpers import PROMPTS, Recorder, SimulatedTable, play_on_terminal

from wizprint.solo.kernel import Action, State, engine
from wizprint.solo.kernel.table import Place, TablePolicy

TABLE_GAMES = {"wizard-cards": ("wizard_cards", 2, [""]), "wizards-cup": ("wizards_cup", 2, [""]),
               "relic": ("relic", 2, [""]), "wizards-and-relics": ("wizards_and_relics", 2, [""]),
               "covenant": ("covenant", 2, [""])}


def policy(game: str) -> TablePolicy:
    mod = importlib.import_module(f"wizprint.solo.games.{TABLE_GAMES[game][0]}.table")
    p: TablePolicy = mod.POLICY
    return p


@pytest.mark.parametrize("game", sorted(TABLE_GAMES))
def test_twenty_whole_games_on_a_simulated_table_look_the_same_to_the_automaton_as_the_table(game: str) -> None:
    _, players, variants = TABLE_GAMES[game]
    eng = engine(game)
    for i in range(20):
        variant = variants[i % len(variants)]
        st = SimulatedTable(eng, policy(game), players, i % players, 100 + i, variant=variant,
                            player="random" if i % 2 else "automaton", dice="physical" if i % 3 else "app")
        st.play()
        assert st.moves > 10


class Leaky:
    """An automaton that also reads the person's secret cards in the program's belief (which it must never see):
    its first moves while the person holds secret cards depend on the samples and their order (then it plays as
    the automaton, so that a long game still ends)."""

    def __init__(self, eng: Any, person: int, policy: TablePolicy) -> None:
        self.inner = eng.automaton()
        self.person = person
        self.policy = policy
        self.peeks = 10

    def choose(self, state: State[Any], seat: int) -> Action:
        legal = state.legal_actions()
        secret = [c for z, cards in state.zones().items() if self.policy.place(z, self.person) is Place.PERSON
                  for c in cards]
        if self.peeks <= 0 or not secret:
            return self.inner.choose(state, seat)
        self.peeks -= 1
        peek = zlib.crc32(" ".join(secret).encode())
        return legal[peek % len(legal)]


@pytest.mark.parametrize("game", sorted(TABLE_GAMES))
def test_rearranging_the_persons_unknown_cards_never_changes_an_automaton_decision(game: str) -> None:
    """The same table, the same entries: the program's samples of the cards it does not know drawn differently.
    The automaton decides the same every time; an automaton that peeks at the samples (``Leaky``) does not, so
    the test can see a leak."""
    _, players, _ = TABLE_GAMES[game]
    eng = engine(game)
    for seed in range(3):
        runs = []
        for samples in (1, 2, 3):
            st = SimulatedTable(eng, policy(game), players, 0, 500 + seed, samples=samples)
            st.play()
            runs.append(st.decisions)
        assert runs[0] == runs[1] == runs[2]
    leaks = []
    for samples in (1, 2, 3):
        st = SimulatedTable(eng, policy(game), players, 0, 500, samples=samples,
                            agents=[None, *[Leaky(eng, 0, policy(game)) for _ in range(players - 1)]])
        try:
            st.play()
        except AssertionError:
            leaks.append(None)  # its peeking made the program's moves disagree with the table's
            continue
        leaks.append(st.decisions)
    assert len({json.dumps(x) for x in leaks}) > 1


def test_every_zone_of_every_table_game_has_a_place_and_a_name() -> None:
    for game in TABLE_GAMES:
        s = engine(game).new_state(TABLE_GAMES[game][1], 1)
        p = policy(game)
        for person in range(s.players):
            for z in s.zones():
                assert isinstance(p.place(z, person), Place)
                assert p.name(z, person) != z, f"{game}: {z} has no name on the table"


# -- the command at a terminal -----------------------------------------------------------------------------------
def _hand_of_p2(seed: int) -> list[str]:
    """The automaton's five cards, as the table deals them: the program's own deal for that seed."""
    s = engine("wizard-cards").new_state(2, seed)
    return list(s.hands[1])  # type: ignore[attr-defined]


def test_a_session_saves_and_resumes_and_keeps_its_notes(tmp_path: Path) -> None:
    entries = _hand_of_p2(12)
    typed = "\n".join([*entries, "note the ward icon is hard to read", "quit"]) + "\n"
    r = run_here("solo", "table", "wizard-cards", "--seed", "12", cwd=tmp_path, input=typed)
    assert r.returncode == 0, r.stdout
    save = tmp_path / "wizprint-wizard-cards-table-seed12.save.json"
    data = json.loads(save.read_text())
    assert data["format"] == "wizprint-table-save/1" and data["notes"][0][1] == "the ward icon is hard to read"
    assert set(entries) <= set(data["known"])
    log = (tmp_path / "wizprint-wizard-cards-table-seed12.log").read_text()
    assert "NOTE (step 0): the ward icon is hard to read" in log
    # resumed: the set-up is not asked again, the notes are kept
    r2 = run_here("solo", "table", "wizard-cards", "--load", save.name, cwd=tmp_path, input="quit\n")
    assert r2.returncode == 0 and "Set-up" not in r2.stdout
    assert json.loads(save.read_text())["notes"] == data["notes"]
    # the resumed session goes on in the same log (its first line says it is a table session's)
    assert sorted(x.name for x in tmp_path.iterdir()) == [save.name.replace(".save.json", ".log"), save.name]
    assert "NOTE (step 0): the ward icon is hard to read" in (tmp_path / save.name.replace(".save.json", ".log")
                                                                ).read_text()


def test_a_card_is_entered_by_id_or_name_and_a_slip_gets_did_you_mean(tmp_path: Path) -> None:
    s = engine("wizard-cards").new_state(2, 12)
    first = s.hands[1][0]  # type: ignore[attr-defined]
    name = s.data.game.card(first).name  # type: ignore[attr-defined]
    slip = name[:-1] + ("x" if name[-1] != "x" else "y")
    typed = "\n".join([slip, name.lower(), *_hand_of_p2(12)[1:], "quit"]) + "\n"
    r = run_here("solo", "table", "wizard-cards", "--seed", "12", cwd=tmp_path, input=typed)
    out = " ".join(r.stdout.split())
    assert r.returncode == 0
    assert "did you mean" in out


def test_a_dice_mode_that_is_not_one_is_refused(tmp_path: Path) -> None:
    r = run_here("solo", "table", "wizard-cards", "--dice", "loaded", cwd=tmp_path)
    assert r.returncode == 2 and r.stderr.strip() == "error: --dice must be physical or app, not 'loaded'"


def test_random_games_play_the_same_on_samples_drawn_with_a_fixed_seed() -> None:
    eng = engine("wizard-cards")
    a = SimulatedTable(eng, policy("wizard-cards"), 2, 1, 7, samples=9)
    b = SimulatedTable(eng, policy("wizard-cards"), 2, 1, 7, samples=9)
    a.play()
    b.play()
    assert a.decisions == b.decisions and a.truth.outcome() == b.truth.outcome()


@pytest.mark.parametrize("game", sorted(TABLE_GAMES))
def test_a_whole_game_at_an_80_by_24_terminal(game: str, tmp_path: Path) -> None:
    """One whole game through the real command on a pseudo-terminal: a simulated person's entries (written down
    in-process with the same seed) typed at its prompts. Every prompt shows its question, no line is cut, and the
    game ends."""
    _, players, variants = TABLE_GAMES[game]
    rec = Recorder(engine(game), policy(game), players, 0, 31, variant=variants[0], dice="physical")
    rec.play()
    args = ["--seed", "31", "--players", str(players), "--dice", "physical", *(
        ["--variant", variants[0]] if variants[0] else [])]
    screens, last = play_on_terminal(game, args, rec.typed, tmp_path)
    assert len(screens) == len(rec.typed) > 10
    for shot in screens:
        assert not any("…" in row or "error" in row.lower() for row in shot), "\n".join(shot)
        rows = [row for row in shot if row.strip()]
        assert rows[-1] + " " in PROMPTS, "\n".join(shot)
        asked = " ".join(row.strip() for row in rows[-8:-1])  # (a question may wrap)
        listed = read_decision(shot) is not None  # numbered options above the prompt (a long list included)
        assert listed or asked.endswith(("which card is it?", "what does it show?")) or any(row.startswith(
            (" 1 ", "Type the id", "(or ")) for row in rows[-8:-1]), "\n".join(shot)
    assert "Game over" in " ".join(last.split()), last[-2000:]


def test_undo_takes_back_the_last_choice_and_says_what_to_put_back(tmp_path: Path) -> None:
    """Seed 12: P1 casts 8S Wall of Stone as a ward and draws back up to five; P2's Disintegrate spends the ward
    and asks P1 for a card. Undo there goes back to P1's cast: the ward comes back from the discard pile to the
    hand, the card drawn goes back onto the deck, P2's spell back to its hand (worked out from the rules)."""
    s = engine("wizard-cards").new_state(2, 12)
    assert s.hands[0][0] == "8S"  # type: ignore[attr-defined]
    typed = "\n".join([*_hand_of_p2(12), "8S", "undo", "undo", "quit"]) + "\n"
    r = run_here("solo", "table", "wizard-cards", "--seed", "12", cwd=tmp_path, input=typed)
    out = " ".join(r.stdout.split())
    assert r.returncode == 0, r.stdout
    before, _, back = out.partition("Undone: back to before your last choice.")
    # the card the person played moves from their hand (not the program's sample it took the place of)
    assert "> Move 8S Wall of Stone from your hand to your wards (face up before you)." in before
    assert "from the spell deck to your wards" not in before
    assert back.startswith(" On the table: Take a card from your hand to the spell deck. Move 8S Wall of Stone "
                           "from the discard pile to your hand. Move QC Disintegrate from the spell being cast (in "
                           "the middle of the table) to P2's hand (face up)."), back[:400]
    assert "Nothing to undo yet: this is your first choice." in back
    saved = json.loads((tmp_path / "wizprint-wizard-cards-table-seed12.save.json").read_text())
    assert "8S" not in saved["known"]  # back in the hand, secret again


def test_a_resumed_session_keeps_a_file_of_the_users_where_its_log_would_go(tmp_path: Path) -> None:
    typed = "\n".join([*_hand_of_p2(12), "quit"]) + "\n"
    assert run_here("solo", "table", "wizard-cards", "--seed", "12", cwd=tmp_path, input=typed).returncode == 0
    log = tmp_path / "wizprint-wizard-cards-table-seed12.log"
    log.write_text("my own notes\n")  # the user's file, under the log's name
    r = run_here("solo", "table", "wizard-cards", "--load", "wizprint-wizard-cards-table-seed12.save.json",
                 cwd=tmp_path, input="quit\n")
    assert r.returncode == 0 and "is not a wizprint game log: it is kept" in " ".join(r.stdout.split())
    assert log.read_text() == "my own notes\n"
