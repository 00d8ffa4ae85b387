"""The print services' figures (``layouts/services.toml``: card sizes in pixels and inches, bleed, safe zones,
colour rules, Tabletop Simulator's limits, each naming its source there), how a deck's cards sit on a service's
card, and which decks a service takes. Read by the services' producers (generator/services.py), the preflight, the
DriveThruCards writer and the renderer."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache

from wizprint.cards.schema import ListOf, Number, OneOf, Str, Table, TableOf, Whole, check_data
from wizprint.errors import DataErrors, Issue, WizprintBug, quote
from wizprint.resources import layouts_dir

from .drawing import Drawn
from .producing import name_part
from .scene import Scene

SERVICES_FILE = "services.toml"
MM_PER_IN = 25.4


@dataclass(frozen=True)
class CardSize:
    """A card size a service prints: its cut size (inches), its image with bleed (pixels at the service's dpi),
    and its safe zone (pixels inside the cut)."""

    name: str
    trim: tuple[float, float]
    image: tuple[int, int]
    safe: float
    source: str

    def trim_mm(self) -> tuple[float, float]:
        return self.trim[0] * MM_PER_IN, self.trim[1] * MM_PER_IN


@dataclass(frozen=True)
class Service:
    id: str
    name: str
    files: str  # png | pdf
    colour: str  # rgb | cmyk
    dpi: int
    sizes: tuple[CardSize, ...]
    source: tuple[str, ...]
    ink: float | None = None  # the most total ink of a CMYK colour, in percent
    output_condition: str = ""
    output_info: str = ""

    @property
    def px_per_mm(self) -> float:
        return self.dpi / MM_PER_IN

    @property
    def owner(self) -> str:
        """The service's name as an owner: ``The Game Crafter's``, ``MakePlayingCards'``."""
        return self.name + ("'" if self.name.endswith("s") else "'s")

    def size_for(self, card: tuple[float, float], fit: float) -> CardSize | None:
        """The card size this service prints a ``card`` (w x h mm) at, or None."""
        for s in self.sizes:
            tw, th = s.trim_mm()
            if abs(tw - card[0]) <= fit + 1e-9 and abs(th - card[1]) <= fit + 1e-9:
                return s
        return None


@dataclass(frozen=True)
class Placement:
    """Where a card of ``card`` mm lies on a service's image of ``size``: the image's box in the card's own
    coordinates (mm from its trim's top-left corner, y down), the bleed the card must be drawn with to fill the
    image, and the safe zone in the card's coordinates (x0, y0, x1, y1)."""

    card: tuple[float, float]
    size: CardSize
    dpi: int

    @property
    def px_per_mm(self) -> float:
        return self.dpi / MM_PER_IN

    @property
    def box(self) -> tuple[float, float, float, float]:
        w, h = self.card
        iw, ih = (v / self.px_per_mm for v in self.size.image)
        return (w - iw) / 2, (h - ih) / 2, (w + iw) / 2, (h + ih) / 2

    @property
    def bleed(self) -> float:
        """The bleed (mm) a card needs to cover the image: the most the image reaches past its edges."""
        x0, y0, x1, y1 = self.box
        return max(-x0, -y0, x1 - self.card[0], y1 - self.card[1], 0.0)

    @property
    def safe_box(self) -> tuple[float, float, float, float]:
        w, h = self.card
        tw, th = self.size.trim_mm()
        s = self.size.safe / self.px_per_mm
        return (w - tw) / 2 + s, (h - th) / 2 + s, (w + tw) / 2 - s, (h + th) / 2 - s


@dataclass(frozen=True)
class TtsFigures:
    columns: int
    rows: int
    min_grid: int
    max_px: int
    card_dpi: int
    tile_dpi: int
    colour: str
    card_type: int
    mm_per_unit: float
    card_units: tuple[float, float]
    tile_units: float
    token_units: float
    source: tuple[str, ...]


@dataclass(frozen=True)
class Figures:
    """Everything ``layouts/services.toml`` holds."""

    sources: Mapping[str, str]
    fit: float
    tts: TtsFigures
    services: Mapping[str, Service]


_PX = Number(0, 100_000, above=True)
_SIZE = Table({"name": Str(40, 1), "trim": ListOf(Number(0, 100, above=True), 2, 2),
               "image": ListOf(Whole(1, 100_000), 2, 2), "safe": Number(0, 10_000), "source": Str(60, 1)})
_SERVICE = Table({"name": Str(80, 1), "files": OneOf("png", "pdf"), "colour": OneOf("rgb", "cmyk"),
                  "dpi": Whole(72, 2400), "sizes": ListOf(_SIZE, 50), "source": ListOf(Str(60, 1), 20),
                  "ink": (Number(100, 400), None), "output_condition": (Str(80), ""), "output_info": (Str(200), "")})
_TTS = Table({"name": Str(80), "columns": Whole(1, 100), "rows": Whole(1, 100), "min_grid": Whole(1, 100),
              "max_px": Whole(16, 100_000), "card_dpi": Whole(10, 2400), "tile_dpi": Whole(10, 2400),
              "colour": OneOf("rgb"), "card_type": Whole(0, 4), "mm_per_unit": _PX,
              "card_units": ListOf(_PX, 2, 2), "tile_units": _PX, "token_units": _PX,
              "source": ListOf(Str(60, 1), 20)})
_FILE = Table({"sources": TableOf(Str(2000, 1)), "fit": Table({"mm": Number(0, 20)}), "tts": _TTS,
               "services": TableOf(_SERVICE)})


@cache
def figures() -> Figures:
    """The figures of ``layouts/services.toml`` (shipped data, checked once: a problem there is wizprint's own)."""
    from wizprint.cards.loader import read_toml

    path = layouts_dir() / SERVICES_FILE
    issues: list[Issue] = []
    data = read_toml(path, issues, f"layouts/{SERVICES_FILE}")
    if data is None:
        raise DataErrors(issues)
    rec, problems = check_data(_FILE, data)
    if problems:
        raise WizprintBug(f"layouts/{SERVICES_FILE}: {problems[0][1]} at {problems[0][0]}")
    sources = dict(rec.sources)
    named = [*rec.tts.source, *(s for svc in rec.services.values() for s in svc.source),
             *(z.source for svc in rec.services.values() for z in svc.sizes)]
    if missing := [s for s in named if s not in sources]:
        raise WizprintBug(f"layouts/{SERVICES_FILE}: source {quote(missing[0])} is not in [sources]")
    t = rec.tts
    tts = TtsFigures(t.columns, t.rows, t.min_grid, t.max_px, t.card_dpi, t.tile_dpi, t.colour, t.card_type,
                     t.mm_per_unit, (t.card_units[0], t.card_units[1]), t.tile_units, t.token_units,
                     tuple(t.source))
    services = {sid: Service(sid, s.name, s.files, s.colour, s.dpi,
                             tuple(CardSize(z.name, (z.trim[0], z.trim[1]), (z.image[0], z.image[1]), z.safe,
                                            z.source) for z in s.sizes),
                             tuple(s.source), s.ink, s.output_condition, s.output_info)
                for sid, s in rec.services.items()}
    return Figures(sources, rec.fit.mm, tts, services)


def service(sid: str) -> Service:
    return figures().services[sid]


def placement(svc: Service, card: tuple[float, float]) -> Placement | None:
    """Where a card of ``card`` mm goes on the service's image, or None when the service prints no such size."""
    size = svc.size_for(card, figures().fit)
    return Placement(card, size, svc.dpi) if size is not None else None


def needed_bleed(svc: Service, cards: Sequence[tuple[float, float]]) -> float:
    """The bleed (mm) to draw cards of these sizes with so that each fills the service's image (0 when it prints
    none of them), rounded up to a twentieth of a millimetre."""
    need = max((p.bleed for c in cards if (p := placement(svc, c)) is not None), default=0.0)
    return math.ceil(need * 20 - 1e-9) / 20


def sizes_text(svc: Service) -> str:
    """The card sizes a service prints, for messages: ``poker (2.5 x 3.5 in)``."""
    return ", ".join(f"{s.name} ({s.trim[0]:g} x {s.trim[1]:g} in)" for s in svc.sizes) or "none"


# -- the producers: card files for each print service ----------------------------------------------------------


@dataclass(frozen=True)
class CardFile:
    """One image a service folder holds: its name, the face drawn on it, and for cards.csv its card and copies."""

    name: str
    scene: Scene
    card: str = ""
    title: str = ""
    copies: int = 0


@dataclass(frozen=True)
class Group:
    """The cards of a deck that share one back: a folder of a service's files."""

    deck: str
    back: str  # the back's name ("" for a deck's one back)
    folder: str
    fronts: tuple[tuple[str, Scene, int], ...]  # (design id, front, copies with this back), in the deck's order
    back_scene: Scene


def groups(drawn: Drawn, deck: str) -> list[Group]:
    """A deck's cards by back: one group for a deck with one back, else one per back (its copies with it)."""
    game = drawn.game
    decl = game.decl.decks[deck]
    name_part(deck, "deck id")
    out: list[Group] = []
    backs = list(decl.backs) or [""]
    for k, back in enumerate(backs, start=1):
        fronts: list[tuple[str, Scene, int]] = []
        for c in game.cards(deck):
            n = c.copies if not decl.backs else (1 if c.copies >= k else 0)
            if n:
                fronts.append((c.id, drawn.fronts[deck][c.id], n))
        if not fronts:
            continue
        folder = deck if not decl.backs else f"{deck}-{name_part(back, 'back name')}"
        out.append(Group(deck, back, folder, tuple(fronts), drawn.backs[deck][back]))
    return out


def service_decks(drawn: Drawn, svc: Service) -> tuple[list[tuple[str, Placement]], list[str]]:
    """The decks the service prints (with where their cards go) and those it leaves out (no such card size)."""
    printed: list[tuple[str, Placement]] = []
    left: list[str] = []
    for d in drawn.game.decl.decks:
        if not drawn.game.cards(d):
            continue
        p = placement(svc, drawn.layout.decks[d].size)
        if p is None:
            left.append(d)
        else:
            printed.append((d, p))
    return printed, left
