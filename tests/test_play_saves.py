"""Saves and seeds of `wizprint solo play`: a new game never writes over a file (a save or log name in use makes the
game take a free name and say so), a game without --seed draws its own and shows it, and a resumed game keeps
writing to the save it loaded and to the log it was started with."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from cli_helpers import run_here


def _quit_new_game(folder: Path, *args: str) -> str:
    r = run_here("solo", "play", "wizard-cards", *args, cwd=folder, input="quit\n")
    assert r.returncode == 0, r.stdout + r.stderr
    return r.stdout


def _saves(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.save.json"))


def test_two_new_games_in_one_folder_keep_both_saves_and_a_load_writes_to_the_first(tmp_path: Path) -> None:
    first = _quit_new_game(tmp_path)
    second = _quit_new_game(tmp_path)
    saves = _saves(tmp_path)
    assert len(saves) == 2, first + second
    seeds = [json.loads(p.read_text())["seed"] for p in saves]
    assert seeds[0] != seeds[1]
    # each game said its seed, and how to play the deal again
    for out in (first, second):
        m = re.search(r"Seed (\d+): play this deal again with --seed \1\.", " ".join(out.split()))
        assert m, out
    one = next(p for p in saves if p.name in first)
    log = one.with_name(one.name.replace(".save.json", ".log"))
    assert log.is_file() and log.read_text().startswith("wizprint solo play: wizard-cards")
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    # a third session resumes the first: it plays one move and quits; the first's save and log change, no file is
    # added, the second game's files are untouched
    r = run_here("solo", "play", "wizard-cards", "--load", one.name, cwd=tmp_path, input="1\nquit\n")
    assert r.returncode == 0, r.stdout
    after = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    assert set(after) == set(before)
    changed = {n for n in after if after[n] != before[n]}
    assert changed == {one.name, log.name}
    assert json.loads(after[one.name])["state"]["steps"] > json.loads(before[one.name])["state"]["steps"]


def test_a_new_game_with_a_used_seed_takes_a_free_name_and_says_so(tmp_path: Path) -> None:
    _quit_new_game(tmp_path, "--seed", "5")
    save = tmp_path / "wizprint-wizard-cards-seed5.save.json"
    original = save.read_bytes()
    out = _quit_new_game(tmp_path, "--seed", "5")
    assert save.read_bytes() == original
    assert "wizprint-wizard-cards-seed5.save.json exists: this game's save is " in " ".join(out.split())
    assert (tmp_path / "wizprint-wizard-cards-seed5-2.save.json").is_file()
    assert (tmp_path / "wizprint-wizard-cards-seed5-2.log").is_file()
    assert "Seed 5:" not in out  # a seed that was given is not announced


def test_a_log_file_of_the_users_is_never_written_over(tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n")
    out = _quit_new_game(tmp_path, "--seed", "2", "--log-file", "notes.txt")
    assert notes.read_text() == "my notes\n"
    assert "notes.txt exists: this game's log is notes-2.txt" in " ".join(out.split())
    # a save that names the user's file as its log, resumed: the file is kept, the log goes to a free name
    save = tmp_path / "wizprint-wizard-cards-seed2.save.json"
    data = json.loads(save.read_text())
    data["log"] = str(notes)
    (tmp_path / "notes-2.txt").write_text("more of mine\n")
    save.write_text(json.dumps(data))
    r = run_here("solo", "play", "wizard-cards", "--load", save.name, cwd=tmp_path, input="quit\n")
    assert r.returncode == 0
    assert notes.read_text() == "my notes\n" and (tmp_path / "notes-2.txt").read_text() == "more of mine\n"
    assert "is not a wizprint game log: it is kept" in " ".join(r.stdout.split())


def test_a_saved_log_outside_the_saves_folder_is_not_followed(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    _quit_new_game(tmp_path / "a", "--seed", "3")
    save = tmp_path / "a" / "wizprint-wizard-cards-seed3.save.json"
    data = json.loads(save.read_text())
    data["log"] = str(tmp_path / "elsewhere.log")
    save.write_text(json.dumps(data))
    r = run_here("solo", "play", "wizard-cards", "--load", str(save), cwd=tmp_path, input="quit\n")
    assert r.returncode == 0
    assert not (tmp_path / "elsewhere.log").exists()
    assert "outside the save's folder" in " ".join(r.stdout.split())
    assert (tmp_path / "a" / "wizprint-wizard-cards-seed3.log").read_text().startswith("wizprint solo play:")


def test_numbered_names_and_claims() -> None:
    from wizprint.solo.play import numbered

    assert numbered(Path("x/wizprint-covenant-seed9.save.json"), 4) == Path("x/wizprint-covenant-seed9-4.save.json")
    assert numbered(Path("game"), 2) == Path("game-2")


def test_claimed_names_are_created_so_a_second_new_game_takes_the_next(tmp_path: Path) -> None:
    from wizprint.solo.play import claim_names, new_session

    a = new_session("wizard-cards", 2, "automaton", 4, 0, "")
    b = new_session("wizard-cards", 2, "automaton", 4, 0, "")
    assert claim_names(a, tmp_path / "g.save.json", tmp_path / "g.log") == []
    assert claim_names(b, tmp_path / "g.save.json", tmp_path / "g.log") == [
        f"{tmp_path / 'g.save.json'} exists: this game's save is {tmp_path / 'g-2.save.json'}.",
        f"{tmp_path / 'g.log'} exists: this game's log is {tmp_path / 'g-2.log'}."]
    assert json.loads((tmp_path / "g.save.json").read_text())["seed"] == 4  # saved from the start


SAVES = Path(__file__).parent / "saves"


@pytest.mark.parametrize("name", ["wr-no-advantage", "wr-midgame", "wcup-after-swap", "wcup-midgame"])
def test_a_game_saved_by_the_earlier_version_loads_and_plays_to_its_end(name: str) -> None:
    """Saves written by wizprint before the Wizards & Relics state kept who took advantage away (``equalized``
    instead of a flag ``no_advantage``) and the Wizards Cup state kept the powers in play and what was seen before
    each swap (``in_play``, ``earlier``): each loads, and automata play it to its end."""
    from wizprint.solo.agents import make_agent
    from wizprint.solo.kernel import engine
    from wizprint.solo.play import load_session

    path = SAVES / f"{name}.save.json"
    game = json.loads(path.read_text())["game"]
    s = load_session(engine(game), path)
    st = s.state
    if name == "wr-no-advantage":
        assert st.no_advantage and st.equalized == ["S24"]  # the shrine in play takes advantage away
    bots = [make_agent("automaton", s.engine, i) for i in range(st.players)]
    while not st.is_terminal():
        legal = st.legal_actions()
        st.apply(legal[0] if len(legal) == 1 else bots[st.current_player].choose(st, st.current_player))
    assert st.outcome() is not None


def test_wizards_and_relics_reads_the_waiting_discard_triggers_an_earlier_save_kept_as_texts() -> None:
    """The earlier version kept the discard triggers waiting for a Replenish as texts ``seat:card`` (``queued``): a
    save holding them loads with each as a typed value (whose trigger, which card); texts that name no seat or card
    of the game are refused, each named by its place in the save."""
    from wizprint.errors import SaveError
    from wizprint.solo.games.wizards_and_relics.state import Discarded
    from wizprint.solo.kernel import engine

    eng = engine("wizards-and-relics")
    s = eng.new_state(2, 3)
    old = {k: v for k, v in s.to_json().items() if k != "discard_triggers"}
    first, second = sorted(eng.data.cards)[:2]
    back = eng.from_json({**old, "queued": [f"1:{first}", f"0:{second}"]})
    assert back.discard_triggers == [Discarded(1, first), Discarded(0, second)]
    assert eng.from_json({**old, "queued": []}).discard_triggers == []
    with pytest.raises(SaveError) as bad:
        eng.from_json({**old, "queued": [f"2:{first}", f"0:{second}", "0:nothing", 7]})
    assert bad.value.problems == [
        f"state.queued[0]: expected 'seat:card', got '2:{first}'",
        "state.queued[2]: expected 'seat:card', got '0:nothing'", "state.queued[3]: expected 'seat:card', got 7"]


def test_wizards_cup_rebuilds_what_an_earlier_save_lacks_as_the_game_would_have_kept_it() -> None:
    """At every decision of automaton and random games, a save in the earlier version's shape (no ``in_play``, no
    ``earlier``, and ``known`` holding every card ever seen of each set) loads with what was seen before and since
    each swap exactly as the game kept it, and the same wizards in play."""
    from wizprint.solo.agents import RandomAgent, make_agent
    from wizprint.solo.kernel import engine

    eng = engine("wizards-cup")
    swaps = checked = 0
    for seed in range(12):
        s = eng.new_state(2, seed)
        bots = [make_agent("automaton", eng, seed), RandomAgent(seed + 1)]
        while not s.is_terminal():
            j = s.to_json()
            old = {k: v for k, v in j.items() if k not in ("in_play", "earlier")}
            old["known"] = [sorted({c for stretch in [*s.earlier[x], s.known[x]] for c in stretch}) for x in (0, 1)]
            back = eng.from_json(old)
            assert back.earlier == s.earlier and [sorted(k) for k in back.known] == [sorted(k) for k in s.known]
            assert sorted(back.in_play) == sorted(s.in_play)
            swaps += any(s.earlier)
            checked += 1
            legal = s.legal_actions()
            s.apply(legal[0] if len(legal) == 1 else bots[s.current_player].choose(s, s.current_player))
    assert checked > 300 and swaps > 30


def test_the_resume_line_names_the_game_folder_that_was_played(tmp_path: Path) -> None:
    """An edited copy of a game, played by its path: the line that says how to resume names that folder (quoted for
    a shell), not the shipped game of the same id; run, it resumes the save."""
    import shlex

    from folder_helpers import copy_game

    copy_game("wizard-cards", tmp_path, "my cards")
    r = run_here("solo", "play", "./my cards", "--seed", "4", cwd=tmp_path, input="quit\n")
    assert r.returncode == 0, r.stderr
    line = next(ln for ln in r.stdout.splitlines() if ln.startswith("Resume with: "))
    assert line == "Resume with: wizprint solo play './my cards' --load wizprint-wizard-cards-seed4.save.json"
    again = run_here(*shlex.split(line.removeprefix("Resume with: "))[1:], cwd=tmp_path, input="quit\n")
    assert again.returncode == 0 and "Resuming the saved game" in again.stdout
