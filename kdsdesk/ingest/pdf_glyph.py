"""The ``Glyph`` record: one glyph of a PDF page as the equation layout reads it (``kdsdesk.ingest.pdf_math``).

Below ``pdf_math`` and ``pdf_math_layout``, which both use it.
"""

from __future__ import annotations

from dataclasses import dataclass

from kdsdesk.ingest import eqfont

RectT = tuple[float, float, float, float]


@dataclass(frozen=True, slots=True)
class Glyph:
    """One glyph on a page: ``char`` raw (PUA) or decoded, ``bbox`` from the PDF, ``size`` the font size,
    ``font`` the font name, ``is_pua`` whether ``char`` is still a raw PUA code; ``origin`` the baseline point
    (x, y) when known (PyMuPDF ``rawdict`` gives it; without it the baseline is estimated from the bbox).

    ``shape``: the glyph's outline facts from the file's embedded font (``eqfont.GlyphShape``: ink of the rule,
    what a bracket-piece code draws); when not given it is taken from the document bound with ``eqfont.bind``
    at creation, so it travels with the glyph. ``None``: the layout's measured defaults apply."""

    char: str
    bbox: RectT
    size: float
    font: str
    is_pua: bool
    origin: tuple[float, float] | None = None
    shape: eqfont.GlyphShape | None = None

    def __post_init__(self) -> None:
        if self.shape is None and self.is_pua and len(self.char) == 1 and ord(self.char) in eqfont.SHAPED:
            shape = eqfont.active_shape(self.font, ord(self.char))
            if shape is not None:
                object.__setattr__(self, "shape", shape)
