"""Untrusted input, the printing side: any game folder (game.toml, card files, vocabulary, layout, sheets, board,
components, fonts, icons) is untrusted input. Every problem is one clean line naming its file and line; no
template runs code; no name built from data leaves its folder; no input hangs or eats memory; at most 50 problem
lines are printed. One test per class of problem, with its examples as parameters."""

from __future__ import annotations

import re
import shutil
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from cli_helpers import run_here

from wizprint.resources import cards_dir, layouts_dir
from wizprint.validation import Validation

Folder = Callable[..., Path]
LAYOUT_FILES = (("layout.toml", "layout.toml"), ("sheets.toml", "sheets.toml"), ("board.toml", "board-layout.toml"),
                ("components.toml", "components-layout.toml"), ("map.toml", "map-layout.toml"))


@pytest.fixture
def folder(tmp_path: Path) -> Folder:
    """A copy of a shipped game that carries its own layout files (so that they can be broken too)."""

    def make(game: str, layouts: bool = True) -> Path:
        dst = tmp_path / game
        shutil.copytree(cards_dir() / game, dst, ignore=shutil.ignore_patterns("__pycache__"))
        if layouts:
            for src, name in LAYOUT_FILES:
                if (layouts_dir() / game / src).is_file():
                    shutil.copy(layouts_dir() / game / src, dst / name)
        return dst

    return make


def edit(path: Path, old: str, new: str) -> int:
    """Replace the first ``old`` in a file; the 1-based line where it was."""
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return text[: text.index(old)].count("\n") + 1


def line_of(path: Path, needle: str) -> int:
    text = path.read_text(encoding="utf-8")
    assert needle in text, needle
    return text[: text.index(needle)].count("\n") + 1


def problems(target: Path | str) -> list[str]:
    """The problem lines of ``validate`` for one game folder (in process), each checked to be one clean line."""
    lines = [line for line, ok in Validation([str(target)]) if not ok]
    for ln in lines:
        assert "\n" not in ln and len(ln) < 1000 and "Traceback" not in ln, ln
        assert ln.startswith(("error: ", "... and ")), ln
    return lines


def expect(lines: list[str], file: str, line: int | None, words: str) -> None:
    """Some problem names ``file:line`` and matches ``words``."""
    where = f"{file}:{line}:" if line is not None else f"{file}:"
    hits = [ln for ln in lines if where in ln and re.search(words, ln)]
    assert hits, f"no problem at {where} matching {words!r} in:\n" + "\n".join(lines)


def run_cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """The command in this process: these tests read its messages and exit code, not a process's behaviour."""
    return run_here(*args, cwd=cwd)


def assert_clean(res: subprocess.CompletedProcess[str], code: int = 1) -> list[str]:
    """Exit ``code``, no traceback, every line of stderr short; the error lines."""
    assert res.returncode == code, res.stdout + res.stderr
    assert "Traceback" not in res.stderr, res.stderr
    for ln in res.stderr.splitlines():
        assert len(ln) < 1000, ln[:200]
    return [ln for ln in res.stderr.splitlines() if ln.startswith("error:")]


# -- 1. game.toml: every key's type, ranges and shapes -------------------------------------------------------
def _fields_as_string(text: str) -> str:
    return text[: text.index("[fields.vp]")] + 'fields = "vp"\n\n' + text[text.index("[[decks]]"):]


@pytest.mark.parametrize("old,new,needle,words", [
    ("players = { min = 2, max = 4 }", 'players = "2-4"', "players", r"players: must be a table, not '2-4'"),
    ("players = { min = 2, max = 4 }", 'players = { min = "two", max = 4 }', "players",
     r"players\.min: must be a whole number, not 'two'"),
    ("players = { min = 2, max = 4 }", "players = { min = 5, max = 4 }", "players",
     r"min \(5\) is more than max \(4\)"),
    (None, None, "fields =", r"fields: must be a table, not 'vp'"),
    ('type = "int"', 'type = "float"', "[fields.vp]", r"field 'vp': type must be one of .* not 'float'"),
    ("min = 0\n", 'min = "zero"\n', "[fields.vp]", r"field 'vp': min must be a whole number"),
    ("players = { min = 2, max = 4 }", "players = { min = 2, max = 4 }\nvocabulary = 5", "vocabulary",
     r"vocabulary: must be text \(a string\), not 5"),
    ("count = 91", 'count = "ninety-one"', "count =", r"decks\[1\]\.count: must be a whole number"),
    ("count = 91", "count = 1e9", "count =", r"decks\[1\]\.count: must be a whole number"),
    ('required = ["vp", "ability"]', 'required = "vp"', "required =", r"types\[1\]\.required: must be a list"),
    ('id = "ability-sheet"', 'id = ["ability-sheet"]', "id = [", r"components\[1\]\.id: must be text"),
    ("[[decks]]", "[kinds.relic]\nname = 5\n\n[[decks]]", "name = 5", r"kinds\.relic\.name: must be text"),
    ("players = { min = 2, max = 4 }", "players = { min = 2, max = 4 }\ncolour = 3", "colour = 3",
     r"unknown key 'colour'"),
])
def test_game_toml_is_checked_against_its_schema(folder: Folder, old: str | None, new: str | None, needle: str,
                                                 words: str) -> None:
    g = folder("covenant", layouts=False)
    p = g / "game.toml"
    if old is None:
        p.write_text(_fields_as_string(p.read_text(encoding="utf-8")), encoding="utf-8")
    else:
        edit(p, old, new or "")
    lines = problems(g)
    expect(lines, "game.toml", line_of(p, needle), words)
    assert len(lines) == 1, lines  # one problem is one line, not a cascade


