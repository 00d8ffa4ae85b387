"""What a build is made of: producers, each an output kind registered by name, that plan jobs making files.

A build draws the game once (:func:`wizprint.generator.drawing.draw`: every face, and so every check), then asks
each selected producer for its :class:`Plan`: the jobs that make its files and the order in which the manifest
lists them. :func:`wizprint.generator.build.build_game` runs every planned job (in worker processes with
``--jobs``), lists the files in the producers' order, and writes them all at once with the manifest.

A new kind of output is a module with a plan function and its registration, named in ``build.py``'s
``OUTPUT_KINDS`` (and in the command line's list of kinds, ``KINDS`` in core/cli.py)::

    @register("notes", "notes.txt: the game's name and its decks")
    def notes(drawn: Drawn, opts: BuildOptions) -> Plan:
        text = "\\n".join([drawn.game.name, *drawn.game.decl.decks]) + "\\n"
        return Plan([Job(("notes.txt",), lambda: [made("notes.txt", "notes", text)], cost=1.0)])

``wizprint build GAME --only notes`` then makes it alone, and ``--skip notes`` leaves it out.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from wizprint.atomic import name_problem, safe_relpath
from wizprint.errors import BuildError, UsageError, WizprintBug, quote

from .deckpdf import PrintOptions
from .drawing import Drawn


@dataclass(frozen=True)
class BuildOptions:
    print: PrintOptions = field(default_factory=PrintOptions)
    svg: bool = True  # single cards as SVG (the producer "svg")
    png: bool = True  # a contact sheet of each deck (the producer "previews")
    csv: bool = True  # the cards as CSV (the producer "csv")
    sheets: bool = True  # the game's printed sheets (the producer "sheets")
    low_ink: bool = False  # floods as tints with outlines (generator/lowink.py)
    jobs: int = 1  # worker processes for the files (generator/jobs.py); the output is the same for any number
    only: tuple[str, ...] = ()  # the producers to run (by name); empty: every one but the exports
    skip: tuple[str, ...] = ()  # producers not to run
    target: str | None = None  # an export (--for tts|mpc|tgc|drivethrucards): its producer alone, in its own folder
    base_url: str | None = None  # where the Tabletop Simulator images will be (None: file:/// URLs of the build's)
    folder: Path | None = None  # the build's folder, absolute (set by build_game: the file:/// URLs point there)
    tts_max_px: int | None = None  # a smaller largest side for Tabletop Simulator's images (None: its own limit)
    service_bleed: bool = False  # draw the faces with the bleed the print services built need, when more than print's

    def kinds(self) -> tuple[str, ...]:
        """The names of the producers this build runs, in the order of the registry: with a ``target``, its
        producer alone (and the manifest); else those named by ``only``, or every producer but the exports (made
        only for a target: ``--for tts``, into a folder of their own). A name that is not a producer's, an
        export named by ``--only`` or ``--skip``, or a producer that cannot be left out (the manifest) is a
        :class:`UsageError`."""
        if self.target is not None:
            if self.target not in REGISTRY or not REGISTRY[self.target].asked:
                raise UsageError(f"--for: {quote(self.target)} is not an export (exports: {', '.join(exports())})")
            if self.only or self.skip:
                raise UsageError(f"--for {self.target} makes its files alone, in a folder of their own: leave out "
                                 f"--only and --skip")
            return tuple(name for name, p in REGISTRY.items() if p.always or name == self.target)
        for option, names in (("--only", self.only), ("--skip", self.skip)):
            for name in names:
                if name not in REGISTRY or REGISTRY[name].asked:
                    what = (f"is made by --for {name}, into a folder of its own" if name in REGISTRY else
                            "is not a kind of output")
                    raise UsageError(f"{option}: {quote(name)} {what} (kinds: {', '.join(kinds_of_output())})")
                if option == "--skip" and REGISTRY[name].always:
                    raise UsageError(f"--skip: {name} cannot be skipped: {REGISTRY[name].help}")
        off = {name for name, on in (("svg", self.svg), ("previews", self.png), ("csv", self.csv),
                                     ("sheets", self.sheets)) if not on}
        return tuple(name for name, p in REGISTRY.items()
                     if p.always or (not p.asked and (not self.only or name in self.only) and name not in self.skip
                                     and name not in off))

    def makes(self, kind: str) -> bool:
        """Whether this build makes the files of the producer ``kind``."""
        return kind in self.kinds()


@dataclass
class Output:
    """A file of the build as the manifest lists it."""

    file: str
    kind: str
    pages: int
    sha256: str
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Made:
    """A file a job made: its name in the output folder, its bytes, and its entry in the manifest."""

    name: str
    payload: bytes
    output: Output


def made(name: str, kind: str, data: bytes | str, pages: int = 1, **extra: Any) -> Made:
    """A file of the build. ``name`` must stay inside the output folder (BuildError otherwise)."""
    safe_relpath(name)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    return Made(name, payload, Output(name, kind, pages, hashlib.sha256(payload).hexdigest(), dict(extra)))


def name_part(value: object, what: str) -> str:
    """An id that becomes one part of a file name (``cards-<deck>.pdf``, ``svg/<deck>/<id>.svg``): checked so
    that every output path stays inside the output folder (BuildError otherwise)."""
    why = name_problem(value) if isinstance(value, str) else "it is not text"
    if why:
        raise BuildError(f"{what} {quote(value)} cannot be part of a file name: {why}")
    assert isinstance(value, str)
    return value


@dataclass(frozen=True)
class Job:
    """Files made by one call, in a worker process or in the building process (``here``: a job that uses this
    process's state). ``files`` names them in the order ``make`` returns them; ``cost`` is a rough guess of its
    time (about 0.2 ms a unit), so that the workers start with the longest jobs. Whichever process runs a job,
    it must make the same bytes."""

    files: tuple[str, ...]
    make: Callable[[], list[Made]]
    cost: float = 10.0
    here: bool = False


@dataclass(frozen=True)
class Plan:
    """A producer's part of a build: its jobs, and the files it lists in the manifest, in their order (by
    default, its jobs' files in the order of the jobs). A producer may list files that another producer's jobs
    make (a deck's preview is cut from the deck's PDF, in the job that makes the PDF)."""

    jobs: Sequence[Job] = ()
    listed: Sequence[str] | None = None
    preload: Callable[[], None] | None = None  # called before workers are forked (imports each would make)
    notes: Sequence[str] = ()  # warnings for the user (a deck a print service leaves out), shown after the build

    def files(self) -> list[str]:
        return list(self.listed) if self.listed is not None else [f for j in self.jobs for f in j.files]


PlanFunction = Callable[[Drawn, BuildOptions], Plan]


@dataclass(frozen=True)
class Producer:
    """An output kind: its name (for ``--only`` and ``--skip``), a line of help, and the function that plans its
    files from the drawn game and the options. ``needs``: producers whose jobs make this one's files (they are
    planned with it, and their own files are kept only when they are selected too). ``always``: it cannot be
    left out. ``last``: a file made from the whole list of the build's files, written after every other one
    (the manifest); such a file is not listed itself. ``asked``: an export, made only for its target
    (``--for tts``), alone, in a folder of its own (``output/<game>/tts/``)."""

    name: str
    help: str
    plan: PlanFunction
    needs: tuple[str, ...] = ()
    always: bool = False
    last: Callable[[str, list[Output]], Made] | None = None
    asked: bool = False


# Every producer, by name, in the order the manifest lists their files: the order of the modules that register
# them in build.py's OUTPUT_KINDS (see in_order), then the order in which each module registers its own.
REGISTRY: dict[str, Producer] = {}


def kinds_of_output() -> list[str]:
    """The producers ``--only`` and ``--skip`` name: every one but the manifest and the exports."""
    return [name for name, p in REGISTRY.items() if not p.always and not p.asked]


def exports() -> list[str]:
    """The producers ``--for`` names, each making its files alone, in a folder of their own."""
    return [name for name, p in REGISTRY.items() if p.asked]


def register(name: str, help: str, *, needs: tuple[str, ...] = (), always: bool = False,
             last: Callable[[str, list[Output]], Made] | None = None, asked: bool = False
             ) -> Callable[[PlanFunction], PlanFunction]:
    """Register a plan function as the producer ``name`` (after the ones registered before it)::

        @register("csv", "<game>.csv: the cards as CSV")
        def csv(drawn: Drawn, opts: BuildOptions) -> Plan: ...
    """

    def add(plan: PlanFunction) -> PlanFunction:
        if name in REGISTRY or name_problem(name) or "," in name:
            raise WizprintBug(f"cannot register a second producer, or one named {name!r}")
        REGISTRY[name] = Producer(name, help, plan, needs, always, last, asked)
        return plan

    return add


def in_order(modules: Sequence[ModuleType]) -> None:
    """Put the registry in the order of ``modules`` (those that register producers), whichever was imported first;
    a producer of a module not among them (a test's) comes after theirs."""
    rank = {m.__name__: i for i, m in enumerate(modules)}
    ordered = sorted(REGISTRY.values(), key=lambda p: rank.get(p.plan.__module__, len(rank)))  # a stable sort
    REGISTRY.clear()
    REGISTRY.update((p.name, p) for p in ordered)
