"""The ``wizprint`` command line: thin typer commands over the library (see DESIGN.md, "The command line")."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import typer

from wizprint.clitools import err, friendly, say, write_data
from wizprint.errors import UsageError

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  help="Print-and-play card games from one card database, and a solo engine to play them.")
export_app = typer.Typer(no_args_is_help=True, help="Export card data.")
import_app = typer.Typer(no_args_is_help=True, help="Import card data.")
app.add_typer(export_app, name="export")
app.add_typer(import_app, name="import")


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import PackageNotFoundError, version

        try:
            say(f"wizprint {version('wizprint')}")
        except PackageNotFoundError:  # run from a source tree that was never installed
            say("wizprint (not installed: no version)")
        raise typer.Exit()


@app.callback()
def _main(show_version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                            help="Show wizprint's version and exit.")) -> None:
    """Print-and-play card games from one card database, and a solo engine to play them."""


@app.command("games")
@friendly
def games_cmd(game: str | None = typer.Argument(None, help="A game id or the path of a game folder; default: "
                                                           "every shipped game.")) -> None:
    """List the games: their decks, components and counts, and how they are played solo (players, variants or
    scenarios)."""
    from wizprint.cards.loader import load_game
    from wizprint.resources import game_ids

    for gid in [game] if game is not None else game_ids():
        g = load_game(gid)
        d = g.decl
        players = f"{d.players_min}" if d.players_min == d.players_max else f"{d.players_min}-{d.players_max}"
        say(f"{gid}: {d.name} v{d.version}, {players} players, "
            f"{g.physical_count()} cards in {len(g.cards())} designs")
        for deck in d.decks.values():
            per_type = [f"{sum(c.copies for c in g.cards(deck.id) if c.type == t.id)} {t.name.lower()}"
                        for t in d.types.values() if t.deck == deck.id]
            say(f"  deck {deck.id}: {deck.name}, {g.physical_count(deck.id)} cards ({', '.join(per_type)})")
            if deck.backs:  # each copy of a card has its own back (Wizards Cup's Black and White sets)
                say(f"    backs: {', '.join(f'copy {i} {b}' for i, b in enumerate(deck.backs, start=1))}")
            for t in d.types.values():
                if t.deck == deck.id:
                    split = _split(g, t.id, t.required)
                    if split:
                        say(f"    {t.name.lower()}: {split}")
        for k in d.kinds.values():
            say(f"  {k.name}: {len(g.of_kind(k.id))}")
        for comp in d.components:
            say(f"  {comp.kind} {comp.id}: {comp.name} x{comp.count}")
        e = d.engine
        if e is not None:
            lo, hi = e.players_min or d.players_min, e.players_max or d.players_max
            solo = f"  solo play: {lo if lo == hi else f'{lo}-{hi}'} players"
            if e.variant_kind:
                solo += f"; {e.variant_kind}s (--variant): " + ", ".join(
                    f"{r.id} {r.name}" for r in sorted(g.of_kind(e.variant_kind), key=lambda r: r.id))
            elif e.variants:
                solo += f"; variants (--variant): {', '.join(e.variants)}"
            say(solo)


def _split(g: Any, type_id: str, fields: tuple[str, ...]) -> str:
    """A type's cards counted by each of its required enum fields of two or three values (W&R: colour, rarity)."""
    parts = []
    for f in fields:
        spec = g.decl.fields.get(f)
        values = getattr(spec, "values", None) if spec is not None else None
        if not values or not 2 <= len(values) <= 3:
            continue
        counts = [f"{sum(c.copies for c in g.cards() if c.type == type_id and c.get(f) == v)} {v}" for v in values]
        parts.append(f"{f} {', '.join(counts)}")
    return "; ".join(parts)


@app.command("validate")
@friendly
def validate_cmd(targets: list[str] = typer.Argument(None, help="Game ids or paths to game folders; "
                                                                   "default: every game.")) -> None:
    """Check card data: schema, ids, effect words, counts, and that every text fits its box."""
    from wizprint.validation import WARNING, validate

    report = validate(targets or [])
    for line, ok in report:
        if ok and not line.startswith(WARNING):
            say(line)
        else:
            err(line)
    if report.problems:
        err(f"{report.problems} problem{'s' if report.problems != 1 else ''} found")
        raise typer.Exit(1)


def _watch(game: str, opts: Any, parent: Path, quiet: bool) -> None:
    from wizprint.cards.loader import load_game
    from wizprint.generator.build import build_game
    from wizprint.progress import Silent
    from wizprint.watch import watch

    first = load_game(game)  # a game that cannot be read is said now, before the watch
    out_dir = parent / first.id

    def build() -> None:
        result = build_game(game, None, opts, Silent(), parent=parent)
        if not quiet:
            err(f"built {result.game}: {len(result.outputs) + 1} files, {result.printable_pages} printable pages in "
                f"{result.out_dir}")

    watch(game, build, out_dir, first.root, first.id, say, err)


