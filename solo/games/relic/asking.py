"""What a Relic player is asked, in words: the question of each decision (``question``: what is decided and why)
and what each option does (``describe``), with the rules text of any card, mission, event or Wargear it offers
(whole: the terminal wraps it), and for a move where it ends and what waits there. Plain text: the terminal
escapes it."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from wizprint.cards.markup import plural
from wizprint.solo.kernel import Action
from wizprint.solo.kernel.screen import Group, TwoStep

from .battle import objective_option
from .data import ATTRS, TROPHY_POINTS, WARP_INFLUENCE
from .heroes import objective
from .pending import (
    DICE_BEFORE,
    DICE_CHOOSE_DIE,
    DICE_EXPLODE,
    DICE_ROLLED,
    ENGAGEMENT_WINDOW,
    EXPERIENCE_SPEND,
    MOVE_DIRECTION,
    MOVE_START_BOX,
    ROLL_MOVE,
    THREAT_BATTLES,
    THREAT_EVENTS,
    Battle,
    BuyPower,
    BuyWargear,
    ChargeTarget,
    Choose,
    ChooseAttribute,
    Corrupted,
    Dice,
    DiscardCards,
    DrawMission,
    Engagement,
    Experience,
    May,
    MoveAny,
    Movement,
    OrderAbilities,
    Pay,
    Purge,
    RelicPending,
    SkillTest,
    TakeRelic,
    Threats,
    WarpSkip,
)
from .plays import evade_source
from .texts import (
    attr,
    boxes_line,
    dice_words,
    enemy_line,
    enemy_parts,
    named_sources,
    player_parts,
    rules,
    sum_words,
    test_name,
    test_parts,
    threat_brief,
    tier_name,
    to_draw,
)

if TYPE_CHECKING:
    from .data import RelicData
    from .state import RelicState


# -- small words -------------------------------------------------------------------------------------------------
def source_name(D: RelicData, src: str) -> str:
    """What an effect is printed on, by name: a card, a space, a character, the scenario."""
    if src in D.cards:
        return D.cards[src].name
    if src in D.spaces:
        return D.spaces[src].name
    if src in D.characters:
        return f"the {D.characters[src].name}"
    if src in D.scenarios:
        return f"the scenario {D.scenarios[src].name}"
    return ""


_CAPITALS = ("Power", "Corruption", "Mission", "Wargear", "Threat", "Life", "Strength", "Willpower", "Cunning",
             "Relic", "Inner", "Outer", "Middle", "St.")


def clause(text: str) -> str:
    """A printed sentence as a clause: ``Move to any space.`` reads ``move to any space``."""
    text = text.strip().rstrip(".")
    first = text.split(" ", 1)[0]
    if first and first not in _CAPITALS and first[:1].isupper() and first[1:].islower():
        text = text[:1].lower() + text[1:]
    return text


def card(D: RelicData, x: str) -> str:
    """A card offered in an option: ``PW20#2 Swift Advance: Move up to 1 more space in the same direction.`` (its
    whole rules text: the terminal wraps it)."""
    text = rules(D, x)
    return f"{x} {D.cards[x].name}" + (f": {text}" if text else "")


def ability(D: RelicData, x: str, lid: int) -> str:
    """One ability of card ``x`` (a charge's, a use's), in its printed words."""
    return D.text(D.effects(lid), D.cards[x].design)


def prospect(s: RelicState, sp: str, seat: int) -> str:
    """Space ``sp`` and what waits there for ``seat`` ending a move on it: who stands there, the Threat cards on it
    and those the Exploration phase will draw, else its text box (relic.txt: the text box is resolved only when no
    Threat card is on the space)."""
    D = s.data
    space = D.spaces[sp]
    who = [s.who(t) for t in range(s.players) if t != seat and s.positions[t] == sp and s.characters[t]
           and not s.eliminated[t]]
    bits = []
    threats = s.board.get(sp, [])
    if threats:
        bits.append(", ".join(threat_brief(D, x) for x in threats))
    draw = to_draw(D, sp, threats)
    if draw:
        bits.append(draw)
    if not bits:
        bits.append(f"no Threat card; text box: {boxes_line(D, sp)}" if space.boxes else "no Threat card, no text box")
    return f"{sp} {space.name}" + (f" ({', '.join(who)} there)" if who else "") + ": " + "; ".join(bits)


def dice(n: int) -> str:
    return "a die" if n == 1 else f"{n} dice"



def _dir(d: int) -> str:
    return "clockwise" if d > 0 else "anticlockwise"


def _parent(s: RelicState, f: RelicPending) -> RelicPending | None:
    i = s.stack.index(f) if f in s.stack else -1
    return s.stack[i - 1] if i > 0 else None


def space_words(D: RelicData, sp: str) -> str:
    return f"{sp} {D.spaces[sp].name}"


def walk(s: RelicState, seat: int, here: str, d: int, n: int) -> tuple[str, list[str]]:
    """Where ``n`` movement points take a piece from ``here`` in direction ``d`` (movement bonuses counted; the
    jumps a movement box offers are not taken), and the spaces on the way whose movement box will ask."""
    D = s.data
    pts = n
    pos = here
    steps = 0
    boxes = []
    while pts > 0 and steps < 64:
        pts -= 1
        steps += 1
        pos = s.next_space(pos, d)
        sp = D.spaces[pos]
        pts = max(0, pts + sp.move_bonus)
        if (sp.jump and pts >= 1 and sp.jump != pos) or (sp.inner and s.relics(seat) > 0):
            boxes.append(pos)
    return pos, boxes


# -- the question of each decision -------------------------------------------------------------------------------
def question(s: RelicState) -> str:
    """The decision the current player faces, in words."""
    if s.result is not None:
        return "The game is over"
    f = s.pending
    if f is None:
        return "Choose your character, in secret: the others choose at the same time"
    ask = _ASK.get(type(f))
    q = ask(s, f) if ask else "Choose"
    return q[:1].upper() + q[1:]


def _q_movement(s: RelicState, f: Movement) -> str:
    D = s.data
    seat = f.seat
    here = s.positions[seat]
    if f.step == MOVE_START_BOX:
        to = D.spaces[here].jump
        return (f"{D.spaces[here].name}: jump to {space_words(D, to)} for one movement point (you have "
                f"{f.points}), or stay and choose a direction?")
    if f.step == MOVE_DIRECTION:
        return f"Your movement score is {f.points}: which way do you move?"
    if f.box:
        sp = D.spaces[f.box]
        if sp.inner:
            return (f"The movement box of {sp.name}: enter the Inner tier at {space_words(D, sp.inner)} with "
                    f"your relic (the Movement phase ends), or go on?")
        return (f"{sp.name}: jump through to {space_words(D, sp.jump)} for one movement point "
                f"({plural(f.points, 'point')} left), or stay on your way?")
    if f.extra > 0:
        return (f"You may move up to {plural(f.extra, 'more space', 'more spaces')} {_dir(f.direction)}: one more, "
                f"to {space_words(D, s.next_space(here, f.direction))}, or stop on {D.spaces[here].name}?")
    moves = any(a.kind == "play" and D.purpose(D.cards[a.a].effects) == "move_extra" for a in s.legal_actions())
    card_ = f"a card that moves you on {_dir(f.direction)}" if moves else "a card first"
    return f"Your move ends on {space_words(D, here)}: stop there, or play {card_}?"


def _q_dice(s: RelicState, f: Dice) -> str:
    D = s.data
    p = _parent(s, f)
    what = "Movement roll"
    if isinstance(p, Battle):
        what = f"Your battle roll against {p.foe_name} ({attr(p.attribute)}): {s.battle_bonus(p)}" \
               f"{_parts(player_parts(s, p))} + your roll against {s.enemy_bonus(p)}{_parts(enemy_parts(s, p))} + " \
               f"{p.enemy_roll} rolled"
    elif isinstance(p, SkillTest):
        score = s.attributes[f.seat][p.attribute] + s.skill(f.seat, p.attribute) + p.bonus
        what = f"{test_words(D, p)}{_stakes(s, p)}: {score}{_parts(test_parts(s, p))} + your roll must reach {p.target}"
    if f.step == DICE_BEFORE:
        alt = ", or play a Power card for its number" if s.hands[f.seat] else ""
        if f.context == ROLL_MOVE:
            keep = " and keep one" if f.count > 1 else ""
            rift = ", or enter the Inner tier here" if s.can_enter_rift(f.seat) else ""
            return f"{what}: roll {dice(f.count)}{keep}{alt}{rift}?"
        return f"{what}: roll {dice(f.count)}{alt}?"
    if f.step == DICE_ROLLED:
        return f"You rolled {dice_words(list(f.values))}: keep the roll, or reroll a die?"
    if f.step == DICE_CHOOSE_DIE:
        return f"Your movement dice show {dice_words(list(f.values))}: which one do you move by?"
    if f.step == DICE_EXPLODE:
        total = sum(f.values) + sum(f.exploded)
        return f"A 6 explodes (your roll so far {total}): roll another die, or play a Power card for its number?"
    return what


def _parts(parts: list[tuple[int, str]]) -> str:
    """`` (Willpower 5 + 1 Psychic Hood)``, or "" when the score is the attribute alone."""
    return f" ({sum_words(parts)})" if len(parts) > 1 else ""


def _stakes(s: RelicState, t: SkillTest) -> str:
    """What a test's result does: `` (pass: Gain 2 influence; fail: Lose 1 Life)``."""
    D = s.data
    bits = [f"{w}: {D.text(D.effects(lid), t.source).rstrip('.')}" for w, lid in (("pass", t.on_pass),
                                                                                   ("fail", t.on_fail)) if lid]
    return f" ({'; '.join(bits)})" if bits else ""


