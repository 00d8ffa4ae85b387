"""The engine kernel: declared fields (clone and JSON derived, every loaded value checked), zones and scripted
chance, the [engine] table, game ids before folders, and the import layering (no cycles; the solo engine never
imports the printer; the kernel imports no game)."""

from __future__ import annotations

import ast
import enum
import json
import subprocess
import sys
from dataclasses import field
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import run_here

from wizprint.errors import EngineError, SaveError, WizprintError
from wizprint.solo.kernel import (
    Commitments,
    Declared,
    LogEntry,
    Outcome,
    added,
    declare,
    engine,
    line_text,
    readable,
    value,
)
from wizprint.solo.kernel.rng import Rng

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = {"core": "wizprint", "cards": "wizprint.cards", "generator": "wizprint.generator", "solo": "wizprint.solo",
            "layouts": "wizprint.layouts"}


class Colour(enum.StrEnum):
    RED = "red"
    BLUE = "blue"


class Step(enum.IntEnum):
    START = 0
    DONE = 9


@value
class Point(Declared):
    x: int = 0
    label: str = ""


@declare
class Item(Declared):
    kind = ""


@declare
class Roll(Item):
    kind = "roll"
    step: Step = Step.START
    dice: tuple[int, ...] = ()


@declare
class Fight(Item):
    kind = "fight"
    foes: list[str] = field(default_factory=list)
    colour: Colour = Colour.RED


@declare
class Sample(Declared):
    n: int = 0
    ratio: float = 0.5
    names: list[str] = field(default_factory=list)
    piles: list[list[str]] = field(default_factory=list)
    by_key: dict[str, list[int]] = field(default_factory=dict)
    by_seat: dict[int, str] = field(default_factory=dict)
    maybe: Point | None = None
    stack: list[Item] = field(default_factory=list)
    tags: set[str] = field(default_factory=set)
    rng: Rng = field(default_factory=Rng)


def sample() -> Sample:
    return Sample(3, 0.25, ["a"], [["b", "c"], []], {"k": [1, 2]}, {1: "one"}, Point(2, "p"),
                  [Roll(Step.DONE, (6, 1)), Fight(["TR01"], Colour.BLUE)], {"t"}, Rng(99))


def test_declared_fields_clone_deep_and_share_values() -> None:
    s = sample()
    c = s.clone()
    assert c.to_json() == s.to_json()
    c.piles[0].append("x")
    c.by_key["k"].append(3)
    assert isinstance(c.stack[1], Fight)
    c.stack[1].foes.append("TB01")
    c.tags.add("u")
    c.rng.next64()
    assert s.piles == [["b", "c"], []] and s.by_key == {"k": [1, 2]} and s.stack[1].foes == ["TR01"]  # type: ignore
    assert s.tags == {"t"} and s.rng.state == 99
    assert c.maybe is s.maybe  # a value is shared, never copied


def test_declared_fields_json_round_trip_with_kinds() -> None:
    s = sample()
    j = json.loads(json.dumps(s.to_json()))
    assert j["stack"][0] == {"kind": "roll", "step": 9, "dice": [6, 1]} and j["by_seat"] == {"1": "one"}
    back = Sample.load_json(j)
    assert back.to_json() == s.to_json() and isinstance(back.stack[1], Fight) and back.stack[1].colour is Colour.BLUE


@pytest.mark.parametrize("path,bad,words", [
    ("n", "3", "Sample.n: expected a whole number"),
    ("ratio", float("nan"), "Sample.ratio: expected a finite number"),
    ("n", 10**40, "a whole number of a sensible size"),
    ("names", {"a": 1}, "Sample.names: expected a list"),
    ("by_seat", {"x": "one"}, "a whole-number key"),
    ("stack", [{"kind": "dance"}], "Sample.stack[0].kind: expected one of fight, roll"),
    ("stack", [{"kind": "roll", "step": 4, "dice": []}], "Sample.stack[0].step: expected one of 0, 9"),
    ("rng", -1, "expected a generator state"),
    ("maybe", {"x": 1}, "Sample.maybe.label: missing"),
])
def test_loading_checks_every_value_with_its_path(path: str, bad: object, words: str) -> None:
    j = sample().to_json()
    j[path] = bad
    with pytest.raises(SaveError, match=words.replace("[", r"\[").replace("]", r"\]")):
        Sample.load_json(j)


