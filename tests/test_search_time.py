"""A search bot's move is bounded by time as well as by count: an iteration count that is allowed but huge (a game
folder's `search_budget = 1000000` with `--bots mcts`, a save whose bot is `mcts:1000000`) thinks for seconds, not for
minutes; `--budget-seconds` bounds every search move of `solo play` and `solo check`; Ctrl-C ends a check during a
search; and the games' own budgets end by their count, far below the ceiling, so their moves do not depend on the
machine's speed."""

from __future__ import annotations

import inspect
import json
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import run_here
from folder_helpers import copy_game

from wizprint.solo.agents import MOVE_SECONDS, make_agent
from wizprint.solo.agents.mcts import MctsAgent
from wizprint.solo.kernel import State, engine, engine_games
from wizprint.solo.play import new_session

SAFETY = Path(__file__).resolve().parents[1] / "docs" / "safety.md"


def a_decision(game: str, seed: int = 3) -> State[Any]:
    """A position of ``game`` (the automaton's play from a deal) where the seat to move has a choice."""
    eng = engine(game)
    s = eng.new_state(eng.min_players, seed)
    bot = make_agent("automaton", eng, seed)
    while len(s.legal_actions()) < 2:
        s.apply(s.legal_actions()[0] if len(s.legal_actions()) == 1 else bot.choose(s, s.current_player))
    return s


def test_every_search_by_count_has_a_ceiling_of_time_that_the_help_and_the_safety_page_state() -> None:
    eng = engine("wizards-cup")
    for spec in ("mcts", "mcts:1000000"):
        a = make_agent(spec, eng)
        assert isinstance(a, MctsAgent) and a.ceiling == MOVE_SECONDS and a.seconds is None, spec
    timed = make_agent("mcts:30s", eng)  # a time given is the bound instead
    assert isinstance(timed, MctsAgent) and (timed.ceiling, timed.seconds, timed.name) == (None, 30.0, "mcts:30s")
    # --budget-seconds bounds every search move, on the clock, without renaming the bot
    for spec, seconds in (("mcts", 0.5), ("mcts:1000000", 0.5), ("mcts:30s", 0.5), ("mcts:100/0.2s", 0.2)):
        a = make_agent(spec, eng, 0, 0.5)
        assert isinstance(a, MctsAgent) and a.seconds == seconds and a.name in (spec, "mcts:400"), spec
    rule = f"after {MOVE_SECONDS:g} s of computing"
    from wizprint.solo import cli

    for command, option in ((cli.play_cmd, "bot"), (cli.play_cmd, "budget_seconds"), (cli.check_cmd,
                                                                                     "budget_seconds")):
        text = " ".join(inspect.signature(command).parameters[option].default.help.split())
        assert rule.replace("after ", "") in text, (option, text)
    assert rule in " ".join(SAFETY.read_text(encoding="utf-8").split())


@pytest.mark.parametrize("game", ["wizards-cup", "wizards-and-relics"])  # the tree search and the paired one
def test_a_move_of_a_million_iterations_ends_at_its_ceiling(game: str) -> None:
    s = a_decision(game)
    bot = MctsAgent(engine(game), iterations=1_000_000, ceiling=0.3, seed=1)
    start = time.thread_time()
    bot.choose(s, s.current_player)
    took = time.thread_time() - start
    assert took < 1.0 and 0 < bot.last_iterations < 1_000_000 and bot.timed_out, (took, bot.last_iterations)


def test_the_games_own_budgets_end_by_their_count_far_below_the_ceiling() -> None:
    """At each game's own budget (`--bots mcts`), a whole search of a first decision ends by its count, in a small
    part of the ceiling: the ceiling does not change the moves of a check with the games' budgets."""
    for game in engine_games():
        s = a_decision(game, 5)
        bot = make_agent("mcts", engine(game), 1)
        assert isinstance(bot, MctsAgent)
        bot.early_stop = False  # the whole budget, as a hard decision takes it
        start = time.thread_time()
        bot.choose(s, s.current_player)
        took = time.thread_time() - start
        assert not bot.timed_out and took < MOVE_SECONDS / 4, (game, took)


