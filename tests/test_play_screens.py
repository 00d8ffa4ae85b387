"""What a person sees in `wizprint solo play`, on a pseudo-terminal 80 columns wide: a whole game of each game, the
person choosing at random (seeded) and now and then looking up a card shown on the screen. No line passes 80
columns, no engine dict, frame key or internal code reaches the screen, `look` of a card id on screen prints its
text, and input that looks like markup or terminal codes is answered with a re-prompt."""

from __future__ import annotations

import os
import random
import re
import sys
from pathlib import Path

import pexpect
import pytest

PROMPT = "your choice> "
WIDTH = 80
# what must never reach a player: Python reprs of engine state, frame keys, enum names, internal codes
RAW = [re.compile(p) for p in (r"\{", r"\}", r"'k':", r"\bst=", r"\bkind=", r"\b[A-Z][a-z]+(Step|Phase)\.",
                               r"\(h\d\)", r"\(d\d+\)", r"scry \(\d\)", r"<[a-z_]+>", r"\bNone\b", r"\[/?[a-z ]+\]",
                               r"\b1 cards\b", r"Roll \d+ a die")]
# the card ids a screen shows: Wizard Cards' ranks and suits (10S, QH, WM#2), the other games' design ids (W03,
# PW20#2); seat names (P1) are not cards
IDS = {"wizard-cards": re.compile(r"\b((?:10|[2-9AJQK])[SHDC]|WM#[12])\b"),
       "default": re.compile(r"\b((?!P\d+\b)[A-Z]{1,3}[0-9]{1,3}(?:#[0-9]+)?)\b")}


def spawn(game: str, args: list[str], cwd: Path) -> pexpect.spawn:
    env = dict(os.environ, NO_COLOR="1", TERM="dumb", COLUMNS=str(WIDTH), LINES="1000")
    p = pexpect.spawn(sys.executable, ["-m", "wizprint", "solo", "play", game, *args], env=env, encoding="utf-8",
                      timeout=120, cwd=str(cwd), dimensions=(1000, WIDTH))
    # no 50 ms pause before each line sent (pexpect's default, for programs that drop early input): a line is sent
    # only once the prompt that asks for it is on the screen, and the pauses were most of a whole game's time; nor
    # a sleep after each read (the reads wait on select)
    p.delaybeforesend = None
    p.delayafterread = None
    return p


def check_screen(text: str) -> None:
    for line in text.replace("\r", "").split("\n"):
        assert len(line) <= WIDTH, f"a line of {len(line)} columns: {line!r}"
        for pat in RAW:
            assert not pat.search(line), f"{pat.pattern!r} on screen: {line!r}"


def options(text: str) -> int:
    """How many numbered choices the last screen offered."""
    nums = [int(m.group(1)) for m in re.finditer(r"^ {0,2}(\d+) ", text.replace("\r", ""), re.M)]
    n = 0
    for k in nums:  # the last run 1, 2, 3...
        n = k if k == n + 1 else (1 if k == 1 else n)
    return n


@pytest.mark.parametrize("game,args,max_prompts", [
    ("wizard-cards", ["--seed", "4"], 300),
    ("covenant", ["--seed", "4", "--players", "2"], 1500),
    ("relic", ["--seed", "4", "--players", "2", "--variant", "SC01"], 4000),
    ("wizards-and-relics", ["--seed", "4", "--players", "3"], 600),
    ("wizards-cup", ["--seed", "4"], 400),
])
def test_a_whole_game_at_80_columns(game: str, args: list[str], max_prompts: int, tmp_path: Path) -> None:
    p = spawn(game, [*args, "--save-file", str(tmp_path / "s.json"), "--log-file", str(tmp_path / "g.log")],
              tmp_path)
    rng = random.Random(7)
    looked = 0
    prompts = 0
    while True:
        i = p.expect([PROMPT, "Game over", pexpect.EOF])
        screen = p.before
        check_screen(screen)
        if i != 0:
            break
        prompts += 1
        assert prompts <= max_prompts, "the game did not end"
        n = options(screen)
        assert n >= 1, f"no choices on the screen: {screen[-600:]!r}"
        ids = IDS.get(game, IDS["default"]).findall(screen)
        if ids and looked < 6 and prompts % 5 == 1:
            card = rng.choice(ids)
            p.sendline(f"look {card}")
            p.expect(PROMPT)
            shown = p.before
            check_screen(shown)
            assert card.split("#")[0] in shown and "Nothing is called" not in shown, shown
            assert len([ln for ln in shown.split("\n") if ln.strip()]) >= 2, f"look {card} printed no text: {shown!r}"
            looked += 1
        p.sendline(str(rng.randint(1, n)))
    if i == 1:
        p.expect(pexpect.EOF)
        check_screen(p.before)
    p.close()
    assert p.exitstatus == 0
    assert looked >= 3


@pytest.mark.parametrize("typed", ["[/bold]", "[/]", "[red]x", "\x1b[2J", "x" * 10_000, "look", "look QQQQ99"])
def test_hostile_or_mistyped_input_is_answered_with_a_re_prompt(typed: str, tmp_path: Path) -> None:
    p = spawn("wizard-cards", ["--seed", "2", "--save-file", str(tmp_path / "s.json")], tmp_path)
    p.expect(PROMPT)
    p.sendline(typed)
    p.expect(PROMPT)
    answer = p.before.replace("\r", "").split("\n", 1)[1]  # what the program said (the terminal echoed the line)
    assert all(len(line) <= WIDTH for line in answer.split("\n"))
    assert any(w in answer for w in ("is not a choice", "characters long", "Look at what", "Nothing is called"))
    assert "\x1b" not in answer, "a terminal code typed by the player was printed back raw"
    p.sendline("1")
    p.expect(PROMPT)
    p.sendline("quit")
    p.expect(pexpect.EOF)
    p.close()
    assert p.exitstatus == 0
