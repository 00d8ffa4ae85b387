"""``wizprint build``: validate, then write every printable file of a game and its manifest."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from wizprint.atomic import ensure_dir, write_atomic
from wizprint.cards.loader import load_game
from wizprint.cards.model import Game
from wizprint.errors import DataErrors, Issue, WizprintError
from wizprint.progress import Progress, Silent

from .board import board_scene
from .components import dial_boards_pdf, load_components, tokens_pdf
from .contact import contact_png
from .csvio import export_csv
from .deckpdf import PrintOptions, deck_pdf
from .faces import FaceBuilder
from .layout import GameLayout, load_layout
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


@dataclass
class BuildResult:
    game: str
    out_dir: Path
    outputs: list[Output]

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
        """Add a file to the build; nothing is written until every file has been made (see ``write``)."""
        payload = data.encode("utf-8") if isinstance(data, str) else data
        self.pending.append((name, payload))
        self.outputs.append(Output(name, kind, pages, hashlib.sha256(payload).hexdigest(), dict(extra)))
        self.progress.step(name)

    def write(self) -> None:
        """Write every file, each under a temporary name and then renamed."""
        for name, payload in self.pending:
            write_atomic(self.out_dir / name, payload)
        self.pending.clear()


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
            fb.scene(layout.back_face(deck), None, deck)
        except DataErrors as exc:
            issues.extend(exc.issues)
    for kind in layout.records:
        try:
            record_sheets(game, layout, fb, kind)
        except DataErrors as exc:
            issues.extend(exc.issues)
    return issues


def _count_steps(game: Game, opts: BuildOptions, sheets: dict[str, Any]) -> int:
    n = len(game.decl.decks) * (1 + int(opts.png))
    if opts.svg:
        n += sum(len(game.cards(d)) + 1 for d in game.decl.decks)
    n += len(sheets) if opts.sheets else 0
    return n + int(opts.csv) + 1


def build_game(game_ref: str | Path, out_dir: Path | None = None, opts: BuildOptions | None = None,
               progress: Progress | None = None) -> BuildResult:
    opts = opts or BuildOptions()
    progress = progress or Silent()
    game = load_game(game_ref)
    layout = load_layout(game)
    out = ensure_dir(out_dir if out_dir is not None else Path("output") / game.id)
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
    if issues:
        raise DataErrors(issues)
    backs = {d: fb.scene(layout.back_face(d), None, d) for d in game.decl.decks}
    sheets = load_sheets(game) if opts.sheets else {}
    known = {c.id for c in game.decl.components}
    for sid in sheets:
        if sid not in known:
            raise WizprintError(f"sheets.toml of {game.id}: '{sid}' is not a component of the game")
    outputs: list[Output] = []
    ctx = Context(game, layout, opts, out, progress, outputs)
    extra = EXTRAS.get(game.id)
    steps = _count_steps(game, opts, sheets) + len(layout.records) + (2 if board is not None else 0)
    progress.start(steps, f"build {game.id}")
    po = opts.print
    for d, deck in game.decl.decks.items():
        seq = [(c.id, fronts[d][c.id]) for c, _ in game.iter_copies(d)]
        pdf = deck_pdf(f"{game.name} - {deck.name}", seq, backs[d], po)
        ctx.emit(f"cards-{d}.pdf", "cards", pdf.data, pdf.pages, deck=d, cards=len(seq), per_page=pdf.per_page,
                 paper=po.paper, duplex=po.duplex if po.layout == "duplex" else "gutterfold", bleed=po.bleed)
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
    comps = load_components(game)
    if "dial_boards" in comps:
        data, pages = dial_boards_pdf(game, comps["dial_boards"], po.paper)
        ctx.emit("boards-characters.pdf", "board", data, pages, paper=po.paper)
    if comps.get("tokens"):
        data, pages, counts = tokens_pdf(game, list(comps["tokens"]), po.paper)
        ctx.emit("tokens.pdf", "tokens", data, pages, tokens=counts, paper=po.paper)
    if extra is not None:
        extra(ctx)
    if opts.svg:
        for d in game.decl.decks:
            for cid, sc in fronts[d].items():
                ctx.emit(f"svg/{d}/{cid}.svg", "svg", scene_svg(sc, f"{game.name} {cid}"), card=cid)
            ctx.emit(f"svg/{d}/back.svg", "svg", scene_svg(backs[d], f"{game.name} back of {d}"), card="back")
    if opts.png:
        for d in game.decl.decks:
            ctx.emit(f"preview-{d}.png", "preview", contact_png(f"{game.name} {d}", list(fronts[d].values())), deck=d)
    if opts.csv:
        ctx.emit(f"{game.id}.csv", "csv", export_csv(game), 1)
    ctx.write()
    result = BuildResult(game.id, out, outputs)
    manifest = json.dumps(result.manifest(), indent=2, sort_keys=False) + "\n"
    write_atomic(out / "manifest.json", manifest)
    progress.step("manifest.json")
    progress.finish()
    return result
