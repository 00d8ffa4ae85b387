"""``wizprint build``: validate, then write every printable file of a game and its manifest."""

from __future__ import annotations

import dataclasses
import gc
import hashlib
import itertools
import json
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from wizprint.atomic import StagedFolder, file_sha256, name_problem, safe_relpath
from wizprint.cards.loader import load_game
from wizprint.cards.model import Game
from wizprint.errors import BuildError, DataErrors, Issue, WizprintError, quote
from wizprint.files import FileProblem, read_file
from wizprint.finite import loads_json
from wizprint.progress import Progress, Silent

from .board import board_scene
from .components import dial_boards_pdf, load_components, tokens_pdf
from .contact import contact_png, preload
from .csvio import export_csv
from .deckpdf import PrintOptions, deck_pdf, sheet_count
from .faces import FaceBuilder
from .impose import Slot
from .jobs import MAX_JOBS, Workers
from .layout import GameLayout, load_layout
from .lowink import low_ink
from .playmap import check_paper, load_map, map_pdf
from .poster import poster_pdf
from .scene import Scene
from .sheets import load_sheets, sheet_pdf
from .svgout import scene_svg


@dataclass(frozen=True)
class BuildOptions:
    print: PrintOptions = field(default_factory=PrintOptions)
    svg: bool = True
    png: bool = True
    csv: bool = True
    sheets: bool = True
    low_ink: bool = False  # floods as tints with outlines (generator/lowink.py)
    jobs: int = 1  # worker processes for the files (generator/jobs.py); the output is the same for any number


@dataclass
class Output:
    file: str
    kind: str
    pages: int
    sha256: str
    extra: dict[str, Any] = field(default_factory=dict)


MANIFEST = "manifest.json"
PRINTED = ("cards", "sheets", "board", "tokens")  # the kinds of file that are printed on paper
MAX_MANIFEST_BYTES = 64 * 1024 * 1024


@dataclass
class BuildResult:
    game: str
    out_dir: Path
    outputs: list[Output]
    kept: list[str] = field(default_factory=list)  # the user's own files carried over from the earlier build

    @property
    def printable_pages(self) -> int:
        """The pages to print: the PDFs of cards, sheets, boards and tokens (not the SVG, PNG or CSV files)."""
        return sum(o.pages for o in self.outputs if o.kind in PRINTED and o.file.endswith(".pdf"))

    def manifest(self) -> dict[str, Any]:
        return {"game": self.game, "files": [dict(file=o.file, kind=o.kind, pages=o.pages, sha256=o.sha256, **o.extra)
                                             for o in self.outputs]}


# Extra builders for games with boards, tokens and sheets of their own: game id -> function
ExtraBuilder = Callable[["Context"], None]
EXTRAS: dict[str, ExtraBuilder] = {}


@dataclass(frozen=True)
class Made:
    """A file a job made: its name in the output folder, its bytes, and its entry in the manifest."""

    name: str
    payload: bytes
    output: Output


def made(name: str, kind: str, data: bytes | str, pages: int = 1, **extra: Any) -> Made:
    """A file of the build. ``name`` must stay inside the output folder (BuildError otherwise)."""
    safe_relpath(name)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    return Made(name, payload, Output(name, kind, pages, hashlib.sha256(payload).hexdigest(), dict(extra)))


