"""The built-in output kinds, each a producer registered by name, in the order the manifest lists their files:
decks, sheets, records, board, map, dial-boards, tokens, svg, previews, csv, and the manifest itself.

Each plan function reads the drawn game (:class:`~wizprint.generator.drawing.Drawn`) and the options, checks what
becomes a file name, and returns its jobs; the job functions below make the files (in a worker process or in
the building one: see generator/jobs.py).
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from functools import partial
from typing import Any

from wizprint.cards.model import Game
from wizprint.errors import WizprintError

from .components import dial_boards_pdf, token_riders, tokens_pdf
from .contact import contact_png, preload
from .csvio import export_csv
from .deckpdf import PrintOptions, deck_pdf, rider_room, sheet_count
from .drawing import DeckSequence, Drawn, RecordSheets
from .impose import Slot
from .layout import GameLayout
from .playmap import PlayMap, check_paper, map_pdf
from .poster import poster_pdf
from .producing import BuildOptions, Job, Made, Output, Plan, made, name_part, register
from .scene import Scene
from .sheets import load_sheets, sheet_pdf
from .svgout import scene_svg

MANIFEST = "manifest.json"
SVG_BATCH = 16  # SVG files a job makes (a job per file would spend more on sending than on drawing)


def _layout_name(po: PrintOptions, laid_out: str) -> str:
    """The layout the manifest names for a PDF of cards: gutterfold, or the one its sheets were laid out in."""
    return "gutterfold" if po.imposition == "gutterfold" else laid_out


# -- decks ----------------------------------------------------------------------------------------------------------
@register("decks", "cards-<deck>.pdf: the cards of each deck, fronts and backs", printed=True)
def decks(drawn: Drawn, opts: BuildOptions) -> Plan:
    """One job per file of cards: a deck, with the decks that print on its last sheet (see :func:`shared_sheets`);
    the same job cuts each of those decks' previews from the PDF when previews are made."""
    game = drawn.game
    seqs = {d: drawn.sequence(d) for d in game.decl.decks}
    previews = opts.makes("previews")
    jobs = []
    carrier = token_host(drawn, opts)
    for host, guests in shared_sheets(game, seqs, opts.print, drawn.layout).items():
        printed = [host, *guests]
        cards = sum(len(seqs[d].cards) for d in printed)
        designs = sum(len(drawn.fronts[d]) for d in printed)
        files = (f"cards-{host}.pdf", *((f"preview-{d}.png" for d in printed) if previews else ()))
        jobs.append(Job(files, partial(_deck_files, drawn, opts.print, host, guests, seqs, previews, host == carrier),
                        cost=designs * (6.0 if previews else 4.0) + cards))
    return Plan(jobs, listed=[j.files[0] for j in jobs], preload=preload if previews else None)


def deck_options(po: PrintOptions, layout: GameLayout, deck: str) -> PrintOptions:
    """The print options of a deck's file: ``--layout auto`` lays it out as the deck's layout says (its
    ``sheets``)."""
    sheets = layout.decks[deck].sheets if deck in layout.decks else "auto"
    return dataclasses.replace(po, layout=sheets) if po.imposition == "auto" and sheets != "auto" else po


def shared_sheets(game: Game, seqs: dict[str, DeckSequence], opts: PrintOptions, layout: GameLayout
                  ) -> dict[str, list[str]]:
    """Which decks print in which deck's file: {host: [guests]}, every deck once. A deck with one back whose
    cards all fit the free slots of an earlier deck's last sheet (same card size) prints there instead of on a
    sheet of its own, each card with its own back (Wizard Cards' 2 reference cards after the 54 spells), laid out
    as the host's sheets are."""
    decks = list(game.decl.decks)
    plan: dict[str, list[str]] = {}
    taken: set[str] = set()
    for k, d in enumerate(decks):
        if d in taken:
            continue
        seq = seqs[d]
        plan[d] = []
        if not seq.cards:
            continue
        size = seq.card_size
        fronts = [sc for _, sc in seq.cards]
        backs = list(seq.backs)
        candidates = [g for g in decks[k + 1:] if g not in taken and seqs[g].groups is None and seqs[g].cards
                      and seqs[g].card_size == size]
        if not candidates:  # no deck could share its sheets (planning them is a tenth of a big deck's build)
            continue
        po = deck_options(opts, layout, d)
        alone = sheet_count(len(seq.cards), seq.groups, size, po, fronts, backs)
        guests: list[tuple[str, int]] = []
        for g in candidates:
            guest = seqs[g]
            if g in taken:
                continue
            with_g = [*guests, (g, len(guest.cards))]
            n = len(fronts) + len(guest.cards)
            if sheet_count(n, seq.groups, size, po, fronts + [sc for _, sc in guest.cards],
                           backs + list(guest.backs), with_g) == alone:
                guests, fronts, backs = with_g, fronts + [sc for _, sc in guest.cards], backs + list(guest.backs)
                plan[d].append(g)
                taken.add(g)
    return plan


