"""PDF tables with drawn vertical rules (the KCSC PDFs draw them, 한글's own export does not): a gap between cell
texts is a column boundary only where a vertical rule stands in it, so the far-apart letters of a section drawing in
a cell stay that one cell (a figure cell: only single letters spread over it, kept empty). A cell over two
columns split only where a rule crosses it: ``test_pdf_table_grid``; which strokes are rules:
``test_pdf_table_geometry``."""

from __future__ import annotations

from pathlib import Path

from kdsdesk.ingest.pdf import parse_pdf
from kdsdesk.ingest.pdf_table_geometry import Fragment
from kdsdesk.ingest.pdf_tables import _figure_letters
from tests.data.pdf_table_docs import figure_letters_table_pdf


def test_figure_letters_stay_in_their_ruled_cell(tmp_path: Path) -> None:
    """The drawing's letters make no columns of their own; their one cell is a figure cell, kept empty."""
    (t,) = parse_pdf(figure_letters_table_pdf(tmp_path / "t.pdf", vertical_rules=True), use_ocr=False).tables()
    assert t.origin_grid() == [["구분", "폭두께비", "한계값", "예"], ["1", "b/t", "0.56", ""], ["2", "d/t", "0.75", ""]]


def test_without_vertical_rules_columns_come_from_gaps(tmp_path: Path) -> None:
    """Horizontal rules only: the gaps are all there is, and the first columns come out as before."""
    (t,) = parse_pdf(figure_letters_table_pdf(tmp_path / "t.pdf", vertical_rules=False), use_ocr=False).tables()
    grid = t.origin_grid()
    assert [row[:3] for row in grid] == [["구분", "폭두께비", "한계값"], ["1", "b/t", "0.56"], ["2", "d/t", "0.75"]]


def _cell(text: str, rects: list[tuple[float, float, float, float]]) -> Fragment:
    spans, n = [], 0
    for word, rect in zip(text.split(), rects, strict=True):
        spans.append((n, n + len(word), rect))
        n += len(word) + 1
    return Fragment(text, spans, rects[0][0], min(r[1] for r in rects), rects[-1][2], max(r[3] for r in rects), 8.0)


def test_figure_cell_is_single_letters_spread_over_the_cell() -> None:
    """Letters of a drawing stand at its parts: on different lines, or far apart on one."""
    assert _figure_letters(_cell("b t h", [(400, 100, 404, 108), (420, 112, 424, 120), (450, 104, 454, 112)]))
    assert _figure_letters(_cell("t_w h", [(400, 100, 407, 108), (440, 100, 444, 108)]))
    assert _figure_letters(_cell("H B", [(400, 100, 406, 108), (400, 130, 406, 138)]))


def test_symbols_words_and_close_letters_are_no_figure() -> None:
    """Text of a cell: one letter, a ratio, grade names, letters written next to each other on one line."""
    assert not _figure_letters(_cell("D", [(400, 100, 406, 108)]))
    assert not _figure_letters(_cell("b/t", [(400, 100, 412, 108)]))
    assert not _figure_letters(_cell("F8T F10T", [(400, 100, 416, 108), (420, 100, 440, 108)]))
    assert not _figure_letters(_cell("x y", [(400, 100, 404, 108), (407, 100, 411, 108)]))
    assert not _figure_letters(_cell("H형강 T형강", [(400, 100, 420, 108), (400, 112, 420, 120)]))
