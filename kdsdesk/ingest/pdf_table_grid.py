"""Columns and rows of one PDF table: where each cell fragment (``pdf_table_geometry.Fragment``) stands in the grid.

- Columns come from the x gaps of the body rows' fragments (``columns``); where the PDF also draws vertical rules
  inside the table they are the column boundaries instead (``ruled_columns``), so the letters of a section drawing
  in a cell (t, b, h) stay one cell however far apart they are. ``assign_cols`` gives a fragment its first and last
  column; a fragment over several columns is split where two cells' texts touch or a gap holds a column boundary
  (``split_fragment``), or, in a ruled table, only where a rule crosses it (``split_ruled``).
- Rows: in a band between two rules, whether a line continues a cell or starts a row (``starts_row``,
  ``sub_header``, ``wrapped``, ``stacked``) and the band's row centres (``band_rows``); a cell centred on a run of
  empty rows spans them (``extend_spans``), as does a cell whose lines a rule drawn under other columns only puts
  in two rows (``join_unruled``); an upper header cell covers the empty positions beside it that have sub-headers
  below them (``expand_header``).

``pdf_tables.build_table`` applies these to a table's bands.
"""

from __future__ import annotations

import itertools
import statistics

from kdsdesk.ingest.pdf_table_geometry import Fragment, Rule, VRule, overlap

STACK_FILL = 0.7  # an upper cell this wide (share of its column) wraps: no stacked pair of rows
STACK_SHORT = 0.5  # a lower cell this much shorter than the one above it is the end of a wrapped cell
SUB_OFF = 1.0  # sub-headers stand this × size and more left and right of the centre of the header above them
BOUNDARY_GAP = 0.5  # ... and runs this far apart with a column boundary between them (word spaces are ≈ 0.3)


def _union(frags: list[Fragment]) -> list[list[float]]:
    cols: list[list[float]] = []
    for a, b in sorted((f.x0, f.x1) for f in frags):
        if cols and a <= cols[-1][1] + 1.0:
            cols[-1][1] = max(cols[-1][1], b)
        else:
            cols.append([a, b])
    return cols


def columns(frags: list[Fragment], x0: float, x1: float) -> list[tuple[float, float]]:
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


def ruled_columns(frags: list[Fragment], x0: float, x1: float, vxs: list[float]) -> list[tuple[float, float]]:
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


def assign_cols(f: Fragment, bounds: list[tuple[float, float]]) -> tuple[int, int]:
    hit = [
        i for i, (lo, hi) in enumerate(bounds)
        if (ov := overlap(f.x0, f.x1, lo, hi)) >= 2 * f.size or ov >= 0.5 * (f.x1 - f.x0) or ov >= 0.5 * (hi - lo)
    ]
    if not hit:
        cx = (f.x0 + f.x1) / 2
        best = min(range(len(bounds)), key=lambda i: abs((bounds[i][0] + bounds[i][1]) / 2 - cx))
        return best, best
    return hit[0], hit[-1]


def split_fragment(f: Fragment, bounds: list[tuple[float, float]]) -> list[Fragment]:
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
    return [left, *split_fragment(right, bounds)]


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
        head.cols = assign_cols(head, bounds)
        tail.cols = assign_cols(tail, bounds)
        return [*_split_at_boundary(head, bounds), *_split_at_boundary(tail, bounds)]
    return [f]


def split_ruled(f: Fragment, bounds: list[tuple[float, float]], vrules: list[VRule]) -> list[Fragment]:
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
        head.cols = assign_cols(head, bounds)
        tail.cols = assign_cols(tail, bounds)
        return [*split_ruled(head, bounds, vrules), *split_ruled(tail, bounds, vrules)]
    return [f]


def starts_row(f: Fragment, above: Fragment, frags: list[Fragment], wrapped: set[int]) -> bool:
    """``f`` lines up with a cell of another column that lies wholly below ``above`` and does not itself continue
    a line right above it: ``f`` starts a new row rather than continuing ``above``."""
    return any(
        g.cols != f.cols and abs(g.cy - f.cy) <= 0.35 * f.size and g.y0 >= above.y1 - 0.5 and id(g) not in wrapped
        for g in frags
    )


def sub_header(f: Fragment, above: Fragment, frags: list[Fragment]) -> bool:
    """In the header band: ``f`` is one of a row of sub-headers under ``above``, not its next line — ``f`` and the
    fragments on its baseline with nothing above them in the band straddle ``above``'s centre ("F8T F10T F13T"
    under "설계볼트장력 T_o(kN)", "상대처짐 절대처짐" under "처짐 한계"). Otherwise the band has no rule between
    them and they are one cell: the lines of a multi-line header cell, centred on one another ("세장판이 없는 경우"
    / "(비세장판 단면)", with "단면" of the next column on that baseline), or the two halves of a diagonally split
    corner cell."""
    row = [f] + [
        g for g in frags
        if g is not f and abs(g.y1 - f.y1) <= 0.15 * f.size
        and not any(h.y1 <= g.y0 and overlap(h.x0, h.x1, g.x0, g.x1) > 0.3 * (g.x1 - g.x0) for h in frags)
    ]
    offs = [(g.x0 + g.x1 - above.x0 - above.x1) / 2 for g in row]
    return min(offs) < -SUB_OFF * f.size and max(offs) > SUB_OFF * f.size


def wrapped(frags: list[Fragment]) -> set[int]:
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


def stacked(frags: list[Fragment], bounds: list[tuple[float, float]]) -> set[int]:
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


def band_rows(frags: list[Fragment], one_row: bool) -> list[float]:
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
            above = any(overlap(f.y0, f.y1, g.y0, g.y1) > 0.3 for f in c for g in clusters[i - 1])
            below = any(overlap(f.y0, f.y1, g.y0, g.y1) > 0.3 for f in c for g in clusters[i + 1])
            if above and below:
                continue  # a cell centred between two rows: it spans them
        keep.append(centres[i])
    return keep


def extend_spans(frags: list[Fragment], centres: list[float], base: int, pitch: float) -> None:
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


def join_unruled(frags: list[Fragment], rules: list[Rule], bounds: list[tuple[float, float]]) -> None:
    """A cell's lines that a rule drawn under other columns only puts in two rows ("휨모멘트와 압축력에 의한" /
    "소성힌지" beside "시공 중" / "완공 후") are one cell over both rows: the lower row's text in the same columns
    joins the upper's cell (both re-keyed to the upper's rows; ``pdf_tables._cells`` reads them in line order)
    when no rule between them crosses those columns."""
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


def expand_header(frags: list[Fragment], header_rows: int, n_cols: int) -> None:
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
