"""``wizprint validate``: load each game (schema, ids, vocabulary, counts) and draw every face (fit, icons)."""

from __future__ import annotations

from collections.abc import Iterator

from wizprint.cards.loader import load_game
from wizprint.errors import DataErrors
from wizprint.resources import game_ids


def validate(targets: list[str]) -> Iterator[tuple[str, bool]]:
    """Yield (line, ok) per game checked or problem found."""
    from wizprint.generator.build import check_faces

    for t in targets or game_ids():
        try:
            game = load_game(t)
        except DataErrors as exc:
            for issue in exc.issues:
                yield f"error: {issue}", False
            continue
        issues = check_faces(game)
        for issue in issues:
            yield f"error: {issue}", False
        if not issues:
            yield (f"ok: {game.id} ({game.physical_count()} cards in {len(game.cards())} designs, "
                   f"{len(game.records) - len(game.cards())} other records)"), True