def test_words(D: RelicData, t: SkillTest) -> str:
    """``The Willpower 8 test at Underhive Sump-Market``."""
    name = test_name(D, t)
    return name[:1].upper() + name[1:]


def _q_engagement(s: RelicState, f: Engagement) -> str:
    sp = s.space_of(f.seat)
    if f.step == ENGAGEMENT_WINDOW:
        here = s.threats_here(f.seat)
        if sp.tier in ("inner", "centre"):
            nxt = "its text must be resolved" if sp.tier == "inner" else "the confrontation comes next"
        elif here:
            nxt = "the Threat card here must be resolved" if len(here) == 1 else \
                f"the {len(here)} Threat cards here must be resolved"
        elif sp.boxes:
            nxt = "its text box comes next"
        else:
            nxt = "it has no text box"
        can = ["go on"]
        if objective_option(s, f.seat):
            can.append("attempt your mission's objective")
        if any(a.kind in ("play", "charge", "use") for a in s.legal_actions()):
            can.append("play a card first")
        ask = ", ".join(can[:-1]) + f" or {can[-1]}" if len(can) > 1 else can[0]
        return f"Engagement phase on {sp.name} ({nxt}): {ask}?"
    return f"{sp.name}: choose one text box to resolve, or end the Engagement phase?"