def token_host(drawn: Drawn, opts: BuildOptions) -> str | None:
    """The deck whose file prints the game's tokens on the empty rows of its last sheet (the first in the game's
    order of decks where they all fit), or None: the tokens then have tokens.pdf. Not in gutterfold, nor with
    ``--duplex off`` for tokens with a back, nor in a build that makes only one of the two kinds of file."""
    sets = drawn.components.get("tokens")
    po = opts.print
    if not sets or po.imposition == "gutterfold" or not (opts.makes("decks") and opts.makes("tokens")):
        return None
    game = drawn.game
    riders, _ = token_riders(game, list(sets), po.paper)
    if po.duplex == "off" and any(b is not None for _, b in riders.faces):
        return None
    seqs = {d: drawn.sequence(d) for d in game.decl.decks}
    for host, guests in shared_sheets(game, seqs, po, drawn.layout).items():
        seq = seqs[host]
        if not seq.cards:
            continue
        fronts = [sc for _, sc in seq.cards] + [sc for g in guests for _, sc in seqs[g].cards]
        backs = list(seq.backs) + [b for g in guests for b in seqs[g].backs]
        room = rider_room(len(fronts), seq.groups, seq.card_size, deck_options(po, drawn.layout, host), fronts,
                          backs, [(g, len(seqs[g].cards)) for g in guests])
        if room is not None and len(riders.pack(*room)) == len(riders.faces):
            return host
    return None


def _deck_files(drawn: Drawn, po: PrintOptions, host: str, guests: list[str], seqs: dict[str, DeckSequence],
                previews: bool, tokens: bool = False) -> list[Made]:
    """``cards-<host>.pdf``: the host deck, then the decks that share its last sheet (and with ``tokens``, the
    game's tokens on its empty rows); and, with ``previews``, the contact sheet of each of those decks, cut from
    that PDF (so each face is drawn once)."""
    game = drawn.game
    deck = game.decl.decks[host]
    seq = seqs[host]
    fronts, backs = list(seq.cards), list(seq.backs)
    shared: list[tuple[str, int]] = []
    for g in guests:
        fronts += seqs[g].cards
        backs += seqs[g].backs
        shared.append((f"with the {game.decl.decks[g].name}", len(seqs[g].cards)))
    title = " and ".join([f"{game.name} - {deck.name}", *(game.decl.decks[g].name for g in guests)])
    groups = seq.groups
    riders, counts = token_riders(game, list(drawn.components["tokens"]), po.paper) if tokens else (None, {})
    pdf = deck_pdf(title, fronts, backs, deck_options(po, drawn.layout, host),
                   [(f"{name} backs", n) for name, n in groups] if groups else None, shared, riders)
    extra: dict[str, Any] = {"backs": dict(groups)} if groups else {}  # only decks whose copies have their own backs
    if guests:  # the decks printed in this file, and how many cards each
        extra["decks"] = {host: len(seq.cards), **{g: len(seqs[g].cards) for g in guests}}
    if counts:  # the tokens on its last sheet, by component
        extra["tokens"] = counts
    out = [made(f"cards-{host}.pdf", "cards", pdf.data, pdf.pages, deck=host, cards=len(seq.cards),
                per_page=pdf.per_page, paper=po.paper, duplex="gutterfold" if po.imposition == "gutterfold"
                else po.duplex, bleed=po.bleed, layout=_layout_name(po, pdf.layout), **extra)]
    if previews:
        placed = pdf.fronts_placed()
        start = 0
        for d in [host, *guests]:
            n = len(seqs[d].cards)
            # each design where its first copy is, in the order of the deck's file (its designs' first copies)
            first: dict[str, tuple[int, Slot]] = {}
            for pno, slot, cid in placed[start:start + n]:
                first.setdefault(cid, (pno, slot))
            start += n
            face = seqs[d].cards[0][1]
            out.append(made(f"preview-{d}.png", "preview", contact_png(pdf.data, list(first.values()),
                                                                       (face.w, face.h)), deck=d,
                            faces=list(first)))  # the face in each cell, in reading order
    return out


# -- sheets and records ---------------------------------------------------------------------------------------------
@register("sheets", "sheet-<id>.pdf: the game's printed sheets (sheets.toml: reference and quick-reference sheets)",
          printed=True)
