"""Tables of HWP-exported PDFs: horizontal rules + a ``표 N.N-N`` caption → a cell grid with merged cells.

- ``find_tables`` groups the page's rules (``pdf_table_geometry``) that share an x extent into tables (a caption
  line between two rules starts a new table), takes the text lines between the first and the last rule, and finds
  the caption above (or below);
- ``build_table`` cuts those lines into cell fragments, places them in columns and rows (``pdf_table_grid``: bands
  between rules are split into rows by text lines, a body band between two body rules is one row whose lines are a
  multi-line cell; a fragment that covers several columns or sits between two rows becomes a merged cell), joins
  each cell's pieces in reading order and builds the ``Table``;
- ``unreadable`` keeps only the caption and ``UNREADABLE_MARK`` of a table whose lettering is outlines.

The table ``Block`` text is the caption line then one line per row (``Table.rows_text()``, ``table_text``), with one
``Span`` per cell fragment.
"""

from __future__ import annotations

import itertools
import re
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import TypeVar

from kdsdesk.ingest import pdf_table_grid as grid
from kdsdesk.ingest import pua
from kdsdesk.ingest.clauses import parse_heading
from kdsdesk.ingest.pdf_table_geometry import Fragment, Rule, VRule, fragments, inner_verticals, overlap
from kdsdesk.ingest.pdf_text import Line, PageStats
from kdsdesk.records import RectT, Table, TableCell

CAPTION_RE = re.compile(r"^\s*[<\[]?\s*표\s*(?P<num>[A-Z]?\d+(?:\.\d+)*\s*[-–]\s*\d+)\s*[>\]]?\s*(?P<title>.*)$")
NUMBER_ONLY_RE = re.compile(r"^\s*(?P<num>[A-Z]?\d+(?:\.\d+)+\s*[-–]\s*\d+)\s*$")  # caption drawn as outlines
# "4.1-1 인장재 접합부의 …" right above a table: a caption whose "표" is drawn as outlines (its title read by OCR)
NUMBERED_TITLE_RE = re.compile(r"^\s*(?P<num>[A-Z]?\d+(?:\.\d+)+\s*[-–]\s*\d+)\s+(?P<title>[가-힣].*)$")
_HANGUL_END = re.compile(r"[가-힣]$")
_HANGUL_START = re.compile(r"^[가-힣]")
UNREADABLE_MARK = "[표 내용 판독 불가]"  # a table's text when its lettering is outlines (``unreadable``)
LINE_GAP = 0.6  # a body line this close (× size) under another of its column continues that cell
# in the header band (no rule between its lines) lines of one column this close are one cell; an OCR'd line's box is
# its ink (≈ 0.85 × size tall), so the gap between two lines set at 1.44 × size is ≈ 0.6 × size there
HEADER_LINE_GAP = 1.0
T = TypeVar("T")


CellSpans = dict[tuple[int, int], list[tuple[int, int, RectT]]]  # (row, col) → spans into that cell's text


@dataclass(slots=True)
class PageTable:
    """A table found on a page, the lines it used, and whether its caption had no text layer; ``cells`` are the
    spans of each cell's text and ``columns`` the column intervals (a table continued on the next page is matched
    and merged with them, ``kdsdesk.ingest.pdf_table_pages``)."""

    table: Table
    text: str
    spans: list[tuple[int, int, RectT]]
    lines: list[Line] = field(default_factory=list)
    caption_unreadable: bool = False
    cells: CellSpans = field(default_factory=dict)
    columns: list[tuple[float, float]] = field(default_factory=list)

    @property
    def top(self) -> float:
        return self.table.bbox[1] if self.table.bbox else 0.0


def unreadable(pt: PageTable) -> PageTable:
    """``pt`` with its cells dropped (no row records, no values to quote) and ``UNREADABLE_MARK`` as its text
    after the caption, the mark's span covering the table; its lines stay used."""
    t = pt.table
    head = f"{t.caption}\n" if t.caption else ""
    text = head + UNREADABLE_MARK
    spans = [(len(head), len(text), t.bbox)] if t.bbox else []
    table = Table(t.number, t.caption, 0, t.n_cols, (), 0, 0, t.bbox, t.page_index)
    return PageTable(table, text, spans, pt.lines, pt.caption_unreadable, {}, pt.columns)


def caption_of(text: str) -> tuple[str, str] | None:
    m = CAPTION_RE.match(text)
    if m is None:
        return None
    return re.sub(r"\s*[-–]\s*", "-", m.group("num")), m.group("title").strip()