def _q_threats(s: RelicState, f: Threats) -> str:
    name = s.space_of(f.seat).name
    if f.step == THREAT_EVENTS:
        return f"Threat cards on {name}: events are resolved first; which one now?"
    if f.step == THREAT_BATTLES:
        return f"Enemies on {name}: which group do you battle (each attribute is one battle)?"
    return f"Encounters on {name}: which one now?"


def _q_battle(s: RelicState, f: Battle) -> str:
    return (f"Battle against {f.foe_name} ({attr(f.attribute)}): your {s.battle_bonus(f)}"
            f"{_parts(player_parts(s, f))} + a roll, against {s.enemy_bonus(f)}{_parts(enemy_parts(s, f))} + a roll. "
            f"Prepare (weapon, armour, cards), or go on to the rolls?")


def _q_experience(s: RelicState, f: Experience) -> str:
    seat = f.seat
    if f.step == EXPERIENCE_SPEND:
        pts = s.trophy_points(seat)
        bits = [f"your trophies are worth {plural(pts, 'point')} ({TROPHY_POINTS} a level)"] if pts else []
        if f.aside:
            ap = sum(s.data.cards[x].value for x in f.aside if x in s.trophies[seat])
            bits.append(f"set aside to spend: {', '.join(f.aside)} ({plural(ap, 'point')})")
        kinds = {a.kind for a in s.legal_actions()}
        can = [w for k, w in (("level", "spend trophies for levels"), ("spend", "set trophies aside"),
                              ("relic", "take a relic"), ("play", "play a card"), ("discard", "discard a card"))
               if k in kinds]
        ask = f"{', '.join(can)}, or end?" if can else "End it?"
        if not bits:
            return f"Experience phase: {ask}"
        return f"Experience phase: {'; '.join(bits)}. {ask[:1].upper()}{ask[1:]}"
    lim = s.power_limit(seat)
    if len(s.hands[seat]) > lim:
        return (f"You hold {plural(len(s.hands[seat]), 'Power card')}, your limit is {lim}: which one do you "
                f"discard?")
    return (f"You have {plural(len(s.assets[seat]), 'asset')}, your limit is {s.asset_limit(seat)}: which one do "
            f"you discard?")


def _q_draw_mission(s: RelicState, f: DrawMission) -> str:
    D = s.data
    old = s.missions[f.seat]
    return (f"You drew the mission {f.drawn} {D.cards[f.drawn].name}: keep it or your mission {old} "
            f"{D.cards[old].name} (the other is discarded)?")


def _from(D: RelicData, src: str, why: str) -> str:
    return why[:1].upper() + why[1:] if why and not src else source_name(D, src) or why[:1].upper() + why[1:]