def sheets(drawn: Drawn, opts: BuildOptions) -> Plan:
    game = drawn.game
    specs = load_sheets(game)
    known = {c.id for c in game.decl.components}
    for sid in specs:
        if sid not in known:
            raise WizprintError(f"sheets.toml of {game.id}: '{sid}' is not a component of the game")
        name_part(sid, "sheet id")
    return Plan([Job((f"sheet-{sid}.pdf",), partial(_sheet_files, drawn, opts.print, sid, spec), cost=30.0)
                 for sid, spec in specs.items()])


def _sheet_files(drawn: Drawn, po: PrintOptions, sid: str, spec: Any) -> list[Made]:
    data, pages = sheet_pdf(drawn.game, sid, spec, po.paper)
    return [made(f"sheet-{sid}.pdf", "sheets", data, pages, paper=po.paper)]


@register("records", "sheets-<kind>.pdf: records printed like cards (Relic's character and scenario sheets)",
          printed=True)
def records(drawn: Drawn, opts: BuildOptions) -> Plan:
    return Plan([Job((f"sheets-{kind}.pdf",), partial(_record_files, drawn, opts.print, kind, rs),
                     cost=8.0 * len(rs.fronts)) for kind, rs in drawn.records.items()])


def _record_files(drawn: Drawn, po: PrintOptions, kind: str, rs: RecordSheets) -> list[Made]:
    game = drawn.game
    name = game.decl.kinds[kind].name
    sheets_opts = po if rs.backs else dataclasses.replace(po, duplex="off")
    pdf = deck_pdf(f"{game.name} - {name}s", rs.fronts, rs.backs or [rs.fronts[0][1]] * len(rs.fronts), sheets_opts)
    return [made(f"sheets-{kind}.pdf", "sheets", pdf.data, pdf.pages, records=len(rs.fronts), per_page=pdf.per_page,
                 paper=po.paper, layout=_layout_name(po, pdf.layout))]


# -- board, map, dial boards, tokens ----------------------------------------------------------------------------------
@register("board", "board.svg and board-poster.pdf: the board, whole and in tiles to tape together", printed=True)
def board(drawn: Drawn, opts: BuildOptions) -> Plan:
    if drawn.board is None:
        return Plan()
    svg = SvgFile("board.svg", drawn.board, f"{drawn.game.name} board", "board")
    return Plan([*svg_jobs([svg]), Job(("board-poster.pdf",), partial(_poster_files, drawn, opts.print, drawn.board),
                                       cost=40.0)])


def _poster_files(drawn: Drawn, po: PrintOptions, scene: Scene) -> list[Made]:
    data, ts = poster_pdf(scene, po.paper, f"{drawn.game.name} board")
    return [made("board-poster.pdf", "board", data, 1 + len(ts), tiles=len(ts), paper=po.paper)]


@register("map", "<map>.svg and <map>.pdf: the play mat, whole and in the sheets it is printed on", printed=True)
def playmap(drawn: Drawn, opts: BuildOptions) -> Plan:
    pmap = drawn.playmap
    if pmap is None:
        return Plan()
    name_part(pmap.component, "map component id")
    check_paper(pmap, opts.print.paper)
    game = drawn.game
    whole = pmap.scene(f"{game.id}/{pmap.component}")
    svg = SvgFile(f"{pmap.component}.svg", whole, f"{game.name} - {pmap.title}", "board")
    return Plan([*svg_jobs([svg]), Job((f"{pmap.component}.pdf",),
                                       partial(_map_files, drawn, opts.print, pmap, whole), cost=40.0)])


def _map_files(drawn: Drawn, po: PrintOptions, pmap: PlayMap, whole: Scene) -> list[Made]:
    data, pages = map_pdf(pmap, whole, po.paper, f"{drawn.game.name} - {pmap.title}")
    return [made(f"{pmap.component}.pdf", "board", data, pages, sheets=len(pmap.sheets), paper=po.paper)]


@register("dial-boards", "boards-characters.pdf: the character boards with their dials (Relic)", printed=True)
def dial_boards(drawn: Drawn, opts: BuildOptions) -> Plan:
    spec = drawn.components.get("dial_boards")
    if spec is None:
        return Plan()
    return Plan([Job(("boards-characters.pdf",), partial(_dial_board_files, drawn, opts.print, spec), cost=30.0)])


def _dial_board_files(drawn: Drawn, po: PrintOptions, spec: Any) -> list[Made]:
    data, pages = dial_boards_pdf(drawn.game, spec, po.paper)
    return [made("boards-characters.pdf", "board", data, pages, paper=po.paper)]


