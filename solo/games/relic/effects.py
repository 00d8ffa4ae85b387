"""Relic's effect words: one handler per word of ``cards/relic/vocabulary.toml``, registered by the word in ``WORDS``
(``@WORDS("gain")``), and the pending kind that resolves an effect list one effect at a time (:class:`Effects`).
Passive words (battle bonuses, limits, abilities that trigger...) do nothing when resolved: they are read where
they apply (scores, limits, windows); a ``reroll`` or ``evade`` is resolved by the roll or battle that offers it."""

from __future__ import annotations

from collections.abc import Callable

from wizprint.cards.markup import plural
from wizprint.cards.model import Effect
from wizprint.solo.kernel import Words

from .data import AI, PASSIVE, WARP_INFLUENCE, WARP_LEVEL, WARP_RELICS
from .heroes import (
    check_threshold,
    complete_from_deck,
    discard_owned,
    discardable,
    gain,
    lose,
    remove_corruption,
    win,
)
from .pending import (
    MOVE_DIRECTION,
    THREAT_EVENTS,
    Battle,
    BuyPower,
    BuyWargear,
    ChargeTarget,
    Choose,
    DiscardCards,
    DrawCorruption,
    DrawMission,
    Effects,
    Engagement,
    LevelUp,
    May,
    MoveAny,
    Movement,
    Pay,
    Purge,
    SkillTest,
    Threats,
    WarpSkip,
)
from .state import RULES, RelicState
from .texts import with_cause

EffectHandler = Callable[["RelicState", int, Effect, str], None]
WORDS: Words[EffectHandler] = Words("relic")
_HANDLERS = WORDS.handlers  # by word (``WORDS.get`` raises for a word without one)


@RULES.run(Effects)
def run_effects(s: RelicState, f: Effects) -> bool:
    """Resolve the next effect of the list (the list leaves the stack before its last effect resolves)."""
    D = s.data
    effs = D.lists.lists[f.effects]
    i = f.index
    n = len(effs)
    if i >= n:
        s.pop(f)
        return False
    f.index = i + 1
    if i + 1 >= n:
        s.pop(f)
    src = f.source
    if i == 0:
        c = D.cards.get(src)
        if c is not None:
            name = c.name
            last = s.log[-1] if s.log else None
            if not (last.__class__ is str and name in last):  # unless the line before (read by all) names it already
                s.say(f"{name} takes effect")
    e = effs[i]
    s.cause_src, s.cause_why = src, f.why  # the cause the log gives (``RelicState.cause``)
    w = e.word
    (_HANDLERS.get(w) or WORDS.get(w))(s, f.seat, e, src)
    return False


# -- what an effect does to the player ---------------------------------------------------------------------------
@WORDS("gain")
def _gain(s: RelicState, seat: int, e: Effect, src: str) -> None:
    gain(s, seat, str(e["stat"]), int(e["n"]), s.cause())


@WORDS("lose")
def _lose(s: RelicState, seat: int, e: Effect, src: str) -> None:
    lose(s, seat, str(e["stat"]), int(e["n"]), s.cause())


@WORDS("draw")
def _draw(s: RelicState, seat: int, e: Effect, src: str) -> None:
    d, n = str(e["deck"]), int(e["n"])
    if d == "power":
        s.draw_power(seat, n, s.cause())
    elif d == "corruption":
        s.push(DrawCorruption(seat=seat, count=n, why=s.cause()))
    elif d == "mission":
        s.push(DrawMission(seat=seat, count=n, why=s.cause()))
    else:
        for _ in range(n):
            x = s.take_top(d)
            if not x:
                break
            s.gain_asset(seat, x)
            s.say(with_cause(f"{s.who(seat)} draws {s.label(x)}", s.cause()))


