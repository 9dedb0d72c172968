"""HWPX table pieces: the cell grid from ``hp:cellAddr``/``hp:cellSpan``, header rows, captions and numbers.

Header rows (generic rule, documented here because every table depends on it):

1. Cells flagged ``header="1"`` (한글's "제목 셀"): the header is the leading block of rows that hold a flagged cell,
   extended down to the bottom edge of the flagged cells' row spans.
2. Otherwise the first row is the header; when the first row has a cell merged across columns (a multi-level
   header such as ``상한값(MPa)`` over ``일반 부재 | 지진 부재``), the header extends down to the bottom edge of
   the row-merged cells that start inside it (``철근 종류`` spanning two rows).
3. The header never takes every row: a one-row table has no header row, so its cells stay body content.

Cells without ``hp:cellAddr`` are placed in reading order into the first free grid position of their row.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from kdsdesk.errors import KnownError
from kdsdesk.records import Table, TableCell

_CAPTION = re.compile(r"^\s*표\s*(?P<num>[A-Z]?\d+(?:[.\-]\d+)*)(?:\s+|\.\s*|$)(?P<title>.*)$")
_SENTENCE_END = re.compile(r"(?:다|니다)\s*\.?\s*$")
MAX_CAPTION_CHARS = 120
MAX_GRID_CELLS = 2_000_000  # grid positions of one table (a real KDS table has a few thousand)
_TOO_BIG = "표가 너무 큽니다. 파일이 손상되었거나 비정상적으로 만들어졌습니다."


@dataclass
class RawCell:
    """A cell as read from the XML (``row``/``col`` are ``-1`` when the file has no ``hp:cellAddr``)."""

    row: int
    col: int
    rowspan: int
    colspan: int
    text: str
    header_flag: bool
    tr_index: int  # the hp:tr the cell was written in


def caption_number(caption: str) -> str:
    """``"표 4.2-1 전단…"`` → ``"4.2-1"``; ``""`` when the caption has no table number."""
    m = _CAPTION.match(caption)
    return m.group("num").rstrip(".-") if m else ""


def is_caption_line(text: str) -> bool:
    """A paragraph that is a table caption (``표 4.2-1 제목``) and not a sentence that mentions a table."""
    line = text.strip()
    if not line or len(line) > MAX_CAPTION_CHARS or "\n" in line:
        return False
    m = _CAPTION.match(line)
    if m is None:
        return False
    title = m.group("title").strip()
    if title[:1] in ("에", "의", "을", "를", "과", "와", "은", "는", "이", "가", "로", "참", "("):
        return bool(re.match(r"^\(.*\)$", title))  # "표 3 (단위: mm)" is a caption, "표 3.1-1에 따른다" is not
    return not _SENTENCE_END.search(title)


def _place(cells: list[RawCell]) -> list[RawCell]:
    """Give cells without addresses a position: next free column of their hp:tr, honouring spans above."""
    if all(c.row >= 0 and c.col >= 0 for c in cells):
        return cells
    taken: set[tuple[int, int]] = set()
    out: list[RawCell] = []
    n_trs = max(c.tr_index for c in cells) + 1
    for c in cells:
        if c.row >= 0 and c.col >= 0:
            out.append(c)
            continue
        row = c.tr_index
        col = 0
        while (row, col) in taken:
            col += 1
        # spans bounded by the rows written and the cells there are (a crafted span cannot blow up the set)
        rowspan, colspan = max(1, min(c.rowspan, n_trs - row)), max(1, min(c.colspan, len(cells)))
        out.append(RawCell(row, col, rowspan, colspan, c.text, c.header_flag, c.tr_index))
        if len(taken) + rowspan * colspan > MAX_GRID_CELLS:
            raise KnownError(_TOO_BIG)
        for r in range(row, row + rowspan):
            for k in range(col, col + colspan):
                taken.add((r, k))
    return out


def _header_rows(cells: list[RawCell], n_rows: int) -> int:
    if n_rows <= 1:
        return 0
    flagged = [c for c in cells if c.header_flag]
    if flagged and any(c.row == 0 for c in flagged):
        rows_with_flag = {c.row for c in flagged}
        h = 0
        while h in rows_with_flag:
            h += 1
        bottom = max((c.row + c.rowspan for c in flagged if c.row < h), default=h)
        return min(max(h, bottom), n_rows - 1)
    h = 1
    if any(c.row == 0 and c.colspan > 1 for c in cells):
        while True:
            bottom = max((c.row + c.rowspan for c in cells if c.row < h), default=h)
            if bottom <= h:
                break
            h = bottom
    return min(h, n_rows - 1)


def _drop_impossible_addresses(cells: list[RawCell]) -> list[RawCell]:
    """A cell is written in the ``hp:tr`` of its first row, and its column cannot lie past every column the
    table's cells could fill: an address beyond that (a crafted ``rowAddr="30000"``) is ignored and the cell is
    placed in reading order like a cell without an address."""
    if not cells:
        return cells
    last_row = max(c.tr_index for c in cells)
    width = sum(max(1, min(c.colspan, len(cells))) for c in cells)
    return [
        RawCell(-1, -1, c.rowspan, c.colspan, c.text, c.header_flag, c.tr_index)
        if c.row > last_row or c.col >= width
        else c
        for c in cells
    ]


def _within_extent(cells: list[RawCell]) -> list[RawCell]:
    """Spans cut at the table's real extent: the rows the file writes (``hp:tr``s, cell rows) and the columns its
    cells start in. A crafted cell that claims to span 3000×3000 in a one-cell table covers one position."""
    if not cells:
        return cells
    rows = max(max(c.tr_index for c in cells), max(c.row for c in cells)) + 1
    cols = max(c.col for c in cells) + 1
    out = []
    for c in cells:
        rowspan = max(1, min(c.rowspan, rows - c.row))
        colspan = max(1, min(c.colspan, cols - c.col))
        if (rowspan, colspan) != (c.rowspan, c.colspan):
            c = RawCell(c.row, c.col, rowspan, colspan, c.text, c.header_flag, c.tr_index)
        out.append(c)
    return out


def build_table(cells: list[RawCell], caption: str, number: str) -> Table:
    """A ``Table`` from raw cells: grid size from addresses and spans, header rows by the rule above."""
    cells = _place(_drop_impossible_addresses(cells))
    seen: set[tuple[int, int]] = set()
    unique: list[RawCell] = []
    for c in cells:  # a broken file may write two cells at one address: keep the first
        if (c.row, c.col) not in seen:
            seen.add((c.row, c.col))
            unique.append(c)
    unique = _within_extent(unique)
    n_rows = max((c.row + c.rowspan for c in unique), default=0)
    n_cols = max((c.col + c.colspan for c in unique), default=0)
    if n_rows * n_cols > MAX_GRID_CELLS:
        raise KnownError(f"{_TOO_BIG} ({n_rows:,}행 × {n_cols:,}열)")
    h = _header_rows(unique, n_rows)
    out = tuple(
        TableCell(
            row=c.row,
            col=c.col,
            text=c.text,
            rowspan=c.rowspan,
            colspan=c.colspan,
            is_header=c.row < h or c.header_flag,
        )
        for c in sorted(unique, key=lambda c: (c.row, c.col))
    )
    return Table(number=number, caption=caption, n_rows=n_rows, n_cols=n_cols, cells=out, header_rows=h)


def table_text(table: Table) -> list[str]:
    """Lines of a table block: the caption line (if any), then one line per non-empty row (``rows_text``)."""
    lines = [table.caption] if table.caption else []
    lines.extend(row for row in table.rows_text() if row.replace("|", "").strip())
    return lines
