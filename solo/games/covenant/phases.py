"""The phases of a Covenant turn and what the turn player may do in each (when no pending work waits):

- Research's discard down to the hand limit (``discard C``);
- Event: ``cast S [T]`` / ``play E [T]`` (a non-combat spell or an event, T its target card or seat),
  ``act W conjuror|maker|stealth|scry:deck|scry:N`` (a wizard action), ``grant R W`` (a resource's grant_one);
- Duel: ``duel W N`` (W challenges seat N with a Wizards Duel card);
- Summon: ``summon C`` (wizard, resource, stand-alone follower), ``attach C W`` (item or attaching follower);
- Adventure: ``quest Q``;
- ``end`` ends the phase (in the Adventure phase, the turn).
"""

from __future__ import annotations

from wizprint.errors import EngineBug
from wizprint.solo.kernel import Action, one_per_design

from .data import ACTION_ABILITIES
from .effects import targets
from .pending import Duel, Effects, EffectSource, Quest, QuestStep, WizardAct, WizardAction
from .state import CovenantState, Phase, SummonSlot

EXTRA_SLOT = {"wizard": (SummonSlot.WIZARD, "adventurer"), "item": (SummonSlot.ITEM, "maker"),
              "follower": (SummonSlot.FOLLOWER, "nature")}


def summon_slot(s: CovenantState, seat: int, typ: str) -> SummonSlot | None:
    """The summon a card of this type would use now (an ability's extra first), or None."""
    extra = EXTRA_SLOT.get(typ)
    if extra and extra[0] not in s.summons and s.has_ability(seat, extra[1]):
        return extra[0]
    return None if SummonSlot.BASE in s.summons else SummonSlot.BASE


END = Action("end")  # a move is a value: the same one serves every list


def phase_actions(s: CovenantState, hand: list[str] | None = None) -> list[Action]:
    """The turn player's moves in the phase (``hand``: as if it held these cards)."""
    p = s.turn_player
    c = s.data.cards
    if hand is None:
        hand = s.hands[p]
    out: list[Action] = []
    phase = s.phase
    if phase is Phase.DISCARD:
        discard = s.data.card_moves["discard"]
        return [discard[x] for x in one_per_design(hand)]
    if phase is Phase.EVENT:
        has_wiz = bool(s.wizards[p])
        moves = s.data.event_moves
        for x in one_per_design(hand):
            m = moves.get(x)
            if m is None:
                continue
            kind, needs_wiz, targeted, needs_deck, move = m
            if needs_wiz and not has_wiz:
                continue
            if targeted:
                eff = c[x].first_active
                out.extend(Action(kind, x, t) for t in targets(s, p, targeted, eff.what))
            elif needs_deck and not s.deck:
                continue
            else:
                out.append(move)
        wizards = s.wizards[p]
        acts_of = s.data.action_abilities
        stealable: bool | None = None  # a rival has an item (worked out when a wizard has stealth)
        for w in wizards:
            if w in s.acted:
                continue
            ab = s.abilities(w)
            acting = acts_of.get(ab)
            if acting is None:
                acting = acts_of[ab] = tuple(a for a in ACTION_ABILITIES if a in ab)
            for a in acting:
                if a == "scry":
                    if s.deck:
                        out.append(Action("act", w, WizardAct("scry", "deck")))
                    out.extend(Action("act", w, WizardAct("scry", r)) for r in s.rivals(p) if s.hands[r])
                elif a == "stealth":
                    if stealable is None:
                        stealable = any(s.items_of(r) for r in s.rivals(p))
                    if stealable:
                        out.append(Action("act", w, WizardAct(a)))
                else:
                    out.append(Action("act", w, WizardAct(a)))
        for r in s.resources[p]:
            g = c[r].grant_one
            if not g or r in s.grants_used:
                continue
            for w in wizards:
                if not s.abilities(w).issuperset(g):
                    out.append(Action("grant", r, w))
    elif phase is Phase.DUEL:
        if s.wizards[p] and any(c[x].duel for x in hand):
            foes = [r for r in s.rivals(p) if s.wizards[r]]
            for w in s.wizards[p]:
                out.extend(Action("duel", w, str(r)) for r in foes)
    elif phase is Phase.SUMMON:
        slots: dict[str, SummonSlot | None] = {}  # by card type: the same for every card of a type
        for x in one_per_design(hand):
            info = c[x]
            t = info.type
            if t not in ("wizard", "item", "follower", "resource"):
                continue
            slot = slots[t] if t in slots else slots.setdefault(t, summon_slot(s, p, t))
            if not slot:
                continue
            if t == "item" or (t == "follower" and info.attach):
                out.extend(Action("attach", x, w) for w in s.wizards[p])
            else:
                out.append(s.data.card_moves["summon"][x])
    elif phase is Phase.ADVENTURE and any(w not in s.acted and w not in s.duelled for w in s.wizards[p]):
        quest = s.data.card_moves["quest"]
        out.extend(quest[x] for x in one_per_design(hand) if c[x].type == "quest")
    out.append(END)
    return out