def _q_may(s: RelicState, f: May) -> str:
    D = s.data
    head = _from(D, f.source, f.why) or "You may"
    text = clause(D.text(D.effects(f.effects), f.source))
    if ". " in text:  # several sentences (a test and its results): ask after them
        return f"{head}: you may {text}. Do you?"
    return f"{head}: {text}?"


def _q_pay(s: RelicState, f: Pay) -> str:
    D = s.data
    head = _from(D, f.source, f.why)
    text = clause(D.text(D.effects(f.effects), f.source))
    ask = f"pay {f.cost} influence (you have {s.influence[f.seat]}) to {text}?"
    return f"{head}: {ask}" if head else ask[:1].upper() + ask[1:]


def _q_choose(s: RelicState, f: Choose) -> str:
    head = _from(s.data, f.source, f.why)
    return f"{head}: choose one" if head else "Choose one"


def _why(why: str) -> str:
    return f" ({why})" if why else ""


def _q_attribute(s: RelicState, f: ChooseAttribute) -> str:
    if f.gain:
        return f"Gain {f.amount} in which attribute?{_why(f.why)}"
    if f.highest:
        return f"Lose {f.amount} from your {f.highest} attribute: which one (they are equal)?{_why(f.why)}"
    return f"Lose {f.amount} from which attribute?{_why(f.why)}"


def _q_charge(s: RelicState, f: ChargeTarget) -> str:
    return f"Add {plural(f.amount, 'charge')} to which of your cards?{_why(f.why)}"


_NOUNS = {"power": ("Power card", "Power cards"), "corruption": ("Corruption card", "Corruption cards"),
          "trophy": ("trophy", "trophies"), "asset": ("asset", "assets"), "relic": ("relic", "relics"),
          "wargear": ("Wargear card", "Wargear cards")}


def _q_discard(s: RelicState, f: DiscardCards) -> str:
    one, many = _NOUNS.get(f.what, (f"{f.what} card", f"{f.what} cards"))
    return f"Discard {plural(f.count, one, many)}: which one?{_why(f.why)}"


def _q_purge(s: RelicState, f: Purge) -> str:
    return f"Remove {plural(f.count, 'Corruption card')}: which one?{_why(f.why)}"


def _q_move_any(s: RelicState, f: MoveAny) -> str:
    return f"Move to which space of {tier_name(f.tier)}?{_why(f.why)}"


def _q_buy_power(s: RelicState, f: BuyPower) -> str:
    return f"Buy Power cards at {f.price} influence each (you have {s.influence[f.seat]}): how many?"


def _q_buy_wargear(s: RelicState, f: BuyWargear) -> str:
    return (f"Buy Wargear from the cards revealed (you have {s.influence[f.seat]} influence): which one, or nothing "
            f"more?")


def _q_relic(s: RelicState, f: TakeRelic) -> str:
    return "Take one of the relics revealed (the other is shuffled back into the deck)"


def _q_warp(s: RelicState, f: WarpSkip) -> str:
    return (f"The Warp Rift: spend {WARP_INFLUENCE} influence (you have {s.influence[f.seat]}) to skip one more "
            f"space?")


def _q_order(s: RelicState, f: OrderAbilities) -> str:
    return "Abilities that happen at the same moment: which one resolves first?"


def _q_corrupted(s: RelicState, f: Corrupted) -> str:
    return "You are corrupted and your character is lost: start a new character, or lose the game?"


_ASK: dict[type[RelicPending], Callable[[RelicState, Any], str]] = {
    Movement: _q_movement, Dice: _q_dice, Engagement: _q_engagement, Threats: _q_threats, Battle: _q_battle,
    Experience: _q_experience, DrawMission: _q_draw_mission, May: _q_may, Pay: _q_pay, Choose: _q_choose,
    ChooseAttribute: _q_attribute, ChargeTarget: _q_charge, DiscardCards: _q_discard, Purge: _q_purge,
    MoveAny: _q_move_any, BuyPower: _q_buy_power, BuyWargear: _q_buy_wargear, TakeRelic: _q_relic,
    WarpSkip: _q_warp, OrderAbilities: _q_order, Corrupted: _q_corrupted}


# -- each option in words ----------------------------------------------------------------------------------------
def describe(s: RelicState, action: Action) -> str:
    """What an option does, in words, with the one-line text of any card it offers."""
    k, a, b = action.kind, action.a, action.b
    D = s.data
    f = s.pending
    fn = _SAY.get(k)
    if fn is not None:
        out = fn(s, f, a, b)
        if out:
            return out
    if a in D.cards:
        return f"{k} {card(D, a)}"
    return " ".join(p for p in (k, D.name_of(a) if a else "", D.name_of(b) if b else "") if p)