@dataclass
class Context:
    """What an extra builder gets: the game, its layout, options, and ``emit`` to write a file."""

    game: Game
    layout: GameLayout
    opts: BuildOptions
    out_dir: Path
    progress: Progress
    outputs: list[Output]

    pending: list[tuple[str, bytes]] = field(default_factory=list)
    planned: int = 0  # the files the progress counts (manifest.json apart)
    done: int = 0  # the files made so far
    slot: int = 0  # the place in the manifest of the files ``emit`` adds (an extra builder's place)
    by_place: dict[int, list[Made]] = field(default_factory=dict)

    def emit(self, name: str, kind: str, data: bytes | str, pages: int = 1, **extra: Any) -> None:
        """Add a file to the build; nothing is written until every file has been made (see ``write``).
        ``name`` must stay inside the output folder (BuildError otherwise)."""
        self.add(self.slot, [made(name, kind, data, pages, **extra)])

    def add(self, place: int, files: list[Made]) -> None:
        """Files made by a job (in this process or a worker) for a place in the manifest: counted on the progress
        as they come."""
        self.by_place.setdefault(place, []).extend(files)
        for f in files:
            self.done += 1
            if self.done > self.planned:  # a file no plan counted (an extra builder's): the total grows
                self.planned += 1
                self.progress.extend(1)
            self.progress.step(f.name)

    def collect(self) -> None:
        """Every file made, in the manifest's order, into ``outputs`` and ``pending``."""
        for place in sorted(self.by_place):
            for f in self.by_place[place]:
                self.pending.append((f.name, f.payload))
                self.outputs.append(f.output)
        self.by_place.clear()

    def write(self, stage: StagedFolder) -> None:
        """Write every file into the temporary folder that :func:`build_game` swaps in at the end."""
        self.collect()
        for name, payload in self.pending:
            stage.write(name, payload)
        self.pending.clear()


def name_part(value: object, what: str) -> str:
    """An id that becomes one part of a file name (``cards-<deck>.pdf``, ``svg/<deck>/<id>.svg``): checked so
    that every output path stays inside the output folder (BuildError otherwise)."""
    why = name_problem(value) if isinstance(value, str) else "it is not text"
    if why:
        raise BuildError(f"{what} {quote(value)} cannot be part of a file name: {why}")
    assert isinstance(value, str)
    return value


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


def front_scenes(game: Game, layout: GameLayout, fb: FaceBuilder, deck: str) -> dict[str, Scene]:
    """One scene per card design of a deck; every fit or template problem of the deck in one DataErrors."""
    scenes: dict[str, Scene] = {}
    issues: list[Issue] = []
    for card in game.cards(deck):
        try:
            scenes[card.id] = fb.scene(layout.front_face(deck, card.type), card, deck)
        except DataErrors as exc:
            issues.extend(exc.issues)
    from .artcheck import art_issues  # a rule icon is never card art (validate and build both check it here)

    issues.extend(art_issues(game, layout, deck, scenes))
    if issues:
        raise DataErrors(issues)
    return scenes


def record_sheets(game: Game, layout: GameLayout, fb: FaceBuilder, kind: str) -> tuple[list[tuple[str, Scene]],
                                                                                       list[Scene]]:
    """Front and back scenes of every record of a kind that the layout prints as sheets."""
    spec = layout.records[kind]
    fronts: list[tuple[str, Scene]] = []
    backs: list[Scene] = []
    issues: list[Issue] = []
    for r in game.of_kind(kind):
        try:
            fronts.append((r.id, fb.scene(layout.faces[spec.front], r, kind)))
            if spec.back:
                backs.append(fb.scene(layout.faces[spec.back], r, kind))
        except DataErrors as exc:
            issues.extend(exc.issues)
    if issues:
        raise DataErrors(issues)
    return fronts, backs


# the layout files that can draw each kind of component a game declares (a game folder's own names)
DRAWN_BY = {"sheet": ("sheets.toml",), "tokens": ("components-layout.toml",),
            "board": ("board-layout.toml", "map-layout.toml", "components-layout.toml")}


def check_component_files(game: Game, sheets: bool = True) -> list[Issue]:
    """A component of game.toml that no layout file can draw, because the file that draws its kind is neither in
    the game folder nor shipped for the game: one problem naming the missing file, at the component's line."""
    from wizprint.cards.lines import TomlLines
    from wizprint.cards.loader import display_path, read_text

    from .board import board_layout_path
    from .components import components_path
    from .playmap import map_path
    from .sheets import sheets_path

    paths = {"sheets.toml": sheets_path(game), "components-layout.toml": components_path(game),
             "board-layout.toml": board_layout_path(game), "map-layout.toml": map_path(game)}
    missing = [(i, c) for i, c in enumerate(game.decl.components)
               if c.kind in DRAWN_BY and (sheets or c.kind != "sheet")
               and not any(paths[f].is_file() for f in DRAWN_BY[c.kind])]
    if not missing:
        return []
    shown = display_path(game.root / "game.toml")
    lines = TomlLines(read_text(game.root / "game.toml", [], shown) or "")
    return [Issue(shown, lines.line(("components", i)), "",
                  f"component {quote(c.id)} ({c.kind}) is drawn from {' or '.join(DRAWN_BY[c.kind])}: the game "
                  f"folder has no such file (and wizprint ships none for a game '{game.id}')") for i, c in missing]


