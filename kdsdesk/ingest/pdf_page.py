"""The ``PageData`` record: what the PDF parser read from one page (text lines, horizontal and vertical rules,
equation glyph boxes, image share) before layout. Below ``pdf_layout`` and ``pdf_outlines``, which both read it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from kdsdesk.ingest.pdf_table_geometry import Rule, VRule
from kdsdesk.ingest.pdf_text import Line
from kdsdesk.records import RectT


@dataclass(slots=True)
class PageData:
    index: int
    width: float
    height: float
    lines: list[Line]
    rules: list[Rule]
    glyph_boxes: list[RectT]
    image_share: float
    vrules: list[VRule] = field(default_factory=list)  # vertical rules, where the PDF draws them
