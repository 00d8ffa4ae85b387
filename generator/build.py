"""``wizprint build``: validate, then write every printable file of a game and its manifest."""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from wizprint.atomic import StagedFolder, name_problem, safe_relpath
from wizprint.cards.loader import load_game
from wizprint.cards.model import Game
from wizprint.errors import BuildError, DataErrors, Issue, WizprintError, quote
from wizprint.progress import Progress, Silent

from .board import board_scene
from .components import dial_boards_pdf, load_components, tokens_pdf
from .contact import contact_png
from .csvio import export_csv
from .deckpdf import PrintOptions, deck_pdf
from .faces import FaceBuilder
from .layout import GameLayout, load_layout
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


@dataclass
class Output:
    file: str
    kind: str
    pages: int
    sha256: str
    extra: dict[str, Any] = field(default_factory=dict)


MANIFEST = "manifest.json"
MAX_MANIFEST_BYTES = 64 * 1024 * 1024


@dataclass
class BuildResult:
    game: str
    out_dir: Path
    outputs: list[Output]
    kept: list[str] = field(default_factory=list)  # the user's own files carried over from the earlier build

    def manifest(self) -> dict[str, Any]:
        return {"game": self.game, "files": [dict(file=o.file, kind=o.kind, pages=o.pages, sha256=o.sha256, **o.extra)
                                             for o in self.outputs]}


# Extra builders for games with boards, tokens and sheets of their own: game id -> function
ExtraBuilder = Callable[["Context"], None]
EXTRAS: dict[str, ExtraBuilder] = {}


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

    def emit(self, name: str, kind: str, data: bytes | str, pages: int = 1, **extra: Any) -> None:
        """Add a file to the build; nothing is written until every file has been made (see ``write``).
        ``name`` must stay inside the output folder (BuildError otherwise)."""
        safe_relpath(name)
        payload = data.encode("utf-8") if isinstance(data, str) else data
        self.pending.append((name, payload))
        self.outputs.append(Output(name, kind, pages, hashlib.sha256(payload).hexdigest(), dict(extra)))
        self.progress.step(name)

    def write(self, stage: StagedFolder) -> None:
        """Write every file into the temporary folder that :func:`build_game` swaps in at the end."""
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


def previous_build(folder: Path, shown_as: Path | None = None) -> set[str]:
    """The files that the earlier build in ``folder`` made, as listed by its manifest.json (an empty set for a
    missing or empty folder). A folder that is not a wizprint build is refused with a :class:`BuildError`: the
    build never swaps away, moves or deletes the user's own files."""
    where = shown_as or folder
    if not os.path.lexists(folder):
        return set()
    if not folder.is_dir():
        raise BuildError(f"output folder {where} exists and is not a folder")
    try:
        with os.scandir(folder) as it:
            if next(it, None) is None:
                return set()
    except OSError as exc:
        raise BuildError(f"cannot read output folder {where}: {exc.strerror or exc}") from None
    mpath = folder / MANIFEST
    refuse = (f"output folder {where} is not empty and is not a wizprint build ({{}}); wizprint leaves it alone: "
              f"choose a new or empty folder")
    if mpath.is_symlink() or not mpath.is_file():
        raise BuildError(refuse.format("it has no manifest.json"))
    try:
        if mpath.stat().st_size > MAX_MANIFEST_BYTES:
            raise ValueError
        data = json.loads(mpath.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError):
        raise BuildError(refuse.format("its manifest.json was not written by wizprint")) from None
    files = data.get("files") if isinstance(data, dict) else None
    if not (isinstance(data, dict) and isinstance(data.get("game"), str) and isinstance(files, list)
            and all(isinstance(f, dict) and isinstance(f.get("file"), str) and isinstance(f.get("sha256"), str)
                    for f in files)):
        raise BuildError(refuse.format("its manifest.json was not written by wizprint"))
    return {f["file"] for f in files}


def front_scenes(game: Game, layout: GameLayout, fb: FaceBuilder, deck: str) -> dict[str, Scene]:
    """One scene per card design of a deck; every fit or template problem of the deck in one DataErrors."""
    scenes: dict[str, Scene] = {}
    issues: list[Issue] = []
    for card in game.cards(deck):
        try:
            scenes[card.id] = fb.scene(layout.front_face(deck, card.type), card, deck)
        except DataErrors as exc:
            issues.extend(exc.issues)
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


def check_faces(game: Game, bleed: float = 3.0) -> list[Issue]:
    """Everything that stops the faces of a game from being drawn (used by ``validate``)."""
    try:
        layout = load_layout(game)
    except DataErrors as exc:
        return list(exc.issues)
    fb = FaceBuilder(game, layout, bleed)
    issues: list[Issue] = []
    for deck in game.decl.decks:
        try:
            front_scenes(game, layout, fb, deck)
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


def _count_steps(game: Game, opts: BuildOptions, sheets: dict[str, Any]) -> int:
    n = len(game.decl.decks) * (1 + int(opts.png))
    if opts.svg:
        n += sum(len(game.cards(d)) + max(1, len(decl.backs)) for d, decl in game.decl.decks.items())
    n += len(sheets) if opts.sheets else 0
    return n + int(opts.csv) + 1