@WORDS("draw_threat")
def _draw_threat(s: RelicState, seat: int, e: Effect, src: str) -> None:
    """Threat cards onto the player's space, resolved with the steps of the Engagement still to come."""
    here = s.positions[seat]
    got = []
    for _ in range(int(e["n"])):
        x = s.take_top(str(e["colour"]))
        if not x:
            break
        s.board.setdefault(here, []).append(x)
        got.append(x)
    if got:
        s.say(f"{s.who(seat)} draws {', '.join(s.label(x) for x in got)} onto {s.data.spaces[here].name}")
    for f in reversed(s.stack):
        if isinstance(f, Threats) and f.seat == seat:
            f.step = THREAT_EVENTS  # the new cards are resolved with the steps still to come
            return
        if isinstance(f, Engagement):
            break
    s.push(Threats(seat=seat))


@WORDS("discard")
def _discard(s: RelicState, seat: int, e: Effect, src: str) -> None:
    what, n = str(e["what"]), int(e["n"])
    pool = discardable(s, seat, what)
    if len(pool) <= n:
        for x in list(pool):
            discard_owned(s, seat, x, s.cause())
        return
    s.push(DiscardCards(seat=seat, what=what, count=n, why=s.cause()))


@WORDS("gain_level")
def _gain_level(s: RelicState, seat: int, e: Effect, src: str) -> None:
    for _ in range(int(e["n"])):
        s.push(LevelUp(seat=seat, why=s.cause()))


@WORDS("complete_mission")
def _complete_mission(s: RelicState, seat: int, e: Effect, src: str) -> None:
    complete_from_deck(s, seat, int(e["n"]))


@WORDS("gain_charge")
def _gain_charge(s: RelicState, seat: int, e: Effect, src: str) -> None:
    opts = sorted(a for a in s.assets[seat] if s.data.cards[a].charges > 0)
    if len(opts) == 1:
        add_charge(s, seat, opts[0], int(e["n"]))
    elif opts:
        s.push(ChargeTarget(seat=seat, amount=int(e["n"]), why=s.cause()))


def add_charge(s: RelicState, seat: int, x: str, n: int) -> None:
    s.charges[x] = s.charges.get(x, 0) + n
    s.say(f"{s.who(seat)} adds {plural(n, 'charge')} to {s.label(x)} (now {s.charges[x]})")


@WORDS("remove_corruption")
def _remove_corruption(s: RelicState, seat: int, e: Effect, src: str) -> None:
    n = int(e["n"])
    pool = s.corruption_face_up[seat] + s.corruption_face_down[seat]
    if not pool:
        return
    if len(pool) <= n:
        for x in pool:
            remove_corruption(s, seat, x, s.cause())
        check_threshold(s, seat)
        return
    s.push(Purge(seat=seat, count=n, why=s.cause()))


@WORDS("miss_turn")
def _miss_turn(s: RelicState, seat: int, e: Effect, src: str) -> None:
    s.skips[seat] += 1
    s.say(with_cause(f"{s.who(seat)} will miss a turn", s.cause()))
    s.turn_ends(seat)


@WORDS("win_game")
def _win_game(s: RelicState, seat: int, e: Effect, src: str) -> None:
    win(s, seat)


@WORDS("scenario_token")
def _scenario_token(s: RelicState, seat: int, e: Effect, src: str) -> None:
    s.scenario_tokens[seat] += 1
    s.say(f"{s.who(seat)} places a character token on the scenario sheet (now {s.scenario_tokens[seat]} of "
          f"{int(e['need'])})")
    if s.scenario_tokens[seat] >= int(e["need"]):
        s.push_effects(seat, s.data.lists.of(e["then"]), src, s.cause_why)


# -- rolls, choices and questions --------------------------------------------------------------------------------
@WORDS("test")
def _test(s: RelicState, seat: int, e: Effect, src: str) -> None:
    lists = s.data.lists
    s.push(SkillTest(seat=seat, attribute=AI[str(e["attribute"])], target=int(e["target"]),
                     on_pass=lists.of(e["then_pass"]), on_fail=lists.of(e["then_fail"]), source=src))