def check_faces(game: Game, bleed: float = 3.0, warnings: list[Issue] | None = None) -> list[Issue]:
    """Everything that stops the faces of a game from being drawn (used by ``validate``); with a ``warnings`` list,
    also what does not stop them but should be looked at (designs of a deck that share a picture) goes there."""
    try:
        layout = load_layout(game)
    except DataErrors as exc:
        return list(exc.issues)
    fb = FaceBuilder(game, layout, bleed)
    issues: list[Issue] = []
    if warnings is not None:
        from .artcheck import shared_key_issues

        warnings.extend(shared_key_issues(game, layout))
    for deck in game.decl.decks:
        try:
            scenes = front_scenes(game, layout, fb, deck)
            if warnings is not None:
                from .artcheck import shared_pictures

                warnings.extend(shared_pictures(game, layout, deck, scenes))
            for face in layout.back_faces(deck).values():
                fb.scene(face, None, deck)
        except DataErrors as exc:
            issues.extend(exc.issues)
    for kind in layout.records:
        try:
            record_sheets(game, layout, fb, kind)
        except DataErrors as exc:
            issues.extend(exc.issues)
    return issues


def deck_sequence(game: Game, deck: str, fronts: dict[str, Scene], backs: dict[str, Scene]
                  ) -> tuple[list[tuple[str, Scene]], list[Scene], list[tuple[str, int]] | None]:
    """What a deck's PDF prints: every physical card (design id, front), the back of each, and the groups of cards
    that start a sheet of their own (the name of their back, how many; None for a deck with one back). A deck with
    one back prints its designs in file order, each design's copies together; a deck whose copies have their own
    backs (game.toml ``backs``) prints every first copy (with the first back), then every second copy..., each
    back's cards from a new sheet, so that no sheet mixes two backs."""
    decl = game.decl.decks[deck]
    seq: list[tuple[str, Scene]] = []
    if not decl.backs:
        seq = [(c.id, fronts[c.id]) for c, _ in game.iter_copies(deck)]
        return seq, [backs[""]] * len(seq), None
    per_card: list[Scene] = []
    groups: list[tuple[str, int]] = []
    for k, name in enumerate(decl.backs, start=1):
        run = [(c.id, fronts[c.id]) for c, i in game.iter_copies(deck) if i == k]
        seq += run
        per_card += [backs[name]] * len(run)
        groups.append((name, len(run)))
    return seq, per_card, groups


def back_file(deck: str, back: str) -> str:
    """The SVG of a deck's back: ``svg/<deck>/back.svg``, or ``back-<name>.svg`` for each back of a deck whose
    copies have their own."""
    return f"svg/{deck}/back-{name_part(back, 'back name')}.svg" if back else f"svg/{deck}/back.svg"


