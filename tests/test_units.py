"""Unit tests of imposition, text fitting, markup, atomic writes and effect notation."""

from __future__ import annotations

from pathlib import Path

import pytest

from wizprint.atomic import write_atomic
from wizprint.cards import effects_text
from wizprint.cards.markup import paragraphs, plain
from wizprint.errors import BuildError, FitError
from wizprint.generator.impose import PAPERS, crop_marks, fit, gutterfold, mirror_slot, page_grid
from wizprint.generator.textlayout import layout_text


def test_poker_cards_per_page() -> None:
    # 63x88 with 3 mm bleed is 69x94: turned a quarter, 2 x 4 fit on A4 (198 x 281 inside 8 mm margins)
    assert fit(210 - 16, 297 - 16, 63, 88, 3) == (2, 4, True)
    assert page_grid(PAPERS["a4"], (63, 88), 3).count == 8
    assert page_grid(PAPERS["letter"], (63, 88), 3).count == 6
    # without bleed, nine poker cards fit an A4 page upright
    assert page_grid(PAPERS["a4"], (63, 88), 0).count == 9
    # tarot cards (76 x 126 with bleed): 2 x 2 on A4
    assert page_grid(PAPERS["a4"], (70, 120), 3).count == 4


def test_grid_is_centred_on_the_page() -> None:
    g = page_grid(PAPERS["a4"], (63, 88), 3)
    left = min(s.x for s in g.slots) - 3
    right = 210 - (max(s.x + s.w for s in g.slots) + 3)
    bottom = min(s.y for s in g.slots) - 3
    top = 297 - (max(s.y + s.h for s in g.slots) + 3)
    assert left == pytest.approx(right) and bottom == pytest.approx(top)


def test_mirror_long_and_short() -> None:
    g = page_grid(PAPERS["a4"], (63, 88), 3)
    s = g.slots[0]
    b = mirror_slot(s, PAPERS["a4"], "long")
    assert b.x + b.w / 2 == pytest.approx(210 - (s.x + s.w / 2)) and b.y == s.y
    b = mirror_slot(s, PAPERS["a4"], "short", (1.0, 2.0))
    assert b.x == s.x + 1.0 and b.y + b.h / 2 == pytest.approx(297 - (s.y + s.h / 2) + 2.0)


def test_gutterfold_halves() -> None:
    fl = gutterfold(PAPERS["a4"], (63, 88), 3)
    # half an A4 page (148.5 mm) holds two rows of quarter-turned poker cards (69 mm with bleed), 2 across
    assert fl.fronts.count == 4 and fl.fronts.rotated
    (x1, y1), (x2, _) = fl.fold
    for f, b in zip(fl.fronts.slots, fl.backs):
        if x1 == x2:  # vertical fold
            assert (f.x + f.w / 2) + (b.x + b.w / 2) == pytest.approx(2 * x1)
        else:
            assert (f.y + f.h / 2) + (b.y + b.h / 2) == pytest.approx(2 * y1)


def test_crop_marks_extend_every_cut_line() -> None:
    g = page_grid(PAPERS["a4"], (63, 88), 3)
    marks = crop_marks(g.slots, 3)
    # 2 columns -> 4 vertical cut lines, 4 rows -> 8 horizontal: two marks each
    assert len(marks) == 2 * (4 + 8)


def test_shrink_to_fit_and_fail_below_minimum() -> None:
    text = "A long rule that needs several lines to fit in a small box " * 3
    lay = layout_text(text, 40, 12, size=10, min_size=5)
    assert 5 <= lay.size < 10
    with pytest.raises(FitError):
        layout_text(text, 40, 12, size=10, min_size=9)
    with pytest.raises(FitError):
        layout_text("Title", 40, 12, size=10, max_lines=1, min_size=10) if False else layout_text(
            "A title far too long for one line of this box", 20, 12, size=10, min_size=9, max_lines=1)


def test_inline_icons_take_room_in_the_line() -> None:
    a = layout_text("Roll :die: now", 60, 10, size=8)
    b = layout_text("Roll now", 60, 10, size=8)
    icon = [r for r in a.runs if r.icon]
    assert len(icon) == 1 and icon[0].icon == "die"
    last_a = max(r.x + r.w for r in a.runs)
    last_b = max(r.x + r.w for r in b.runs)
    assert last_a > last_b + icon[0].w * 0.9


def test_markup() -> None:
    paras = paragraphs("**Bold** and *it* :ward:\nsecond")
    assert len(paras) == 2
    first = paras[0]
    assert first[0][0].bold and not first[0][0].italic
    assert first[2][0].italic and first[3][0].icon == "ward"
    assert plain("**Ward 2.** Stop :d6:") == "Ward 2. Stop [d6]"
    assert plain("a \\*star\\*") == "a *star*"


