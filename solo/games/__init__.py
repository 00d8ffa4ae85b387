"""The rules engines, one module per game, registered by id."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from wizprint.errors import WizprintError

from ..core import State


@dataclass(frozen=True)
class GameSpec:
    """What a rules module declares about its game, once."""

    id: str
    name: str
    min_players: int
    max_players: int
    new_state: Callable[..., State]  # (players, seed, variant) -> State
    from_json: Callable[[Mapping[str, Any]], State]
    automaton: Callable[[], Any]  # () -> Agent
    setup: Callable[..., State]  # (table, players, seed, variant) -> State, for scenario files
    variants: tuple[str, ...] = ()
    doc: str = ""
    # optional: "view" (the terminal's table), and for the search bot "evaluate" (state -> returns, for
    # cut-short playouts), "rollout_depth" (playout length), "search" ("tree" or "paired"; see agents/mcts.py)
    # and "mcts_iterations" (the budget of a plain ``mcts`` bot; 800 when not given)
    extra: dict[str, Any] = field(default_factory=dict)


_REGISTRY: dict[str, str] = {
    "wizard-cards": "wizprint.solo.games.wizard_cards",
    "covenant": "wizprint.solo.games.covenant",
    "relic": "wizprint.solo.games.relic",
}


def available() -> list[str]:
    return list(_REGISTRY)


def get(game_id: str) -> GameSpec:
    import importlib

    mod = _REGISTRY.get(game_id)
    if mod is None:
        raise WizprintError(f"no solo engine for '{game_id}' (engines: {', '.join(_REGISTRY)})")
    spec: GameSpec = importlib.import_module(mod).SPEC
    return spec


def state_from_json(data: Mapping[str, Any]) -> State:
    try:
        game = str(data["game"])
    except (KeyError, TypeError):
        raise WizprintError("not a saved wizprint game (no 'game' field)") from None
    return get(game).from_json(data)
