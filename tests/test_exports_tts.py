"""Tabletop Simulator's files (``wizprint build GAME --for tts``): for every game, saved objects that parse and hold
every field the custom deck needs, card sheets within 10 x 7 cards and 4096 pixels, each card once per back on its
sheet with its printed id, every image at the size its saved object implies; the whole game laid out as the game's
table.toml places it."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

import pytest
from cli_helpers import run_here
from PIL import Image, ImageStat

from wizprint.cards.loader import load_game
from wizprint.errors import DataErrors
from wizprint.generator.build import BuildOptions, build_game
from wizprint.generator.csvio import printed_titles
from wizprint.generator.services import figures
from wizprint.generator.tts import grid
from wizprint.resources import game_ids

SMALL = 512  # the largest side of an image in the builds below (what they check holds at any size)
DECK_FIELDS = {"FaceURL", "BackURL", "NumWidth", "NumHeight", "BackIsHidden", "UniqueBack", "Type"}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Every game built for Tabletop Simulator, its images at most SMALL pixels a side."""
    out = tmp_path_factory.mktemp("tts")
    return {g: build_game(g, out / g, BuildOptions(target="tts", jobs=1, tts_max_px=SMALL)).out_dir
            for g in game_ids()}


def _file(url: str) -> Path:
    p = urlparse(url)
    assert p.scheme == "file", url
    return Path(unquote(p.path))


def _image(url: str) -> Any:
    return Image.open(io.BytesIO(_file(url).read_bytes()))


def _cards(obj: dict[str, Any]) -> list[dict[str, Any]]:
    return obj["ContainedObjects"] if obj["Name"] == "DeckCustom" else [obj]


