"""What a Wizards Cup player reads (``../shared/rules/wizards-cup.txt``): every Value of a wizard in the Duel zone
is explained by the log (its placement at the printed Value, then a line for each change with its parts, and the
comparison of criterion C with both Values' parts); an option names a wizard on one short line; the order being
planned is in the question; the screen's header gives the win condition and its panels the table, the Deck, the
rival and the duel order; ``look`` of a wizard without a power names its Weakness. "P1" is seat 0 (the Black set,
copies ``#1``), "P2" seat 1 (the White set, copies ``#2``)."""

from __future__ import annotations

import re

from wizprint.solo.agents import RandomAgent, make_agent
from wizprint.solo.games.wizards_cup import WizardsCupState
from wizprint.solo.kernel import Action, Chance, engine, line_text, readable

GAME = "wizards-cup"
ENGINE = engine(GAME)
D = ENGINE.data
NAMES = "|".join(re.escape(w.name) for w in D.designs.values())
PLACED = re.compile(rf"P([12])'s ({NAMES}) \(\w+ \d+\)(?! \(stays\))")  # in a "Duel N:" line
SWAPPED_IN = re.compile(rf"^P([12])'s Waiting card ({NAMES}) \(")
VALUE = re.compile(rf"^P([12])'s ({NAMES}): Value (-?\d+) = (\d+) printed([^(]*)")  # the parts that count
PART = re.compile(r"(?:^| )([+-]\d+) from ")
VERDICT_C = re.compile(r"\((?:C: Values (-?\d+) against (-?\d+)|C: equal Values \((-?\d+)\))")


def said_values(s: WizardsCupState) -> dict[int, tuple[str, int]]:
    """Each seat's wizard in the Duel zone and its Value as the log tells them: the printed Value when it is placed,
    then each Value line about it (whose parts must add up to the Value it states). Each comparison of criterion C
    in the log must compare the Values the log gave."""
    now: dict[int, tuple[str, int]] = {}
    printed = {w.name: w.value for w in D.designs.values()}
    for e in s.log:
        if not readable(e, 0) or not readable(e, 1):
            continue
        text = line_text(e)
        if text.startswith("Duel "):
            for m in PLACED.finditer(text):
                now[int(m.group(1)) - 1] = (m.group(2), printed[m.group(2)])
        elif m := SWAPPED_IN.match(text):
            now[int(m.group(1)) - 1] = (m.group(2), printed[m.group(2)])
        elif m := VERDICT_C.search(text):  # the Values compared are those the log has given
            compared = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(3))
            assert (now[0][1], now[1][1]) == tuple(int(v) for v in compared), (now, text)
        elif m := VALUE.match(text):
            seat, name, v, base = int(m.group(1)) - 1, m.group(2), int(m.group(3)), int(m.group(4))
            assert base == printed[name], text
            assert base + sum(int(p) for p in PART.findall(m.group(5))) == v, f"the parts do not add up: {text}"
            assert now.get(seat, ("", 0))[0] == name, f"a Value line about a wizard not in the Duel zone: {text}"
            now[seat] = (name, v)
    return now


def test_every_value_in_the_duel_zone_is_the_one_the_log_tells() -> None:
    """Over automaton and random games, at every comparison of Values, every decision and the end: each wizard in a
    Duel zone has the Value the log gives it (so every change was said, with parts that add up), and a duel decided
    by Values that are not both printed names both with their parts."""
    changed = lines = verdicts = 0
    for seed in range(40):
        s = ENGINE.new_state(2, seed, "")
        bots = [make_agent("automaton", ENGINE, seed) if seed % 2 else RandomAgent(seed), RandomAgent(seed + 1)]
        while True:
            told = said_values(s)
            for x in (0, 1):
                card = s.card(x)
                if card is None:
                    continue
                assert told.get(x) == (card.name, s.value(x)), (seed, x, told.get(x), card.name, s.value(x))
                changed += s.value(x) != card.value
            if s.is_terminal():
                break
            s.apply(bots[s.current_player].choose(s, s.current_player))
        for text in s.log_texts():
            lines += bool(VALUE.match(text))
            if VERDICT_C.search(text) and "; P1's " in text:
                verdicts += 1
                assert re.search(r"; P1's -?\d+ (=|printed).*, P2's -?\d+ (=|printed)", text), text
    assert changed >= 5 and lines > 100 and verdicts > 50, (changed, lines, verdicts)