# -- 2. layout.toml: shape, finite numbers in range, colours; templates' values checked when drawn ---------------
def _minimal_layout(extra: str) -> str:
    return extra + '\n[decks.main]\nsize = "poker"\nfront = "card"\nback = "card"\n'


@pytest.mark.parametrize("old,new,needle,words", [
    ("size = 12\n", "size = 1e9\n", "size = 1e9", r"size = 1000000000.0 must be a finite number from 1 to 300"),
    ("size = 12\n", "size = nan\n", "size = nan", r"elements\[3\]\.size: must be a finite number, not nan"),
    ("size = 12\n", "size = inf\n", "size = inf", r"elements\[3\]\.size: must be a finite number, not inf"),
    ("size = 12\n", "size = -4\n", "size = -4", r"size = -4 must be a finite number from 1"),
    ("min_size = 8.5", "min_size = -1", "min_size = -1", r"min_size = -1 must be"),
    ("leading = 1.0", "leading = nan", "leading = nan", r"\.leading: must be a finite number, not nan"),
    ("size = 12\n", 'size = "{{ 1e9 }}"\n', None, r"\[E01\] face 'card': size = '1000000000.0' must be"),
    ('kind = "rect"\nbox = [2.2, 2.2, 58.6, 83.6]', 'kind = "rect"\nrepeat = 1000000000\nbox = [2.2, 2.2, 58.6, 83.6]',
     "repeat =", r"repeat = 1000000000 must be a finite number from 0 to 1000"),
    ('kind = "rect"\nbox = [2.2, 2.2, 58.6, 83.6]', 'kind = "rect"\nrepeat = "10 ** 9"\nbox = [2.2, 2.2, 58.6, 83.6]',
     None, r"\[E01\] face 'card': repeat = 1000000000 must be"),
    ('kind = "rect"\nbox = [2.2, 2.2, 58.6, 83.6]', 'kind = "rect"\nstep = [1e300, 0]\nbox = [2.2, 2.2, 58.6, 83.6]',
     "step =", r"step = 1e\+300 must be a finite number"),
    ('fill = "{{ style.parchment }}"', 'fill = "notacolour"', "notacolour", r"fill: 'notacolour' is not a colour"),
    ('fill = "{{ style.parchment }}"', 'fill = "#12345"', "#12345", r"fill: '#12345' is not a colour"),
    ('parchment = "#f6efdf"', 'parchment = "#12345"', None, r"\[E01\] face 'card': '#12345' is not a colour"),
    ('box = [2.2, 2.2, 58.6, 83.6]', 'box = [2.2, 2.2, 58.6]', "58.6]", r"box must be a list of 4 numbers"),
    ('radius = 2.2\n', 'radius = 2.2\nwobble = 1\n', "wobble", r"unknown key 'wobble' for a rect element"),
    ("safe = 3.0", 'safe = "3"', "safe =", r"safe: must be a number, not '3'"),
    (None, 'faces = "x"', "faces =", r"faces: must be a table, not 'x'"),
    (None, '[faces.card]\nelements = "x"', "elements =", r"faces\.card\.elements: must be a list, not 'x'"),
    (None, "[faces.card]\nsafe = inf", "safe = inf", r"faces\.card\.safe: must be a finite number"),
    ('sheets = "butted"', 'sheets = "zigzag"', "zigzag", r"sheets: must be one of auto, butted, spaced, not 'zigzag'"),
])
def test_layout_values_are_checked(folder: Folder, old: str | None, new: str, needle: str | None,
                                   words: str) -> None:
    g = folder("covenant")
    p = g / "layout.toml"
    if old is None:
        p.write_text(_minimal_layout(new), encoding="utf-8")
    else:
        edit(p, old, new)
    start = time.monotonic()
    lines = problems(g)
    assert time.monotonic() - start < 30  # a size of 1e9 or a repeat of 10**9 is an error, not a hang
    expect(lines, "layout.toml", line_of(p, needle) if needle else None, words)


# -- 3. sheets.toml: UTF-8, shape, ids; validate lays the sheets out as build does -----------------------------
_SHEET = '[sheets.ability-sheet]\ntitle = "T"\n{extra}\n[[sheets.ability-sheet.blocks]]\nkind = "para"\ntext = "Hi"\n'


