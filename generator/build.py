"""``wizprint build``: validate, then write every printable file of a game and its manifest.

A build draws the game (:func:`~wizprint.generator.drawing.draw`: every face, and so every check, before any
file is made), asks each selected producer for its plan (generator/producing.py; the built-in output kinds are in
generator/producers.py), runs the planned jobs in this process or in workers (generator/jobs.py), and writes every
file at once into a folder that is swapped in whole (:class:`~wizprint.atomic.StagedFolder`), the manifest last.
"""

from __future__ import annotations

import dataclasses
import gc
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from wizprint.atomic import StagedFolder, file_sha256, safe_relpath
from wizprint.cards.loader import load_game
from wizprint.cards.model import Game
from wizprint.errors import BuildError, WizprintBug, quote
from wizprint.files import FileProblem, read_file
from wizprint.finite import loads_json
from wizprint.progress import Progress, Silent

from . import producers, services, tts
from .drawing import Drawn, draw
from .jobs import MAX_JOBS, Workers
from .layout import GameLayout, load_layout
from .producers import MANIFEST
from .producing import REGISTRY, BuildOptions, Job, Made, Output, Producer, exports, in_order, name_part

__all__ = ["MANIFEST", "BuildOptions", "BuildResult", "Output", "build_game", "previous_build"]

# the modules that register the kinds of output (generator/producing.py), in the order the manifest lists them: a
# new kind is a module that registers it, imported and named here (and named in the command line's KINDS)
OUTPUT_KINDS = (producers, tts, services)
in_order(OUTPUT_KINDS)
PRINTED = ("cards", "sheets", "board", "tokens")  # the kinds of file that are printed on paper
MAX_MANIFEST_BYTES = 64 * 1024 * 1024
PARALLEL_WORTH = 250.0  # the jobs' costs (about 0.2 ms each) beside the longest job that make workers worth it


@dataclass
class BuildResult:
    game: str
    out_dir: Path
    outputs: list[Output]
    kept: list[str] = field(default_factory=list)  # the user's own files carried over from the earlier build
    notes: list[str] = field(default_factory=list)  # the producers' warnings (a deck a print service leaves out)

    @property
    def printable_pages(self) -> int:
        """The pages to print: the PDFs of cards, sheets, boards and tokens (not the SVG, PNG or CSV files)."""
        return sum(o.pages for o in self.outputs if o.kind in PRINTED and o.file.endswith(".pdf"))

    def manifest(self) -> dict[str, Any]:
        return producers.manifest(self.game, self.outputs)


def previous_build(folder: Path, shown_as: Path | None = None) -> dict[str, str]:
    """The files that the earlier build in ``folder`` made, as listed by its manifest.json: each relative path with
    its sha256 (none for a missing or empty folder). A folder that is not a wizprint build (no manifest.json, or
    one wizprint did not write: another shape, a path that is not a plain name inside the folder) is refused with a
    :class:`BuildError`: the build never swaps away, moves or deletes the user's own files."""
    where = shown_as or folder
    if not os.path.lexists(folder):
        return {}
    if not folder.is_dir():
        raise BuildError(f"output folder {where} exists and is not a folder")
    try:
        with os.scandir(folder) as it:
            if next(it, None) is None:
                return {}
    except OSError as exc:
        raise BuildError(f"cannot read output folder {where}: {exc.strerror or exc}") from None
    mpath = folder / MANIFEST
    refuse = (f"output folder {where} is not empty and is not a wizprint build ({{}}); wizprint leaves it alone: "
              f"choose a new or empty folder")
    if mpath.is_symlink() or not mpath.is_file():
        if _only_exports(folder):  # the exports' own build folders (output/<game>/tts/), made before the game's
            return {}
        raise BuildError(refuse.format("it has no manifest.json"))
    try:
        data = loads_json(read_file(mpath, MAX_MANIFEST_BYTES).decode("utf-8"))  # NaN, Infinity: not wizprint's
    except (FileProblem, OSError, UnicodeDecodeError, ValueError, RecursionError):
        raise BuildError(refuse.format("its manifest.json was not written by wizprint")) from None
    files = data.get("files") if isinstance(data, dict) else None
    if not (isinstance(data, dict) and isinstance(data.get("game"), str) and isinstance(files, list)
            and all(isinstance(f, dict) and isinstance(f.get("file"), str) and isinstance(f.get("sha256"), str)
                    for f in files)):
        raise BuildError(refuse.format("its manifest.json was not written by wizprint"))
    for f in files:
        try:
            safe_relpath(f["file"])
        except BuildError:
            raise BuildError(refuse.format(f"its manifest.json lists {quote(f['file'])}, which is not a file inside "
                                           f"the folder")) from None
    return {f["file"]: f["sha256"] for f in files}


