"""A table cell over two rows whose neighbours are parted by a rule drawn under their columns only (KCSC draws a
merged cell so): its two lines are one cell, not two rows' cells; rows parted by a rule across the column stay
apart."""

from __future__ import annotations

from pathlib import Path

from kdsdesk.ingest.pdf import parse_pdf
from tests.data.pdf_table_docs import partial_rule_table_pdf


def test_lines_of_a_cell_over_a_partly_ruled_row_are_one_cell(tmp_path: Path) -> None:
    (t,) = parse_pdf(partial_rule_table_pdf(tmp_path / "t.pdf"), use_ocr=False).tables()
    cells = {c.text: c for c in t.cells}
    joined = cells["휨모멘트와 압축력에 의한 소성힌지"]
    assert joined.rowspan == 2
    assert cells["시공 중"].row == joined.row
    assert cells["완공 후"].row == joined.row + 1
    assert {"압축강도", "이음부강도", "0.85", "0.90"} <= set(cells)  # rows under full rules stay apart
    assert "소성힌지" not in cells