@pytest.mark.parametrize("content,needle,words", [
    (b"# Cov\xe9nant\n" + _SHEET.format(extra="").encode(), None, r"sheets\.toml:1: is not UTF-8 text"),
    (_SHEET.format(extra='columns = "two"'), "columns", r"columns: must be a whole number, not 'two'"),
    (_SHEET.format(extra="size = nan"), "size = nan", r"size: must be a finite number"),
    (_SHEET.format(extra='accent = "notacolour"'), "accent", r"accent: 'notacolour' is not a colour"),
    (_SHEET.format(extra="blocks = 5").replace("[[sheets.ability-sheet.blocks]]\nkind = \"para\"\ntext = \"Hi\"\n",
                                              ""), "blocks = 5", r"blocks: must be a list, not 5"),
    (_SHEET.format(extra="") + '\n[[sheets.ability-sheet.blocks]]\nkind = "table"\nrows = [["a", "b"]]\n'
     'widths = [1, nan]\n', "widths", r"widths\[2\]: must be a finite number"),
    (_SHEET.format(extra="") + '\n[[sheets.ability-sheet.blocks]]\nkind = "para"\n', "LAST",
     r"blocks\[2\]: a para block needs 'text'"),
    ('[sheets."../../evil"]\ntitle = "x"\n', "evil", r"id '\.\./\.\./evil' must be 1-64 letters"),
    ('[sheets.other]\ntitle = "x"\n', "other", r"\[other\] sheet 'other' is not a component of the game"),
    (_SHEET.format(extra="") + '\n[[sheets.ability-sheet.blocks]]\nkind = "para"\ntext = "'
     + "Words that never end. " * 600 + '"\n', "LAST", r"\[ability-sheet\] block 2: a block \d+ mm tall is taller "
                                                     r"than a column"),
])
def test_sheets_are_checked_and_laid_out_by_validate(folder: Folder, content: str | bytes, needle: str | None,
                                                    words: str) -> None:
    g = folder("covenant")
    p = g / "sheets.toml"
    if isinstance(content, bytes):
        p.write_bytes(content)
    else:
        p.write_text(content, encoding="utf-8")
    lines = problems(g)
    line = None
    if needle is not None:
        text = p.read_text(encoding="utf-8")
        at = text.rindex("[[sheets") if needle == "LAST" else text.index(needle)  # LAST: the last block's header
        line = text[:at].count("\n") + 1
    expect(lines, "sheets.toml", line, words)


# -- 4. the board and the components (boards with dials, tokens) ---------------------------------------------
@pytest.mark.parametrize("file,old,new,words", [
    ("board-layout.toml", "per_side = 5", "per_side = 1000000000", r"board\.outer\.per_side: must be at most 50"),
    ("board-layout.toml", 'corner = "#e8dcc0"', 'corner = "notacolour"', r"board\.colours\.corner: 'notacolour'"),
    ("board-layout.toml", "text_size = 12", "text_size = nan", r"board\.text_size: must be a finite number"),
    ("components-layout.toml", "count = 55", "count = 1000000000", r"tokens\[2\]\.count: must be at most 10000"),
    ("components-layout.toml", 'icon = "charge"', 'icon = "../../../x"', r"tokens\[2\]\.icon: an icon name is"),
    ("components-layout.toml", "diameter = 16", "diameter = inf", r"tokens\[2\]\.diameter: must be a finite"),
    ("components-layout.toml", "numbers = [1, 12]", "numbers = [1, 1000000000]", r"numbers\[2\]: must be at most"),
    # Relic's boards have no level track of their own (the sheet's is the one): a track added is checked too
    ("components-layout.toml", "slot = [5, 8, 180, 125]", 'track = { box = [6, 6, 178, 16], slots = 12, labels = '
     '["Start", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12"] }\nslot = [5, 8, 180, 125]',
     r"labels has 13 items, slots is 12"),
])
def test_board_and_components_are_checked(folder: Folder, file: str, old: str, new: str, words: str) -> None:
    g = folder("relic")
    p = g / file
    line = edit(p, old, new)
    expect(problems(g), file, line, words)


# -- 5. fonts: fonts.toml checked, names kept in the fonts folder, broken TTF files reported by validate ---------
@pytest.fixture
def fonts_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    from wizprint.generator import fonts

    d = tmp_path / "fonts"
    shutil.copytree(layouts_dir() / "fonts", d)
    monkeypatch.setattr(fonts, "fonts_dir", lambda: d)
    fonts.families.cache_clear()
    yield d
    monkeypatch.undo()
    fonts.families.cache_clear()


def _add_family(fonts: Path, name: str, file: str) -> None:
    with (fonts / "fonts.toml").open("a", encoding="utf-8") as f:
        f.write(f'\n[families.{name}]\nregular = "{file}"\nbold = "{file}"\nitalic = "{file}"\n'
                f'bolditalic = "{file}"\n')


@pytest.mark.parametrize("kind", ["fake", "truncated", "escaping", "wrong type"])
def test_fonts_are_checked_before_use(folder: Folder, fonts_copy: Path, kind: str) -> None:
    g = folder("covenant")
    edit(g / "layout.toml", 'text = "{{ card.name }}"\nmax_lines = 1\nfont = "display"',
         'text = "{{ card.name }}"\nmax_lines = 1\nfont = "odd"')
    if kind == "fake":
        (fonts_copy / "Odd-Fake.ttf").write_bytes(b"this is not a font" * 100)
        _add_family(fonts_copy, "odd", "Odd-Fake.ttf")
        words = r"font file 'Odd-Fake\.ttf' is not a usable TrueType font"
    elif kind == "truncated":
        (fonts_copy / "Odd-Cut.ttf").write_bytes((fonts_copy / "Lato-Regular.ttf").read_bytes()[:20_000])
        _add_family(fonts_copy, "odd", "Odd-Cut.ttf")
        words = r"font file 'Odd-Cut\.ttf' is not a usable TrueType font"
    elif kind == "escaping":
        _add_family(fonts_copy, "odd", "../../../etc/passwd.ttf")
        words = r"families\.odd\.regular: '\.\./\.\./\.\./etc/passwd\.ttf' must be the plain name of a \.ttf file"
    else:
        with (fonts_copy / "fonts.toml").open("a", encoding="utf-8") as f:
            f.write('\n[families.odd]\nregular = 5\nbold = "a.ttf"\nitalic = "a.ttf"\nbolditalic = "a.ttf"\n')
        words = r"families\.odd\.regular: must be text"
    lines = problems(g)
    expect(lines, "layouts/fonts/fonts.toml", None, words)
    assert re.search(r"fonts\.toml:\d+:", "\n".join(lines)), lines


