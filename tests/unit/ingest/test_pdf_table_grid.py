"""Columns and rows of a PDF table (``pdf_table_grid``): a cell over two columns is split only where a vertical rule
crosses it, or where a gap a little wider than a word space holds a column boundary; a line centred under a header
cell is its next line, a row of lines straddling it are sub-headers."""

from __future__ import annotations

from kdsdesk.ingest.pdf_table_geometry import Fragment, VRule
from kdsdesk.ingest.pdf_table_grid import _split_at_boundary, split_ruled, sub_header


def _header() -> Fragment:
    """"세장판이 없는 경우" over columns 1 and 2, its word gap right over their boundary (x = 220)."""
    spans = [(0, 4, (186.0, 100.0, 218.0, 109.0)), (5, 7, (222.0, 100.0, 238.0, 109.0)),
             (8, 10, (241.0, 100.0, 257.0, 109.0))]
    return Fragment("세장판이 없는 경우", spans, 186.0, 100.0, 257.0, 109.0, 9.0, (1, 2))


BOUNDS = [(70.0, 140.0), (140.0, 220.0), (220.0, 330.0)]


def test_cell_over_two_columns_is_split_only_where_a_rule_crosses_it() -> None:
    below = [VRule(220.0, 115.0, 250.0)]  # the rule between the sub-columns starts under the header
    assert [(p.text, p.cols) for p in split_ruled(_header(), BOUNDS, below)] == [("세장판이 없는 경우", (1, 2))]
    across = [VRule(220.0, 90.0, 250.0)]
    assert [(p.text, p.cols) for p in split_ruled(_header(), BOUNDS, across)] == [("세장판이", (1, 1)),
                                                                                  ("없는 경우", (2, 2))]


def test_header_words_apart_across_a_column_boundary_are_separate_cells() -> None:
    """"기호 SS235 SS275" on one header line over three columns (gaps a little wider than a word space) is three
    cells; a cell merged over two columns, its words a word space apart, stays whole."""
    bounds = [(109.0, 156.0), (156.0, 188.0), (188.0, 223.0)]
    spans = [(0, 2, (135.0, 0.0, 152.0, 9.0)), (3, 8, (158.0, 0.0, 185.0, 9.0)), (9, 14, (192.0, 0.0, 218.0, 9.0))]
    f = Fragment("기호 SS235 SS275", spans, 135.0, 0.0, 218.0, 9.0, 9.0, (0, 2))
    assert [(p.text, p.cols) for p in _split_at_boundary(f, bounds)] == [("기호", (0, 0)), ("SS235", (1, 1)),
                                                                        ("SS275", (2, 2))]
    merged = [(0, 4, (120.0, 0.0, 152.0, 9.0)), (5, 7, (154.5, 0.0, 170.0, 9.0)), (8, 10, (172.5, 0.0, 186.0, 9.0))]
    g = Fragment("세장판이 없는 경우", merged, 120.0, 0.0, 186.0, 9.0, 9.0, (0, 1))
    assert [p.text for p in _split_at_boundary(g, bounds)] == ["세장판이 없는 경우"]


def _frag(text: str, x0: float, y0: float, x1: float, size: float = 9.0) -> Fragment:
    return Fragment(text, [(0, len(text), (x0, y0, x1, y0 + 8.0))], x0, y0, x1, y0 + 8.0, size)


def test_header_lines_of_one_cell_are_not_sub_headers() -> None:
    """In the header band (no rule between its lines) a line centred under another is that cell's next line, even
    with another column's label on its baseline; a row of sub-headers straddling the header above is not."""
    above = _frag("세장판이 없는 경우", 200.0, 100.0, 280.0)
    second = _frag("(비세장판 단면)", 206.0, 114.0, 274.0)
    label = _frag("단면", 100.0, 114.0, 118.0)  # the first column's label, centred in the whole header
    assert not sub_header(second, above, [above, second, label])
    grade = _frag("설계볼트장력 T_o(kN)", 330.0, 100.0, 420.0)
    subs = [_frag("F8T", 270.0, 114.0, 290.0), _frag("F10T", 365.0, 114.0, 385.0), _frag("F13T", 460.0, 114.0, 485.0)]
    assert sub_header(subs[1], grade, [grade, *subs])
    corner = _frag("볼트 등급", 200.0, 100.0, 240.0)  # a diagonally split corner cell: its lower half on the left
    lower = _frag("최소 강도", 100.0, 114.0, 140.0)
    assert not sub_header(lower, corner, [corner, lower])
