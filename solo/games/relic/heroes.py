"""What happens to a hero: attributes, Life and influence gained and lost; vanquished, corrupted, eliminated, winning;
missions (activated, objectives checked, completed); Corruption cards drawn and removed (relic.txt: Character
Attributes, Vanquished Players, Corruption, Corrupted Players, Missions)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from wizprint.cards.markup import plural
from wizprint.cards.model import Effect

from .data import AI, ATTRS, MAX_STAT, VANQUISHED_SPACE, RelicTermination, cause
from .pending import ChooseAttribute, Corrupted, Effects, RelicPending
from .texts import with_cause

if TYPE_CHECKING:
    from .state import RelicState


# -- attributes, Life, influence ---------------------------------------------------------------------------------
def gain(s: RelicState, seat: int, stat: str, n: int, why: str = "") -> None:
    """Seat ``seat`` gains ``n`` of ``stat`` (an attribute, ``attribute`` of its choice, ``life``, ``influence``);
    ``why``: the cause the log gives."""
    if stat == "influence":
        s.influence[seat] += n
        s.say(with_cause(f"{s.who(seat)} gains {n} influence (now {s.influence[seat]})", why))
    elif stat == "life":
        if not s.can(seat, "heal"):
            s.say(with_cause(f"{s.who(seat)} cannot gain Life (a card forbids it)", why))
            return
        s.life[seat] = min(MAX_STAT, s.life[seat] + n)
        s.say(with_cause(f"{s.who(seat)} gains {n} Life (now {s.life[seat]})", why))
    elif stat == "attribute":
        opts = [a for a in ATTRS if s.attributes[seat][AI[a]] < MAX_STAT]
        if len(opts) == 1:
            gain(s, seat, opts[0], n, why)
        elif opts:
            s.stack.append(ChooseAttribute(seat=seat, options=tuple(opts), amount=n, gain=True, why=why))
    else:
        i = AI[stat]
        s.attributes[seat][i] = min(MAX_STAT, s.attributes[seat][i] + n)
        s.say(with_cause(f"{s.who(seat)} gains {n} {stat.capitalize()} (now {s.attributes[seat][i]})", why))


def lose(s: RelicState, seat: int, stat: str, n: int, why: str = "") -> None:
    """Seat ``seat`` loses ``n`` of ``stat`` (also ``highest`` or ``lowest`` attribute); no Life left: vanquished.
    ``why``: the cause the log gives."""
    if stat == "influence":
        s.influence[seat] = max(0, s.influence[seat] - n)
        s.say(with_cause(f"{s.who(seat)} loses {n} influence (now {s.influence[seat]})", why))
    elif stat == "life":
        s.life[seat] = max(0, s.life[seat] - n)
        s.say(with_cause(f"{s.who(seat)} loses {n} Life (now {s.life[seat]})", why))
        if s.life[seat] == 0:
            vanquish(s, seat)
    elif stat in ("attribute", "highest", "lowest"):
        a = s.attributes[seat]
        if stat == "attribute":
            opts = [x for x in ATTRS if a[AI[x]] > 1]
        else:
            best = max(a) if stat == "highest" else min(a)
            opts = [x for x in ATTRS if a[AI[x]] == best]
        if len(opts) == 1:
            lose(s, seat, opts[0], n, why)
        elif opts:
            s.stack.append(ChooseAttribute(seat=seat, options=tuple(opts), amount=n, gain=False,
                                           highest=stat if stat != "attribute" else "", why=why))
    else:
        i = AI[stat]
        s.attributes[seat][i] = max(1, s.attributes[seat][i] - n)
        s.say(with_cause(f"{s.who(seat)} loses {n} {stat.capitalize()} (now {s.attributes[seat][i]})", why))


# -- vanquished, corrupted, eliminated, winning ------------------------------------------------------------------
def _triggers(s: RelicState, seat: int, event: str) -> list[RelicPending]:
    """The seat's abilities for ``event`` as pending work in stack order (the first to resolve last)."""
    return [Effects(seat=seat, effects=lid, source=src, why=cause(s.data, src, event))
            for lid, src in reversed(s.whens(seat, event))]