# -- 6. icons: safe names, files inside the icon folders, malformed files reported by validate, no XML entities --
@pytest.fixture
def icons_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    from wizprint.generator import icons

    root = tmp_path / "layouts"
    shutil.copytree(layouts_dir() / "icons", root / "icons")
    monkeypatch.setattr(icons, "layouts_dir", lambda: root)
    return root / "icons"


SECRET = "TOP-SECRET-CONTENT-4711"


@pytest.mark.parametrize("kind", ["malformed", "bad path", "zero viewbox", "external entity", "billion laughs",
                                  "link outside", "unsafe name", "unknown in text"])
def test_icons_are_checked_and_contained(folder: Folder, icons_copy: Path, tmp_path: Path, kind: str) -> None:
    g = folder("covenant")
    name = f"t-{kind.replace(' ', '-')}"
    svg = icons_copy / f"{name}.svg"
    secret = tmp_path / "secret.txt"
    secret.write_text(SECRET)
    head = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">'
    words = r"cannot read icon"
    if kind == "malformed":
        svg.write_text(head + "<path d='M0 0 L10 10 Z'>")
    elif kind == "bad path":
        svg.write_text(head + "<path d='M0 0 L1e999 10 Z'/></svg>")
        words = r"cannot read icon: a path has a coordinate that is not a finite number"
    elif kind == "zero viewbox":
        svg.write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 0 0"><path d="M0 0 L1 1 Z"/></svg>')
        words = r"viewBox width must be a positive number"
    elif kind == "external entity":
        svg.write_text(f'<?xml version="1.0"?>\n<!DOCTYPE svg [<!ENTITY x SYSTEM "file://{secret}">]>\n'
                       f'{head}<title>&x;</title><path d="M0 0 L10 10 Z" id="&x;"/></svg>')
    elif kind == "billion laughs":
        ents = "".join(f'<!ENTITY l{i} "{(f"&l{i - 1};" if i else "lol") * 10}">\n' for i in range(10))
        svg.write_text(f'<?xml version="1.0"?>\n<!DOCTYPE svg [\n{ents}]>\n{head}<path d="M0 0 L1 1 Z" id="&l9;"/>'
                       "</svg>")
    elif kind == "link outside":
        outside = tmp_path / "outside.svg"
        outside.write_text(head + '<path d="M0 0 L1 1 Z"/></svg>')
        svg.symlink_to(outside)
        words = r"is a link to a file outside its icon folder"
    elif kind == "unsafe name":
        name = "../../../../outside"
        words = r"icon name '\.\./\.\./\.\./\.\./outside' must be lower-case letters"
    else:
        words = r"unknown icon ':t-unknown-in-text:'"
    if kind == "unknown in text":
        p = g / "events.toml"
        edit(p, 'effects = [{ word = "slay", what = "wizard" }]', 'text = "Slay :t-unknown-in-text: now."')
        edit(g / "game.toml", 'id = "event"\nname = "Event"', 'id = "event"\nname = "Event"\nfree_text = true')
        line = line_of(g / "layout.toml", 'text = "{{ text }}"') - 3  # the element's [[faces.card.elements]]
        start = time.monotonic()
        lines = problems(g)
        expect(lines, "layout.toml", line, words)
        return
    p = g / "layout.toml"
    line = edit(p, 'name = "wizard"', f'name = "{name}"')
    start = time.monotonic()
    lines = problems(g)
    assert time.monotonic() - start < 60
    expect(lines, "layout.toml", line, words)
    assert SECRET not in "\n".join(lines)


def test_xml_entities_in_icons_are_neither_expanded_nor_read(tmp_path: Path) -> None:
    from wizprint.errors import WizprintError
    from wizprint.generator.icons import read_icon_file

    secret = tmp_path / "secret.txt"
    secret.write_text(SECRET)
    xxe = tmp_path / "xxe.svg"
    xxe.write_text(f'<?xml version="1.0"?>\n<!DOCTYPE svg [<!ENTITY x SYSTEM "file://{secret}">]>\n'
                   '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><path d="M0 0 L1 1 Z" id="&x;"/>'
                   "</svg>")
    lol = tmp_path / "lol.svg"
    ents = "".join(f'<!ENTITY l{i} "{(f"&l{i - 1};" if i else "lol") * 10}">\n' for i in range(12))
    lol.write_text(f'<?xml version="1.0"?>\n<!DOCTYPE svg [\n{ents}]>\n<svg xmlns="http://www.w3.org/2000/svg" '
                   'viewBox="0 0 100 100"><path d="M0 0 L1 1 Z" id="&l11;"/></svg>')
    for f in (xxe, lol):
        start = time.monotonic()
        with pytest.raises(WizprintError) as info:
            read_icon_file(f, "x")
        assert time.monotonic() - start < 10
        assert SECRET not in str(info.value) and "lollol" not in str(info.value)