def build_game(game_ref: str | Path, out_dir: Path | None = None, opts: BuildOptions | None = None,
               progress: Progress | None = None) -> BuildResult:
    opts = opts or BuildOptions()
    progress = progress or Silent()
    game = load_game(game_ref)
    layout = load_layout(game)
    # every id that becomes part of a file name, checked before anything is drawn (and again, as a whole path,
    # by Context.emit and StagedFolder.write)
    name_part(game.id, "game id")
    out = Path(out_dir) if out_dir is not None else Path("output") / game.id
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
        previous_build(stage.real, out)
        return _build(game, layout, out, opts, progress, stage)


def _build(game: Game, layout: GameLayout, out: Path, opts: BuildOptions, progress: Progress,
           stage: StagedFolder) -> BuildResult:
    fb = FaceBuilder(game, layout, opts.print.bleed)
    # draw (and so check) everything before writing anything: a failed build leaves no files behind
    issues: list[Issue] = []
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
    steps = (_count_steps(game, opts, sheets) + len(layout.records) + (2 if board is not None else 0)
             + (2 if pmap is not None else 0) + int("dial_boards" in comps) + int(bool(comps.get("tokens"))))
    progress.start(steps, f"build {game.id}")
    po = opts.print
    for d, deck in game.decl.decks.items():
        seq, card_backs, groups = deck_sequence(game, d, fronts[d], backs[d])
        pdf = deck_pdf(f"{game.name} - {deck.name}", seq, card_backs, po,
                       [(f"{name} backs", n) for name, n in groups] if groups else None)
        by_back = {"backs": dict(groups)} if groups else {}  # only decks whose copies have their own backs
        ctx.emit(f"cards-{d}.pdf", "cards", pdf.data, pdf.pages, deck=d, cards=len(seq), per_page=pdf.per_page,
                 paper=po.paper, duplex=po.duplex if po.layout == "duplex" else "gutterfold", bleed=po.bleed,
                 **by_back)
    for sid, spec in sheets.items():
        data, pages = sheet_pdf(game, sid, spec, po.paper)
        ctx.emit(f"sheet-{sid}.pdf", "sheets", data, pages, paper=po.paper)
    for kind in layout.records:
        fronts_k, backs_k = records[kind]
        name = game.decl.kinds[kind].name
        sheets_opts = po if backs_k else PrintOptions(po.paper, po.bleed, "off", po.back_offset, po.marks, po.layout)
        pdf = deck_pdf(f"{game.name} - {name}s", fronts_k, backs_k or [fronts_k[0][1]] * len(fronts_k), sheets_opts)
        ctx.emit(f"sheets-{kind}.pdf", "sheets", pdf.data, pdf.pages, records=len(fronts_k), per_page=pdf.per_page,
                 paper=po.paper)
    if board is not None:
        ctx.emit("board.svg", "board", scene_svg(board, f"{game.name} board"), 1)
        data, ts = poster_pdf(board, po.paper, f"{game.name} board")
        ctx.emit("board-poster.pdf", "board", data, 1 + len(ts), tiles=len(ts), paper=po.paper)
    if pmap is not None:
        whole = pmap.scene(f"{game.id}/{pmap.component}")
        ctx.emit(f"{pmap.component}.svg", "board", scene_svg(whole, f"{game.name} - {pmap.title}"), 1)
        data, pages = map_pdf(pmap, whole, po.paper, f"{game.name} - {pmap.title}")
        ctx.emit(f"{pmap.component}.pdf", "board", data, pages, sheets=len(pmap.sheets), paper=po.paper)
    if "dial_boards" in comps:
        data, pages = dial_boards_pdf(game, comps["dial_boards"], po.paper)
        ctx.emit("boards-characters.pdf", "board", data, pages, paper=po.paper)
    if comps.get("tokens"):
        data, pages, counts = tokens_pdf(game, list(comps["tokens"]), po.paper, po.duplex, po.back_offset,
                                         po.layout)
        ctx.emit("tokens.pdf", "tokens", data, pages, tokens=counts, paper=po.paper)
    if extra is not None:
        extra(ctx)
    if opts.svg:
        for d in game.decl.decks:
            for cid, sc in fronts[d].items():
                ctx.emit(f"svg/{d}/{cid}.svg", "svg", scene_svg(sc, f"{game.name} {cid}"), card=cid)
            for name, sc in backs[d].items():
                what = f"{game.name} back of {d}" + (f" ({name})" if name else "")
                named: dict[str, Any] = {"back": name} if name else {}
                ctx.emit(back_file(d, name), "svg", scene_svg(sc, what), card="back", **named)
    if opts.png:
        for d in game.decl.decks:
            ctx.emit(f"preview-{d}.png", "preview", contact_png(f"{game.name} {d}", list(fronts[d].values())), deck=d)
    if opts.csv:
        ctx.emit(f"{game.id}.csv", "csv", export_csv(game), 1)
    result = BuildResult(game.id, out, outputs)
    manifest = json.dumps(result.manifest(), indent=2, sort_keys=False) + "\n"
    ctx.write(stage)
    # the user's own files in the old build (not in its manifest) go into the new one before the swap
    listed = previous_build(stage.real, out) | {MANIFEST}
    result.kept = stage.carry_over(lambda rel: rel in listed)
    stage.write(MANIFEST, manifest)
    stage.commit()
    progress.step(MANIFEST)
    progress.finish()
    return result