def _pick(s: RelicState, f: RelicPending | None, a: str, b: str) -> str:
    c = s.data.characters[a]
    at = c.attributes
    return (f"play the {c.name} ({a}): Strength {at[0]}, Willpower {at[1]}, Cunning {at[2]}, Life {c.life}; starts "
            f"on {s.data.spaces[c.start].name}")


def _move_dir(s: RelicState, f: RelicPending | None, k: str) -> str:
    if not isinstance(f, Movement):
        return ""
    d = 1 if k == "cw" else -1
    here = s.positions[f.seat]
    end, boxes = walk(s, f.seat, here, d, max(1, f.points))
    box = f" (the movement box of {', '.join(s.data.spaces[b].name for b in boxes)} will ask)" if boxes else ""
    return f"move {_dir(d)} {plural(max(1, f.points), 'space')}{box}, to {prospect(s, end, f.seat)}"


def _jump(s: RelicState, f: RelicPending | None, a: str, b: str) -> str:
    if not isinstance(f, Movement):
        return ""
    D = s.data
    sp = f.box or s.positions[f.seat]
    to = D.spaces[sp].jump
    left = f.points - 1
    if left <= 0:
        return f"jump to {prospect(s, to, f.seat)} (no movement point left after it)"
    return f"jump to {space_words(D, to)} ({plural(left, 'movement point')} left after it)"


def _rift(s: RelicState, f: RelicPending | None, a: str, b: str) -> str:
    D = s.data
    if isinstance(f, Movement) and f.box:
        return f"enter the Inner tier at {space_words(D, D.spaces[f.box].inner)} (the Movement phase ends)"
    sp = s.space_of(s.current_player)
    return (f"enter the Inner tier now, at {space_words(D, sp.inner)}, instead of rolling (the Movement phase "
            f"ends)") if sp.inner else "enter the Inner tier"


def _pass(s: RelicState, f: RelicPending | None, a: str, b: str) -> str:
    if isinstance(f, Dice):
        return "keep the roll"
    if isinstance(f, Movement):
        if f.step == MOVE_START_BOX:
            return "do not jump: choose a direction from here"
        if f.box and s.data.spaces[f.box].inner:
            return "do not enter the Inner tier: go on moving"
        return "do not jump: go on moving"
    if isinstance(f, Engagement):
        sp = s.space_of(f.seat)
        if sp.tier in ("inner", "centre"):
            return "go on: resolve this space's text" if sp.tier == "inner" else "go on: the confrontation"
        if s.threats_here(f.seat):
            return "go on: resolve the Threat card here" if len(s.threats_here(f.seat)) == 1 else \
                "go on: resolve the Threat cards here"
        return "go on: resolve the text box here" if sp.boxes else "go on (this space has no text box)"
    if isinstance(f, Battle):
        return "go on to the rolls (Prepare for Battle is over)"
    return "pass"


def _more(s: RelicState, f: RelicPending | None, a: str, b: str) -> str:
    if not isinstance(f, Movement):
        return ""
    nxt = s.next_space(s.positions[f.seat], f.direction)
    return f"move one more space, to {prospect(s, nxt, f.seat)}"


def _stop(s: RelicState, f: RelicPending | None, a: str, b: str) -> str:
    here = s.positions[f.seat] if f is not None else ""
    return f"stop on {prospect(s, here, f.seat)}" if f is not None and here else "stop"


def _roll(s: RelicState, f: RelicPending | None, a: str, b: str) -> str:
    if isinstance(f, Dice):
        if f.step == DICE_EXPLODE:
            return "roll the extra die"
        keep = " and keep one" if f.context == ROLL_MOVE and f.count > 1 else ""
        return f"roll {dice(f.count)}{keep}"
    return "roll"


def _number(s: RelicState, f: RelicPending | None, a: str, b: str) -> str:
    c = s.data.cards[a]
    what = "the extra die" if isinstance(f, Dice) and f.step == DICE_EXPLODE else "rolling"
    out = f"play {a} {c.name} for its number {c.number} instead of {what} (the card is discarded)"
    mv = _parent(s, f) if isinstance(f, Dice) and f.context == ROLL_MOVE else None
    if isinstance(mv, Movement) and s.space_of(mv.seat).tier in s.data.rings:
        n = max(1, c.number + mv.bonus)
        here = s.positions[mv.seat]
        ends = [walk(s, mv.seat, here, d, n)[0] for d in (1, -1)]
        change = f" ({mv.bonus:+d} this turn)" if mv.bonus else ""
        out += (f": {plural(n, 'space')}{change}, to {space_words(s.data, ends[0])} clockwise or "
                f"{space_words(s.data, ends[1])} anticlockwise")
    return out