def test_a_value_line_names_the_powers_that_change_it() -> None:
    """The Alchemist visible on P1's discard pile, then P1's Geomancer placed: its Value is 11, and the log says
    why; when P2's Nightweaver comes into play, the line says its part too."""
    s = ENGINE.setup({"decks": [["C04", "C05", "C09", "C11", "C12"], ["C18", "C15", "C09", "C11", "C12"]],
                      "waiting": ["C03", "C03"]}, 2, 1, "", Chance(strict=True))
    assert isinstance(s, WizardsCupState)
    log = s.log_texts()
    assert "P2's The Stargazer (void 9) wins the duel (C: Values 5 against 9, the higher Value wins)" in log
    assert "P1's The Geomancer: Value 11 = 8 printed +3 from The Alchemist" in log
    assert "P1's The Geomancer: Value 9 = 8 printed +3 from The Alchemist -2 from P2's The Nightweaver" in log


def test_an_option_names_a_wizard_on_one_short_line() -> None:
    """17 wizards to select from, a question and the prompt fit 24 rows at 80 columns: each option is its id, name,
    Element, Value and a few words of its power, in at most 76 characters (the number takes 4), never cut."""
    s = ENGINE.new_state(2, 3, "")
    legal = s.legal_actions()
    assert len(legal) == 17 and all(a.kind == "select" for a in legal)
    for a in [Action("select", c) for c in D.sets[0]]:
        text = s.describe(a)
        w = D[a.a]
        assert len(text) <= 76 and "…" not in text, text
        assert text.startswith(f"{a.a.split('#')[0]} {w.name} ({w.element} {w.value}), "), text


def test_the_order_question_shows_the_order_so_far_and_the_waiting_card() -> None:
    s = ENGINE.setup({"phase": "plan", "decks": [["C03", "C13", "C17", "C18", "C09", "C12"],
                                                 ["C13", "C15", "C16", "C14", "C11", "C10"]]},
                     2, 1, "", Chance(strict=True))
    s.apply_key("wait C03#1")
    s.apply_key("next C17#1")
    s.apply_key("next C09#1")
    q = s.question()
    assert q.startswith("Round 1 planning: which wizard duels 3rd?"), q
    assert "1st The Traveler; 2nd The Beastcaller; waiting: The Revolutionary" in q
    assert sorted(a.a for a in s.legal_actions()) == ["C12#1", "C13#1", "C18#1"]


def test_the_screen_gives_the_win_condition_and_the_duel_order() -> None:
    s = ENGINE.new_state(2, 3, "")
    screen = ENGINE.screen(s.observation(0))
    assert screen.header.startswith("Wizard selection · you P1, Black") and "first to 2 wins" in screen.header
    assert [p.name for p in screen.panels] == ["table", "deck", "rival", "set", "rules"]
    rules = screen.panel("rules")
    assert rules is not None and rules.key is None
    text = "\n".join(rules.lines)
    assert text.index("A Weakness") < text.index("B Element") < text.index("C Value")
    assert "Light to Fire, Nature and Water" in text


def test_look_at_a_wizard_without_a_power_names_its_weakness() -> None:
    obs = ENGINE.new_state(2, 3, "").observation(0)
    found = ENGINE.look(obs, "C09")
    assert found is not None
    assert "Weakness" in found[1] and "Element" in found[1] and "Value" in found[1]
