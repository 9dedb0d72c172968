"""Read one value from a table: match the question's conditions against row labels and column headers.

Column headers come from the merged-cell grid (``Table.column_headers``: multi-level headers resolved top to
bottom); row labels are the row-header columns (``header_cols``) or, when the parser marked none, the leading
columns whose body cells are mostly not numbers (merged label cells repeat down the rows they span). Each value
cell scores ``label_score(row labels) + label_score(column headers)``; the best cell wins when it is clearly
ahead of every cell holding a different value (else the read is ambiguous). Its unit comes from the cell
itself, its column headers (``구멍의 치수(mm)``) or the caption. Conditional answers get ``alternatives``: the
same row under the other value columns when the column decided, else the same column in the other rows.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from kdsdesk.records import Alternative, Table, TableCell
from kdsdesk.text.match import label_score, question_grams
from kdsdesk.text.normalize import norm
from kdsdesk.verify.need import UNITS

_HAS_NUM = re.compile(r"\d")
_UNIT_ALT = "|".join(re.escape(u) for u in sorted(UNITS, key=len, reverse=True) if not ("가" <= u[0] <= "힣"))
_UNIT_IN_PARENS = re.compile(rf"\(\s*({_UNIT_ALT})\s*\)")
_UNIT_AFTER_NUM = re.compile(rf"\d\s*({_UNIT_ALT})(?![A-Za-z])")
_MARGIN = 0.1  # a tie between different values is ambiguous


@dataclass(frozen=True, slots=True)
class CellRead:
    """The value read from a table and how it was found."""

    value: str
    unit: str
    row: int
    col: int
    row_labels: tuple[str, ...]
    col_headers: tuple[str, ...]
    score: float
    ambiguous: bool
    margin: float  # score lead over the best cell holding a different value
    alternatives: tuple[Alternative, ...] = ()


_VALUE_WORDS = re.compile(rf"이하|이상|초과|미만|및|또는|{_UNIT_ALT}")


def _numeric(text: str) -> bool:
    """A value cell: digits, units, symbols and comparison words, but not a phrase."""
    t = unicodedata.normalize("NFKC", text).strip()
    if not t or not _HAS_NUM.search(t) or len(t) > 40:
        return False
    rest = _VALUE_WORDS.sub("", t)
    return len(re.findall(r"[가-힣]", rest)) == 0 and len(re.findall(r"[A-Za-z]{3,}", rest)) == 0


_STACKED = re.compile(r"\s*\d[\d.,]*(?:\s+\d[\d.,]*)+\s*")


def stacked(value: str) -> bool:
    """Several bare numbers side by side ("900 1000"): two lines of a cell (``F_y`` over ``F_u``) read as one —
    which number belongs to which header is lost, so the read is ambiguous."""
    return bool(_STACKED.fullmatch(unicodedata.normalize("NFKC", value)))


def label_columns(table: Table) -> list[int]:
    """Columns holding row labels."""
    if table.header_cols > 0:
        return list(range(min(table.header_cols, table.n_cols)))
    grid = table.grid()
    body = range(table.header_rows, table.n_rows)
    cols: list[int] = []
    for k in range(table.n_cols):
        cells = [grid[r][k] for r in body if grid[r][k] is not None]
        texts = [c.text for c in cells if c is not None and c.text.strip()]
        if not texts:
            break
        if sum(1 for t in texts if _numeric(t)) * 2 > len(texts) and cols:
            break
        cols.append(k)
        if k + 1 >= table.n_cols - 1:
            break
    return cols or [0]


_NEG_PAIR = re.compile(r"([가-힣]{2,})하지\s*않는.*\1하는|([가-힣]{2,})하는.*\2하지\s*않는")


def _contradictory(labels: str) -> bool:
    """Labels holding a condition and its negation (merged header cells of a badly read table)."""
    return bool(_NEG_PAIR.search(unicodedata.normalize("NFKC", labels)))


def unit_of(cell_text: str, headers: list[str], caption: str) -> str:
    m = _UNIT_AFTER_NUM.search(unicodedata.normalize("NFKC", cell_text))
    if m:
        return m.group(1)
    for h in [*reversed(headers), caption]:
        m = _UNIT_IN_PARENS.search(unicodedata.normalize("NFKC", h))
        if m:
            return m.group(1)
    return ""


def _value_text(cell_text: str, unit: str) -> str:
    t = " ".join(cell_text.split())
    if unit and norm(t).endswith(norm(unit)):
        n = norm(unit)
        # drop the trailing unit as written ("6 mm" → "6")
        for i in range(len(t), -1, -1):
            if norm(t[i:]) == n:
                return t[:i].strip()
    return t


def read_table(question: str, table: Table, unit_hint: str = "") -> CellRead | None:
    """The cell of ``table`` that best answers ``question`` (None when no value cell matches at all)."""
    if table.n_rows <= table.header_rows or table.n_cols < 2:
        return None
    grid = table.grid()
    labels = label_columns(table)
    qg = question_grams(question)
    col_score: dict[int, float] = {}
    col_heads: dict[int, list[str]] = {}
    for k in range(table.n_cols):
        heads = table.column_headers(k)
        col_heads[k] = heads
        col_score[k] = label_score(question, " ".join(heads), qg) if heads else 0.0
    cands: list[tuple[float, int, int, TableCell, list[str]]] = []
    for r in range(table.header_rows, table.n_rows):
        row_labels: list[str] = []
        for k in labels:
            c = grid[r][k]
            if c is not None and c.text.strip() and (not row_labels or row_labels[-1] != c.text):
                row_labels.append(c.text)
        rs = label_score(question, " ".join(row_labels), qg) if row_labels else 0.0
        for k in range(table.n_cols):
            c = grid[r][k]
            if k in labels or c is None or (c.row != r and c.col != k) or not _numeric(c.text):
                continue
            s = rs + col_score[k]
            u = unit_of(c.text, col_heads[k], table.caption)
            if unit_hint and u:
                s += 0.5 if norm(u) == norm(unit_hint) else -1.0
            cands.append((s, r, k, c, row_labels))
    if not cands:
        return None
    cands.sort(key=lambda t: -t[0])
    best = cands[0]
    s, r, k, cell, row_labels = best
    rival = next((c for c in cands[1:] if norm(c[3].text) != norm(cell.text)), None)
    margin = s - rival[0] if rival is not None else s
    ambiguous = s <= 0.5 or margin < _MARGIN or _contradictory(" ".join([*row_labels, *col_heads[k]]))
    unit = unit_of(cell.text, col_heads[k], table.caption)
    ambiguous = ambiguous or stacked(_value_text(cell.text, unit))
    alts = _alternatives(table, grid, labels, r, k, col_score, cell)
    return CellRead(
        value=_value_text(cell.text, unit), unit=unit, row=r, col=k, row_labels=tuple(row_labels),
        col_headers=tuple(col_heads[k]), score=s, ambiguous=ambiguous, margin=margin, alternatives=alts,
    )  # fmt: skip


def _alternatives(
    table: Table,
    grid: list[list[TableCell | None]],
    labels: list[int],
    r: int,
    k: int,
    col_score: dict[int, float],
    cell: TableCell,
) -> tuple[Alternative, ...]:
    value_cols = [j for j in range(table.n_cols) if j not in labels]
    out: list[Alternative] = []
    same_row = len(value_cols) > 1 and col_score[k] > max((col_score[j] for j in value_cols if j != k), default=0)
    if same_row:
        for j in value_cols:
            c = grid[r][j]
            if j == k or c is None or c is cell or not _numeric(c.text):
                continue
            heads = table.column_headers(j)
            u = unit_of(c.text, heads, table.caption)
            out.append(Alternative(" ".join(heads[-1:]) or f"열 {j + 1}", _value_text(c.text, u), u))
    else:
        for rr in range(table.header_rows, table.n_rows):
            c = grid[rr][k]
            if rr == r or c is None or c is cell or c.row != rr or not _numeric(c.text):
                continue
            lab = [grid[rr][j].text for j in labels if grid[rr][j] is not None]  # type: ignore[union-attr]
            u = unit_of(c.text, table.column_headers(k), table.caption)
            out.append(Alternative(" ".join(dict.fromkeys(lab)) or f"행 {rr + 1}", _value_text(c.text, u), u))
    return tuple(out[:4])
