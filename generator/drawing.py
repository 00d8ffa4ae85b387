"""Drawing a game for a build: every face (and so every check) before any file is made.

:func:`draw` draws every card front and back, the record sheets, the board and the map, collecting every
problem into one :class:`~wizprint.errors.DataErrors`, so that a build that fails leaves no files behind and
names every problem at once; the producers (``generator/producers.py``) plan their files from what it drew.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any, NamedTuple, TypeVar

from wizprint.cards.model import Game
from wizprint.errors import DataErrors, Issue, quote

from .board import board_scene
from .faces import FaceBuilder
from .layout import GameLayout, load_layout
from .lowink import low_ink as tinted
from .playmap import PlayMap, load_map
from .scene import Scene

T = TypeVar("T")

Front = tuple[str, Scene]  # a card (or record) to print: its design id and its front


class RecordSheets(NamedTuple):
    """The records of a kind that the layout prints like cards (Relic's character and scenario sheets)."""

    fronts: list[Front]
    backs: list[Scene]  # one per record, or none (a kind printed on one side)


class DeckSequence(NamedTuple):
    """What a deck's PDF prints, card by card (see :func:`deck_sequence`)."""

    cards: list[Front]  # every physical card, in print order
    backs: list[Scene]  # the back of each
    groups: list[tuple[str, int]] | None  # runs that start a sheet of their own: (back name, cards); None: one back

    @property
    def card_size(self) -> tuple[float, float]:
        """The trim size of the deck's cards (of its first back), in mm."""
        return self.backs[0].w, self.backs[0].h


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


def record_sheets(game: Game, layout: GameLayout, fb: FaceBuilder, kind: str) -> RecordSheets:
    """Front and back scenes of every record of a kind that the layout prints as sheets."""
    spec = layout.records[kind]
    fronts: list[Front] = []
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
    return RecordSheets(fronts, backs)


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


def deck_sequence(game: Game, deck: str, fronts: dict[str, Scene], backs: dict[str, Scene]) -> DeckSequence:
    """What a deck's PDF prints: every physical card (design id, front), the back of each, and the groups of cards
    that start a sheet of their own (the name of their back, how many; None for a deck with one back). A deck with
    one back prints its designs in file order, each design's copies together; a deck whose copies have their own
    backs (game.toml ``backs``) prints every first copy (with the first back), then every second copy..., each
    back's cards from a new sheet, so that no sheet mixes two backs."""
    decl = game.decl.decks[deck]
    seq: list[Front] = []
    if not decl.backs:
        seq = [(c.id, fronts[c.id]) for c, _ in game.iter_copies(deck)]
        return DeckSequence(seq, [backs[""]] * len(seq), None)
    per_card: list[Scene] = []
    groups: list[tuple[str, int]] = []
    for k, name in enumerate(decl.backs, start=1):
        run = [(c.id, fronts[c.id]) for c, i in game.iter_copies(deck) if i == k]
        seq += run
        per_card += [backs[name]] * len(run)
        groups.append((name, len(run)))
    return DeckSequence(seq, per_card, groups)


@dataclass
class Drawn:
    """A game with every face a build prints drawn (and so checked): what the producers plan their files from."""

    game: Game
    layout: GameLayout
    faces: FaceBuilder
    fronts: dict[str, dict[str, Scene]]  # deck -> card id -> front, in the deck's file order
    backs: dict[str, dict[str, Scene]]  # deck -> back name ("" for a deck's one back) -> back
    records: dict[str, RecordSheets]  # record kind -> its sheets
    board: Scene | None  # the board of spaces (Relic), if the game has one
    playmap: PlayMap | None  # the play mat in sheets (Wizards & Relics), if the game has one

    @cached_property
    def components(self) -> Mapping[str, Any]:
        """The game's ``components-layout.toml`` (dial boards, tokens), read when a producer first asks."""
        from .components import load_components

        return load_components(self.game)

    def sequence(self, deck: str) -> DeckSequence:
        """What the PDF of ``deck`` prints, card by card."""
        return deck_sequence(self.game, deck, self.fronts[deck], self.backs[deck])


def draw(game: Game, layout: GameLayout, bleed: float, *, low_ink: bool = False, sheets: bool = True) -> Drawn:
    """Draw every face of ``game`` (``low_ink``: floods as tints, see generator/lowink.py). Every problem
    that stops a face, a record sheet, the board or the map from being drawn, and every component that no layout
    file draws (sheets too, unless ``sheets`` is false), is raised together in one DataErrors."""
    fb = FaceBuilder(game, layout, bleed)
    issues: list[Issue] = check_component_files(game, sheets)
    fronts = {d: f for d in game.decl.decks if (f := _gathered(issues, front_scenes, game, layout, fb, d)) is not None}
    records = {k: r for k in layout.records if (r := _gathered(issues, record_sheets, game, layout, fb, k)) is not None}
    board = _gathered(issues, board_scene, game)
    playmap = _gathered(issues, load_map, game, layout)
    if issues:
        raise DataErrors(issues)
    backs = {d: {name: fb.scene(face, None, d) for name, face in layout.back_faces(d).items()}
             for d in game.decl.decks}
    drawn = Drawn(game, layout, fb, fronts, backs, records, board, playmap)
    return _in_low_ink(drawn) if low_ink else drawn


def _gathered(issues: list[Issue], make: Callable[..., T | None], *args: Any) -> T | None:
    """``make(*args)``, or None with its problems added to ``issues``."""
    try:
        return make(*args)
    except DataErrors as exc:
        issues.extend(exc.issues)
        return None


def _in_low_ink(d: Drawn) -> Drawn:
    """The faces, record sheets and board with their floods as tints (the map is printed as it is)."""
    fronts = {deck: {k: tinted(sc) for k, sc in f.items()} for deck, f in d.fronts.items()}
    backs = {deck: {k: tinted(sc) for k, sc in b.items()} for deck, b in d.backs.items()}
    records = {k: RecordSheets([(i, tinted(sc)) for i, sc in r.fronts], [tinted(sc) for sc in r.backs])
               for k, r in d.records.items()}
    board = tinted(d.board) if d.board is not None else None
    return Drawn(d.game, d.layout, d.faces, fronts, backs, records, board, d.playmap)
