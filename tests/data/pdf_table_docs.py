"""Synthetic HWP-style PDFs with a table cut by a page break (PyMuPDF; Korean in the built-in ``korea`` font).

``continued_table_pdf`` draws a captioned three-column table with horizontal rules only that fills the end of page 1
and goes on at the top of page 2 — its header row repeated or not — followed by a paragraph; variants put a
paragraph between the two parts, give the second part other columns, or a caption (its own, or the first part's
again with "(계속)").
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.data.pdf_docs import LEFT, RIGHT, _text

COLS = (90.0, 250.0, 400.0)  # left edges of the three columns' text
HEADER = ("강재 종류", "항복강도(MPa)", "인장강도(MPa)")
ROWS_1 = [(f"SS{235 + 40 * i}", str(235 + 40 * i), str(400 + 50 * i)) for i in range(6)]
ROWS_2 = [(f"SM{275 + 40 * i}", str(275 + 40 * i), str(410 + 50 * i)) for i in range(4)]


def _frame(page: object, number: int) -> None:
    _text(page, LEFT, 45, "KDS 99 99 98 : 2024 시험 강구조 설계기준", 8)
    page.draw_line((LEFT, 55), (RIGHT, 55), width=0.4)  # type: ignore[attr-defined]
    _text(page, 285, 810, f"- {number} -", 9)


def _rows(page: object, y: float, rows: list[tuple[str, ...]], cols: tuple[float, ...], header: bool) -> float:
    """Rules above the first row, under the header and under the last row; one text line per row."""
    page.draw_line((LEFT, y), (RIGHT, y), width=0.9)  # type: ignore[attr-defined]
    y += 16
    for i, row in enumerate(rows):
        for x, t in zip(cols, row, strict=True):
            _text(page, x, y, t, 9)
        if i == 0 and header:
            page.draw_line((LEFT, y + 6), (RIGHT, y + 6), width=0.6)  # type: ignore[attr-defined]
        y += 18
    page.draw_line((LEFT, y - 10), (RIGHT, y - 10), width=0.9)  # type: ignore[attr-defined]
    return y


def continued_table_pdf(
    path: Path, *, repeat_header: bool = True, text_between: bool = False, other_columns: bool = False,
    caption2: str = "",
) -> Path:
    import pymupdf

    doc: Any = pymupdf.open()  # type: ignore[no-untyped-call]
    p1 = doc.new_page(width=595, height=842)
    _frame(p1, 1)
    _text(p1, LEFT, 100, "2 재료", 13)
    _text(p1, LEFT, 130, "2.1 강재", 12)
    _text(p1, 80, 155, "(1) 구조용 강재의 강도는 표 2.1-1에 따른다.")
    filler = "이 문단은 표를 쪽의 끝으로 밀어내기 위하여 넣은 긴 문장으로서 여러 줄에 걸쳐 쓴다"
    for k in range(18):
        _text(p1, 80, 180 + 17 * k, f"({k + 2}) {filler}.")
    _text(p1, 220, 600, "표 2.1-1 구조용 강재의 강도")
    _rows(p1, 612, [HEADER, *ROWS_1], COLS, header=True)
    if text_between:
        _text(p1, 80, 760, "(20) 표의 값은 공칭값이다.")
    p2 = doc.new_page(width=595, height=842)
    _frame(p2, 2)
    y = 100.0
    if caption2:
        _text(p2, 220, y, caption2)
        y += 12
    cols = (90.0, 200.0, 330.0, 450.0) if other_columns else COLS
    rows: list[tuple[str, ...]] = [(*r, "-") for r in ROWS_2] if other_columns else list(ROWS_2)
    head: list[tuple[str, ...]] = [(*HEADER, "비고")] if other_columns else [HEADER]
    y = _rows(p2, y, [*head, *rows] if repeat_header else rows, cols, header=repeat_header)
    _text(p2, 80, y + 20, "(21) 용접 구조용 강재는 용접성을 확인한 것을 쓴다.")
    doc.save(path)
    doc.close()
    return path
