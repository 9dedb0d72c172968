"""Tables of HWP-exported PDFs: horizontal rules + a ``표 N.N-N`` caption → a cell grid with merged cells.

한글 draws KDS tables with horizontal rules only (lines or thin filled rectangles, no vertical lines). Here:

- ``horizontal_rules`` reads them from vector-path boxes (``("fill-path"|"stroke-path", bbox)``, as PyMuPDF's
  ``get_bboxlog()`` or the text page's vector blocks give them) and joins collinear pieces;
- ``find_tables`` groups rules that share an x extent into tables (a caption line between two rules starts a new
  table), takes the text lines between the first and the last rule, and finds the caption above (or below);
- bands between rules are split into rows by text lines (a body band between two body rules is one row, its
  lines are a multi-line cell); columns come from the x gaps of the body rows' cell fragments; a fragment that
  covers several columns or sits between two rows becomes a merged cell;
- where the PDF also draws vertical rules (``vertical_rules``; the KCSC PDFs do, 한글's own export does not), they
  are the column boundaries, not the gaps between fragments: the letters of a section drawing in a cell (t, b, h)
  stay one cell however far apart they are, and a cell is split only where a rule crosses it.

The table ``Block`` text is the caption line then one line per row (``Table.rows_text()``), with one ``Span``
per cell fragment.
"""

from __future__ import annotations

import itertools
import re
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import TypeVar

from kdsdesk.ingest import pua
from kdsdesk.ingest.clauses import parse_heading
from kdsdesk.ingest.pdf_text import Line, PageStats, Run, assemble
from kdsdesk.records import RectT, Table, TableCell

CAPTION_RE = re.compile(r"^\s*[<\[]?\s*표\s*(?P<num>[A-Z]?\d+(?:\.\d+)*\s*[-–]\s*\d+)\s*[>\]]?\s*(?P<title>.*)$")
NUMBER_ONLY_RE = re.compile(r"^\s*(?P<num>[A-Z]?\d+(?:\.\d+)+\s*[-–]\s*\d+)\s*$")  # caption drawn as outlines
# "4.1-1 인장재 접합부의 …" right above a table: a caption whose "표" is drawn as outlines (its title read by OCR)
NUMBERED_TITLE_RE = re.compile(r"^\s*(?P<num>[A-Z]?\d+(?:\.\d+)+\s*[-–]\s*\d+)\s+(?P<title>[가-힣].*)$")
MIN_RULE_W = 25.0
MAX_VRULE_W = 1.5
MIN_VRULE_H = 10.0
_HANGUL_END = re.compile(r"[가-힣]$")
_HANGUL_START = re.compile(r"^[가-힣]")
UNREADABLE_MARK = "[표 내용 판독 불가]"  # a table's text when its lettering is outlines (``unreadable``)
STACK_FILL = 0.7  # an upper cell this wide (share of its column) wraps: no stacked pair of rows
STACK_SHORT = 0.5  # a lower cell this much shorter than the one above it is the end of a wrapped cell
FRAGMENT_GAP = 0.8  # runs further apart than this × size are different cells
LINE_GAP = 0.6  # a body line this close (× size) under another of its column continues that cell
# in the header band (no rule between its lines) lines of one column this close are one cell; an OCR'd line's box is
# its ink (≈ 0.85 × size tall), so the gap between two lines set at 1.44 × size is ≈ 0.6 × size there
HEADER_LINE_GAP = 1.0
SUB_OFF = 1.0  # sub-headers stand this × size and more left and right of the centre of the header above them
BOUNDARY_GAP = 0.5  # ... and runs this far apart with a column boundary between them (word spaces are ≈ 0.3)
T = TypeVar("T")


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


def caption_of(text: str) -> tuple[str, str] | None:
    m = CAPTION_RE.match(text)
    if m is None:
        return None
    return re.sub(r"\s*[-–]\s*", "-", m.group("num")), m.group("title").strip()


def _overlap(a0: float, a1: float, b0: float, b1: float) -> float:
    return min(a1, b1) - max(a0, b0)


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
                _overlap(r.x0, r.x1, prev.x0, prev.x1) >= 0.6 * w
                and r.y - prev.y <= 320
                and not any(_starts_something(ln) for ln in between)
                and not any(ln.x1 < left or ln.x0 > r.x1 + 3 for ln in between)
            ):
                g.append(r)
                continue
        groups.append([r])
    return [g for g in groups if len(g) >= 2]