@register("tokens", "tokens.pdf: the round tokens, fronts and backs", printed=True)
def tokens(drawn: Drawn, opts: BuildOptions) -> Plan:
    sets = drawn.components.get("tokens")
    if not sets or token_host(drawn, opts) is not None:  # none, or on the last sheet of a deck's file
        return Plan()
    return Plan([Job(("tokens.pdf",), partial(_token_files, drawn, opts.print, list(sets)), cost=30.0)])


def _token_files(drawn: Drawn, po: PrintOptions, sets: list[Any]) -> list[Made]:
    data, pages, counts = tokens_pdf(drawn.game, sets, po.paper, po.duplex, po.back_offset,
                                     "gutterfold" if po.imposition == "gutterfold" else "duplex")
    return [made("tokens.pdf", "tokens", data, pages, tokens=counts, paper=po.paper)]


# -- SVG, previews, CSV ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class SvgFile:
    """A face to write as a standalone SVG file."""

    name: str
    scene: Scene
    title: str
    kind: str = "svg"
    extra: tuple[tuple[str, Any], ...] = ()  # more fields of its manifest entry


def svg_jobs(files: list[SvgFile]) -> list[Job]:
    """Jobs that write ``files``, :data:`SVG_BATCH` a job."""
    return [Job(tuple(f.name for f in part), partial(_svg_files, part), cost=len(part))
            for part in (files[k:k + SVG_BATCH] for k in range(0, len(files), SVG_BATCH))]


def _svg_files(files: list[SvgFile]) -> list[Made]:
    return [made(f.name, f.kind, scene_svg(f.scene, f.title), **dict(f.extra)) for f in files]


def back_file(deck: str, back: str) -> str:
    """The SVG of a deck's back: ``svg/<deck>/back.svg``, or ``back-<name>.svg`` for each back of a deck whose
    copies have their own."""
    return f"svg/{deck}/back-{name_part(back, 'back name')}.svg" if back else f"svg/{deck}/back.svg"


@register("svg", "svg/<deck>/<card>.svg: every card design and back as a single SVG")
def svg(drawn: Drawn, opts: BuildOptions) -> Plan:
    game = drawn.game
    jobs: list[Job] = []
    for d in game.decl.decks:
        batch = [SvgFile(f"svg/{d}/{cid}.svg", sc, f"{game.name} {cid}", extra=(("card", cid),))
                 for cid, sc in drawn.fronts[d].items()]
        for name, sc in drawn.backs[d].items():
            named: tuple[tuple[str, Any], ...] = (("card", "back"),) + ((("back", name),) if name else ())
            batch.append(SvgFile(back_file(d, name), sc, f"{game.name} back of {d}" + (f" ({name})" if name else ""),
                                 extra=named))
        jobs += svg_jobs(batch)
    return Plan(jobs)


@register("previews", "preview-<deck>.png: a contact sheet of each deck's designs, cut from its PDF",
          needs=("decks",))
def previews(drawn: Drawn, opts: BuildOptions) -> Plan:
    return Plan(listed=[f"preview-{d}.png" for d in drawn.game.decl.decks])  # made by the decks' jobs


@register("csv", "<game>.csv: the cards as CSV, one row per design (as 'wizprint export csv' writes it)")
def csv(drawn: Drawn, opts: BuildOptions) -> Plan:
    name = f"{drawn.game.id}.csv"
    return Plan([Job((name,), partial(_csv_files, drawn, name), cost=10.0)])


def _csv_files(drawn: Drawn, name: str) -> list[Made]:
    return [made(name, "csv", export_csv(drawn.game, layout=drawn.layout), 1)]


# -- the manifest ---------------------------------------------------------------------------------------------------
def manifest(game: str, outputs: list[Output]) -> dict[str, Any]:
    """The manifest of a build: every file it made, with its kind, pages and sha256 (and what its kind adds)."""
    return {"game": game, "files": [dict(file=o.file, kind=o.kind, pages=o.pages, sha256=o.sha256, **o.extra)
                                    for o in outputs]}


def _manifest_file(game: str, outputs: list[Output]) -> Made:
    return Made(MANIFEST, (json.dumps(manifest(game, outputs), indent=2, sort_keys=False) + "\n").encode("utf-8"),
                Output(MANIFEST, "manifest", 1, ""))


@register("manifest", "manifest.json, every file of the build with its kind, pages and sha256, is how the next build "
          "knows the folder is wizprint's", always=True, last=_manifest_file)
def manifest_plan(drawn: Drawn, opts: BuildOptions) -> Plan:
    return Plan()  # its file is made last, from every other file's entry (Producer.last)