def shared_sheets(game: Game, seqs: dict[str, tuple[list[tuple[str, Scene]], list[Scene], Any]],
                  opts: PrintOptions) -> dict[str, list[str]]:
    """Which decks print in which deck's file: {host: [guests]}, every deck once. A deck with one back whose
    cards all fit the free slots of an earlier deck's last sheet (same card size) prints there instead of on a
    sheet of its own, each card with its own back (Wizard Cards' 2 reference cards after the 54 spells); a sheet
    of cards whose edge colours then disagree is spaced, so the guests must fit the spaced sheet."""
    decks = list(game.decl.decks)
    plan: dict[str, list[str]] = {}
    taken: set[str] = set()
    for k, d in enumerate(decks):
        if d in taken:
            continue
        seq, card_backs, groups = seqs[d]
        plan[d] = []
        if not seq:
            continue
        size = (card_backs[0].w, card_backs[0].h)
        fronts = [sc for _, sc in seq]
        backs = list(card_backs)
        candidates = [g for g in decks[k + 1:] if g not in taken and seqs[g][2] is None and seqs[g][0]
                      and (seqs[g][1][0].w, seqs[g][1][0].h) == size]
        if not candidates:  # no deck could share its sheets (planning them is a tenth of a big deck's build)
            continue
        alone = sheet_count(len(seq), groups, size, opts, fronts, backs)
        guests: list[tuple[str, int]] = []
        for g in candidates:
            gseq, gbacks, _ = seqs[g]
            if g in taken:
                continue
            with_g = [*guests, (g, len(gseq))]
            n = len(fronts) + len(gseq)
            if sheet_count(n, groups, size, opts, fronts + [sc for _, sc in gseq], backs + list(gbacks),
                           with_g) == alone:
                guests, fronts, backs = with_g, fronts + [sc for _, sc in gseq], backs + list(gbacks)
                plan[d].append(g)
                taken.add(g)
    return plan


Seqs = dict[str, tuple[list[tuple[str, Scene]], list[Scene], list[tuple[str, int]] | None]]


def _deck_files(ctx: Context, host: str, guests: list[str], seqs: Seqs, previews: bool) -> list[Made]:
    """``cards-<host>.pdf``: the host deck, then the decks that share its last sheet; and, with ``previews``, the
    contact sheet of each of those decks, cut from that PDF (so each face is drawn once)."""
    game, po = ctx.game, ctx.opts.print
    deck = game.decl.decks[host]
    seq, card_backs, groups = seqs[host]
    fronts, backs = list(seq), list(card_backs)
    shared: list[tuple[str, int]] = []
    for g in guests:
        gseq, gbacks, _ = seqs[g]
        fronts += gseq
        backs += gbacks
        shared.append((f"with the {game.decl.decks[g].name}", len(gseq)))
    title = " and ".join([f"{game.name} - {deck.name}", *(game.decl.decks[g].name for g in guests)])
    pdf = deck_pdf(title, fronts, backs, po, [(f"{name} backs", n) for name, n in groups] if groups else None,
                   shared)
    extra: dict[str, Any] = {"backs": dict(groups)} if groups else {}  # only decks whose copies have their own backs
    if guests:  # the decks printed in this file, and how many cards each
        extra["decks"] = {host: len(seq), **{g: len(seqs[g][0]) for g in guests}}
    out = [made(f"cards-{host}.pdf", "cards", pdf.data, pdf.pages, deck=host, cards=len(seq), per_page=pdf.per_page,
                paper=po.paper, duplex="gutterfold" if po.imposition == "gutterfold" else po.duplex, bleed=po.bleed,
                layout="gutterfold" if po.imposition == "gutterfold" else pdf.layout, **extra)]
    if previews:
        placed = pdf.fronts_placed()
        start = 0
        for d in [host, *guests]:
            n = len(seqs[d][0])
            # each design where its first copy is, in the order of the deck's file (its designs' first copies)
            first: dict[str, tuple[int, Slot]] = {}
            for pno, slot, cid in placed[start:start + n]:
                first.setdefault(cid, (pno, slot))
            start += n
            face = seqs[d][0][0][1]
            out.append(made(f"preview-{d}.png", "preview", contact_png(pdf.data, list(first.values()),
                                                                       (face.w, face.h)), deck=d))
    return out


def _sheet_files(ctx: Context, sid: str, spec: Any) -> list[Made]:
    po = ctx.opts.print
    data, pages = sheet_pdf(ctx.game, sid, spec, po.paper)
    return [made(f"sheet-{sid}.pdf", "sheets", data, pages, paper=po.paper)]


