"""A game of Relic as the kernel, the agents and the terminal use it: the state (``state.py``; the pending work's
code registered in ``RULES`` by ``turn.py``, ``dice.py``, ``battle.py``, ``experience.py``, ``effects.py`` and
``questions.py``) with the secret choice of the characters, the legal actions and ``apply``, what a seat sees (its
:class:`~.observation.RelicObservation`), the decisions in words (``asking.py``) and the checks of a loaded game
(``check.py``). The rules never import this module: it is the top of the package, below only ``__init__``."""

from __future__ import annotations

from wizprint.errors import EngineBug
from wizprint.solo.kernel import Action, Checks, declare
from wizprint.solo.kernel.screen import TwoStep

from .asking import describe, question, two_step
from .check import check_state
from .data import DECKS, SEAT_COLOURS, START_INFLUENCE
from .heroes import activate_mission
from .observation import BattleView, HeroView, RelicObservation
from .pending import BATTLE_PLAYER_ROLL, PHASE_SELECT, PHASE_START, Battle
from .state import RULES, RelicState
from .view import heading, last_words


@declare
class RelicGame(RelicState):
    """A game of Relic (the class the engine declares)."""

    # -- the secret choice of the characters ------------------------------------------------------------------------
    def _apply_pick(self, a: Action) -> None:
        assert self.selection is not None
        w = self.selection.waiting
        self.selection.commit(w, a.a)
        self.say(f"{self.who(w)} chooses a character")
        self.say(f"you choose {self.data.characters[a.a].name}", (w,))
        if self.selection.complete:
            self._finish_setup()

    def _finish_setup(self) -> None:
        D = self.data
        assert self.selection is not None
        for s in range(self.players):
            ch = str(self.selection.chosen[s])
            self.set_character(s, ch)
            self.influence[s] = START_INFLUENCE
            self.unused_characters.extend(c for c in self.dealt[s] if c != ch)
            self.say(f"{self.who(s)} ({SEAT_COLOURS[s]}) is the {D.characters[ch].name}, at "
                     f"{D.spaces[self.positions[s]].name}")
        self.unused_characters.sort()
        self.dealt = [[] for _ in range(self.players)]
        self.selection = None
        for s in range(self.players):
            self.draw_power(s, self.power_limit(s))
        for s in range(self.players):
            x = self.take_top("mission")
            if x:
                self.note_draw(s, x)
                activate_mission(self, s, x)
        self.phase = PHASE_START
        self.turn_player = self.players - 1  # the oldest player, seat 0, takes the first turn

    # -- the legal actions and applying one -------------------------------------------------------------------------
    def _legal_actions(self) -> list[Action]:
        if not self.stack:
            if self.phase == PHASE_SELECT and self.selection is not None:
                return [Action("pick", c) for c in self.dealt[self.selection.waiting]]
            raise EngineBug("relic: no decision is pending")
        top = self.stack[-1]
        fn = RULES.legals.get(type(top))
        return fn(self, top) if fn is not None else RULES.legal_for(self, top)  # (which raises)

    def _apply(self, action: Action) -> None:
        if not self.stack:
            self._apply_pick(action)
        else:
            top = self.stack[-1]
            fn = RULES.appliers.get(type(top))
            if fn is None:
                RULES.apply_to(self, top, action)  # raises
            else:
                fn(self, top, action)
        self.advance()

    def check_rules(self, chk: Checks) -> None:
        """A saved game is untrusted: besides the kernel's checks, the per-seat fields, characters, spaces, cards in
        zones of their kind, numbers in range and pending work that names what exists (``check.py``)."""
        check_state(self, chk)

    # -- what a seat sees -------------------------------------------------------------------------------------------
    def hero(self, s: int) -> HeroView:
        """Seat ``s``'s hero as every seat sees it."""
        return {"character": self.characters[s], "colour": SEAT_COLOURS[s], "space": self.positions[s],
                "attributes": list(self.attributes[s]), "life": self.life[s], "level": self.level[s],
                "influence": self.influence[s], "hand": len(self.hands[s]), "assets": list(self.assets[s]),
                "trophies": list(self.trophies[s]), "corruption_up": list(self.corruption_face_up[s]),
                "corruption_down": len(self.corruption_face_down[s]), "mission": self.missions[s],
                "completed": list(self.completed[s]), "completed_hidden": len(self.completed_hidden[s]),
                "tokens": list(self.objective_tokens[s]), "scenario_tokens": self.scenario_tokens[s],
                "progress": self.mission_progress[s], "skip": self.skips[s], "eliminated": self.eliminated[s]}

    def observation(self, seat: int) -> RelicObservation:
        obs: RelicObservation = {
            "game": self.data.id, "seat": seat, "players": self.players, "scenario": self.scenario,
            "phase": str(self.phase), "turn": self.turn_number, "active": self.turn_player,
            "current": self.current_player, "table": [self.hero(s) for s in range(self.players)],
            "hand": sorted(self.hands[seat]), "my_corruption_down": sorted(self.corruption_face_down[seat]),
            "my_completed_hidden": sorted(self.completed_hidden[seat]),
            "board": {k: list(v) for k, v in sorted(self.board.items())},
            "decks": {d: len(self.decks[d]) for d in DECKS}, "discards": {d: list(self.discards[d]) for d in DECKS},
            "revealed": list(self.revealed), "charges": dict(sorted(self.charges.items())),
            "spent": list(self.spent), "evaded": list(self.evaded), "evade_uses": list(self.evade_uses),
            "unused_characters": sorted(self.unused_characters) if self.selection is None else None,
            "retired": list(self.retired_characters),
            "stack": [{"kind": f.kind, **f.to_json()} for f in self.stack],
            "last": self.last.as_dict() if self.last is not None else {},
            "log": self.visible_log(seat),
            "heading": heading(self, seat),
            "last_words": last_words(self, seat),
            "guardians": list(self.data.guardians),
        }
        bat = next((f for f in reversed(self.stack) if isinstance(f, Battle)), None)
        if bat is not None:
            obs["battle"] = BattleView(seat=bat.seat, score=self.battle_bonus(bat), enemy=self.enemy_bonus(bat),
                                       enemy_roll=bat.enemy_roll if bat.step >= BATTLE_PLAYER_ROLL else None)
        if self.selection is not None:
            obs["dealt"] = list(self.dealt[seat])
            obs["choices"] = self.selection.view(seat)
        if self.result is not None:
            obs["outcome"] = self.result.as_dict()
        return obs

    # -- the decisions in words -------------------------------------------------------------------------------------
    def describe(self, action: Action) -> str:
        return describe(self, action)

    def question(self) -> str:
        return question(self)

    def two_step(self, legal: list[Action]) -> TwoStep | None:
        return two_step(self, legal)


__all__ = ["RelicGame"]