def _check_deck(obj: dict[str, Any], max_px: int) -> None:
    """A deck object's sheets and cards: the grid limits, each image's size a multiple of its grid within
    ``max_px``, each card on its sheet (not in the hidden face's slot)."""
    tts = figures().tts
    for key, deck in obj["CustomDeck"].items():
        assert set(deck) >= DECK_FIELDS, key
        cols, rows = deck["NumWidth"], deck["NumHeight"]
        assert 2 <= cols <= tts.columns and 2 <= rows <= tts.rows
        assert deck["BackIsHidden"] is True
        face = _image(deck["FaceURL"])
        assert face.mode == "RGB" and max(face.size) <= max_px
        assert face.size[0] % cols == 0 and face.size[1] % rows == 0
        back = _image(deck["BackURL"])
        cell = (face.size[0] // cols, face.size[1] // rows)
        assert back.size == (face.size if deck["UniqueBack"] else cell)
    if obj["Name"] == "DeckCustom":
        assert obj["DeckIDs"] == [c["CardID"] for c in obj["ContainedObjects"]]
    for c in _cards(obj):
        deck = obj["CustomDeck"][str(c["CardID"] // 100)]
        assert 0 <= c["CardID"] % 100 < deck["NumWidth"] * deck["NumHeight"] - 1
        assert c["CustomDeck"] == {str(c["CardID"] // 100): deck}


@pytest.mark.parametrize("game", game_ids())
def test_every_deck_is_a_saved_object_of_its_cards(built: dict[str, Path], game: str) -> None:
    g = load_game(game)
    titles = printed_titles(g)
    for d in g.decl.decks:
        saved = json.loads((built[game] / f"deck-{d}.json").read_text(encoding="utf-8"))
        (obj,) = saved["ObjectStates"]
        assert obj["Name"] == "DeckCustom"
        _check_deck(obj, SMALL)
        cards = _cards(obj)
        assert len(cards) == g.physical_count(d)
        # each card: its printed id last in its description, its printed title its name; each design's copies
        seen: dict[str, int] = {}
        for card in cards:
            (c,) = [c for c in g.cards(d) if card["Description"].endswith(f"{g.decl.short}\u00b7{c.id}")]
            assert card["Nickname"] == (titles.get(c.id) or c.name)
            seen[c.id] = seen.get(c.id, 0) + 1
        assert seen == {c.id: c.copies for c in g.cards(d)}
        # every design is on a sheet once for each back it has
        backs = len(g.decl.decks[d].backs) or 1
        slots = {c["CardID"] for c in cards}
        assert len(slots) == sum(min(c.copies, backs) if g.decl.decks[d].backs else 1 for c in g.cards(d))


@pytest.mark.parametrize("game", game_ids())
def test_the_whole_game_is_one_saved_object_of_every_component(built: dict[str, Path], game: str) -> None:
    g = load_game(game)
    saved = json.loads((built[game] / f"{game}.json").read_text(encoding="utf-8"))
    objects = saved["ObjectStates"]
    decks = [o for o in objects if o["Name"] in ("DeckCustom", "Card")]
    for o in decks:
        _check_deck(o, SMALL)
    assert sum(len(_cards(o)) for o in decks) == g.physical_count()
    bags = [o for o in objects if o["Name"] == "Bag"]
    tokens = {c.id: c.count for c in g.decl.components if c.kind == "tokens"}
    assert sum(len(b["ContainedObjects"]) for b in bags) == sum(tokens.values())
    for b in bags:
        for t in b["ContainedObjects"]:
            assert t["Name"] in ("Custom_Token", "Custom_Tile")
            assert _image(t["CustomImage"]["ImageURL"]).mode == "RGBA"  # cut out along its transparency
    tiles = [o for o in objects if o["Name"] == "Custom_Tile"]
    wanted = sum(c.count for c in g.decl.components if c.kind in ("board", "sheet"))
    wanted += sum(len(g.of_kind(k)) for k in ("character", "scenario") if k in g.decl.kinds)
    assert len(tiles) == wanted
    for t in tiles:
        im = _image(t["CustomImage"]["ImageURL"])
        assert max(im.size) <= SMALL and im.mode == "RGB"
    guids = [o["GUID"] for o in objects] + [c["GUID"] for o in objects for c in o.get("ContainedObjects", [])]
    assert len(set(guids)) == len(guids)


def test_the_table_is_laid_out_as_the_set_up(built: dict[str, Path]) -> None:
    """Wizards Cup: each player's set before them, Black near and White far, face down (table.toml)."""
    saved = json.loads((built["wizards-cup"] / "wizards-cup.json").read_text(encoding="utf-8"))
    sets = {o["Nickname"]: o for o in saved["ObjectStates"] if o["Name"] == "DeckCustom"}
    black, white = sets["Wizard cards (black)"], sets["Wizard cards (white)"]
    assert len(black["ContainedObjects"]) == len(white["ContainedObjects"]) == 18
    assert black["Transform"]["posZ"] < 0 < white["Transform"]["posZ"]
    assert black["Transform"]["rotZ"] == white["Transform"]["rotZ"] == 180.0  # face down
    assert (white["Transform"]["rotY"] - black["Transform"]["rotY"]) % 360 == 180.0
    relic = json.loads((built["relic"] / "relic.json").read_text(encoding="utf-8"))
    board = next(o for o in relic["ObjectStates"] if o["Nickname"].startswith("The game board"))
    assert (board["Transform"]["posX"], board["Transform"]["posZ"]) == (0.0, 0.0)


def test_a_deck_with_two_backs_has_a_sheet_of_backs(built: dict[str, Path]) -> None:
    """Wizards Cup's Black and White sets: UniqueBack, each card's back in its slot of the sheet of backs; the
    last slot of the faces holds the hidden face, which is the back."""
    (obj,) = json.loads((built["wizards-cup"] / "deck-wizards.json").read_text(encoding="utf-8"))["ObjectStates"]
    (deck,) = obj["CustomDeck"].values()
    assert deck["UniqueBack"] is True
    backs, faces = _image(deck["BackURL"]).convert("RGB"), _image(deck["FaceURL"]).convert("RGB")
    cw, ch = faces.size[0] // deck["NumWidth"], faces.size[1] // deck["NumHeight"]

    def mean(im: Any, slot: int) -> float:
        r, c = divmod(slot, deck["NumWidth"])
        return sum(ImageStat.Stat(im.crop((c * cw, r * ch, (c + 1) * cw, (r + 1) * ch)).convert("L")).mean)

    ids = [c["CardID"] % 100 for c in obj["ContainedObjects"]]
    first, second = ids[:18], ids[18:]  # the first copies (black backs), then the second (white)
    assert all(mean(backs, s) < 100 for s in first) and all(mean(backs, s) > 150 for s in second)
    last = deck["NumWidth"] * deck["NumHeight"] - 1
    assert abs(mean(faces, last) - mean(backs, first[0])) < 2


def test_sheets_at_full_size_keep_to_the_limits(tmp_path: Path) -> None:
    """The largest deck (Wizards & Relics' 117 designs) at Tabletop Simulator's own limit: two sheets of at most
    10 x 7 cards, 4096 pixels a side."""
    out = build_game("wizards-and-relics", tmp_path / "wr", BuildOptions(target="tts", jobs=1)).out_dir
    (obj,) = json.loads((out / "deck-duel.json").read_text(encoding="utf-8"))["ObjectStates"]
    assert len(obj["CustomDeck"]) == 2
    _check_deck(obj, 4096)
    assert len(obj["ContainedObjects"]) == 120


@pytest.mark.parametrize("n", range(1, 70))
def test_a_sheet_holds_its_cards_and_the_hidden_face(n: int) -> None:
    cols, rows = grid(n, figures().tts)
    assert 2 <= cols <= 10 and 2 <= rows <= 7 and cols * rows >= n + 1
    assert rows == 2 or cols * (rows - 1) < n + 1  # no empty row (but for the smallest grid, 2 x 2)
    assert cols == 2 or (cols - 1) * rows < n + 1  # no empty column either


def test_base_url_addresses_the_images_uploaded_elsewhere(tmp_path: Path) -> None:
    r = run_here("build", "wizard-cards", "--for", "tts", "--base-url", "https://example.org/wc/tts", "-o",
                 str(tmp_path), "-q")
    assert r.returncode == 0, r.stderr
    (obj,) = json.loads((tmp_path / "wizard-cards/tts/deck-spells.json").read_text())["ObjectStates"]
    (deck,) = obj["CustomDeck"].values()
    assert deck["FaceURL"] == "https://example.org/wc/tts/faces-spells-1.png"
    assert deck["BackURL"] == "https://example.org/wc/tts/back-spells.png"


@pytest.mark.parametrize("args", [["--for", "tts", "--base-url", "not a url"], ["--base-url", "https://example.org/x"],
                                  ["--for", "tts", "--base-url", "ftp://example.org/x"], ["--for", "paper"]])
def test_bad_export_options_are_one_line(tmp_path: Path, args: list[str]) -> None:
    r = run_here("build", "wizard-cards", *args, "-o", str(tmp_path))
    assert r.returncode == 2
    assert r.stderr.count("\n") == 1 and r.stderr.startswith("error: ")
    assert not (tmp_path / "wizard-cards").exists()


def test_a_place_of_the_table_that_names_nothing_is_an_error_at_its_line(tmp_path: Path) -> None:
    """A game folder's own table-layout.toml, with a name that is no deck or component."""
    r = run_here("new", str(tmp_path / "my-cards"), "--from", "wizard-cards")
    assert r.returncode == 0, r.stderr
    (tmp_path / "my-cards/table-layout.toml").write_text('[[place]]\nwhat = "spells"\nat = [0, 0]\n\n'
                                                         '[[place]]\nwhat = "spels"\nat = [100, 0]\n')
    with pytest.raises(DataErrors) as e:
        build_game(tmp_path / "my-cards", tmp_path / "out", BuildOptions(target="tts", jobs=1, tts_max_px=256))
    (issue,) = e.value.issues
    assert issue.file.endswith("table-layout.toml") and issue.line == 6 and "'spels'" in issue.message
    assert not (tmp_path / "out").exists()


def test_an_export_and_the_games_build_keep_each_others_files(tmp_path: Path) -> None:
    """The export's folder is a build of its own inside the game's (output/<game>/tts/): made first or last, each
    build leaves the other's files as they are, and says nothing of them."""
    out = str(tmp_path)
    assert run_here("build", "wizards-cup", "--for", "tts", "-o", out, "-q", "-j", "1").returncode == 0
    tts = {p.name: p.read_bytes() for p in (tmp_path / "wizards-cup/tts").iterdir()}
    r = run_here("build", "wizards-cup", "--only", "csv", "-o", out, "-j", "1")
    assert r.returncode == 0 and "kept" not in r.stderr, r.stderr
    assert {p.name: p.read_bytes() for p in (tmp_path / "wizards-cup/tts").iterdir()} == tts
    r = run_here("build", "wizards-cup", "--for", "tts", "-o", out, "-q", "-j", "1")
    assert r.returncode == 0 and (tmp_path / "wizards-cup/wizards-cup.csv").is_file()
    assert sorted(p.name for p in (tmp_path / "wizards-cup").iterdir()) == ["manifest.json", "tts",
                                                                            "wizards-cup.csv"]
    r = run_here("build", "wizards-cup", "--for", "tts", "--only", "csv", "-o", out)
    assert r.returncode == 2 and "leave out --only and --skip" in r.stderr
    r = run_here("build", "wizards-cup", "--only", "tts", "-o", out)
    assert r.returncode == 2 and "'tts' is made by --for tts, into a folder of its own" in r.stderr
