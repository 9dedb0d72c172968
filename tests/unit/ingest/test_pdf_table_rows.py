"""PDF tables: body lines with no rule between them are two rows when every column has text on both (a stacked
pair), one row with a wrapped cell when not; a table whose labels are drawn as outlines is marked unreadable (no
cells, no row records, a marker in its text, an unreadable region)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kdsdesk.ingest.pdf import parse_pdf
from kdsdesk.ingest.pdf_outlines import TABLE_REASON
from kdsdesk.ingest.pdf_tables import UNREADABLE_MARK
from kdsdesk.records import ParsedDoc, Table
from tests.data import real_pdfs
from tests.data.pdf_table_docs import outlined_table_pdf, stacked_rows_pdf


def _table(parsed: ParsedDoc, number: str) -> Table:
    (t,) = [t for t in parsed.tables() if t.number == number]
    return t


def test_stacked_pair_is_two_rows_wrapped_cell_is_one(tmp_path: Path) -> None:
    parsed = parse_pdf(stacked_rows_pdf(tmp_path / "t.pdf"))
    stacked = _table(parsed, "3.1-1")
    assert stacked.origin_grid() == [["구분", "F8T", "F10T"], ["항복강도", "640", "900"], ["인장강도", "800", "1000"]]
    assert stacked.row_records()[1].endswith("구분: 인장강도 · F8T: 800 · F10T: 1000")
    wrapped = _table(parsed, "3.1-2")
    grid = wrapped.origin_grid()
    assert grid[1] == ["설계기준강도", "560", "700"]
    assert not any(t for row in grid[2:] for t in row[1:])  # the values stay on the one row


def test_outlined_table_is_unreadable(tmp_path: Path) -> None:
    parsed = parse_pdf(outlined_table_pdf(tmp_path / "t.pdf"))
    blocks = {b.table.number: b for b in parsed.blocks if b.table is not None}
    bad, good = blocks["4.1-1"], blocks["4.1-2"]
    assert bad.table is not None
    assert bad.text == f"표 4.1-1 감소계수\n{UNREADABLE_MARK}"
    assert bad.table.cells == ()
    assert bad.table.row_records() == []
    assert not any(v in b.text for b in parsed.blocks for v in ("0.75", "0.65"))  # the values of the bad table
    assert [s.page_index for s in bad.spans] == [0]
    (region,) = [u for u in parsed.unreadable if u.reason == TABLE_REASON]
    assert region.rect == bad.table.bbox
    assert good.table is not None
    assert good.table.row_records()[1].endswith("계수: 0.85 · 비고: -")


@pytest.mark.slow
def test_real_kds_stacked_rows(corpus: Path) -> None:
    """KDS 14 31 05 표 3.4-4: F_y over F_u beside 640 over 800 … are two rows, not one with joined cells."""
    t = _table(real_pdfs.parsed("KDS143105.pdf"), "3.4-4")
    assert t.origin_grid()[1:] == [["F_y", "640", "900", "1170"], ["F_u", "800", "1000", "1300"]]


@pytest.mark.slow
def test_real_kds_outlined_tables_are_unreadable_without_ocr(corpus: Path) -> None:
    """KDS 14 31 10 표 4.1-1 and 표 4.2-1: Korean cell labels drawn as outlines; only digits and brackets had text.
    Without the OCR engine they are unreadable (with it they become tables again: ``test_pdf_ocr``)."""
    parsed = real_pdfs.parsed("KDS143110.pdf", use_ocr=False)
    for number in ("4.1-1", "4.2-1"):
        t = _table(parsed, number)
        assert t.cells == ()
        assert t.row_records() == []
        (block,) = [b for b in parsed.blocks if b.table is t]
        assert block.text.endswith(UNREADABLE_MARK)
        assert any(u.reason == TABLE_REASON and u.rect == t.bbox for u in parsed.unreadable)


@pytest.mark.slow
def test_real_kds_steel_grade_headers(corpus: Path) -> None:
    """KDS 14 31 05 표 3.4-1: each grade is its own header cell over its column, so a row record pairs the grade
    with its strength for a thickness range."""
    t = next(t for t in real_pdfs.parsed("KDS143105.pdf", use_ocr=False).tables() if t.number == "3.4-1")
    heads = [" ".join(t.column_headers(k)) for k in range(t.n_cols)]
    assert "SS235" in heads
    assert "SS275" in heads
    records = t.row_records()
    assert any("16mm 이하" in r and "SS235: 235" in r and "SS275: 275" in r for r in records)
