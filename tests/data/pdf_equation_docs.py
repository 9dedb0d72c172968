"""PDF pages of equations laid out as KCSC tables print them: rows of radicals over fractions packed a line apart,
a tall fraction between rows, a radical in a denominator, tall brackets around a radical (``pdf_builder`` glyphs)."""

from __future__ import annotations

from pathlib import Path

from kdsdesk.ingest import pua
from tests.data import pdf_builder as pb
from tests.data.pdf_builder import Draw

BAR = chr(pua.FRACTION_BAR)


def rule(x0: float, x1: float, rule_y: float, size: float) -> Draw:
    """A U+E06D rule from ``x0`` to ``x1`` whose ink lies at ``rule_y``."""
    return Draw(BAR, x0, rule_y + 0.615 * size, size, stretch=(x1 - x0) / (0.512 * size))


def fraction(num: str, den: str, x: float, y: float, size: float = 8.0, sub: str = "") -> tuple[list[Draw], float]:
    """``num`` over ``den`` (``den`` with an optional subscript) on baseline ``y``; returns the draws and the end x."""
    width = max(pb._advance(pb.encode(num), size), pb._advance(pb.encode(den), size) + (0.35 * size if sub else 0))
    width += 0.2 * size
    bar_y = y - pb.AXIS * size
    draws = [rule(x, x + width, bar_y, size), *pb.eq_text(num, x + 0.1 * size, bar_y - 0.31 * size, size)[0]]
    d, end = pb.eq_text(den, x + 0.1 * size, bar_y + 0.96 * size, size)
    draws += d
    if sub:
        draws += pb.eq_text(sub, end, bar_y + 1.19 * size, pb.SCRIPT * size)[0]
    return draws, x + width


def radical_of_fraction(
    coef: str, num: str, den: str, x: float, y: float, size: float = 8.0, sub: str = "y"
) -> tuple[list[Draw], float]:
    """``coef√(num/den_sub)`` as 한글 prints it: a √ stretched over the whole fraction, its vinculum above the
    numerator (``0.38√(E/F_y)``)."""
    draws, x = pb.eq_text(coef, x, y, size)
    draws.append(Draw(pb.encode("√"), x, y + 0.38 * size, 2.4 * size))
    x += 0.96 * size
    frac, end = fraction(num, den, x + 0.05 * size, y, size, sub)
    return [*draws, rule(x, end, y - 1.5 * size, size), *frac], end


def radical(content: str, x: float, y: float, size: float = 8.0) -> tuple[list[Draw], float]:
    """``√content`` with its vinculum over a one-storey radicand."""
    return pb.radical(content, x, y, size)


def write(path: Path, draws: list[Draw]) -> Path:
    return pb.write_pdf(path, [draws])
