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
