"""`wizprint solo play` on a pseudo-terminal: a whole Wizard Cards game with bad input re-prompted, a save,
end of input (which saves), and a resume that continues from exactly the same position."""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

import pexpect
from cli_helpers import run_here

PROMPT = "your choice> "


def spawn(args: list[str], cwd: Path) -> pexpect.spawn:
    env = dict(os.environ, NO_COLOR="1", TERM="dumb", COLUMNS="110", LINES="1000")
    return unpaused(pexpect.spawn(sys.executable, ["-m", "wizprint", "solo", "play", "wizard-cards", *args], env=env,
                                  encoding="utf-8", timeout=60, cwd=str(cwd), dimensions=(1000, 110)))


def unpaused(p: pexpect.spawn) -> pexpect.spawn:
    """No 50 ms pause before each line sent (pexpect's default, for programs that drop early input): every line
    here is sent once the prompt (or the output) that asks for it has been read; nor a sleep after each read (the
    reads wait on select)."""
    p.delaybeforesend = None
    p.delayafterread = None
    return p


def hand_shown(text: str) -> str:
    m = re.findall(r"Your hand[^:\r\n]*: ([^\r\n]*)", text)
    return m[-1] if m else ""


def test_whole_game_with_bad_input_save_and_resume(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    p = spawn(["--seed", "1", "--save-file", str(save), "--log-file", str(tmp_path / "game.log")], tmp_path)
    p.expect(PROMPT)
    p.sendline("banana")
    p.expect("'banana' is not a choice")
    p.expect(PROMPT)
    p.sendline("42")
    p.expect("There is no choice 42")
    p.expect(PROMPT)
    p.sendline("help")
    p.expect("Type the number of a choice")
    p.expect(PROMPT)
    for _ in range(6):
        p.sendline("1")
        p.expect(PROMPT)
    p.sendline("save")
    p.expect("Saved to")
    p.expect(PROMPT)
    before_eof = p.before
    p.sendline("1")
    p.expect(PROMPT)
    p.sendline("hand")  # the hand is shown on request (every decision of a turn lists it)
    p.expect(PROMPT)
    at_stop = p.before
    p.sendeof()
    p.expect("Resume with: wizprint solo play wizard-cards --load")
    p.expect(pexpect.EOF)
    p.close()
    assert p.exitstatus == 0
    saved = json.loads(save.read_text())
    assert saved["format"] == "wizprint-solo-save/1" and saved["game"] == "wizard-cards"
    assert before_eof  # the save command printed and re-prompted

    # resume: the same position, then play to the end
    q = spawn(["--load", str(save)], tmp_path)
    q.expect(PROMPT)
    q.sendline("hand")
    q.expect(PROMPT)
    assert hand_shown(q.before) == hand_shown(at_stop) != ""
    q.sendline("1")
    prompts = 1
    while True:
        i = q.expect([PROMPT, "Game over"])
        if i == 1:
            break
        q.sendline("1")
        prompts += 1
        assert prompts < 500
    q.expect(pexpect.EOF)
    q.close()
    assert q.exitstatus == 0
    text = q.before
    assert "damage pile" in text or "tie" in text
    log = (tmp_path / "wizprint-wizard-cards-seed1.log")
    assert (tmp_path / "game.log").is_file() or log.is_file()


def test_bad_options_are_clear(tmp_path: Path) -> None:
    for args, words in ((["--bot", "genius"], "unknown bot 'genius'"),
                        (["--players", "3"], "is for 2 players, not 3"),
                        (["--variant", "speedy"], "has no variant 'speedy'"),
                        (["--load", str(tmp_path / "missing.json")], "cannot read saved game")):
        r = run_here("solo", "play", "wizard-cards", *args, cwd=tmp_path)  # the messages: in-process
        assert r.returncode != 0 and "Traceback" not in r.stderr and words in r.stderr, (args, r.stderr)


OPTION = re.compile(r"^\s+(\d+)\s+(.*?)\s*$", re.M)


def test_relic_two_seats_thirty_turns_with_battle_test_and_level_up(tmp_path: Path) -> None:
    """A person plays Relic against one automaton: always the first choice, except that trophies are always spent on
    as many levels as they buy. By turn 30 the person has fought a battle, rolled a skill test and gained a level;
    the 'board' panel shows the board around the person's space, and cards are named by printed id and name."""
    env = dict(os.environ, NO_COLOR="1", TERM="dumb", COLUMNS="200", LINES="1000")
    p = pexpect.spawn(sys.executable, ["-m", "wizprint", "solo", "play", "relic", "--players", "2", "--seed", "3",
                                       "--save-file", str(tmp_path / "relic.json")],
                      env=env, encoding="utf-8", timeout=60, cwd=str(tmp_path), dimensions=(1000, 200))
    unpaused(p)
    seen = ""
    turn = 0
    asked_board = False
    for _ in range(3000):
        i = p.expect([PROMPT, "Game over"])
        seen += p.before
        if i == 1:
            break
        turns = [int(t) for t in re.findall(r"Turn (\d+): P", seen)]
        turn = max(turns, default=0)
        if turn >= 2 and not asked_board:  # the board around the person's space is one command away
            p.sendline("board")
            p.expect(PROMPT)
            seen += p.before
            asked_board = True
        done = all(w in seen for w in ("P1 battles", "P1 tests", "P1 reaches level"))
        if turn >= 30 and done:
            p.sendline("quit")
            p.expect("Saved to")
            break
        options = dict((int(k), label) for k, label in OPTION.findall(p.before))  # the last run: this decision's
        assert options, p.before[-500:]
        levels = [k for k, label in options.items() if label.startswith("spend trophies for")]
        p.sendline(str(max(levels, key=lambda k: options[k]) if levels else 1))
    p.expect(pexpect.EOF)
    p.close()
    assert p.exitstatus == 0
    assert turn >= 30, f"the game ended at turn {turn}"
    for words in ("P1 battles", "P1 tests", "P1 reaches level", "Near you on the Outer tier"):
        assert words in seen, words
    assert re.search(r"P1 rolls \d+ for the battle", seen), "the person's battle roll is in the log"
    assert re.search(r"(TR|TB|TY)\d\d(#\d)? [A-Z]", seen), "Threat cards are named by printed id and name"


def test_ctrl_c_while_a_bot_searches_saves_and_resume_continues_from_there(tmp_path: Path) -> None:
    """The bot (seat 0) moves first and searches for 1 second; Ctrl-C a moment into its search saves the game (exit
    0, 'Saved to'), the save holds the position before the bot's move (a move is made on a copy), and --load goes
    on from there: the bot searches again and the human gets the prompt. (The search was 3 s: the Ctrl-C is sent as
    soon as "is thinking" is read, milliseconds into the search, so 1 s leaves it the same margin in practice; the
    resumed game's search runs to its end, and those 2 s of CPU were most of this test's time.)"""
    save = tmp_path / "s.json"
    env = dict(os.environ, NO_COLOR="1", TERM="dumb", COLUMNS="80", LINES="1000")
    p = pexpect.spawn(sys.executable, ["-m", "wizprint", "solo", "play", "wizard-cards", "--bot", "mcts:1s", "--seat",
                                       "1", "--seed", "5", "--save-file", str(save)], env=env, encoding="utf-8",
                      timeout=60, cwd=str(tmp_path))
    unpaused(p)
    p.expect("P1 \\(mcts:1s\\) is thinking")
    p.sendintr()
    i = p.expect(["Saved to", PROMPT])
    assert i == 0, "Ctrl-C did not stop the bot's search"
    p.expect(pexpect.EOF)
    p.close()
    assert p.exitstatus == 0
    assert json.loads(save.read_text())["format"] == "wizprint-solo-save/1"
    q = pexpect.spawn(sys.executable, ["-m", "wizprint", "solo", "play", "wizard-cards", "--load", str(save)], env=env,
                      encoding="utf-8", timeout=60, cwd=str(tmp_path))
    unpaused(q)
    q.expect("Resuming the saved game at step 0")
    q.expect("is thinking")
    q.expect(PROMPT)
    q.sendline("quit")
    q.expect(pexpect.EOF)
    q.close()
    assert q.exitstatus == 0
