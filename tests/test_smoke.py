"""The shipped games load and their counts match the rulebooks."""

from wizprint.cards.loader import load_game


def test_wizard_cards_counts() -> None:
    g = load_game("wizard-cards")
    assert g.physical_count("spells") == 54
    assert g.physical_count("reference") == 2


def test_covenant_counts() -> None:
    g = load_game("covenant")
    assert g.physical_count() == 91
    assert sum(c.copies for c in g.cards() if c.name == "Wizards Duel") == 5


def test_every_python_package_of_the_tree_is_declared_for_the_install() -> None:
    """A package missing from pyproject's list installs without it (the editable install hides this: CI's does not)."""
    import tomllib
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    conf = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    declared = set(conf["packages"])
    found = set()
    for name, folder in conf["package-dir"].items():
        for init in (root / folder).rglob("__init__.py"):
            rel = init.parent.relative_to(root / folder)
            found.add(".".join((name, *rel.parts)))
    missing = sorted(found - declared)
    assert not missing, f"packages not listed in pyproject.toml [tool.setuptools] packages: {missing}"
