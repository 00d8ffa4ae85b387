"""What the engines' speed-ups rely on: the same seed gives the same game whatever the caches hold; a cached list
of legal actions is the list worked out afresh; ``determinize`` reads the log as it always did; Relic's kit of
passive words says what the sources say; the automaton's compiled effect values are its word-by-word values."""

from __future__ import annotations

from typing import Any

import pytest

from wizprint.solo.agents import RandomAgent
from wizprint.solo.games.relic import RelicAutomaton, RelicState, RelicView
from wizprint.solo.kernel import Agent, Rng, State, engine, engine_games, readable
from wizprint.solo.kernel.rng import derive

GAMES = engine_games()


def _play(game: str, seed: int, bot: str) -> State[Any]:
    eng = engine(game)
    s = eng.new_state(eng.min_players, seed)
    agents: list[Agent] = []
    if bot == "random":
        agents += [RandomAgent(seed * 10 + i) for i in range(s.players)]
    else:
        for i in range(s.players):
            a = eng.automaton()
            seeder = getattr(a, "seed", None)
            if callable(seeder):
                seeder(derive(seed, "agent", i))
            agents.append(a)
    while not s.is_terminal():
        legal = s.legal_actions()
        s.apply(legal[0] if len(legal) == 1 else agents[s.current_player].choose(s, s.current_player))
    return s


@pytest.mark.parametrize("game", GAMES)
def test_same_seed_same_game_cold_or_warm(game: str) -> None:
    """A game played again (the card data's caches now warm) is the same game, move for move."""
    for bot in ("random", "automaton"):
        for seed in (3, 4):
            a, b = _play(game, seed, bot), _play(game, seed, bot)
            assert a.steps == b.steps and a.outcome() == b.outcome()
            assert a.to_json() == b.to_json()


@pytest.mark.parametrize("game", GAMES)
def test_legal_actions_as_worked_out_afresh(game: str) -> None:
    """At every step the legal actions (cached, or handed over by the rules as they decided who moves) are those a
    copy of the state works out from nothing."""
    eng = engine(game)
    for seed in (1, 2):
        s = eng.new_state(eng.min_players, seed)
        agent = RandomAgent(seed)
        while not s.is_terminal() and s.steps < 400:
            assert s.legal_actions() == s.clone().legal_actions()
            s.apply(agent.choose(s, s.current_player))


@pytest.mark.parametrize("game", GAMES)
def test_determinize_reads_the_log_as_before(game: str) -> None:
    """Determinizing the same state again (the sorted log lines kept) and after more play gives each seat exactly
    the lines it may read."""
    eng = engine(game)
    s = eng.new_state(eng.min_players, 7)
    agent = RandomAgent(7)
    for _ in range(6):
        for _ in range(15):
            if s.is_terminal():
                return
            s.apply(agent.choose(s, s.current_player))
        for seat in range(s.players):
            want = [e for e in s.log if readable(e, seat)]
            for _ in range(2):
                d = s.determinize(seat, Rng(seat))
                assert d.log == want
                d.say("a line of the sample's own")  # the sample's log is its own
            assert s.determinize(seat, Rng(1)).log == want


def _sources(s: RelicState, seat: int) -> list[Any]:
    """The passive words in force for a seat, as the rules define them (character, assets other than a weapon or
    armour, face-up Corruption cards)."""
    C = s.data.cards
    out = [s.data.characters[s.characters[seat]].passives] if s.characters[seat] else []
    out += [C[a].passives for a in s.assets[seat] if C[a].gear not in ("weapon", "armour")]
    out += [C[x].passives for x in s.corruption_face_up[seat]]
    return out


def _whens(s: RelicState, seat: int, event: str, traits: tuple[str, ...] = ()) -> list[tuple[int, str]]:
    C = s.data.cards
    srcs = [(s.data.characters[s.characters[seat]].passives, s.characters[seat])] if s.characters[seat] else []
    srcs += [(C[a].passives, a) for a in s.assets[seat]]
    srcs += [(C[x].passives, x) for x in s.corruption_face_up[seat]]
    out = [(lid, src) for p, src in srcs for ev, vs, lid in p.when if ev == event and (not vs or vs in traits)]
    out += [(lid, s.scenario) for ev, lid in s.data.scenarios[s.scenario].passives.scenario_when if ev == event]
    return out


def _relic_states(n: int = 40) -> list[RelicState]:
    eng = engine("relic")
    out: list[RelicState] = []
    for seed in range(4):
        s = eng.new_state(3, seed)
        assert isinstance(s, RelicState)
        agent = RandomAgent(seed)
        while not s.is_terminal() and len(out) < n * (seed + 1):
            s.apply(agent.choose(s, s.current_player))
            if s.steps % 23 == 0 and all(s.characters):
                out.append(s.clone())
    return out


def test_relic_kit_says_what_the_sources_say() -> None:
    events = sorted({ev for c in engine("relic").data.cards.values() for ev, _, _ in c.passives.when} |
                    {"turn_end", "exploration_end", "corruption", "mission", "enter_inner", "vanquished"})
    for s in _relic_states():
        for seat in range(s.players):
            srcs = _sources(s, seat)
            assert s.sources(seat) == srcs
            for what in ("power", "asset", "corruption", "evade", "heal", "buy", "reroll"):
                assert s.can(seat, what) == (not any(what in p.cannot for p in srcs))
                assert s.limit_change(seat, what) == sum(n for p in srcs for w, n in p.limits if w == what)
            for a in range(3):
                assert s.skill(seat, a) == sum(n for p in srcs for ai, n in p.skill_bonus if ai == a)
            assert s.extra_dice(seat, "battle") == sum(p.extra_battle_dice for p in srcs)
            assert s.extra_dice(seat, "test") == sum(p.extra_test_dice for p in srcs)
            assert s.movement_dice(seat) == max([1] + [p.movement_dice for p in srcs])
            live = s.data.live_events[s.scenario]  # `whens` gathers nothing for any other event
            for ev in [*events, "turn_start", "movement_start", "engagement_start", "battle_start"]:
                for traits in ((), ("Daemon",), ("Ork", "Chaos")):
                    assert s.whens(seat, ev, traits) == _whens(s, seat, ev, traits)
                    assert ev in live or not _whens(s, seat, ev, traits)


def test_relic_compiled_effect_values_are_the_word_by_word_values() -> None:
    data = engine("relic").data
    effects = [e for lst in data.lists.lists for e in lst]
    stack = list(effects)
    while stack:  # every nested effect too
        e = stack.pop()
        for key, v in e.params.items():
            if key.startswith("then"):
                effects.extend(v)
                stack.extend(v)
            elif key in ("options", "results"):
                for o in v:
                    effects.extend(o["then"])
                    stack.extend(o["then"])
    for s in _relic_states(15):
        for seat in range(s.players):
            auto = RelicAutomaton()
            v = RelicView(s, seat)
            auto.goal(v)  # as in play: the goal is set before effects that read it are valued
            for e in effects:
                try:
                    want = auto.eff_value_of(v, e)
                except Exception as exc:  # the compiled value must fail alike
                    with pytest.raises(type(exc)):
                        auto.eff_value(v, e)
                    continue
                assert auto.eff_value(v, e) == want, e