def _play(s: RelicState, f: RelicPending | None, a: str, b: str) -> str:
    return f"play {card(s.data, a)}"


def _charge(s: RelicState, f: RelicPending | None, a: str, b: str) -> str:
    left = s.charges.get(a, 0)
    c = s.data.cards[a]
    return (f"spend a charge of {a} {c.name} ({plural(left, 'charge')} left): "
            f"{ability(s.data, a, c.passives.charge[0][1])}")


def _use(s: RelicState, f: RelicPending | None, a: str, b: str) -> str:
    c = s.data.cards[a]
    return f"discard {a} {c.name} to use it: {ability(s.data, a, c.passives.use[0][1])}"


def _evade(s: RelicState, f: RelicPending | None, a: str, b: str) -> str:
    D = s.data
    foe = enemy_line(D, a, s.scenario)
    if b:
        return f"evade {foe} with {card(D, b)}"
    src = evade_source(s, s.current_player, a) or ""
    by = f"{src} {D.cards[src].name}" if src in D.cards else f"the {D.characters[src].name}'s ability" \
        if src in D.characters else source_name(D, src)
    return f"evade {foe}" + (f" ({by} lets you)" if by else "")


def _reroll(s: RelicState, f: RelicPending | None, a: str, b: str) -> str:
    if not isinstance(f, Dice):
        return ""
    return f"reroll the die showing {f.values[int(b)]} with {card(s.data, a)}"


def _move_die(s: RelicState, f: RelicPending | None, a: str, b: str) -> str:
    return f"keep the {a}: move {plural(int(a), 'space')}"


def _objective(s: RelicState, f: RelicPending | None, a: str, b: str) -> str:
    seat = s.current_player
    obj = objective(s, seat)
    m = s.missions[seat]
    name = f"{m} {s.data.cards[m].name}" if m else "your mission"
    if obj is not None and obj.word == "objective_test":
        return (f"attempt the objective of {name}: a test of {str(obj['attribute']).capitalize()} "
                f"{int(obj['target'])}, instead of the text box")
    if obj is not None and obj.word == "objective_influence":
        return f"spend {int(obj['n'])} influence to complete {name}"
    return f"attempt the objective of {name}"


def _box(s: RelicState, f: RelicPending | None, a: str, b: str) -> str:
    sp = s.space_of(s.current_player)
    return f"resolve text box {a}: {s.data.box_text(sp.id, int(a))}"


def _end(s: RelicState, f: RelicPending | None, a: str, b: str) -> str:
    if isinstance(f, Experience):
        return "end the Experience phase"
    return "end the Engagement phase (resolve no text box)"


def _threat(s: RelicState, f: RelicPending | None, a: str, b: str) -> str:
    return f"resolve {card(s.data, a)}"


def _ignore(s: RelicState, f: RelicPending | None, a: str, b: str) -> str:
    c = s.data.cards[a]
    by = [name for name, p in named_sources(s, s.current_player)
          if any(cat == c.category and (not col or col == c.deck) for cat, col in p.ignore)]
    seat = s.current_player
    me = s.data.characters[s.characters[seat]].name if s.characters[seat] else ""
    who = "an ability" if not by else f"the {me}'s ability" if by[0] == me else by[0]
    return f"ignore {s.label(a)} ({who} lets you): it stays on the space"


def _fight(s: RelicState, f: RelicPending | None, a: str, b: str) -> str:
    D = s.data
    ai = ATTRS.index(a)
    seat = s.current_player
    foes = [x for x in s.threats_here(seat) if D.cards[x].category == "enemy" and D.cards[x].attribute == ai
            and x not in s.evaded]
    theirs = s.enemy_bonus(Battle(seat=seat, foes=tuple(foes), attribute=ai))
    return (f"battle with {attr(ai)} (yours is {s.attributes[seat][ai]}, theirs {theirs} in all): " +
            "; ".join(enemy_line(D, x, s.scenario) for x in foes))


def _gear(s: RelicState, f: RelicPending | None, a: str, b: str) -> str:
    c = s.data.cards[a]
    return f"use {a} {c.name} as your {c.gear} in this battle: {rules(s.data, a)}"


