"""Synthetic HWP-style PDFs for the PDF parser's tests (PyMuPDF; Korean in the built-in ``korea`` font).

- ``standard_pdf``: running header and footer with page numbers, numbered headings (larger, as 한글 sets them),
  item paragraphs wrapped the way 한글 wraps them (a word break keeps its trailing space, a break inside a word
  has none), a captioned table drawn with horizontal rules only (one filled thin rectangle, two lines), and a
  paragraph that continues on the next page.
- ``encrypted_pdf``, ``truncated_pdf``, ``scanned_pdf``: hostile or unreadable inputs.
"""

from __future__ import annotations

from pathlib import Path

LEFT, RIGHT = 70.0, 525.0
BODY = 10.0

_HEADER = "KDS 99 99 99 : 2024 시험 구조 설계기준"


def _text(page: object, x: float, y: float, text: str, size: float = BODY) -> None:
    page.insert_text((x, y), text, fontname="korea", fontsize=size)  # type: ignore[attr-defined]


def standard_pdf(path: Path, n_pages: int = 3) -> Path:
    import pymupdf

    doc = pymupdf.open()
    for i in range(n_pages):
        page = doc.new_page(width=595, height=842)
        _text(page, LEFT, 45, _HEADER, 8)
        page.draw_line((LEFT, 55), (RIGHT, 55), width=0.4)
        _text(page, 285, 810, f"- {i + 1} -", 9)
        if i == 0:
            _text(page, LEFT, 100, "1 일반사항", 13)
            _text(page, LEFT, 130, "1.1 목적", 12)
            # a paragraph of three lines: word break (trailing space) then a break inside the word 강도를
            _text(page, 80, 155, "(1) 이 기준은 시험 구조물의 설계에 필요한 최소한의 요구 사항을 규정하며 설계 ")
            _text(page, 80, 172, "자는 이 기준에 따라 부재의 강도와 사용성을 검토하여야 한다. 다만 아주 특별한 강")
            _text(page, 80, 189, "도를 요구하는 경우에는 별도로 정한다.")
            _text(page, 80, 210, "(2) 이 기준에 규정하지 않은 사항은 관련 기준에 따른다.")
            _text(page, LEFT, 240, "1.2 적용 범위", 12)
            _text(page, 220, 265, "표 1.2-1 하중계수의 예")
            page.draw_rect(pymupdf.Rect(LEFT, 275, RIGHT, 276), color=None, fill=(0, 0, 0))
            _text(page, 100, 290, "하중 종류", 9)
            _text(page, 300, 290, "계수", 9)
            page.draw_line((LEFT, 296), (RIGHT, 296), width=0.6)
            _text(page, 100, 312, "고정하중", 9)
            _text(page, 300, 312, "1.2", 9)
            _text(page, 100, 330, "활하중", 9)
            _text(page, 300, 330, "1.6", 9)
            page.draw_line((LEFT, 338), (RIGHT, 338), width=0.9)
            _text(page, 80, 365, "(1) 하중계수는 표 1.2-1에 따른다.")
            _text(page, 80, 790, "(2) 이 문장은 쪽의 끝에서 시작하여 다음 쪽으로 이어지는 문단으로서 줄의 끝까지 채워 ")
        elif i == 1:
            _text(page, 80, 100, "쓴 것이다.")
            _text(page, LEFT, 130, "2 재료", 13)
            _text(page, 80, 155, "(1) 재료는 품질 기준을 만족하여야 한다.")
        else:
            _text(page, LEFT, 100, "3 설계", 13)
            line = "(1) 설계는 한계상태설계법에 따르며 하중과 저항의 조합은 이 기준의 규정에 따라 검토한 "
            _text(page, 80, 125, line)
            _text(page, 80, 142, "다.")
    doc.save(path)
    doc.close()
    return path


def encrypted_pdf(path: Path) -> Path:
    import pymupdf

    doc = pymupdf.open()
    _text(doc.new_page(), LEFT, 100, "암호로 보호된 문서")
    doc.save(path, encryption=pymupdf.PDF_ENCRYPT_AES_256, owner_pw="owner", user_pw="user")
    doc.close()
    return path


def truncated_pdf(path: Path, keep: float = 0.4) -> Path:
    full = standard_pdf(path.with_name(path.stem + "-full.pdf"))
    data = full.read_bytes()
    path.write_bytes(data[: int(len(data) * keep)])
    return path


def scanned_pdf(path: Path) -> Path:
    """Pages that are only an image (a scan): no text layer at all."""
    import pymupdf

    pix = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 60, 80), False)
    pix.clear_with(200)
    doc = pymupdf.open()
    for _ in range(2):
        page = doc.new_page(width=595, height=842)
        page.insert_image(page.rect, pixmap=pix)
    doc.save(path)
    doc.close()
    return path
