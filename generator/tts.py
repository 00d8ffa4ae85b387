"""``wizprint build GAME --for tts``: the game for Tabletop Simulator, in ``output/<game>/tts/`` (a build folder of
its own, with its manifest).

- For each deck, card sheets of at most 10 x 7 cards and 4096 x 4096 pixels (``faces-<deck>-<n>.png``), the
  last slot of each holding the face a hidden card shows (the deck's back), and the deck's back
  (``back-<deck>.png``); a deck whose copies have their own backs (Wizards Cup's Black and White sets) has a
  sheet of backs matching each sheet of faces (``backs-<deck>-<n>.png``), each card on it once per back.
- A saved object per deck (``deck-<deck>.json``): a ``DeckCustom`` holding every card, its ``CustomDeck`` sheets
  keyed 1, 2, ... over the whole game, each card's ``CardID`` its sheet's key x 100 + its slot, its ``Nickname``
  the card's printed title and its ``Description`` its rules text and printed id.
- A saved object of the whole game (``<game>.json``): every deck, the boards, the map and the sheets as Custom
  Tiles, the tokens as Custom Tokens in a bag per kind (two-sided tokens as round tiles, a token having one
  image), laid out as ``layouts/<game>/table.toml`` places them (the rulebook's set-up).

Images are addressed by ``file:///`` URLs of the build folder, or under ``--base-url URL`` for images uploaded
elsewhere. Every image comes from the same drawn faces as the PDFs (generator/raster.py). The figures are in
layouts/services.toml ([tts]), each with its source.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any
from urllib.parse import quote as url_quote

from wizprint.cards.lines import TomlLines
from wizprint.cards.markup import plain
from wizprint.cards.model import Game
from wizprint.cards.schema import ListOf, Number, OneOf, Str, Table, check_data, schema_issues
from wizprint.errors import DataErrors, Issue, UsageError, WizprintBug, quote
from wizprint.resources import layouts_dir

from .drawing import Drawn
from .producing import BuildOptions, Job, Made, Plan, made, name_part, register
from .raster import Page, Place, png_bytes, render, trim_page
from .scene import Scene
from .servicefigures import TtsFigures, figures

TABLE_FILE = "table.toml"  # layouts/<game>/table.toml, or a game folder's own table-layout.toml
OWN_TABLE_FILE = "table-layout.toml"
MAX_CARDS_JSON = 100_000


# -- card sheets ------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Cell:
    """A card on a sheet: its design, the back it has there ("" for a deck's one back), its faces."""

    card: str
    back: str
    front: Scene
    back_scene: Scene


@dataclass(frozen=True)
class Sheet:
    """A card sheet of a deck: its key in CustomDeck, its grid, the size of a card on it, its cells."""

    deck: str
    number: int  # 1, 2, ... within the deck
    key: int  # over the whole game
    cols: int
    rows: int
    cell: tuple[int, int]
    cells: tuple[Cell, ...]
    unique_back: bool

    @property
    def size(self) -> tuple[int, int]:
        return self.cols * self.cell[0], self.rows * self.cell[1]

    @property
    def face_file(self) -> str:
        return f"faces-{self.deck}-{self.number}.png"

    @property
    def back_file(self) -> str:
        return f"backs-{self.deck}-{self.number}.png" if self.unique_back else f"back-{self.deck}.png"


def grid(n: int, tts: TtsFigures) -> tuple[int, int]:
    """The grid of a sheet of ``n`` cards and the hidden face: as few rows as the widest row allows, then as few
    columns as those rows need (at least ``min_grid`` each way)."""
    slots = n + 1
    rows = max(tts.min_grid, -(-slots // tts.columns))
    cols = max(tts.min_grid, -(-slots // rows))
    if rows > tts.rows:
        raise WizprintBug(f"{n} cards do not fit a sheet of {tts.columns} x {tts.rows}")
    return cols, rows


def cell_size(card: tuple[float, float], cols: int, rows: int, tts: TtsFigures, max_px: int) -> tuple[int, int]:
    """The pixels of a card on a sheet: as large as the sheet's largest side allows, at most ``card_dpi``."""
    w, h = card
    cw = min(max_px // cols, round(w / 25.4 * tts.card_dpi))
    ch = round(cw * h / w)
    if ch * rows > max_px:
        ch = max_px // rows
        cw = min(cw, round(ch * w / h))
    return max(1, cw), max(1, ch)


def cells(drawn: Drawn, deck: str) -> list[Cell]:
    """A deck's cards as they go on its sheets: each design once (with its back), or, for a deck whose copies have
    their own backs, each design once per back it has, every card with the first back first."""
    game = drawn.game
    backs = list(game.decl.decks[deck].backs)
    if not backs:
        back = drawn.backs[deck][""]
        return [Cell(c.id, "", drawn.fronts[deck][c.id], back) for c in game.cards(deck)]
    return [Cell(c.id, b, drawn.fronts[deck][c.id], drawn.backs[deck][b])
            for k, b in enumerate(backs, start=1) for c in game.cards(deck) if c.copies >= k]


def sheets(drawn: Drawn, max_px: int) -> dict[str, list[Sheet]]:
    """Every deck's sheets, keyed 1, 2, ... in the order of the decks."""
    tts = figures().tts
    per = tts.columns * tts.rows - 1
    out: dict[str, list[Sheet]] = {}
    key = 0
    for d in drawn.game.decl.decks:
        all_cells = cells(drawn, d)
        if not all_cells:
            continue
        name_part(d, "deck id")
        unique = bool(drawn.game.decl.decks[d].backs)
        size = drawn.layout.decks[d].size
        parts = [tuple(all_cells[k:k + per]) for k in range(0, len(all_cells), per)]
        grids = [grid(len(part), tts) for part in parts]
        # one size for a card on every sheet of the deck (its back image's): the smallest sheet's
        cell = min((cell_size(size, cols, rows, tts, max_px) for cols, rows in grids), key=lambda c: c[0])
        out[d] = []
        for n, (part, (cols, rows)) in enumerate(zip(parts, grids), start=1):
            key += 1
            out[d].append(Sheet(d, n, key, cols, rows, cell, part, unique))
    return out


def _sheet_page(sheet: Sheet, side: str) -> Page:
    """The page of a sheet's faces (or, ``side`` "back", of its backs): each card's trim box in its slot, the
    deck's (first) back in the last slot."""
    cw, ch = sheet.cell
    places = []
    for i, c in enumerate(sheet.cells):
        sc = c.front if side == "front" else c.back_scene
        r, col = divmod(i, sheet.cols)
        places.append(Place(sc, (0, 0, sc.w, sc.h), (col * cw, r * ch, cw, ch)))
    hidden = sheet.cells[0].back_scene
    last = sheet.cols * sheet.rows - 1
    r, col = divmod(last, sheet.cols)
    places.append(Place(hidden, (0, 0, hidden.w, hidden.h), (col * cw, r * ch, cw, ch)))
    return Page(sheet.size, tuple(places))


def _sheet_files(sheet: Sheet, sides: tuple[str, ...]) -> list[Made]:
    images = render([_sheet_page(sheet, s) for s in sides], f"Tabletop Simulator sheet {sheet.deck} {sheet.number}")
    out = []
    for side, im in zip(sides, images):
        name = sheet.face_file if side == "front" else sheet.back_file
        out.append(made(name, "tts", png_bytes(im), 1, deck=sheet.deck, px=list(im.size),
                        grid=[sheet.cols, sheet.rows]))
    return out


def _image_files(name: str, page: Page, what: str) -> list[Made]:
    (im,) = render([page], what)
    return [made(name, "tts", png_bytes(im), 1, px=list(im.size))]


# -- the table --------------------------------------------------------------------------------------------------
_AT = ListOf(Number(-5000, 5000), 2, 2)
PLACE = Table({"what": Str(200, 1), "at": _AT, "turn": (Number(-360, 360), 0.0), "face": (OneOf("up", "down"), "up"),
               "step": (_AT, [0.0, 0.0])})
TABLE = Table({"place": (ListOf(PLACE, 1000), [])})


def table_path(game: Game) -> Path:
    own = game.root / OWN_TABLE_FILE
    return own if own.is_file() else layouts_dir() / game.id / TABLE_FILE


def load_table(game: Game) -> tuple[list[Any], str, TomlLines | None]:
    """The places of ``table.toml`` (none when the game has no such file), its name and lines for messages."""
    from .layout import read_layout_file, shown_path

    p = table_path(game)
    if not p.is_file():
        return [], "", None
    shown = shown_path(game, p)
    data, text = read_layout_file(game, p)
    lines = TomlLines(text)
    rec, problems = check_data(TABLE, data)
    if problems:
        raise DataErrors(schema_issues(problems, shown, lines))
    return list(rec.place), shown, lines


@dataclass
class Thing:
    """Something on the table: its objects (TTS object states, before they are placed), the names a table.toml
    entry can give it (``deck``, ``deck/back``, ``component``, ``component/colour``), and its footprint (mm)."""

    name: str
    objects: list[dict[str, Any]]
    size: tuple[float, float]
    face_down: bool = False
    parts: dict[str, list[dict[str, Any]]] = field(default_factory=dict)  # name/part -> its objects
    split: bool = False  # the parts are other objects than the whole's (a deck by its backs), not some of them


class Tts:
    """The Tabletop Simulator objects of a drawn game: URLs of its images, GUIDs, object states."""

    def __init__(self, drawn: Drawn, opts: BuildOptions):
        self.drawn = drawn
        self.game = drawn.game
        self.tts = figures().tts
        self.base = self._base(opts)
        self.guids: set[str] = set()

    def _base(self, opts: BuildOptions) -> str:
        if opts.base_url is not None:
            return opts.base_url.rstrip("/") + "/"
        if opts.folder is None:
            raise WizprintBug("a Tabletop Simulator build without its folder")
        return opts.folder.as_uri() + "/"

    def url(self, name: str) -> str:
        """The URL of the file ``name`` of the build."""
        return self.base + url_quote(name)

    def guid(self, path: str) -> str:
        """A GUID of six hex digits, the same for the same object of the same game in every build."""
        n = 0
        while True:
            g = hashlib.sha1(f"{self.game.id}/{path}/{n}".encode()).hexdigest()[:6]
            if g not in self.guids:
                self.guids.add(g)
                return g
            n += 1

    def transform(self, x: float = 0.0, y: float = 0.0, z: float = 0.0, turn: float = 0.0, down: bool = False,
                  scale: tuple[float, float, float] = (1.0, 1.0, 1.0)) -> dict[str, float]:
        u = self.tts.mm_per_unit
        return {"posX": round(x / u, 4), "posY": round(1.0 + z, 4), "posZ": round(y / u, 4), "rotX": 0.0,
                "rotY": round((180.0 + turn) % 360.0, 4), "rotZ": 180.0 if down else 0.0,
                "scaleX": round(scale[0], 4), "scaleY": round(scale[1], 4), "scaleZ": round(scale[2], 4)}

    def base_object(self, name: str, path: str, nickname: str, description: str = "") -> dict[str, Any]:
        return {"GUID": self.guid(path), "Name": name, "Transform": self.transform(), "Nickname": nickname,
                "Description": description, "GMNotes": "", "ColorDiffuse": {"r": 1.0, "g": 1.0, "b": 1.0},
                "Locked": False, "Grid": True, "Snap": True, "IgnoreFoW": False, "Autoraise": True, "Sticky": True,
                "Tooltip": True, "GridProjection": False, "HideWhenFaceDown": name in ("Card", "DeckCustom"),
                "Hands": name in ("Card", "DeckCustom"), "LuaScript": "", "LuaScriptState": "", "XmlUI": ""}

    # -- decks
    def custom_deck(self, sheet: Sheet) -> dict[str, Any]:
        return {"FaceURL": self.url(sheet.face_file), "BackURL": self.url(sheet.back_file),
                "NumWidth": sheet.cols, "NumHeight": sheet.rows, "BackIsHidden": True,
                "UniqueBack": sheet.unique_back, "Type": self.tts.card_type}

    def deck_cards(self, deck: str, deck_sheets: Sequence[Sheet], back: str | None = None) -> list[dict[str, Any]]:
        """Every physical card of ``deck`` (with ``back``: only its copies with that back) in the deck's print
        order, as Card objects."""
        from .csvio import printed_titles

        game = self.game
        titles = printed_titles(game, deck, self.drawn.layout)
        slot: dict[tuple[str, str], tuple[Sheet, int]] = {}
        for sh in deck_sheets:
            for i, cell in enumerate(sh.cells):
                slot[(cell.card, cell.back)] = (sh, i)
        backs = list(game.decl.decks[deck].backs)
        order = ([(c, "") for c, _i in game.iter_copies(deck)] if not backs else
                 [(c, b) for k, b in enumerate(backs, start=1) for c, i in game.iter_copies(deck) if i == k])
        w, h = self.drawn.layout.decks[deck].size
        scale = self.card_scale((w, h))
        out = []
        for n, (c, b) in enumerate(order):
            if back is not None and b != back:
                continue
            sh, i = slot[(c.id, b)]
            card = self.base_object("Card", f"deck/{deck}/{n}", titles.get(c.id) or c.name, self.description(c))
            card["Transform"] = self.transform(down=True, scale=scale)
            card["CardID"] = sh.key * 100 + i
            card["SidewaysCard"] = False
            card["CustomDeck"] = {str(sh.key): self.custom_deck(sh)}
            out.append(card)
        return out

    def description(self, c: Any) -> str:
        """A card's description: its rules text, then its printed id (as the face prints it)."""
        try:
            text = plain(self.game.text(c)).strip()
        except Exception:
            text = ""
        pid = f"{self.game.decl.short}\u00b7{c.id}" if self.game.decl.short else c.id
        return f"{text}\n\n{pid}" if text else pid

    def card_scale(self, size: tuple[float, float]) -> tuple[float, float, float]:
        u, (cw, ch) = self.tts.mm_per_unit, self.tts.card_units
        return size[0] / u / cw, 1.0, size[1] / u / ch

    def deck_object(self, deck: str, deck_sheets: Sequence[Sheet], back: str | None = None) -> dict[str, Any]:
        """The deck as one object: a DeckCustom of its cards (a lone card as a Card)."""
        cards = self.deck_cards(deck, deck_sheets, back)
        name = self.game.decl.decks[deck].name + (f" ({back})" if back else "")
        if len(cards) == 1:
            return cards[0]
        obj = self.base_object("DeckCustom", f"deck/{deck}/{back or ''}", name)
        obj["Transform"] = self.transform(down=True, scale=self.card_scale(self.drawn.layout.decks[deck].size))
        obj["SidewaysCard"] = False
        obj["DeckIDs"] = [c["CardID"] for c in cards]
        used = {c["CardID"] // 100 for c in cards}
        obj["CustomDeck"] = {str(sh.key): self.custom_deck(sh) for sh in deck_sheets if sh.key in used}
        obj["ContainedObjects"] = cards
        return obj

    # -- tiles and tokens
    def tile(self, path: str, nickname: str, front: str, back: str | None, size: tuple[float, float],
             kind: int = 0, thickness: float = 0.1) -> dict[str, Any]:
        obj = self.base_object("Custom_Tile", path, nickname)
        s = max(size) / self.tts.mm_per_unit / self.tts.tile_units
        obj["Transform"] = self.transform(scale=(s, 1.0, s))
        obj["CustomImage"] = {"ImageURL": self.url(front), "ImageSecondaryURL": self.url(back or front),
                              "ImageScalar": 1.0, "WidthScale": 0.0,
                              "CustomTile": {"Type": kind, "Thickness": thickness, "Stackable": kind == 2,
                                             "Stretch": kind == 2}}
        return obj

    def token(self, path: str, nickname: str, image: str, d: float) -> dict[str, Any]:
        obj = self.base_object("Custom_Token", path, nickname)
        s = d / self.tts.mm_per_unit / self.tts.token_units
        obj["Transform"] = self.transform(scale=(s, 1.0, s))
        obj["CustomImage"] = {"ImageURL": self.url(image), "ImageSecondaryURL": "", "ImageScalar": 1.0,
                              "WidthScale": 0.0, "CustomToken": {"Thickness": 0.1, "MergeDistancePixels": 15.0,
                                                                 "StandUp": False, "Stackable": True}}
        return obj

    def bag(self, path: str, nickname: str, contents: list[dict[str, Any]]) -> dict[str, Any]:
        obj = self.base_object("Bag", path, nickname)
        obj["MaterialIndex"] = -1
        obj["ContainedObjects"] = contents
        return obj


def saved_object(name: str, objects: list[dict[str, Any]]) -> str:
    """A saved object file (the save file's shape: the objects in ObjectStates)."""
    doc = {"SaveName": name, "GameMode": "", "Date": "", "Gravity": 0.5, "PlayArea": 0.5, "Table": "", "Sky": "",
           "Note": "", "Rules": "", "XmlUI": "", "LuaScript": "", "LuaScriptState": "", "ObjectStates": objects,
           "TabStates": {}, "VersionNumber": ""}
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


# -- the producer -----------------------------------------------------------------------------------------------
TILE_A_JOB = 6


@dataclass(frozen=True)
class Image:
    """An image of the table other than a card sheet: its file, its page, and how it is used."""

    name: str
    page: Page


@register("tts", "Tabletop Simulator's card sheets, a saved object per deck and one of the whole game (--for tts)",
          asked=True)
def tts_plan(drawn: Drawn, opts: BuildOptions) -> Plan:
    figs = figures().tts
    if opts.base_url is not None:
        check_base_url(opts.base_url)
    max_px = min(figs.max_px, opts.tts_max_px or figs.max_px)
    t = Tts(drawn, opts)
    game = drawn.game
    name_part(game.id, "game id")
    by_deck = sheets(drawn, max_px)
    jobs: list[Job] = []
    listed: list[str] = []
    for d, shs in by_deck.items():
        for sh in shs:
            sides = ("front", "back") if sh.unique_back else ("front",)
            files = tuple(sh.face_file if s == "front" else sh.back_file for s in sides)
            jobs.append(Job(files, partial(_sheet_files, sh, sides), cost=8.0 * len(sh.cells) * len(sides)))
            listed += files
        first = shs[0]
        if not first.unique_back:
            back = first.cells[0].back_scene
            page = trim_page(back, first.cell)
            jobs.append(Job((first.back_file,), partial(_image_files, first.back_file, page, f"back of {d}"),
                            cost=8.0))
            listed.append(first.back_file)
    things, images = _table_things(t, drawn, opts, by_deck, max_px)
    for k in range(0, len(images), TILE_A_JOB):
        part = images[k:k + TILE_A_JOB]
        jobs.append(Job(tuple(i.name for i in part), partial(_images, part), cost=20.0 * len(part)))
        listed += [i.name for i in part]
    sizes = _image_sizes(by_deck, images)
    for d, shs in by_deck.items():
        name = f"deck-{d}.json"
        text = saved_object(game.decl.decks[d].name, [t.deck_object(d, shs)])
        jobs.append(Job((name,), partial(_json_file, name, text, d, sizes), cost=1.0))
        listed.append(name)
    placed = _lay_out(t, things, drawn)
    name = f"{game.id}.json"
    jobs.append(Job((name,), partial(_json_file, name, saved_object(game.name, placed), "", sizes), cost=2.0))
    listed.append(name)
    return Plan(jobs, listed=listed, preload=_preload)


def _preload() -> None:
    from .contact import preload

    preload()


def _images(images: Sequence[Image]) -> list[Made]:
    rendered = render([i.page for i in images], "Tabletop Simulator images")
    return [made(i.name, "tts", png_bytes(im), 1, px=list(im.size)) for i, im in zip(images, rendered)]


def _image_sizes(by_deck: Mapping[str, list[Sheet]], images: Sequence[Image]) -> dict[str, tuple[int, int, str]]:
    """Each image the build makes, by name: its size and mode (for the preflight of its saved objects)."""
    sizes: dict[str, tuple[int, int, str]] = {}
    for shs in by_deck.values():
        for sh in shs:
            sizes[sh.face_file] = (*sh.size, "RGB")
            sizes[sh.back_file] = (*(sh.size if sh.unique_back else sh.cell), "RGB")
    for i in images:
        sizes[i.name] = (*i.page.size, "RGBA" if i.page.alpha else "RGB")
    return sizes


def _json_file(name: str, text: str, deck: str, sizes: Mapping[str, tuple[int, int, str]]) -> list[Made]:
    """A saved object, checked as the preflight checks one (its grids, images, card ids) before it is made."""
    from urllib.parse import unquote

    from .preflight import check_tts

    problems = check_tts(json.loads(text), name, lambda url: sizes.get(unquote(url.rsplit("/", 1)[-1])))
    if problems:  # wizprint's own saved object breaks the limits it was made to
        raise WizprintBug(f"{name}: {problems[0]}")
    extra = {"deck": deck} if deck else {}
    return [made(name, "tts", text, 1, **extra)]


def check_base_url(url: str) -> None:
    """``--base-url``: an http(s) or file URL, without spaces or control characters."""
    from urllib.parse import urlparse

    p = urlparse(url)
    if p.scheme not in ("http", "https", "file") or (p.scheme != "file" and not p.netloc) \
            or any(ch.isspace() or not ch.isprintable() for ch in url) or len(url) > 2000:
        raise UsageError(f"--base-url takes the URL of the folder the images will be in, like "
                         f"https://example.org/relic/tts/ (got {quote(url)})")


def _tile_px(size: tuple[float, float], tts: TtsFigures, max_px: int) -> tuple[int, int]:
    w, h = size
    k = min(tts.tile_dpi / 25.4, max_px / max(w, h))
    return max(1, round(w * k)), max(1, round(h * k))


def _table_things(t: Tts, drawn: Drawn, opts: BuildOptions, by_deck: Mapping[str, list[Sheet]], max_px: int
                  ) -> tuple[list[Thing], list[Image]]:
    """Everything the whole game's saved object lays out, and the images its tiles and tokens need."""
    game = drawn.game
    tts = t.tts
    things: list[Thing] = []
    images: list[Image] = []
    for d, shs in by_deck.items():
        size = drawn.layout.decks[d].size
        thing = Thing(d, [t.deck_object(d, shs)], size, face_down=True, split=True)
        for b in game.decl.decks[d].backs:
            thing.parts[f"{d}/{b}"] = [t.deck_object(d, shs, back=b)]
        things.append(thing)

    def tile_of(path: str, title: str, front: Scene, back: Scene | None, file: str) -> dict[str, Any]:
        px = _tile_px((front.w, front.h), tts, max_px)
        images.append(Image(f"{file}.png", trim_page(front, px)))
        back_name = None
        if back is not None:
            back_name = f"{file}-back.png"
            images.append(Image(back_name, trim_page(back, px)))
        return t.tile(path, title, f"{file}.png", back_name, (front.w, front.h))

    if drawn.board is not None:
        comp = next((c for c in game.decl.components if c.kind == "board"), None)
        cid = comp.id if comp is not None else "board"
        name_part(cid, "component id")
        things.append(Thing(cid, [tile_of(f"board/{cid}", comp.name if comp else "Board", drawn.board, None,
                                          f"tile-{cid}")], (drawn.board.w, drawn.board.h)))
    if drawn.playmap is not None:
        pm = drawn.playmap
        name_part(pm.component, "map component id")
        whole = pm.scene(f"{game.id}/{pm.component}")
        things.append(Thing(pm.component, [tile_of(f"map/{pm.component}", pm.title, whole, None,
                                                   f"tile-{pm.component}")], pm.size))
    for kind, rs in drawn.records.items():
        name_part(kind, "record kind")
        objs = [tile_of(f"record/{kind}/{rid}", f"{game.decl.kinds[kind].name}: {_record_name(game, kind, rid)}",
                        front, rs.backs[i] if rs.backs else None, f"tile-{kind}-{name_part(rid, 'record id')}")
                for i, (rid, front) in enumerate(rs.fronts)]
        if objs:
            fw, fh = rs.fronts[0][1].w, rs.fronts[0][1].h
            things.append(Thing(kind, objs, (fw, fh), face_down=True))
    spec = drawn.components.get("dial_boards")
    if spec is not None:
        from .components import dial_board_items

        cid = str(spec.get("component") or "dial-boards")
        name_part(cid, "component id")
        w, h = (float(v) for v in spec["size"])
        thing = Thing(cid, [], (w, h))
        for colour, col in dict(spec["colours"]).items():
            name_part(colour, "colour name")
            sc = Scene(w, h, 0.0, "#ffffff", dial_board_items(spec, colour, col, game.id),
                       key=f"{game.id}/dial-board/{colour}")
            obj = tile_of(f"dial/{cid}/{colour}", f"{spec.get('title') or 'Board'} ({colour})", sc, None,
                          f"tile-{cid}-{colour}")
            thing.objects.append(obj)
            thing.parts[f"{cid}/{colour}"] = [obj]
        things.append(thing)
    things += _sheet_things(t, drawn, opts, tile_of)
    sets = drawn.components.get("tokens")
    if sets:
        things += _token_things(t, drawn, list(sets), images, max_px)
    return things, images


def _record_name(game: Game, kind: str, rid: str) -> str:
    r = next((r for r in game.of_kind(kind) if r.id == rid), None)
    return r.name if r is not None else rid


def _sheet_things(t: Tts, drawn: Drawn, opts: BuildOptions, tile_of: Any) -> list[Thing]:
    from .impose import PAPERS
    from .sheets import load_sheets, sheet_flow

    game = drawn.game
    out = []
    for sid, spec in load_sheets(game).items():
        name_part(sid, "sheet id")
        flow, title = sheet_flow(game, sid, spec, opts.print.paper)
        pw, ph = PAPERS[opts.print.paper]
        pages = [Scene(pw, ph, 0.0, "#ffffff", list(p.items), key=f"{game.id}/sheet/{sid}/{n}")
                 for n, p in enumerate(flow.pages, start=1)]
        objs = []
        for k in range(0, len(pages), 2):
            front, back = pages[k], pages[k + 1] if k + 1 < len(pages) else None
            suffix = f"-{k // 2 + 1}" if len(pages) > 2 else ""
            objs.append(tile_of(f"sheet/{sid}/{k}", title, front, back, f"tile-{sid}{suffix}"))
        out.append(Thing(sid, objs, (pw, ph)))
    return out


def _token_things(t: Tts, drawn: Drawn, sets: list[Mapping[str, Any]], images: list[Image], max_px: int
                  ) -> list[Thing]:
    from .components import token_face

    game = drawn.game
    out: list[Thing] = []
    for k, s in enumerate(sets):
        comp = str(s["component"])
        name_part(comp, "component id")
        d = float(s["diameter"])
        colours = dict(s["colours"]) if "colours" in s else {"": str(s["colour"])}
        n = int(s["per_colour"]) if "colours" in s else int(s["count"])
        title = next((c.name for c in game.decl.components if c.id == comp), comp)
        thing = Thing(comp, [], (d * 3, d * 3))
        for colour, col in colours.items():
            if colour:
                name_part(colour, "colour name")
            tag = f"{comp}-{colour}" if colour else comp
            front = token_face(game, d, col, s.get("icon"), s.get("text"), str(s.get("text_colour", "#ffffff")),
                               f"{game.id}/token/{k}/{colour}/front")
            px = max(1, min(max_px, round((d + 2 * front.bleed) / 25.4 * t.tts.card_dpi)))  # the disc and its bleed
            images.append(Image(f"token-{tag}.png", trim_page(front, (px, px), alpha=True, bleed=True)))
            tokens = []
            for i in range(n):
                path = f"token/{tag}/{i}"
                name = title + (f" ({colour})" if colour else "")
                if s.get("back_colour"):
                    if i == 0:
                        back = token_face(game, d, str(s["back_colour"]), s.get("back_icon"), s.get("back_text"),
                                          str(s.get("back_text_colour", "#ffffff")),
                                          f"{game.id}/token/{k}/{colour}/back")
                        images.append(Image(f"token-{tag}-back.png",
                                            trim_page(back, (px, px), alpha=True, bleed=True)))
                    tokens.append(t.tile(path, name, f"token-{tag}.png", f"token-{tag}-back.png", (d, d),
                                         kind=2))
                else:
                    tokens.append(t.token(path, name, f"token-{tag}.png", d))
            bag = t.bag(f"bag/{tag}", f"{title}" + (f" ({colour})" if colour else "") + f" x{n}", tokens)
            thing.objects.append(bag)
            thing.parts[f"{comp}/{colour}"] = [bag] if colour else []
        out.append(thing)
    return out


def _lay_out(t: Tts, things: list[Thing], drawn: Drawn) -> list[dict[str, Any]]:
    """Every object of ``things`` where table.toml places it (stacked, or each ``step`` from the one before);
    what it does not place goes in a row beyond the far side of what it does. A deck whose copies have their own
    backs is placed whole (one pile) or by back (a pile each)."""
    places, shown, lines = load_table(drawn.game)
    names: dict[str, tuple[Thing, list[dict[str, Any]]]] = {}
    for th in things:
        names[th.name] = (th, th.objects)
        names.update({part: (th, objs) for part, objs in th.parts.items() if objs})
    issues: list[Issue] = []
    out: list[dict[str, Any]] = []
    placed: set[int] = set()
    whole: set[str] = set()
    parts: dict[str, set[str]] = {}

    def put(obj: dict[str, Any], x: float, y: float, z: float, turn: float, down: bool) -> None:
        tr = obj["Transform"]
        obj["Transform"] = t.transform(x, y, z, turn, down, (tr["scaleX"], tr["scaleY"], tr["scaleZ"]))
        out.append(obj)
        placed.add(id(obj))

    for i, p in enumerate(places):
        line = lines.line(("place", i, "what")) if lines else 0
        got = names.get(p.what)
        if got is None:
            issues.append(Issue(shown, line, "", f"place[{i + 1}].what: {quote(p.what)} is not a deck, a deck's back, "
                                                 f"a component or a record kind of the game (these are: "
                                                 f"{', '.join(sorted(names))})"))
            continue
        th, objs = got
        (whole.add(th.name) if p.what == th.name else parts.setdefault(th.name, set()).add(p.what))
        if th.split and th.name in whole and parts.get(th.name):
            issues.append(Issue(shown, line, "", f"place[{i + 1}].what: {quote(th.name)} is placed whole and by its "
                                                 f"backs: place one or the other"))
            continue
        for n, obj in enumerate(o for o in objs if id(o) not in placed):
            stacked = p.step == [0.0, 0.0]
            put(obj, p.at[0] + n * p.step[0], p.at[1] + n * p.step[1], n * 0.15 if stacked else 0.0, p.turn,
                p.face == "down")
    if issues:
        raise DataErrors(issues)
    far = max((o["Transform"]["posZ"] * t.tts.mm_per_unit for o in out), default=0.0) + 300.0
    x = 0.0
    for th in things:
        if th.name in whole:
            continue
        if th.split and parts.get(th.name):
            rest = [o for part, objs in th.parts.items() if part not in parts[th.name] for o in objs]
        else:
            rest = th.objects
        for obj in rest:
            if id(obj) not in placed:
                put(obj, x, far, 0.0, 0.0, th.face_down)
                x += max(th.size) + 40.0
    return out


__all__ = ["MAX_CARDS_JSON", "Sheet", "cell_size", "check_base_url", "grid", "load_table", "saved_object", "sheets"]
