"""What a seat may play in a window (relic.txt, Power Cards, Charges, Timing): Power cards played for their ability
or their number, charges spent and one-shot uses of assets. A window is the Movement phase (``move``), the
Exploration and Engagement phases (``eng``), a battle, a test or the Experience phase (``exp``); ``move_end`` is the
end of the move, after the movement roll, where the Movement phase's abilities that add spaces are played.

Action keys: ``play PW10`` (a Power card's ability), ``number PW05`` (its number instead of a roll), ``charge WG01``
(spend a charge), ``use TR38`` (discard an asset for its ability), ``evade X PW08`` (a Power card that evades)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from wizprint.solo.kernel import Action, one_per_design

from .data import ATTRS, TIMING_WINDOWS
from .heroes import check_threshold
from .pending import Battle

if TYPE_CHECKING:
    from .data import RelicData
    from .state import RelicState


def useful(purpose: str, win: str, free: bool) -> bool:
    """An ability that does ``purpose`` is worth offering in window ``win`` (``free``: on the Outer or Middle
    tier, where the player may be moved)."""
    if purpose == "add_score":
        return win in ("battle", "test")
    if purpose in ("reroll", "evade", ""):
        return False
    if purpose == "move_bonus":
        return win == "move"
    if purpose == "move_extra":  # "move up to N more spaces in the same direction": once the move is made
        return win == "move_end"
    if purpose in ("move_any", "move_to", "cross", "draw_threat"):
        return win == "eng" and free
    return True


def _gear_free(s: RelicState, bat: Battle, a: str) -> bool:
    if s.data.cards[a].gear == "weapon":
        return not bat.weapon_locked or bat.weapon == a
    return not bat.armour_locked or bat.armour == a


def evade_abilities(s: RelicState, seat: int) -> list[tuple[str, str, int, int]]:
    """The seat's own evading abilities (``may_evade``) as (source, attribute, max value, per turn): the character
    sheet, assets other than a weapon or armour, face-up Corruption cards (the sources of ``RelicState.sources``)."""
    return list(s.kit(seat).evade)


def evade_source(s: RelicState, seat: int, x: str) -> str | None:
    """The ability that lets the seat evade enemy ``x`` now: one without a limit per turn first, else a limited one
    not used up this turn; None when none does."""
    return _evade_source(s, s.kit(seat).evade, x)


def _evade_source(s: RelicState, abilities: tuple[tuple[str, str, int, int], ...], x: str) -> str | None:
    c = s.data.cards[x]
    best: str | None = None
    for src, a, mv, per in abilities:
        if (a and a != ATTRS[c.attribute]) or (mv and c.value > mv):
            continue
        if not per:
            return src
        if best is None and s.evade_uses.count(src) < per:
            best = src
    return best


def evadable(s: RelicState, seat: int, power: bool) -> list[str]:
    """The enemies here the seat may evade (``power``: with a Power card; else by its own abilities, within their
    limits per turn)."""
    kit = s.kit(seat)
    if "evade" in kit.cannot:
        return []
    C = s.data.cards
    out = []
    for x in s.threats_here(seat):
        c = C[x]
        if c.category != "enemy" or x in s.evaded:
            continue
        if power or _evade_source(s, kit.evade, x) is not None:
            out.append(x)
    return out


def plays(s: RelicState, seat: int, win: str, bat: Battle | None = None, hand: list[str] | None = None) -> list[Action]:
    """Power cards played for their ability, charges and one-shot uses that the seat may play now (``hand``: the
    Power cards to consider, the seat's own by default)."""
    hand = s.hands[seat] if hand is None else hand
    assets = s.assets[seat]
    if not hand and not assets:
        return []
    free = s.space_of(seat).tier in ("outer", "middle")
    D = s.data
    out: list[Action] = []
    if hand:
        offers = D.hand_offers
        for x in one_per_design(hand):
            got = offers.get((x, win, free))
            if got is None:
                got = offers[(x, win, free)] = _hand_offer(D, x, win, free)
            if got == "play":
                out.append(Action("play", x))
            elif got == "evade":
                out.extend(Action("evade", e, x) for e in evadable(s, seat, True))
    if not assets:
        return out
    C = D.cards
    for a in sorted(assets):
        c = C[a]
        if c.gear in ("weapon", "armour") and (bat is None or not _gear_free(s, bat, a)):
            continue
        charge, use = D.asset_offers.get((a, win, free)) or _asset_offer(D, a, win, free)
        if charge and s.charges.get(a, 0) > 0 and a not in s.spent:
            out.append(Action("charge", a))
        if use:
            out.append(Action("use", a))
    return out


def may_hold(s: RelicState, seat: int) -> list[str]:
    """The Power cards to consider when a window opens for the seat (or not): its hand; but at a table
    (``table_seat``), where the program does not know the person's hand, one of each Power card they may hold as
    the other seats see it (the deck's and their hand's), so that a window opening says nothing of their hand."""
    hand = s.hands[seat]
    if seat != s.table_seat or not hand:
        return hand
    return one_per_design(s.decks["power"] + hand)


def may_play(s: RelicState, seat: int, win: str, bat: Battle | None = None) -> bool:
    """A window opens for the seat: it may play something now (its Power cards as ``may_hold`` counts them)."""
    return bool(plays(s, seat, win, bat, may_hold(s, seat)))


def _hand_offer(D: RelicData, x: str, win: str, free: bool) -> str:
    """What Power card ``x`` in hand offers in window ``win`` (``free``: on the Outer or Middle tier), by what it
    is: ``play``, ``evade`` (in the Engagement window) or ``""``; ``plays`` keeps the answers with the data."""
    c = D.cards[x]
    tw = TIMING_WINDOWS.get(c.timing, "")
    if tw != "*" and tw != win and not (tw == "move" and win == "move_end"):
        return ""
    p = D.purpose(c.effects)
    if p == "evade":
        return "evade" if win == "eng" else ""
    return "play" if useful(p, win, free) else ""


def _asset_offer(D: RelicData, a: str, win: str, free: bool) -> tuple[bool, bool]:
    """Whether asset ``a`` has a charge ability (if a charge is left) and a use ability worth offering in window
    ``win``, by what it is; kept with the data."""
    c = D.cards[a]
    got = (_any_offer(D, c.passives.charge, win, free), _any_offer(D, c.passives.use, win, free))
    D.asset_offers[(a, win, free)] = got
    return got


def _any_offer(D: RelicData, abilities: tuple[tuple[str, int], ...], win: str, free: bool) -> bool:
    for moment, lid in abilities:
        mw = TIMING_WINDOWS[moment]
        mw = "move_end" if mw == "move" and win == "move_end" else mw
        if (mw == "*" or mw == win) and useful(D.purpose(lid), win, free):
            return True
    return False


def numbers(s: RelicState, seat: int) -> list[Action]:
    """Power cards the seat may play for their number instead of a roll."""
    if not s.numbers_ok(seat):
        return []
    return [Action("number", x) for x in one_per_design(s.hands[seat])]


def play_number(s: RelicState, seat: int, x: str) -> None:
    s.hands[seat].remove(x)
    s.discard(x)
    s.note_play(seat, x)


def _lock_gear(s: RelicState, bat: Battle | None, x: str) -> None:
    if bat is None:
        return
    g = s.data.cards[x].gear
    if g == "weapon":
        bat.weapon = x
        bat.weapon_locked = True
    elif g == "armour":
        bat.armour = x
        bat.armour_locked = True


def play(s: RelicState, seat: int, a: Action, bat: Battle | None = None) -> bool:
    """Power card abilities, charges and uses, in any window; False if the action is something else."""
    C = s.data.cards
    k, x = a.kind, a.a
    if k == "play":
        s.hands[seat].remove(x)
        s.discard(x)
        s.note_play(seat, x)
        s.say(f"{s.who(seat)} plays {s.label(x)}")
        s.push_effects(seat, C[x].effects, x)
    elif k == "evade" and a.b:
        s.hands[seat].remove(a.b)
        s.discard(a.b)
        s.note_play(seat, a.b)
        s.evaded.append(x)
        s.say(f"{s.who(seat)} plays {s.label(a.b)} to evade {s.label(x)}")
    elif k == "charge":
        lid = C[x].passives.charge[0][1]
        _lock_gear(s, bat, x)
        s.say(f"{s.who(seat)} spends a charge from {s.label(x)}")
        s.spend_charge(seat, x)
        s.push_effects(seat, lid, x)
    elif k == "use":
        lid = C[x].passives.use[0][1]
        _lock_gear(s, bat, x)
        s.say(f"{s.who(seat)} discards {s.label(x)} to use it")
        s.note_play(seat, x)
        s.lose_asset(seat, x)
        s.push_effects(seat, lid, x)
        check_threshold(s, seat)
    else:
        return False
    return True
