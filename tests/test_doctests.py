"""The examples in the package's docstrings: every one runs, module by module, and shows what the code does."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import wizprint

# every module of the package, by its name as installed (``python -m wizprint`` runs the command line on import)
MODULES = ["wizprint", *sorted(m.name for m in pkgutil.walk_packages(wizprint.__path__, "wizprint.")
                               if not m.name.endswith(".__main__"))]


def _examples(name: str) -> list[doctest.DocTest]:
    """The docstrings with examples of the module ``name`` (not those of what it imports)."""
    module = importlib.import_module(name)
    return [t for t in doctest.DocTestFinder().find(module, name) if t.examples]


@pytest.mark.parametrize("name", MODULES)
def test_the_examples_of_a_module_show_what_it_does(name: str) -> None:
    runner = doctest.DocTestRunner()
    report: list[str] = []
    for test in _examples(name):
        runner.run(test, out=report.append)
    assert runner.failures == 0, "".join(report)


def test_the_examples_are_found() -> None:
    """The modules known to hold examples are among those the test runs (a finder that finds none would pass)."""
    found = {name for name in MODULES if _examples(name)}
    assert {"wizprint.errors", "wizprint.atomic", "wizprint.termtext", "wizprint.cards.markup",
            "wizprint.generator.artcheck", "wizprint.solo.kernel.values", "wizprint.solo.play"} <= found