def apply_phase(s: CovenantState, action: Action) -> None:
    k, a, b = action.kind, action.a, action.b
    p = s.turn_player
    c = s.data.cards
    if k == "end":
        s.end_phase()
    elif k == "discard":
        s.discard_from_hand(p, a)
        s.say(f"P{p + 1} discards {s.label(a)}: over the hand limit of {s.hand_limit(p)}")
    elif k in ("cast", "play"):
        s.to_limbo(p, a)
        on = "" if not b else f" on P{int(b) + 1}" if b.isdigit() else (
            f" on P{s.controller(b) + 1}'s {s.label(b)}" if s.controller(b) >= 0 else f" on {s.label(b)}")
        s.say(f"P{p + 1} {'casts' if k == 'cast' else 'plays'} {s.label(a)}{on}")
        s.push_play(p, a, "spell" if k == "cast" else "event", b)
    elif k == "act":
        s.acted.append(a)
        act = WizardAct.of(b)
        at = act.looks_at
        on = "" if at is None else " on the top 5 cards of the deck" if at == "deck" else f" on P{at + 1}'s hand"
        s.say(f"P{p + 1}'s {s.label(a)} uses its {act.ability.capitalize()} action{on}")
        s.stack.append(WizardAction(seat=p, wizard=a, ability=act.ability, target=act.target))
    elif k == "grant":
        s.grants_used.append(a)
        s.granted[b] = (*s.granted.get(b, ()), *c[a].grant_one)
        gift = " and ".join(x.capitalize() for x in c[a].grant_one)
        s.say(f"P{p + 1}'s {s.label(a)} gives {s.label(b)} {gift} until the turn ends")
    elif k == "duel":
        card = next(x for x in sorted(s.hands[p]) if c[x].duel)
        s.to_limbo(p, card)
        r = int(b)
        s.say(f"P{p + 1} plays {s.label(card)}: {s.label(a)} challenges P{r + 1}")
        s.stack.append(Duel(seat=p, card=card, challenger=a, rival=r))
    elif k in ("summon", "attach"):
        info = c[a]
        slot = summon_slot(s, p, info.type)
        assert slot is not None
        s.summons.append(slot)
        s.from_hand(p, a)
        s.note_play(p, a)
        if k == "attach":
            s.attach(a, b)
            s.say(f"P{p + 1} attaches {s.label(a)} to {s.label(b)}")
        else:
            {"wizard": s.wizards, "resource": s.resources, "follower": s.followers}[info.type][p].append(a)
            s.say(f"P{p + 1} summons {s.label(a)}")
        if s.check_win():
            return
        if info.on_enter:
            s.stack.append(Effects(seat=p, card=a, source=EffectSource.ON_ENTER))
    elif k == "quest":
        s.to_limbo(p, a)
        s.say(f"P{p + 1} plays {s.label(a)} and goes on the quest")
        q = Quest(seat=p, card=a, who=p)
        cands = s.quest_candidates(p)
        if len(cands) == 1:  # no choice: the only wizard goes
            q.participants = (cands[0], *[x for x in s.attached.get(cands[0], ()) if c[x].type == "follower"])
            q.step = QuestStep.SET_OUT
        s.stack.append(q)
    else:
        raise EngineBug(f"cannot apply {action.key}")
