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


def _glyphs(page: object, x: float, base: float, n: int) -> None:
    """``n`` filled glyph-like shapes standing on ``base``: a Korean word drawn as outlines (no text layer)."""
    import pymupdf

    for i in range(n):
        h = 8.0 - 0.4 * (i % 3)
        rect = pymupdf.Rect(x, base - h, x + 7.0 - 0.3 * (i % 2), base)  # type: ignore[no-untyped-call]
        page.draw_rect(rect, color=None, fill=(0, 0, 0))  # type: ignore[attr-defined]
        x += 7.6


def stacked_rows_pdf(path: Path) -> Path:
    """Two captioned tables with no rule between their body lines: in 표 3.1-1 every column has text on both lines
    (two rows: 항복강도/인장강도 beside 640/800 …); in 표 3.1-2 only the first column has a second line (one row
    whose first cell wraps)."""
    import pymupdf

    doc: Any = pymupdf.open()  # type: ignore[no-untyped-call]
    page = doc.new_page(width=595, height=842)
    _frame(page, 1)
    _text(page, LEFT, 100, "3 재료", 13)
    _text(page, 80, 125, "(1) 볼트의 강도는 표 3.1-1과 표 3.1-2에 따른다.")
    for cap, y, body in (
        ("표 3.1-1 볼트의 재료강도(MPa)", 160.0, [("항복강도", "640", "900"), ("인장강도", "800", "1000")]),
        ("표 3.1-2 볼트의 설계강도(MPa)", 300.0, [("설계기준", "560", "700"), ("강도", "", "")]),
    ):
        _text(page, 220, y, cap)
        page.draw_line((LEFT, y + 10), (RIGHT, y + 10), width=0.9)
        for x, t in zip(COLS, ("구분", "F8T", "F10T"), strict=True):
            _text(page, x, y + 25, t, 9)
        page.draw_line((LEFT, y + 31), (RIGHT, y + 31), width=0.6)
        for k, row in enumerate(body):
            for x, t in zip(COLS, row, strict=True):
                if t:
                    _text(page, x, y + 46 + 12 * k, t, 9)
        page.draw_line((LEFT, y + 64), (RIGHT, y + 64), width=0.9)
    doc.save(path)
    doc.close()
    return path


def outlined_table_pdf(path: Path) -> Path:
    """표 4.1-1 whose Korean labels are drawn as outlines: only the digits beside them (row numbers, "0.85", brackets)
    have a text layer; then a readable 표 4.1-2."""
    import pymupdf

    doc: Any = pymupdf.open()  # type: ignore[no-untyped-call]
    page = doc.new_page(width=595, height=842)
    _frame(page, 1)
    _text(page, LEFT, 100, "4 설계", 13)
    _text(page, 80, 125, "(1) 감소계수는 표 4.1-1에 따른다.")
    _text(page, 220, 160, "표 4.1-1 감소계수")
    page.draw_line((LEFT, 170), (RIGHT, 170), width=0.9)
    _glyphs(page, COLS[0], 188, 2)
    _glyphs(page, COLS[1], 188, 3)
    _text(page, COLS[1] + 26, 188, "( )", 9)
    _glyphs(page, COLS[2], 188, 2)
    page.draw_line((LEFT, 194), (RIGHT, 194), width=0.6)
    for k, (no, value) in enumerate((("1", "0.85"), ("2", "0.75"), ("3", "0.65"))):
        base = 210 + 16 * k
        _text(page, COLS[0], base, f"{no}.)", 9)
        _glyphs(page, COLS[0] + 16, base, 3)
        _glyphs(page, COLS[1], base, 4)
        _text(page, COLS[2], base, value, 9)
    page.draw_line((LEFT, 250), (RIGHT, 250), width=0.9)
    _text(page, 220, 290, "표 4.1-2 저항계수")
    _rows(page, 300, [("구분", "계수", "비고"), ("인장", "0.90", "-"), ("압축", "0.85", "-")], COLS, header=True)
    doc.save(path)
    doc.close()
    return path


FIGURE_COLS = (80.0, 150.0, 230.0)  # text of the first three columns; the fourth holds a drawing's letters
FIGURE_RULES = (140.0, 220.0, 330.0)  # the vertical rules between the columns, where they are drawn


def figure_letters_table_pdf(path: Path, *, vertical_rules: bool) -> Path:
    """표 4.2-9 whose last column ("예") holds a section drawing: its letters (b, t, h) are text, far apart, wider
    apart than the columns' own text. With ``vertical_rules`` the columns are also parted by drawn vertical rules
    (as the KCSC PDFs draw them); without, horizontal rules only (as 한글 exports)."""
    import pymupdf

    doc: Any = pymupdf.open()  # type: ignore[no-untyped-call]
    page = doc.new_page(width=595, height=842)
    _frame(page, 1)
    _text(page, LEFT, 100, "4 설계", 13)
    _text(page, 80, 125, "(1) 판요소의 폭두께비는 표 4.2-9에 따른다.")
    _text(page, 220, 160, "표 4.2-9 판요소의 폭두께비")
    top, bottom = 170.0, 250.0
    page.draw_line((LEFT, top), (RIGHT, top), width=0.9)
    for x, t in zip((*FIGURE_COLS, 420.0), ("구분", "폭두께비", "한계값", "예"), strict=True):
        _text(page, x, 188, t, 9)
    page.draw_line((LEFT, 194), (RIGHT, 194), width=0.6)
    body = [(("1", "b/t", "0.56"), ((345.0, -3.0, "b"), (390.0, 0.0, "t"), (470.0, 3.0, "h"))),
            (("2", "d/t", "0.75"), ((360.0, 2.0, "t"), (440.0, -2.0, "d")))]
    for k, (cells, letters) in enumerate(body):
        base = 214 + 28 * k
        for x, t in zip(FIGURE_COLS, cells, strict=True):
            _text(page, x, base, t, 9)
        for x, dy, t in letters:  # the drawing's letters stand at its parts' heights, not on the row's baseline
            _text(page, x, base + dy, t, 8)
        page.draw_line((LEFT, base + 8), (RIGHT, base + 8), width=0.6 if k == 0 else 0.9)
    if vertical_rules:
        for x in FIGURE_RULES:
            page.draw_line((x, top), (x, bottom), width=0.36)
    _text(page, 80, 280, "(2) 표의 값은 한계값이다.")
    doc.save(path)
    doc.close()
    return path


