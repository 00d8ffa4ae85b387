"""`wizprint solo compare BEFORE.json AFTER.json` and `solo check --compare`: what changed between two checks of a
game, each change tested against chance and corrected for the number of figures compared (Holm). Two checks of
the same game with different seeds find no change beyond the stated error rate; a card made much stronger is found,
first. The lift's interval counts each game once (the seats of a game share its result), without which the test
finds changes that are not there."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from cli_helpers import run_here

from wizprint.solo.compare import ALPHA, compare, read_check
from wizprint.solo.playtest import clustered_se, stratified_difference


def _check(tmp_path: Path, game: str, games: int, seed: int, name: str) -> Path:
    out = tmp_path / name
    r = run_here("solo", "check", game, "--games", str(games), "--seed", str(seed), "--json", str(out), "-q",
                 cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    return out


def test_the_error_of_a_lift_counts_each_game_once() -> None:
    """Four two-player games, one stratum: the seat that drew the card won games 1 and 2 and lost 3 and 4, the
    other seat the reverse. The group's rate 1/2 against the rest's 1/2: difference 0. By hand, each game's
    contribution is (y1 - 1/2) - 1 * (y0 - 1/2) = +-1, so the clustered error is sqrt(4) / 4 = 0.5, where the
    independent binomial error is sqrt(4 * 0.25 / 4 + 4 * 0.25 / 4) = 0.354 (a seat's win is the other's loss)."""
    cells = [(2.0, 4, 2.0, 4)]
    members = [[(0, True, 1.0), (0, False, 0.0)], [(0, True, 1.0), (0, False, 0.0)],
               [(0, True, 0.0), (0, False, 1.0)], [(0, True, 0.0), (0, False, 1.0)]]
    assert clustered_se(cells, members) == pytest.approx(0.5)
    diff, se = stratified_difference(cells) or (9.0, 9.0)
    assert diff == 0.0 and se == pytest.approx(math.sqrt(2 * (2.5 / 5) * (2.5 / 5) / 4))
    # seats of different games (independent): the clustered error is the plain one, sqrt(sum e^2) / n1
    alone = [[(0, True, 1.0)], [(0, True, 1.0)], [(0, True, 0.0)], [(0, True, 0.0)], [(0, False, 0.0)],
             [(0, False, 0.0)], [(0, False, 1.0)], [(0, False, 1.0)]]
    assert clustered_se(cells, alone) == pytest.approx(math.sqrt(8 * 0.25) / 4)


def test_checks_of_the_same_game_with_other_seeds_find_no_change_beyond_the_error_rate(tmp_path: Path) -> None:
    """Eight pairs of 400-game Wizard Cards checks: each card's p-value is below 5 % in about 5 % of comparisons
    (not more than 8 %), and at most one pair in eight shows a significant change after the correction (5 %
    family-wise error rate: one pair in eight is already more than expected)."""
    ps: list[float] = []
    flagged = 0
    for k in range(8):
        a = _check(tmp_path, "wizard-cards", 400, 200 + 2 * k, f"a{k}.json")
        b = _check(tmp_path, "wizard-cards", 400, 201 + 2 * k, f"b{k}.json")
        cmp = compare(read_check(a), read_check(b))
        ps += [c.p for c in cmp.changes if c.family == "card"]
        flagged += bool(cmp.significant)
    assert len(ps) > 300
    assert sum(p < ALPHA for p in ps) / len(ps) <= 0.08
    assert flagged <= 1


def test_a_card_made_much_stronger_is_found_first(tmp_path: Path) -> None:
    assert run_here("new", "zap", "--from", "wizard-cards", cwd=tmp_path).returncode == 0
    weak = _check(tmp_path, "./zap", 1200, 2, "weak.json")
    # the edited game in a folder of its own (these commands run in one process, which keeps a game it loaded)
    assert run_here("new", "zap-strong", "--from", "./zap", cwd=tmp_path).returncode == 0
    data = tmp_path / "zap-strong" / "components.toml"
    text = data.read_text(encoding="utf-8")
    card = text.index('id = "2C"')
    at = text.index("magnitude = 1", card)
    data.write_text(text[:at] + "magnitude = 4" + text[at + len("magnitude = 1"):], encoding="utf-8")  # Zap: Wrath 4
    strong = _check(tmp_path, "./zap-strong", 1200, 1, "strong.json")
    r = run_here("solo", "compare", str(weak), str(strong), "--html", "cmp.html", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[1] == "  note: the checks differ in game: 'zap' and 'zap-strong'"
    assert lines[2] == "  significant changes (1):" and lines[3].startswith("    2C Lesser Wrath: lift "), r.stdout
    page = (tmp_path / "cmp.html").read_text(encoding="utf-8")
    assert '<tr class="sig"><td>2C Lesser Wrath</td>' in page
    # the same through solo check --compare: the check's own report, then the comparison
    r = run_here("solo", "check", "./zap-strong", "--games", "1200", "--seed", "1", "-q", "--compare", str(weak),
                 cwd=tmp_path)
    assert r.returncode == 0 and "significant changes (1):\n    2C Lesser Wrath" in r.stdout, r.stdout


@pytest.mark.parametrize(("content", "words"), [
    ("{not json", "not a solo check's JSON summary (not JSON"),
    ('{"game": "covenant"}', "not a solo check's JSON summary: no int 'completed'"),
    ('{"game": "x", "completed": 1, "cards": [], "win_rate_by_seat": {}, "win_rate_by_bot": {}, '
     '"end_reasons": {}, "n": NaN}', "is not a finite number"),
    ("[" * 100_000, "not a solo check's JSON summary"),
])
def test_a_file_that_is_not_a_check_gets_one_line(content: str, words: str, tmp_path: Path) -> None:
    good = _check(tmp_path, "wizard-cards", 20, 1, "good.json")
    (tmp_path / "bad.json").write_text(content, encoding="utf-8")
    r = run_here("solo", "compare", str(good), "bad.json", cwd=tmp_path)
    assert r.returncode == 1 and words in r.stderr and "Traceback" not in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


def test_checks_of_two_games_are_not_compared(tmp_path: Path) -> None:
    a = _check(tmp_path, "wizard-cards", 20, 1, "a.json")
    b = _check(tmp_path, "covenant", 4, 1, "b.json")
    r = run_here("solo", "compare", str(a), str(b), cwd=tmp_path)
    assert r.returncode == 1 and "the checks are of two games ('wizard-cards' and 'covenant') that share no card" \
        in r.stderr
    r = run_here("solo", "check", "covenant", "--games", "2", "--compare", str(a), cwd=tmp_path)
    assert r.returncode == 2 and "a check of 'wizard-cards', which shares no card with 'covenant'" in r.stderr
    assert "games completed" not in r.stdout  # refused before any game


def test_the_html_page_escapes_what_the_checks_hold(tmp_path: Path) -> None:
    a = _check(tmp_path, "wizard-cards", 200, 1, "a.json")
    b = _check(tmp_path, "wizard-cards", 200, 2, "b.json")
    data = json.loads(b.read_text())
    for c in data["cards"]:
        c["name"] = "<script>alert(1)</script>"
    b.write_text(json.dumps(data))
    assert run_here("solo", "compare", str(a), str(b), "--html", "c.html", cwd=tmp_path).returncode == 0
    assert "<script>" not in (tmp_path / "c.html").read_text(encoding="utf-8")
