"""`wizprint solo check`: the same results whatever --jobs, the summary's fields, an autoescaped HTML report."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import run_here

from wizprint.solo.playtest import run_games, summarise, wilson
from wizprint.solo.report import html_report


def check(tmp_path: Path, jobs: int, name: str) -> dict:  # type: ignore[type-arg]
    out = tmp_path / f"{name}.json"
    report = tmp_path / f"{name}.html"
    r = subprocess.run([sys.executable, "-m", "wizprint", "solo", "check", "wizard-cards", "--games", "60", "--seed",
                        "9", "--bots", "automaton,random", "--jobs", str(jobs), "--json", str(out), "--report",
                        str(report), "-q"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert report.read_text().startswith("<!doctype html>")
    data: dict = json.loads(out.read_text())  # type: ignore[type-arg]
    return data


def test_results_are_identical_whatever_the_jobs(tmp_path: Path) -> None:
    one = check(tmp_path, 1, "one")
    two = check(tmp_path, 2, "two")
    assert one == two
    assert one["games"] == one["completed"] == 60 and one["errors"] == [] and one["step_cap_hits"] == 0
    assert set(one["win_rate_by_bot"]) == {"automaton", "random"}
    assert one["win_rate_by_bot"]["automaton"]["win_rate"] > 0.8
    assert one["win_rate_by_seat"]["0"]["games"] == 60
    lt = one["length_turns"]
    assert lt["min"] <= lt["median"] <= lt["p95"] <= lt["max"]
    assert len(one["cards"]) == 53 and {"id", "drawn", "played", "win_rate_when_played"} <= set(one["cards"][0])


def test_wilson_interval() -> None:
    lo, hi = wilson(50, 100)
    assert round(lo, 3) == 0.404 and round(hi, 3) == 0.596
    assert wilson(0, 0) == (0.0, 1.0)


def test_report_escapes_card_names() -> None:
    results = run_games("wizard-cards", 4, 1, ["random"], 2)
    s = summarise("wizard-cards", results, 1, ["random"], 2, "", ["AS"], {"AS": "<script>alert(1)</script>"})
    html = html_report(s)
    assert "<script>alert" not in html and "&lt;script&gt;" in html


def test_a_check_with_many_errors_shows_the_first_and_counts_the_rest(capsys: pytest.CaptureFixture[str]) -> None:
    from wizprint.solo.cli import _print_summary
    from wizprint.solo.runner import GameResult

    results = run_games("wizard-cards", 2, 1, ["random"], 2)
    results += [GameResult(i, i, ["random", "random"], error=f"failure {i}") for i in range(2, 14)]
    s = summarise("wizard-cards", results, 1, ["random"], 2, "", ["AS"], {"AS": "Ace"})
    _print_summary(s)
    out = capsys.readouterr().out
    assert out.count("error in game") == 5 and "  ... and 7 more problems (every error is in the JSON summary)" in out
    html = html_report(dict(s, errors=s["errors"] * 6))
    assert html.count("<td>failure ") == 50 and "... and 22 more (every error is in the" in html


def test_errors_are_reported_with_a_reproducing_command(tmp_path: Path) -> None:
    r = run_here("solo", "check", "wizard-cards", "--games", "3", "--bots", "automaton", "--jobs", "0")  # in-process
    assert r.returncode == 2 and "--jobs must be between 1 and 64" in r.stderr and "Traceback" not in r.stderr


def test_relic_check_reports_each_scenario(tmp_path: Path) -> None:
    """A Relic check groups its games by scenario: games, how they ended and the median length, in the JSON, the
    printed summary and the HTML report; the per-scenario games add up to all games."""
    out = tmp_path / "relic.json"
    html = tmp_path / "relic.html"
    r = run_here("solo", "check", "relic", "--games", "12", "--seed", "5", "--json", str(out), "--report", str(html))
    assert r.returncode == 0, r.stderr
    s = json.loads(out.read_text())
    by = s["by_setting"]
    assert by and all(k[:4] in {"SC01", "SC02", "SC03", "SC04", "SC05"} for k in by)
    assert sum(v["games"] for v in by.values()) == 12 == s["completed"]
    for name, v in by.items():
        assert sum(v["end_reasons"].values()) == v["games"]
        assert name in r.stdout and f"{v['games']} games" in r.stdout
        assert name.replace("'", "&#39;") in html.read_text()


def test_a_check_runs_an_edited_copy_of_a_game_folder(tmp_path: Path) -> None:
    """`solo check ./my-copy-of-covenant` plays the folder it is given, as `build` prints it: a copy whose wizard
    is renamed reports the new name, and a copy whose wizards are worth 9 VP each ends far sooner (three wizards
    pass the 25 VP)."""
    import re
    import shutil

    from wizprint.resources import cards_dir

    def run(folder: Path) -> dict:  # type: ignore[type-arg]
        out = folder.with_suffix(".json")
        # one process (--jobs 1, the default): in-process, in the folder that holds the copy
        r = run_here("solo", "check", f"./{folder.name}", "--games", "50", "--json", str(out), "-q", cwd=tmp_path)
        assert r.returncode == 0, r.stderr
        data: dict = json.loads(out.read_text())  # type: ignore[type-arg]
        return data

    same = tmp_path / "my-copy-of-covenant"
    shutil.copytree(cards_dir() / "covenant", same)
    wiz = same / "wizards.toml"
    wiz.write_text(wiz.read_text(encoding="utf-8").replace('name = "Magician"', 'name = "Hedge Magician"'),
                   encoding="utf-8")
    base = run(same)
    assert base["completed"] == 50 and base["errors"] == []
    assert any(c["name"] == "Hedge Magician" for c in base["cards"])
    rich = tmp_path / "rich-wizards"
    shutil.copytree(same, rich)
    wiz = rich / "wizards.toml"
    wiz.write_text(re.sub(r"^vp = \d+", "vp = 9", wiz.read_text(encoding="utf-8"), flags=re.M), encoding="utf-8")
    fast = run(rich)
    assert fast["completed"] == 50 and fast["errors"] == []
    assert fast["length_turns"]["mean"] < 0.7 * base["length_turns"]["mean"]


def test_endings_and_lengths_read_as_people_write_them() -> None:
    """How games end keeps its numbers (a Covenant game ends when a player reaches the printed VP goal: the report
    says that number, not a placeholder), and the length's percentile is rounded like the mean."""
    import re

    from wizprint.solo.kernel import engine

    designs = sorted({c.split("#")[0] for c in engine("covenant").data.instances})
    s = summarise("covenant", run_games("covenant", 30, 3, ["automaton"], 2, jobs=1), 3, ["automaton"], 2, "",
                  designs, {})
    assert s["end_reasons"]
    for kind in s["end_reasons"]:
        assert "\0" not in kind and not re.search(r"\bN\b", kind), kind
    assert any(re.search(r"\d", kind) for kind in s["end_reasons"]), s["end_reasons"]
    p95 = s["length_turns"]["p95"]
    assert p95 == round(p95, 1) and len(repr(p95)) <= 6, p95