@WORDS("battle")
def _battle(s: RelicState, seat: int, e: Effect, src: str) -> None:
    lists = s.data.lists
    s.push(Battle(seat=seat, attribute=AI[str(e["attribute"])], value=int(e["value"]), foe_name=str(e["foe"]),
                  on_win=lists.of(e["then_win"]), on_lose=lists.of(e["then_lose"]), source=src))


@WORDS("roll")
def _roll(s: RelicState, seat: int, e: Effect, src: str) -> None:
    v = s.roll()
    s.say(with_cause(f"{s.who(seat)} rolls {v}", s.cause()))
    for r in e["results"]:
        if v in r["faces"]:
            s.push_effects(seat, s.data.lists.of(r["then"]), src, s.cause_why)
            break


@WORDS("may")
def _may(s: RelicState, seat: int, e: Effect, src: str) -> None:
    s.push(May(seat=seat, effects=s.data.lists.of(e["then"]), source=src, why=s.cause_why))


@WORDS("pay")
def _pay(s: RelicState, seat: int, e: Effect, src: str) -> None:
    if s.influence[seat] >= int(e["influence"]):
        s.push(Pay(seat=seat, cost=int(e["influence"]), effects=s.data.lists.of(e["then"]), source=src,
                   why=s.cause_why))


@WORDS("choose")
def _choose(s: RelicState, seat: int, e: Effect, src: str) -> None:
    s.push(Choose(seat=seat, options=tuple(s.data.lists.of(o["then"]) for o in e["options"]), source=src,
                  why=s.cause_why))


@WORDS("each_player")
def _each_player(s: RelicState, seat: int, e: Effect, src: str) -> None:
    """Each player in turn order from the active player (``others``: but this one) resolves the effects."""
    n = s.players
    seats = [(s.turn_player + i) % n for i in range(n)]
    for t in reversed(seats):
        if s.eliminated[t] or (e.get("others") and t == seat):
            continue
        s.push_effects(t, s.data.lists.of(e["then"]), src, s.cause_why)


@WORDS("add_score")
def _add_score(s: RelicState, seat: int, e: Effect, src: str) -> None:
    for f in reversed(s.stack):
        if isinstance(f, (Battle, SkillTest)) and f.seat == seat:
            f.bonus += int(e["n"])
            s.say(with_cause(f"{s.who(seat)} adds {int(e['n'])} to the score", s.cause()))
            break


# -- shops -------------------------------------------------------------------------------------------------------
@WORDS("buy_power")
def _buy_power(s: RelicState, seat: int, e: Effect, src: str) -> None:
    s.push(BuyPower(seat=seat, price=int(e["price"]), source=src))


@WORDS("buy_wargear")
def _buy_wargear(s: RelicState, seat: int, e: Effect, src: str) -> None:
    if not s.can(seat, "buy"):
        s.say(f"{s.who(seat)} cannot buy Wargear")
        return
    for _ in range(int(e["reveal"])):
        x = s.take_top("wargear")
        if not x:
            break
        s.revealed.append(x)
    if s.revealed:
        s.say(f"{s.who(seat)} reveals {', '.join(s.label(x) for x in s.revealed)}")
        s.push(BuyWargear(seat=seat, source=src))


# -- moving ------------------------------------------------------------------------------------------------------
def move_direct(s: RelicState, seat: int, to: str, what: str) -> None:
    s.positions[seat] = to
    s.say(f"{s.who(seat)} {what}")


@WORDS("cross")
def _cross(s: RelicState, seat: int, e: Effect, src: str) -> None:
    cost = int(e.get("influence", 0) or 0)
    if s.influence[seat] < cost:
        s.say(f"{s.who(seat)} cannot pay {cost} influence to cross")
        return
    s.influence[seat] -= cost
    to = str(e["to"])
    move_direct(s, seat, to, f"crosses to {s.data.spaces[to].name}" + (
        f" for {cost} influence (now {s.influence[seat]})" if cost else ""))
    s.end_engagement()


@WORDS("move_to")
def _move_to(s: RelicState, seat: int, e: Effect, src: str) -> None:
    if s.space_of(seat).tier in ("inner", "centre"):
        return
    move_direct(s, seat, str(e["space"]), f"moves to {s.data.spaces[str(e['space'])].name}")
    s.end_engagement()


