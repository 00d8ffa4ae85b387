"""The print services a build makes card files for (``--for mpc``, ``--for tgc``, ``--for drivethrucards``) and the
figures they follow, read from ``layouts/services.toml`` (each figure names its source there).

A deck is printed at a service's card size when its own size is within ``[fit] mm`` of it: the card is drawn at
its own size, centred on the service's card, so a 63 x 88 mm card on a 2.5 x 3.5 in card shows 0.25 mm and 0.45 mm
more of its background round it, and the service's safe zone lies that much less far inside the card's own edges.
The files come from the same drawn faces as the PDFs (generator/raster.py renders them with pypdfium2), into the
service's own build folder (``output/<game>/<service>/``, with its own manifest):

- MakePlayingCards and The Game Crafter: a folder per deck (``<deck>-<back>/`` for each back of a deck whose
  copies have their own), a PNG per card design (``001-<card>.png``, in the deck's order), the one back of the
  folder's cards (``back.png``), and ``cards.csv`` (each file, its card, name and copies);
- DriveThruCards: ``<deck>.pdf``, one card side a page, the back of each card before its front
  (generator/pdfx.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any

from wizprint.errors import WizprintBug, quote

from .drawing import Drawn
from .producing import BuildOptions, Job, Made, Plan, made, name_part, register
from .scene import Scene
from .servicefigures import (
    MM_PER_IN,
    CardFile,
    CardSize,
    Figures,
    Group,
    Placement,
    Service,
    TtsFigures,
    figures,
    groups,
    needed_bleed,
    placement,
    service,
    service_decks,
    sizes_text,
)

__all__ = ["MM_PER_IN", "CardFile", "CardSize", "Figures", "Group", "Placement", "Service", "TtsFigures", "figures",
           "groups", "needed_bleed", "placement", "service", "service_decks", "sizes_text"]

FRONTS_A_JOB = 12  # card images a job renders (one PDF of their pages, rendered page by page)

def _titles(drawn: Drawn) -> dict[str, str]:
    from .csvio import printed_titles

    return printed_titles(drawn.game, layout=drawn.layout)


def _image_plan(sid: str, drawn: Drawn, opts: BuildOptions) -> Plan:
    """MakePlayingCards and The Game Crafter: a folder per deck (and back), a PNG per design, its back, and
    cards.csv; the faces checked by the preflight first (its errors stop the build before any file is made)."""
    from .preflight import check_drawn

    svc = service(sid)
    notes = [w.message for w in check_drawn(drawn, svc)]
    printed, _left = service_decks(drawn, svc)
    titles = _titles(drawn)
    jobs: list[Job] = []
    listed: list[str] = []
    for deck, where in printed:
        for g in groups(drawn, deck):
            files = [CardFile(f"{g.folder}/{i:03d}-{name_part(cid, f'card id (deck {quote(deck)})')}.png",
                              sc, cid, titles.get(cid) or drawn.game.by_id()[cid].name, n)
                     for i, (cid, sc, n) in enumerate(g.fronts, start=1)]
            back = CardFile(f"{g.folder}/back.png", g.back_scene)
            images = [back, *files]
            for k in range(0, len(images), FRONTS_A_JOB):
                part = images[k:k + FRONTS_A_JOB]
                jobs.append(Job(tuple(f.name for f in part), partial(_png_files, sid, where, part, deck),
                                cost=30.0 * len(part)))
            csv_name = f"{g.folder}/cards.csv"
            jobs.append(Job((csv_name,), partial(_csv_file, sid, csv_name, files, back.name, deck), cost=1.0))
            listed += [back.name, *(f.name for f in files), csv_name]
    return Plan(jobs, listed=listed, preload=_preload, notes=notes)


def _preload() -> None:
    from .contact import preload

    preload()


def _png_files(sid: str, where: Placement, files: Sequence[CardFile], deck: str) -> list[Made]:
    from .preflight import check_png
    from .raster import card_page, png_bytes, render

    svc = service(sid)
    images = render([card_page(f.scene, where) for f in files], f"{sid} {deck}")
    out = []
    for f, im in zip(files, images):
        data = png_bytes(im, svc.dpi)
        problems = check_png(data, f.name, svc, where.size)
        if problems:  # wizprint's own image does not meet the figures it was made to
            raise WizprintBug(f"{f.name}: {problems[0]}")
        out.append(made(f.name, sid, data, 1, deck=deck, card=f.card or "back", px=list(im.size)))
    return out


def _csv_file(sid: str, name: str, files: Sequence[CardFile], back: str, deck: str) -> list[Made]:
    from .csvio import csv_row

    rows = [csv_row(["file", "card", "name", "copies", "back"])]
    folder = name.rsplit("/", 1)[0] + "/"
    rows += [csv_row([f.name.removeprefix(folder), f.card, f.title, str(f.copies), back.removeprefix(folder)])
             for f in files]
    return [made(name, sid, "".join(rows), 1, deck=deck)]


@register("mpc", "MakePlayingCards' card images: a folder per deck, a PNG per design, back.png, cards.csv (--for mpc)",
          asked=True)
def mpc(drawn: Drawn, opts: BuildOptions) -> Plan:
    return _image_plan("mpc", drawn, opts)


@register("tgc", "The Game Crafter's card images: a folder per deck, a PNG per design, back.png, cards.csv (--for tgc)",
          asked=True)
def tgc(drawn: Drawn, opts: BuildOptions) -> Plan:
    return _image_plan("tgc", drawn, opts)


@register("drivethrucards", "DriveThruCards' decks: <deck>.pdf, CMYK, a card side a page, each back before its front "
          "(--for drivethrucards)", asked=True)
def drivethrucards(drawn: Drawn, opts: BuildOptions) -> Plan:
    from .preflight import check_drawn

    svc = service("drivethrucards")
    notes = [w.message for w in check_drawn(drawn, svc)]
    printed, _left = service_decks(drawn, svc)
    jobs = []
    for deck, where in printed:
        name = f"{deck}.pdf"
        seq = drawn.sequence(deck)
        designs = len(drawn.fronts[deck]) + len(drawn.backs[deck])
        jobs.append(Job((name,), partial(_dtc_file, drawn.game.name, deck, name, seq.cards, seq.backs, where),
                        cost=40.0 * designs))
    return Plan(jobs, preload=_preload, notes=notes)


def _dtc_file(game_name: str, deck: str, name: str, cards: Sequence[tuple[str, Scene]], backs: Sequence[Scene],
              where: Placement) -> list[Made]:
    from .pdfx import cmyk_image, pdfx_deck
    from .preflight import check_pdf
    from .raster import card_page, render

    svc = service("drivethrucards")
    # each distinct face rendered once: (key -> image), then every card's back and front pages in order
    distinct: dict[str, Scene] = {}
    for (_cid, front), back in zip(cards, backs):
        distinct.setdefault(back.key, back)
        distinct.setdefault(front.key, front)
    keys = list(distinct)
    images: dict[str, Any] = {}
    for k in range(0, len(keys), FRONTS_A_JOB):
        part = keys[k:k + FRONTS_A_JOB]
        for key, im in zip(part, render([card_page(distinct[x], where) for x in part], f"{svc.id} {deck}")):
            images[key] = cmyk_image(im, svc.ink or 400.0)
    pages = [key for (_cid, front), back in zip(cards, backs) for key in (back.key, front.key)]
    data = pdfx_deck(f"{game_name} - {deck}", where, images, pages, svc)
    problems = check_pdf(data, name, svc, where.size, len(cards))
    if problems:
        raise WizprintBug(f"{name}: {problems[0]}")
    return [made(name, "drivethrucards", data, len(pages), deck=deck, cards=len(cards),
                 page_in=[where.size.image[0] / svc.dpi, where.size.image[1] / svc.dpi])]
