"""What a PDF table is built from: the rules a page draws and the cell fragments of its text lines.

- ``horizontal_rules`` reads the horizontal rules 한글 draws KDS tables with (lines or thin filled rectangles, no
  vertical lines) from vector-path boxes (``("fill-path"|"stroke-path", bbox)``, as PyMuPDF's ``get_bboxlog()`` or
  the text page's vector blocks give them) and joins collinear pieces;
- ``vertical_rules`` reads the hairline vertical strokes some PDFs also draw (the KCSC PDFs do, 한글's own export
  does not); ``inner_verticals`` picks those standing inside one table;
- ``fragments`` cuts a text line into ``Fragment``s, one per cell piece (runs further apart than ``FRAGMENT_GAP`` ×
  size are different cells).

Placing fragments in columns and rows is ``pdf_table_grid``; finding and building tables is ``pdf_tables``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from kdsdesk.ingest import pua
from kdsdesk.ingest.pdf_text import Line, PageStats, Run, assemble
from kdsdesk.records import RectT

MIN_RULE_W = 25.0
MAX_VRULE_W = 1.5
MIN_VRULE_H = 10.0
FRAGMENT_GAP = 0.8  # runs further apart than this × size are different cells


@dataclass(slots=True)
class Rule:
    x0: float
    x1: float
    y: float


@dataclass(slots=True)
class VRule:
    x: float
    y0: float
    y1: float


@dataclass(slots=True)
class Fragment:
    """Text of one cell piece on one line (several lines once continuation lines are merged)."""

    text: str
    spans: list[tuple[int, int, RectT]]
    x0: float
    y0: float
    x1: float
    y1: float
    size: float
    cols: tuple[int, int] = (0, 0)  # first, last column
    rows: tuple[int, int] = (0, 0)
    line: int = 0  # the text line it came from
    start: tuple[float, float] | None = None  # centre y and left x of its first piece, once others joined it

    @property
    def cy(self) -> float:
        return (self.y0 + self.y1) / 2

    @property
    def first(self) -> tuple[float, float]:
        """Centre y and left x of the piece it began as (its first line's, not the union of its lines')."""
        return self.start if self.start is not None else (self.cy, self.x0)


def horizontal_rules(bboxlog: Sequence[tuple[str, RectT]], page_w: float) -> list[Rule]:
    """Horizontal rules (thin stroked or filled paths at least ``MIN_RULE_W`` wide), collinear pieces joined."""
    raw: list[Rule] = []
    for kind, (x0, y0, x1, y1) in bboxlog:
        if "path" not in kind:
            continue
        if y1 - y0 <= 2.5 and x1 - x0 >= MIN_RULE_W and x1 - x0 <= page_w:
            raw.append(Rule(x0, x1, (y0 + y1) / 2))
    raw.sort(key=lambda r: (round(r.y), r.x0))
    out: list[Rule] = []
    for r in raw:
        for o in reversed(out[-6:]):
            if abs(o.y - r.y) <= 1.5 and r.x0 <= o.x1 + 4 and r.x1 >= o.x0 - 4:
                o.x0, o.x1 = min(o.x0, r.x0), max(o.x1, r.x1)
                break
        else:
            out.append(Rule(r.x0, r.x1, r.y))
    out.sort(key=lambda r: r.y)
    return out


def vertical_rules(bboxlog: Sequence[tuple[str, RectT]]) -> list[VRule]:
    """Vertical rules: stroked paths at most ``MAX_VRULE_W`` wide and at least ``MIN_VRULE_H`` tall (outline glyphs
    and the watermark are filled shapes, wider than a hairline)."""
    out: list[VRule] = []
    for kind, (x0, y0, x1, y1) in bboxlog:
        if kind == "stroke-path" and x1 - x0 <= MAX_VRULE_W and y1 - y0 >= MIN_VRULE_H:
            out.append(VRule((x0 + x1) / 2, y0, y1))
    return out


def inner_verticals(vrules: Sequence[VRule], x0: float, x1: float, top: float, bottom: float) -> list[VRule]:
    """The vertical rules standing inside the table (off its edges, at least half of each rule between its top
    and bottom rules), left to right."""
    return sorted(
        (v for v in vrules
         if x0 + 2.0 < v.x < x1 - 2.0 and overlap(v.y0, v.y1, top, bottom) >= 0.5 * (v.y1 - v.y0)),
        key=lambda v: v.x,
    )


def overlap(a0: float, a1: float, b0: float, b1: float) -> float:
    return min(a1, b1) - max(a0, b0)


def fragments(line: Line, pstats: pua.PuaStats, stats: PageStats) -> list[Fragment]:
    out: list[Fragment] = []
    cur: list[Run] = []
    for r in line.runs:
        if cur and r.x0 - max(x.x1 for x in cur) > FRAGMENT_GAP * max(r.size, cur[-1].size):
            out.append(_fragment(cur, pstats, stats))
            cur = []
        cur.append(r)
    if cur:
        out.append(_fragment(cur, pstats, stats))
    return [f for f in out if f.text]


def _fragment(runs: list[Run], pstats: pua.PuaStats, stats: PageStats) -> Fragment:
    text, spans, _trail, _bad = assemble(runs, pstats, stats)
    return Fragment(text, spans, min(r.x0 for r in runs), min(r.y0 for r in runs), max(r.x1 for r in runs),
                    max(r.y1 for r in runs), max(r.size for r in runs))