@WORDS("move_any")
def _move_any(s: RelicState, seat: int, e: Effect, src: str) -> None:
    if s.space_of(seat).tier in ("inner", "centre"):
        return
    s.push(MoveAny(seat=seat, tier=str(e["tier"]), why=s.cause()))


@WORDS("move_bonus")
def _move_bonus(s: RelicState, seat: int, e: Effect, src: str) -> None:
    f = s.nearest(Movement, seat)
    if f is not None and int(e.get("n", 0)):
        f.bonus += int(e["n"])
        f.points = max(0, f.points + int(e["n"])) if f.step >= MOVE_DIRECTION else f.points
        n = int(e["n"])
        s.say(with_cause(f"{s.who(seat)}'s movement score this turn {'gains' if n > 0 else 'loses'} {abs(n)}",
                         s.cause()))


@WORDS("move_extra")
def _move_extra(s: RelicState, seat: int, e: Effect, src: str) -> None:
    f = s.nearest(Movement, seat)
    if f is not None:
        f.extra += int(e["n"])
        s.say(with_cause(f"{s.who(seat)} may move up to {plural(int(e['n']), 'more space', 'more spaces')} at the "
                         f"end of the move", s.cause()))


@WORDS("end_engagement")
def _end_engagement(s: RelicState, seat: int, e: Effect, src: str) -> None:
    s.say(with_cause(f"{s.who(seat)}'s Engagement phase ends", s.cause()))
    s.end_engagement()


# -- the Inner tier ----------------------------------------------------------------------------------------------
@WORDS("warp_skip")
def _warp_skip(s: RelicState, seat: int, e: Effect, src: str) -> None:
    if s.influence[seat] >= WARP_INFLUENCE:
        s.push(WarpSkip(seat=seat))
    else:
        warp(s, seat, False)


def warp(s: RelicState, seat: int, spend: bool) -> None:
    """The Warp Rift: skip ahead one space, one more for level 9, for 8 influence spent and for two relics."""
    D = s.data
    k = 1
    why = []
    if s.level[seat] >= WARP_LEVEL:
        k += 1
        why.append(f"level {s.level[seat]}")
    if spend:
        s.influence[seat] -= WARP_INFLUENCE
        k += 1
        why.append(f"spends {WARP_INFLUENCE} influence, now {s.influence[seat]}")
    if s.relics(seat) >= WARP_RELICS:
        k += 1
        why.append(f"{s.relics(seat)} relics")
    here = s.positions[seat]
    for _ in range(k):
        nxt = D.spaces[here].next
        if not nxt:
            break
        here = nxt
    s.positions[seat] = here
    # "space(s)": the shipped scenario relic-warp-rift.toml quotes this line
    s.say(f"{s.who(seat)} skips ahead {k} {'space' if k == 1 else 'spaces'}" + (f" ({', '.join(why)})" if why else "") +
          f" to {D.spaces[here].name}")
    resolve_space(s, seat)


def resolve_space(s: RelicState, seat: int) -> None:
    """The mandatory text boxes of an Inner space, or the scenario's confrontation."""
    D = s.data
    sp = s.space_of(seat)
    if sp.tier == "centre":
        s.say(f"{s.who(seat)} resolves the confrontation of {D.scenarios[s.scenario].name}")
        s.push_effects(seat, D.scenarios[s.scenario].confrontation, s.scenario)
    else:
        s.push_effect_lists(seat, [(b, sp.id) for b in sp.boxes])


@WORDS(*sorted(PASSIVE), "enter_inner", "reroll", "evade")
def _passive(s: RelicState, seat: int, e: Effect, src: str) -> None:
    """Nothing to do when resolved: a passive word is read where it applies (scores, limits, windows); a movement
    box's ``enter_inner`` is resolved by the Movement phase; a ``reroll`` or ``evade`` by the roll or battle that
    offers it."""
