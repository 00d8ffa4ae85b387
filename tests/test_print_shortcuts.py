"""The printer's shortcuts give what the long ways give, to the byte: the PDF operators written directly
and the objects written out by wizprint (generator/pdf.py) against reportlab's own canvas, the quick and simple
ways of running face templates (generator/layout.py) against jinja2's, the faces a builder draws once and uses
again (generator/faces.py) against faces drawn afresh, and the text layout's joined runs against the runs joined
afterwards."""

from __future__ import annotations

import io
from collections.abc import Iterator
from typing import Any

import pytest
from reportlab.pdfgen.canvas import Canvas

from wizprint.cards.loader import load_game
from wizprint.generator import calibrate, components, deckpdf, playmap, poster, textlayout
from wizprint.generator.build import BuildOptions, build_game
from wizprint.generator.faces import FaceBuilder, card_context
from wizprint.generator.layout import (
    FACE_ENV,
    expression,
    is_template,
    load_layout,
    render_template,
    run_expression,
    simple_expression,
    simple_template,
    template,
)
from wizprint.generator.pdf import new_canvas
from wizprint.generator.textlayout import ICON_EM, ICON_PAD, Run, TextLayout, layout_text
from wizprint.generator.units import PT

GAMES = ("covenant", "wizards-and-relics", "wizards-cup", "wizard-cards", "relic")


def _plain_canvas(target: Any, pagesize: tuple[float, float], title: str, author: str = "wizprint") -> Canvas:
    """pdf.new_canvas with reportlab's own Canvas: every shortcut of pdf.py and deckpdf.py off."""
    return new_canvas(target, pagesize, title, author, kind=Canvas)


def _pdfs(game: str, root: Any, **print_opts: Any) -> dict[str, bytes]:
    from wizprint.generator.deckpdf import PrintOptions

    out = root / game
    result = build_game(game, out, BuildOptions(print=PrintOptions(**print_opts), svg=False, png=False, csv=False))
    return {o.file: (out / o.file).read_bytes() for o in result.outputs if o.file.endswith(".pdf")}


@pytest.mark.parametrize("game", GAMES)
def test_direct_pdf_operators_match_reportlab(game: str, tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every PDF of a game, built the quick way and with reportlab's plain canvas, is the same to the byte."""
    opts: dict[str, Any] = {"layout": "gutterfold"} if game == "covenant" else {}
    quick = _pdfs(game, tmp_path / "quick", **opts)
    with monkeypatch.context() as m:
        for module in (deckpdf, components, playmap, poster, calibrate):
            m.setattr(module, "new_canvas", _plain_canvas)
        plain = _pdfs(game, tmp_path / "plain", **opts)
    assert quick.keys() == plain.keys()
    for name in quick:
        assert quick[name] == plain[name], f"{game}: {name} differs from reportlab's own"


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_calibration_sheet_matches_reportlab(paper: str, monkeypatch: pytest.MonkeyPatch) -> None:
    quick = calibrate.calibration_pdf(paper, "long", (0.0, 0.0))
    monkeypatch.setattr(calibrate, "new_canvas", _plain_canvas)
    assert calibrate.calibration_pdf(paper, "long", (0.0, 0.0)) == quick


def _templates(value: Any) -> Iterator[str]:
    if isinstance(value, list):
        for v in value:
            yield from _templates(v)
    elif is_template(value):
        yield value


@pytest.mark.parametrize("game", GAMES)
def test_quick_templates_match_jinja(game: str) -> None:
    """Each face template and expression of a shipped layout, for each of (some of) its game's cards, gives what
    jinja2's ordinary render gives, or raises the same error."""
    g = load_game(game)
    layout = load_layout(g)
    sources: set[str] = set()
    expressions: set[str] = set()
    for face in layout.faces.values():
        sources.update(_templates(face.background))
        for el in face.elements:
            for key, value in el.props.items():
                if key in ("when", "repeat") and isinstance(value, str) and not is_template(value):
                    expressions.add(value)
                else:
                    sources.update(_templates(value))
    assert sources
    for deck in g.decl.decks:
        size = layout.size_of(deck)
        for card in g.cards(deck)[:12]:
            ctx = card_context(g, layout, card, size, deck)
            for i in (0, 1):
                local = dict(ctx, i=i)
                for src in sorted(sources):
                    _same(lambda s=src, v=local: render_template(s, v),
                          lambda s=src, v=local: FACE_ENV.render(template(s), v))
                for src in sorted(expressions):
                    _same(lambda s=src, v=local: run_expression(s, v),
                          lambda s=src, v=local: FACE_ENV.run(expression(s), **v))


def _same(quick: Any, ordinary: Any) -> None:
    try:
        want: Any = ordinary()
    except Exception as exc:
        with pytest.raises(type(exc)) as got:
            quick()
        assert str(got.value) == str(exc)
        return
    assert quick() == want


def test_simple_templates_fail_as_jinja_does() -> None:
    g = load_game("covenant")
    layout = load_layout(g)
    card = g.cards("main")[0]
    ctx = card_context(g, layout, card, layout.size_of("main"), "main")
    for src in ("{{ style.nope }}", "{{ card.nope }}", "{{ c.nope }}", "{{ part.player }}", "{{ style.colour[c.x] }}",
                "{{ style.colour[card.type].x }}", "{{ style }}", "{{ c.vp }}", "{{ W }}"):
        assert simple_template(src) is not None, src
        _same(lambda s=src: render_template(s, ctx), lambda s=src: FACE_ENV.render(template(s), ctx))
    for src in ("c.nope", "card.type == 'wizard'", "card.nope != 'x'", "part", "c.vp", "style.colour"):
        assert simple_expression(src) is not None, src
        _same(lambda s=src: run_expression(s, ctx), lambda s=src: FACE_ENV.run(expression(s), **ctx))
    # not simple: a keyword, a name starting with _, an unknown name, an index that is a number
    for src in ("{{ none }}", "{{ style._x }}", "{{ nope.x }}", "{{ style.colour[0] }}", "{{ style.ink|upper }}"):
        assert simple_template(src) is None, src


@pytest.mark.parametrize("game", GAMES)
def test_faces_drawn_once_match_faces_drawn_afresh(game: str) -> None:
    """A builder that uses again the items and values it worked out draws the same scenes as a new builder for
    every card."""
    g = load_game(game)
    layout = load_layout(g)
    shared = FaceBuilder(g, layout, 3.0)
    for deck in g.decl.decks:
        for card in g.cards(deck)[:40]:
            face = layout.front_face(deck, card.type)
            assert shared.scene(face, card, deck) == FaceBuilder(g, layout, 3.0).scene(face, card, deck)
        for face in layout.back_faces(deck).values():
            assert shared.scene(face, None, deck) == FaceBuilder(g, layout, 3.0).scene(face, None, deck)


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