@app.command("new")
@friendly
def new_cmd(folder: Path = typer.Argument(..., help="The new game folder; its name is the new game's id."),
            source: str = typer.Option(..., "--from", help="The game to start from: a game id or a game folder.")
            ) -> None:
    """Start a game of your own: a new game folder copied whole from a game (card data, layout files, its own
    icons), with the folder's name as its id."""
    from wizprint.newgame import new_game

    made = new_game(folder, source)
    say(f"made {made.folder}/: the game '{made.id}' ({made.name}), {made.data} data files, {made.layouts} layout "
        f"files, {made.icons} icon files and a README.md; 'wizprint validate {made.folder}' checks it, "
        f"'wizprint build {made.folder}' prints it into output/{made.id}/")


@app.command("vocabulary")
@friendly
def vocabulary_cmd(game: str = typer.Argument(..., help="Game id or path."),
                   output: str = typer.Option("-", "-o", "--output", help="File to write; '-' for stdout.")) -> None:
    """Print a game's effect vocabulary as a Markdown reference (cards/<game>/VOCABULARY.md is this output)."""
    from wizprint.atomic import write_atomic
    from wizprint.cards.loader import load_game
    from wizprint.cards.vocab import markdown

    g = load_game(game)
    text = markdown(g.vocabulary, f"{g.name} effect vocabulary")
    if output == "-":
        write_data(text)
    else:
        write_atomic(Path(output), text)
        err(f"wrote {output}")


@export_app.command("csv")
@friendly
def export_csv_cmd(game: str = typer.Argument(..., help="Game id or path."),
                   output: str = typer.Option("-", "-o", "--output", help="File to write; '-' for stdout."),
                   deck: str | None = typer.Option(None, "--deck", help="Only this deck.")) -> None:
    """Write a game's cards as CSV (one row per design, with copies)."""
    from wizprint.atomic import write_atomic
    from wizprint.cards.loader import load_game
    from wizprint.generator.csvio import export_csv

    text = export_csv(load_game(game), deck)
    if output == "-":
        write_data(text)
    else:
        write_atomic(Path(output), text)
        err(f"wrote {output}")


@import_app.command("csv")
@friendly
def import_csv_cmd(file: Path = typer.Argument(..., help="CSV file, as written by 'export csv'; '-' for stdin."),
                   game: str = typer.Option(..., "--game", "-g", help="The game the cards belong to."),
                   output: Path = typer.Option(..., "-o", "--output", help="Folder to write the game data into.")
                   ) -> None:
    """Read a CSV back into the TOML database format (a complete game folder that validates)."""
    from wizprint.cards.loader import load_game
    from wizprint.generator.csvio import import_csv

    src = load_game(game)
    path = import_csv(src, file, output)
    loaded = load_game(output)
    err(f"wrote {path} ({len(loaded.cards())} designs, {loaded.physical_count()} cards); "
        f"'wizprint validate {output}' checks it")


def _offset(value: str) -> tuple[float, float]:
    from wizprint.errors import quote

    try:
        x, y = (float(v) for v in value.split(","))
    except ValueError:
        raise UsageError(f"--back-offset takes X,Y in millimetres, like 0.5,-1 (got {quote(value)})") from None
    if not (math.isfinite(x) and math.isfinite(y)):
        raise UsageError(f"--back-offset takes two finite numbers of millimetres, like 0.5,-1 (got {quote(value)})")
    if abs(x) > 20 or abs(y) > 20:
        raise UsageError("--back-offset is limited to 20 mm each way")
    return x, y


KINDS = "decks, sheets, records, board, map, dial-boards, tokens, svg, previews, csv"  # generator/producers.py
EXPORTS = "tts, mpc, tgc, drivethrucards"  # generator/tts.py, generator/services.py: --for's targets
KINDS_HELP = f"Kinds of output, comma-separated: {KINDS} (manifest.json is always written)."


def _kinds(value: str | None, option: str) -> tuple[str, ...]:
    """The kinds of output named by ``--only`` or ``--skip`` (checked by the build's options)."""
    if value is None:
        return ()
    names = tuple(n.strip() for n in value.split(",") if n.strip())
    if not names:
        raise UsageError(f"{option} takes kinds of output separated by commas, like decks,sheets (kinds: {KINDS})")
    return names