def test_endings_are_counted_by_their_termination_never_by_the_reason_text() -> None:
    """Games are grouped by the ending their outcome names (its termination, with the words the game declares for
    it and the numbers those words take), whatever the reason's text says: a game ended by the turn limit whose
    reason reads like a VP win counts as the turn limit."""
    from wizprint.solo.runner import GameResult

    def game(i: int, termination: str, words: str, numbers: list[int], reason: str) -> GameResult:
        return GameResult(index=i, seed=i, bots=["automaton"] * 2, turns=10,
                          outcome={"winners": [0], "scores": [], "reason": reason, "termination": termination,
                                   "words": words, "numbers": numbers})

    results = [game(0, "vp_goal", "a player reaches {} VP", [25], "P1 reaches 25 VP"),
               game(1, "vp_goal", "a player reaches {} VP", [31], "P2 reaches 31 VP (a quest)"),
               game(2, "turn_limit", "turn limit", [], "P1 reaches 27 VP")]
    s = summarise("g", results, 1, ["automaton"], 2, "", [], {})
    assert s["end_reasons"] == {"a player reaches 25-31 VP": 2, "turn limit": 1}
    assert s["end_terminations"] == {"vp_goal": 2, "turn_limit": 1}


def test_the_length_histogram_has_sensible_bins_and_ticks() -> None:
    """Relic-like lengths (40 to 299 turns) fall in bins of 20 turns, not 260 bars of one; the count axis counts in
    whole, even steps (0, 2, 4, 6 for at most 5 games a bin: no 0/1/2/4/5 from quarters of 5)."""
    import re

    from wizprint.solo.report import _bars

    svg = str(_bars([[40, 1], [41, 2], [100, 5], [299, 1]]))
    assert len(re.findall("<rect", svg)) == 13
    assert re.findall(r'text-anchor="end">(\d+)<', svg) == ["0", "2", "4", "6"]
    assert re.findall(r'text-anchor="middle">(\d+)</text>', svg) == ["40", "80", "120", "160", "200", "240", "280"]
    assert "<title>40-59 turns: 3 games</title>" in svg and "<title>280-299 turns: 1 game</title>" in svg
    short = str(_bars([[1, 3], [2, 5]]))  # short games keep one bar a turn, labelled under the bar
    assert re.findall(r'text-anchor="middle">(\d+)</text>', short) == ["1", "2"]
    assert "<title>2 turns: 5 games</title>" in short