def _starts_something(ln: Line) -> bool:
    """A line that never sits inside a table: a table caption (also one whose "표" is drawn as outlines and read by
    OCR: "4.5-3 파형강판의 규격") or a bold clause heading."""
    text = ln.text
    return (
        caption_of(text) is not None or NUMBERED_TITLE_RE.match(text) is not None
        or (ln.bold and parse_heading(text) is not None)
    )


def _group_rules(rules: list[Rule], lines: list[Line]) -> list[list[Rule]]:
    """Runs of rules that share an x extent, with no caption and no text beside them (wholly left or right) in
    between. Between two rules that both stop short of the table's left edge (drawn under the right-hand columns
    only, beside a cell merged down the first column) text on the left belongs to that cell."""
    groups: list[list[Rule]] = []
    for r in rules:
        g = groups[-1] if groups else None
        if g is not None:
            prev = g[-1]
            w = min(r.x1 - r.x0, prev.x1 - prev.x0)
            gx0, gx1 = min(x.x0 for x in g), max(x.x1 for x in g)
            # a rule under the right-hand columns only (beside a cell merged down the first column): text on its
            # left inside the table's extent is that cell, not text beside the table
            # (a first column can be narrower than 5 % of the table: a label written downwards, 자유돌출판)
            short = r.x0 > gx0 + min(0.05 * (gx1 - gx0), 10.0) and r.x1 >= gx1 - 0.05 * (gx1 - gx0)
            left = gx0 - 3 if short else r.x0 - 3
            between = [ln for ln in lines if prev.y < (ln.y0 + ln.y1) / 2 < r.y]
            if (
                overlap(r.x0, r.x1, prev.x0, prev.x1) >= 0.6 * w
                and r.y - prev.y <= 320
                and not any(_starts_something(ln) for ln in between)
                and not any(ln.x1 < left or ln.x0 > r.x1 + 3 for ln in between)
            ):
                g.append(r)
                continue
        groups.append([r])
    return [g for g in groups if len(g) >= 2]


def _cell_join(a: str, b: str) -> str:
    """Lines of a cell filled to its width: a Korean word wrapped inside joins without a space."""
    return "" if _HANGUL_END.search(a) and _HANGUL_START.match(b) else " "


def _merge(a: Fragment, b: Fragment, join: Callable[[str, str], str]) -> None:
    a.start = a.first
    sep = join(a.text, b.text)
    off = len(a.text) + len(sep)
    a.spans.extend((s + off, e + off, rect) for s, e, rect in b.spans)
    a.text = a.text + sep + b.text
    a.x0, a.y0, a.x1, a.y1 = min(a.x0, b.x0), min(a.y0, b.y0), max(a.x1, b.x1), max(a.y1, b.y1)


