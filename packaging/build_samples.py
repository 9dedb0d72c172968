"""Build the bundled sample standards in ``resources/samples/``: one fictional 예시 standard as PDF and HWPX.

The content is written for this project (a plausible but fictional concrete-beam standard, clearly titled 예시 with
a code that cannot be mistaken for a real KDS code). The PDF looks like a 한글 export: running header and footer,
embedded Korean font, numbered clause headings, ``(1)`` items, a numbered table caption with horizontal rules only.
The HWPX has the OWPML structure 한글 writes (``hp:p``/``hp:run``/``hp:t``; ``hp:tbl`` with ``hp:cellAddr`` and
``hp:cellSpan`` merged cells). Both files are deterministic, so rebuilding does not change them.

    python packaging/build_samples.py [OUT_DIR]
"""

from __future__ import annotations

import sys
import zipfile
from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import escape

CODE = "예시 14 20 22"
YEAR = "2024"
TITLE = "예시 콘크리트 보 설계기준 (예시용 가상 기준)"
STEM = "sample-yesi-14-20-22"


@dataclass(frozen=True)
class Cell:
    row: int
    col: int
    text: str
    rowspan: int = 1
    colspan: int = 1
    header: bool = False


@dataclass(frozen=True)
class TableSpec:
    number: str
    title: str
    n_rows: int
    n_cols: int
    header_rows: int
    cells: tuple[Cell, ...]


Block = tuple[str, str] | tuple[str, str, str] | TableSpec

COVER_TABLE = TableSpec(
    number="2.1-1",
    title="노출 조건별 최소 피복두께",
    n_rows=5,
    n_cols=3,
    header_rows=2,
    cells=(
        Cell(0, 0, "노출 조건", rowspan=2, header=True),
        Cell(0, 1, "최소 피복두께(mm)", colspan=2, header=True),
        Cell(1, 1, "보", header=True),
        Cell(1, 2, "슬래브", header=True),
        Cell(2, 0, "실내 노출"),
        Cell(2, 1, "30"),
        Cell(2, 2, "20"),
        Cell(3, 0, "옥외 노출"),
        Cell(3, 1, "40"),
        Cell(3, 2, "30"),
        Cell(4, 0, "흙에 접하는 경우"),
        Cell(4, 1, "60"),
        Cell(4, 2, "50"),
    ),
)

FORM_TABLE = TableSpec(
    number="4.1-1",
    title="평균기온별 거푸집 해체 압축강도",
    n_rows=4,
    n_cols=2,
    header_rows=1,
    cells=(
        Cell(0, 0, "평균기온", header=True),
        Cell(0, 1, "압축강도(MPa)", header=True),
        Cell(1, 0, "20 ℃ 이상"),
        Cell(1, 1, "5"),
        Cell(2, 0, "10 ℃ 이상 20 ℃ 미만"),
        Cell(2, 1, "7"),
        Cell(3, 0, "10 ℃ 미만"),
        Cell(3, 1, "10"),
    ),
)