def _level(s: RelicState, f: RelicPending | None, a: str, b: str) -> str:
    D = s.data
    seat = s.current_player
    n = int(a)
    gains = "; ".join(f"level {lv}: {D.reward_text(s.characters[seat], lv)}"
                      for lv in range(s.level[seat] + 1, s.level[seat] + n + 1))
    if isinstance(f, Experience) and f.aside:
        spend = [x for x in f.aside if x in s.trophies[seat]]
        pts = sum(D.cards[x].value for x in spend)
        lost = pts - n * TROPHY_POINTS
        return (f"spend trophies for {plural(n, 'level')}: the {len(spend)} set aside, {plural(pts, 'point')}" +
                (f", {plural(lost, 'point')} lost" if lost else "") + f" ({gains})")
    return f"spend trophies for {plural(n, 'level')}: your cheapest worth it ({gains})"


def _spend(s: RelicState, f: RelicPending | None, a: str, b: str) -> str:
    if not a:
        return f"spend {WARP_INFLUENCE} influence to skip one more space"
    c = s.data.cards[a]
    return f"set the trophy {a} {c.name} ({plural(c.value, 'point')}) aside to spend"


def _unspend(s: RelicState, f: RelicPending | None, a: str, b: str) -> str:
    c = s.data.cards[a]
    return f"take back the trophy {a} {c.name} ({plural(c.value, 'point')}): do not spend it"


def _relic(s: RelicState, f: RelicPending | None, a: str, b: str) -> str:
    return "spend three completed missions for a relic (two are revealed, you keep one)"


def _discard(s: RelicState, f: RelicPending | None, a: str, b: str) -> str:
    D = s.data
    c = D.cards[a]
    if a in s.trophies[s.current_player]:
        return f"discard the trophy {a} {c.name} ({plural(c.value, 'point')})"
    if isinstance(f, Experience) and f.step == EXPERIENCE_SPEND:  # a discard the phase allows (its text: 'hand')
        return f"discard {a} {c.name}"
    return f"discard {card(D, a)}"


def _mission(s: RelicState, f: RelicPending | None, a: str, b: str) -> str:
    return f"keep the mission {card(s.data, a)}"


def _take(s: RelicState, f: RelicPending | None, a: str, b: str) -> str:
    return f"take the relic {card(s.data, a)}"


def _draws_power(s: RelicState, lid: int) -> int:
    """The Power cards an effect list draws at once (its top-level ``draw`` words)."""
    return sum(int(e.get("n", 1) or 1) for e in s.data.effects(lid) if e.word == "draw" and e.get("deck") == "power")


def _yes(s: RelicState, f: RelicPending | None, a: str, b: str) -> str:
    D = s.data
    if isinstance(f, Pay):
        return (f"pay {f.cost} influence: {clause(D.text(D.effects(f.effects), f.source))}"
                f"{over_limit(s, f.seat, _draws_power(s, f.effects))}")
    if isinstance(f, May):
        return (f"yes: {clause(D.text(D.effects(f.effects), f.source))}"
                f"{over_limit(s, f.seat, _draws_power(s, f.effects))}")
    return "yes"


def _no(s: RelicState, f: RelicPending | None, a: str, b: str) -> str:
    if isinstance(f, Pay):
        return "do not pay (nothing happens)"
    return "no: let it pass"


def _option(s: RelicState, f: RelicPending | None, a: str, b: str) -> str:
    if not isinstance(f, Choose):
        return ""
    D = s.data
    return D.text(D.effects(f.options[int(a) - 1]), f.source)


def _stat(s: RelicState, f: RelicPending | None, a: str, b: str) -> str:
    if not isinstance(f, ChooseAttribute):
        return ""
    cur = s.attributes[f.seat][ATTRS.index(a)]
    return f"{'gain' if f.gain else 'lose'} {f.amount} {a.capitalize()} (now {cur})"


def _target(s: RelicState, f: RelicPending | None, a: str, b: str) -> str:
    return f"add the charges to {card(s.data, a)} ({plural(s.charges.get(a, 0), 'charge')} now)"


def _purge(s: RelicState, f: RelicPending | None, a: str, b: str) -> str:
    return f"remove {card(s.data, a)}"


def _to(s: RelicState, f: RelicPending | None, a: str, b: str) -> str:
    return f"move to {prospect(s, a, s.current_player)}"


def over_limit(s: RelicState, seat: int, n: int) -> str:
    """What drawing ``n`` more Power cards means for the power limit: `` (then 3 Power cards, over your limit of
    2: you discard 1 at the end of your turn)``, or ""."""
    held = len(s.hands[seat]) + n
    lim = s.power_limit(seat)
    if n <= 0 or held <= lim:
        return ""
    return (f" (then {plural(held, 'Power card')}, over your limit of {lim}: at the end of your turn you discard "
            f"down to {lim})")


