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

from .contact import contact_png
from .csvio import export_csv
from .deckpdf import PrintOptions, deck_pdf
from .faces import FaceBuilder
from .layout import GameLayout, load_layout
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

    def emit(self, name: str, kind: str, data: bytes | str, pages: int = 1, **extra: Any) -> None:
        payload = data.encode("utf-8") if isinstance(data, str) else data
        write_atomic(self.out_dir / name, payload)
        self.outputs.append(Output(name, kind, pages, hashlib.sha256(payload).hexdigest(), dict(extra)))
        self.progress.step(name)


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
    fronts = {d: front_scenes(game, layout, fb, d) for d in game.decl.decks}
    backs = {d: fb.scene(layout.back_face(d), None, d) for d in game.decl.decks}
    sheets = load_sheets(game) if opts.sheets else {}
    known = {c.id for c in game.decl.components}
    for sid in sheets:
        if sid not in known:
            raise WizprintError(f"sheets.toml of {game.id}: '{sid}' is not a component of the game")
    outputs: list[Output] = []
    ctx = Context(game, layout, opts, out, progress, outputs)
    extra = EXTRAS.get(game.id)
    progress.start(_count_steps(game, opts, sheets) + (100 if extra else 0) * 0, f"build {game.id}")
    po = opts.print
    for d, deck in game.decl.decks.items():
        seq = [(c.id, fronts[d][c.id]) for c, _ in game.iter_copies(d)]
        pdf = deck_pdf(f"{game.name} - {deck.name}", seq, backs[d], po)
        ctx.emit(f"cards-{d}.pdf", "cards", pdf.data, pdf.pages, deck=d, cards=len(seq), per_page=pdf.per_page,
                 paper=po.paper, duplex=po.duplex if po.layout == "duplex" else "gutterfold", bleed=po.bleed)
    for sid, spec in sheets.items():
        data, pages = sheet_pdf(game, sid, spec, po.paper)
        ctx.emit(f"sheet-{sid}.pdf", "sheets", data, pages, paper=po.paper)
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
    result = BuildResult(game.id, out, outputs)
    manifest = json.dumps(result.manifest(), indent=2, sort_keys=False) + "\n"
    write_atomic(out / "manifest.json", manifest)
    progress.step("manifest.json")
    progress.finish()
    return result
