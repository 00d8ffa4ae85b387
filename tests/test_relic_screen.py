"""Relic's play screen: the header says whose turn, which phase, your character and how the scenario is won, in
one row of 80 columns; each panel is shown again when what matters in it changes, and not for what does not; a
panel that changed while the screen had no room for it is shown at the next decision that has room; the log
gives every battle and test score in parts that add up."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

from relic_helpers import ENGINE, D, do, mk

from wizprint.solo.agents import RandomAgent
from wizprint.solo.games.relic.data import ROUND_LIMIT
from wizprint.solo.games.relic.view import header, limits, win_words
from wizprint.solo.kernel import Action
from wizprint.solo.play import Session, _decide, _Seen
from wizprint.solo.terminal import Terminal, WholeLines


def test_the_header_names_the_turn_the_phase_your_character_and_how_the_scenario_is_won() -> None:
    # The Devouring: the Norn-Beast must be beaten twice (two tokens on the scenario sheet)
    assert win_words(D, "SC04") == ("beat the Norn-Beast of Tessaly twice at the centre",
                                    "beat the Norn-Beast of Tessaly twice", "2 centre battles")
    # The Daemon Unbound: a battle, or three tests passed
    assert win_words(D, "SC05")[1] == "beat the Daemon Prince Vharakhul or pass 3 Willpower 11 tests"
    s = mk(variant="SC04", characters=["CH03", "CH01"], phase="engagement", hands=[["PW27"]])
    head = header(D, s.observation(0))
    assert head.startswith("Turn ") and ", you: Engagement" in head and "P1 Ordo Malleus Inquisitor" in head
    assert head.endswith("win: 2 centre battles") and len(head) <= 80  # the Inquisitor's name is long
    s = mk(variant="SC03", characters=["CH01", "CH03"], phase="engagement", hands=[["PW27"]])
    assert header(D, s.observation(0)) == "Turn 1, you: Engagement · P1 Ultramarine Captain · win: beat Warboss " \
                                          "Skarrgutz"
    # on another seat's turn the header says whose it is, and still yours
    head = header(D, s.observation(1))
    assert ", P1: Engagement" in head and "P2 Ordo Malleus Inquisitor" in head


def test_every_header_fits_one_row_of_80_columns() -> None:
    longest = max((c for c in D.characters), key=lambda c: len(D.characters[c].name))
    for sc in D.scenarios:
        s = mk(variant=sc, characters=[longest, "CH01"], phase="engagement", hands=[["PW27"]])
        obs = s.observation(1)
        obs["turn"] = ROUND_LIMIT * 4  # the longest turn number a game may show: the round limit
        head = header(D, obs)
        assert len(head) <= 80 and "win: " in head, head


def _panels(s: Any, seat: int = 0) -> dict[str, str | None]:
    return {p.name: p.key for p in ENGINE.screen(s.observation(seat)).panels}


def test_panels_change_key_only_when_what_matters_in_them_changes() -> None:
    s = mk(positions=["O01"], hands=[["PW27"]], phase="engagement", threats={"O01": ["TR24"]})
    before = _panels(s)
    assert set(before) == {"status", "here", "board", "hand", "sheet", "scenario"} and before["board"] is None
    s.influence[0] += 1  # influence is in the log, not worth the status panel again
    s.life[1] -= 1
    assert _panels(s) == before
    do(s, "pass")  # Scrap Salvage: +2 influence, the event discarded: the space's cards change
    after = _panels(s)
    assert after["here"] != before["here"] and after["status"] == before["status"]
    s.level[1] += 1  # a rival's level: the race
    assert _panels(s)["status"] != after["status"]
    s.hands[0].append("PW01#1")
    assert _panels(s)["hand"] != after["hand"]


def test_a_panel_that_changed_without_room_is_shown_at_the_next_decision_with_room() -> None:
    s = mk(positions=["O01"], hands=[["PW27"]], phase="engagement", threats={"O01": ["TR24"]})
    session = Session(ENGINE, s, 0, ["", "automaton"], 1)
    out = io.StringIO()
    term = Terminal(io.StringIO("1\n" * 10), WholeLines(file=out, width=80, highlight=False))
    term.height = 24
    seen = _Seen()
    legal = s.legal_actions()
    here_lines = "Your space: O01"
    # a long log since the last decision: the panels cannot be shown, nor their hint
    _decide(session, term, Path("/dev/null"), legal, [f"line {i}" for i in range(40)], seen)
    assert here_lines not in out.getvalue()
    out.truncate(0)
    out.seek(0)
    _decide(session, term, Path("/dev/null"), legal, [], seen)  # now there is room: the panel that changed is shown
    assert here_lines in out.getvalue()


def test_battle_and_test_scores_in_the_log_add_up() -> None:
    """'P3 loses the battle, 11 to 13 (Willpower 4 + 4 added this battle + 3 rolled, against Death Guard Heavy Bolter
    4 + 9 rolled)': each side's parts add up to its score, in many random games."""
    line = re.compile(r"(?:wins the battle|loses the battle|battle is a tie), (\d+) to (\d+) \((.*), against (.*)\)")
    test = re.compile(r"(?:passes|fails) the test with (\d+) \((.*)\) against")
    seen = 0
    for seed in range(6):
        s = ENGINE.new_state(2 + seed % 3, seed, "")
        agents = [RandomAgent(seed + i) for i in range(s.players)]
        while not s.is_terminal() and s.steps < 1500:
            s.apply(agents[s.current_player].choose(s, s.current_player))
        for text in s.log_texts():
            m = line.search(text)
            if m:
                assert _total(m.group(3)) == int(m.group(1)) and _total(m.group(4)) == int(m.group(2)), text
                seen += 1
            m = test.search(text)
            if m:
                assert _total(m.group(2)) == int(m.group(1)), text
                seen += 1
    assert seen > 50


def _total(words: str) -> int:
    """``Willpower 5 + 1 Psychic Hood − 1 Trembling Hands + 4 rolled``: 9."""
    first, *rest = re.split(r" (?=[+−] \d)", words)
    n = int(re.findall(r"\d+", first)[-1])
    for part in rest:
        sign, value = part.split()[:2]
        n += int(value) if sign == "+" else -int(value)
    return n


def test_a_move_names_where_it_ends_and_what_waits_there() -> None:
    # from Hab-Stack Tertius, 3 either way: the Arbites Precinct (one red icon, met by the Ork Nob on it: nothing more
    # to draw) or the Shrine of the Laughing God (one yellow icon, no card yet: one to draw; its text box is not
    # resolved while a Threat card lies there, so it is not the news)
    s = mk(positions=["O01"], hands=[["PW27"]], phase="movement", threats={"O04": ["TR08"]})
    do(s, "roll", "pass", dice=(3,))
    assert s.describe(Action("cw")) == "move clockwise 3 spaces, to O04 Arbites Precinct Sigma: TR08#1 Ork Nob " \
                                       "(Strength 4)"
    assert s.describe(Action("acw")) == "move anticlockwise 3 spaces, to O22 Shrine of the Laughing God: 1 yellow " \
                                        "Threat card to draw"
    # a space without icons or cards: its text box
    s = mk(positions=["O01"], hands=[["PW27"]], phase="movement")
    do(s, "roll", "pass", dice=(6,))
    assert s.describe(Action("cw")).endswith(f"no Threat card; text box: {D.box_text('O07', 1)}") or \
        "Threat card" in s.describe(Action("cw"))


def test_the_hand_panel_gives_the_limits_the_rules_enforce() -> None:
    """The power and asset limits the 'hand' panel reads from what all may see are those the Experience phase
    enforces (the level, and what assets and face-up Corruption cards change), in many random positions."""
    checked = 0
    for seed in range(4):
        s = ENGINE.new_state(3, seed, "")
        agents = [RandomAgent(seed + i) for i in range(3)]
        while not s.is_terminal() and s.steps < 1500:
            if s.steps % 10 == 0 and s.characters[0] and not s.eliminated[0]:
                assert limits(D, s.observation(1)["table"][0]) == (s.power_limit(0), s.asset_limit(0))
                checked += 1
            s.apply(agents[s.current_player].choose(s, s.current_player))
    assert checked > 100


def test_a_panel_is_shown_only_when_it_fits_without_a_page_break() -> None:
    """Whatever the length of the log since the last decision, a panel shown by itself leaves room for the decision
    and its prompt on the same screen: no '-- more' break is needed because of it."""
    shown = 0
    for k in range(25):
        s = mk(positions=["O01"], hands=[["PW27"]], phase="engagement", threats={"O01": ["TR24"]})
        out = io.StringIO()
        term = Terminal(io.StringIO("\n" * 5 + "1\n"), WholeLines(file=out, width=80, highlight=False))
        term.height = 24
        _decide(Session(ENGINE, s, 0, ["", "automaton"], 1), term, Path("/dev/null"), s.legal_actions(),
                [f"line {i}" for i in range(k)], _Seen())
        if "Your space: O01" in out.getvalue():
            shown += 1
            assert "-- more" not in out.getvalue(), f"{k} log lines: the panel was shown, and the screen broke"
    assert shown >= 3


def test_a_choice_turned_down_is_in_the_log() -> None:
    """A bot that does not pay for an encounter leaves a line saying so, not a card resolved with nothing after."""
    s = mk(positions=["O13"], hands=[["PW27"]], phase="engagement", threats={"O13": ["TR31"]})
    do(s, "pass", "no")  # the Grot Trader: pay 2 influence to gain 2 Life
    assert "P1 does not pay 2 influence (Grot Trader: gain 2 Life)" in s.log_texts()
    s = mk(positions=["O13"], hands=[["PW27"]], phase="engagement", threats={"O13": ["TR31"]})
    do(s, "pass", "yes")
    assert "P1 spends 2 influence (now 1): the encounter Grot Trader" in s.log_texts()
