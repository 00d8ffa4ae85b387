"""wizprint: print-and-play card games from one card database, and a solo engine to play them."""

from __future__ import annotations

__version__ = "0.1.0"