# -- 7. no code from data: every template renders in the sandbox ----------------------------------------------
@pytest.mark.parametrize("file,old,new,words", [
    ("layout.toml", 'text = "{{ card.name }}"', "text = \"{{ card.name.__class__.__mro__ }}\"",
     r"template error: the template reaches '__(class|mro)__'"),
    ("layout.toml", 'text = "{{ card.name }}"', 'text = "{{ fx.__globals__ }}"',
     r"template error: the template reaches '__globals__'"),
    ("layout.toml", 'text = "{{ card.name }}"', "text = \"{{ card['__class__'] }}\"",
     r"the template reaches '__class__'"),
    ("layout.toml", 'text = "{{ card.name }}"', "text = \"{% if false %}{{ os.system('touch PWNED') }}{% endif %}\"",
     r"unknown name 'os'"),
    ("layout.toml", 'text = "{{ card.name }}"', "text = \"{{ range(10)|list }}\"", r"unknown name 'range'"),
    ("layout.toml", 'text = "{{ card.name }}"', "text = \"{{ lipsum() ~ cycler(1) ~ joiner() }}\"",
     r"unknown name '(lipsum|cycler|joiner)'"),
    ("layout.toml", 'text = "{{ card.name }}"', "text = \"{% include 'x' %}\"", r"may not load other templates"),
    ("layout.toml", 'text = "{{ card.name }}"', "text = \"{% macro m() %}{{ m() }}{% endmacro %}{{ m() }}\"",
     r"may not define macros"),
    ("layout.toml", 'when = "c.vp"', 'when = "c.vp.__class__"', r"reaches '__class__'"),
    ("layout.toml", 'text = "{{ card.name }}"', 'text = "{{ card.name|xmlattr }}"', r"No filter named 'xmlattr'"),
    ("vocabulary.toml", 'text = "Its wizard also has :{{ ability }}: **{{ ability|cap }}**."',
     "text = \"{{ ''.__class__.__base__.__subclasses__() }}\"",
     r"word 'grant': text template error: the template reaches '__"),
    ("vocabulary.toml", 'text = "Its wizard also has :{{ ability }}: **{{ ability|cap }}**."',
     "text = \"{{ os.system('touch PWNED') }}\"", r"word 'grant': text template error: unknown name 'os'"),
    ("sheets.toml", 'title = "', "title = \"{{ game.__class__ }}", r"template error: the template reaches"),
    ("sheets.toml", 'title = "', "title = \"{{ self }}", r"unknown name 'self'"),
])
def test_templates_cannot_reach_python(folder: Folder, file: str, old: str, new: str, words: str) -> None:
    g = folder("covenant")
    line = edit(g / file, old, new)
    lines = problems(g)
    expect(lines, file, line, words)
    assert not (g / "PWNED").exists() and not Path("PWNED").exists()


@pytest.mark.parametrize("word,old", [
    ("duel", "In your Duel phase, one of your Wizards challenges a rival, who picks a Wizard to answer."),
    ("draw", "Draw {{ n|plural('card') }}."),  # nested: quests, items and events draw through other words
])
def test_a_word_whose_text_renders_itself_is_named_at_its_vocabulary_line(folder: Folder, tmp_path: Path, word: str,
                                                                          old: str) -> None:
    """A text that renders the card's own effects again never ends: one problem at the line of the word's text in
    vocabulary.toml (not one per card that uses it), from validate, build and export csv alike."""
    g = folder("covenant", layouts=False)
    line = edit(g / "vocabulary.toml", old, "{{ sub(card.effects) if card else '' }}")
    want = (rf"error: \S*vocabulary\.toml:{line}: word '{word}': its text renders itself again \(through the "
            rf"card's own effects\), a loop that never ends")
    lines = problems(g)
    assert len(lines) == 1 and re.fullmatch(want, lines[0]), lines
    for args in (["build", str(g), "-o", str(tmp_path / "out"), "-q"], ["export", "csv", str(g)]):
        errors = assert_clean(run_cli(*args))
        assert len(errors) == 1 and re.fullmatch(want, errors[0]), errors