def _fragments(line: Line, pstats: pua.PuaStats, stats: PageStats) -> list[Fragment]:
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


def _starts_row(f: Fragment, above: Fragment, frags: list[Fragment], wrapped: set[int]) -> bool:
    """``f`` lines up with a cell of another column that lies wholly below ``above`` and does not itself continue
    a line right above it: ``f`` starts a new row rather than continuing ``above``."""
    return any(
        g.cols != f.cols and abs(g.cy - f.cy) <= 0.35 * f.size and g.y0 >= above.y1 - 0.5 and id(g) not in wrapped
        for g in frags
    )


def _sub_header(f: Fragment, above: Fragment, frags: list[Fragment]) -> bool:
    """In the header band: ``f`` is one of a row of sub-headers under ``above``, not its next line — ``f`` and the
    fragments on its baseline with nothing above them in the band straddle ``above``'s centre ("F8T F10T F13T"
    under "설계볼트장력 T_o(kN)", "상대처짐 절대처짐" under "처짐 한계"). Otherwise the band has no rule between
    them and they are one cell: the lines of a multi-line header cell, centred on one another ("세장판이 없는 경우"
    / "(비세장판 단면)", with "단면" of the next column on that baseline), or the two halves of a diagonally split
    corner cell."""
    row = [f] + [
        g for g in frags
        if g is not f and abs(g.y1 - f.y1) <= 0.15 * f.size
        and not any(h.y1 <= g.y0 and _overlap(h.x0, h.x1, g.x0, g.x1) > 0.3 * (g.x1 - g.x0) for h in frags)
    ]
    offs = [(g.x0 + g.x1 - above.x0 - above.x1) / 2 for g in row]
    return min(offs) < -SUB_OFF * f.size and max(offs) > SUB_OFF * f.size


def _wrapped(frags: list[Fragment]) -> set[int]:
    """Fragments that continue a line right above them in their own column (before any merging)."""
    return {
        id(g) for g in frags if any(h.cols == g.cols and 0 <= g.y0 - h.y1 < 0.6 * g.size for h in frags if h is not g)
    }


def _text_rows(frags: list[Fragment]) -> list[list[Fragment]]:
    """Fragments on one text line (centres within 0.35 × size of the line's first), top to bottom."""
    out: list[list[Fragment]] = []
    for f in sorted(frags, key=lambda f: f.cy):
        if out and f.cy - out[-1][0].cy <= 0.35 * f.size:
            out[-1].append(f)
        else:
            out.append([f])
    return out


def _stacked(frags: list[Fragment], bounds: list[tuple[float, float]]) -> set[int]:
    """Fragments that start a row of their own although no rule is above them: on a text line right below
    another where EVERY column has exactly one single-column fragment on both lines, each line on one baseline
    (a stacked pair of rows, e.g. ``F_y``/``F_u`` beside ``640``/``800``). When only some columns have a second
    line those lines are wrapped cells of one row; so are they when a cell of the upper line fills its column
    (``STACK_FILL``) or a lower one is much shorter than the one above it (``STACK_SHORT``): text wrapped in
    every column."""
    out: set[int] = set()
    if len(bounds) < 2:
        return out
    full = list(range(len(bounds)))
    for a, b in itertools.pairwise(_text_rows(frags)):
        size = max(f.size for f in a + b)
        if b[0].cy - a[0].cy > 2.2 * size or min(f.y0 for f in b) - max(f.y1 for f in a) > 0.6 * size:
            continue
        if any(sorted(f.cols[0] for f in row) != full or any(f.cols[0] != f.cols[1] for f in row) for row in (a, b)):
            continue
        if any(max(f.y1 for f in row) - min(f.y1 for f in row) > 0.3 * size for row in (a, b)):
            continue
        upper = {f.cols[0]: f.x1 - f.x0 for f in a}
        lo_hi = [bounds[f.cols[0]] for f in a]
        if any(w >= STACK_FILL * (hi - lo) for w, (lo, hi) in zip(upper.values(), lo_hi, strict=True)):
            continue
        if any(f.x1 - f.x0 < STACK_SHORT * upper[f.cols[0]] for f in b):
            continue
        out.update(id(f) for f in b)
    return out


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