def test_write_atomic_leaves_no_temporary_file_on_failure(tmp_path: Path) -> None:
    target = tmp_path / "a.pdf"
    target.mkdir()  # a folder where the file should go: the final rename fails
    with pytest.raises(BuildError):
        write_atomic(target, b"data")
    assert [p.name for p in tmp_path.iterdir()] == ["a.pdf"]
    ok = write_atomic(tmp_path / "b.txt", "hello")
    assert ok.read_text() == "hello" and not list(tmp_path.glob(".*.tmp"))


def test_effect_notation_round_trip() -> None:
    text = "on_complete(then=[skip_turn(), draw(n=2)]); negate(what=[action, event]); quest_level(n=-1)"
    effs = effects_text.parse(text)
    assert effs[0].params["then"][0].word == "skip_turn"
    assert effects_text.fmt(effs) == text
    with pytest.raises(effects_text.ParseError):
        effects_text.parse("draw(n=2")


def test_mcts_bot_specs() -> None:
    from wizprint.errors import UsageError
    from wizprint.solo.agents import make_agent
    from wizprint.solo.agents.mcts import MctsAgent
    from wizprint.solo.kernel import engine

    wc = engine("wizard-cards")
    a = make_agent("mcts:50/0.5s", wc)
    assert isinstance(a, MctsAgent) and (a.iterations, a.seconds, a.name) == (50, 0.5, "mcts:50/0.5s")
    b = make_agent("mcts:2s", wc)
    assert isinstance(b, MctsAgent) and (b.iterations, b.seconds) == (None, 2.0)
    # a plain mcts takes each game's budget (its [engine] table): its search, its playouts' cost
    budgets = {g: make_agent("mcts", engine(g)) for g in ("wizard-cards", "covenant", "relic")}
    assert {g: (a.iterations, a.search, a.name) for g, a in budgets.items() if isinstance(a, MctsAgent)} == {
        "wizard-cards": (800, "tree", "mcts:800"), "covenant": (200, "paired", "mcts:200"),
        "relic": (160, "paired", "mcts:160")}
    for bad in ("mcts:50/0.5", "mcts:x", "mcts:50/s", "mcts:0", "mcts:-5", "mcts:nans", "mcts:infs", "mcts:1e309s",
                "mcts:0s", "mcts:10000000", "automaton:3", "nobot"):
        with pytest.raises(UsageError, match="bot"):
            make_agent(bad, wc)


def test_spoken_text_spells_out_icons_that_stand_for_words() -> None:
    from wizprint.cards.markup import spoken

    assert spoken("Gain 2 :life: Life.") == "Gain 2 Life."
    assert spoken("Spending 2 :influence: for each.") == "Spending 2 influence for each."
    assert spoken("Roll :die:. **1-2:** Lose 1 :life: Life.") == "Roll a die. 1-2: Lose 1 Life."
    assert spoken("**Battle** (:willpower: Willpower 8).\nWin: *Gain* 3.") == "Battle (Willpower 8). Win: Gain 3."



def test_a_save_cut_short_keeps_the_last_good_save(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The disk fills up halfway through writing a save: the error is clear, the last good save is still whole and
    loads, and no temporary file is left behind."""
    import errno
    import io
    import os

    from wizprint.errors import WizprintError
    from wizprint.solo.play import load_session, new_session, save

    s = new_session("wizard-cards", 2, "automaton", 3, 0, "")
    path = save(s, tmp_path / "game.json")
    good = path.read_bytes()
    s.state.apply(s.state.legal_actions()[0])
    real_fdopen = os.fdopen

    class DiskFull(io.BufferedWriter):
        def write(self, b: bytes) -> int:  # type: ignore[override]
            super().write(bytes(b)[: len(b) // 2])
            raise OSError(errno.ENOSPC, "No space left on device")

    def fdopen(fd: int, mode: str = "r", *args: object, **kw: object) -> io.BufferedWriter:
        return DiskFull(real_fdopen(fd, mode, buffering=0)) if "w" in mode else real_fdopen(fd, mode)

    monkeypatch.setattr(os, "fdopen", fdopen)
    with pytest.raises(WizprintError, match="No space left"):
        save(s, path)
    monkeypatch.undo()
    assert path.read_bytes() == good
    assert load_session(s.engine, path).state.steps == 0
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]


def test_repeated_passes_collapse_into_one_line_naming_each_seat_once() -> None:
    from wizprint.solo.play import collapse_passes

    assert collapse_passes(["P2 passes", "P3 passes", "P1 casts Dispell", "P2 passes"]) == [
        "P2 and P3 pass", "P1 casts Dispell", "P2 passes"]
    assert collapse_passes(["P2 passes", "P2 passes", "P1 passes", "P3 passes"]) == ["P2, P1 and P3 pass"]
    assert collapse_passes(["P1 passes the test"]) == ["P1 passes the test"]  # not a pass


def test_spoken_counts_die_icons_side_by_side() -> None:
    from wizprint.cards.markup import spoken

    assert spoken("Both roll :die::die::die:; the lower one loses.") == "Both roll three dice; the lower one loses."
    assert spoken("Roll :die:.") == "Roll a die."
    assert spoken(":life: Life") == "Life"