BLOCKS: list[Block] = [
    ("h", "1", "일반사항"),
    ("h", "1.1", "목적"),
    ("p", "(1) 이 기준은 KDS Desk의 사용법을 보여 주기 위하여 만든 예시용 가상 기준이다. 실제 설계에 적용할 수 "
     "없으며, 모든 수치는 설명을 위하여 임의로 정한 것이다."),
    ("h", "1.2", "적용 범위"),
    ("p", "(1) 이 기준은 예시 건물의 철근콘크리트 보와 보행자용 난간의 설계에 적용한다."),
    ("h", "1.3", "용어의 정의"),
    ("p", "(1) 예시하중: 이 기준에서 설명을 위하여 가정한 난간 상단의 수평 등분포하중"),
    ("p", "(2) 피복두께: 철근 표면과 그 철근을 감싸는 콘크리트 표면 사이의 최단 거리"),
    ("h", "2", "재료"),
    ("h", "2.1", "콘크리트"),
    ("p", "(1) 보에 사용하는 콘크리트의 설계기준압축강도 fck는 24 MPa 이상으로 하여야 한다."),
    ("p", "(2) 노출 조건에 따른 최소 피복두께는 표 2.1-1에 따른다."),
    COVER_TABLE,
    ("h", "2.2", "철근"),
    ("p", "(1) 주철근의 설계기준항복강도 fy는 500 MPa를 초과하여 설계에 적용할 수 없다."),
    ("h", "3", "설계"),
    ("h", "3.1", "난간 하중"),
    ("p", "(1) 보행자용 난간의 상단에 작용하는 수평 등분포하중 ω는 1.2 kN/m로 한다."),
    ("p", "(2) 난간 기둥은 수평 등분포하중을 기둥 간격에 대한 집중하중으로 환산하여 검토하여야 한다."),
    ("h", "3.2", "처짐"),
    ("p", "(1) 보의 최대 처짐은 경간 L의 1/360 이하로 하여야 한다."),
    ("p", "(2) 처짐을 검토할 때에는 다음 사항을 고려하여야 한다."),
    ("p", "① 장기하중에 의한 크리프와 건조수축의 영향"),
    ("p", "② 균열에 의한 휨강성의 저하"),
    ("p", "③ 시공 중에 작용하는 하중"),
    ("h", "3.3", "철근 간격"),
    ("p", "(1) 보의 주철근 순간격은 25 mm 이상, 또한 굵은골재 최대 치수의 4/3배 이상으로 하여야 한다."),
    ("h", "4", "시공"),
    ("h", "4.1", "거푸집 존치기간"),
    ("p", "(1) 보 옆면 거푸집은 콘크리트 압축강도가 표 4.1-1의 값 이상에 도달한 것을 확인한 뒤에 떼어낼 수 "
     "있다."),
    FORM_TABLE,
    ("p", "(2) 보 밑면 거푸집은 설계기준압축강도의 2/3 이상이 확인될 때까지 존치하여야 한다."),
    ("h", "4.2", "양생"),
    ("p", "(1) 타설한 콘크리트는 최소 5일 이상 습윤 상태로 보호하여야 한다. 다만, 조강 시멘트를 사용한 경우에는 "
     "3일 이상으로 할 수 있다."),
]


# -- PDF ------------------------------------------------------------------------------------------------------------
class _PdfWriter:
    W, H = 595.0, 842.0
    LEFT, RIGHT, TOP, BOTTOM = 62.0, 62.0, 92.0, 70.0
    FONT = "kr"

    def __init__(self) -> None:
        import pymupdf

        self.pymupdf = pymupdf
        self.font = pymupdf.Font("korea")
        self.doc = pymupdf.open()
        self.page: pymupdf.Page | None = None
        self.y = 0.0

    def new_page(self) -> None:
        self.page = self.doc.new_page(width=self.W, height=self.H)
        self.page.insert_font(fontname=self.FONT, fontbuffer=self.font.buffer)
        n = self.doc.page_count
        self.text(self.LEFT, 48, f"{CODE} : {YEAR}", 9)
        self.text(self.LEFT, 62, TITLE, 9)
        self.page.draw_line((self.LEFT, 68), (self.W - self.RIGHT, 68), width=0.5)
        footer = f"- {n} -"
        self.text((self.W - self.font.text_length(footer, 9)) / 2, self.H - 40, footer, 9)
        self.y = self.TOP

    def text(self, x: float, y: float, s: str, size: float) -> None:
        assert self.page is not None
        self.page.insert_text((x, y), s, fontname=self.FONT, fontsize=size)

    def need(self, height: float) -> None:
        if self.page is None or self.y + height > self.H - self.BOTTOM:
            self.new_page()

    def wrap(self, s: str, size: float, width: float) -> list[str]:
        lines: list[str] = []
        line = ""
        for word in s.split(" "):
            cand = f"{line} {word}" if line else word
            if self.font.text_length(cand, size) <= width:
                line = cand
            else:
                lines.append(line)
                line = word
        if line:
            lines.append(line)
        return lines

    def heading(self, no: str, text: str) -> None:
        size = 12.5 if "." not in no else 11.0
        self.need(size * 3.2)
        self.y += size * 1.9
        self.text(self.LEFT, self.y, f"{no} {text}", size)
        self.y += size * 0.2

    def para(self, s: str) -> None:
        size, lead = 10.0, 16.0
        indent = 12.0 if s.startswith(("①", "②", "③", "④")) else 0.0
        width = self.W - self.LEFT - self.RIGHT - indent
        for line in self.wrap(s, size, width):
            self.need(lead)
            self.y += lead
            self.text(self.LEFT + indent, self.y, line, size)
        self.y += 4

    def table(self, t: TableSpec) -> None:
        size, row_h = 9.5, 20.0
        self.need(row_h * (t.n_rows + 2.5))
        caption = f"표 {t.number} {t.title}"
        self.y += 22
        self.text((self.W - self.font.text_length(caption, 10)) / 2, self.y, caption, 10)
        self.y += 8
        x0, x1 = self.LEFT + 20, self.W - self.RIGHT - 20
        col_w = (x1 - x0) / t.n_cols
        top = self.y
        assert self.page is not None
        self.page.draw_line((x0, top), (x1, top), width=1.0)
        for c in t.cells:
            cx0 = x0 + c.col * col_w
            cx1 = cx0 + c.colspan * col_w
            cy0 = top + c.row * row_h
            cy1 = cy0 + c.rowspan * row_h
            tw = self.font.text_length(c.text, size)
            self.text((cx0 + cx1 - tw) / 2, (cy0 + cy1) / 2 + size * 0.35, c.text, size)
            if c.header and c.row + c.rowspan < t.header_rows:  # rule under a spanning upper header
                self.page.draw_line((cx0 + 4, cy1), (cx1 - 4, cy1), width=0.4)
        head_bottom = top + t.header_rows * row_h
        self.page.draw_line((x0, head_bottom), (x1, head_bottom), width=0.6)
        bottom = top + t.n_rows * row_h
        self.page.draw_line((x0, bottom), (x1, bottom), width=1.0)
        self.y = bottom + 8

    def build(self, out: Path) -> None:
        for b in BLOCKS:
            if isinstance(b, TableSpec):
                self.table(b)
            elif b[0] == "h":
                self.heading(b[1], b[2])  # type: ignore[misc]
            else:
                self.para(b[1])
        self.doc.set_metadata(
            {"title": TITLE, "author": "KDS Desk 예시", "subject": f"{CODE} : {YEAR} (예시용 가상 기준)",
             "creator": "packaging/build_samples.py", "producer": "PyMuPDF", "creationDate": "", "modDate": ""}
        )
        self.doc.subset_fonts()
        self.doc.save(out, garbage=4, deflate=True, no_new_id=True)


