"""The checks of a loaded Relic game (a saved game is untrusted input), beyond the kernel's: each noted in the
:class:`~wizprint.solo.kernel.Checks` with its JSON path.

- one entry per seat in every per-seat field; characters, spaces, the scenario and the decks of the game;
- every card in a zone of its kind (Power cards in hands, Threat cards on the board, a deck's cards in it...);
- numbers in range (attributes, Life, level, influence, tokens, charges);
- the phase matching the character choice and the result; whose decision it is;
- pending work that names seats, effect lists, attributes, dice, cards and spaces that exist.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from wizprint.solo.kernel import Checks

from .data import ATTRS, COLOURS, DECKS, MAX_LEVEL
from .pending import (
    Battle,
    BattleResult,
    Choose,
    ChooseAttribute,
    Dice,
    DiscardAfter,
    DiscardCards,
    MoveAny,
    Movement,
    OrderAbilities,
    Phase,
    RelicPending,
    SkillTest,
    SkillTestResult,
    TakeTrophies,
)

if TYPE_CHECKING:
    from .state import RelicState

PER_SEAT = ("dealt", "characters", "attributes", "life", "level", "influence", "positions", "hands",
            "corruption_face_up", "corruption_face_down", "trophies", "assets", "missions", "completed",
            "completed_hidden", "objective_tokens", "scenario_tokens", "mission_progress", "skips", "eliminated")
# the decks whose cards each per-seat zone may hold
HOLDS = {"hands": ("power",), "corruption_face_up": ("corruption",), "corruption_face_down": ("corruption",),
         "trophies": COLOURS, "assets": ("wargear", "relic", *COLOURS), "completed": ("mission",),
         "completed_hidden": ("mission",)}
DISCARDS = ("power", "corruption", "trophy", "asset", *DECKS)
MAX = 99  # Life, influence, tokens, charges, dice: far above what a game reaches


def check_state(s: RelicState, chk: Checks) -> None:
    D = s.data
    C = D.cards
    n = s.players
    for name in PER_SEAT:
        if len(getattr(s, name)) != n:
            chk.fail(f"state.{name}", f"expected one entry per seat ({n})")
    if not -1 <= s.table_seat < n:
        chk.fail("state.table_seat", f"expected -1 or a seat from 0 to {n - 1}")
    if s.scenario and s.scenario not in D.scenarios:
        chk.fail("state.scenario", f"no scenario {s.scenario[:20]!r}")
    if any(c and c not in D.characters for c in s.characters + s.unused_characters + s.retired_characters):
        chk.fail("state.characters", "a character that does not exist")
    if any(p and p not in D.spaces for p in s.positions) or any(sp not in D.spaces for sp in s.board):
        chk.fail("state.positions", "a space that does not exist")
    if sorted(s.decks) != sorted(DECKS) or sorted(s.discards) != sorted(DECKS):
        chk.fail("state.decks", f"expected the decks {', '.join(DECKS)}")
    chk.done()
    for i in range(n):
        if len(s.attributes[i]) != len(ATTRS):
            chk.fail(f"state.attributes[{i}]", "expected [strength, willpower, cunning]")
        chk.counts(f"state.attributes[{i}]", s.attributes[i], 0, MAX)
        chk.all_known(f"state.dealt[{i}]", s.dealt[i], D.characters, "character")
        chk.all_known(f"state.objective_tokens[{i}]", s.objective_tokens[i], D.spaces, "space")
        for name, decks in HOLDS.items():
            for j, x in enumerate(getattr(s, name)[i]):
                if x in C and C[x].deck not in decks:
                    chk.fail(f"state.{name}[{i}][{j}]", f"{x} (a {C[x].deck} card) cannot be there")
        if s.missions[i] in C and C[s.missions[i]].deck != "mission":
            chk.fail(f"state.missions[{i}]", f"{s.missions[i]} is not a Mission card")
    for name, lo, hi in (("life", 0, MAX), ("level", 0, MAX_LEVEL), ("influence", 0, MAX), ("scenario_tokens", 0, MAX),
                         ("mission_progress", 0, MAX), ("skips", 0, MAX)):
        chk.counts(f"state.{name}", getattr(s, name), lo, hi)
    for sp, xs in s.board.items():
        for j, x in enumerate(xs):
            if x in C and C[x].deck not in COLOURS:
                chk.fail(f"state.board.{sp}[{j}]", f"{x} is not a Threat card")
    for group in ("decks", "discards"):
        for d, xs in getattr(s, group).items():
            for j, x in enumerate(xs):
                if x in C and C[x].deck != d:
                    chk.fail(f"state.{group}.{d}[{j}]", f"{x} is not a card of the {d} deck")
    assets = {a for xs in s.assets for a in xs}
    chk.keys_known("state.charges", s.charges, assets, "asset")
    for x, k in s.charges.items():
        chk.count(f"state.charges.{x[:40]}", k, 0, MAX)
    chk.all_known("state.spent", s.spent, C)
    chk.all_known("state.evaded", s.evaded, C)
    chk.all_known("state.evade_uses", s.evade_uses, {*C, *D.characters}, "card or character sheet")
    chk.count("state.turn_number", s.turn_number, 0, 100_000)
    _check_phase(s, chk)
    chk.done()
    lists = len(D.lists.lists)
    for name in ("stack", "after_turn"):
        for j, f in enumerate(getattr(s, name)):
            refs = [getattr(f, k) for k in ("effects", "on_pass", "on_fail", "on_win", "on_lose") if hasattr(f, k)]
            refs += list(getattr(f, "options", ())) if isinstance(f, Choose) else []
            flat = [x for r in refs for x in (r if isinstance(r, tuple) else (r,))]
            if not 0 <= f.seat < n or any(not 0 <= x < lists for x in flat):
                chk.fail(f"state.{name}[{j}]", f"{f.kind} names a seat or an effect list that does not exist")
                continue
            _check_item(s, chk, f"state.{name}[{j}]", f)
    if isinstance(s.last, (BattleResult, SkillTestResult)):  # whose the last battle or test was, on which attribute
        chk.count("state.last.seat", s.last.seat, 0, n - 1)
        chk.count("state.last.attribute", s.last.attribute, 0, len(ATTRS) - 1)
    if s.result is None and s.stack and s.deciding != s.stack[-1].seat:
        chk.fail("state.deciding", f"seat {s.deciding} is to decide, but the game waits for seat {s.stack[-1].seat}")


def _check_phase(s: RelicState, chk: Checks) -> None:
    """The character choice during the select phase only; a character for each seat after it; ``over`` exactly
    when the game has a result."""
    D = s.data
    if (s.phase == Phase.OVER) != (s.result is not None):
        chk.fail("state.phase", "the phase is 'over' exactly when the game has a result")
    if (s.phase == Phase.SELECT) != (s.selection is not None):
        chk.fail("state.selection", "a character choice is made in the select phase, and only then")
    if s.selection is not None:
        sel = s.selection
        chk.seats("state.selection.order", sel.order, distinct=True)
        for seat, ch in sel.chosen.items():
            if seat not in sel.order or not 0 <= seat < s.players or ch not in s.dealt[seat]:
                chk.fail(f"state.selection.chosen.{seat}", "a choice of a seat that was not dealt it")
        if s.result is None and not s.stack and s.deciding != sel.waiting:
            chk.fail("state.deciding", f"seat {s.deciding} is to decide, but the choice waits for {sel.waiting}")
        if not sel.complete and sel.waiting >= 0 and len(s.dealt[sel.waiting]) == 0:
            chk.fail("state.dealt", "a seat to choose a character was dealt none")
    elif s.phase != Phase.SELECT:
        for i, ch in enumerate(s.characters):
            if not ch:
                chk.fail(f"state.characters[{i}]", "no character after the character choice")
        if s.result is None and not s.scenario:
            chk.fail("state.scenario", "no scenario")
    _ = D


def _check_item(s: RelicState, chk: Checks, at: str, f: RelicPending) -> None:
    """One pending item's own values (its seat and effect lists are checked already)."""
    C = s.data.cards
    if isinstance(f, (Battle, SkillTest)):
        chk.count(f"{at}.attribute", f.attribute, 0, len(ATTRS) - 1)
    if isinstance(f, (Battle, TakeTrophies)):
        chk.all_known(f"{at}.foes", f.foes, C)
    if isinstance(f, Battle):
        for name in ("weapon", "armour"):
            chk.known(f"{at}.{name}", getattr(f, name), C, empty=True)
    elif isinstance(f, Dice):
        chk.count(f"{at}.count", f.count, 1, 20)
        chk.counts(f"{at}.values", f.values, 1, 6)
        chk.counts(f"{at}.exploded", f.exploded, 1, 6)
        chk.count(f"{at}.explosions", f.explosions, 0, MAX)
        chk.known(f"{at}.number_card", f.number_card, C, empty=True)
    elif isinstance(f, Movement):
        chk.count(f"{at}.direction", f.direction, -1, 1)
        chk.count(f"{at}.points", f.points, 0, MAX)
        chk.count(f"{at}.extra", f.extra, 0, MAX)
        chk.known(f"{at}.box", f.box, s.data.spaces, "space", empty=True)
    elif isinstance(f, DiscardAfter):
        chk.known(f"{at}.card", f.card, C)
        chk.known(f"{at}.space", f.space, s.data.spaces, "space")
    elif isinstance(f, ChooseAttribute):
        chk.all_known(f"{at}.options", f.options, ATTRS, "attribute")
        chk.known(f"{at}.highest", f.highest, ("highest", "lowest"), "tie", empty=True)
    elif isinstance(f, DiscardCards):
        chk.known(f"{at}.what", f.what, DISCARDS, "kind of card")
    elif isinstance(f, MoveAny):
        chk.known(f"{at}.tier", f.tier, s.data.rings, "tier")
    elif isinstance(f, OrderAbilities) and len(f.effects) != len(f.sources):
        chk.fail(f"{at}.sources", "expected one source per effect list")
    for name in ("index", "count", "cost", "price", "amount"):
        if isinstance(getattr(f, name, None), int):
            chk.count(f"{at}.{name}", getattr(f, name), 0, MAX)