def test_unknown_and_missing_keys_are_refused() -> None:
    j = sample().to_json()
    with pytest.raises(SaveError, match="unknown key 'extra'"):
        Sample.load_json({**j, "extra": 1})
    del j["n"]
    with pytest.raises(SaveError, match=r"Sample\.n: missing"):
        Sample.load_json(j)


@declare
class Grown(Declared):
    """A declared class that gained a field after objects of it were saved."""

    n: int = 0
    later: list[str] = added(list)


def test_a_field_added_later_loads_from_a_save_without_it_and_is_named_missing() -> None:
    old = Grown.load_json({"n": 2})
    assert old.n == 2 and old.later == [] and old.missing == {"later"}
    new = Grown.load_json({"n": 2, "later": ["x"]})
    assert new.later == ["x"] and new.missing == frozenset()
    assert "missing" not in new.to_json() and new.clone().missing == frozenset()
    with pytest.raises(SaveError, match=r"Grown\.n: missing"):  # a field that is not marked added stays required
        Grown.load_json({"later": []})


def test_a_type_the_kernel_cannot_save_is_refused_when_declared() -> None:
    @declare
    class Bad(Declared):
        blob: object = None

    with pytest.raises(TypeError, match="cannot declare a field of type"):
        Bad().clone()


def test_values_and_commitments() -> None:
    o = Outcome((1,), (0.0, 3.0), "P2 wins")
    assert Outcome.load_json(json.loads(json.dumps(o.to_json()))) == o
    c = Commitments([0, 1])
    c.commit(0, "CH03")
    assert c.view(1) == {"0": "committed", "1": None} and c.view(0)["0"] == "CH03" and c.waiting == 1
    assert Commitments.load_json(c.to_json()).chosen == {0: "CH03"}


def test_zones_arrange_and_scripted_chance() -> None:
    eng = engine("wizard-cards")
    s = eng.new_state(2, 5)
    zones = s.zones()
    assert set(zones) >= {"spell_pile", "discard", "hand.0", "hand.1", "damage.0", "ward.1", "spell"}
    top = s.spell_pile[:3]
    s.arrange("spell_pile", top)
    assert s.spell_pile[-3:] == list(reversed(top))
    with pytest.raises(EngineError, match=r"has no pile named 'hand\.7'"):
        s.arrange("hand.7", [])
    with pytest.raises(EngineError, match="is not in spell_pile"):
        s.arrange("spell_pile", [s.hands[0][0]])
    s.script(dice=[4, 6], picks=["b"], strict=True)
    assert (s.roll(), s.roll()) == (4, 6)
    assert s.pick(["a", "b"], "letter") == "b"
    with pytest.raises(EngineError, match="does not script"):
        s.roll()
    with pytest.raises(EngineError, match="a random letter"):
        s.pick(["a", "b"], "letter")
    s.script(picks=["z"])
    with pytest.raises(EngineError, match="not one of the letter"):
        s.pick(["a", "b"], "letter")


def test_a_fault_of_an_engines_code_is_a_bug_not_a_users_error() -> None:
    """A handler registered twice, an effect word the engine has no handler for: faults of an engine's code, raised
    as EngineBug (outside the user's errors: the command line shows the traceback and asks for a report), while a
    scenario's pile that does not exist stays the user's EngineError (above)."""
    from wizprint.errors import EngineBug
    from wizprint.solo.games.covenant.pending import Choice
    from wizprint.solo.kernel.pending import Rules, Words

    assert not issubclass(EngineBug, WizprintError)
    words: Words[Any] = Words("test")
    words("draw")(print)
    with pytest.raises(EngineBug, match="two handlers for the effect word 'draw'"):
        words("draw")(print)
    with pytest.raises(EngineBug, match="no handler for the effect word 'scry'"):
        words.get("scry")
    rules: Rules[Any] = Rules("test")
    rules.run(Choice)(lambda s, item: True)
    with pytest.raises(EngineBug, match="two 'run' handlers for Choice"):
        rules.run(Choice)(lambda s, item: False)


def test_a_saved_state_is_checked_against_the_rules() -> None:
    eng = engine("wizard-cards")
    j = eng.new_state(2, 5).to_json()
    for key, bad, words in (("turn_player", 5, "seat 5 does not exist"), ("players", 40, "not a number of players"),
                            ("game", "relic", "not a saved game of wizard-cards"),
                            ("hands", "all", "state.hands: expected a list")):
        with pytest.raises(SaveError, match=words):
            eng.from_json({**j, key: bad})