PARTIAL_COLS = (100.0, 190.0, 330.0, 420.0)  # left edges: 구조물, 구분, 단계, 저항계수


def partial_rule_table_pdf(path: Path) -> Path:
    """표 4.5-9 whose 구분 cell "휨모멘트와 압축력에 의한 / 소성힌지" stands over two rows of the 단계 column ("시공 중"
    / "완공 후"): the rule between those rows is drawn under the last two columns only (as KCSC draws merged cells).
    The other rows have full rules."""
    import pymupdf

    doc: Any = pymupdf.open()  # type: ignore[no-untyped-call]
    page = doc.new_page(width=595, height=842)
    _frame(page, 1)
    _text(page, LEFT, 100, "4 설계", 13)
    _text(page, 80, 125, "(1) 저항계수는 표 4.5-9에 따른다.")
    _text(page, 220, 160, "표 4.5-9 저항계수")
    page.draw_line((LEFT, 170), (RIGHT, 170), width=0.9)
    for x, t in zip(PARTIAL_COLS, ("구조물", "구분", "단계", "저항계수"), strict=True):
        _text(page, x, 186, t, 9)
    page.draw_line((LEFT, 192), (RIGHT, 192), width=0.6)
    _text(page, PARTIAL_COLS[1], 208, "압축강도", 9)
    _text(page, PARTIAL_COLS[3], 208, "0.80", 9)
    page.draw_line((180.0, 214), (RIGHT, 214), width=0.6)
    _text(page, PARTIAL_COLS[0], 242, "아치형", 9)
    _text(page, PARTIAL_COLS[1], 230, "휨모멘트와 압축력에 의한", 9)
    _text(page, PARTIAL_COLS[2], 230, "시공 중", 9)
    _text(page, PARTIAL_COLS[3], 230, "0.90", 9)
    page.draw_line((320.0, 236), (RIGHT, 236), width=0.6)  # under the last two columns only
    _text(page, PARTIAL_COLS[1], 252, "소성힌지", 9)
    _text(page, PARTIAL_COLS[2], 252, "완공 후", 9)
    _text(page, PARTIAL_COLS[3], 252, "0.85", 9)
    page.draw_line((180.0, 258), (RIGHT, 258), width=0.6)
    _text(page, PARTIAL_COLS[1], 274, "이음부강도", 9)
    _text(page, PARTIAL_COLS[3], 274, "0.70", 9)
    page.draw_line((LEFT, 280), (RIGHT, 280), width=0.9)
    for x in (180.0, 320.0, 410.0):
        page.draw_line((x, 170), (x, 280), width=0.36)
    _text(page, 80, 310, "(2) 표의 값은 공칭값이다.")
    doc.save(path)
    doc.close()
    return path


JUSTIFIED_CELL = ("양측면에", "거셋플레이", "트가 있는 경우")


def justified_cell_table_pdf(path: Path) -> Path:
    """표 4.1-1 whose second cell of a row has a justified first line with a word space wider than 0.8 × size
    ("양측면에  거셋플레이"), continued by a line that starts 0.2 pt further left ("트가 있는 경우"); vertical and
    horizontal rules, the other cells one line each."""
    import pymupdf

    doc: Any = pymupdf.open()  # type: ignore[no-untyped-call]
    page = doc.new_page(width=595, height=842)
    _frame(page, 1)
    _text(page, 80, 125, "(1) 계수는 표 4.1-1에 따른다.")
    _text(page, 220, 160, "표 4.1-1 전단뒤짐계수")
    page.draw_line((LEFT, 170), (RIGHT, 170), width=0.9)
    for x, t in ((100.0, "사례"), (190.0, "요소 설명"), (330.0, "계수")):
        _text(page, x, 186, t, 9)
    page.draw_line((LEFT, 192), (RIGHT, 192), width=0.6)
    first, second, third = JUSTIFIED_CELL
    _text(page, 100.0, 214, "6", 9)
    _text(page, 190.0, 208, first, 9)
    _text(page, 190.0 + 9 * len(first) + 8.5, 208, second, 9)
    x = 189.8
    for word in third.split():  # word spaces of 0.3 × size (the font's own space is a full em)
        _text(page, x, 222, word, 9)
        x += 9 * len(word) + 2.7
    _text(page, 330.0, 214, "0.90", 9)
    page.draw_line((LEFT, 230), (RIGHT, 230), width=0.6)
    _text(page, 100.0, 246, "7", 9)
    _text(page, 190.0, 246, "H형강", 9)
    _text(page, 330.0, 246, "0.85", 9)
    page.draw_line((LEFT, 254), (RIGHT, 254), width=0.9)
    for x in (180.0, 320.0):
        page.draw_line((x, 170), (x, 254), width=0.36)
    _text(page, 80, 290, "(2) 표의 값은 공칭값이다.")
    doc.save(path)
    doc.close()
    return path