def test_budget_seconds_bounds_a_check_of_a_folder_whose_search_budget_is_a_million(tmp_path: Path) -> None:
    folder = copy_game("wizards-cup", tmp_path, "big")
    p = folder / "game.toml"
    p.write_text(p.read_text(encoding="utf-8").replace("search_budget = 400", "search_budget = 1000000"),
                 encoding="utf-8")
    assert engine(str(folder)).decl.search_budget == 1_000_000
    start = time.monotonic()
    r = run_here("solo", "check", "./big", "--bots", "mcts,automaton", "--games", "1", "--budget-seconds", "0.2",
                 "--json", "s.json", "-q", cwd=tmp_path)
    took = time.monotonic() - start
    assert r.returncode == 0, r.stderr
    summary = json.loads((tmp_path / "s.json").read_text())
    assert summary["completed"] == 1 and summary["budget_seconds"] == 0.2 and summary["bots"] == ["mcts",
                                                                                                    "automaton"]
    assert took < 60, took  # a game's dozen or so searched moves, 0.2 s each (minutes without the bound)


def test_budget_seconds_bounds_a_saved_game_whose_bot_searches_a_million(tmp_path: Path) -> None:
    """A save whose bot is `mcts:1000000`, resumed with `--budget-seconds 0.3`: the bot's picks before the player's
    first decision take a few tenths of a second each."""
    s = new_session("wizards-cup", 2, "mcts:1000000", 5, 1, "")  # the bot has seat 0 and picks first
    f = tmp_path / "big.save.json"
    f.write_text(json.dumps(s.to_json()), encoding="utf-8")
    start = time.monotonic()
    r = run_here("solo", "play", "wizards-cup", "--load", str(f), "--budget-seconds", "0.3", cwd=tmp_path,
                 input="quit\n")
    took = time.monotonic() - start
    assert r.returncode == 0, r.stdout[-500:] + r.stderr
    assert json.loads(f.read_text())["state"]["steps"] > s.state.steps  # the bot moved
    assert took < 30, took


@pytest.mark.parametrize("value", ["nan", "0", "-1", "inf", "3601"])
def test_budget_seconds_is_a_number_of_seconds_in_range(value: str) -> None:
    for command in (["solo", "check", "wizards-cup", "--games", "1"], ["solo", "play", "wizards-cup"]):
        r = run_here(*command, "--budget-seconds", value, input="quit\n")
        assert r.returncode == 2 and r.stderr.startswith(
            "error: --budget-seconds must be a number of seconds above 0 and at most 3600, not "), r.stderr
        assert len(r.stderr.splitlines()) == 1


def test_ctrl_c_ends_a_check_in_one_process_while_a_search_runs(tmp_path: Path) -> None:
    """`solo check --jobs 1` with a bot searching a million iterations a move: Ctrl-C during its first search ends
    the check within moments, with nothing to report."""
    p = subprocess.Popen([sys.executable, "-m", "wizprint", "solo", "check", "wizards-cup", "--games", "2", "--jobs",
                          "1", "--bots", "mcts:1000000", "--json", str(tmp_path / "c.json"), "-q"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        time.sleep(3.0)  # the interpreter started and the first search is under way (a move takes up to 10 s)
        assert p.poll() is None
        sent = time.monotonic()
        p.send_signal(signal.SIGINT)
        _, stderr = p.communicate(timeout=30)
        took = time.monotonic() - sent
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    assert p.returncode == 130 and took < 2, (p.returncode, took, stderr)
    assert stderr.strip() == "stopped (Ctrl-C) before any game finished: no report written"
    assert list(tmp_path.iterdir()) == []
