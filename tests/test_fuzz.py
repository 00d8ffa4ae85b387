"""Fuzzing the inputs people share (hypothesis): shipped game folders, CSV files, saved games and scenario files,
mutated, go through the commands that read them. For every mutation the contract holds: exit 0, or exit 1 (2 for
an option) with one-line errors and no traceback; nothing written outside the output folder, no code run from
data, no half-written file; a save that is accepted plays on.

The examples are derandomised (the same every run) so CI is reproducible; `WIZPRINT_FUZZ=N` scales their number
(3 by default: about 30 seconds), and
`WIZPRINT_FUZZ_RANDOM=1` draws new ones each run (with `--hypothesis-seed` to repeat one)."""

from __future__ import annotations

import functools
import json
import os
import re
import shutil
import tempfile
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from folder_helpers import keep_records
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from wizprint.cli import app
from wizprint.resources import cards_dir, layouts_dir

HERE = Path(__file__).parent
SCALE = int(os.environ.get("WIZPRINT_FUZZ", "3"))
SETTINGS: dict[str, Any] = {"deadline": None, "derandomize": "WIZPRINT_FUZZ_RANDOM" not in os.environ, "database": None,
                            "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large]}

# values a hostile or careless file puts where a value belongs (TOML literals)
HOSTILE = [
    "nan", "inf", "-inf", "1e309", "-5", "0", "1000000000", "99999999999999999999999", '"x"', '""', "[]", "{}",
    "true", '"../../../../escaped"', '"/etc/passwd"', '"a\\u0000b"', '"#12345"', '"notacolour"',
    """\"{{ cycler.__init__.__globals__.os.system('touch PWNED') }}\"""",
    """\"{{ ''.__class__.__mro__[1].__subclasses__() }}\"""", '"{% for x in range(99999999) %}x{% endfor %}"',
    '"' + "W" * 200_000 + '"', "[" * 300 + "]" * 300, "{ a = { b = { c = { d = 1 } } } }", '":../../evil:"',
    '"**" ', "[1, \"two\", 3.5]", "1.5",
]


def _toml_lines(text: str) -> list[int]:
    return [i for i, ln in enumerate(text.splitlines()) if "=" in ln and not ln.lstrip().startswith("#")]


@st.composite
def text_mutation(draw: st.DrawFn, text: str) -> str:
    """A small change to a TOML text: a value replaced by a hostile one, a line deleted or repeated, an unknown key,
    a truncation."""
    lines = text.splitlines()
    kind = draw(st.sampled_from(["value", "value", "value", "delete", "repeat", "unknown", "truncate"]))
    if kind == "truncate":
        return text[: draw(st.integers(0, max(0, len(text) - 1)))]
    idx = _toml_lines(text)
    if not idx:
        return text + "\nunknown_key = 1\n"
    i = draw(st.sampled_from(idx))
    if kind == "value":
        k, _, v = lines[i].partition("=")
        if v.strip().startswith(('"""', "'''")) or v.strip().endswith(("[", "{")):
            return text  # multi-line values are left alone
        lines[i] = f"{k}= {draw(st.sampled_from(HOSTILE))}"
    elif kind == "delete":
        del lines[i]
    elif kind == "repeat":
        lines.insert(i, lines[i])
    else:
        lines.insert(i + 1, "unknown_key_x = 1")
    return "\n".join(lines) + "\n"


@contextmanager
def sandbox() -> Iterator[Path]:
    """A temporary folder that is also the current directory: whatever a command writes by mistake lands in it."""
    old = Path.cwd()
    with tempfile.TemporaryDirectory() as d:
        os.chdir(d)
        try:
            yield Path(d)
        finally:
            os.chdir(old)


def invoke(*args: str, input: str | None = None) -> Any:
    r = CliRunner().invoke(app, list(args), input=input)
    assert r.exception is None or isinstance(r.exception, SystemExit), \
        f"{args[:2]} raised {type(r.exception).__name__}: {r.exception}\n{r.stderr[-2000:]}"
    assert "Traceback" not in r.stderr and "Traceback" not in r.stdout, r.stderr[-2000:]
    assert r.exit_code in (0, 1, 2), (r.exit_code, r.stderr[-500:])
    if r.exit_code:
        # errors go to stderr; `solo scenario` reports each file's failures on stdout
        lines = [ln for ln in (r.stderr or r.stdout).splitlines() if ln.strip()]
        assert lines, f"{args[:2]} failed without saying why"
        assert len(lines) <= 52, f"{len(lines)} error lines: the output must be capped"
        assert all(len(ln) <= 2000 for ln in lines), "an error line too long to read"
    return r


def files_under(root: Path) -> set[str]:
    return {str(p.relative_to(root)) for p in root.rglob("*")}


def assert_clean_output(out: Path) -> None:
    """No temporary file or folder; when a manifest is there, it lists exactly the files present, each intact."""
    if not out.exists():
        return
    left = [p.name for p in out.rglob("*") if p.name.endswith(".tmp") or "wizprint-tmp" in p.name]
    assert left == [], left
    man = out / "manifest.json"
    if man.is_file():
        import hashlib

        listed = {f["file"]: f["sha256"] for f in json.loads(man.read_text())["files"]}
        for name, sha in listed.items():
            assert hashlib.sha256((out / name).read_bytes()).hexdigest() == sha, name


# -- game folders ------------------------------------------------------------------------------------------------
GAME = "wizard-cards"
FOLDER_FILES = ["game.toml", "vocabulary.toml", "components.toml", "layout.toml", "sheets.toml"]


LAYOUT_NAMES = {"layout.toml": "layout.toml", "sheets.toml": "sheets.toml", "board.toml": "board-layout.toml",
                "components.toml": "components-layout.toml", "map.toml": "map-layout.toml"}
# (shipped layout file -> its name in a game folder)


def game_folder(into: Path, game: str = GAME) -> Path:
    """A copy of a shipped game as a user's game folder: its data and its layouts, all in one folder."""
    g = into / "game"
    shutil.copytree(cards_dir() / game, g, ignore=shutil.ignore_patterns("__pycache__", "*.md"))
    for name, own in LAYOUT_NAMES.items():
        if (layouts_dir() / game / name).is_file():
            shutil.copyfile(layouts_dir() / game / name, g / own)
    return g


@settings(max_examples=60 * SCALE, **SETTINGS)
@given(st.data())
def test_mutated_game_folders_validate_or_fail_cleanly(data: st.DataObject) -> None:
    name = data.draw(st.sampled_from(FOLDER_FILES))
    with sandbox() as box:
        g = game_folder(box)
        p = g / name
        p.write_text(data.draw(text_mutation(p.read_text(encoding="utf-8"))), encoding="utf-8")
        before = files_under(box)
        r = invoke("validate", str(g))
        if r.exit_code == 0:  # what validates must build
            out = box / "out"
            r = invoke("build", str(g), "-o", str(out), "--no-svg", "--no-png", "-q")
            assert_clean_output(out)  # -o names the parent of the game's folder
            for sub in (out.iterdir() if out.is_dir() else ()):
                if sub.is_dir():
                    assert_clean_output(sub)
            before |= {str(p.relative_to(box)) for p in box.rglob("*") if p.is_relative_to(out)} | {"out"}
        assert not (box / "PWNED").exists(), "a template ran a shell command"
        assert files_under(box) <= before, f"written outside the output: {files_under(box) - before}"


RICH = {g: sorted({p.name for p in (cards_dir() / g).glob("*.toml")}
                  | {own for name, own in LAYOUT_NAMES.items() if (layouts_dir() / g / name).is_file()})
        for g in ("covenant", "relic", "wizards-and-relics", "wizards-cup")}


@settings(max_examples=16 * SCALE, **SETTINGS)
@given(st.data())
def test_mutated_covenant_and_relic_folders_validate_or_fail_cleanly(data: st.DataObject) -> None:
    """The richer games: Relic's nested effects, board and boards, Covenant's card list, Wizards & Relics' map and
    double-sided tokens, Wizards Cup's per-copy backs and player aids."""
    game = data.draw(st.sampled_from(sorted(RICH)))
    name = data.draw(st.sampled_from(RICH[game]))
    with sandbox() as box:
        g = game_folder(box, game)
        p = g / name
        p.write_text(data.draw(text_mutation(p.read_text(encoding="utf-8"))), encoding="utf-8")
        before = files_under(box)
        invoke("validate", str(g))
        assert not (box / "PWNED").exists(), "a template ran a shell command"
        assert files_under(box) <= before


# the games' own files an engine reads (card data, game.toml, vocabulary.toml): what `solo` commands load
ENGINE_FILES = {g: sorted(p.name for p in (cards_dir() / g).glob("*.toml")) for g in ("wizards-and-relics",
                                                                                         "wizards-cup")}
_NUMBER = re.compile(r"^(\s*[\w-]+\s*=\s*)(-?\d+)\s*$")
_STRING = re.compile(r'^(\s*[\w-]+)(\s*=\s*)("[^"\\]*")\s*$')


@st.composite
def valid_mutation(draw: st.DrawFn, folder: Path, name: str) -> None:
    """An edit that keeps the data well-formed, as a designer makes them: a whole number changed (a card's power, a
    count, a range's bound, a step cap), a value taken from another line of the same key (another colour, element
    or rarity), or cards cut out (with the counts of game.toml brought in line)."""
    p = folder / name
    lines = p.read_text(encoding="utf-8").splitlines()
    kind = draw(st.sampled_from(["number", "swap", "cut"]))
    if kind == "cut":
        if name in ("game.toml", "vocabulary.toml"):
            name = draw(st.sampled_from([f for f in ENGINE_FILES[folder_game(folder)]
                                         if f not in ("game.toml", "vocabulary.toml")]))
        share = draw(st.sampled_from([0.3, 0.6, 0.8, 0.9, 1.0]))
        seed = draw(st.integers(0, 1 << 30))
        here = set(re.findall(r'(?m)^id = "(.*)"$', (folder / name).read_text(encoding="utf-8")))
        keep_records(folder, lambda table, rec: rec.get("id") not in here
                     or zlib.crc32(f"{seed}:{rec.get('id')}".encode()) % 1000 >= share * 1000)
        return
    if kind == "number":
        at = [i for i, ln in enumerate(lines) if _NUMBER.match(ln)]
        if at:
            i = draw(st.sampled_from(at))
            m = _NUMBER.match(lines[i])
            assert m is not None
            n = int(m.group(2))
            lines[i] = m.group(1) + str(draw(st.sampled_from([0, 1, 2, n - 1, n + 1, 2 * n, 99, 100_000])))
    else:
        found: dict[str, list[int]] = {}
        for i, ln in enumerate(lines):
            if (m := _STRING.match(ln)) and m.group(1).strip() not in ("id", "name", "flavor", "text"):
                found.setdefault(m.group(1).strip(), []).append(i)
        keys = sorted(k for k, v in found.items() if len(v) > 1)
        if keys:
            k = draw(st.sampled_from(keys))
            i, j = draw(st.sampled_from(found[k])), draw(st.sampled_from(found[k]))
            mi, mj = _STRING.match(lines[i]), _STRING.match(lines[j])
            assert mi is not None and mj is not None
            lines[i] = mi.group(1) + mi.group(2) + mj.group(3)
    p.write_text("\n".join(lines) + "\n", encoding="utf-8")


def engine_of(game: str | Path) -> Any:
    from wizprint.solo.kernel import engine

    return engine(str(game))


def folder_game(folder: Path) -> str:
    return next(ln.split('"')[1] for ln in (folder / "game.toml").read_text(encoding="utf-8").splitlines()
                if ln.startswith("id = "))


@settings(max_examples=8 * SCALE, **SETTINGS)
@given(st.data())
def test_mutated_wizards_and_relics_and_wizards_cup_folders_play_or_fail_cleanly(data: st.DataObject) -> None:
    """A mutated folder of the newer games goes to `solo check` (the automaton and random play, then a search bot):
    it is refused in one line, or its games play to their end, never the engine failing on data it accepted nor a game
    running to the step cap (unless the mutation lowered the cap). Half the mutations are hostile (as for the other
    folders), half keep the data well-formed (numbers changed, values swapped, cards cut out), so that most of those
    folders load."""
    game = data.draw(st.sampled_from(sorted(ENGINE_FILES)))
    name = data.draw(st.sampled_from(ENGINE_FILES[game]))
    with sandbox() as box:
        g = game_folder(box, game)
        p = g / name
        if data.draw(st.booleans()):
            p.write_text(data.draw(text_mutation(p.read_text(encoding="utf-8"))), encoding="utf-8")
        else:
            data.draw(valid_mutation(g, name))
        before = files_under(box)
        out = box / "check.json"
        for bots in ("automaton,random", "automaton,mcts:2"):
            r = invoke("solo", "check", str(g), "--games", "2", "--bots", bots, "--json", str(out), "-q")
            if r.exit_code and not out.is_file():
                break  # refused
            summary = json.loads(out.read_text(encoding="utf-8"))
            lowered = engine_of(g).decl.step_cap < engine_of(game).decl.step_cap
            assert all(lowered and "step cap" in e["error"] for e in summary["errors"]), summary["errors"]
            if summary["errors"]:
                break
        assert files_under(box) <= before | {"check.json"}


GARBAGE_FILES = [(GAME, name) for name in FOLDER_FILES] + [(g, n) for g, names in ENGINE_FILES.items()
                                                           for n in names]


@settings(max_examples=10 * SCALE, **SETTINGS)
@given(st.binary(min_size=0, max_size=400), st.sampled_from(GARBAGE_FILES))
def test_garbage_bytes_in_a_game_file_fail_cleanly(junk: bytes, where: tuple[str, str]) -> None:
    game, name = where
    with sandbox() as box:
        g = game_folder(box, game)
        (g / name).write_bytes(junk)
        invoke("validate", str(g))
        invoke("solo", "check", str(g), "--games", "1", "-q")


# -- CSV ---------------------------------------------------------------------------------------------------------
CELLS = ["", "=HYPERLINK(\"x\")", "-5", "1e9", "nan", "0", "abc", "../../x", "\x00", "W" * 70_000,
         "draw(" * 300 + ")" * 300, "{\"a\": [[[[1]]]]}", "true", "[1, 2", "é", "SS", "QS", "spades", "10"]


@functools.cache
def exported_rows(game: str) -> tuple[str, ...]:
    """The shipped game's cards as CSV lines (the same for every example: made once)."""
    from wizprint.cards.loader import load_game
    from wizprint.generator.csvio import export_csv

    return tuple(export_csv(load_game(game)).splitlines())


@settings(max_examples=40 * SCALE, **SETTINGS)
@given(st.data())
def test_mutated_csv_imports_or_fails_cleanly(data: st.DataObject) -> None:
    rows = list(exported_rows(GAME))
    kind = data.draw(st.sampled_from(["cell", "cell", "cell", "drop", "repeat", "header", "latin1", "utf16"]))
    i = data.draw(st.integers(0, len(rows) - 1))
    if kind == "cell":
        import csv
        import io

        cells = next(csv.reader([rows[i]]))
        j = data.draw(st.integers(0, len(cells) - 1))
        cells[j] = data.draw(st.sampled_from(CELLS))
        buf = io.StringIO()
        csv.writer(buf, lineterminator="").writerow(cells)
        rows[i] = buf.getvalue()
    elif kind == "drop":
        del rows[i]
    elif kind == "repeat":
        rows.insert(i, rows[i])
    elif kind == "header":
        rows[0] = rows[0].replace("copies", "copys")
    text = "\n".join(rows) + "\n"
    with sandbox() as box:
        f = box / "cards.csv"
        enc = {"latin1": "latin-1", "utf16": "utf-16"}.get(kind, "utf-8")
        f.write_bytes(text.replace("Shield", "Shíeld").encode(enc, errors="replace"))
        out = box / "imported"
        r = invoke("import", "csv", str(f), "--game", GAME, "-o", str(out))
        if r.exit_code:
            assert not out.exists() or not any(out.iterdir()), "a failed import left files behind"
        else:
            invoke("validate", str(out))
        assert {p.name for p in box.iterdir()} <= {"cards.csv", "imported"}


# -- saved games -------------------------------------------------------------------------------------------------
def _save(game: str, players: int, seed: int, steps: int) -> dict[str, Any]:
    from wizprint.solo.agents import RandomAgent
    from wizprint.solo.play import new_session

    s = new_session(game, players, "automaton", seed, 0, "")
    a = RandomAgent(seed)
    for _ in range(steps):
        if s.state.is_terminal():
            break
        s.state.apply(a.choose(s.state, s.state.current_player))
    out: dict[str, Any] = s.to_json()
    return out


SAVES = {g: _save(g, n, 3, k) for g, n, k in (("wizard-cards", 2, 9), ("covenant", 3, 40), ("relic", 2, 60),
                                               ("wizards-and-relics", 3, 30), ("wizards-cup", 2, 16))}
JUNK: list[Any] = [None, True, -1, 7, 10**30, 1.5, float("nan"), float("inf"), "x", "", [], {}, [[["deep"]]],
                   {"kind": "nope"}]


def _paths(v: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield prefix
    if isinstance(v, dict):
        for k, x in v.items():
            yield from _paths(x, (*prefix, k))
    elif isinstance(v, list):
        for i, x in enumerate(v[:6]):
            yield from _paths(x, (*prefix, i))


def _get(v: Any, path: tuple[Any, ...]) -> Any:
    for k in path:
        v = v[k]
    return v


PATHS = {g: [p for p in _paths(s) if p] for g, s in SAVES.items()}
NUMBERS = {g: [p for p in ps if type(_get(SAVES[g], p)) is int] for g, ps in PATHS.items()}
LISTS = {g: [p for p in ps if isinstance(_get(SAVES[g], p), list) and len(_get(SAVES[g], p)) > 1]
         for g, ps in PATHS.items()}


def _card_paths(save: dict[str, Any]) -> list[tuple[Any, ...]]:
    """Where the cards are in a save: every item of a list that names a card instance (all of each list)."""
    cards = set(engine_data(save["game"]).instances)
    out: list[tuple[Any, ...]] = []

    def walk(v: Any, prefix: tuple[Any, ...]) -> None:
        if isinstance(v, dict):
            for k, x in v.items():
                walk(x, (*prefix, k))
        elif isinstance(v, list):
            for i, x in enumerate(v):
                if isinstance(x, str) and x in cards:
                    out.append((*prefix, i))
                else:
                    walk(x, (*prefix, i))

    walk(save["state"], ("state",))
    return out


def engine_data(game: str) -> Any:
    from wizprint.solo.kernel import engine

    return engine(game).data


CARD_PATHS = {g: _card_paths(s) for g, s in SAVES.items()}


@settings(max_examples=80 * SCALE, **SETTINGS)
@given(st.data())
def test_mutated_saves_load_and_play_or_fail_cleanly(data: st.DataObject) -> None:
    import copy

    from wizprint.errors import WizprintError
    from wizprint.solo.agents import RandomAgent
    from wizprint.solo.kernel import engine
    from wizprint.solo.play import Session

    game = data.draw(st.sampled_from(sorted(SAVES)))
    save = copy.deepcopy(SAVES[game])
    action = data.draw(st.sampled_from(["set", "set", "delete", "add", "nudge", "nudge", "swap", "swap", "reverse"]))

    def at(path: tuple[Any, ...]) -> tuple[Any, Any]:
        parent: Any = save
        for k in path[:-1]:
            parent = parent[k]
        return parent, path[-1]

    if action == "nudge":  # a number one off: the kind of edit a curious player makes
        path = data.draw(st.sampled_from(NUMBERS[game]))
        parent, last = at(path)
        parent[last] += data.draw(st.sampled_from([-1, 1]))
    elif action == "swap":  # two cards change places (a hand card and a deck card, a card and a discard...)
        p1, p2 = data.draw(st.sampled_from(CARD_PATHS[game])), data.draw(st.sampled_from(CARD_PATHS[game]))
        (a, i), (b, j) = at(p1), at(p2)
        a[i], b[j] = b[j], a[i]
    elif action == "reverse":  # a pile in another order
        parent, last = at(data.draw(st.sampled_from(LISTS[game])))
        parent[last] = list(reversed(parent[last]))
    else:
        parent, last = at(data.draw(st.sampled_from(PATHS[game])))
        if action == "delete" and isinstance(parent, dict):
            del parent[last]
        elif action == "add" and isinstance(parent, dict):
            parent["unknown_key_x"] = 1
        else:
            parent[last] = data.draw(st.sampled_from(JUNK))
    text = json.dumps(save)
    if data.draw(st.integers(0, 9)) == 0:
        text = "[" * 100_000 + "]" * 100_000
    with sandbox() as box:
        f = box / "save.json"
        f.write_text(text, encoding="utf-8")
        r = invoke("solo", "play", game, "--load", str(f), "--log-file", str(box / "game.log"), input="quit\n")
        if r.exit_code == 0:  # accepted: it must play on
            s = Session.from_json(engine(game), json.loads(f.read_text(encoding="utf-8")))
            bot = RandomAgent(1)
            for _ in range(30):
                if s.state.is_terminal():
                    break
                try:
                    s.state.apply(bot.choose(s.state, s.state.current_player))
                except WizprintError as exc:
                    raise AssertionError(f"an accepted save broke in play: {exc}") from None


# -- scenario files ----------------------------------------------------------------------------------------------
SCENARIOS = sorted((HERE / "scenarios").glob("*.toml"))
# by game (a file names its game on its first lines: game = "..."), so that each game gets its share of examples
SCENARIOS_BY_GAME: dict[str, list[Path]] = {}
for _f in SCENARIOS:
    _game = next(ln.split('"')[1] for ln in _f.read_text(encoding="utf-8").splitlines() if ln.startswith("game = "))
    SCENARIOS_BY_GAME.setdefault(_game, []).append(_f)


@settings(max_examples=40 * SCALE, **SETTINGS)
@given(st.data())
def test_mutated_scenarios_run_or_fail_cleanly(data: st.DataObject) -> None:
    src = data.draw(st.sampled_from(SCENARIOS_BY_GAME[data.draw(st.sampled_from(sorted(SCENARIOS_BY_GAME)))]))
    with sandbox() as box:
        f = box / src.name
        f.write_text(data.draw(text_mutation(src.read_text(encoding="utf-8"))), encoding="utf-8")
        before = files_under(box)
        invoke("solo", "scenario", str(f))
        assert not (box / "PWNED").exists()
        assert files_under(box) <= before
