"""The printer's speed against its baselines, in one run, as ratios; the median of a few repeats, taken
turn about so that a busy machine slows both sides alike.

1. CPU of ``wizprint build relic`` into a new folder (everything it makes; the CPU of all its processes, read as
   RUSAGE_CHILDREN), and of the same build again over it (a designer's usual rebuild: the files that come out the
   same are linked instead of written)
   against the CPU of a bare reportlab loop drawing as many cards (336, each with a rect, its title and a
   Paragraph of its rules text and flavour, in the same embedded font, 9 to an A4 page), run as a process of its
   own in the same way. Goal: at most 8x (the printer uses reportlab through its public API only).
2. Cards per second of an in-process, PDF-only build of 1,000 distinct designs (``bench_print.make_game``)
   against the bare loop drawing those 1,000 cards (their titles and rules texts), both in this process and
   timed by CPU. Goal: at least 0.5x.
3. Wall time of ``wizprint build wizard-cards`` (54 + 2 cards, everything, default --jobs) against Squib's 84 s
   for a 54-card deck. Goal: at least 100x faster (0.84 s).

Run: python benchmarks/bench_build.py [--repeats N] [--jobs N]
"""

from __future__ import annotations

import argparse
import dataclasses
import io
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from xml.sax.saxutils import escape

from results import recorded

SQUIB_SECONDS = 84.0  # Squib building a 54-card deck
HERE = Path(__file__).resolve().parent

Card = tuple[str, str]  # title, paragraph (reportlab's mini-HTML)


# -- the baseline: a bare reportlab loop ------------------------------------------------------------------------
def reportlab_loop(cards: Sequence[Card], fonts: Path) -> bytes:
    """Draw ``cards`` with reportlab alone: A4 pages of 3 x 3 poker cards (63 x 88 mm), each a framed rect, a title
    and a Paragraph, in Lato (embedded, as wizprint's cards are). Returns the PDF."""
    from reportlab.lib.fonts import addMapping
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.lib.units import mm
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen.canvas import Canvas
    from reportlab.platypus import Paragraph

    faces = {(0, 0): "Regular", (1, 0): "Bold", (0, 1): "Italic", (1, 1): "BoldItalic"}
    for (bold, italic), style in faces.items():
        name = f"Base-Lato-{style}"
        if name not in pdfmetrics.getRegisteredFontNames():
            pdfmetrics.registerFont(TTFont(name, str(fonts / f"Lato-{style}.ttf")))
        addMapping("Base-Lato", bold, italic, name)
    rules = ParagraphStyle("rules", fontName="Base-Lato-Regular", fontSize=8, leading=9.6)
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=A4, invariant=1)
    cw, ch = 63 * mm, 88 * mm
    x0, y0 = (A4[0] - 3 * cw) / 2, (A4[1] - 3 * ch) / 2
    for i, (title, text) in enumerate(cards):
        k = i % 9
        if i and k == 0:
            c.showPage()
        x, y = x0 + (k % 3) * cw, y0 + (2 - k // 3) * ch
        c.setStrokeColorRGB(0.2, 0.2, 0.2)
        c.setFillColorRGB(0.95, 0.92, 0.85)
        c.rect(x + 3 * mm, y + 3 * mm, cw - 6 * mm, ch - 6 * mm, stroke=1, fill=1)
        c.setFillColorRGB(0, 0, 0)
        c.setFont("Base-Lato-Bold", 11)
        c.drawString(x + 6 * mm, y + ch - 12 * mm, title)
        p = Paragraph(text, rules)
        _, h = p.wrap(cw - 12 * mm, ch - 30 * mm)
        p.drawOn(c, x + 6 * mm, y + ch - 18 * mm - h)
    c.showPage()
    c.save()
    return buf.getvalue()


def paragraph(markup: str) -> str:
    """wizprint markup (``**bold**``, ``*italic*``, ``:icon:``, line breaks) as reportlab's paragraph markup,
    icons as their names."""
    from wizprint.cards.markup import fragments

    out: list[str] = []
    for f in fragments(markup):
        if f is None:
            out.append("<br/>")
            continue
        s = escape(f.icon.replace("-", " ") if f.icon else f.text)
        out.append(f"<b>{s}</b>" if f.bold else s)
        if f.italic:
            out[-1] = f"<i>{out[-1]}</i>"
    return "".join(out)


def printed_cards(game_ref: str | Path) -> list[Card]:
    """Every physical card of a game as (title, rules text and flavour), in deck order."""
    from wizprint.cards.loader import load_game

    game = load_game(game_ref)
    cards: list[Card] = []
    for deck in game.decl.decks:
        for card, _ in game.iter_copies(deck):
            text = paragraph(game.text(card))
            if card.flavor:
                text += ("<br/>" if text else "") + f"<i>{escape(card.flavor)}</i>"
            cards.append((card.name, text))
    return cards


# -- measuring --------------------------------------------------------------------------------------------------
def children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def self_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


# Python as an installed wizprint runs: `pip install .` compiles the package's modules to bytecode, and Python writes
# the bytecode of any module it had to compile; a shell with PYTHONDONTWRITEBYTECODE set (some containers) would
# otherwise compile every module of an editable install again in every run, and both sides are measured as installed
RUN_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def run_process(cmd: list[str]) -> tuple[float, float]:
    """(CPU of the process and all its children, wall seconds) of a command run to its end."""
    before, start = children_cpu(), time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=RUN_ENV)
    return children_cpu() - before, time.perf_counter() - start