def build_table(
    number: str,
    caption: str,
    rules: list[Rule],
    lines: list[Line],
    page_index: int,
    join: Callable[[str, str], str],
    pstats: pua.PuaStats,
    stats: PageStats,
    vrules: Sequence[VRule] = (),
) -> tuple[Table, str, list[tuple[int, int, RectT]], CellSpans, list[tuple[float, float]]]:
    """The grid of one table from its rules and the text lines between the first and the last rule; its text and
    spans, each cell's spans and the column intervals. ``vrules``: the page's vertical rules; those inside the
    table set its column boundaries (``grid.ruled_columns``)."""
    x0, x1 = min(r.x0 for r in rules), max(r.x1 for r in rules)
    ys = [r.y for r in rules]
    inner = inner_verticals(vrules, x0, x1, min(ys), max(ys))
    band_frags: list[list[Fragment]] = [[] for _ in range(len(ys) - 1)]
    for li, ln in enumerate(lines):
        for f in fragments(ln, pstats, stats):
            f.line = li
            k = max(0, min(len(ys) - 2, sum(1 for y in ys if y < f.cy) - 1))
            band_frags[k].append(f)
    band_frags = [b for b in band_frags if b] or [[]]
    head_band = 1 if len(band_frags) >= 2 else 0
    body = [f for b in band_frags[head_band:] for f in b]
    if inner:
        bounds = grid.ruled_columns([f for b in band_frags for f in b], x0, x1, [v.x for v in inner])
    else:
        bounds = grid.columns(body or [f for b in band_frags for f in b], x0, x1)
    ruled_rows = len(band_frags) - head_band >= 2
    rows: list[float] = []
    placed: list[Fragment] = []
    band_of_row: list[int] = []
    for bi, frags in enumerate(band_frags):
        for f in frags:
            f.cols = grid.assign_cols(f, bounds)
        if inner:
            frags = [part for f in frags for part in grid.split_ruled(f, bounds, inner)]
        else:
            frags = [part for f in frags for part in grid.split_fragment(f, bounds)]
        one_row = ruled_rows and bi >= head_band
        widest: dict[tuple[int, int], float] = {}
        for f in frags:
            widest[f.cols] = max(widest.get(f.cols, 0.0), f.x1 - f.x0)
        merged: list[Fragment] = []
        wrapped = grid.wrapped(frags)
        stacked = grid.stacked(frags, bounds) if bi >= head_band and not one_row else set()
        gap = HEADER_LINE_GAP if bi < head_band else LINE_GAP
        for f in sorted(frags, key=lambda f: (f.y0, f.x0)):
            prev = next(
                (m for m in reversed(merged)
                 if m.cols == f.cols and f.cy > m.y1 - 0.3 * f.size and (one_row or f.y0 - m.y1 < gap * f.size)),
                None,
            )
            if prev is not None and bi < head_band and grid.sub_header(f, prev, frags):
                prev = None
            # in the header band (no rule between its lines) a line right under another in the same columns is
            # that cell's next line ("세장판이 없는 경우" / "(비세장판 단면)"): only body lines can start a row
            if (
                prev is not None and not one_row and bi >= head_band
                and (id(f) in stacked or grid.starts_row(f, prev, frags, wrapped))
            ):
                prev = None
            if prev is not None:
                full = prev.x1 - prev.x0 >= 0.85 * widest[prev.cols] and len(frags) > 1
                _merge(prev, f, _cell_join if full else join)
            else:
                merged.append(f)
        centres = grid.band_rows(merged, one_row)
        pitch = min((b - a for a, b in itertools.pairwise(centres)), default=1e9)
        base = len(rows)
        rows.extend(centres)
        band_of_row.extend([bi] * len(centres))
        for f in merged:
            reach = 0.5 * pitch + 0.5 * max(0.0, (f.y1 - f.y0) - 1.3 * f.size) + 0.15 * f.size
            hit = [i for i, c in enumerate(centres) if abs(c - f.cy) <= reach]
            if not hit:
                hit = [min(range(len(centres)), key=lambda i: abs(centres[i] - f.cy))] if centres else [0]
            f.rows = (base + hit[0], base + hit[-1])
            placed.append(f)
    n_rows, n_cols = max(1, len(rows)), max(1, len(bounds))
    header_rows = sum(1 for b in band_of_row if b < head_band) if head_band else min(1, n_rows)
    for lo, hi in ((0, header_rows), (header_rows, len(rows))):
        part = rows[lo:hi]
        pitch = statistics.median([b - a for a, b in itertools.pairwise(part)] or [1e9])
        grid.extend_spans([f for f in placed if lo <= f.rows[0] < hi], part, lo, pitch)
    grid.join_unruled(placed, rules, bounds)
    grid.expand_header(placed, header_rows, n_cols)
    cells = [(replace(c, text=""), f) if _figure_letters(f) else (c, f) for c, f in _cells(
        placed, n_rows, n_cols, header_rows, join
    )]
    bbox: RectT = (x0, min(ys), x1, max(ys))
    table = Table(number, caption, n_rows, n_cols, tuple(c for c, _ in cells), header_rows, 0, bbox, page_index)
    cell_spans = {(c.row, c.col): list(f.spans) for c, f in cells if c.text}
    text, spans = table_text(table, cell_spans)
    return table, text, spans, cell_spans, bounds


_LETTER = re.compile(r"[A-Za-z](?:_[A-Za-z0-9]{1,2})?")


def _figure_letters(f: Fragment) -> bool:
    """A cell holding only the letters of a drawing (a section's ``b``, ``t``, ``h``, ``t_w`` labels, the ``H``
    and ``B`` of a figure): two or more single letters, spread over the cell (on different lines or far apart
    on one). Their text says nothing (the hand-checked tables leave such cells out); the cell is kept, empty."""
    tokens = f.text.split()
    if len(tokens) < 2 or not all(_LETTER.fullmatch(t) for t in tokens):
        return False
    rects = sorted((r for _, _, r in f.spans), key=lambda r: r[0])
    if len(rects) < 2:
        return False
    centres = [(r[1] + r[3]) / 2 for r in rects]
    if max(centres) - min(centres) > 0.8 * f.size:
        return True
    return any(b[0] - a[2] > 1.5 * f.size for a, b in itertools.pairwise(rects))


def _reading_order(pieces: list[Fragment]) -> list[Fragment]:
    """The pieces of one cell in reading order: by the line each began on (centres within 0.35 × size are one
    line), left to right on it. A piece's first line, not its extent: a cell's justified first line parted at a
    wide word space ("양측면에  거셋플레이" / "트가 있는 경우") is two pieces, the right one continued by the lines
    below, whose left edge then lies left of the first piece's."""
    lines: list[list[Fragment]] = []
    for f in sorted(pieces, key=lambda f: f.first[0]):
        if lines and f.first[0] - lines[-1][0].first[0] <= 0.35 * f.size:
            lines[-1].append(f)
        else:
            lines.append([f])
    return [f for ln in lines for f in sorted(ln, key=lambda f: f.first[1])]