def test_log_lines_keep_public_text_bare_and_save_every_line_alike() -> None:
    """A line everybody reads is kept as its text (no object for the garbage collector to visit); a line for some
    seats is a LogEntry; a saved game writes both as {"text", "seats"} and loads them back as they were kept, also
    from a save that wrote a public line with "seats": null."""
    eng = engine("wizard-cards")
    s = eng.new_state(2, 5)
    start = len(s.log)
    s.say("everybody reads this")
    s.say("only P2 reads this", [1])
    public, private = s.log[start:]
    assert type(public) is str and isinstance(private, LogEntry) and private.seats == (1,)
    assert [readable(x, 0) for x in (public, private)] == [True, False] and readable(private, 1)
    assert s.log_texts(0, start) == ["everybody reads this"]
    assert s.log_texts(1, start) == s.log_texts(start=start) == ["everybody reads this", "only P2 reads this"]
    j = json.loads(json.dumps(s.to_json()))
    assert j["log"][start:] == [{"text": "everybody reads this", "seats": None},
                                {"text": "only P2 reads this", "seats": [1]}]
    back = eng.from_json(j)
    assert back.log == s.log and type(back.log[start]) is str and line_text(back.log[start + 1]) == "only P2 reads this"
    sample = s.determinize(0, Rng(3)).log_texts()
    assert sample[-1] == "everybody reads this" and "only P2 reads this" not in sample
    j["log"][start] = {"text": "everybody reads this", "seats": ["P1"]}
    with pytest.raises(SaveError, match=rf"state\.log\[{start}\]\.seats\[0\]: expected a whole number"):
        eng.from_json(j)


def test_the_visible_log_is_the_last_lines_a_seat_may_read() -> None:
    """``visible_log`` (read from the end of the log) gives what filtering the whole log and keeping its tail
    gives, for every seat and length, private lines included."""
    eng = engine("wizard-cards")
    s = eng.new_state(2, 5)
    for i in range(30):
        s.say(f"line {i} for P{i % 3}", [i % 3] if i % 3 < 2 else None)
    assert any(not readable(e, 0) for e in s.log) and any(not readable(e, 1) for e in s.log)
    for seat in (0, 1):
        whole = s.log_texts(seat)
        for last in (1, 2, 7, 40, len(whole), len(whole) + 5, 0, -3):
            assert s.visible_log(seat, last) == whole[-last:], (seat, last)
    assert s.visible_log(0, 3) == ["line 26 for P2", "line 27 for P0", "line 29 for P2"]


# -- the [engine] table and game references ----------------------------------------------------------------------
def test_engines_are_declared_in_data(game_copy: object) -> None:
    eng = engine("wizard-cards")
    assert (eng.min_players, eng.max_players, eng.variants, eng.decl.step_cap) == (2, 2, ("hectic", "constructed"),
                                                                                    5000)


