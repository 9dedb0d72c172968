"""PDF tables with drawn vertical rules (the KCSC PDFs draw them, 한글's own export does not): a gap between cell
texts is a column boundary only where a vertical rule stands in it, so the far-apart letters of a section drawing in
a cell stay that one cell; a cell over two columns is split only where a rule crosses it; hairline strokes are
rules, filled shapes (outline glyphs, a watermark) are not."""

from __future__ import annotations

from pathlib import Path

from kdsdesk.ingest.pdf import parse_pdf
from kdsdesk.ingest.pdf_tables import Fragment, VRule, _split_ruled, vertical_rules
from tests.data.pdf_table_docs import figure_letters_table_pdf


def test_figure_letters_stay_in_their_ruled_cell(tmp_path: Path) -> None:
    (t,) = parse_pdf(figure_letters_table_pdf(tmp_path / "t.pdf", vertical_rules=True), use_ocr=False).tables()
    grid = t.origin_grid()
    assert grid[0] == ["구분", "폭두께비", "한계값", "예"]
    assert [row[:3] for row in grid[1:]] == [["1", "b/t", "0.56"], ["2", "d/t", "0.75"]]
    assert sorted(grid[1][3].split()) == ["b", "h", "t"]
    assert sorted(grid[2][3].split()) == ["d", "t"]


def test_without_vertical_rules_columns_come_from_gaps(tmp_path: Path) -> None:
    """Horizontal rules only: the gaps are all there is, and the first columns come out as before."""
    (t,) = parse_pdf(figure_letters_table_pdf(tmp_path / "t.pdf", vertical_rules=False), use_ocr=False).tables()
    grid = t.origin_grid()
    assert [row[:3] for row in grid] == [["구분", "폭두께비", "한계값"], ["1", "b/t", "0.56"], ["2", "d/t", "0.75"]]


def _header() -> Fragment:
    """"세장판이 없는 경우" over columns 1 and 2, its word gap right over their boundary (x = 220)."""
    spans = [(0, 4, (186.0, 100.0, 218.0, 109.0)), (5, 7, (222.0, 100.0, 238.0, 109.0)),
             (8, 10, (241.0, 100.0, 257.0, 109.0))]
    return Fragment("세장판이 없는 경우", spans, 186.0, 100.0, 257.0, 109.0, 9.0, (1, 2))


BOUNDS = [(70.0, 140.0), (140.0, 220.0), (220.0, 330.0)]


def test_cell_over_two_columns_is_split_only_where_a_rule_crosses_it() -> None:
    below = [VRule(220.0, 115.0, 250.0)]  # the rule between the sub-columns starts under the header
    assert [(p.text, p.cols) for p in _split_ruled(_header(), BOUNDS, below)] == [("세장판이 없는 경우", (1, 2))]
    across = [VRule(220.0, 90.0, 250.0)]
    assert [(p.text, p.cols) for p in _split_ruled(_header(), BOUNDS, across)] == [("세장판이", (1, 1)),
                                                                                   ("없는 경우", (2, 2))]


def test_vertical_rules_are_hairline_strokes() -> None:
    log = [
        ("stroke-path", (140.0, 170.0, 140.0, 250.0)),  # a rule
        ("stroke-path", (220.2, 170.0, 220.5, 250.0)),  # a rule with its line width
        ("fill-path", (300.0, 170.0, 300.8, 250.0)),  # a filled stroke of a glyph or the watermark
        ("stroke-path", (330.0, 200.0, 330.0, 205.0)),  # too short: a tick of a drawing
        ("stroke-path", (400.0, 170.0, 404.0, 250.0)),  # too wide
    ]
    assert [(v.x, v.y0, v.y1) for v in vertical_rules(log)] == [(140.0, 170.0, 250.0), (220.35, 170.0, 250.0)]
