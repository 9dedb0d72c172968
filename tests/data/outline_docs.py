"""PDFs whose Korean lettering is drawn as filled vector outlines (no text layer), as KCSC's exports draw table labels
and captions, and PDFs of scanned pages (an image, no text at all).

``outline_text(page, text, x, y, size)`` draws ``text`` glyph by glyph as filled paths taken from PyMuPDF's built-in
Korean font (read with fontTools): what OCR has to read. ``outlined_table_pdf`` writes a KDS-style table — caption
number in the text layer, its title and the Korean row labels as outlines, values as text, horizontal rules only.
``scanned_pdf`` writes pages that are one grey image each of rendered Korean text.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

from fontTools.pens.basePen import BasePen
from fontTools.ttLib import TTFont

CAPTION_TITLE = "인장재 접합부의 계수"
ROWS = (("강재의 종류", "0.90"), ("용접 이음부", "0.85"), ("볼트 접합", "0.75"))
HEADER = ("구분", "계수")


@cache
def _font() -> Any:
    import pymupdf

    return TTFont(io.BytesIO(pymupdf.Font("korea").buffer))


class _ShapePen(BasePen):  # type: ignore[misc]
    """fontTools pen drawing into a PyMuPDF Shape (font units → points, y flipped at the baseline)."""

    def __init__(self, glyphs: Any, shape: Any, x: float, y: float, scale: float) -> None:
        super().__init__(glyphs)
        self.shape, self.x, self.y, self.scale = shape, x, y, scale
        self.cur: Any = None
        self.start: Any = None

    def _p(self, pt: tuple[float, float]) -> Any:
        import pymupdf

        return pymupdf.Point(self.x + pt[0] * self.scale, self.y - pt[1] * self.scale)

    def _moveTo(self, pt: tuple[float, float]) -> None:
        self.cur = self.start = self._p(pt)

    def _lineTo(self, pt: tuple[float, float]) -> None:
        p = self._p(pt)
        self.shape.draw_line(self.cur, p)
        self.cur = p

    def _curveToOne(self, a: tuple[float, float], b: tuple[float, float], c: tuple[float, float]) -> None:
        p = self._p(c)
        self.shape.draw_bezier(self.cur, self._p(a), self._p(b), p)
        self.cur = p

    def _closePath(self) -> None:
        if self.cur is not None and self.start is not None and self.cur != self.start:
            self.shape.draw_line(self.cur, self.start)
        self.cur = self.start


def outline_text(page: Any, text: str, x: float, y: float, size: float = 10.0) -> float:
    """Draw ``text`` on ``page`` from baseline point (x, y) as one filled path per glyph; the x after it."""
    font = _font()
    cmap = font.getBestCmap()
    glyphs = font.getGlyphSet()
    scale = size / font["head"].unitsPerEm
    for ch in text:
        name = cmap.get(ord(ch))
        if name is None:
            continue
        if not ch.isspace():
            shape = page.new_shape()
            glyphs[name].draw(_ShapePen(glyphs, shape, x, y, scale))
            shape.finish(fill=(0, 0, 0), color=None, even_odd=True, closePath=True)
            shape.commit()
        x += glyphs[name].width * scale
    return x


def _rule(page: Any, x0: float, x1: float, y: float) -> None:
    import pymupdf

    page.draw_line(pymupdf.Point(x0, y), pymupdf.Point(x1, y), color=(0, 0, 0), width=0.5)


def outlined_table_pdf(path: Path, *, number: str = "4.1-1", size: float = 10.0) -> Path:
    """A body paragraph, then ``표 <number> CAPTION_TITLE`` (number as text, "표" and the title as outlines) over a
    ruled 2-column table whose header and row labels are outlines and whose values are text."""
    import pymupdf

    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((72, 100), "(1) 인장재의 계수는 표에 따른다.", fontname="korea", fontsize=size)
    cap_y = 140.0
    x = outline_text(page, "표", 200, cap_y, size)
    page.insert_text((x + 3, cap_y), number, fontname="helv", fontsize=size)
    outline_text(page, CAPTION_TITLE, x + 3 + pymupdf.get_text_length(number, "helv", size) + 4, cap_y, size)
    x0, x1, mid = 150.0, 450.0, 330.0
    y = 150.0
    _rule(page, x0, x1, y)
    outline_text(page, HEADER[0], 210, y + 16, size)
    outline_text(page, HEADER[1], 375, y + 16, size)
    y += 24
    _rule(page, x0, x1, y)
    for label, value in ROWS:
        outline_text(page, label, 170, y + 16, size)
        page.insert_text((375, y + 16), value, fontname="helv", fontsize=size)
        y += 24
        _rule(page, x0, x1, y)
    page.insert_text((72, y + 30), "(2) 표의 값은 설계에 적용한다.", fontname="korea", fontsize=size)
    _ = mid
    doc.save(path)
    doc.close()
    return path


SCAN_LINES = ("1. 일반사항", "(1) 이 기준은 강구조 부재의 설계에 적용한다.", "(2) 강재의 항복강도는 275 MPa이다.")


def scanned_pdf(path: Path, lines: Sequence[str] = SCAN_LINES, dpi: int = 300) -> Path:
    """One page that is only an image: ``lines`` rendered at ``dpi`` in grey, placed over the whole page."""
    import pymupdf

    src = pymupdf.open()
    page = src.new_page(width=595, height=842)
    for k, line in enumerate(lines):
        page.insert_text((72, 100 + 24 * k), line, fontname="korea", fontsize=12)
    pix = page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY)
    src.close()
    doc = pymupdf.open()
    out = doc.new_page(width=595, height=842)
    out.insert_image(out.rect, stream=pix.tobytes("png"))
    doc.save(path)
    doc.close()
    return path


VERTICAL_LABEL = "자유돌출판"
VERTICAL_ROWS = (("압연 H형강의 플랜지", "0.56"), ("용접 H형강의 플랜지", "0.64"), ("T형강의 스템", "0.75"))


def vertical_label_table_pdf(path: Path, *, size: float = 10.0, picture: float = 0.0) -> Path:
    """표 4.2-2 with a first column whose label is written downwards, one outlined syllable under the other, in one
    cell beside three rows (the rules between those rows are drawn under the other columns only); the header is
    outlined too, the rows' labels and values are text. ``picture``: the label also placed as an image of itself
    that many points lower (한글 exports some labels so)."""
    import pymupdf

    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((72, 100), "(1) 판요소의 폭두께비는 표 4.2-2에 따른다.", fontname="korea", fontsize=size)
    page.insert_text((220, 140), "표 4.2-2 폭두께비", fontname="korea", fontsize=size)
    x0, x1, inner = 90.0, 450.0, 104.0  # a first column narrower than 5 % of the table
    y = 150.0
    _rule(page, x0, x1, y)
    outline_text(page, "판요소의 설명", 150, y + 16, size)
    outline_text(page, "한계값", 380, y + 16, size)
    y += 24
    _rule(page, x0, x1, y)
    top = y
    for k, (label, value) in enumerate(VERTICAL_ROWS):
        page.insert_text((115, y + 16), label, fontname="korea", fontsize=size)
        page.insert_text((380, y + 16), value, fontname="helv", fontsize=size)
        y += 24
        _rule(page, inner if k < len(VERTICAL_ROWS) - 1 else x0, x1, y)
    pitch = (y - top) / len(VERTICAL_LABEL)
    for k, ch in enumerate(VERTICAL_LABEL):
        outline_text(page, ch, 92, top + pitch * k + 0.5 * pitch + 0.4 * size, size)
    if picture:
        area = pymupdf.Rect(91.0, top + 1.0, 103.0, y - 1.0)
        pix = page.get_pixmap(dpi=300, clip=area, colorspace=pymupdf.csGRAY)
        lower = pymupdf.Rect(area.x0, area.y0 + picture, area.x1, area.y1 + picture)
        page.insert_image(lower, stream=pix.tobytes("png"))
    for x in (x0, inner, 360.0, x1):
        page.draw_line(pymupdf.Point(x, 150.0), pymupdf.Point(x, y), color=(0, 0, 0), width=0.36)
    page.insert_text((72, y + 30), "(2) 표의 값은 설계에 적용한다.", fontname="korea", fontsize=size)
    doc.save(path)
    doc.close()
    return path


TOUCHING_LABELS = ("형강, 강관", "판재, 형강")


def touching_comma_table_pdf(path: Path, *, size: float = 10.0) -> Path:
    """A ruled 2-column table whose row labels are outlined words parted by a comma of the text layer set tight
    against the syllable before it: the comma's box (its advance) starts 0.3 pt inside that syllable's ink, as in
    KCSC's "ㄱ형강, T형강"; the values are text."""
    import pymupdf

    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((72, 100), "(1) 부재의 계수는 표 4.1-1에 따른다.", fontname="korea", fontsize=size)
    page.insert_text((220, 140), "표 4.1-1 부재의 계수", fontname="korea", fontsize=size)
    x0, x1 = 150.0, 450.0
    y = 150.0
    _rule(page, x0, x1, y)
    page.insert_text((210, y + 16), "부재", fontname="korea", fontsize=size)
    page.insert_text((375, y + 16), "계수", fontname="korea", fontsize=size)
    y += 24
    _rule(page, x0, x1, y)
    for label, value in zip(TOUCHING_LABELS, ("0.90", "0.85"), strict=True):
        first, second = label.split(", ")
        outline_text(page, first, 170, y + 16, size)
        ink = max(
            d["rect"].x1 for d in page.get_drawings() if d["rect"].width < size and y < d["rect"].y0 < y + 17
        )
        page.insert_text((ink - 0.3, y + 16), ",", fontname="helv", fontsize=size)
        outline_text(page, second, ink + 0.3 * size, y + 16, size)
        page.insert_text((375, y + 16), value, fontname="helv", fontsize=size)
        y += 24
        _rule(page, x0, x1, y)
    page.insert_text((72, y + 30), "(2) 표의 값은 설계에 적용한다.", fontname="korea", fontsize=size)
    doc.save(path)
    doc.close()
    return path