def _record_files(ctx: Context, kind: str, record: tuple[list[tuple[str, Scene]], list[Scene]]) -> list[Made]:
    """``sheets-<kind>.pdf``: records printed like cards (Relic's character and scenario sheets)."""
    po = ctx.opts.print
    fronts_k, backs_k = record
    name = ctx.game.decl.kinds[kind].name
    sheets_opts = po if backs_k else dataclasses.replace(po, duplex="off")
    pdf = deck_pdf(f"{ctx.game.name} - {name}s", fronts_k, backs_k or [fronts_k[0][1]] * len(fronts_k), sheets_opts)
    return [made(f"sheets-{kind}.pdf", "sheets", pdf.data, pdf.pages, records=len(fronts_k), per_page=pdf.per_page,
                 paper=po.paper, layout="gutterfold" if po.imposition == "gutterfold" else pdf.layout)]


def _poster_files(ctx: Context, board: Scene) -> list[Made]:
    po = ctx.opts.print
    data, ts = poster_pdf(board, po.paper, f"{ctx.game.name} board")
    return [made("board-poster.pdf", "board", data, 1 + len(ts), tiles=len(ts), paper=po.paper)]


def _map_files(ctx: Context, pmap: Any, whole: Scene) -> list[Made]:
    po = ctx.opts.print
    data, pages = map_pdf(pmap, whole, po.paper, f"{ctx.game.name} - {pmap.title}")
    return [made(f"{pmap.component}.pdf", "board", data, pages, sheets=len(pmap.sheets), paper=po.paper)]


def _dial_board_files(ctx: Context, spec: Any) -> list[Made]:
    po = ctx.opts.print
    data, pages = dial_boards_pdf(ctx.game, spec, po.paper)
    return [made("boards-characters.pdf", "board", data, pages, paper=po.paper)]


def _token_files(ctx: Context, sets: list[Any]) -> list[Made]:
    po = ctx.opts.print
    data, pages, counts = tokens_pdf(ctx.game, sets, po.paper, po.duplex, po.back_offset,
                                     "gutterfold" if po.imposition == "gutterfold" else "duplex")
    return [made("tokens.pdf", "tokens", data, pages, tokens=counts, paper=po.paper)]


@dataclass(frozen=True)
class SvgFile:
    name: str
    scene: Scene
    title: str
    kind: str = "svg"
    extra: tuple[tuple[str, Any], ...] = ()


def _svg_files(ctx: Context, files: list[SvgFile]) -> list[Made]:
    return [made(f.name, f.kind, scene_svg(f.scene, f.title), **dict(f.extra)) for f in files]


def _csv_files(ctx: Context) -> list[Made]:
    return [made(f"{ctx.game.id}.csv", "csv", export_csv(ctx.game, layout=ctx.layout), 1)]


def build_game(game_ref: str | Path, out_dir: Path | None = None, opts: BuildOptions | None = None,
               progress: Progress | None = None, *, parent: Path | None = None) -> BuildResult:
    """Build a game into ``out_dir``, or into ``parent/<game id>`` (default ``output/<game id>``)."""
    with _long_lived():  # reading the game too makes many objects that live until the end
        return _build_game(game_ref, out_dir, opts, progress, parent=parent)


def _build_game(game_ref: str | Path, out_dir: Path | None, opts: BuildOptions | None, progress: Progress | None,
                *, parent: Path | None) -> BuildResult:
    opts = opts or BuildOptions()
    progress = progress or Silent()
    game = load_game(game_ref)
    layout = load_layout(game)
    # every id that becomes part of a file name, checked before anything is drawn (and again, as a whole path,
    # by Context.emit and StagedFolder.write)
    name_part(game.id, "game id")
    out = Path(out_dir) if out_dir is not None else (Path("output") if parent is None else Path(parent)) / game.id
    for d in game.decl.decks:
        name_part(d, "deck id")
        if opts.svg:
            for c in game.cards(d):
                name_part(c.id, f"card id (deck {quote(d)})")
            for b in game.decl.decks[d].backs:
                name_part(b, f"back name (deck {quote(d)})")
    for kind in layout.records:
        name_part(kind, "record kind")
    # The whole folder is written into a hidden temporary sibling of `out` and swapped in at the end: killed at any
    # moment, the folder is the old build or the new one; failed or interrupted (Ctrl-C), the sibling (and any
    # parent folder made for it) is removed, and a killed run's by the next build. A folder that is not a build is
    # refused now, before the drawing.
    with StagedFolder(out) as stage:
        # a file that comes out as the earlier build made it is linked, not written again (see StagedFolder)
        stage.reusable = set(previous_build(stage.real, out))
        if opts.svg:  # a file of the user's where a folder of the build goes: said now, before the drawing
            stage.check_folders(["svg", *(f"svg/{d}" for d in game.decl.decks if game.cards(d))])
        return _build(game, layout, out, opts, progress, stage)


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