FOR_HELP = ("Files for Tabletop Simulator (tts) or a print service (mpc: MakePlayingCards, tgc: The Game Crafter, "
            "drivethrucards), alone, into a build folder of their own: DIR/<game>/<target>/; a print service's "
            "preflight runs first (see 'wizprint preflight').")


def _target(value: str) -> str:
    if value not in EXPORTS.split(", "):
        raise UsageError(f"--for takes one of {EXPORTS}, not {value!r}")
    return value


LAYOUT_HELP = ("auto (default): butted where every card of a sheet has the same edge colour, else spaced; "
               "butted: cards share cut lines, bleed only round the block (9 poker cards a page on A4 and Letter); "
               "spaced: each card with its own bleed (8 on A4, 6 on Letter); gutterfold: fronts and backs on one "
               "page, to fold. ('duplex', the old name of auto, still works.)")


@app.command("build")
@friendly
def build_cmd(
    game: str = typer.Argument(..., help="Game id or path, 'all', or 'calibrate' for the duplex calibration sheet."),
    output: Path | None = typer.Option(None, "-o", "--output",
                                       help="Parent folder of the game folders: the build goes into DIR/<game> "
                                            "(default: output/<game>), for one game and for 'all' alike; "
                                            "'calibrate' writes into DIR/calibrate."),
    paper: str = typer.Option("a4", "--paper", help="a4 or letter."),
    bleed: float | None = typer.Option(None, "--bleed", help="Bleed around each card (butted: around the block) in "
                                                             "mm (0-6; default 3, or with --for a print service "
                                                             "the bleed its card images need)."),
    duplex: str = typer.Option("long", "--duplex", help="long, short or off (fronts only)."),
    back_offset: str = typer.Option("0,0", "--back-offset", help="Shift backs by X,Y mm (see 'build calibrate')."),
    marks: bool = typer.Option(True, "--marks/--no-marks", help="Crop marks outside the cut lines."),
    layout: str = typer.Option("auto", "--layout", help=LAYOUT_HELP),
    svg: bool = typer.Option(True, "--svg/--no-svg", help="Single cards as SVG."),
    png: bool = typer.Option(True, "--png/--no-png", help="PNG contact sheet of each deck."),
    only: str | None = typer.Option(None, "--only", metavar="KIND[,KIND]", help="Make only these files. " + KINDS_HELP),
    skip: str | None = typer.Option(None, "--skip", metavar="KIND[,KIND]", help="Leave these files out. " + KINDS_HELP),
    low_ink: bool = typer.Option(False, "--low-ink", help="Large floods (card backgrounds, backs, banners, board "
                                                          "spaces) printed as light tints with an outline; light "
                                                          "lettering on them turned dark. Saves toner."),
    target: str | None = typer.Option(None, "--for", metavar="TARGET", help=FOR_HELP),
    base_url: str | None = typer.Option(None, "--base-url", metavar="URL",
                                        help="With --for tts: the URL of the folder its images will be uploaded to "
                                             "(default: file:/// URLs of the build folder, for this computer)."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress output."),
    watch: bool = typer.Option(False, "--watch", help="Build, then rebuild on every save of the game's files, "
                                                      "with proof.png showing each changed card before and after; "
                                                      "Ctrl-C stops."),
    jobs: int | None = typer.Option(None, "--jobs", "-j", help="Worker processes that make the files (decks, "
                                                               "sheets, SVG, PNG) side by side; default: the "
                                                               "number of cores. The files are the same for any "
                                                               "number."),
) -> None:
    """Build print-ready PDFs (and SVG, PNG, CSV) of a game into output/<game>/ (or DIR/<game> with -o DIR)."""
    from wizprint.generator.build import BuildOptions, build_game
    from wizprint.generator.deckpdf import LAYOUTS, PrintOptions
    from wizprint.generator.impose import PAPERS
    from wizprint.generator.jobs import MAX_JOBS, default_jobs
    from wizprint.progress import for_terminal
    from wizprint.resources import game_ids

    if jobs is not None and not 1 <= jobs <= MAX_JOBS:
        raise UsageError(f"--jobs must be a whole number from 1 to {MAX_JOBS}, not {jobs}")
    paper = paper.lower()
    if paper not in PAPERS:
        raise UsageError(f"--paper must be one of {', '.join(PAPERS)}, not {paper!r}")
    if duplex not in ("long", "short", "off"):
        raise UsageError(f"--duplex must be long, short or off, not {duplex!r}")
    if layout not in (*LAYOUTS, "duplex"):
        raise UsageError(f"--layout must be {', '.join(LAYOUTS[:-1])} or {LAYOUTS[-1]}, not {layout!r}")
    if bleed is not None and not (math.isfinite(bleed) and 0 <= bleed <= 6):  # NaN and infinity refused in words
        raise UsageError(f"--bleed must be between 0 and 6 mm, not {bleed:g}")
    offset = _offset(back_offset)
    if target is not None:
        target = _target(target)
    if base_url is not None:
        if target != "tts":
            raise UsageError("--base-url goes with --for tts (the URL its saved objects give their images)")
        from wizprint.generator.tts import check_base_url

        check_base_url(base_url)
    parent = output or Path("output")
    if game == "calibrate":
        from wizprint.atomic import write_atomic
        from wizprint.generator.calibrate import calibration_pdf

        mode = duplex if duplex != "off" else "long"
        sheet = parent / "calibrate" / f"calibration-{paper}-{mode}.pdf"
        write_atomic(sheet, calibration_pdf(paper, mode, offset))
        if not quiet:
            err(f"wrote {sheet}")
        return
    popts = PrintOptions(paper=paper, bleed=3.0 if bleed is None else bleed, duplex=duplex, back_offset=offset,
                         marks=marks, layout="auto" if layout == "duplex" else layout)
    opts = BuildOptions(print=popts, svg=svg, png=png, low_ink=low_ink, jobs=jobs or default_jobs(),
                        only=_kinds(only, "--only"), skip=_kinds(skip, "--skip"), target=target, base_url=base_url,
                        service_bleed=bleed is None)
    opts.kinds()  # a kind of output that is not one: said before anything is read
    if watch:
        if game == "all":
            raise UsageError("--watch watches one game: name it (or its folder)")
        _watch(game, opts, parent, quiet)
        return
    targets = game_ids() if game == "all" else [game]
    total_files = total_pages = 0
    for gid in targets:
        progress = for_terminal(quiet)
        try:
            result = build_game(gid, None, opts, progress, parent=parent)
        finally:
            progress.finish()
        n = len(result.outputs) + 1  # and manifest.json
        pages = result.printable_pages
        total_files += n
        total_pages += pages
        if not quiet:
            err(f"built {result.game}: {n} files, {pages} printable pages in {result.out_dir}")
        for note in result.notes:
            err(f"warning: {note}")
        if result.kept:
            from wizprint.errors import one_line

            names = ", ".join(result.kept[:5]) + (f" and {len(result.kept) - 5} more" if len(result.kept) > 5 else "")
            err(f"kept {len(result.kept)} file{'s' if len(result.kept) != 1 else ''} of yours from the earlier build "
                f"in {result.out_dir} (not in its manifest, or changed since): {one_line(names, 200)}")
    if len(targets) > 1 and not quiet:
        err(f"built {len(targets)} games: {total_files} files, {total_pages} printable pages in {parent}")


@app.command("preflight")
@friendly
def preflight_cmd(
    game: str = typer.Argument(..., help="Game id or path."),
    target: str = typer.Option(..., "--for", metavar="TARGET", help="tts, mpc, tgc or drivethrucards."),
    output: Path | None = typer.Option(None, "-o", "--output", help="Parent folder of the game folders, as for "
                                                                     "build (default: output/)."),
    bleed: float | None = typer.Option(None, "--bleed", help="The bleed the faces are drawn with, as for build "
                                                             "(default: the bleed the service needs)."),
) -> None:
    """Check a game against a print service's (or Tabletop Simulator's) figures, card by card: text outside the
    safe zone, missing bleed, then the files of its build (DIR/<game>/<target>/): pixel sizes, colour mode, pages,
    fonts, dpi. Exits 1 when it finds an error."""
    from wizprint.generator.preflight import preflight, target_name

    target = _target(target)
    if bleed is not None and not (math.isfinite(bleed) and 0 <= bleed <= 6):
        raise UsageError(f"--bleed must be between 0 and 6 mm, not {bleed:g}")
    report = preflight(game, target, output, bleed)
    for w in report.warnings:
        say(f"warning: {w}")
    for e in report.errors:
        say(f"error: {e}")
    n, m = len(report.errors), len(report.warnings)
    say(f"preflight for {target_name(target)}: {n} error{'s' if n != 1 else ''}, {m} warning{'s' if m != 1 else ''}; "
        f"{report.files} file{'s' if report.files != 1 else ''} checked in {report.folder}")
    if report.errors:
        raise typer.Exit(1)


def _add_solo() -> None:
    from wizprint.solo.cli import solo_app

    app.add_typer(solo_app, name="solo")


_add_solo()


def main() -> None:
    from wizprint.processes import stop_on_sigterm

    stop_on_sigterm()  # SIGTERM cleans up as Ctrl-C does (a build's temporary folder, worker processes, a save)
    app()