def vanquish(s: RelicState, seat: int) -> None:
    D = s.data
    lost_p, lost_t = len(s.hands[seat]), len(s.trophies[seat])
    for x in s.hands[seat]:
        s.discard(x)
    for x in s.trophies[seat]:
        s.discard(x)
    s.hands[seat] = []
    s.trophies[seat] = []
    s.influence[seat] = 0
    s.life[seat] = D.characters[s.characters[seat]].life
    s.positions[seat] = VANQUISHED_SPACE
    lost = [w for n, w in ((lost_p, plural(lost_p, "Power card")), (lost_t, plural(lost_t, "trophy", "trophies")))
            if n]
    s.say(f"{s.who(seat)} is vanquished (no Life left): " + (f"discards {' and '.join(lost)}, " if lost else "") +
          f"loses all influence, Life back to {s.life[seat]}, moves to {D.spaces[VANQUISHED_SPACE].name}")
    trig = _triggers(s, seat, "vanquished")
    if s.turn_ends(seat):
        s.after_turn.extend(trig)
    else:
        s.stack.extend(trig)


def corrupted(s: RelicState, seat: int) -> None:
    D = s.data
    s.note_event("a player is corrupted")
    for x in s.hands[seat] + s.corruption_face_up[seat] + s.corruption_face_down[seat] + s.trophies[seat]:
        s.discard(x)
    s.hands[seat], s.corruption_face_up[seat], s.corruption_face_down[seat], s.trophies[seat] = [], [], [], []
    s.influence[seat] = 0
    old = s.characters[seat]
    s.retired_characters.append(old)
    if not s.unused_characters:
        s.say(f"{s.who(seat)} is corrupted and no character sheet is left: eliminated")
        eliminate(s, seat)
        return
    s.say(f"{s.who(seat)} is corrupted: the {D.characters[old].name} is lost, with every Power card, trophy, "
          f"Corruption card and influence")
    s.turn_ends(seat)
    # relic.txt, Corrupted Players: the player may choose not to start a new character and lose the game instead
    (s.after_turn if s.turn_cut_short else s.stack).append(Corrupted(seat=seat))


def new_character(s: RelicState, seat: int) -> None:
    """A random unused character sheet (the box) for a corrupted player."""
    new = s.pick(s.unused_characters, "character sheet")
    s.unused_characters.remove(new)
    s.set_character(seat, new)
    s.say(f"{s.who(seat)} starts a new character: the {s.data.characters[new].name} at "
          f"{s.data.spaces[s.positions[seat]].name}")


def eliminate(s: RelicState, seat: int) -> None:
    for x in s.hands[seat] + s.corruption_face_up[seat] + s.corruption_face_down[seat] + s.trophies[seat] + \
            s.assets[seat] + s.completed[seat] + s.completed_hidden[seat] + \
            ([s.missions[seat]] if s.missions[seat] else []):
        s.discard(x)
    s.hands[seat], s.corruption_face_up[seat], s.corruption_face_down[seat] = [], [], []
    s.trophies[seat], s.assets[seat] = [], []
    s.completed[seat], s.completed_hidden[seat], s.objective_tokens[seat] = [], [], []
    s.missions[seat] = ""
    s.influence[seat] = 0
    s.scenario_tokens[seat] = 0
    s.eliminated[seat] = True
    s.positions[seat] = ""
    left = [t for t in range(s.players) if not s.eliminated[t]]
    if len(left) == 1:
        s.end_game((left[0],), f"{s.who(left[0])} is the last player standing", RelicTermination.LAST_STANDING)
        return
    s.turn_ends(seat)


def win(s: RelicState, seat: int) -> None:
    D = s.data
    s.end_game((seat,), f"{s.who(seat)} wins the scenario: {D.scenarios[s.scenario].name} "
                        f"({D.characters[s.characters[seat]].name})", RelicTermination.SCENARIO_WON)


