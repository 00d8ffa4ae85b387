"""The questions effects ask (relic.txt: May, Pay, Choose; buying Power cards and Wargear; the Warp Rift; the order
of abilities with one timing word; a corrupted player's choice): one pending kind each, waiting for its seat.

Action keys: ``yes`` / ``no`` (may, pay), ``option N`` (choose), ``stat A`` (an attribute), ``target X`` (a card
to charge), ``discard X``, ``purge X`` (a Corruption card), ``to SPACE`` (move_any), ``buy N`` (Power cards) /
``buy X`` and ``done`` (Wargear), ``take X`` (a relic), ``spend`` / ``save`` (the Warp Rift's 8 influence),
``first X`` (which of the abilities with one timing word resolves next), ``new`` / ``concede`` (corrupted).
"""

from __future__ import annotations

from wizprint.cards.markup import plural
from wizprint.solo.kernel import Action, one_per_design

from .asking import clause, source_name
from .data import cause
from .effects import add_charge, move_direct, warp
from .experience import take_relic
from .heroes import (
    check_threshold,
    discard_owned,
    discardable,
    eliminate,
    gain,
    lose,
    new_character,
    remove_corruption,
)
from .pending import (
    BuyPower,
    BuyWargear,
    ChargeTarget,
    Choose,
    ChooseAttribute,
    Corrupted,
    DiscardCards,
    May,
    MoveAny,
    OrderAbilities,
    Pay,
    Purge,
    Question,
    TakeRelic,
    WarpSkip,
)
from .state import RULES, RelicState
from .texts import with_cause

QUESTIONS = (May, Pay, Choose, ChooseAttribute, ChargeTarget, DiscardCards, Purge, MoveAny, BuyPower, BuyWargear,
             TakeRelic, WarpSkip, OrderAbilities, Corrupted)


@RULES.run(*QUESTIONS)
def ask(s: RelicState, f: Question) -> bool:
    """A question waits for its seat's answer."""
    return True


@RULES.legal(May, Pay)
def _yes_no(s: RelicState, f: Question) -> list[Action]:
    return [Action("yes"), Action("no")]


def _declines(s: RelicState, f: May | Pay) -> None:
    """A 'may' or 'pay' turned down, in the log: ``P3 does not pay 2 influence (Grot Trader: gain 2 Life)``."""
    D = s.data
    what = clause(D.text(D.effects(f.effects), f.source))
    where = source_name(D, f.source) if f.source else ""
    head = f"does not pay {f.cost} influence" if isinstance(f, Pay) else "lets it pass"
    s.say(f"{s.who(f.seat)} {head} ({where + ': ' if where else ''}{what})")


@RULES.apply(May)
def _may_apply(s: RelicState, f: May, a: Action) -> None:
    s.pop(f)
    if a.kind == "yes":
        s.push_effects(f.seat, f.effects, f.source, f.why)
    else:
        _declines(s, f)


@RULES.apply(Pay)
def _pay_apply(s: RelicState, f: Pay, a: Action) -> None:
    s.pop(f)
    if a.kind != "yes":
        _declines(s, f)
    else:
        s.influence[f.seat] -= f.cost
        s.say(with_cause(f"{s.who(f.seat)} spends {f.cost} influence (now {s.influence[f.seat]})",
                         f.why or cause(s.data, f.source)))
        s.push_effects(f.seat, f.effects, f.source, f.why)


@RULES.legal(Choose)
def _choose_legal(s: RelicState, f: Choose) -> list[Action]:
    return [Action("option", str(i + 1)) for i in range(len(f.options))]


@RULES.apply(Choose)
def _choose_apply(s: RelicState, f: Choose, a: Action) -> None:
    s.pop(f)
    D = s.data
    text = D.text(D.effects(f.options[int(a.a) - 1]), f.source)
    name = source_name(D, f.source) if f.source else ""
    s.say(f"{s.who(f.seat)} chooses" + (f", for {name}" if name else "") + f": {text}")
    s.push_effects(f.seat, f.options[int(a.a) - 1], f.source, f.why)


@RULES.legal(ChooseAttribute)
def _stat_legal(s: RelicState, f: ChooseAttribute) -> list[Action]:
    return [Action("stat", a) for a in f.options]


@RULES.apply(ChooseAttribute)
def _stat_apply(s: RelicState, f: ChooseAttribute, a: Action) -> None:
    s.pop(f)
    if f.gain:
        gain(s, f.seat, a.a, f.amount, f.why)
    else:
        lose(s, f.seat, a.a, f.amount, f.why)


@RULES.legal(ChargeTarget)
def _charge_legal(s: RelicState, f: ChargeTarget) -> list[Action]:
    return [Action("target", a) for a in sorted(s.assets[f.seat]) if s.data.cards[a].charges > 0]


@RULES.apply(ChargeTarget)
def _charge_apply(s: RelicState, f: ChargeTarget, a: Action) -> None:
    s.pop(f)
    add_charge(s, f.seat, a.a, f.amount)


@RULES.legal(DiscardCards)
def _discard_legal(s: RelicState, f: DiscardCards) -> list[Action]:
    pool = discardable(s, f.seat, f.what)
    xs = one_per_design(pool) if f.what == "power" else sorted(pool)
    return [Action("discard", x) for x in xs]


@RULES.apply(DiscardCards)
def _discard_apply(s: RelicState, f: DiscardCards, a: Action) -> None:
    seat = f.seat
    discard_owned(s, seat, a.a, f.why)
    f.count -= 1
    pool = discardable(s, seat, f.what)
    if f.count <= 0 or not pool:
        s.pop(f)
    elif len(pool) <= f.count:
        s.pop(f)
        for x in pool:
            discard_owned(s, seat, x, f.why)


