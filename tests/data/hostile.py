"""Hostile and odd inputs, generated at test time (all small): what a careless user, a crash or a crafted file
hands the app. Each builder writes one file and returns its path.

- PDF: a ToUnicode map to a lone surrogate (U+D800); a page tree that loops; bytes after ``%%EOF``; a text file that
  mentions ``%PDF``.
- HWPX: one cell claiming a 3000×3000 span; cells at a 30000×30000 address; an ordinary 600×12 table; a section
  in UTF-16 with its byte-order mark.
- Packs: a member that inflates far beyond its compressed size.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

from tests.data.hwpx_builder import Cell, grid_cells, p, para, section, tbl, write_hwpx

KOREAN_TITLE = ["KDS 99 00 01 : 2024", "시험 설계기준", "1 일반사항", "1.1 적용범위", "(1) 이 기준은 시험에 적용한다."]


def _raw_pdf(objects: list[bytes], root: int = 1) -> bytes:
    """A PDF from numbered object bodies (1-based), with a correct xref table."""
    out = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for i, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{i} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    for off in offsets:
        out += f"{off:010d} 00000 n \n".encode()
    out += f"trailer\n<< /Size {len(objects) + 1} /Root {root} 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


def surrogate_pdf(path: Path) -> Path:
    """Text whose font's ToUnicode map sends code 0x41 to U+D800 (a lone surrogate) among ordinary letters."""
    cmap = (
        b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /X def "
        b"1 begincodespacerange <00> <FF> endcodespacerange "
        b"2 beginbfchar <41> <D800> <42> <0042> endbfchar endcmap CMapName currentdict /CMap defineresource pop end end"
    )
    content = b"BT /F1 14 Tf 72 720 Td (ABBA BBB) Tj 0 -20 Td (Design standard text here) Tj ET"
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /ToUnicode 6 0 R >>",
        b"<< /Length %d >>\nstream\n" % len(cmap) + cmap + b"\nendstream",
    ]
    path.write_bytes(_raw_pdf(objects))
    return path


def looping_pages_pdf(path: Path) -> Path:
    """A page tree whose Pages node lists itself as a kid."""
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [2 0 R 3 0 R] /Count 2 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>",
    ]
    path.write_bytes(_raw_pdf(objects))
    return path


def trailing_bytes_pdf(path: Path, source: Path, n: int = 4096) -> Path:
    """A valid PDF followed by ``n`` bytes of padding after its ``%%EOF`` (a mail client's or a signer's junk)."""
    path.write_bytes(source.read_bytes() + b"\r\n" + b"\0 padding " * (n // 10))
    return path


def text_mentioning_pdf(path: Path) -> Path:
    path.write_text("이 메모는 %PDF 형식에 대한 설명일 뿐 PDF가 아닙니다.\n", encoding="utf-8")
    return path


def huge_span_hwpx(path: Path, span: int = 3000) -> Path:
    """One cell that claims to span ``span``×``span`` (a 1 KB file)."""
    cells = [Cell("값", 0, 0, rowspan=span, colspan=span)]
    return write_hwpx(path, [section(*map(para, KOREAN_TITLE), para("표 1.1-1 시험 표"), p(tbl(cells)))])


def far_address_hwpx(path: Path, at: int = 30000) -> Path:
    """Two cells, one at row/column ``at`` (a grid of ``at``² positions if believed)."""
    cells = [Cell("머리", 0, 0), Cell("값", at, at)]
    return write_hwpx(path, [section(*map(para, KOREAN_TITLE), para("표 1.1-1 시험 표"), p(tbl(cells)))])


def big_table_hwpx(path: Path, rows: int = 600, cols: int = 12) -> Path:
    """An ordinary ``rows``×``cols`` table (a header row, then numbered values)."""
    grid = [[f"머리{k}" for k in range(cols)]] + [[f"{r}.{k}" for k in range(cols)] for r in range(rows - 1)]
    return write_hwpx(path, [section(*map(para, KOREAN_TITLE), para("표 1.1-1 큰 표"), p(tbl(grid_cells(grid))))])


def utf16_hwpx(path: Path) -> Path:
    """A section written in UTF-16 with a byte-order mark (valid XML; some converters write it)."""
    xml = section(*map(para, KOREAN_TITLE)).replace('encoding="UTF-8"', 'encoding="UTF-16"')
    write_hwpx(path, ["<placeholder/>"])
    with zipfile.ZipFile(path) as z:
        parts = {i.filename: z.read(i) for i in z.infolist()}
    parts["Contents/section0.xml"] = xml.encode("utf-16")  # Python writes the BOM first
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in parts.items():
            z.writestr(name, data)
    return path


def inflating_pack(path: Path, megabytes: int = 64) -> Path:
    """A pack (zip) with a manifest and one member of zeros that inflates to ``megabytes`` MB."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("manifest.json", '{"format": 1}')
        z.writestr("lexical/big.bin", b"\0" * (megabytes << 20))
    return path