# -- missions ----------------------------------------------------------------------------------------------------
def objective(s: RelicState, seat: int) -> Effect | None:
    """The objective of the seat's active mission, if any."""
    m = s.missions[seat]
    return s.data.cards[m].objective if m else None


def activate_mission(s: RelicState, seat: int, m: str) -> None:
    s.missions[seat] = m
    s.mission_progress[seat] = 0
    obj = s.data.cards[m].objective
    s.objective_tokens[seat] = [str(x) for x in obj["spaces"]] \
        if obj is not None and obj.word == "objective_tokens" else []
    s.say(f"{s.who(seat)}'s active mission: {s.label(m)}" +
          (f" (objective tokens on {', '.join(s.data.spaces[x].name for x in s.objective_tokens[seat])})"
           if s.objective_tokens[seat] else ""))
    check_level(s, seat)


def complete_mission(s: RelicState, seat: int) -> None:
    m = s.missions[seat]
    s.missions[seat] = ""
    s.completed[seat].append(m)
    s.objective_tokens[seat] = []
    s.mission_progress[seat] = 0
    s.note_play(seat, m)
    s.say(f"{s.who(seat)} completes the mission {s.label(m)} ({s.completed_count(seat)} completed)")
    # the reward first, then the scenario's "on completing a mission" abilities (the first on top of the stack)
    for lid, src in reversed([(lid, src) for lid, src in s.whens(seat, "mission") if src == s.scenario]):
        s.push_effects(seat, lid, src, cause(s.data, src, "mission"))
    s.push_effects(seat, s.data.cards[m].reward, m, f"the reward of the mission {s.data.cards[m].name}")


def check_level(s: RelicState, seat: int) -> None:
    obj = objective(s, seat)
    if obj is not None and obj.word == "objective_level" and s.level[seat] >= int(obj["level"]):
        complete_mission(s, seat)


def defeated(s: RelicState, seat: int, x: str) -> None:
    """Seat ``seat`` defeated enemy ``x``: a defeat objective counts it."""
    obj = objective(s, seat)
    if obj is None or obj.word != "objective_defeat":
        return
    c = s.data.cards[x]
    if obj.get("trait") and c.trait != obj["trait"]:
        return
    if obj.get("attribute") and (c.attribute < 0 or ATTRS[c.attribute] != obj["attribute"]):
        return
    if c.value < int(obj.get("min_value", 0) or 0):
        return
    s.mission_progress[seat] += 1
    if s.mission_progress[seat] >= int(obj["count"]):
        complete_mission(s, seat)


def visit(s: RelicState, seat: int) -> None:
    """The end of a Movement phase on the seat's space: visit objectives and objective tokens."""
    here = s.positions[seat]
    if here in s.objective_tokens[seat]:
        s.objective_tokens[seat].remove(here)
        s.say(f"{s.who(seat)} takes back the objective token on {s.data.spaces[here].name}")
        obj = objective(s, seat)
        if obj is not None and obj.word == "objective_tokens" and not s.objective_tokens[seat]:
            complete_mission(s, seat)
            return
    obj = objective(s, seat)
    if obj is None or obj.word != "objective_visit":
        return
    sp = s.data.spaces[here]
    if (obj.get("space") and obj["space"] == here) or (obj.get("area") and obj["area"] == sp.area) or (
            obj.get("tier") and obj["tier"] == sp.tier):
        complete_mission(s, seat)


def check_trophies(s: RelicState, seat: int) -> None:
    obj = objective(s, seat)
    if obj is not None and obj.word == "objective_trophies" and s.trophy_points(seat) >= int(obj["points"]):
        complete_mission(s, seat)


def complete_from_deck(s: RelicState, seat: int, n: int) -> None:
    """Completed missions from the top of the Mission deck (face down: only the owner knows them)."""
    for _ in range(n):
        x = s.take_top("mission")
        if not x:
            s.say("The Mission deck is empty: no completed mission is gained")
            return
        s.completed_hidden[seat].append(x)
        s.note_draw(seat, x)
        s.say(f"{s.who(seat)} gains a completed mission ({s.completed_count(seat)} completed)")
        s.say(f"your completed mission is {s.label(x)}", (seat,))


