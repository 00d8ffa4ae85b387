"""Builds spread over worker processes (``build --jobs N``) and the printer's speed work: the same
bytes for any N, an exact progress, errors from workers, workers that never outlive the build, previews cut from
the deck PDF, the fast icon reader agreeing with svgelements, icon fill rules, and rl_accel changing no byte."""

from __future__ import annotations

import contextlib
import gc
import io
import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from cli_helpers import run_here
from PIL import Image
from producer_helpers import add_producer
from progress_helpers import Recorder

from wizprint.errors import BuildError, DataErrors, Issue
from wizprint.generator.build import BuildOptions, build_game
from wizprint.generator.contact import GAP
from wizprint.generator.deckpdf import PrintOptions
from wizprint.generator.icons import CURRENT, Icon, Seg, Shape, _read_general
from wizprint.generator.jobs import Workers, can_fork
from wizprint.generator.pdf import PdfPainter, _icon_operators, new_canvas
from wizprint.generator.producing import Made, made
from wizprint.generator.svgfast import read_plain
from wizprint.generator.units import MM
from wizprint.resources import layouts_dir

forking = pytest.mark.skipif(not can_fork(), reason="worker processes are forked only where the system can fork")


def wizprint(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "wizprint", *args], capture_output=True, text=True, timeout=300)


def files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


# -- the same bytes whatever the number of processes ------------------------------------------------------------
def test_the_command_line_makes_the_same_files_with_one_process_or_three(tmp_path: Path) -> None:
    one = wizprint("build", "wizard-cards", "-o", str(tmp_path / "one"), "--jobs", "1")
    three = wizprint("build", "wizard-cards", "-o", str(tmp_path / "three"), "--jobs", "3")
    assert one.returncode == 0 and three.returncode == 0, one.stderr + three.stderr
    a, b = files(tmp_path / "one" / "wizard-cards"), files(tmp_path / "three" / "wizard-cards")
    assert len(a) > 50 and a.keys() == b.keys()
    assert [name for name in a if a[name] != b[name]] == []
    # the progress counted every file, manifest.json last
    last = [ln for ln in three.stderr.splitlines() if ln.startswith("[")][-1]
    done, total = (int(v) for v in last[1:last.index("]")].split("/"))
    assert done == total == len(b) and last.endswith("manifest.json")


@forking
@pytest.mark.parametrize("game", ["relic", "wizards-and-relics"])
def test_workers_make_the_same_bytes_as_one_process(game: str, tmp_path: Path) -> None:
    """Relic makes every kind of file (decks sharing sheets, record sheets, board, poster, dials, tokens, SVG,
    previews, CSV); Wizards & Relics a map in sheets. (A build whose longest job is nearly all of it, like Wizard
    Cards', stays in one process whatever --jobs says.)"""
    build_game(game, tmp_path / "one", BuildOptions(jobs=1))
    before = children_cpu()
    build_game(game, tmp_path / "two", BuildOptions(jobs=2))
    assert children_cpu() > before  # a worker process really made some of the files
    a, b = files(tmp_path / "one"), files(tmp_path / "two")
    assert a.keys() == b.keys() and [name for name in a if a[name] != b[name]] == []


@forking
def test_the_progress_counts_every_file_exactly_with_workers(tmp_path: Path) -> None:
    rec = Recorder()
    result = build_game("relic", tmp_path / "relic", BuildOptions(jobs=2), rec)
    on_disk = [p for p in (tmp_path / "relic").rglob("*") if p.is_file()]
    assert rec.total == len(rec.steps) == len(result.outputs) + 1 == len(on_disk)
    assert sorted(rec.steps[:-1]) == sorted(o.file for o in result.outputs)
    assert rec.peak == 0 and rec.steps[-1] == "manifest.json"