class EarlierBuild:
    """What the earlier build in the output folder made, by its manifest: a file there is the build's own (and
    so is removed, or replaced, by the new build) only when the manifest lists it and its bytes still have the
    sha256 listed, as a plain file (not a link). Anything else in the folder is the user's: carried over into the
    new build, or, where the new build has a file of that name, the build stops before it writes anything."""

    def __init__(self, folder: Path, listed: dict[str, str]):
        self.folder = folder
        self.listed = listed

    def made(self, rel: str) -> bool:
        """Whether the file ``rel`` (a relative path found in the folder) is one the earlier build made as it is."""
        if rel == MANIFEST:
            return True  # checked whole by previous_build, and written again by every build
        digest = self.listed.get(rel)
        return digest is not None and file_sha256(self.folder / rel) == digest.lower()

    def why_not(self, rel: str) -> str:
        """Why the file ``rel`` is not the earlier build's (for a message that says why the build stops)."""
        if rel not in self.listed:
            return "is not one of wizprint's files there"
        if os.path.islink(self.folder / rel) or not os.path.isfile(self.folder / rel):
            return "is listed in manifest.json but is not the plain file wizprint wrote (it is a link or a folder)"
        return "changed since wizprint wrote it (its sha256 is not the one in manifest.json)"


def build_game(game_ref: str | Path, out_dir: Path | None = None, opts: BuildOptions | None = None,
               progress: Progress | None = None, *, parent: Path | None = None) -> BuildResult:
    """Build a game into ``out_dir``, or into ``parent/<game id>`` (default ``output/<game id>``)."""
    with _long_lived():  # reading the game too makes many objects that live until the end
        return _build_game(game_ref, out_dir, opts, progress, parent=parent)


def _build_game(game_ref: str | Path, out_dir: Path | None, opts: BuildOptions | None, progress: Progress | None,
                *, parent: Path | None) -> BuildResult:
    opts = opts or BuildOptions()
    opts.kinds()  # an unknown kind of output is said before anything is read
    progress = progress or Silent()
    game = load_game(game_ref)
    layout = load_layout(game)
    _check_names(game, layout, opts)
    out = Path(out_dir) if out_dir is not None else (Path("output") if parent is None else Path(parent)) / game.id
    if out_dir is None and opts.target is not None:
        out = out / name_part(opts.target, "export")  # an export's files: a build folder of their own
    # The whole folder is written into a hidden temporary sibling of `out` and swapped in at the end: killed at any
    # moment, the folder is the old build or the new one; failed or interrupted (Ctrl-C), the sibling (and any
    # parent folder made for it) is removed, and a killed run's by the next build. A folder that is not a build is
    # refused now, before the drawing.
    with StagedFolder(out) as stage:
        # a file that comes out as the earlier build made it is linked, not written again (see StagedFolder)
        stage.reusable = set(previous_build(stage.real, out))
        if opts.makes("svg"):  # a file of the user's where a folder of the build goes: said now, before the drawing
            stage.check_folders(["svg", *(f"svg/{d}" for d in game.decl.decks if game.cards(d))])
        opts = _service_bleed(game, layout, opts)
        # draw (and so check) everything before making any file: a failed build leaves no files behind
        drawn = draw(game, layout, opts.print.bleed, low_ink=opts.low_ink, sheets=opts.makes("sheets"))
        schedule = plan(drawn, dataclasses.replace(opts, folder=stage.real.absolute()))
        files = run(schedule, opts, progress, game.id)
        result = BuildResult(game.id, out, [files[name].output for name in schedule.listed], notes=schedule.notes)
        _write(stage, result, files, schedule.last, progress)
        return result