def cpu_of(fn: Callable[[], object]) -> float:
    """CPU of ``fn()`` in this process and any processes it starts and ends."""
    before = self_cpu() + children_cpu()
    fn()
    return self_cpu() + children_cpu() - before


def median(values: list[float]) -> float:
    return statistics.median(values)


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--repeats", type=int, default=5, help="rounds (the median is shown)")
    ap.add_argument("--jobs", type=int, default=None, help="--jobs for the builds (default: wizprint's own)")
    ap.add_argument("--reportlab-loop", nargs=2, metavar=("CARDS_JSON", "FONTS"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.reportlab_loop:  # the baseline's own process: reportlab only
        raw = json.loads(Path(args.reportlab_loop[0]).read_text(encoding="utf-8"))
        reportlab_loop([(str(title), str(text)) for title, text in raw], Path(args.reportlab_loop[1]))
        return
    print("$ python benchmarks/bench_build.py " + " ".join(sys.argv[1:] if argv is None else argv))
    sys.path.insert(0, str(HERE))
    from bench_print import make_game

    from wizprint.generator.build import BuildOptions, build_game
    from wizprint.resources import layouts_dir

    try:
        from wizprint.generator.jobs import default_jobs
        cores = default_jobs()
    except ImportError:  # a wizprint from before --jobs (to measure an older checkout the same way)
        cores = os.cpu_count() or 1

    fonts = layouts_dir() / "fonts"
    jobs = ["--jobs", str(args.jobs)] if args.jobs else []
    exe = [sys.executable, "-m", "wizprint"]
    results: dict[str, list[float]] = {}

    def note(key: str, value: float) -> None:
        results.setdefault(key, []).append(value)

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        relic_cards = printed_cards("relic")
        cards_json = root / "relic-cards.json"
        cards_json.write_text(json.dumps(relic_cards), encoding="utf-8")
        loop_cmd = [sys.executable, str(Path(__file__).resolve()), "--reportlab-loop", str(cards_json), str(fonts)]
        many = make_game(root / "designs", 1000, 1)
        many_cards = printed_cards(many)
        pdf_only = BuildOptions(svg=False, png=False, csv=False, sheets=False)
        if "jobs" in {f.name for f in dataclasses.fields(BuildOptions)}:
            pdf_only = dataclasses.replace(pdf_only, jobs=1)
        # warm up: imports, fonts and caches of this process, and the file system cache for the subprocesses
        build_game(make_game(root / "warm", 10, 1), root / "warm-out", pdf_only)
        reportlab_loop(many_cards[:20], fonts)
        run_process([*exe, "build", "wizard-cards", "-o", str(root / "w"), "-q", *jobs])
        for _ in range(args.repeats):
            cpu, _ = run_process(loop_cmd)
            note("loop336", cpu)
            shutil.rmtree(root / "r", ignore_errors=True)
            cpu, wall = run_process([*exe, "build", "relic", "-o", str(root / "r"), "-q", *jobs])
            note("relic_cpu", cpu)  # into a new folder
            note("relic_wall", wall)
            cpu, _ = run_process([*exe, "build", "relic", "-o", str(root / "r"), "-q", *jobs])
            note("relic_again", cpu)  # over that build: the files that come out the same are linked
            note("loop1000", cpu_of(lambda: reportlab_loop(many_cards, fonts)))
            shutil.rmtree(root / "m", ignore_errors=True)
            note("many", cpu_of(lambda: build_game(many, root / "m", pdf_only)))
            cpu, wall = run_process([*exe, "build", "wizard-cards", "-o", str(root / "w"), "-q", *jobs])
            note("wc_cpu", cpu)
            note("wc_wall", wall)
    m = {k: median(v) for k, v in results.items()}
    n = args.repeats
    print(f"machine: {cores} cores; builds with --jobs {args.jobs or cores}; median of {n}")
    relic = len(relic_cards)
    print(f"1. build relic (everything, all processes): {m['relic_cpu']:.2f} s CPU ({m['relic_wall']:.2f} s wall) "
          f"against a bare reportlab loop drawing its {relic} cards: {m['loop336']:.2f} s CPU -> "
          f"{m['relic_cpu'] / m['loop336']:.1f}x (goal: at most 8x)")
    print(f"   built again over that build: {m['relic_again']:.2f} s CPU -> {m['relic_again'] / m['loop336']:.1f}x")
    ours, theirs = 1000 / m["many"], 1000 / m["loop1000"]
    print(f"2. in-process PDF-only, 1,000 distinct designs: {ours:,.0f} cards per CPU-second against the bare loop's "
          f"{theirs:,.0f} -> {ours / theirs:.2f}x (goal: at least 0.5x)")
    print(f"3. build wizard-cards: {m['wc_wall']:.2f} s wall ({m['wc_cpu']:.2f} s CPU) against Squib's "
          f"{SQUIB_SECONDS:g} s -> {SQUIB_SECONDS / m['wc_wall']:.0f}x faster (goal: at least 100x, 0.84 s)")
    for key in sorted(results):
        print(f"   {key}: " + " ".join(f"{v:.3f}" for v in results[key]))


if __name__ == "__main__":
    with recorded("printer speed"):
        main()