def test_a_job_marked_here_runs_here_and_a_new_kind_keeps_its_place(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """A job marked ``here`` runs in the building process (it may use that process's state); the files of a kind
    of output registered after the built-in ones come after theirs in the manifest, and the progress counts them
    from the start, whatever the number of processes."""
    pid = os.getpid()

    def notes() -> list[Made]:
        assert os.getpid() == pid
        return [made("notes-a.txt", "notes", "a"), made("notes-b.txt", "notes", "b")]

    add_producer(monkeypatch, "notes", ("notes-a.txt", "notes-b.txt"), notes, here=True)
    names = []
    for jobs in (1, 2):
        rec = Recorder()
        opts = BuildOptions(jobs=jobs, svg=False)
        result = build_game("wizards-and-relics", tmp_path / str(jobs), opts, rec)
        assert rec.total == len(rec.steps) == len(result.outputs) + 1 and rec.peak == 0
        names.append([o.file for o in result.outputs])
    assert names[0] == names[1] and names[0][-3:] == ["wizards-and-relics.csv", "notes-a.txt", "notes-b.txt"]
    assert (tmp_path / "1" / "manifest.json").read_bytes() == (tmp_path / "2" / "manifest.json").read_bytes()


# -- bad values and errors -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("value", ["0", "-2", "257", "two"])
def test_a_bad_jobs_value_is_one_clear_line(value: str, tmp_path: Path) -> None:
    res = run_here("build", "wizard-cards", "-o", str(tmp_path), "--jobs", value)  # the message: in-process
    assert res.returncode != 0 and "Traceback" not in res.stderr
    assert "--jobs" in res.stderr
    assert not (tmp_path / "wizard-cards").exists()


def test_an_error_in_a_job_comes_back_as_itself_and_leaves_nothing(tmp_path: Path) -> None:
    opts = BuildOptions(print=PrintOptions(paper="letter", layout="gutterfold"), jobs=2)
    with pytest.raises(BuildError, match="does not fit half a letter page for gutterfold"):
        build_game("relic", tmp_path / "out", opts)
    assert list(tmp_path.iterdir()) == []


def _fail_with_data_errors() -> None:
    raise DataErrors([Issue("cards/x/cards.toml", 3, "X1", "something is wrong"), Issue("b.toml", 1, "", "and this")])


def _long() -> int:
    time.sleep(0.2)
    return 1


@forking
def test_a_worker_error_keeps_its_class_and_its_issues() -> None:
    jobs = [_long, _fail_with_data_errors, _long]
    with Workers(jobs, 2) as pool, pytest.raises(DataErrors) as caught:
        pool.run(lambda i, r: None, costs=[0.0, 9.0, 0.0])  # the costliest job goes to the worker
    assert [(i.file, i.line, i.card, i.message) for i in caught.value.issues] == [
        ("b.toml", 1, "", "and this"), ("cards/x/cards.toml", 3, "X1", "something is wrong")]
    assert "something is wrong" in str(caught.value)


@forking
def test_forking_the_workers_keeps_a_freeze_in_force() -> None:
    """A build sets the objects made before it aside from the garbage collector (gc.freeze) for its whole length:
    forking its workers freezes what was made since (so the workers share it) and leaves the build's freeze in force
    (it ended it, once)."""
    gc.freeze()  # (the tests' own freeze, made once they are collected, is one too)
    before = gc.get_freeze_count()
    with Workers([_long, _long, _long], 2) as pool:
        assert gc.get_freeze_count() >= before > 0
        pool.run(lambda i, r: None, costs=[0.0, 9.0, 0.0])
    assert gc.get_freeze_count() >= before


@forking
def test_a_worker_that_dies_is_an_error_not_a_hang() -> None:
    parent = os.getpid()

    def die() -> int:
        if os.getpid() != parent:
            os.kill(os.getpid(), signal.SIGKILL)
        return 0

    start = time.monotonic()
    with Workers([_long, die, _long], 2) as pool, pytest.raises(BuildError, match="stopped unexpectedly"):
        pool.run(lambda i, r: None, costs=[0.0, 9.0, 0.0])
    assert time.monotonic() - start < 30


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads a process's children in /proc")
@pytest.mark.parametrize("sig", ["SIGKILL", "SIGTERM"])
def test_workers_end_when_the_build_is_killed(tmp_path: Path, sig: str) -> None:
    """SIGKILL: the kernel ends the workers with the building process; SIGTERM: stopped as Ctrl-C stops them
    (exit 143, no temporary folder left)."""
    proc = subprocess.Popen([sys.executable, "-m", "wizprint", "build", "relic", "-o", str(tmp_path), "-q",
                             "--jobs", "3"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    kids: list[int] = []
    deadline = time.monotonic() + 120
    while not kids and proc.poll() is None and time.monotonic() < deadline:
        with contextlib.suppress(OSError):
            kids = [int(p) for p in Path(f"/proc/{proc.pid}/task/{proc.pid}/children").read_text().split()]
        time.sleep(0.005)
    if not kids:
        proc.wait()
    assert kids, "the build with --jobs 3 ended without a worker process seen (it forks them for Relic)"
    proc.send_signal(getattr(signal, sig))
    try:
        proc.wait(60)
    finally:
        if proc.poll() is None:
            proc.kill()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(Path(f"/proc/{k}").exists() and "Z" not in _state(k) for k in kids):
        time.sleep(0.01)
    left = [k for k in kids if Path(f"/proc/{k}").exists() and "Z" not in _state(k)]
    for k in left:
        os.kill(k, signal.SIGKILL)
    assert proc.stderr is not None
    err = proc.stderr.read().decode()
    proc.stderr.close()
    assert not left and "Traceback" not in err, err
    if sig == "SIGTERM":
        assert proc.returncode == 143 and err == "stopped (SIGTERM)\n", err
        assert [p.name for p in tmp_path.iterdir() if "wizprint" in p.name] == []


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
    except OSError:
        return "Z"


# -- previews cut from the deck PDF ----------------------------------------------------------------------------------
def _face_alone(scene: object, dpi: float) -> Image.Image:
    """A face drawn on a page of its own (trim box only) and rendered: what a preview cell must show."""
    from wizprint.generator.scene import Scene

    assert isinstance(scene, Scene)
    buf = io.BytesIO()
    c = new_canvas(buf, (scene.w * MM, scene.h * MM), "face")
    PdfPainter(c).place(scene, -scene.bleed * MM, -scene.bleed * MM)
    c.showPage()
    c.save()
    doc = pdfium.PdfDocument(buf.getvalue())
    try:
        image: Image.Image = doc[0].render(scale=dpi / 72).to_pil().convert("RGB")
        return image
    finally:
        doc.close()


@pytest.mark.parametrize("layout", ["auto", "gutterfold"])  # gutterfold turns the poker cards a quarter
def test_each_preview_cell_shows_its_design_upright(layout: str, tmp_path: Path) -> None:
    from wizprint.cards.loader import load_game
    from wizprint.generator.drawing import front_scenes
    from wizprint.generator.faces import FaceBuilder
    from wizprint.generator.layout import load_layout

    build_game("wizard-cards", tmp_path, BuildOptions(print=PrintOptions(layout=layout), svg=False, csv=False))
    game = load_game("wizard-cards")
    lay = load_layout(game)
    scenes = front_scenes(game, lay, FaceBuilder(game, lay, 3.0), "spells")
    sheet = Image.open(tmp_path / "preview-spells.png").convert("RGB")
    dpi, cols = 60.0, 9
    px = MM * dpi / 72
    checked = 0
    for k, sc in enumerate(scenes.values()):
        if k % 5:  # every fifth design: enough to see order and orientation
            continue
        want = _face_alone(sc, dpi)
        r, c = divmod(k, cols)
        x, y = round((GAP + c * (sc.w + GAP)) * px), round((GAP + r * (sc.h + GAP)) * px)
        got = sheet.crop((x, y, x + want.width, y + want.height))
        diff = sum(abs(a - b) for a, b in zip(got.tobytes(), want.tobytes())) / len(want.tobytes())
        assert diff < 12, (k, diff)
        # and it differs from the design turned round (so orientation is really checked)
        turned = want.transpose(Image.Transpose.ROTATE_180)
        assert sum(abs(a - b) for a, b in zip(got.tobytes(), turned.tobytes())) / len(want.tobytes()) > 2 * diff
        checked += 1
    assert checked >= 10


# -- the fast icon reader -------------------------------------------------------------------------------------------
def _same(a: Icon, size: float, b: list[Shape]) -> None:
    assert a.size == size and len(a.shapes) == len(b)
    for sa, sb in zip(a.shapes, b):
        assert (sa.fill, sa.stroke, sa.evenodd) == (sb.fill, sb.stroke, sb.evenodd)
        assert sa.stroke_width == pytest.approx(sb.stroke_width)
        assert [s.op for s in sa.segs] == [s.op for s in sb.segs]
        for ga, gb in zip(sa.segs, sb.segs):
            for pa, pb in zip(ga.pts, gb.pts):
                assert pa == pytest.approx(pb, abs=1e-6)


def test_the_fast_reader_reads_every_shipped_icon_as_svgelements_does() -> None:
    fast = 0
    for path in sorted(layouts_dir().glob("**/icons/*.svg")):
        data = path.read_bytes()
        icon = read_plain(data, path.stem)
        if icon is None:
            continue
        fast += 1
        _same(icon, *_read_general(data))
    assert fast >= 300  # the game-icons.net pictures and most rule icons are plain


HEAD = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">'


@pytest.mark.parametrize("body", [
    '<path d="M1 1a30 30 0 0160 0a10 5 30 1 0-20 20A15 15 0 0 0 10 90z"/>',  # flags run into numbers
    '<path d="m10.5.5l.5-1e1 2,3h4v-5c1 2 3 4 5 6s1 2 3 4q1 1 2 2t3 3t4-1zm5 5 5 5 5-5z" fill="#abc"/>',
    '<path d="M10 10 Q 20 0 30 10 T 50 10 L 55 15 S 60 20 70 10 L 80 80 H 10 V 50 Z" fill-rule="evenodd"/>',
    '<path d="M90 50 A40 40 0 1 1 10 50 A40 40 0 1 1 90 50" fill="none" stroke="currentColor" stroke-width="3"/>',
    '<g fill="#00FF00" stroke="black"><path d="M1 1h10v10z"/><path d="M1 1h10v10z" fill="none"/>'
    '<g stroke-width="2"><circle cx="50" cy="50" r="20"/></g></g>',
    '<circle cx="50" cy="40" r="10"/><ellipse cx="50" cy="40" rx="10" ry="5" fill="#FF0000"/>'
    '<rect x="1" y="2" width="30" height="20"/><rect x="1" y="2" width="30" height="20" rx="3"/>'
    '<rect x="1" y="2" width="30" height="20" rx="3" ry="5"/>',
    '<polygon points="1,2 3,4 5,6"/><polyline points="1 2 3 4 5 6" fill="none" stroke="#123"/>'
    '<line x1="1" y1="2" x2="3" y2="4" stroke="white"/><title>t</title>',
    '<path d="M 10,10 l 10 10 a 5 5 0 0 1 0 0 z"/>',  # an arc that ends where it starts is left out
])
def test_the_fast_reader_agrees_with_svgelements(body: str) -> None:
    data = (HEAD + body + "</svg>").encode()
    icon = read_plain(data, "t")
    assert icon is not None
    _same(icon, *_read_general(data))


@pytest.mark.parametrize("body", [
    '<path d="M1 1h10" transform="rotate(10)"/>', '<path d="M1 1h10" style="fill:red"/>',
    '<path d="M1 1h10" opacity="0.5"/>', '<use href="#x"/>', '<path d="M1 1h10 # 5"/>', '<path d="1 1h10"/>',
    '<path d="M1 1h10" fill="rgb(1,2,3)"/>', '<path d="M1 1h10" fill="red"/>', '<rect width="10px" height="5"/>',
    '<g transform="scale(2)"/>',
    '<path d="M1 1a1 1 0 2 1 5 5"/>', '<path d="M1 1a0 1 0 0 1 5 5"/>', '<path d="M1 1q1 1 2 2s3 3 4 4"/>',
])
def test_anything_else_goes_to_svgelements(body: str) -> None:
    assert read_plain((HEAD + body + "</svg>").encode(), "t") is None


def test_a_long_run_of_digits_is_refused_quickly() -> None:
    start = time.monotonic()
    assert read_plain((HEAD + '<path d="M' + "1" * 50_000 + '#"/></svg>').encode(), "t") is None
    assert time.monotonic() - start < 1


def test_icon_forms_fill_with_the_icons_own_rule() -> None:
    """An icon's nonzero shape fills with f, its even-odd shape with f* (the SVG back end's rule too)."""
    square = (Seg("M", ((0.0, 0.0),)), Seg("L", ((10.0, 0.0),)), Seg("L", ((10.0, 10.0),)), Seg("Z", ()))
    icon = Icon("t", (Shape(square, "#112233", None, 0.0, False), Shape(square, CURRENT, "#000000", 2.0, True),
                      Shape(square, None, "#000000", 1.0, True)), 100.0)
    ops = _icon_operators(icon, "#ff0000").splitlines()
    assert [op for op in ops if op in ("f", "f*", "B", "B*", "S", "n")] == ["f", "B*", "S"]
    assert "1 0 0 rg" in ops  # currentColor is the colour asked for


# -- rl_accel -----------------------------------------------------------------------------------------------------
def test_rl_accel_is_used_and_changes_no_byte(tmp_path: Path) -> None:
    from reportlab.lib import rl_accel

    assert "fp_str" in rl_accel._c_funcs, "rl_accel (a dependency) is not installed or not used"
    without = ("import sys; sys.modules['_rl_accel'] = None\n"
               "from reportlab.lib import rl_accel; assert not rl_accel._c_funcs\n"
               "from wizprint.cli import main; sys.argv = ['wizprint', 'build', 'covenant', '-o', sys.argv[1], '-q',"
               " '--no-svg', '--jobs', '1']; main()")
    res = subprocess.run([sys.executable, "-c", without, str(tmp_path / "without")], capture_output=True, text=True,
                         timeout=300)
    assert res.returncode == 0, res.stderr
    assert wizprint("build", "covenant", "-o", str(tmp_path / "with"), "-q", "--no-svg", "--jobs", "1").returncode == 0
    a, b = files(tmp_path / "with" / "covenant"), files(tmp_path / "without" / "covenant")
    assert a.keys() == b.keys() and [name for name in a if a[name] != b[name]] == []