@pytest.mark.parametrize("source,words", [
    ("{{ 'x'.format(1) }}", "may not call format"),
    ("{{ card.get.__self__ }}", "reaches '__self__'"),
    ("{{ cards.sort() }}", "may not call sort"),
    ("{{ 'a' * 1000000000 }}", "may not build a text or list of more than"),
    ("{{ 2 ** 100000000 }}", "may not compute a number that large"),
    ("{{ 99999999999999999999 * 99999999999999999999 * 99999999999999999999 * 99999999999999999999 }}", None),
    ("{{ '%999999999d' % 1 }}", "width or precision"),
    ("{{ '%999999999d'|format(1) }}", "width or precision"),
    ("{% set x = [1] %}{% for i in x %}{% set _ = x.append(i) %}{% endfor %}", "more than 10,000 items"),
    ("{% for a in cards %}{% for b in cards %}{% for c in cards %}{% endfor %}{% endfor %}{% endfor %}",
     "loops more than"),
    ("{% set s = 'ab' %}" + "{% set s = s ~ s %}" * 40 + "{{ s }}", "more than"),
    ("{{ ('x' * 100000).replace('x', 'yyyyyyyyyy') }}", "more than"),
    ("{% for a in cards %}{{ 'y' * 100000 }}{% endfor %}", "writes more than"),
    ("{% set s = 'x' * 100000 %}{{ [s] * 1000 }}", "more than"),
    ("{% set s = 'x' * 100000 %}{{ ([s] * 1000)|join(',') }}", "more than"),
    ("{% set s = 'x' * 100000 %}{{ ([s] * 1000)|string }}", "more than"),
    ("{% set s = 'x' * 100000 %}{{ '%s' % ([s] * 1000) }}", "more than"),
    ("{% set s = 'x' * 100000 %}{{ s ~ ([s] * 1000) }}", "more than"),
    ("{% set s = 'x' * 100000 %}{{ ','.join([s] * 1000) }}", "more than"),
    ("{{ ([[1] * 1000] * 1000)|sum([]) }}", "sum adds numbers only"),
    ("(" * 5000 + "1" + ")" * 5000, "nests"),
    ("{{ " + "(" * 200 + "1" + ")" * 200 + " }}", "nest"),
])
def test_the_sandbox_bounds_every_template(source: str, words: str | None) -> None:
    import jinja2

    from wizprint.cards.vocab import SafeEnvironment

    env = SafeEnvironment(known=("cards", "card"))
    cards = [{"name": f"c{i}"} for i in range(100)]
    start = time.monotonic()
    try:
        result = env.render(env.from_string(source), {"cards": cards, "card": {"name": "n"}})
    except jinja2.TemplateError as exc:
        assert words is not None and words in str(exc.message), exc
    else:
        assert words is None or source.startswith("("), result[:100]
    assert time.monotonic() - start < 10
    assert not set(env.globals) & {"range", "lipsum", "cycler", "joiner", "namespace", "dict"}


def test_word_templates_are_compiled_once_per_process_and_refused_every_time() -> None:
    """Two vocabularies with the same word share its compiled template (a game loaded again compiles nothing);
    the same text with other parameters is compiled for them (the names a text may use are checked when it is
    compiled); a text that does not compile is refused in every vocabulary that has it, not remembered as good."""
    import jinja2

    from wizprint.cards.vocab import Vocabulary

    def vocab(text: str, params: dict[str, str]) -> Vocabulary:
        v, issues = Vocabulary.load("x", {"words": {"w": {"text": text, "params": params}}})
        assert v is not None, issues
        return v

    text = "gain {{ n }} gold"
    a, b = vocab(text, {"n": "int"}), vocab(text, {"n": "int"})
    assert a._template("w") is b._template("w")
    other = vocab(text, {"n": "int", "m": "int"})
    assert other._template("w") is not a._template("w")
    for _ in range(2):
        bad = vocab("gain {{ nope }} gold", {"n": "int"})
        with pytest.raises(jinja2.TemplateSyntaxError, match="unknown name 'nope'"):
            bad._template("w")


# -- 8. ids that become file names; game ids that find layouts ----------------------------------------------
@pytest.mark.parametrize("file,old,new,words", [
    ("game.toml", 'id = "covenant"', 'id = "../../dx"', r"id '\.\./\.\./dx' must be 1-64 letters"),
    ("game.toml", 'id = "covenant"', 'id = "/tmp/abs"', r"id '/tmp/abs' must be"),
    ("game.toml", 'id = "covenant"', 'id = "cov\\u0000x"', r"id 'cov\\x00x' must be"),
    ("game.toml", 'id = "covenant"', 'id = ".hidden"', r"id '\.hidden' must be .* not starting with a dot"),
    ("game.toml", 'id = "main"', 'id = "../x"', r"decks\[1\]\.id: id '\.\./x' must be"),
    ("game.toml", 'id = "ability-sheet"', 'id = "a/b"', r"components\[1\]\.id: id 'a/b' must be"),
    ("game.toml", "[[decks]]", "[kinds.\"a/b\"]\nname = \"x\"\n\n[[decks]]", r"kinds\.'a/b': id 'a/b' must be"),
    ("events.toml", 'id = "E01"', 'id = "E0\\u00001"', r"id 'E0\\x001' must be 1-12 letters"),
    ("events.toml", 'id = "E01"', 'id = "../E1"', r"id '\.\./E1' must be 1-12 letters"),
])
def test_ids_that_become_file_names_are_safe(folder: Folder, file: str, old: str, new: str, words: str) -> None:
    g = folder("covenant", layouts=False)
    line = edit(g / file, old, new)
    expect(problems(g), file, line, words)


@pytest.mark.parametrize("arg,words", [("cov\x00enant", "a NUL byte"), ("x" * 5000, "too long"),
                                       ("../../no-such-folder-4711", "no such game folder"),
                                       ("a" * 300, "unknown game")])
def test_a_bad_game_argument_is_one_clean_line(arg: str, words: str) -> None:
    from wizprint.cards.loader import resolve_game_dir
    from wizprint.errors import WizprintError

    with pytest.raises(WizprintError) as info:
        resolve_game_dir(arg)
    msg = str(info.value)
    assert words in msg and len(msg) < 400 and "\x00" not in msg


