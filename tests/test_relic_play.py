"""Relic as a person plays it in words: many seeded games (random and automaton seats, 2 to 4 players) in which
every question, every option of every decision, the view of every seat and every log line are scanned for engine
dicts, frame keys, enum names, internal codes and bad plurals; ``look`` finds every card, space, character and
scenario by id and by name; the three rulings read in words (trophies set aside, Forced March after the roll)."""

from __future__ import annotations

import re

import pytest
from rich.console import Console
from rich.text import Text

from wizprint.cards.markup import plural, short
from wizprint.solo.agents import RandomAgent, make_agent
from wizprint.solo.games.relic.asking import clause
from wizprint.solo.kernel import Action, engine

# what must never reach a player
RAW = [re.compile(p) for p in (
    r"\{", r"\}", r"'k':", r"\bst=", r"\bkind=", r"\b[A-Z][a-z]+(Step|Phase|Kind)\.", r"\(h\d\)", r"\(d\d+\)",
    r"\bNone\b", r"<[a-z_]+>", r"Roll \d+ a die",
    r"\b1 (?:Power |Corruption |Threat |Wargear |more |completed )?(cards|trophies|points|spaces|charges|levels"
    r"|missions|dice|turns|tokens|assets|relics|enemies)\b",
    r"\b[02-9] (card|trophy|point|space|charge|level|mission|die|turn|token)\b", r"\(s\)",
    r"\bTrue\b|\bFalse\b",
    r"\[\]|\(\)")]


# all of RAW in one pattern: it matches a text exactly when one of RAW does (one scan instead of seventeen)
ANY_RAW = re.compile("|".join(f"(?:{pat.pattern})" for pat in RAW))
_CLEAN: set[str] = set()  # texts found clean already: the same line at the next step is not scanned again


def clean(text: str, where: str) -> None:
    if text in _CLEAN:
        return
    if ANY_RAW.search(text):
        for pat in RAW:  # which pattern, for the message
            assert not pat.search(text), f"{pat.pattern!r} in {where}: {text!r}"
        raise AssertionError(f"{ANY_RAW.pattern!r} in {where}: {text!r}")  # unreachable: one of RAW matched
    _CLEAN.add(text)


def plain(markup: str) -> str:
    """A view line as it is printed (rich markup rendered)."""
    return Text.from_markup(markup).plain


E = engine("relic")
D = E.data
PRINTED: set[str] = set()  # view lines rich has printed at 80 columns: the same line prints the same (78 % repeat)


def _games() -> list[tuple[int, int, str]]:
    out = []
    for seed in range(18):
        out.append((2 + seed % 3, seed, "mixed" if seed % 2 else "random"))
    return out


@pytest.mark.parametrize("players,seed,bots", _games())
def test_everything_a_player_reads_is_words(players: int, seed: int, bots: str) -> None:
    s = E.new_state(players, seed, "")
    agents = [RandomAgent(seed * 11 + i) if bots == "random" or i % 2 else make_agent("automaton", E, seed + i)
              for i in range(players)]
    # printed as `solo play` prints (its console does not highlight: highlighting was half of this test's time);
    # nothing reads a record of it
    console = Console(width=80, highlight=False, file=open("/dev/null", "w"))  # noqa: SIM115
    steps = 0
    asked: set[str] = set()
    while not s.is_terminal() and steps < 3000:
        seat = s.current_player
        legal = s.legal_actions()
        q = s.question()
        assert q and q != "Choose", f"no question in words for {s.pending!r}"
        clean(q, "a question")
        asked.add(type(s.pending).__name__ if s.pending is not None else "select")
        for a in legal:
            d = s.describe(a)
            clean(d, f"the option {a.key!r}")
            assert d != a.key, f"the option {a.key!r} is not in words"
        if steps % 7 == 0:
            obs = s.observation(seat)
            for line in E.view(obs):
                if line in PRINTED:  # printed and found clean before: the same line reads the same
                    continue
                clean(plain(line), "the view")
                console.print(line)
                PRINTED.add(line)
        a = agents[seat].choose(s, seat)
        s.apply(a)
        steps += 1
    for text in s.log_texts():
        clean(text, "the log")
    obs = s.observation(0)
    for line in E.view(obs):
        clean(plain(line), "the last view")


def test_log_lines_say_the_cause() -> None:
    """Life lost or gained, influence and attributes: each line says why."""
    seen = 0
    for seed in range(10):
        s = E.new_state(3, seed, "")
        agents = [RandomAgent(seed + i) for i in range(3)]
        while not s.is_terminal() and s.steps < 2500:
            s.apply(agents[s.current_player].choose(s, s.current_player))
        for text in s.log_texts():
            if re.match(r"P\d (loses|gains) \d+ (Life|influence|Strength|Willpower|Cunning)", text):
                seen += 1
                assert ": " in text, f"no cause: {text!r}"
    assert seen > 20