@pytest.mark.parametrize("old,new,words", [
    ('module = "wizard_cards"', 'module = "os"', "module 'os' is not an engine of wizprint"),
    ('module = "wizard_cards"', 'module = "../evil"', "[engine] module must name an engine package"),
    ("step_cap = 5000", 'step_cap = "many"', "step_cap must be a whole number"),
    ('search = "tree"', 'search = "deep"', "search must be 'tree' or 'paired'"),
    ('search = "tree"', 'search = "tree"\nrivals = "psychic"', "rivals must be 'search' or 'automaton'"),
    ("search_budget = 800", "search_budget = 0", "search_budget must be a whole number from 1"),
    ("search_budget = 800", "search_budget = 800\ncolour = 3", "[engine] unknown key 'colour'"),
])
def test_a_bad_engine_table_is_a_clear_error(game_copy, old: str, new: str, words: str) -> None:  # type: ignore
    g = game_copy("wizard-cards")
    p = g / "game.toml"
    p.write_text(p.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
    with pytest.raises(WizprintError) as info:
        engine(str(g))
    assert words in str(info.value) and "game.toml:" in str(info.value)


def test_the_search_bot_takes_rivals_from_the_engine_table(game_copy) -> None:  # type: ignore[no-untyped-def]
    """``rivals = "automaton"``: the tree takes the rivals' moves from the automaton (secret simultaneous choices)."""
    from wizprint.solo.agents.mcts import MctsAgent

    assert MctsAgent(engine("wizard-cards")).rivals == "search"
    g = game_copy("wizard-cards")
    p = g / "game.toml"
    p.write_text(p.read_text(encoding="utf-8").replace('search = "tree"', 'search = "tree"\nrivals = "automaton"'),
                 encoding="utf-8")
    eng = engine(str(g))
    assert eng.decl.rivals == "automaton" and MctsAgent(eng).rivals == "automaton"
    s = eng.new_state(2, 4)
    bot = MctsAgent(eng, iterations=40, seed=1)
    while not s.is_terminal():
        s.apply(bot.choose(s, s.current_player))
    assert s.result is not None


def test_an_edited_copy_of_a_game_plays_as_it_prints(game_copy) -> None:  # type: ignore[no-untyped-def]
    """The engine reads the folder it is given: a copy where every Lesser Ward (magnitude 1) absorbs 2 plays so."""
    g = game_copy("wizard-cards")
    p = g / "components.toml"
    text = p.read_text(encoding="utf-8")
    assert "magnitude = 1" in text
    p.write_text(text.replace('word = "ward", magnitude = 1', 'word = "ward", magnitude = 2'), encoding="utf-8")
    copy = engine(str(g))
    assert copy.data.spells["AS"].magnitude == 2 and engine("wizard-cards").data.spells["AS"].magnitude == 1


def test_a_game_id_is_not_hidden_by_a_folder_of_that_name(tmp_path: Path) -> None:
    (tmp_path / "covenant").mkdir()
    (tmp_path / "output" / "relic").mkdir(parents=True)
    for args, cwd in ((["solo", "check", "covenant", "--games", "3", "-q"], tmp_path),
                      (["export", "csv", "covenant"], tmp_path),
                      (["export", "csv", "relic"], tmp_path / "output")):
        r = run_here(*args, cwd=cwd)  # what the command reads from its folder: in-process
        assert r.returncode == 0, r.stderr
    r = run_here("export", "csv", "./covenant", cwd=tmp_path)
    assert r.returncode == 1 and "not a game folder" in r.stderr


# -- layering ----------------------------------------------------------------------------------------------------
def _module_of(path: Path) -> str:
    rel = path.relative_to(ROOT)
    parts = list(rel.with_suffix("").parts)
    base = PACKAGES[parts[0]].split(".")
    rest = parts[1:]
    if rest and rest[-1] == "__init__":
        rest = rest[:-1]
    return ".".join(base + rest)


def _imports(path: Path, module: str) -> set[str]:
    """Every module ``path`` imports, wherever the import is (see :func:`_imported`)."""
    return _imported(path.read_text(encoding="utf-8"), module, path.name == "__init__.py")


def _imported(source: str, module: str, package: bool = False) -> set[str]:
    """Every module (and name) the code of ``module`` imports, wherever the import is: at module level, inside a
    function, under ``if TYPE_CHECKING`` (a cycle through any of them is a cycle a reader must follow, and one an
    edit can make live)."""
    pkg = module if package else module.rpartition(".")[0]
    out: set[str] = set()
    for n in ast.walk(ast.parse(source)):
        if isinstance(n, ast.Import):
            out.update(a.name for a in n.names)
        elif isinstance(n, ast.ImportFrom):
            if n.level:
                base = pkg.split(".")
                base = base[: len(base) - (n.level - 1)]
                target = ".".join(base + ([n.module] if n.module else []))
            else:
                target = n.module or ""
            out.add(target)
            for a in n.names:
                out.add(f"{target}.{a.name}")
    return out


def _graph() -> dict[str, set[str]]:
    files = [p for d in ("core", "cards", "generator", "solo") for p in (ROOT / d).rglob("*.py")]
    mods = {_module_of(p): p for p in files}
    graph: dict[str, set[str]] = {}
    for m, p in mods.items():
        graph[m] = {t for t in _imports(p, m) if t in mods and t != m}
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of modules of more than one (Tarjan's algorithm): each group a cycle, or
    several cycles that share modules."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[list[str]] = []

    def strong(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v]:
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                cycles.append(sorted(comp))

    sys.setrecursionlimit(10_000)
    for v in graph:
        if v not in index:
            strong(v)
    return sorted(cycles)


def test_the_cycle_finder_counts_every_kind_of_import() -> None:
    """An import inside a function, one under TYPE_CHECKING, and a package's submodule that imports its package
    back each close a cycle; imports that only go one way close none."""
    sources = {
        "p.a": ("from p.b import x\n", False),
        "p.b": ("def f():\n    from . import a\n", False),
        "p.c": ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from p.d import y\n", False),
        "p.d": ("import p.c\n", False),
        "p": ("def make():\n    from .e import E\n", True),
        "p.e": ("from . import helper\n", False),
        "p.f": ("from p.a import z\nfrom .d import w\n", False),
    }
    graph = {m: {t for t in _imported(src, m, package) if t in sources and t != m}
             for m, (src, package) in sources.items()}
    assert _cycles(graph) == [["p", "p.e"], ["p.a", "p.b"], ["p.c", "p.d"]]


def test_no_import_cycles() -> None:
    """No module imports, through any chain of imports of any kind (:func:`_imports`), a module that imports it."""
    assert _cycles(_graph()) == []


def test_layers_import_only_down() -> None:
    graph = _graph()
    for m, deps in graph.items():
        if m.startswith("wizprint.solo"):
            assert not any(d.startswith("wizprint.generator") for d in deps), f"{m} imports the printer"
        if m.startswith("wizprint.generator") or m.startswith("wizprint.cards"):
            assert not any(d.startswith("wizprint.solo") for d in deps), f"{m} imports the solo engine"
        if m.startswith("wizprint.solo.kernel"):
            assert not any(d.startswith("wizprint.solo.games.") or d.startswith("wizprint.solo.agents")
                           for d in deps), f"the kernel module {m} imports a game or an agent"
        if m.startswith("wizprint.solo.games."):
            game = m.split(".")[3]
            assert not any(d.startswith("wizprint.solo.games.") and d.split(".")[3] != game for d in deps), \
                f"{m} imports another game"
    # and at run time: playing every game loads no printer module
    code = ("import sys\nfrom wizprint.solo.kernel import engine, engine_games\nfrom wizprint.solo.runner import "
            "run_one\nfor g in engine_games():\n    run_one(g, 0, 1, ['automaton'], engine(g).min_players)\n"
            "print(sorted(m for m in sys.modules if m.startswith('wizprint.generator')))\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "[]"


def test_no_solo_file_is_too_long_to_read() -> None:
    long = {str(p.relative_to(ROOT)): n for p in (ROOT / "solo").rglob("*.py")
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > 850}
    assert long == {}


def test_a_lists_quick_load_gives_what_the_checked_load_gives() -> None:
    """Lists of log lines, strings and whole numbers are loaded item by item without a path (``Codec.quick``); an
    item the quick way does not take is loaded the checked way. Any JSON value: the quick answer, where it gives
    one, is what ``load`` gives, and a list's problems are named by the same paths in the same order."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from wizprint.solo.kernel.fields import NOT_QUICK, Problems, codec_for
    from wizprint.solo.kernel.values import LogLine

    json_values = st.recursive(
        st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats() | st.text(max_size=5),
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(["text", "seats", "x"]), inner,
                                                                    max_size=3),
        max_leaves=8)
    codecs = [codec_for(LogLine, "t"), codec_for(str, "t"), codec_for(int, "t")]
    lists = [codec_for(list[LogLine], "t"), codec_for(list[str], "t"), codec_for(list[int], "t")]

    def slow(codec: Any, items: list[Any]) -> tuple[list[Any], list[str]]:
        errors = Problems()
        return [codec.load(x, f"p[{i}]", errors, 0) for i, x in enumerate(items)], list(errors)

    @settings(max_examples=150, deadline=None, database=None, derandomize=True)
    @given(st.lists(json_values | st.fixed_dictionaries({"text": st.text(max_size=3), "seats": st.none()}),
                    max_size=6))
    def check(items: list[Any]) -> None:
        for codec, of_list in zip(codecs, lists, strict=True):
            for x in items:
                q = codec.quick(x)
                if q is not NOT_QUICK:
                    errors = Problems()
                    assert q == codec.load(x, "p", errors, 0) and not errors
            errors = Problems()
            got = of_list.load(items, "p", errors, 0)
            assert (got, list(errors)) == slow(codec, items)

    check()
    assert codecs[0].quick({"text": "hello", "seats": None}) == "hello"  # the common case does take the quick way
