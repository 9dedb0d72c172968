"""Tables cut by a page break: the part at the top of the next page joins the table it continues.

한글 breaks a long table at the end of a page and goes on at the top of the next one, with the header rows repeated
or not, and with no caption (or the same caption again, often followed by "(계속)"). Read page by page, the second
part would be a table of its own without a number. Here:

- ``continues`` decides whether a table that comes first on a page continues the numbered table that ended the
  previous page: no caption or the same number, the same number of columns, the same horizontal extent, and every
  cell centred inside the column of the same index (columns as the first part's rows laid them out);
- ``merge`` appends its rows: leading rows equal to the first part's header rows (a repeated header) are dropped,
  the other rows become body rows; each cell keeps the spans of its own page.

The merged table keeps the first part's number, caption, header rows, page and bounding box.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from kdsdesk.ingest.pdf_tables import PageTable
from kdsdesk.records import RectT, Table, TableCell

EXTENT_TOL = 6.0  # points: left and right table edges of the two parts
CENTRE_TOL = 2.0  # points: a cell's centre may sit this far outside its column

PagedSpans = dict[tuple[int, int], list[tuple[int, int, tuple[int, RectT]]]]  # (row, col) → (start, end, (page, rect))
_SPACE = re.compile(r"\s+")


@dataclass(slots=True)
class OpenTable:
    """A table as emitted so far: its grid, each cell's spans with their page, the first part's columns and the
    pages it covers."""

    table: Table
    cells: PagedSpans
    columns: list[tuple[float, float]]
    pages: tuple[int, ...]


def start(pt: PageTable, page: int) -> OpenTable:
    cells = {k: [(s, e, (page, rect)) for s, e, rect in v] for k, v in pt.cells.items()}
    return OpenTable(pt.table, cells, list(pt.columns), (page,))


def _centre(spans: list[tuple[int, int, RectT]]) -> float | None:
    if not spans:
        return None
    return (min(r[0] for _, _, r in spans) + max(r[2] for _, _, r in spans)) / 2


def continues(first: OpenTable, pt: PageTable, page: int) -> bool:
    """Whether ``pt`` (the first thing on ``page``) continues ``first`` (the last thing before it)."""
    t, u = first.table, pt.table
    if page != first.pages[-1] + 1 or not t.number or (u.number and u.number != t.number):
        return False
    if u.n_cols != t.n_cols or len(first.columns) != t.n_cols or t.bbox is None or u.bbox is None:
        return False
    if abs(t.bbox[0] - u.bbox[0]) > EXTENT_TOL or abs(t.bbox[2] - u.bbox[2]) > EXTENT_TOL:
        return False
    checked = 0
    for cell in u.cells:
        cx = _centre(pt.cells.get((cell.row, cell.col), []))
        if cx is None:
            continue
        lo = first.columns[cell.col][0]
        hi = first.columns[min(len(first.columns), cell.col + cell.colspan) - 1][1]
        if not lo - CENTRE_TOL <= cx <= hi + CENTRE_TOL:
            return False
        checked += 1
    return checked > 0


def _norm(row: list[str | None]) -> list[str | None]:
    return [None if t is None else _SPACE.sub("", t) for t in row]


def repeated_header(t: Table, u: Table) -> int:
    """How many leading rows of ``u`` repeat ``t``'s header rows (0 when the header is not repeated)."""
    tg, ug = t.origin_grid(), u.origin_grid()
    for k in range(min(t.header_rows, u.n_rows), 0, -1):
        if [_norm(r) for r in ug[:k]] == [_norm(r) for r in tg[:k]]:
            return k
    return 0


def merge(first: OpenTable, pt: PageTable, page: int) -> OpenTable:
    """``first`` with the rows of its continuation ``pt`` (on ``page``) appended."""
    t, u = first.table, pt.table
    skip = repeated_header(t, u)
    base = t.n_rows - skip
    cells = list(t.cells)
    spans = dict(first.cells)
    for c in u.cells:
        if c.row < skip:
            continue
        cells.append(TableCell(base + c.row, c.col, c.text, c.rowspan, c.colspan, False))
        own = pt.cells.get((c.row, c.col))
        if own:
            spans[(base + c.row, c.col)] = [(s, e, (page, rect)) for s, e, rect in own]
    table = Table(t.number, t.caption, base + u.n_rows, t.n_cols, tuple(cells), t.header_rows, t.header_cols,
                  t.bbox, t.page_index)
    return OpenTable(table, spans, first.columns, (*first.pages, page))
