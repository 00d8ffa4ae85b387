"""Everything `solo play` prints about a position is in words, in every game: over many seeded games (random and
automaton seats, every player count), at every decision of every seat, the question, every option's description,
the view of the position, the screen's header and panels, the steps of a decision asked in two steps and the log lines
hold no engine dict, frame key, enum name, internal code or Python repr, and no "1 cards", "every wizards" or "Roll 2
a die"; and `look` of every card id an option names prints its text."""

from __future__ import annotations

import functools
import io
import random
import re
from typing import Any

import pytest
from rich.console import Console
from rich.markup import escape

from wizprint.solo.agents import RandomAgent, make_agent
from wizprint.solo.kernel import State, engine, engine_games

# what must never reach a player
RAW = [re.compile(p) for p in (r"[{}]", r"'k':", r"\bst=", r"\bkind=", r"\b[A-Z][A-Za-z]*(Step|Phase)\.",
                               r"\(h\d\)", r"\(d\d+\)", r"scry \(\d\)", r"<[a-z_]+>", r"\bNone\b", r"\bTrue\b",
                               r"\bFalse\b", r"\b1 (cards|dice|trophies|points|levels|spaces|wizards|relics|rivals)\b",
                               r"\bevery (wizards|relics|cards)\b", r"Roll \d+ a die",
                               r"\[\]", r"\(\)", r"'[a-z_]+': ")]
# a card id as options print it: a design id with an optional copy number (PW20#2), or Wizard Cards' ranks
CARD_ID = re.compile(r"\b((?!P\d\b)[A-Z]{1,3}\d{1,3}(?:#\d+)?|(?:10|[2-9AJQK])[SHDC]|WM#[12])\b")
GAMES = engine_games()
# games per player count, and how many decisions of each game are looked at (Relic's games are long)
PLAN = {"relic": (2, 400)}


@functools.cache  # the same markup renders the same (a raise is not cached): 93 % of the lines repeat
def plain(markup: str) -> str:
    """What a markup line shows on the screen (rich renders it; a bad tag raises, which is a failure too)."""
    console = Console(width=400, record=True, file=io.StringIO(), color_system=None)
    console.print(markup, highlight=False, soft_wrap=True)
    return console.export_text()


_CHECKED: set[str] = set()  # texts already found to be words (most lines repeat from one decision to the next)


def check(where: str, text: str) -> None:
    if text in _CHECKED:
        return
    for pat in RAW:
        m = pat.search(text)
        assert m is None, f"{where}: {pat.pattern!r} in {text!r}"
    _CHECKED.add(text)


def play_and_scan(game: str, players: int, seed: int, bots: str, decisions: int) -> set[str]:
    eng = engine(game)
    s: State[Any] = eng.new_state(players, seed, "")
    rng = random.Random(seed)
    agents = [RandomAgent(seed + i) if bots == "random" else make_agent("automaton", eng, seed + i)
              for i in range(players)]
    ids: set[str] = set()
    seen_log = 0
    for _ in range(decisions):
        if s.is_terminal():
            break
        seat = s.current_player
        legal = s.legal_actions()
        if len(legal) > 1 or rng.random() < 0.2:
            check(f"{game} seed {seed} question", plain(escape(s.question())))
            for a in legal:
                text = s.describe(a)
                check(f"{game} seed {seed} option {a.key}", plain(escape(text)))
                ids.update(CARD_ID.findall(text))
            obs = s.observation(seat)
            for line in eng.view(obs):
                check(f"{game} seed {seed} view", plain(line))
            shown = eng.screen(obs)
            check(f"{game} seed {seed} header", plain(escape(shown.header)))
            for p in shown.panels:
                for line in p.lines:
                    check(f"{game} seed {seed} panel {p.name}", plain(line))
            two = s.two_step(legal) if len(legal) > 1 else None
            for g in two.groups if two is not None else ():
                for text in (g.label, g.question, *(t for _, t in g.options)):
                    check(f"{game} seed {seed} two-step", plain(escape(text)))
        for text in s.log_texts(start=seen_log):
            check(f"{game} seed {seed} log", text)
        seen_log = len(s.log)
        agent = agents[seat]
        s.apply(legal[0] if len(legal) == 1 else agent.choose(s, seat))
    return ids


@pytest.mark.parametrize("game", GAMES)
def test_every_question_option_view_and_log_line_is_in_words(game: str) -> None:
    eng = engine(game)
    seeds, decisions = PLAN.get(game, (4, 3000))
    ids: set[str] = set()
    for players in range(eng.min_players, eng.max_players + 1):
        for seed in range(seeds):
            ids |= play_and_scan(game, players, 100 * players + seed, "random" if seed % 2 else "automaton",
                                 decisions)
    assert ids, "no option named a card"
    obs = eng.new_state(eng.min_players, 1, "").observation(0)
    for x in sorted(ids):
        shown = eng.look(obs, x)
        assert shown, f"{game}: look {x} (an id an option named) found nothing"
        text = "\n".join(plain(line) for line in shown)
        check(f"{game} look {x}", text)
        assert len(text.split()) >= 3, f"{game}: look {x} printed no text: {text!r}"