def _buy(s: RelicState, f: RelicPending | None, a: str, b: str) -> str:
    if isinstance(f, BuyPower):
        n = int(a)
        return (f"draw {plural(n, 'Power card')} for {n * f.price} influence{over_limit(s, f.seat, n)}" if n else
                "draw no Power cards")
    c = s.data.cards[a]
    return f"buy {a} {c.name} for {c.cost} influence: {rules(s.data, a)}"


def _done(s: RelicState, f: RelicPending | None, a: str, b: str) -> str:
    if isinstance(f, BuyWargear) and not any(s.data.cards[x].cost <= s.influence[f.seat] for x in s.revealed):
        return f"buy nothing (with {s.influence[f.seat]} influence you cannot afford any of them)"
    return "buy nothing more"


def _first(s: RelicState, f: RelicPending | None, a: str, b: str) -> str:
    D = s.data
    if not isinstance(f, OrderAbilities):
        return ""
    i = int(b) if b else f.sources.index(a)
    return f"first: {source_name(D, a) or a}: {D.text(D.effects(f.effects[i]), a)}"


_SAY: dict[str, Callable[[RelicState, RelicPending | None, str, str], str]] = {
    "pick": _pick, "cw": lambda s, f, a, b: _move_dir(s, f, "cw"), "acw": lambda s, f, a, b: _move_dir(s, f, "acw"),
    "jump": _jump, "rift": _rift, "pass": _pass, "more": _more, "stop": _stop, "roll": _roll, "number": _number,
    "play": _play, "charge": _charge, "use": _use, "evade": _evade, "reroll": _reroll, "move": _move_die,
    "objective": _objective, "box": _box, "end": _end, "event": _threat, "encounter": _threat, "ignore": _ignore,
    "fight": _fight, "weapon": _gear, "armour": _gear, "level": _level, "spend": _spend, "unspend": _unspend,
    "relic": _relic, "discard": _discard, "mission": _mission, "take": _take, "yes": _yes, "no": _no,
    "option": _option, "stat": _stat, "target": _target, "purge": _purge, "to": _to, "buy": _buy,
    "done": _done, "save": lambda s, f, a, b: "keep the influence",
    "first": _first, "new": lambda s, f, a, b: "start a new character (a random unused character sheet)",
    "concede": lambda s, f, a, b: "do not start a new character: lose the game",
}

# -- decisions asked in two steps ---------------------------------------------------------------------------------
SPLIT = 8  # a move to any space of a tier asks first for a part of the tier when there are more spaces than this


def two_step(s: RelicState, legal: list[Action]) -> TwoStep | None:
    """A move to any space of a tier (``move_any``: 15 or 23 spaces, each with what waits there) in two steps: first
    the part of the tier (a corner and the area after it, clockwise), then the space; None for any other decision."""
    f = s.pending
    if not isinstance(f, MoveAny) or len(legal) <= SPLIT:
        return None
    D = s.data
    parts: list[list[str]] = []
    prev = None
    for sp in D.rings[f.tier]:
        area = D.spaces[sp].area
        if not parts or not area or (prev and area != prev):
            parts.append([])
        parts[-1].append(sp)
        prev = area
    by = {a.a: a for a in legal if a.kind == "to"}
    groups = []
    for part in parts:
        acts = tuple((by[x], describe(s, by[x])) for x in part if x in by)
        if not acts:
            continue
        names = [D.spaces[x].name for x in part if not D.spaces[x].area]
        areas = list(dict.fromkeys(D.spaces[x].area for x in part if D.spaces[x].area))
        what = " and ".join([*names, *(f"the {a}" for a in areas)])
        who = [s.who(t) for t in range(s.players) if s.positions[t] in part and t != f.seat and s.characters[t]
               and not s.eliminated[t]]
        threats = sum(len(s.board.get(x, ())) for x in part)
        bits = ([f"{', '.join(who)} there"] if who else []) + ([plural(threats, "Threat card")] if threats else [])
        label = f"{part[0]} to {part[-1]}: {what}" + (f" ({'; '.join(bits)})" if bits else "")
        groups.append(Group(label, f"Move to which space from {part[0]} to {part[-1]}?{_why(f.why)}", acts))
    if len(groups) < 2:
        return None
    return TwoStep(f"Move to which space of {tier_name(f.tier)}? First the part of the tier:{_why(f.why)}",
                   tuple(groups))


__all__ = ["card", "clause", "describe", "question", "source_name", "test_words", "two_step", "walk"]