def _cells(
    frags: list[Fragment], n_rows: int, n_cols: int, header_rows: int, join: Callable[[str, str], str]
) -> list[tuple[TableCell, Fragment]]:
    groups: dict[tuple[int, int], list[Fragment]] = {}
    for f in frags:
        groups.setdefault((f.rows[0], f.cols[0]), []).append(f)
    by_origin: dict[tuple[int, int], Fragment] = {}
    for key, group in groups.items():
        first, *rest = _reading_order(group)
        for f in rest:
            _merge(first, f, join)
        by_origin[key] = first
    taken = set(by_origin)
    out: list[tuple[TableCell, Fragment]] = []
    for (r, c), f in sorted(by_origin.items()):
        r1, c1 = f.rows[1], f.cols[1]
        while c1 > c and any((rr, cc) in taken for rr in range(r, r1 + 1) for cc in range(c + 1, c1 + 1)):
            c1 -= 1
        while r1 > r and any((rr, cc) in taken for rr in range(r + 1, r1 + 1) for cc in range(c, c1 + 1)):
            r1 -= 1
        cell = TableCell(r, c, f.text, r1 - r + 1, c1 - c + 1, r < header_rows)
        out.append((cell, f))
    return out


def table_text(
    table: Table, cells: dict[tuple[int, int], list[tuple[int, int, T]]]
) -> tuple[str, list[tuple[int, int, T]]]:
    """``caption`` + one line per row exactly as ``Table.rows_text()``, with each cell's spans (``cells``: spans
    into the cell's own text, by the cell's top-left position) moved into that text."""
    parts: list[str] = []
    spans: list[tuple[int, int, T]] = []
    n = 0
    if table.caption:
        parts.append(table.caption)
        n = len(table.caption)
    for r, row in enumerate(table.origin_grid()):
        if parts:
            parts.append("\n")
            n += 1
        first = True
        for c, t in enumerate(row):
            if t is None:
                continue
            if not first:
                parts.append(" | ")
                n += 3
            first = False
            if t:
                spans.extend((n + s, n + e, where) for s, e, where in cells.get((r, c), ()))
            parts.append(t)
            n += len(t)
    text = "".join(parts)
    assert text == "\n".join(([table.caption] if table.caption else []) + table.rows_text())
    return text, spans


def find_tables(
    rules: list[Rule],
    lines: list[Line],
    page_index: int,
    join: Callable[[str, str], str],
    pstats: pua.PuaStats,
    stats: PageStats,
    vrules: Sequence[VRule] = (),
) -> list[PageTable]:
    """Tables of one page; each takes its caption line and the lines between its first and last rule; ``vrules``
    (the page's vertical rules, where it draws them) set the columns of the tables they stand in."""
    out: list[PageTable] = []
    for group in _group_rules(rules, lines):
        top, bottom = group[0].y, group[-1].y
        x0, x1 = min(r.x0 for r in group), max(r.x1 for r in group)
        inside = [ln for ln in lines if top < (ln.y0 + ln.y1) / 2 < bottom and ln.x0 >= x0 - 5 and ln.x1 <= x1 + 5]
        if not inside:
            continue
        size = statistics.median(ln.size for ln in inside)
        above = [ln for ln in lines if ln.y1 <= top + 1 and top - ln.y1 <= 3.5 * size]
        below = [ln for ln in lines if ln.y0 >= bottom - 1 and ln.y0 - bottom <= 2.0 * size]
        cap_line: Line | None = None
        number = caption = ""
        unreadable = False
        for ln in sorted(above, key=lambda ln: -ln.y1) + below:
            parsed = caption_of(ln.text)
            if parsed is not None:
                number, title = parsed
                caption = f"표 {number} {title}".strip()
                cap_line = ln
                break
            m = NUMBER_ONLY_RE.match(ln.text)
            if m is not None and ln in above:
                number = re.sub(r"\s*[-–]\s*", "-", m.group("num"))
                caption, cap_line, unreadable = f"표 {number}", ln, True
                break
            m = NUMBERED_TITLE_RE.match(ln.text)
            if m is not None and ln in above:
                number = re.sub(r"\s*[-–]\s*", "-", m.group("num"))
                caption, cap_line = f"표 {number} {m.group('title').strip()}", ln
                break
        table, text, spans, cells, columns = build_table(
            number, caption, group, inside, page_index, join, pstats, stats, vrules
        )
        used = inside + ([cap_line] if cap_line is not None else [])
        out.append(PageTable(table, text, spans, used, unreadable, cells, columns))
    return out