def _build(game: Game, layout: GameLayout, out: Path, opts: BuildOptions, progress: Progress,
           stage: StagedFolder) -> BuildResult:
    fb = FaceBuilder(game, layout, opts.print.bleed)
    # draw (and so check) everything before writing anything: a failed build leaves no files behind
    issues: list[Issue] = check_component_files(game, opts.sheets)
    fronts: dict[str, dict[str, Scene]] = {}
    for d in game.decl.decks:
        try:
            fronts[d] = front_scenes(game, layout, fb, d)
        except DataErrors as exc:
            issues.extend(exc.issues)
    records: dict[str, tuple[list[tuple[str, Scene]], list[Scene]]] = {}
    for kind in layout.records:
        try:
            records[kind] = record_sheets(game, layout, fb, kind)
        except DataErrors as exc:
            issues.extend(exc.issues)
    board = None
    try:
        board = board_scene(game)
    except DataErrors as exc:
        issues.extend(exc.issues)
    pmap = None
    try:
        pmap = load_map(game, layout)
    except DataErrors as exc:
        issues.extend(exc.issues)
    if issues:
        raise DataErrors(issues)
    backs = {d: {name: fb.scene(face, None, d) for name, face in layout.back_faces(d).items()}
             for d in game.decl.decks}
    if opts.low_ink:
        fronts = {d: {k: low_ink(sc) for k, sc in f.items()} for d, f in fronts.items()}
        backs = {d: {k: low_ink(sc) for k, sc in b.items()} for d, b in backs.items()}
        records = {k: ([(i, low_ink(sc)) for i, sc in fr], [low_ink(sc) for sc in bk])
                   for k, (fr, bk) in records.items()}
        board = low_ink(board) if board is not None else None
    sheets = load_sheets(game) if opts.sheets else {}
    known = {c.id for c in game.decl.components}
    for sid in sheets:
        if sid not in known:
            raise WizprintError(f"sheets.toml of {game.id}: '{sid}' is not a component of the game")
        name_part(sid, "sheet id")
    outputs: list[Output] = []
    ctx = Context(game, layout, opts, out, progress, outputs)
    extra = EXTRAS.get(game.id)
    if pmap is not None:
        name_part(pmap.component, "map component id")
        check_paper(pmap, opts.print.paper)
    comps = load_components(game)
    po = opts.print
    # Every file to make, as jobs: each job makes some files, each file has its place in the manifest (the order
    # below, whichever process makes it and whenever), and the progress counts every file exactly (an extra
    # builder's files are counted as they come).
    jobs: list[Callable[[], list[Made]]] = []
    places: list[list[int]] = []  # for each job, the place in the manifest of each file it makes
    costs: list[float] = []  # a rough guess of each job's time, so that the workers start with the longest
    at = itertools.count()

    def job(fn: Callable[..., list[Made]], *args: Any, files: int = 1, cost: float = 10.0) -> int:
        jobs.append(partial(fn, ctx, *args))
        places.append([next(at) for _ in range(files)])
        costs.append(cost)
        return len(jobs) - 1

    def svgs(batch: list[SvgFile]) -> None:
        for k in range(0, len(batch), SVG_BATCH):
            part = batch[k:k + SVG_BATCH]
            job(_svg_files, part, files=len(part), cost=len(part))

    seqs = {d: deck_sequence(game, d, fronts[d], backs[d]) for d in game.decl.decks}
    deck_jobs: dict[str, int] = {}  # deck -> the job that prints it (its host's)
    for host, guests in shared_sheets(game, seqs, po).items():
        cards = sum(len(seqs[d][0]) for d in [host, *guests])
        designs = sum(len(fronts[d]) for d in [host, *guests])
        j = job(_deck_files, host, guests, seqs, opts.png, cost=designs * (6.0 if opts.png else 4.0) + cards)
        for d in [host, *guests]:
            deck_jobs[d] = j
    for sid, spec in sheets.items():
        job(_sheet_files, sid, spec, cost=30.0)
    for kind in layout.records:
        job(_record_files, kind, records[kind], cost=8.0 * len(records[kind][0]))
    if board is not None:
        svgs([SvgFile("board.svg", board, f"{game.name} board", "board")])
        job(_poster_files, board, cost=40.0)
    if pmap is not None:
        whole = pmap.scene(f"{game.id}/{pmap.component}")
        svgs([SvgFile(f"{pmap.component}.svg", whole, f"{game.name} - {pmap.title}", "board")])
        job(_map_files, pmap, whole, cost=40.0)
    if "dial_boards" in comps:
        job(_dial_board_files, comps["dial_boards"], cost=30.0)
    if comps.get("tokens"):
        job(_token_files, list(comps["tokens"]), cost=30.0)
    here: list[int] = []
    if extra is not None:  # in this process: it may do anything with the context
        here.append(len(jobs))
        jobs.append(partial(_run_extra, ctx, extra, next(at)))
        places.append([])
        costs.append(0.0)
    if opts.svg:
        for d in game.decl.decks:
            batch = [SvgFile(f"svg/{d}/{cid}.svg", sc, f"{game.name} {cid}", extra=(("card", cid),))
                     for cid, sc in fronts[d].items()]
            for name, sc in backs[d].items():
                named: tuple[tuple[str, Any], ...] = (("card", "back"),) + ((("back", name),) if name else ())
                batch.append(SvgFile(back_file(d, name), sc,
                                     f"{game.name} back of {d}" + (f" ({name})" if name else ""), extra=named))
            svgs(batch)
    if opts.png:  # made with the deck's PDF, listed here
        for d in game.decl.decks:
            places[deck_jobs[d]].append(next(at))
    if opts.csv:
        job(_csv_files, cost=10.0)
    ctx.planned = sum(len(p) for p in places)
    # more processes only when the work beside the longest job is worth a worker's start (not for Wizard Cards,
    # whose deck is nearly all of it: there a second process would only add its start and the sending of files)
    worth = sum(costs) - max(costs, default=0.0) >= PARALLEL_WORTH
    workers = max(1, min(opts.jobs, MAX_JOBS)) if worth else 1

    def done(i: int, files: list[Made]) -> None:
        if len(files) != len(places[i]):
            raise AssertionError(f"job {i} made {len(files)} files, not {len(places[i])}")
        for f, p in zip(files, places[i]):
            ctx.add(p, [f])

    if opts.png and workers > 1:
        preload()
    # the workers are forked before the progress shows (a progress bar runs a thread of its own)
    with Workers(jobs, workers, here=here) as pool:
        progress.start(ctx.planned + 1, f"build {game.id}")  # + manifest.json
        pool.run(done, costs=costs)
    ctx.collect()
    result = BuildResult(game.id, out, outputs)
    manifest = json.dumps(result.manifest(), indent=2, sort_keys=False) + "\n"
    ctx.write(stage)
    # the user's own files in the old build (not in its manifest, or changed since) go into the new one before the
    # swap; the build stops here, before the swap, if one of them is where the new build has a file
    earlier = EarlierBuild(stage.real, previous_build(stage.real, out))
    result.kept = stage.carry_over(earlier.made, earlier.why_not)
    stage.write(MANIFEST, manifest)
    stage.commit()
    progress.step(MANIFEST)
    progress.finish()
    return result


SVG_BATCH = 16  # SVG files a job makes (a job per file would spend more on sending than on drawing)
PARALLEL_WORTH = 250.0  # the jobs' costs (about 0.2 ms each) beside the longest job that make workers worth it


def _run_extra(ctx: Context, extra: ExtraBuilder, place: int) -> list[Made]:
    ctx.slot = place
    extra(ctx)
    return []