def _service_bleed(game: Game, layout: GameLayout, opts: BuildOptions) -> BuildOptions:
    """With ``service_bleed``, the options with the bleed the print services built need (generator/services.py),
    when that is more than theirs."""
    if not opts.service_bleed:
        return opts
    sizes = [layout.decks[d].size for d in game.decl.decks]
    need = max((services.needed_bleed(services.service(k), sizes) for k in opts.kinds()
                if k in services.figures().services), default=0.0)
    if need <= opts.print.bleed:
        return opts
    return dataclasses.replace(opts, print=dataclasses.replace(opts.print, bleed=need))


def _check_names(game: Game, layout: GameLayout, opts: BuildOptions) -> None:
    """Every id that becomes part of a file name, checked before anything is drawn (and again, as a whole path,
    by :func:`plan` and StagedFolder.write)."""
    name_part(game.id, "game id")
    for d in game.decl.decks:
        name_part(d, "deck id")
        if opts.makes("svg"):
            for c in game.cards(d):
                name_part(c.id, f"card id (deck {quote(d)})")
            for b in game.decl.decks[d].backs:
                name_part(b, f"back name (deck {quote(d)})")
    for kind in layout.records:
        name_part(kind, "record kind")


@dataclass
class Schedule:
    """The planned build: every job, the files to keep in the manifest's order, and the producers that make a
    file of the whole list last (the manifest)."""

    jobs: list[Job]
    listed: list[str]
    last: list[Producer]
    preload: list[Callable[[], None]] = field(default_factory=list)  # to call before the workers are forked
    notes: list[str] = field(default_factory=list)  # the producers' warnings


def plan(drawn: Drawn, opts: BuildOptions) -> Schedule:
    """Ask every selected producer (and every producer one of them needs) for its plan, in the order of the
    registry. A job's file that no selected producer lists is made but not kept (``--only previews``: the decks'
    PDFs, which the previews are cut from). Two files of one name are a :class:`BuildError` (ids of the game's
    data can make them); a file listed that no job makes is a :class:`WizprintBug`."""
    kinds = opts.kinds()
    needed = {n for k in kinds for n in REGISTRY[k].needs}
    schedule = Schedule([], [], [])
    for name, producer in REGISTRY.items():
        if name not in kinds and name not in needed:
            continue
        p = producer.plan(drawn, opts)
        schedule.jobs += p.jobs
        if p.preload is not None:
            schedule.preload.append(p.preload)
        schedule.notes += p.notes
        if name in kinds:
            schedule.listed += p.files()
            if producer.last is not None:
                schedule.last.append(producer)
    _check_files(schedule)
    return schedule


def _check_files(schedule: Schedule) -> None:
    """Every file of the plan: a name that stays inside the folder, made by one job and listed once."""
    made_by: set[str] = set()
    for job in schedule.jobs:
        for f in job.files:
            safe_relpath(f)
            if f in made_by:
                raise BuildError(f"two files of the output folder have the name {quote(f)}")
            made_by.add(f)
    if len(set(schedule.listed)) != len(schedule.listed):
        twice = next(f for f in schedule.listed if schedule.listed.count(f) > 1)
        raise BuildError(f"two files of the output folder have the name {quote(twice)}")
    if missing := [f for f in schedule.listed if f not in made_by]:
        raise WizprintBug(f"the build lists {quote(missing[0])}, which none of its jobs makes")


