"""Units: layouts are written in millimetres; PDF works in points."""

from __future__ import annotations

MM = 72.0 / 25.4  # points per millimetre
PT = 25.4 / 72.0  # millimetres per point


def mm(v: float) -> float:
    """Millimetres to points."""
    return v * MM


def pt_to_mm(v: float) -> float:
    return v * PT