def _union(frags: list[Fragment]) -> list[list[float]]:
    cols: list[list[float]] = []
    for a, b in sorted((f.x0, f.x1) for f in frags):
        if cols and a <= cols[-1][1] + 1.0:
            cols[-1][1] = max(cols[-1][1], b)
        else:
            cols.append([a, b])
    return cols


def _columns(frags: list[Fragment], x0: float, x1: float) -> list[tuple[float, float]]:
    """Column intervals from the x gaps between fragments, split at the midpoints of the gaps. A fragment on a
    line with fewer cells than the fullest lines may be a cell merged across columns: when leaving such
    fragments out reveals more gaps, those gaps are columns."""
    if not frags:
        return [(x0, x1)]
    per_line: dict[int, int] = {}
    for f in frags:
        per_line[f.line] = per_line.get(f.line, 0) + 1
    full = max(per_line.values())
    cols = _union(frags)
    sure = [f for f in frags if per_line[f.line] == full]
    alt = _union(sure)
    if len(alt) > len(cols):
        cols = alt
    bounds: list[tuple[float, float]] = []
    for i, (a, b) in enumerate(cols):
        lo = x0 if i == 0 else (cols[i - 1][1] + a) / 2
        hi = x1 if i == len(cols) - 1 else (b + cols[i + 1][0]) / 2
        bounds.append((lo, hi))
    return bounds


def _ruled_columns(frags: list[Fragment], x0: float, x1: float, vxs: list[float]) -> list[tuple[float, float]]:
    """Column intervals of a table with vertical rules: between its rules (``vxs``, sorted; strokes drawn twice
    are one), whatever the gaps of the text in them; an interval with no text (a stroke of a drawing) joins the
    column on its left."""
    xs: list[float] = []
    for v in vxs:
        if not xs or v - xs[-1] > 2.0:
            xs.append(v)
    centres = [(r[0] + r[2]) / 2 for f in frags for _, _, r in f.spans] or [(f.x0 + f.x1) / 2 for f in frags]
    edges = [x0]
    for a, b in itertools.pairwise([*xs, x1]):
        if any(edges[-1] <= c < a for c in centres) and any(a <= c <= b for c in centres):
            edges.append(a)
    edges.append(x1)
    return list(itertools.pairwise(edges))


def _assign_cols(f: Fragment, bounds: list[tuple[float, float]]) -> tuple[int, int]:
    hit = [
        i for i, (lo, hi) in enumerate(bounds)
        if (ov := _overlap(f.x0, f.x1, lo, hi)) >= 2 * f.size or ov >= 0.5 * (f.x1 - f.x0) or ov >= 0.5 * (hi - lo)
    ]
    if not hit:
        cx = (f.x0 + f.x1) / 2
        best = min(range(len(bounds)), key=lambda i: abs((bounds[i][0] + bounds[i][1]) / 2 - cx))
        return best, best
    return hit[0], hit[-1]