def run(schedule: Schedule, opts: BuildOptions, progress: Progress, game_id: str) -> dict[str, Made]:
    """Run every job of ``schedule`` (in ``opts.jobs`` processes when that is worth a worker's start), counting
    each file kept on the progress as it comes: the files kept, by name."""
    jobs = schedule.jobs
    costs = [j.cost for j in jobs]
    # more processes only when the work beside the longest job is worth a worker's start (not for Wizard Cards,
    # whose deck is nearly all of it: there a second process would only add its start and the sending of files)
    worth = sum(costs) - max(costs, default=0.0) >= PARALLEL_WORTH
    workers = max(1, min(opts.jobs, MAX_JOBS)) if worth else 1
    kept = set(schedule.listed)
    files: dict[str, Made] = {}

    def done(i: int, made: list[Made]) -> None:
        names = tuple(f.name for f in made)
        if names != jobs[i].files:
            raise WizprintBug(f"a build job made {list(names)}, not the files it planned: {list(jobs[i].files)}")
        for f in made:
            if f.name in kept:
                files[f.name] = f
                progress.step(f.name)

    if workers > 1:
        for preload in schedule.preload:
            preload()
    # the workers are forked before the progress shows (a progress bar runs a thread of its own)
    with Workers([j.make for j in jobs], workers, here=[i for i, j in enumerate(jobs) if j.here]) as pool:
        progress.start(len(schedule.listed) + len(schedule.last), f"build {game_id}")
        pool.run(done, costs=costs)
    return files


def _write(stage: StagedFolder, result: BuildResult, files: dict[str, Made], last: list[Producer],
           progress: Progress) -> None:
    """Write every file into the temporary folder, carry the user's own files of the earlier build over, write
    the files made from the whole list (the manifest), and swap the folder in."""
    for o in result.outputs:
        stage.write(o.file, files[o.file].payload)
    # the user's own files in the old build (not in its manifest, or changed since) go into the new one before the
    # swap; the build stops here, before the swap, if one of them is where the new build has a file
    earlier = EarlierBuild(stage.real, previous_build(stage.real, result.out_dir))
    # the exports' own build folders inside (output/<game>/tts/) are carried over as they are, without a word
    result.kept = [k for k in stage.carry_over(earlier.made, earlier.why_not) if not _export_file(stage.real, k)]
    finals = [p.last(result.game, result.outputs) for p in last if p.last is not None]
    for f in finals:
        stage.write(f.name, f.payload)
    stage.commit()
    for f in finals:
        progress.step(f.name)
    progress.finish()


def _only_exports(folder: Path) -> bool:
    """Whether ``folder`` holds nothing but exports' build folders, each with its manifest."""
    try:
        entries = list(folder.iterdir())
    except OSError:
        return False
    return all(p.name in exports() and p.is_dir() and not p.is_symlink() and (p / MANIFEST).is_file()
               for p in entries)


def _export_file(folder: Path, rel: str) -> bool:
    """Whether ``rel`` lies in an export's build folder inside ``folder`` (``tts/``, with its own manifest)."""
    top = rel.split("/", 1)[0]
    return "/" in rel and top in exports() and (folder / top / MANIFEST).is_file()


@contextmanager
def _long_lived() -> Iterator[None]:
    """Fewer garbage collections during a build: it makes many objects that live until its end (scenes, PDF
    objects), which Python's collector would otherwise scan over and over (a tenth of the time of a build); and
    the objects made before it (modules, fonts, icons, caches) are set aside for its duration (gc.freeze), so that
    its collections do not scan them either."""
    old = gc.get_threshold()
    mine = gc.get_freeze_count() == 0  # a process that set objects aside itself keeps them as it set them
    if mine:
        gc.freeze()
    gc.set_threshold(max(old[0], 20_000), *old[1:])
    try:
        yield
    finally:
        gc.set_threshold(*old)
        if mine:
            gc.unfreeze()
