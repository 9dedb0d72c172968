"""The ``Run`` record: a piece of one PDF text span (same font and size, no wide gap inside), shared by the line
builder (``pdf_text``) and the grouping of fraction bars with their numerators (``pdf_bars``)."""

from __future__ import annotations

from dataclasses import dataclass

from kdsdesk.ingest import pdf_math
from kdsdesk.records import RectT

BAR = "\ue06d"  # HyhwpEQ fraction bar / radical overbar piece


@dataclass(slots=True)
class Run:
    """A piece of one span: same font and size, no wide gap inside. ``text`` has no leading/trailing space.

    Equation runs keep their raw ``glyphs``; their text comes from ``pdf_math.linearize`` when the line is
    assembled (``text`` is only a provisional decoding before that).
    """

    text: str
    x0: float
    y0: float
    x1: float
    y1: float
    size: float
    base: float  # baseline y
    bold: bool = False
    glyphs: list[pdf_math.Glyph] | None = None  # equation glyphs (HyhwpEQ), raw PUA
    bar: bool = False  # a fraction bar / overbar made of U+E06D glyphs
    lead: bool = False  # whitespace before the text
    trail: bool = False  # whitespace after the text
    cy: float = 0.0  # vertical centre used for line clustering

    @property
    def math(self) -> bool:
        return self.glyphs is not None

    @property
    def rect(self) -> RectT:
        return (self.x0, self.y0, self.x1, self.y1)
