"""`wizprint solo check`: the same results whatever --jobs, the summary's fields, an autoescaped HTML report."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from cli_helpers import run_here

from wizprint.solo.check import run_games, summarise, wilson
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


# -- issue 15: statistics that find broken cards -------------------------------------------------------------------
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

    from wizprint.solo.check import by_lift

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
    # the text summary names them too
    assert "highest lift: R38" in r.stdout and "lowest lift: R39" in r.stdout


def test_the_stratified_difference_by_hand() -> None:
    from wizprint.solo.check import _bands, stratified_difference

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
    from wizprint.solo.check import card_stats
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