# -- 9. bounded work: counts, sizes, lengths, nesting ---------------------------------------------------------
def _deep_effect(depth: int) -> str:
    e = '{ word = "draw", n = 1 }'
    for _ in range(depth):
        e = f'{{ word = "on_enter", then = [{e}] }}'
    return e


@pytest.mark.parametrize("case", ["copies", "deck count", "records", "name", "file size", "toml nesting",
                                  "effect nesting", "self-rendering text"])
def test_every_count_size_and_depth_has_a_limit(folder: Folder, case: str) -> None:
    g = folder("covenant", layouts=case == "self-rendering text")
    p = g / "events.toml"
    file, words, line = "events.toml", "", None
    if case == "copies":
        line = edit(p, 'id = "E02"', 'id = "E02"\ncopies = 1000000000') + 1
        words = r"copies must be a whole number from 1 to 1,000, not 1000000000"
    elif case == "deck count":
        line = edit(g / "game.toml", "count = 91", "count = 1000000000")
        file, words = "game.toml", r"decks\[1\]\.count: must be at most 10000"
    elif case == "records":
        (g / "many.toml").write_text("".join(f'[[card]]\nid = "M{i}"\nname = "M"\ntype = "event"\n'
                                             for i in range(10_001)), encoding="utf-8")
        file, words = "many.toml", r"the game has more than 10,000 records"
    elif case == "name":
        line = edit(p, 'name = "Wizard Hunter"', f'name = "{"W" * 201}"')
        words = r"\[E01\] name is 201 characters long, more than 200"
    elif case == "file size":
        (g / "big.toml").write_bytes(b"# padding\n" * (17 * 1024 * 1024 // 10))
        file, words = "big.toml", r"is larger than 16 MiB"
    elif case == "toml nesting":
        p.write_text('x = ' + "[" * 5000 + "]" * 5000 + "\n", encoding="utf-8")
        words = r"malformed TOML: arrays or tables nest too deeply"
    elif case == "effect nesting":
        line = edit(g / "items.toml", '[{ word = "on_enter", then = [{ word = "draw", n = 2 }] }]',
                    f"[{_deep_effect(40)}]")
        file, words = "items.toml", r"effects nest more than 10 deep"
    else:  # a word whose text renders the card's own effects, so itself
        v = g / "vocabulary.toml"
        line = edit(v, '"Its wizard also has :{{ ability }}: **{{ ability|cap }}**."',
                    '"{% if card %}{{ sub(card.effects) }}{% endif %}"')
        from wizprint.cards.loader import load_game
        from wizprint.generator.drawing import check_faces

        issues = check_faces(load_game(g))  # the depth of rendering is bounded: the loop is found, at its word
        assert [(i.file, i.line) for i in issues] == [(str(v), line)], issues
        assert issues[0].message.startswith("word 'grant': its text renders itself again"), issues
        return
    start = time.monotonic()
    lines = problems(g)
    assert time.monotonic() - start < 60
    expect(lines, file, line, words)


def test_the_one_line_effect_notation_is_bounded() -> None:
    from wizprint.cards import effects_text

    for text in ("on_enter(then=[" * 100_000, "a(b=" + "{x=" * 5000, "a(t=[" * 40 + "b" + "])" * 40,
                 "x" * 2_000_000):
        with pytest.raises(effects_text.ParseError) as info:
            effects_text.parse_raw(text)
        assert len(str(info.value)) < 200
    assert effects_text.parse("on_enter(then=[on_enter(then=[draw(n=2)])])")[0].word == "on_enter"


@pytest.mark.parametrize("kwargs", [dict(size=300.0, min_size=1.0), dict(size=float("nan")), dict(size=float("inf")),
                                    dict(size=-3.0), dict(size=1e9), dict(size=9.0, leading=float("nan")),
                                    dict(size=9.0, min_size=float("-inf")), dict(size=9.0, max_lines=0)])
def test_text_fitting_always_ends(kwargs: dict[str, float]) -> None:
    from wizprint.errors import FitError
    from wizprint.generator.textlayout import layout_text

    start = time.monotonic()
    with pytest.raises(FitError):
        layout_text("Words that do not fit. " * 2000, 20.0, 10.0, **kwargs)  # type: ignore[arg-type]
    with pytest.raises(FitError):
        layout_text("x", float("nan"), 10.0)
    assert time.monotonic() - start < 10


# -- 10. error output: at most 50 problem lines, user values quoted short ------------------------------------
def test_many_problems_show_fifty_lines_and_a_count(folder: Folder) -> None:
    g = folder("covenant", layouts=False)
    for p in g.glob("*.toml"):
        if p.name not in ("game.toml", "vocabulary.toml"):
            text = p.read_text(encoding="utf-8")
            p.write_text(re.sub(r'^name = ".*"$', 'name = ""', text, flags=re.M), encoding="utf-8")
    errors = assert_clean(run_cli("validate", str(g)))
    assert len(errors) == 50, errors
    more = [ln for ln in run_cli("validate", str(g)).stderr.splitlines() if ln.startswith("... and ")]
    assert len(more) == 1 and re.fullmatch(r"\.\.\. and \d+ more problems", more[0]), more
    v = Validation([str(g)])
    lines = list(v)
    assert v.problems == 87 and len(lines) == 51, (v.problems, len(lines))


def test_a_huge_user_value_is_quoted_short(folder: Folder) -> None:
    g = folder("covenant", layouts=False)
    huge = "X" * 200_000
    edit(g / "events.toml", 'id = "E02"', f'id = "{huge}"')
    edit(g / "events.toml", 'what = "wizard"', f'what = "{huge}"')
    errors = assert_clean(run_cli("validate", str(g)))
    assert errors and all(len(ln) < 700 for ln in errors), [len(ln) for ln in errors]
    assert any("200,000 characters" in ln for ln in errors), errors


def test_shipped_files_linked_by_a_strict_editable_install_are_trusted_and_nothing_else(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``pip install -e . --config-settings editable_mode=strict`` makes every shipped file a link into the source
    tree: the shipped games still load, while a user's folder with the same kind of link is refused, and a name
    that climbs out of a shipped folder is refused too."""
    import wizprint.resources as res

    src = tmp_path / "src"
    src.mkdir()
    (src / "data.toml").write_text("x = 1\n")
    shipped = tmp_path / "pkg" / "cards" / "game"
    shipped.mkdir(parents=True)
    (shipped / "data.toml").symlink_to(src / "data.toml")
    user = tmp_path / "user" / "game"
    user.mkdir(parents=True)
    (user / "data.toml").symlink_to(src / "data.toml")
    monkeypatch.setattr(res, "cards_dir", lambda: tmp_path / "pkg" / "cards")
    assert res.inside(shipped, shipped / "data.toml")
    assert not res.inside(user, user / "data.toml")
    assert not res.inside(shipped, shipped / ".." / ".." / ".." / "src" / "data.toml")


# -- 11. files a game folder needs: a missing one is named once ----------------------------------------------
@pytest.mark.parametrize("game", ["wizard-cards", "covenant", "relic", "wizards-and-relics", "wizards-cup"])
def test_a_folder_without_its_vocabulary_names_the_missing_file_once(folder: Folder, game: str) -> None:
    g = folder(game, layouts=False)
    (g / "vocabulary.toml").unlink()
    lines = problems(g)
    assert len(lines) == 1 and re.fullmatch(r"error: \S*/vocabulary\.toml: is missing: the cards' effects name \d+ "
                                            r"words? \('.*\) that this file declares: a game folder needs its "
                                            r"vocabulary file", lines[0]), lines


def test_a_vocabulary_that_is_not_a_regular_file_is_named(folder: Folder) -> None:
    g = folder("covenant", layouts=False)
    (g / "vocabulary.toml").unlink()
    (g / "vocabulary.toml").mkdir()
    assert problems(g) == [f"error: {g / 'vocabulary.toml'}: is not a regular file (a folder)"]


def test_a_folder_without_a_vocabulary_whose_cards_name_no_effect_words_loads(folder: Folder) -> None:
    g = folder("wizards-cup", layouts=False)
    (g / "vocabulary.toml").unlink()
    text = (g / "wizards.toml").read_text(encoding="utf-8")
    (g / "wizards.toml").write_text(re.sub(r"(?m)^effects = .*\n", "", text), encoding="utf-8")
    assert [ln for ln in problems(g) if "vocabulary" in ln] == []


def _new_game(folder: Folder, game: str) -> Path:
    """A copy of a shipped game under an id of its own, so that no shipped layout file stands in for its own."""
    g = folder(game)
    edit(g / "game.toml", f'id = "{game}"', 'id = "my-game"')
    return g


def test_a_new_game_without_a_layout_names_its_folders_layout_file(folder: Folder) -> None:
    g = _new_game(folder, "covenant")
    (g / "layout.toml").unlink()
    assert problems(g) == [f"error: {g / 'layout.toml'}: is missing: wizprint ships no layout for a game 'my-game', "
                           f"so its folder needs its own layout.toml"]


@pytest.mark.parametrize("game,removed,component,kind,files", [
    ("covenant", ["sheets.toml"], "ability-sheet", "sheet", "sheets.toml"),
    ("wizard-cards", ["sheets.toml"], "reference-sheet", "sheet", "sheets.toml"),
    ("wizards-cup", ["components-layout.toml"], "victory-tokens", "tokens", "components-layout.toml"),
    ("wizards-and-relics", ["map-layout.toml", "components-layout.toml"], "map", "board",
     "board-layout.toml or map-layout.toml or components-layout.toml"),
])
def test_a_component_whose_layout_file_is_missing_is_named_at_its_line(folder: Folder, tmp_path: Path, game: str,
                                                                       removed: list[str], component: str, kind: str,
                                                                       files: str) -> None:
    """A component declared in game.toml that no file draws was left out of the build without a word."""
    g = _new_game(folder, game)
    for name in removed:
        (g / name).unlink()
    at = line_of(g / "game.toml", f'id = "{component}"') - 1  # the [[components]] line
    want = (f"error: {g / 'game.toml'}:{at}: component "
            f"'{component}' ({kind}) is drawn from {files}: the game folder has no such file (and wizprint ships "
            f"none for a game 'my-game')")
    assert want in problems(g)
    if game == "covenant":
        res = run_cli("build", str(g), "-o", str(tmp_path / "out"), "-q", "--no-svg", "--no-png")
        assert want in assert_clean(res) and not (tmp_path / "out").exists()
