"""A kind of output added for one test, as a module of its own would add it: a producer registered by name."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from wizprint.generator.drawing import Drawn
from wizprint.generator.producing import REGISTRY, BuildOptions, Job, Made, Plan, Producer, made


def add_producer(monkeypatch: pytest.MonkeyPatch, name: str, files: tuple[str, ...],
                 make: Callable[[], list[Made]] | None = None, *, here: bool = False) -> None:
    """Register the producer ``name`` (after the built-in ones) for the test: one job that makes ``files`` (each
    holding its own name, unless ``make`` makes them)."""

    def plan(drawn: Drawn, opts: BuildOptions) -> Plan:
        job = make or (lambda: [made(f, name, f) for f in files])
        return Plan([Job(files, job, cost=1.0, here=here)])

    monkeypatch.setitem(REGISTRY, name, Producer(name, f"{name}: files for a test", plan))
