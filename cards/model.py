"""Typed records of the card database.

A game is declared in ``cards/<game>/game.toml`` (decks, card types, fields, record kinds, components) and its
records live in the other ``*.toml`` files of the folder as arrays of tables (``[[card]]``, ``[[space]]``, ...).
Every record has a stable short ``id``; cards also have a ``type``, a ``deck`` and a number of ``copies``.
Effects are structured data in the game's vocabulary (``vocabulary.toml``); printed rules text is rendered
from them.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class FieldSpec:
    """The type of one field: ``int``, ``str``, ``text``, ``enum``, ``bool``, ``list``, ``table``, ``effects``,
    ``ref``."""

    name: str
    type: str
    label: str = ""
    doc: str = ""
    min: int | None = None
    max: int | None = None
    max_len: int | None = None
    min_len: int | None = None
    values: tuple[str, ...] = ()
    item: FieldSpec | None = None
    fields: tuple[FieldSpec, ...] = ()
    required: tuple[str, ...] = ()
    ref: str = ""
    default: Any = None

    @property
    def title(self) -> str:
        return self.label or self.name.replace("_", " ").capitalize()


@dataclass(frozen=True)
class Effect:
    """One effect: a vocabulary word and its parameters (nested effects are lists of :class:`Effect`)."""

    word: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def get(self, key: str, default: Any = None) -> Any:
        return self.params.get(key, default)

    def __getitem__(self, key: str) -> Any:
        return self.params[key]

    def as_data(self) -> dict[str, Any]:
        """The TOML form: ``{word = ..., param = ...}``."""
        out: dict[str, Any] = {"word": self.word}
        for k, v in self.params.items():
            out[k] = _effect_value_as_data(v)
        return out

    def __hash__(self) -> int:
        return hash((self.word, repr(sorted(self.params.items(), key=lambda kv: kv[0]))))


def effect_words(effs: Any) -> set[str]:
    """Every effect word in a list of effects, nested ones too (in ``then`` lists, options, choices)."""
    out: set[str] = set()

    def walk(xs: Any) -> None:
        for e in xs:
            if isinstance(e, Effect):
                out.add(e.word)
                for v in e.params.values():
                    if isinstance(v, (tuple, list)):
                        walk(v)
            elif isinstance(e, Mapping) and "then" in e:
                walk(e["then"])

    walk(effs)
    return out


def _effect_value_as_data(v: Any) -> Any:
    if isinstance(v, Effect):
        return v.as_data()
    if isinstance(v, (list, tuple)):
        return [_effect_value_as_data(x) for x in v]
    if isinstance(v, Mapping):
        return {k: _effect_value_as_data(x) for k, x in v.items()}
    return v


@dataclass(frozen=True)
class Source:
    """Where a record was read: file and line (1-based; 0 when unknown)."""

    file: str
    line: int = 0

    def __str__(self) -> str:
        return f"{self.file}:{self.line}"


@dataclass(frozen=True)
class Record:
    """One record of the database: a card, a board space, a character sheet, a scenario...

    ``fields`` holds the game fields declared in ``game.toml``; ``effects`` the structured effects.
    Cards additionally use ``type``, ``deck`` and ``copies``.
    """

    kind: str
    id: str
    name: str
    type: str = ""
    deck: str = ""
    copies: int = 1
    fields: Mapping[str, Any] = field(default_factory=dict)
    effects: tuple[Effect, ...] = ()
    text: str = ""
    flavor: str = ""
    source: Source = field(default=Source("?"), compare=False)

    def __getitem__(self, key: str) -> Any:
        return self.fields[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self.fields.get(key, default)

    def __hash__(self) -> int:
        return hash((self.kind, self.id))


Card = Record  # a card is a record of kind "card"


@dataclass(frozen=True)
class CardType:
    id: str
    name: str
    deck: str
    code: str = ""
    required: tuple[str, ...] = ()
    optional: tuple[str, ...] = ()
    effects: bool = True
    free_text: bool = False
    count: int | None = None
    doc: str = ""


@dataclass(frozen=True)
class Deck:
    """A deck of ``game.toml``. Its cards share one ``back``, or, when ``backs`` lists several, each copy of a
    card has its own: copy 1 the first back, copy 2 the second... (Wizards Cup: the Black and the White set)."""

    id: str
    name: str
    count: int
    back: str = ""
    doc: str = ""
    backs: tuple[str, ...] = ()

    def back_of(self, copy: int) -> str:
        """The back of a card's copy ``copy`` (counted from 1): ``backs[copy - 1]``, or the deck's one ``back``."""
        return self.backs[copy - 1] if self.backs else self.back


@dataclass(frozen=True)
class Kind:
    """A record kind other than ``card`` (e.g. ``space``, ``character``, ``scenario``)."""

    id: str
    name: str
    required: tuple[str, ...] = ()
    optional: tuple[str, ...] = ()
    effects: bool = False
    count: int | None = None
    doc: str = ""


@dataclass(frozen=True)
class Component:
    """A printable component that is not a card: sheets, boards, tokens."""

    id: str
    name: str
    kind: str
    count: int = 1
    doc: str = ""


@dataclass(frozen=True)
class EngineDecl:
    """The ``[engine]`` table of ``game.toml``: which rules engine plays the game and its settings.

    ``module`` names a package under ``wizprint.solo.games`` (never a path: data does not choose code to run);
    ``players`` narrows the game's player counts where the engine plays fewer; ``variants`` lists the rules
    variants, or ``variant_kind`` names the record kind whose ids are the variants (Relic's scenarios);
    ``step_cap`` ends a runaway game as an error; ``search`` is ``tree`` (ISMCTS) or ``paired`` (a paired root
    search), ``search_budget`` the plain ``mcts`` bot's iterations or playouts, ``rollout_depth`` how far a
    search playout goes before the position is evaluated, ``rivals`` whether the tree searches the rivals' moves
    (``search``) or takes them from the automaton (``automaton``: for games of secret simultaneous choices, where a
    searched rival would see the searching seat's choice)."""

    module: str
    players_min: int | None = None
    players_max: int | None = None
    variants: tuple[str, ...] = ()
    variant_kind: str = ""
    step_cap: int = 10_000
    search: str = "tree"
    search_budget: int = 800
    rollout_depth: int = 2000
    rivals: str = "search"


@dataclass(frozen=True)
class GameDecl:
    id: str
    name: str
    version: str
    short: str
    players_min: int
    players_max: int
    description: str
    rulebook: str
    fields: Mapping[str, FieldSpec]
    types: Mapping[str, CardType]
    decks: Mapping[str, Deck]
    kinds: Mapping[str, Kind]
    components: tuple[Component, ...]
    vocabulary_file: str = "vocabulary.toml"
    engine: EngineDecl | None = None


@dataclass
class Game:
    """A loaded game: its declaration, vocabulary and records."""

    decl: GameDecl
    root: Path
    vocabulary: Any  # wizprint.cards.vocab.Vocabulary (kept Any to avoid an import cycle)
    records: list[Record]

    @property
    def id(self) -> str:
        return self.decl.id

    @property
    def name(self) -> str:
        return self.decl.name

    def cards(self, deck: str | None = None) -> list[Record]:
        """Card designs (one per record, with ``copies``), in file order."""
        return [r for r in self.records if r.kind == "card" and (deck is None or r.deck == deck)]

    def of_kind(self, kind: str) -> list[Record]:
        return [r for r in self.records if r.kind == kind]

    def by_id(self, kind: str = "card") -> dict[str, Record]:
        return {r.id: r for r in self.records if r.kind == kind}

    def card(self, card_id: str) -> Record:
        for r in self.records:
            if r.kind == "card" and r.id == card_id:
                return r
        raise KeyError(card_id)

    def physical_count(self, deck: str | None = None) -> int:
        return sum(c.copies for c in self.cards(deck))

    def iter_copies(self, deck: str | None = None) -> Iterator[tuple[Record, int]]:
        """Every physical card: (design, copy number starting at 1)."""
        for c in self.cards(deck):
            for i in range(1, c.copies + 1):
                yield c, i

    def text(self, record: Record) -> str:
        """The printed rules text of a record (markup), rendered from its effects."""
        if record.text:
            return record.text
        result: str = self.vocabulary.render(record.effects, record)
        return result
