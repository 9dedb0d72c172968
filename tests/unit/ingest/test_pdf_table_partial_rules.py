"""A table cell over two rows whose neighbours are parted by a rule drawn under their columns only (KCSC draws a
merged cell so): its two lines are one cell, not two rows' cells; rows parted by a rule across the column stay
apart."""

from __future__ import annotations

from pathlib import Path

from kdsdesk.ingest.pdf import parse_pdf
from tests.data.pdf_table_docs import JUSTIFIED_CELL, justified_cell_table_pdf, partial_rule_table_pdf


def test_lines_of_a_cell_over_a_partly_ruled_row_are_one_cell(tmp_path: Path) -> None:
    (t,) = parse_pdf(partial_rule_table_pdf(tmp_path / "t.pdf"), use_ocr=False).tables()
    cells = {c.text: c for c in t.cells}
    joined = cells["휨모멘트와 압축력에 의한 소성힌지"]
    assert joined.rowspan == 2
    assert cells["시공 중"].row == joined.row
    assert cells["완공 후"].row == joined.row + 1
    assert {"압축강도", "이음부강도", "0.85", "0.90"} <= set(cells)  # rows under full rules stay apart
    assert "소성힌지" not in cells


def test_rules_beside_a_narrow_first_column_keep_the_table_one() -> None:
    """Rules that stop short of a first column narrower than 5 % of the table (a label written downwards) still
    belong to the table: the label between them is that column's cell, not text beside the table."""
    from kdsdesk.ingest.pdf_table_geometry import Rule
    from kdsdesk.ingest.pdf_tables import _group_rules
    from kdsdesk.ingest.pdf_text import Line, Run

    rules = [Rule(80.0, 508.0, 160.0), Rule(97.0, 508.0, 200.0), Rule(97.0, 508.0, 240.0), Rule(80.0, 508.0, 280.0)]
    label = Line([Run("자유돌출판", 85.0, 180.0, 93.5, 260.0, 9.5, 260.0, cy=220.0)], 180.0, 260.0, x0=85.0)
    label.text = "자유돌출판"
    label.measure()
    assert _group_rules(rules, [label]) == [rules]


def test_a_justified_first_line_parted_at_a_wide_space_is_read_first(tmp_path: Path) -> None:
    """A cell whose first line is justified with a word space wider than a cell gap ("양측면에  거셋플레이") is two
    pieces, the right one continued by the next line, which starts a hair left of the first piece: the cell still
    reads its first line first, left to right ("양측면에 거셋플레이트가 있는 경우", not "거셋플레이 트가 있는 경우
    양측면에")."""
    (t,) = parse_pdf(justified_cell_table_pdf(tmp_path / "t.pdf"), use_ocr=False).tables()
    texts = [c.text.replace(" ", "") for c in t.cells]
    assert "".join(JUSTIFIED_CELL).replace(" ", "") in texts
    assert {"0.90", "H형강", "0.85"} <= set(texts)