def _band_rows(frags: list[Fragment], one_row: bool) -> list[float]:
    """Row centres of one band (fragments already merged per cell line)."""
    if not frags:
        return []
    if one_row:
        return [statistics.fmean(f.cy for f in frags)]
    size = statistics.median(f.size for f in frags)
    clusters: list[list[Fragment]] = []
    for f in sorted(frags, key=lambda f: f.cy):
        if clusters and f.cy - statistics.fmean(x.cy for x in clusters[-1]) <= 0.35 * size:
            clusters[-1].append(f)
        else:
            clusters.append([f])
    centres = [statistics.fmean(x.cy for x in c) for c in clusters]
    keep = []
    for i, c in enumerate(clusters):
        if 0 < i < len(clusters) - 1:
            above = any(_overlap(f.y0, f.y1, g.y0, g.y1) > 0.3 for f in c for g in clusters[i - 1])
            below = any(_overlap(f.y0, f.y1, g.y0, g.y1) > 0.3 for f in c for g in clusters[i + 1])
            if above and below:
                continue  # a cell centred between two rows: it spans them
        keep.append(centres[i])
    return keep


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
    table set its column boundaries (``_columns``)."""
    x0, x1 = min(r.x0 for r in rules), max(r.x1 for r in rules)
    ys = [r.y for r in rules]
    inner = _inner_verticals(vrules, x0, x1, min(ys), max(ys))
    band_frags: list[list[Fragment]] = [[] for _ in range(len(ys) - 1)]
    for li, ln in enumerate(lines):
        for f in _fragments(ln, pstats, stats):
            f.line = li
            k = max(0, min(len(ys) - 2, sum(1 for y in ys if y < f.cy) - 1))
            band_frags[k].append(f)
    band_frags = [b for b in band_frags if b] or [[]]
    head_band = 1 if len(band_frags) >= 2 else 0
    body = [f for b in band_frags[head_band:] for f in b]
    if inner:
        bounds = _ruled_columns([f for b in band_frags for f in b], x0, x1, [v.x for v in inner])
    else:
        bounds = _columns(body or [f for b in band_frags for f in b], x0, x1)
    ruled_rows = len(band_frags) - head_band >= 2
    rows: list[float] = []
    placed: list[Fragment] = []
    band_of_row: list[int] = []
    for bi, frags in enumerate(band_frags):
        for f in frags:
            f.cols = _assign_cols(f, bounds)
        if inner:
            frags = [part for f in frags for part in _split_ruled(f, bounds, inner)]
        else:
            frags = [part for f in frags for part in _split_fragment(f, bounds)]
        one_row = ruled_rows and bi >= head_band
        widest: dict[tuple[int, int], float] = {}
        for f in frags:
            widest[f.cols] = max(widest.get(f.cols, 0.0), f.x1 - f.x0)
        merged: list[Fragment] = []
        wrapped = _wrapped(frags)
        stacked = _stacked(frags, bounds) if bi >= head_band and not one_row else set()
        gap = HEADER_LINE_GAP if bi < head_band else LINE_GAP
        for f in sorted(frags, key=lambda f: (f.y0, f.x0)):
            prev = next(
                (m for m in reversed(merged)
                 if m.cols == f.cols and f.cy > m.y1 - 0.3 * f.size and (one_row or f.y0 - m.y1 < gap * f.size)),
                None,
            )
            if prev is not None and bi < head_band and _sub_header(f, prev, frags):
                prev = None
            # in the header band (no rule between its lines) a line right under another in the same columns is
            # that cell's next line ("세장판이 없는 경우" / "(비세장판 단면)"): only body lines can start a row
            if (
                prev is not None and not one_row and bi >= head_band
                and (id(f) in stacked or _starts_row(f, prev, frags, wrapped))
            ):
                prev = None
            if prev is not None:
                full = prev.x1 - prev.x0 >= 0.85 * widest[prev.cols] and len(frags) > 1
                _merge(prev, f, _cell_join if full else join)
            else:
                merged.append(f)
        centres = _band_rows(merged, one_row)
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
        _extend_spans([f for f in placed if lo <= f.rows[0] < hi], part, lo, pitch)
    _join_unruled(placed, rules, bounds)
    _expand_header(placed, header_rows, n_cols)
    cells = [(replace(c, text=""), f) if _figure_letters(f) else (c, f) for c, f in _cells(
        placed, n_rows, n_cols, header_rows, join
    )]
    bbox: RectT = (x0, min(ys), x1, max(ys))
    table = Table(number, caption, n_rows, n_cols, tuple(c for c, _ in cells), header_rows, 0, bbox, page_index)
    cell_spans = {(c.row, c.col): list(f.spans) for c, f in cells if c.text}
    text, spans = table_text(table, cell_spans)
    return table, text, spans, cell_spans, bounds


def _join_unruled(frags: list[Fragment], rules: list[Rule], bounds: list[tuple[float, float]]) -> None:
    """A cell's lines that a rule drawn under other columns only puts in two rows ("휨모멘트와 압축력에 의한" /
    "소성힌지" beside "시공 중" / "완공 후") are one cell over both rows: the lower row's text in the same columns
    joins the upper's cell (both re-keyed to the upper's rows; ``_cells`` reads them in line order) when no rule
    between them crosses those columns."""
    by_cols: dict[tuple[int, int], list[Fragment]] = {}
    for f in frags:
        by_cols.setdefault(f.cols, []).append(f)
    for cols, group in by_cols.items():
        lo, hi = bounds[cols[0]][0], bounds[cols[1]][1]
        cells: list[list[Fragment]] = []
        for f in sorted(group, key=lambda f: (f.rows[0], f.y0, f.x0)):
            if cells and cells[-1][0].rows[0] == f.rows[0]:
                cells[-1].append(f)
            else:
                cells.append([f])
        above: list[Fragment] = []
        for cell in cells:
            if above and cell[0].rows[0] == max(u.rows[1] for u in above) + 1:
                top, bottom = max(u.cy for u in above), min(f.cy for f in cell)
                between = [x for x in rules if top < x.y < bottom]
                if between and not any(x.x0 < hi - 1.0 and x.x1 > lo + 1.0 for x in between):
                    span = (above[0].rows[0], max(f.rows[1] for f in cell))
                    above.extend(cell)
                    for f in above:
                        f.rows = span
                    continue
            above = cell


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


def _inner_verticals(vrules: Sequence[VRule], x0: float, x1: float, top: float, bottom: float) -> list[VRule]:
    """The vertical rules standing inside the table (off its edges, at least half of each rule between its top
    and bottom rules), left to right."""
    return sorted(
        (v for v in vrules
         if x0 + 2.0 < v.x < x1 - 2.0 and _overlap(v.y0, v.y1, top, bottom) >= 0.5 * (v.y1 - v.y0)),
        key=lambda v: v.x,
    )


def _split_ruled(f: Fragment, bounds: list[tuple[float, float]], vrules: list[VRule]) -> list[Fragment]:
    """In a table with vertical rules, a fragment over several columns is split only where a rule crosses it
    (between two of its runs, on its line): otherwise it is one cell merged across them (a header over two
    sub-columns whose rule starts below it)."""
    c0, c1 = f.cols
    if c1 <= c0 or len(f.spans) < 2:
        return [f]
    for k in range(1, len(f.spans)):
        left, right = f.spans[k - 1][2][2], f.spans[k][2][0]
        if not any(left - 1.0 <= v.x <= right + 1.0 and v.y0 <= f.cy <= v.y1 for v in vrules):
            continue
        a_end, b_start = f.spans[k - 1][1], f.spans[k][0]
        head = Fragment(f.text[:a_end].rstrip(), f.spans[:k], f.x0, f.y0, left, f.y1, f.size, (c0, c0), f.rows,
                        f.line)
        tail = Fragment(f.text[b_start:].lstrip(), [(s - b_start, e - b_start, r) for s, e, r in f.spans[k:]],
                        right, f.y0, f.x1, f.y1, f.size, (c1, c1), f.rows, f.line)
        head.cols = _assign_cols(head, bounds)
        tail.cols = _assign_cols(tail, bounds)
        return [*_split_ruled(head, bounds, vrules), *_split_ruled(tail, bounds, vrules)]
    return [f]


def _expand_header(frags: list[Fragment], header_rows: int, n_cols: int) -> None:
    """An upper header cell also covers the empty positions beside it that have sub-headers below them."""
    for r in range(max(0, header_rows - 1)):
        own = sorted((f for f in frags if f.rows[0] <= r <= f.rows[1]), key=lambda f: f.cols[0])
        taken = {c for f in own for c in range(f.cols[0], f.cols[1] + 1)}
        below = {c for f in frags if f.rows[0] == r + 1 for c in range(f.cols[0], f.cols[1] + 1)}
        for c in range(n_cols):
            if c in taken or c not in below:
                continue
            cands = [f for f in own if f.rows[0] == r and f.rows[1] == r]
            left = [f for f in cands if f.cols[1] < c and all(k not in taken for k in range(f.cols[1] + 1, c))]
            right = [f for f in cands if f.cols[0] > c and all(k not in taken for k in range(c + 1, f.cols[0]))]
            near = min(left + right, key=lambda f: min(abs(f.cols[0] - c), abs(f.cols[1] - c)), default=None)
            if near is not None:
                near.cols = (min(near.cols[0], c), max(near.cols[1], c))
                taken.add(c)


def _split_fragment(f: Fragment, bounds: list[tuple[float, float]]) -> list[Fragment]:
    """Two cells whose texts touch (no gap) came out as one fragment: split it at a word where each part is
    centred in its own (adjacent) column. A merged cell's text is centred over its columns and has no such word."""
    c0, c1 = f.cols
    if c1 <= c0 or len(f.spans) < 2:
        return [f]
    best: tuple[float, int, int, int] | None = None
    for k in range(1, len(f.spans)):
        ca = (f.spans[0][2][0] + f.spans[k - 1][2][2]) / 2
        cb = (f.spans[k][2][0] + f.spans[-1][2][2]) / 2
        ia = next((i for i, (l0, h0) in enumerate(bounds) if l0 <= ca <= h0), -1)
        ib = next((i for i, (l0, h0) in enumerate(bounds) if l0 <= cb <= h0), -1)
        if ia < 0 or ib != ia + 1:
            continue
        da = abs(ca - sum(bounds[ia]) / 2) / (bounds[ia][1] - bounds[ia][0])
        db = abs(cb - sum(bounds[ib]) / 2) / (bounds[ib][1] - bounds[ib][0])
        if da <= 0.15 and db <= 0.15 and (best is None or da + db < best[0]):
            best = (da + db, k, ia, ib)
    if best is None:
        return _split_at_boundary(f, bounds)
    _, k, ia, ib = best
    a_end, b_start = f.spans[k - 1][1], f.spans[k][0]
    ax0, ax1 = f.spans[0][2][0], f.spans[k - 1][2][2]
    bx0, bx1 = f.spans[k][2][0], f.spans[-1][2][2]
    left = Fragment(f.text[:a_end].rstrip(), f.spans[:k], ax0, f.y0, ax1, f.y1, f.size, (ia, ia), f.rows, f.line)
    right = Fragment(f.text[b_start:].lstrip(), [(s - b_start, e - b_start, r) for s, e, r in f.spans[k:]],
                     bx0, f.y0, bx1, f.y1, f.size, (ib, ib), f.rows, f.line)
    return [left, *_split_fragment(right, bounds)]