# -- HWPX -----------------------------------------------------------------------------------------------------------
NS = (
    'xmlns:ha="http://www.hancom.co.kr/hwpml/2011/app" xmlns:hp="http://www.hancom.co.kr/hwpml/2011/paragraph" '
    'xmlns:hs="http://www.hancom.co.kr/hwpml/2011/section" xmlns:hc="http://www.hancom.co.kr/hwpml/2011/core" '
    'xmlns:hh="http://www.hancom.co.kr/hwpml/2011/head" xmlns:hpf="http://www.hancom.co.kr/schema/2011/hpf" '
    'xmlns:opf="http://www.idpf.org/2007/opf/"'
)
XML_DECL = '<?xml version="1.0" encoding="UTF-8" standalone="yes" ?>'


class _HwpxWriter:
    def __init__(self) -> None:
        self.next_id = 1000
        self.parts: list[str] = []

    def _id(self) -> int:
        self.next_id += 1
        return self.next_id

    def para(self, runs: list[str], para_pr: int = 0, style: int = 0) -> str:
        body = "".join(f'<hp:run charPrIDRef="0"><hp:t>{escape(r)}</hp:t></hp:run>' for r in runs)
        return (f'<hp:p id="{self._id()}" paraPrIDRef="{para_pr}" styleIDRef="{style}" pageBreak="0" '
                f'columnBreak="0" merged="0">{body}</hp:p>')

    def table(self, t: TableSpec) -> str:
        rows: list[str] = []
        for r in range(t.n_rows):
            tcs = []
            for c in (c for c in t.cells if c.row == r):
                tcs.append(
                    f'<hp:tc name="" header="{int(c.header)}" hasMargin="0" protect="0" editable="0" dirty="0" '
                    f'borderFillIDRef="3"><hp:subList id="" textDirection="HORIZONTAL" lineWrap="BREAK" '
                    f'vertAlign="CENTER">{self.para([c.text], 21)}</hp:subList>'
                    f'<hp:cellAddr colAddr="{c.col}" rowAddr="{c.row}"/>'
                    f'<hp:cellSpan colSpan="{c.colspan}" rowSpan="{c.rowspan}"/>'
                    f'<hp:cellSz width="{14173 * c.colspan}" height="{1700 * c.rowspan}"/></hp:tc>'
                )
            rows.append("<hp:tr>" + "".join(tcs) + "</hp:tr>")
        tbl = (f'<hp:tbl id="{self._id()}" zOrder="0" numberingType="TABLE" textWrap="TOP_AND_BOTTOM" '
               f'repeatHeader="1" rowCnt="{t.n_rows}" colCnt="{t.n_cols}" cellSpacing="0" borderFillIDRef="3">'
               f'<hp:sz width="42520" widthRelTo="ABSOLUTE" height="{1700 * t.n_rows}" heightRelTo="ABSOLUTE"/>'
               f'<hp:pos treatAsChar="1"/>' + "".join(rows) + "</hp:tbl>")
        return (f'<hp:p id="{self._id()}" paraPrIDRef="20" styleIDRef="0" pageBreak="0" columnBreak="0" merged="0">'
                f'<hp:run charPrIDRef="0">{tbl}<hp:t/></hp:run></hp:p>')

    def section(self) -> str:
        out = [self.para([f"{CODE} : {YEAR}"]), self.para([TITLE], 1)]
        for b in BLOCKS:
            if isinstance(b, TableSpec):
                out.append(self.para([f"표 {b.number} {b.title}"], 12))
                out.append(self.table(b))
            elif b[0] == "h":
                level = b[1].count(".") + 1
                out.append(self.para([b[1], f" {b[2]}"], level + 1, level))  # type: ignore[misc]
            else:
                out.append(self.para([b[1]], 10))
        return f"{XML_DECL}<hs:sec {NS}>" + "".join(out) + "</hs:sec>"

    def build(self, out: Path) -> None:
        header = (f'{XML_DECL}<hh:head {NS} version="1.4" secCnt="1"><hh:beginNum page="1" footnote="1" '
                  'endnote="1" pic="1" tbl="1" equation="1"/><hh:refList><hh:fontfaces itemCnt="1">'
                  '<hh:fontface lang="HANGUL" fontCnt="1"><hh:font id="0" face="함초롬바탕" type="TTF" '
                  'isEmbedded="0"/></hh:fontface></hh:fontfaces></hh:refList></hh:head>')
        content = (f'{XML_DECL}<opf:package {NS} version="" unique-identifier="" id=""><opf:metadata>'
                   f"<opf:title>{escape(TITLE)}</opf:title><opf:language>ko</opf:language></opf:metadata>"
                   '<opf:manifest><opf:item id="header" href="Contents/header.xml" media-type="application/xml"/>'
                   '<opf:item id="section0" href="Contents/section0.xml" media-type="application/xml"/>'
                   '</opf:manifest><opf:spine><opf:itemref idref="header" linear="yes"/>'
                   '<opf:itemref idref="section0" linear="yes"/></opf:spine></opf:package>')
        container = (f'{XML_DECL}<ocf:container xmlns:ocf="urn:oasis:names:tc:opendocument:xmlns:container" '
                     'xmlns:hpf="http://www.hancom.co.kr/schema/2011/hpf"><ocf:rootfiles><ocf:rootfile '
                     'full-path="Contents/content.hpf" media-type="application/hwpml-package+xml"/>'
                     "</ocf:rootfiles></ocf:container>")
        version = (f'{XML_DECL}<hv:HCFVersion xmlns:hv="http://www.hancom.co.kr/hwpml/2011/version" '
                   'tagetApplication="WORDPROCESSOR" major="5" minor="1" micro="1" buildNumber="0" '
                   'xmlVersion="1.4" application="KDS Desk sample builder"/>')
        settings = f'{XML_DECL}<ha:HWPApplicationSetting xmlns:ha="http://www.hancom.co.kr/hwpml/2011/app"/>'
        files = [
            ("mimetype", "application/hwp+zip", zipfile.ZIP_STORED),
            ("version.xml", version, zipfile.ZIP_DEFLATED),
            ("Contents/header.xml", header, zipfile.ZIP_DEFLATED),
            ("Contents/section0.xml", self.section(), zipfile.ZIP_DEFLATED),
            ("Contents/content.hpf", content, zipfile.ZIP_DEFLATED),
            ("settings.xml", settings, zipfile.ZIP_DEFLATED),
            ("META-INF/container.xml", container, zipfile.ZIP_DEFLATED),
        ]
        with zipfile.ZipFile(out, "w") as z:
            for name, data, method in files:
                info = zipfile.ZipInfo(name, date_time=(2024, 1, 1, 0, 0, 0))
                info.compress_type = method
                z.writestr(info, data.encode("utf-8"))


def build(out_dir: Path) -> list[Path]:
    """Write the sample PDF and HWPX into ``out_dir``; return their paths."""
    out_dir.mkdir(parents=True, exist_ok=True)
    pdf, hwpx = out_dir / f"{STEM}.pdf", out_dir / f"{STEM}.hwpx"
    _PdfWriter().build(pdf)
    _HwpxWriter().build(hwpx)
    return [pdf, hwpx]


def main(argv: list[str]) -> int:
    default = Path(__file__).resolve().parent.parent / "resources" / "samples"
    for p in build(Path(argv[0]) if argv else default):
        print(f"{p} ({p.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
