"""The printer's shortcuts (generator/shortcuts.py) give what the plain ways give, to the byte: every file of every
game built with the shortcuts and without them, what a template reads as found in jinja2's parse tree, the faces a
builder draws once and uses again against faces drawn afresh and faces drawn the plain way, and the text layout's
joined runs against the runs joined afterwards."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest

from wizprint.cards.loader import load_game
from wizprint.generator import calibrate, shortcuts, textlayout
from wizprint.generator.build import BuildOptions, build_game
from wizprint.generator.deckpdf import PrintOptions
from wizprint.generator.faces import FaceBuilder
from wizprint.generator.layout import deck_constant, load_layout, reads
from wizprint.generator.textlayout import ICON_EM, ICON_PAD, Run, TextLayout, layout_text
from wizprint.generator.units import PT

GAMES = ("covenant", "wizards-and-relics", "wizards-cup", "wizard-cards", "relic")


def _files(game: str, out: Path, **print_opts: Any) -> dict[str, bytes]:
    """Every file of a build (PDFs, SVGs, the manifest; no previews, which are drawn from the PDFs), by name."""
    build_game(game, out, BuildOptions(print=PrintOptions(**print_opts), png=False, csv=False))
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("game", GAMES)
def test_every_file_is_the_same_without_the_shortcuts(game: str, tmp_path: Path) -> None:
    """Every file of a game, built with the shortcuts and with every shortcut off, is the same to the byte."""
    opts: dict[str, Any] = {"layout": "gutterfold"} if game == "covenant" else {}
    quick = _files(game, tmp_path / "quick", **opts)
    with shortcuts.disabled():
        plain = _files(game, tmp_path / "plain", **opts)
    assert quick.keys() == plain.keys()
    assert any(name.endswith(".pdf") for name in quick) and any(name.endswith(".svg") for name in quick)
    for name in quick:
        assert quick[name] == plain[name], f"{game}: {name} differs without the shortcuts"


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_calibration_sheet_is_the_same_without_the_shortcuts(paper: str) -> None:
    quick = calibrate.calibration_pdf(paper, "long", (0.0, 0.0))
    with shortcuts.disabled():
        assert calibrate.calibration_pdf(paper, "long", (0.0, 0.0)) == quick


def test_what_a_template_reads() -> None:
    """A template that does nothing but read its variables is found so (a builder may work it out once per card,
    or once per deck for the deck's own variables); one that calls anything is not."""
    assert reads("{{ style.ink }}") == {"style"}
    assert reads("**{{ style.name[c.colour]|upper }}** {{ short }}") == {"style", "c", "short"}
    assert reads("{% if card.copies > 1 %}x{{ card.copies }}{% endif %} {{ W - 6 }}") == {"card", "W"}
    assert reads("{% for x in effects %}{{ x.word }}{% endfor %}") == {"effects"}
    assert reads("c.vp and card.type == 'wizard'", is_expression=True) == {"c", "card"}
    assert reads("(c.threat_icons or [])|length", is_expression=True) == {"c"}
    for calls in ("**Reward:** {{ fx(c.reward) }}", "{{ style.colour.get(card.type) }}",
                  "{{ style.seen.setdefault(card.id, 1) }}"):
        assert reads(calls) is None, calls
    assert reads("{{ name_of(c.start) }}", is_expression=False) is None
    assert reads("fx(c.reward)", is_expression=True) is None
    assert reads("{{ nope }}") is None  # does not compile: unknown name
    assert deck_constant("{{ game.name }} v{{ version }}")
    assert not deck_constant("{{ game.name }} {{ card.id }}")
    assert not deck_constant("{{ style.colour.get('x') }}")


@pytest.mark.parametrize("game", GAMES)
def test_faces_drawn_once_match_faces_drawn_afresh_and_plainly(game: str) -> None:
    """A builder that uses again the items and values it worked out draws the same scenes as a new builder for
    every card, and as a builder without the shortcuts."""
    g = load_game(game)
    layout = load_layout(g)
    shared = FaceBuilder(g, layout, 3.0)
    with shortcuts.disabled():
        plain = FaceBuilder(g, layout, 3.0)
    assert shared.quick and not plain.quick
    for deck in g.decl.decks:
        for card in g.cards(deck)[:40]:
            face = layout.front_face(deck, card.type)
            got = shared.scene(face, card, deck)
            assert got == FaceBuilder(g, layout, 3.0).scene(face, card, deck)
            assert got == plain.scene(face, card, deck)
        for face in layout.back_faces(deck).values():
            got = shared.scene(face, None, deck)
            assert got == FaceBuilder(g, layout, 3.0).scene(face, None, deck)
            assert got == plain.scene(face, None, deck)


def _reference_place(broken: Any, fam: Any, s: float, asc: float, desc: float, leading: float, para_gap: float,
                     space1: float, width_pt: float, height_pt: float, total: float, align: str, valign: str,
                     family_name: str) -> TextLayout:
    """textlayout._place as it was: every fragment a run, then _merge."""
    top = 0.0
    if valign == "middle":
        top = (height_pt - total) / 2
    elif valign == "bottom":
        top = height_pt - total
    runs: list[Run] = []
    baseline = top + asc * s
    nlines = 0
    for pi, para in enumerate(broken):
        if pi:
            baseline += para_gap * s
        for li, line in enumerate(para):
            if li or pi:
                baseline += leading * s
            nlines += 1
            lw = sum(w.w1 for w in line) * s + space1 * s * (len(line) - 1)
            x = 0.0
            if align == "center":
                x = (width_pt - lw) / 2
            elif align == "right":
                x = width_pt - lw
            for wi, word in enumerate(line):
                if wi:
                    x += space1 * s
                for f in word.frags:
                    if f.icon:
                        isz = ICON_EM * s
                        runs.append(Run(x=(x + ICON_PAD * s) * PT, baseline=baseline * PT, text="", face="", size=isz,
                                        icon=f.icon, w=isz * PT, bold=f.bold, italic=f.italic))
                        x += (ICON_EM + 2 * ICON_PAD) * s
                    else:
                        face = fam.face(f.bold, f.italic)
                        fw = textlayout.width1(f.text, face) * s
                        runs.append(Run(x=x * PT, baseline=baseline * PT, text=f.text, face=face, size=s, bold=f.bold,
                                        italic=f.italic, w=fw * PT))
                        x += fw
    return TextLayout(size=s, runs=textlayout._merge(runs), height=total * PT, lines=nlines, family=family_name,
                      align=align)


TEXTS = ["Spell number 17", "Roll :die: now, then **draw 2** cards.\nThen *discard* one :d6:.",
         "(:willpower: Willpower 3) and :life: life", "A very long line of words that will have to break " * 3,
         "x" * 40, "**Bold** *italic* ***both*** plain", ":die::die: :die:", "Tab\tand\u00a0no-break space"]


def test_joined_runs_match_runs_joined_afterwards(monkeypatch: pytest.MonkeyPatch) -> None:
    g = load_game("relic")
    texts = TEXTS + [g.text(c) for c in g.cards()[:60]]
    settings = [dict(w=40.0, h=30.0, size=9.0, min_size=5.0, align=a, valign=v) for a in ("left", "center", "right")
                for v in ("top", "middle", "bottom")] + [dict(w=20.0, h=60.0, size=7.0, leading=0.0, para_gap=0.0)]
    quick = [layout_text(t, **kw) for t in texts for kw in settings if _fits(t, kw)]  # type: ignore[arg-type]
    monkeypatch.setattr(textlayout, "_place", _reference_place)
    reference = [layout_text(t, **kw) for t in texts for kw in settings if _fits(t, kw)]  # type: ignore[arg-type]
    assert quick == reference
    assert len(quick) > 100


def _fits(text: str, kw: dict[str, Any]) -> bool:
    try:
        layout_text(text, **kw)
    except Exception:
        return False
    return True


def test_pdf_bytes_of_a_deck_are_reproducible() -> None:
    """Two builds of a deck in one process (the second with every cache of the first) give the same bytes."""
    from wizprint.generator.deckpdf import PrintOptions, deck_pdf
    from wizprint.generator.drawing import deck_sequence, front_scenes

    g = load_game("wizards-cup")
    layout = load_layout(g)
    out = []
    for _ in range(2):
        fb = FaceBuilder(g, layout, 3.0)
        deck = next(iter(g.decl.decks))
        fronts = front_scenes(g, layout, fb, deck)
        backs = {name: fb.scene(face, None, deck) for name, face in layout.back_faces(deck).items()}
        seq, card_backs, groups = deck_sequence(g, deck, fronts, backs)
        out.append(deck_pdf("t", seq, card_backs, PrintOptions(), groups).data)
    assert out[0] == out[1]
    assert io.BytesIO(out[0]).read(5) == b"%PDF-"