def _split_at_boundary(f: Fragment, bounds: list[tuple[float, float]]) -> list[Fragment]:
    """Cells of adjacent columns written on one line with gaps a little wider than a word space (a header line
    "기호 SS235 SS275 …" over the grade columns): split where such a gap holds a column boundary. The words of a
    cell merged over several columns are a word space apart and stay together."""
    c0, c1 = f.cols
    if c1 <= c0 or len(f.spans) < 2:
        return [f]
    for k in range(1, len(f.spans)):
        left, right = f.spans[k - 1][2][2], f.spans[k][2][0]
        if right - left < BOUNDARY_GAP * f.size:
            continue
        cut = next((i for i in range(c0, c1) if left - 1.0 <= bounds[i][1] <= right + 1.0), None)
        if cut is None:
            continue
        a_end, b_start = f.spans[k - 1][1], f.spans[k][0]
        head = Fragment(f.text[:a_end].rstrip(), f.spans[:k], f.x0, f.y0, left, f.y1, f.size, (c0, cut), f.rows,
                        f.line)
        tail = Fragment(f.text[b_start:].lstrip(), [(s - b_start, e - b_start, r) for s, e, r in f.spans[k:]],
                        right, f.y0, f.x1, f.y1, f.size, (cut + 1, c1), f.rows, f.line)
        head.cols = _assign_cols(head, bounds)
        tail.cols = _assign_cols(tail, bounds)
        return [*_split_at_boundary(head, bounds), *_split_at_boundary(tail, bounds)]
    return [f]


def _extend_spans(frags: list[Fragment], centres: list[float], base: int, pitch: float) -> None:
    """A cell alone in its column, centred on a run of rows whose cells in that column are empty, spans them."""
    occupied: set[tuple[int, int]] = set()
    for f in frags:
        for r in range(f.rows[0], f.rows[1] + 1):
            for c in range(f.cols[0], f.cols[1] + 1):
                occupied.add((r, c))
    for f in frags:
        a, b = f.rows[0] - base, f.rows[1] - base
        cols = range(f.cols[0], f.cols[1] + 1)
        while a - 1 >= 0 and b + 1 < len(centres):
            if any((base + a - 1, c) in occupied or (base + b + 1, c) in occupied for c in cols):
                break
            if abs((centres[a - 1] + centres[b + 1]) / 2 - f.cy) > 0.25 * pitch:
                break
            a, b = a - 1, b + 1
        if (a, b) != (f.rows[0] - base, f.rows[1] - base):
            for r in range(base + a, base + b + 1):
                for c in cols:
                    occupied.add((r, c))
            f.rows = (base + a, base + b)


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