# -- statistics that find broken cards -------------------------------------------------------------------
def _set_power(path: Path, card: str, power: int) -> None:
    text = path.read_text()
    i = text.index(f'id = "{card}"')
    j = text.index("power = ", i)
    k = text.index("\n", j)
    path.write_text(text[:j] + f"power = {power}" + text[k:])


def test_a_planted_broken_card_ranks_first_and_a_useless_one_last(tmp_path: Path) -> None:
    """A copy of Wizards & Relics where the common relic R38 (power 2) has power 9, the most a relic may have, and
    the common relic R39 (power 2) has power 0: the report ranks R38 first by lift, with an interval above 0, and
    R39 last."""
    import shutil

    from wizprint.solo.playtest import by_lift

    root = Path(__file__).resolve().parents[1] / "cards" / "wizards-and-relics"
    game = tmp_path / "wr"
    shutil.copytree(root, game)
    _set_power(game / "relics.toml", "R38", 9)
    _set_power(game / "relics.toml", "R39", 0)
    out = tmp_path / "planted.json"
    r = subprocess.run([sys.executable, "-m", "wizprint", "solo", "check", str(game), "--games", "3000", "--jobs",
                        "2", "--json", str(out), "-q"], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    s = json.loads(out.read_text())
    ranked = [c for c in by_lift(s["cards"]) if c["lift"] is not None]
    assert len(ranked) > 100
    assert ranked[0]["id"] == "R38" and ranked[0]["lift_ci95"][0] > 0, ranked[:3]
    assert ranked[-1]["id"] == "R39", ranked[-3:]
    # the text summary names them too, first in its headline (both are played often enough to be measured well)
    lines = _lift_lines(r.stdout)
    assert _named(next(ln for ln in lines if "highest lift" in ln))[0] == "R38", lines
    assert _named(next(ln for ln in lines if "lowest lift" in ln))[0] == "R39", lines


def test_the_stratified_difference_by_hand() -> None:
    from wizprint.solo.playtest import _bands, stratified_difference

    # one band: 30 of 40 against 20 of 40 -> +0.25; a second band of 10 drawing seats: 5 of 10 against 5 of 10 -> 0
    diff, se = stratified_difference([(30, 40, 20, 40), (5, 10, 5, 10)]) or (0.0, 0.0)
    assert abs(diff - 0.25 * 40 / 50) < 1e-9
    assert 0 < se < 0.1
    assert stratified_difference([(3, 3, 0, 0)]) is None  # no seat without the card to compare with
    assert _bands([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 5) == [0, 0, 1, 1, 2, 2, 3, 3, 4, 4]
    assert _bands([4] * 6, 3) == [2] * 6  # equal counts share a band


def test_no_lift_for_a_card_whose_draw_follows_the_game() -> None:
    """A card only winners draw (as Relic's late Corruption cards are drawn in the Inner tier) and that is seldom
    played: its drawers win far more than playing it could explain, so it gets no lift; a card drawn by chance
    does."""
    from wizprint.solo.playtest import card_stats
    from wizprint.solo.runner import GameResult

    results = []
    for i in range(200):
        winner = i % 2
        drawn: list[dict[str, int]] = [{"F": 1, "G": 1}, {"F": 1, "G": 1}]
        played: list[dict[str, int]] = [{"F": 1}, {"F": 1}]
        if i < 100:  # the winner drew X instead of G, and played it twice in all
            drawn[winner] = {"F": 1, "X": 1}
            if i < 4 and winner == 0:
                played[winner] = {"F": 1, "X": 1}
        results.append(GameResult(index=i, seed=i, bots=["automaton"] * 2, drawn=drawn, played=played,
                                  outcome={"winners": [winner], "reason": "x"}))
    cards = {c["id"]: c for c in card_stats(results, 2, ["F", "G", "X"], {}, {})}
    assert cards["X"]["games_played_in"] == 2 and cards["X"]["seat_games_drawn"] == 100
    assert cards["X"]["lift"] is None and cards["X"]["draw_follows_play"]
    # G is held by the losers and by the winners of the last 100 games only: drawing it goes with losing, and it is
    # never played, so it has no lift either, but for the plain reason that nobody played it
    assert cards["G"]["lift"] is None and not cards["G"]["draw_follows_play"]
    s = summarise("g", results, 1, ["automaton"], 2, "", ["F", "G", "X"], {})
    assert s["draw_follows_play"] == ["X"]


def test_first_player_choices_and_events_are_counted() -> None:
    from wizprint.solo.runner import GameResult

    def game(i: int, winner: int, first: int, chars: list[str | None], events: dict[str, int]) -> GameResult:
        return GameResult(index=i, seed=i, bots=["automaton"] * 2, outcome={"winners": [winner], "reason": "x"},
                          turns=10 + i, first=first, choices=chars, events=events)

    results = [game(0, 0, 0, ["Captain", "Judge"], {"corrupted": 2}), game(1, 0, 0, ["Judge", "Captain"], {}),
               game(2, 1, 0, ["Captain", "Judge"], {"corrupted": 1}), game(3, 0, 1, ["Judge", "Psyker"], {})]
    s = summarise("g", results, 1, ["automaton"], 2, "", [], {})
    assert s["first_player"]["games"] == 4 and s["first_player"]["win_rate"] == 0.5  # won games 0 and 1 only
    assert s["first_player"]["advantage"] == 0.0
    by = s["win_rate_by_choice"]
    assert by["Captain"]["games"] == 3 and by["Captain"]["wins"] == 1  # won game 0, lost games 1 and 2
    assert by["Judge"]["games"] == 4 and by["Judge"]["wins"] == 3  # lost game 0 only
    assert by["Psyker"]["games"] == 1 and by["Psyker"]["wins"] == 0
    assert s["events"]["corrupted"] == {"games": 2, "share_of_games": 0.5, "per_game": 0.75}
    assert s["turns_per_player"] == {"mean": 5.75, "median": 5.75, "p95": 6.4}


def test_opening_hands_count_as_drawn() -> None:
    from wizprint.solo.kernel import Stats, engine

    eng = engine("covenant")
    stats = Stats()
    s = eng.new_state(2, 5, stats=stats)
    hands = s.hands  # type: ignore[attr-defined]
    for seat in range(2):
        assert hands[seat] and all(c.split("#")[0] in stats.drawn[seat] for c in hands[seat])
    assert eng.new_state(2, 5).stats is None  # a state made without stats records nothing
    assert s.clone().stats is None  # nor does a clone (search)


def test_assign_random_deals_the_starting_choices() -> None:
    """Relic deals each seat two characters: its bot picks one, or with --assign random a random draw does. The
    same deals, played both ways, agree on about half the choices only when they are drawn at random."""
    from wizprint.solo.runner import run_one

    same = 0
    total = 0
    for i in range(30):
        bots = run_one("relic", i, 3, ["automaton"], 2, assign="bots")
        rnd = run_one("relic", i, 3, ["automaton"], 2, assign="random")
        assert bots.error is None and rnd.error is None
        same += sum(a == b for a, b in zip(bots.choices, rnd.choices, strict=True))
        total += 2
    assert 0.2 < same / total < 0.8, same


def test_the_ladder_and_the_assign_option(tmp_path: Path) -> None:
    out = tmp_path / "ladder.json"
    # the top rung's search bot plays 4 iterations a move (it was 20, four fifths of this test's time): nothing
    # below reads how well it plays, only that the ladder ends with the search bot given; the ladder is the same
    # for every game, and Wizard Cards' tree search costs what its budget says (Wizards & Relics' paired search
    # plays every candidate out at least once a round, whatever the budget)
    r = subprocess.run([sys.executable, "-m", "wizprint", "solo", "check", "wizard-cards", "--games", "20",
                        "--ladder", "40", "--ladder-search", "mcts:4", "--json", str(out), "-q", "--jobs", "2"],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    rungs = json.loads(out.read_text())["ladder"]
    assert [(x["lower"], x["upper"]) for x in rungs] == [("random", "automaton"), ("automaton", "mcts:4")]
    assert rungs[0]["skill_shows"] and rungs[0]["upper_win_rate"] > 0.6  # the automaton beats random clearly
    assert "ladder: automaton against random" in r.stdout
    bad = run_here("solo", "check", "relic", "--assign", "taste")  # the message: in-process
    assert bad.returncode != 0 and "--assign must be bots or random" in bad.stderr and "Traceback" not in bad.stderr


def _artefacts(text: str) -> list[str]:
    """Float artefacts (five or more decimals), template placeholders and missing values in text meant for
    people."""
    import re

    found = re.findall(r"\d\.\d{5,}", text)
    found += re.findall(r"\{\{|\}\}|\{%|\bNone\b|\bnan\b|\binf\b|\bundefined\b", text)
    found += re.findall(r"\breaches N\b|\bN VP\b", text)
    return found


def test_covenant_and_wizard_cards_reports_read_cleanly(tmp_path: Path) -> None:
    for game in ("covenant", "wizard-cards"):
        out, report = tmp_path / f"{game}.json", tmp_path / f"{game}.html"
        r = subprocess.run([sys.executable, "-m", "wizprint", "solo", "check", game, "--games", "120", "--jobs",
                            "2", "--json", str(out), "--report", str(report), "-q"],
                           capture_output=True, text=True, timeout=600)
        assert r.returncode == 0, r.stderr
        assert _artefacts(r.stdout) == [], (game, _artefacts(r.stdout))
        html = report.read_text()
        assert _artefacts(html) == [], (game, _artefacts(html))
        assert _artefacts(out.read_text()) == [], game  # JSON numbers are rounded too
        s = json.loads(out.read_text())
        assert s["first_player"] is not None and s["never_drawn"] == []
        assert all(c["lift_ci95"] is not None for c in s["cards"] if c["lift"] is not None)
        assert "<h3>" in html and "Cards: lift" in html


# -- a report that leads with what matters ------------------------------------------------------------------------
def _lift_lines(stdout: str) -> list[str]:
    return [ln for ln in stdout.splitlines() if "lift" in ln and not ln.lstrip().startswith("no lift")]


def _named(line: str) -> list[str]:
    """The card ids a headline line names, in order."""
    return [part.split()[0] for part in line.split("): ", 1)[1].split("); ")]


def test_the_lift_headline_ranks_only_cards_measured_narrowly(tmp_path: Path) -> None:
    """80 Wizard Cards games: many cards have lifts of +-60 points or more on a handful of plays, with intervals
    from -100 to +100; the headline names only cards played in 20+ games whose interval reaches at most 20 points
    either side, says that rule in the line, and agrees with the JSON's lift_headline. After 6 games no card
    qualifies, and the summary says so in words."""
    out = tmp_path / "wc.json"
    r = run_here("solo", "check", "wizard-cards", "--games", "80", "--seed", "1", "--json", str(out), "-q")
    assert r.returncode == 0, r.stderr
    s = json.loads(out.read_text())
    cards = {c["id"]: c for c in s["cards"]}
    # the noise the headline must leave out is there: a card with an interval of +-50 points or more
    assert any(c["lift_ci95"] and c["lift_ci95"][1] - c["lift_ci95"][0] >= 1.0 for c in cards.values())
    lines = _lift_lines(r.stdout)
    assert lines, r.stdout
    named: list[str] = []
    for line in lines:
        assert "played in 20+ games with a 95% interval within ±20 points" in line or "of the same" in line, line
        named += _named(line)
    assert named and len(named) == len(set(named)) <= 6
    for cid in named:
        c = cards[cid]
        assert c["games_played_in"] >= 20 and c["lift_ci95"][1] - c["lift_ci95"][0] <= 0.40 + 1e-9, c
        assert f"drawn in {c['seat_games_drawn']} games, played in {c['games_played_in']})" in r.stdout
    assert named[0] == s["lift_headline"][0]
    assert set(s["lift_headline"]) == {cid for cid, c in cards.items() if c["lift_ci95"] and
                                      c["games_played_in"] >= 20 and c["lift_ci95"][1] - c["lift_ci95"][0] <= 0.40}
    assert "±20 points" in s["lift_headline_rule"]

    few = run_here("solo", "check", "wizard-cards", "--games", "6", "--seed", "1", "-q")
    assert few.returncode == 0, few.stderr
    assert [ln.strip() for ln in _lift_lines(few.stdout)] == [
        "lift: no card ranked, as none is yet among the cards played in 20+ games with a 95% interval within ±20 "
        "points (more games narrow the intervals)"]


def test_the_headline_takes_the_cards_of_its_rule_by_hand() -> None:
    from wizprint.solo.playtest import headline_cards

    def card(cid: str, lift: float | None, lo: float, hi: float, n: int) -> dict:  # type: ignore[type-arg]
        return {"id": cid, "lift": lift, "lift_ci95": None if lift is None else [lo, hi], "games_played_in": n}

    cards = [card("wide", 1.0, -1.0, 1.0, 300), card("few", 0.5, 0.4, 0.6, 19), card("edge", -0.1, -0.3, 0.1, 20),
             card("best", 0.3, 0.2, 0.4, 50), card("none", None, 0, 0, 0), card("just-wide", 0.0, -0.2, 0.2001, 99)]
    assert [c["id"] for c in headline_cards(cards)] == ["best", "edge"]


def test_the_html_colours_the_cards_clear_of_zero(tmp_path: Path) -> None:
    """200 Wizard Cards games: each card's dot and whisker are coloured 'above' when its lift interval lies above
    0, 'below' when below, 'even' otherwise, exactly as the JSON's intervals say; a legend names the colours with
    their counts, and the table marks the same lifts."""
    import re

    out, html_file = tmp_path / "wc.json", tmp_path / "wc.html"
    r = run_here("solo", "check", "wizard-cards", "--games", "200", "--seed", "1", "--json", str(out), "--report",
                 str(html_file), "-q")
    assert r.returncode == 0, r.stderr
    s = json.loads(out.read_text())
    html = html_file.read_text()
    want = {}
    for c in s["cards"]:
        if c["lift"] is not None:
            lo, hi = c["lift_ci95"]
            want[c["id"]] = "above" if lo > 0 else "below" if hi < 0 else "even"
            assert c["lift_clear"] == (None if want[c["id"]] == "even" else want[c["id"]])
    assert {"above", "below", "even"} <= set(want.values())  # the check has cards of all three kinds
    dots = {m[1]: m[0] for m in re.findall(r'<circle [^>]*class="dot (\w+)"><title>(\S+) ', html)}
    assert dots == want
    whiskers = re.findall(r'<line [^>]*class="ci (\w+)"/>', html)
    assert sorted(whiskers) == sorted(want.values())
    n_above, n_below = list(want.values()).count("above"), list(want.values()).count("below")
    assert f'<span class="key above"></span>interval above 0: clearly helps ({n_above})' in html
    assert f'<span class="key below"></span>interval below 0: clearly hurts ({n_below})' in html
    assert '<span class="key even"></span>interval holds 0' in html
    for side in ("above", "below"):
        assert re.search(rf"\.dot\.{side} {{ fill: #[0-9a-f]{{6}}; }}", html)
    cells = re.findall(r'<td class="n (above|below)">', html)
    assert sorted(cells) == sorted(v for v in want.values() if v != "even")


def _table(html: str, deck_heading: str) -> list[dict[str, str]]:
    """The rows of the card table under ``<h3>deck_heading</h3>``, by column heading."""
    import re

    part = html.split(f"<h3>{deck_heading}</h3>", 1)[1].split("</table>", 1)[0]
    heads = re.findall(r"<th>(.*?)</th>", part)
    rows = []
    for row in re.findall(r"<tr><td>(.*?)</tr>", part, re.S):
        cells = re.findall(r"<td[^>]*>(.*?)</td>", "<td>" + row, re.S)
        rows.append(dict(zip(heads, (" ".join(c.split()) for c in cells), strict=True)))
    return rows


def test_card_counts_explain_themselves_in_every_game(tmp_path: Path) -> None:
    """In each of the five games a card can be used more often than it was drawn (Relic's threats are met, not
    drawn; a Wizards Cup wizard plays each round; a Wizards & Relics shrine is revealed for the Master Wizard...).
    The report counts games drawn in and games played in, the second never above the first, and times drawn and
    times used apart, under those names in the HTML table (the JSON's values, and the JSON says what each means)."""
    import html as html_lib

    games = {"relic": 10, "wizards-and-relics": 20, "wizards-cup": 20, "wizard-cards": 20, "covenant": 20}
    used_more = set()
    for game, n in games.items():
        out, page = tmp_path / f"{game}.json", tmp_path / f"{game}.html"
        r = run_here("solo", "check", game, "--games", str(n), "--json", str(out), "--report", str(page), "-q")
        assert r.returncode == 0, (game, r.stderr)
        s = json.loads(out.read_text())
        assert set(s["card_counts"]) == {"seat_games_drawn", "games_played_in", "drawn", "played"}
        assert s["card_counts"]["played"].startswith("times used")
        html = page.read_text()
        by_id = {c["id"]: c for c in s["cards"]}
        seen = 0
        for deck in sorted({c["deck"] for c in s["cards"]}):
            for row in _table(html, html_lib.escape(deck or "Cards", quote=True)):
                c = by_id[row["id"]]
                assert int(row["games played in"]) <= int(row["games drawn in"]), (game, row)
                assert (int(row["games drawn in"]), int(row["games played in"]), int(row["times drawn"]),
                        int(row["times used"])) == (c["seat_games_drawn"], c["games_played_in"], c["drawn"],
                                                    c["played"]), (game, row)
                seen += 1
                if c["played"] > c["drawn"]:
                    used_more.add(game)
        assert seen == len(s["cards"]), game
        for c in s["cards"]:
            assert c["games_played_in"] <= c["seat_games_drawn"], (game, c)
    # the counts need their names: in four of the games some card is used more often than it is drawn
    assert used_more == {"relic", "wizards-and-relics", "wizards-cup", "covenant"}, used_more


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (from /proc)."""
    import os

    kids = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                kids.append(int(entry))
    return kids


def _running(pid: int) -> bool:
    """The process exists and is not a zombie."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


@pytest.mark.parametrize("jobs", [1, 2])
def test_ctrl_c_writes_a_partial_report_and_leaves_no_worker(tmp_path: Path, jobs: int) -> None:
    """SIGINT once some games are done: the JSON and the HTML of the games finished so far, marked partial (a
    field, a banner, a line of the summary), no temporary file beside them, no worker process left, exit 130."""
    import re
    import signal
    import time

    out, page = tmp_path / "c.json", tmp_path / "c.html"
    planned = 100_000
    p = subprocess.Popen([sys.executable, "-m", "wizprint", "solo", "check", "wizard-cards", "--games", str(planned),
                          "--jobs", str(jobs), "--json", str(out), "--report", str(page)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert p.stderr is not None
        first = p.stderr.readline()  # the first progress line: a game is done (with --jobs 2, a chunk of them)
        assert re.fullmatch(r"\[1/100000\] wizard-cards check: game 1\n", first), first
        workers = _children(p.pid)
        assert len(workers) == (jobs if jobs > 1 else 0), workers
        p.send_signal(signal.SIGINT)
        stdout, stderr = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
    assert p.returncode == 130, stderr
    assert "Traceback" not in stderr
    s = json.loads(out.read_text())
    assert s["partial"] is True and s["games_planned"] == planned
    assert 0 < s["games"] < planned and s["completed"] == s["games"] and s["errors"] == []
    assert s["win_rate_by_seat"]["0"]["games"] == s["games"]
    assert f"partial: {s['games']} of {planned} games" in stdout.splitlines()[0]
    html = page.read_text()
    assert html.rstrip().endswith("</html>")
    assert f"Partial report: Ctrl-C stopped the check after {s['games']} of {planned} games" in html
    assert sorted(f.name for f in tmp_path.iterdir()) == ["c.html", "c.json"]
    deadline = time.monotonic() + 5
    while any(_running(w) for w in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not [w for w in workers if _running(w)]


def test_ctrl_c_ends_the_games_the_workers_are_playing(tmp_path: Path) -> None:
    """Search bots that think up to 5 s a move, on two worker processes: Ctrl-C in the middle of their first games
    ends the check (and the workers) within a few seconds, not when the games are over; with no game finished
    there is nothing to report, and it says so."""
    import os
    import signal
    import time

    out = tmp_path / "slow.json"
    p = subprocess.Popen([sys.executable, "-m", "wizprint", "solo", "check", "wizard-cards", "--games", "4", "--jobs",
                          "2", "--bots", "mcts:100000/5s", "--json", str(out), "-q"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    workers: list[int] = []
    try:
        deadline = time.monotonic() + 20
        while len(workers) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
            workers = _children(p.pid)
        assert len(workers) == 2, workers
        time.sleep(1.0)  # the workers are searching
        sent = time.monotonic()
        p.send_signal(signal.SIGINT)
        _, stderr = p.communicate(timeout=30)
        took = time.monotonic() - sent
    finally:
        for pid in [p.pid, *workers]:
            if _running(pid):
                os.kill(pid, signal.SIGKILL)
        p.wait()
    assert p.returncode == 130 and took < 4, (p.returncode, took)
    assert stderr.strip() == "stopped (Ctrl-C) before any game finished: no report written"
    assert not out.exists() and list(tmp_path.iterdir()) == []
    assert not [w for w in workers if _running(w)]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads the processes in /proc")
@pytest.mark.parametrize("sig", ["SIGTERM", "SIGKILL"])
def test_no_worker_outlives_a_check_ended_by_a_signal(tmp_path: Path, sig: str) -> None:
    """SIGTERM or SIGKILL to `solo check --jobs 2` once its workers play: both workers are gone within a few
    seconds (SIGKILL: the kernel ends them with their parent; SIGTERM: stopped as Ctrl-C stops them, the games
    finished so far reported, exit 143)."""
    import os
    import re
    import signal
    import time

    p = subprocess.Popen([sys.executable, "-m", "wizprint", "solo", "check", "wizard-cards", "--games", "100000",
                          "--jobs", "2"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    workers: list[int] = []
    try:
        assert p.stderr is not None and p.stdout is not None
        first = p.stderr.readline()  # a chunk of games is done: the workers are up and playing
        assert re.fullmatch(r"\[1/100000\] wizard-cards check: game 1\n", first), first
        workers = _children(p.pid)
        assert len(workers) == 2, workers
        p.send_signal(getattr(signal, sig))
        p.wait(timeout=60)  # not communicate: a worker left alive would hold the pipes open
        deadline = time.monotonic() + 5
        while any(_running(w) for w in workers) and time.monotonic() < deadline:
            time.sleep(0.05)
        left = [w for w in workers if _running(w)]
        stdout, stderr = p.stdout.read() if not left else "", p.stderr.read() if not left else ""
    finally:
        for pid in [p.pid, *workers]:
            if _running(pid):
                os.kill(pid, signal.SIGKILL)
        p.wait()
    assert left == [], f"workers alive {time.monotonic() - deadline + 5:.1f} s after {sig}: {left}"
    if sig == "SIGTERM":
        assert p.returncode == 143 and "Traceback" not in stderr, stderr
        assert re.search(r"^stopped \(SIGTERM\): the report covers the [\d,]+ games finished$", stderr, re.M), stderr
        assert stdout.startswith("partial: ")
    else:
        assert p.returncode == -signal.SIGKILL


def test_a_complete_check_is_not_partial() -> None:
    s = summarise("wizard-cards", run_games("wizard-cards", 4, 1, ["random"], 2), 1, ["random"], 2, "", [], {})
    assert s["partial"] is False and s["games_planned"] == s["games"] == 4


def test_chunks_finished_out_of_turn_are_kept_when_ctrl_c_stops_the_wait() -> None:
    """Ctrl-C while waiting for the first chunk in flight: the later chunks that had already come back are handed
    over, and every chunk still pending is cancelled."""
    from concurrent.futures import Future

    from wizprint.solo.workers import bounded_map

    class Waiting:
        cancelled = False

        def result(self) -> list[int]:
            raise KeyboardInterrupt

        def done(self) -> bool:
            return False

        def cancel(self) -> bool:
            self.cancelled = True
            return True

    head = Waiting()
    futures: list[Any] = [head]
    for i in (1, 2):
        f: Future[list[int]] = Future()
        f.set_result([i])
        futures.append(f)
    failed: Future[list[int]] = Future()
    failed.set_exception(RuntimeError("a chunk that failed"))
    futures.append(failed)
    kept: list[list[int]] = []
    it = bounded_map(lambda t: futures[t], iter([0, 1, 2, 3]), 4, kept.append)  # type: ignore[arg-type]
    with pytest.raises(KeyboardInterrupt):
        next(it)
    assert kept == [[1], [2]] and head.cancelled


def test_on_a_terminal_the_check_shows_the_time_left_and_ctrl_c_reports(tmp_path: Path) -> None:
    """A real pseudo-terminal: the bar shows the time left as the games run; Ctrl-C there stops the check with
    the partial summary and status 130."""
    import os

    import pexpect

    out = tmp_path / "t.json"
    env = dict(os.environ, NO_COLOR="1", TERM="xterm", COLUMNS="160")
    p = pexpect.spawn(sys.executable, ["-m", "wizprint", "solo", "check", "wizard-cards", "--games", "100000",
                                       "--json", str(out)], env=env, encoding="utf-8", timeout=30,
                      dimensions=(24, 160))
    p.expect(r"\d+:\d\d:\d\d left")
    p.sendintr()
    p.expect(r"partial: (\d+) of 100000 games")
    games = int(p.match.group(1))
    p.expect(pexpect.EOF)
    p.close()
    assert p.exitstatus == 130
    s = json.loads(out.read_text())
    assert s["partial"] and s["games"] == games > 0


# -- progress ----------------------------------------------------------------------------------------------------
def test_the_time_left_comes_from_the_pace_so_far() -> None:
    from wizprint.progress import clock_text, time_left

    assert time_left(4, 100, 4.0, 0.0) is None  # too few games yet
    assert time_left(5, 100, 5.0, 0.0) == 95.0
    assert time_left(10, 100, 20.0, 3.0) == 177.0  # counting down between bursts of results
    assert time_left(10, 10, 20.0, 3.0) == 0.0
    assert clock_text(177.0) == "0:02:57" and clock_text(3725) == "1:02:05"


def test_a_terminal_progress_bar_shows_the_time_left() -> None:
    import io

    from rich.console import Console

    from wizprint.progress import RichBar

    now = [0.0]
    buf = io.StringIO()
    bar = RichBar(Console(file=buf, force_terminal=True, width=160, color_system=None), clock=lambda: now[0])
    bar.start(100, "check")
    for i in range(4):
        now[0] += 2.0
        bar.step(f"game {i + 1}")
    assert bar.left() is None
    now[0] += 2.0
    bar.step("game 5")
    now[0] += 1.0
    assert bar.left() == 189.0  # 2 s a game for 95 games, less the second since the last one
    bar._p.refresh()
    bar.finish()
    assert "0:03:09 left" in buf.getvalue()


def test_an_error_names_the_command_as_it_was_given_and_that_command_plays_the_game_again(tmp_path: Path) -> None:
    """A check of an edited folder (a path with a space; a step cap its games reach), with the options that change
    the games: each error's reproduce line names the folder by the path the check was given (not the shipped game
    of the same id), quoted for a shell, with every such option; run, it plays that game again, to the same error."""
    import shlex

    from folder_helpers import copy_game

    folder = copy_game("wizards-cup", tmp_path, "my cup")
    p = folder / "game.toml"
    p.write_text(p.read_text(encoding="utf-8").replace("step_cap = 5000", "step_cap = 10"), encoding="utf-8")
    r = run_here("solo", "check", "./my cup", "--games", "2", "--seed", "3", "--assign", "random",
                 "--budget-seconds", "5", "--json", "c.json", cwd=tmp_path)
    assert r.returncode == 1
    errors = json.loads((tmp_path / "c.json").read_text())["errors"]
    assert [e["reproduce"] for e in errors] == [
        f"wizprint solo check './my cup' --games {i} --seed 3 --bots automaton --players 2 --assign random "
        "--budget-seconds 5" for i in (1, 2)]
    assert f"    reproduce: {errors[1]['reproduce']}" in r.stdout.splitlines()
    again = run_here(*shlex.split(errors[1]["reproduce"])[1:], "--json", "again.json", cwd=tmp_path)
    assert again.returncode == 1
    assert json.loads((tmp_path / "again.json").read_text())["errors"][-1]["error"] == errors[1]["error"]