def test_look_finds_every_card_space_character_and_scenario() -> None:
    s = E.new_state(2, 1, "")
    obs = s.observation(0)
    ids = list(D.cards) + list(D.spaces) + list(D.characters) + list(D.scenarios)
    for x in ids:
        out = E.look(obs, x)
        assert out and len(out) >= 2, x
        text = "\n".join(plain(line) for line in out)
        assert x.split("#")[0] in text, (x, text)
        clean(text, f"look {x}")
    for x in list(D.spaces)[:5] + list(D.characters)[:3]:
        name = D.spaces[x].name if x in D.spaces else D.characters[x].name
        out = E.look(obs, name.lower())
        assert (out and x in plain(out[0])) or any(x in plain(ln) for ln in out), (x, out)
    assert E.look(obs, "zz") is None
    assert E.look(obs, "QQQQ99") is None


def test_look_shows_state_but_never_anothers_hidden_cards() -> None:
    s = E.new_state(2, 3, "")
    while s.current_player >= 0 and not s.hands[1]:
        s.apply(s.legal_actions()[0])
    mine = s.hands[0][0]
    theirs = next(x for x in s.hands[1] if x not in s.hands[0])
    obs = s.observation(0)
    assert "in your hand" in "\n".join(E.look(obs, mine) or [])
    text = "\n".join(E.look(obs, theirs) or [])
    assert "P2" not in text and "out of your sight" in text, text


def test_space_look_has_its_text_boxes() -> None:
    s = E.new_state(2, 1, "")
    obs = s.observation(0)
    for sp, space in D.spaces.items():
        text = "\n".join(plain(line) for line in E.look(obs, sp) or [])
        if space.boxes:
            assert "Text box" in text, text
        assert space.name in text


def test_dice_words() -> None:
    """A die icon after a number reads "dice" ("Roll 2 dice"), never "Roll 2 a die"; on every printed text."""
    texts = [D.card_text(c.design) for c in D.cards.values()]
    texts += [D.box_text(sp, i) for sp, space in D.spaces.items() for i in range(1, len(space.boxes) + 1)]
    texts += [D.reward_text(ch, lv) for ch in D.characters for lv in range(1, 13)]
    texts += [D.text(D.effects(sc.confrontation), x) for x, sc in D.scenarios.items()]
    for text in texts:
        assert not re.search(r"\d+ a die|\d+ :die:|:die:|\b1 dice", text), text
    assert any(re.search(r"\b[2-9] dice\b", t) for t in texts) or any("a die" in t for t in texts)


def test_small_words() -> None:
    assert plural(1, "card") == "1 card"
    assert plural(2, "trophy", "trophies") == "2 trophies"
    assert short("word " * 40).endswith("…") and len(short("word " * 40)) <= 70
    assert clause("Move to any space of the Outer tier.") == "move to any space of the Outer tier"
    assert clause("Strength test.") == "Strength test"


def _until(s, pred, steps: int = 4000):  # type: ignore[no-untyped-def]
    rng = RandomAgent(5)
    for _ in range(steps):
        if s.is_terminal() or pred(s):
            return s
        s.apply(rng.choose(s, s.current_player))
    return None


def test_trophy_keys_in_words() -> None:
    """The Experience phase: set a trophy aside (``spend X``), take it back (``unspend X``), then spend."""
    for seed in range(40):
        s = _until(E.new_state(2, seed, ""), lambda s: any(a.kind == "spend" and a.a for a in s.legal_actions()))
        if s is None or s.is_terminal():
            continue
        acts = s.legal_actions()
        sp = next(a for a in acts if a.kind == "spend")
        assert "aside" in s.describe(sp) and "point" in s.describe(sp)
        assert "trophies" in s.question()
        s.apply(sp)
        un = [a for a in s.legal_actions() if a.kind == "unspend"]
        assert un and "take back" in s.describe(un[0])
        assert "set aside" in s.question()
        return
    raise AssertionError("no trophies to spend in 40 games")


def test_movement_questions_name_the_box() -> None:
    """A movement box asks in words where the jump goes."""
    found = 0
    for seed in range(60):
        s = _until(E.new_state(2, seed, ""), lambda s: {a.kind for a in s.legal_actions()} >= {"jump", "pass"})
        if s is None or s.is_terminal():
            continue
        q = s.question()
        assert "jump" in q and re.search(r"\b[A-Z]\d\d\b", q), q
        assert "jump to" in s.describe(Action("jump"))
        found += 1
        if found >= 3:
            return
    assert found, "no movement box in 60 games"