# -- corruption --------------------------------------------------------------------------------------------------
def corruption_step(s: RelicState, seat: int, why: str = "") -> bool:
    """Draw one Corruption card for the seat: corrupted at the threshold (True); else face up if it activates
    (``why``: the cause the log gives)."""
    x = s.take_top("corruption")
    if x and why:
        s.say(f"{s.who(seat)} must draw a Corruption card: {why}")
    if not x:
        s.say("The Corruption deck is empty: no card is drawn")
        return False
    c = s.data.cards[x]
    s.note_draw(seat, x)
    count = s.corruption(seat) + 1
    trig = s.whens(seat, "corruption")
    if count >= s.threshold(seat):
        s.corruption_face_down[seat].append(x)
        s.say(f"{s.who(seat)} draws a Corruption card: {plural(count, 'Corruption card')}, the threshold is "
              f"{s.threshold(seat)}")
        corrupted(s, seat)
        if s.turn_cut_short:
            s.after_turn.extend(Effects(seat=seat, effects=lid, source=src) for lid, src in reversed(trig))
        else:
            s.push_effect_lists(seat, trig)
        return True
    s.push_effect_lists(seat, trig)
    if c.activation <= count:
        s.corruption_face_up[seat].append(x)
        s.note_play(seat, x)
        s.say(f"{s.who(seat)} draws {s.label(x)}: it activates, face up (activation {c.activation}, "
              f"{plural(count, 'Corruption card')} held)")
        s.push_effects(seat, c.effects, x)
    else:
        s.corruption_face_down[seat].append(x)
        s.say(f"{s.who(seat)} draws a Corruption card and places it face down (its activation is above the "
              f"{plural(count, 'Corruption card')} held)")
        s.say(f"your face-down Corruption card is {s.label(x)}", (seat,))
    return False


def check_threshold(s: RelicState, seat: int) -> None:
    if not s.eliminated[seat] and s.characters[seat] and s.corruption(seat) >= s.threshold(seat):
        corrupted(s, seat)


def remove_corruption(s: RelicState, seat: int, x: str, why: str = "") -> None:
    if x in s.corruption_face_up[seat]:
        s.corruption_face_up[seat].remove(x)
    else:
        s.corruption_face_down[seat].remove(x)
    s.discard(x)
    s.say(with_cause(f"{s.who(seat)} discards the Corruption card {s.label(x)}", why))


def discard_owned(s: RelicState, seat: int, x: str, why: str = "") -> None:
    """The seat discards one of its cards: a Power card, an asset, a trophy or a Corruption card (``why``: the
    cause the log gives)."""
    if x in s.hands[seat]:
        s.hands[seat].remove(x)
        s.discard(x)
        s.say(with_cause(f"{s.who(seat)} discards {s.label(x)}", why))
    elif x in s.assets[seat]:
        s.lose_asset(seat, x)
        s.say(with_cause(f"{s.who(seat)} discards {s.label(x)}", why))
        check_threshold(s, seat)
    elif x in s.trophies[seat]:
        s.trophies[seat].remove(x)
        s.discard(x)
        s.say(with_cause(f"{s.who(seat)} discards the trophy {s.label(x)}", why))
    else:
        remove_corruption(s, seat, x, why)


def discardable(s: RelicState, seat: int, what: str) -> list[str]:
    """The seat's cards a ``discard`` effect of ``what`` may take."""
    C = s.data.cards
    if what == "power":
        return list(s.hands[seat])
    if what == "corruption":
        return s.corruption_face_up[seat] + s.corruption_face_down[seat]
    if what == "trophy":
        return list(s.trophies[seat])
    if what == "asset":
        return list(s.assets[seat])
    return [a for a in s.assets[seat] if C[a].deck == what]
