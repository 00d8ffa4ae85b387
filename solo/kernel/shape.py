"""What an engine reads of a game folder, checked before the engine runs on it.

An edited game folder names its engine in ``[engine] module``, and nothing stops it naming another game's engine or
cutting the cards down to fewer than the rules deal. Each engine declares a :class:`Shape`: the shipped game it was
made for, the card types and record kinds it reads, and (optionally) the least the rules need of them.
:func:`shape_problems` compares a folder with that game's own declarations:

- every card type and record kind the engine reads is declared, in the same deck, with every field the shipped game
  requires still required, and each field it has declared as the shipped game declares it: the same type, an enum
  with no value the engine does not know, whole numbers within the shipped range, lists and tables whose items fit
  the same way;
- the decks the engine reads hold no card of a type it does not read (and, for an engine that reads every card of
  the game, no folder holds another card type);
- every effect word the folder uses (on cards, records, and in effect fields, nested ones too) has a handler in the
  engine, and each of its parameters the engine reads is declared as the shipped vocabulary declares it;
- what the engine's rules need of the cards beyond their declarations (``Shape.needs``: the least a set-up deals,
  such as a Deck of six wizards or two character sheets a seat).

The shipped game's declarations are the reference because the engine was written against them: a folder that keeps
them can change every card's values, texts and counts and still play.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from wizprint.cards.model import CardType, Effect, FieldSpec, Game, Kind
from wizprint.errors import quote

MAX_NAMED = 5  # values named in one problem before "and N more"


@dataclass(frozen=True)
class Shape:
    """What an engine reads of a game folder (see the module's docstring).

    ``game``: the id of the shipped game the engine was made for (its declarations are the reference);
    ``types``: the card types it reads; ``kinds``: the record kinds it reads; ``every_card``: it reads every card of
    the folder (so a card of another type has no place in it); ``needs(game, players_min, players_max)``: the
    problems with what the rules need of the cards (each a phrase: "4 wizard designs, and a player's Deck is 6 of
    them"), for every number of players the folder allows."""

    game: str
    types: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ()
    every_card: bool = False
    needs: Callable[[Game, int, int], list[str]] | None = None


def shape_problems(game: Game, shape: Shape, reference: Game, handled: Iterable[str], players: tuple[int, int]
                   ) -> list[str]:
    """What ``game`` lacks for an engine of ``shape`` made for ``reference`` that handles the effect words
    ``handled``, played by ``players`` (least, most); each problem a phrase, in the folder's terms."""
    out: list[str] = []
    lo, hi = _players(reference)
    if not lo <= players[0] <= players[1] <= hi:
        out.append(f"it is for {_range(*players)} players; the engine plays {_range(lo, hi)}")
    out += _types(game, shape, reference)
    out += _kinds(game, shape, reference)
    out += _words(game, reference, set(handled))
    if not out and shape.needs is not None:
        out += shape.needs(game, *players)
    return out


def _players(game: Game) -> tuple[int, int]:
    """The numbers of players a game's engine plays: its ``[engine] players``, else the game's."""
    e = game.decl.engine
    return ((e.players_min if e is not None and e.players_min else game.decl.players_min),
            (e.players_max if e is not None and e.players_max else game.decl.players_max))


def _range(lo: int, hi: int) -> str:
    return str(lo) if lo == hi else f"{lo} to {hi}"


def _types(game: Game, shape: Shape, ref: Game) -> list[str]:
    out: list[str] = []
    mine, theirs = game.decl.types, ref.decl.types
    for t in shape.types:
        r = theirs[t]
        m = mine.get(t)
        if m is None:
            out.append(f"no card type {quote(t)} (the {r.name} cards of {ref.name})")
            continue
        if m.deck != r.deck:
            out.append(f"card type {quote(t)} is in deck {quote(m.deck)}; the engine reads it from deck "
                       f"{quote(r.deck)}")
        out += _fields(f"card type {quote(t)}", m, r, game, ref)
    read_decks = {theirs[t].deck for t in shape.types}
    for t, m in mine.items():
        if t in shape.types:
            continue
        if shape.every_card:
            out.append(f"card type {quote(t)}: the engine reads every card of the game and knows only "
                       f"{_names(shape.types)}")
        elif m.deck in read_decks:
            out.append(f"card type {quote(t)} is in deck {quote(m.deck)}, which the engine reads, and it knows only "
                       f"{_names(t for t in shape.types if theirs[t].deck == m.deck)} there")
    return out


def _kinds(game: Game, shape: Shape, ref: Game) -> list[str]:
    out: list[str] = []
    for k in shape.kinds:
        r = ref.decl.kinds[k]
        m = game.decl.kinds.get(k)
        if m is None:
            out.append(f"no record kind {quote(k)} (the {r.name} records of {ref.name})")
            continue
        out += _fields(f"record kind {quote(k)}", m, r, game, ref)
    return out


def _fields(where: str, mine: CardType | Kind, theirs: CardType | Kind, game: Game, ref: Game) -> list[str]:
    """The fields of a type or kind: what the reference requires is required, and each shared field fits."""
    out: list[str] = []
    have = set(mine.required) | set(mine.optional)
    for f in theirs.required:
        if f not in mine.required:
            out.append(f"{where} does not require the field {quote(f)}, which the engine reads on every card"
                       if f in have else f"{where} has no field {quote(f)}, which the engine reads")
    for f in (*theirs.required, *theirs.optional):
        if f in have and f in game.decl.fields and f in ref.decl.fields:
            problem = misfit(game.decl.fields[f], ref.decl.fields[f], f"{where}: field {quote(f)}")
            if problem:
                out.append(problem)
    return out


def misfit(mine: FieldSpec, theirs: FieldSpec, where: str) -> str | None:
    """How a field (or parameter) declared as ``mine`` does not fit the engine, which reads it as ``theirs``; None
    when it fits."""
    if mine.type != theirs.type:
        return f"{where} is {_a(mine.type)}; the engine reads {_a(theirs.type)}"
    if theirs.type == "enum":
        extra = [v for v in mine.values if v not in theirs.values]
        if extra:
            return f"{where} has values the engine does not know: {_names(extra)} (it knows {_names(theirs.values)})"
    elif theirs.type == "int":
        lo = theirs.min if theirs.min is not None else None
        hi = theirs.max if theirs.max is not None else None
        if (lo is not None and (mine.min is None or mine.min < lo)) or (
                hi is not None and (mine.max is None or mine.max > hi)):
            return (f"{where} goes from {_bound(mine.min)} to {_bound(mine.max)}; the engine plays "
                    f"{_bound(lo)} to {_bound(hi)}")
    elif theirs.type == "ref" and mine.ref != theirs.ref:
        return f"{where} names {_a(mine.ref or 'record')}; the engine reads {_a(theirs.ref or 'record')}"
    elif theirs.type == "list" and theirs.item is not None and mine.item is not None:
        return misfit(mine.item, theirs.item, f"{where}, each item,")
    elif theirs.type == "table":
        subs = {f.name: f for f in mine.fields}
        for f in theirs.fields:
            sub = subs.get(f.name)
            if f.name in theirs.required and (sub is None or f.name not in mine.required):
                return f"{where} does not require {quote(f.name)}, which the engine reads"
            if sub is not None:
                problem = misfit(sub, f, f"{where}.{f.name}")
                if problem:
                    return problem
    return None


def _words(game: Game, ref: Game, handled: set[str]) -> list[str]:
    out: list[str] = []
    used = used_words(game)
    unknown = sorted(used - handled)
    if unknown:
        out.append(f"the effect word{'s' if len(unknown) > 1 else ''} {_names(unknown)}, which the engine does not "
                   "carry out")
    mine, theirs = game.vocabulary.words, ref.vocabulary.words
    for w in sorted(used & handled):
        if w not in mine or w not in theirs:
            continue
        m, r = mine[w], theirs[w]
        specs = {p.name: p for p in m.params}
        for p in r.params:
            sp = specs.get(p.name)
            always = p.name in r.required or p.default is not None
            if always and (sp is None or (sp.name not in m.required and sp.default is None)):
                out.append(f"the effect word {quote(w)} does not always give {quote(p.name)}, which the engine reads")
            elif sp is not None:
                problem = misfit(sp, p, f"the effect word {quote(w)}: parameter {quote(p.name)}")
                if problem:
                    out.append(problem)
    return out


def used_words(game: Game) -> set[str]:
    """Every effect word the folder's records use: their effects and every effect in their fields, nested ones
    too."""
    out: set[str] = set()
    for rec in game.records:
        for e in _effects(rec.effects):
            out.add(e.word)
        for v in rec.fields.values():
            for e in _effects(v):
                out.add(e.word)
    return out


def _effects(v: Any, depth: int = 0) -> Iterator[Effect]:
    """The effects in a value (an effect, a list or table of them), their nested effects too."""
    if depth > 40:  # the loader bounds nesting far below this
        return
    if isinstance(v, Effect):
        yield v
        for p in v.params.values():
            yield from _effects(p, depth + 1)
    elif isinstance(v, (list, tuple)):
        for x in v:
            yield from _effects(x, depth + 1)
    elif isinstance(v, Mapping):
        for x in v.values():
            yield from _effects(x, depth + 1)


def _a(kind: str) -> str:
    return f"an {kind}" if kind[:1] in "aeiou" else f"a {kind}"


def _bound(v: int | None) -> str:
    return "any" if v is None else str(v)


def _names(items: Iterable[str]) -> str:
    xs = [quote(x, 40) for x in items]
    if len(xs) > MAX_NAMED:
        xs = [*xs[:MAX_NAMED], f"{len(xs) - MAX_NAMED} more"]
    return ", ".join(xs[:-1]) + f" and {xs[-1]}" if len(xs) > 1 else (xs[0] if xs else "none")
