"""`wizprint solo check`: the same results whatever --jobs, the summary's fields, an autoescaped HTML report."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

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
    r = subprocess.run([sys.executable, "-m", "wizprint", "solo", "check", "wizard-cards", "--games", "3", "--bots",
                        "automaton", "--jobs", "0"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "--jobs must be between 1 and 64" in r.stderr and "Traceback" not in r.stderr


def test_relic_check_reports_each_scenario(tmp_path: Path) -> None:
    """A Relic check groups its games by scenario: games, how they ended and the median length, in the JSON, the
    printed summary and the HTML report; the per-scenario games add up to all games."""
    out = tmp_path / "relic.json"
    html = tmp_path / "relic.html"
    r = subprocess.run([sys.executable, "-m", "wizprint", "solo", "check", "relic", "--games", "12", "--seed", "5",
                        "--json", str(out), "--report", str(html)], capture_output=True, text=True, timeout=300)
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
        r = subprocess.run([sys.executable, "-m", "wizprint", "solo", "check", f"./{folder.name}", "--games", "50",
                            "--json", str(out), "-q"], capture_output=True, text=True, timeout=300, cwd=tmp_path)
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