@RULES.legal(Purge)
def _purge_legal(s: RelicState, f: Purge) -> list[Action]:
    return [Action("purge", x) for x in sorted(s.corruption_face_up[f.seat] + s.corruption_face_down[f.seat])]


@RULES.apply(Purge)
def _purge_apply(s: RelicState, f: Purge, a: Action) -> None:
    seat = f.seat
    remove_corruption(s, seat, a.a)
    f.count -= 1
    if f.count <= 0 or not s.corruption_face_up[seat] + s.corruption_face_down[seat]:
        s.pop(f)
        check_threshold(s, seat)


@RULES.legal(MoveAny)
def _to_legal(s: RelicState, f: MoveAny) -> list[Action]:
    return [Action("to", x) for x in s.data.rings[f.tier] if x != s.positions[f.seat]]


@RULES.apply(MoveAny)
def _to_apply(s: RelicState, f: MoveAny, a: Action) -> None:
    s.pop(f)
    move_direct(s, f.seat, a.a, f"moves to {s.data.spaces[a.a].name}")
    s.end_engagement()


@RULES.legal(BuyPower)
def _buy_power_legal(s: RelicState, f: BuyPower) -> list[Action]:
    most = min(s.influence[f.seat] // f.price, len(s.decks["power"]) + len(s.discards["power"]))
    return [Action("buy", str(n)) for n in range(most + 1)]


@RULES.apply(BuyPower)
def _buy_power_apply(s: RelicState, f: BuyPower, a: Action) -> None:
    s.pop(f)
    n = int(a.a)
    if n:
        s.influence[f.seat] -= n * f.price
        s.say(f"{s.who(f.seat)} spends {n * f.price} influence for {plural(n, 'Power card')} (now "
              f"{s.influence[f.seat]})")
        s.draw_power(f.seat, n)
    else:
        s.say(f"{s.who(f.seat)} buys no Power card")


@RULES.legal(BuyWargear)
def _buy_wargear_legal(s: RelicState, f: BuyWargear) -> list[Action]:
    C = s.data.cards
    return [Action("buy", x) for x in s.revealed if C[x].cost <= s.influence[f.seat]] + [Action("done")]


@RULES.apply(BuyWargear)
def _buy_wargear_apply(s: RelicState, f: BuyWargear, a: Action) -> None:
    seat = f.seat
    if a.kind == "buy":
        x = a.a
        cost = s.data.cards[x].cost
        s.influence[seat] -= cost
        s.revealed.remove(x)
        s.gain_asset(seat, x)
        s.note_play(seat, x)
        s.say(f"{s.who(seat)} buys {s.label(x)} for {cost} influence (now {s.influence[seat]})")
    if a.kind == "done" or not s.revealed:
        s.pop(f)
        if s.revealed:
            s.say(f"{s.who(seat)} buys no more: {', '.join(s.label(x) for x in s.revealed)} "
                  f"{'goes' if len(s.revealed) == 1 else 'go'} to the bottom of the Wargear deck")
        for x in s.revealed:
            s.decks["wargear"].insert(0, x)
        s.revealed = []


@RULES.legal(TakeRelic)
def _relic_legal(s: RelicState, f: TakeRelic) -> list[Action]:
    return [Action("take", x) for x in s.revealed]


@RULES.apply(TakeRelic)
def _relic_apply(s: RelicState, f: TakeRelic, a: Action) -> None:
    s.pop(f)
    take_relic(s, f.seat, a.a)


@RULES.legal(WarpSkip)
def _warp_legal(s: RelicState, f: WarpSkip) -> list[Action]:
    return [Action("spend"), Action("save")]


@RULES.apply(WarpSkip)
def _warp_apply(s: RelicState, f: WarpSkip, a: Action) -> None:
    s.pop(f)
    warp(s, f.seat, a.kind == "spend")


@RULES.legal(Corrupted)
def _corrupt_legal(s: RelicState, f: Corrupted) -> list[Action]:
    return [Action("new"), Action("concede")]


@RULES.apply(Corrupted)
def _corrupt_apply(s: RelicState, f: Corrupted, a: Action) -> None:
    s.pop(f)
    if a.kind == "new":
        new_character(s, f.seat)
    else:
        s.say(f"{s.who(f.seat)} does not start a new character and loses the game")
        eliminate(s, f.seat)


@RULES.legal(OrderAbilities)
def _order_legal(s: RelicState, f: OrderAbilities) -> list[Action]:
    """``first SRC``: the ability to resolve next, one per different ability (``first SRC N``: a source's
    second one)."""
    lids, srcs = f.effects, f.sources
    out: list[Action] = []
    seen: set[int] = set()
    for i, (lid, src) in enumerate(zip(lids, srcs, strict=True)):
        if lid in seen:
            continue
        seen.add(lid)
        out.append(Action("first", src) if srcs.count(src) == 1 else Action("first", src, str(i)))
    return out


@RULES.apply(OrderAbilities)
def _order_apply(s: RelicState, f: OrderAbilities, a: Action) -> None:
    s.pop(f)
    lids, srcs = list(f.effects), list(f.sources)
    i = int(a.b) if a.b else srcs.index(a.a)
    lid, src = lids.pop(i), srcs.pop(i)
    s.push_timed(f.seat, list(zip(lids, srcs, strict=True)))  # the rest, after the chosen one
    s.push_effects(f.seat, lid, src)
