"""PDF tables: body lines with no rule between them are two rows when every column has text on both (a stacked
pair), one row with a wrapped cell when not; a table whose labels are drawn as outlines is marked unreadable (no
cells, no row records, a marker in its text, an unreadable region)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kdsdesk.ingest.pdf import parse_pdf
from kdsdesk.ingest.pdf_outlines import TABLE_REASON
from kdsdesk.ingest.pdf_tables import UNREADABLE_MARK, Fragment
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


def test_header_words_apart_across_a_column_boundary_are_separate_cells() -> None:
    """"기호 SS235 SS275" on one header line over three columns (gaps a little wider than a word space) is three
    cells; a cell merged over two columns, its words a word space apart, stays whole."""
    from kdsdesk.ingest.pdf_tables import Fragment, _split_at_boundary

    bounds = [(109.0, 156.0), (156.0, 188.0), (188.0, 223.0)]
    spans = [(0, 2, (135.0, 0.0, 152.0, 9.0)), (3, 8, (158.0, 0.0, 185.0, 9.0)), (9, 14, (192.0, 0.0, 218.0, 9.0))]
    f = Fragment("기호 SS235 SS275", spans, 135.0, 0.0, 218.0, 9.0, 9.0, (0, 2))
    assert [(p.text, p.cols) for p in _split_at_boundary(f, bounds)] == [("기호", (0, 0)), ("SS235", (1, 1)),
                                                                        ("SS275", (2, 2))]
    merged = [(0, 4, (120.0, 0.0, 152.0, 9.0)), (5, 7, (154.5, 0.0, 170.0, 9.0)), (8, 10, (172.5, 0.0, 186.0, 9.0))]
    g = Fragment("세장판이 없는 경우", merged, 120.0, 0.0, 186.0, 9.0, 9.0, (0, 1))
    assert [p.text for p in _split_at_boundary(g, bounds)] == ["세장판이 없는 경우"]


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


def _frag(text: str, x0: float, y0: float, x1: float, size: float = 9.0) -> Fragment:
    return Fragment(text, [(0, len(text), (x0, y0, x1, y0 + 8.0))], x0, y0, x1, y0 + 8.0, size)


def test_header_lines_of_one_cell_are_not_sub_headers() -> None:
    """In the header band (no rule between its lines) a line centred under another is that cell's next line, even
    with another column's label on its baseline; a row of sub-headers straddling the header above is not."""
    from kdsdesk.ingest.pdf_tables import _sub_header

    above = _frag("세장판이 없는 경우", 200.0, 100.0, 280.0)
    second = _frag("(비세장판 단면)", 206.0, 114.0, 274.0)
    label = _frag("단면", 100.0, 114.0, 118.0)  # the first column's label, centred in the whole header
    assert not _sub_header(second, above, [above, second, label])
    grade = _frag("설계볼트장력 T_o(kN)", 330.0, 100.0, 420.0)
    subs = [_frag("F8T", 270.0, 114.0, 290.0), _frag("F10T", 365.0, 114.0, 385.0), _frag("F13T", 460.0, 114.0, 485.0)]
    assert _sub_header(subs[1], grade, [grade, *subs])
    corner = _frag("볼트 등급", 200.0, 100.0, 240.0)  # a diagonally split corner cell: its lower half on the left
    lower = _frag("최소 강도", 100.0, 114.0, 140.0)
    assert not _sub_header(lower, corner, [corner, lower])
