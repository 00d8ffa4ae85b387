"""``wizprint validate``: load each game (schema, ids, vocabulary, counts) and check everything a build needs:
every face drawn (fit, templates, colours, icons), the reference sheets laid out, the board and the boards and
tokens drawn, the fonts and icons read; and that the engine its ``[engine]`` table names can play it. What
``build`` would reject, ``validate`` reports, each problem on one line with its file and line; at most
:data:`~wizprint.errors.MAX_SHOWN` problems are shown, then their count."""

from __future__ import annotations

from collections.abc import Iterator

from wizprint.cards.loader import load_game
from wizprint.cards.model import Game
from wizprint.errors import MAX_SHOWN, DataErrors, Issue, WizprintError, more_line, one_line
from wizprint.resources import game_ids


def check_game(game: Game, warnings: list[Issue] | None = None) -> list[Issue]:
    """Every problem that stops a loaded game from being built (the faces, sheets, board, boards and tokens, the
    map, and the fonts and icons they use). With a ``warnings`` list, what does not stop a build but should be
    looked at goes there (designs of a deck that share a picture: ``artcheck.shared_pictures``)."""
    from wizprint.generator.board import check_board
    from wizprint.generator.components import check_components
    from wizprint.generator.drawing import check_component_files, check_faces
    from wizprint.generator.fonts import families
    from wizprint.generator.playmap import check_map
    from wizprint.generator.sheets import check_sheets

    try:
        families()  # fonts.toml: a broken one would fail every text below
    except DataErrors as exc:
        return list(exc.issues)
    issues: list[Issue] = []

    def faces(g: Game) -> list[Issue]:
        return check_faces(g, warnings=warnings)

    for check in (check_component_files, faces, check_sheets, check_board, check_components, check_map):
        try:
            issues.extend(check(game))
        except DataErrors as exc:
            issues.extend(exc.issues)
    if warnings is not None:
        warnings[:] = sorted(set(warnings))
    return sorted(set(issues))


def check_engine(game: Game) -> list[Issue]:
    """Whether the game's ``[engine]`` (if it has one) names an engine that can play the folder as it is (its shape:
    :mod:`wizprint.solo.kernel.shape`)."""
    from wizprint.cards.loader import display_path
    from wizprint.solo.kernel import engine

    if game.decl.engine is None:
        return []
    try:
        engine(game)
    except DataErrors as exc:
        return list(exc.issues)
    except WizprintError as exc:
        return [Issue(display_path(game.root / "game.toml"), 0, "", str(exc))]
    return []


WARNING = "warning: "  # how a warning's line starts: something to look at that does not stop a build


class Validation:
    """The lines of ``validate`` for some targets, as (line, ok) pairs: an ``ok:`` line per valid game, an
    ``error:`` line per problem, at most ``limit`` of them, then one ``... and N more problems`` line; and a
    ``warning:`` line (ok, since it stops nothing) per warning, at most ``limit`` of them too. ``problems`` and
    ``warnings`` count every problem and warning found (shown or not), once the lines have been read."""

    def __init__(self, targets: list[str], limit: int = MAX_SHOWN):
        self.targets = list(targets) or game_ids()
        self.limit = limit
        self.problems = 0
        self.warnings = 0

    def __iter__(self) -> Iterator[tuple[str, bool]]:
        for t in self.targets:
            for line, ok in self._one(t):
                if ok and line.startswith(WARNING):
                    self.warnings += 1
                    if self.warnings <= self.limit:
                        yield line, ok
                    continue
                if ok:
                    yield line, ok
                    continue
                self.problems += 1
                if self.problems <= self.limit:
                    yield line, ok
        if self.warnings > self.limit:
            n = self.warnings - self.limit
            yield f"{WARNING}... and {n} more warning{'s' if n != 1 else ''}", True
        if self.problems > self.limit:
            yield more_line(self.problems - self.limit), False

    @staticmethod
    def _one(target: str) -> Iterator[tuple[str, bool]]:
        try:
            game = load_game(target)
        except DataErrors as exc:
            for issue in exc.issues:
                yield f"error: {issue}", False
            return
        except WizprintError as exc:
            yield f"error: {one_line(str(exc), 4000)}", False
            return
        warnings: list[Issue] = []
        issues = check_game(game, warnings) + check_engine(game)
        for issue in issues:
            yield f"error: {issue}", False
        for issue in warnings:
            yield f"{WARNING}{issue}", True
        if not issues:
            warned = f"; {len(warnings)} warning{'s' if len(warnings) != 1 else ''}" if warnings else ""
            yield (f"ok: {game.id} ({game.physical_count()} cards in {len(game.cards())} designs, "
                   f"{len(game.records) - len(game.cards())} other records{warned})"), True


def validate(targets: list[str]) -> Validation:
    """The (line, ok) pairs of ``wizprint validate`` (see :class:`Validation`; its ``problems`` is the count of
    every problem once iterated)."""
    return Validation(targets)
