"""Build HWPX fixtures with zipfile: sections from small XML helpers, plus hostile packages (zip bomb, billion
laughs, truncated zip, 0-byte, encrypted manifest, path traversal, HWP 5 binary named .hwpx).

Generated numbering: ``header_xml`` writes ``hh:numbering``/``hh:paraHead`` formats and ``hh:paraPr`` shapes whose
``hh:heading`` asks for OUTLINE/NUMBER/BULLET numbers; ``p(..., pp=N)`` uses paraPr N; ``section(..., outline=N)``
sets the section's ``outlineShapeIDRef``; ``footnote``/``endnote`` add note controls.

The XML follows what 한글 writes (``hs:sec`` → ``hp:p`` → ``hp:run`` → ``hp:t`` / ``hp:tbl`` / ``hp:equation``).
"""

from __future__ import annotations

import re
import zipfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import escape

NS = (
    'xmlns:hp="http://www.hancom.co.kr/hwpml/2011/paragraph" '
    'xmlns:hs="http://www.hancom.co.kr/hwpml/2011/section" '
    'xmlns:hc="http://www.hancom.co.kr/hwpml/2011/core"'
)
OPF_NS = 'xmlns:opf="http://www.idpf.org/2007/opf/"'
SEC_PR = (
    '<hp:secPr id="" textDirection="HORIZONTAL"><hp:pagePr width="59528" height="84186"/></hp:secPr>'
    '<hp:ctrl><hp:colPr id="" type="NEWSPAPER" colCount="1"/></hp:ctrl>'
)
LINESEG = '<hp:linesegarray><hp:lineseg textpos="0" vertpos="0"/></hp:linesegarray>'


def t(text: str) -> str:
    """A text run (``\\t`` → ``hp:tab``, ``\\n`` → ``hp:lineBreak``)."""
    body = escape(text).replace("\t", "<hp:tab/>").replace("\n", "<hp:lineBreak/>")
    return f'<hp:run charPrIDRef="0"><hp:t>{body}</hp:t></hp:run>'


def eq(script: str, cdata: bool = False) -> str:
    """An inline equation run (``hp:equation/hp:script``)."""
    body = f"<![CDATA[{script}]]>" if cdata else escape(script)
    return (
        '<hp:run charPrIDRef="0"><hp:equation id="1" numberingType="EQUATION" version="Equation Version 60" '
        'font="HYhwpEQ"><hp:sz width="1000" height="1000"/><hp:pos treatAsChar="1"/>'
        f"<hp:shapeComment>수식입니다.</hp:shapeComment><hp:script>{body}</hp:script></hp:equation><hp:t/></hp:run>"
    )


def p(*runs: str, first: bool = False, pp: int = 0) -> str:
    """A paragraph from runs (``first`` adds the section properties 한글 puts in the first paragraph; ``pp`` is
    its ``paraPrIDRef``)."""
    head = f'<hp:run charPrIDRef="0">{SEC_PR}</hp:run>' if first else ""
    return f'<hp:p id="0" paraPrIDRef="{pp}" styleIDRef="0">{head}{"".join(runs)}{LINESEG}</hp:p>'


def para(text: str) -> str:
    return p(t(text))


@dataclass
class Cell:
    content: str  # plain text, or raw paragraph XML when it starts with "<hp:p"
    row: int
    col: int
    rowspan: int = 1
    colspan: int = 1
    header: bool = False
    with_addr: bool = True


def _cell_xml(c: Cell) -> str:
    body = c.content if c.content.startswith("<hp:p") else para(c.content)
    addr = f'<hp:cellAddr colAddr="{c.col}" rowAddr="{c.row}"/>' if c.with_addr else ""
    return (
        f'<hp:tc name="" header="{int(c.header)}" borderFillIDRef="3"><hp:subList id="" vertAlign="CENTER">'
        f"{body}</hp:subList>{addr}<hp:cellSpan colSpan=\"{c.colspan}\" rowSpan=\"{c.rowspan}\"/>"
        '<hp:cellSz width="1000" height="1000"/></hp:tc>'
    )


def caption_xml(text_before: str = "표 ", text_after: str = " 캡션", num: int | None = 1) -> str:
    """``hp:caption`` with an ``hp:autoNum numType="TABLE"`` control (``num=None`` leaves the attribute out)."""
    num_attr = f' num="{num}"' if num is not None else ""
    return (
        '<hp:caption side="TOP" fullSz="0"><hp:subList id=""><hp:p id="0" paraPrIDRef="0" styleIDRef="0">'
        f'<hp:run charPrIDRef="0"><hp:t>{escape(text_before)}</hp:t><hp:ctrl><hp:autoNum{num_attr} '
        'numType="TABLE"><hp:autoNumFormat type="DIGIT"/></hp:autoNum></hp:ctrl>'
        f"<hp:t>{escape(text_after)}</hp:t></hp:run></hp:p></hp:subList></hp:caption>"
    )


def tbl(cells: Sequence[Cell], caption: str = "") -> str:
    """A table run; cells are grouped into ``hp:tr`` by their row."""
    rows: dict[int, list[Cell]] = {}
    for c in cells:
        rows.setdefault(c.row, []).append(c)
    n_rows = max(c.row + c.rowspan for c in cells)
    n_cols = max(c.col + c.colspan for c in cells)
    trs = "".join("<hp:tr>" + "".join(_cell_xml(c) for c in rows[r]) + "</hp:tr>" for r in sorted(rows))
    return (
        f'<hp:run charPrIDRef="0"><hp:tbl id="1" numberingType="TABLE" rowCnt="{n_rows}" colCnt="{n_cols}">'
        f'<hp:sz width="1000" height="1000"/><hp:pos treatAsChar="1"/>{caption}'
        f'<hp:inMargin left="0" right="0" top="0" bottom="0"/>{trs}</hp:tbl><hp:t/></hp:run>'
    )


def grid_cells(rows: Sequence[Sequence[str]], header_flag: bool = False) -> list[Cell]:
    """Cells of a plain grid (no spans)."""
    return [Cell(text, r, k, header=header_flag and r == 0) for r, row in enumerate(rows) for k, text in enumerate(row)]


def section(*paragraphs: str, outline: int | None = None) -> str:
    """A section part; its first paragraph gets the section properties (``outline``: ``outlineShapeIDRef``)."""
    body = "".join(paragraphs)
    sec_pr = SEC_PR if outline is None else SEC_PR.replace('id=""', f'id="" outlineShapeIDRef="{outline}"', 1)
    m = re.match(r'<hp:p id="0" paraPrIDRef="\d+" styleIDRef="0">', body)
    if m and SEC_PR not in body[: m.end() + len(SEC_PR) + 40]:
        body = body[: m.end()] + f'<hp:run charPrIDRef="0">{sec_pr}</hp:run>' + body[m.end() :]
    return f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><hs:sec {NS}>{body}</hs:sec>'


# -- generated numbering ---------------------------------------------------------------------------------------
HEAD_NS = 'xmlns:hh="http://www.hancom.co.kr/hwpml/2011/head"'
KDS_OUTLINE = [("^1", "DIGIT"), ("^1.^2", "DIGIT"), ("^1.^2.^3", "DIGIT"), ("^1.^2.^3.^4", "DIGIT"),
               ("(^5)", "DIGIT"), ("^6", "CIRCLED_DIGIT"), ("^7.", "HANGUL_SYLLABLE")]
"""A KDS-like outline: levels 1–4 give ``4``, ``4.2``, ``4.2.3``, ``4.2.3.1``; 5–7 the items ``(1)``, ``①``, ``가.``."""


def numbering_xml(nid: int, levels: Sequence[tuple[str, str] | tuple[str, str, int]], start: int = 1) -> str:
    """``hh:numbering`` with one ``hh:paraHead`` per level: ``(format text, numFormat[, start])``."""
    heads = []
    for i, level in enumerate(levels, start=1):
        text, fmt = level[0], level[1]
        first = level[2] if len(level) == 3 else 1
        heads.append(f'<hh:paraHead start="{first}" level="{i}" align="LEFT" useInstWidth="1" autoIndent="1" '
                     f'numFormat="{fmt}" charPrIDRef="4294967295" checkable="0">{escape(text)}</hh:paraHead>')
    return f'<hh:numbering id="{nid}" start="{start}">{"".join(heads)}</hh:numbering>'


def header_xml(numberings: Sequence[str] = (), para_prs: Mapping[int, tuple[str, int, int]] | None = None) -> str:
    """``Contents/header.xml`` with numberings (``numbering_xml``) and paraPr id → (heading type, idRef, level
    0-based); paraPr 0 is a plain paragraph unless given."""
    shapes = {0: ("NONE", 0, 0), **(para_prs or {})}
    prs = "".join(
        f'<hh:paraPr id="{i}" tabPrIDRef="0" condense="0"><hh:align horizontal="JUSTIFY" vertical="BASELINE"/>'
        f'<hh:heading type="{kind}" idRef="{ref}" level="{level}"/></hh:paraPr>'
        for i, (kind, ref, level) in sorted(shapes.items())
    )
    return (
        f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><hh:head {HEAD_NS} version="1.4" secCnt="1">'
        '<hh:beginNum page="1" footnote="1" endnote="1" pic="1" tbl="1" equation="1"/><hh:refList>'
        f'<hh:numberings itemCnt="{len(numberings)}">{"".join(numberings)}</hh:numberings>'
        '<hh:bullets itemCnt="1"><hh:bullet id="1" char="" useImage="0"><hh:paraHead level="0" '
        'numFormat="DIGIT"/></hh:bullet></hh:bullets>'
        f'<hh:paraProperties itemCnt="{len(shapes)}">{prs}</hh:paraProperties></hh:refList></hh:head>'
    )


def _note(kind: str, text: str, num: int | None) -> str:
    num_attr = f' num="{num}"' if num is not None else ""
    tag = "footNote" if kind == "FOOTNOTE" else "endNote"
    return (
        f'<hp:run charPrIDRef="0"><hp:ctrl><hp:{tag} id=""><hp:subList id="" vertAlign="TOP">'
        '<hp:p id="0" paraPrIDRef="0" styleIDRef="0"><hp:run charPrIDRef="0"><hp:ctrl>'
        f'<hp:autoNum{num_attr} numType="{kind}"><hp:autoNumFormat type="DIGIT" userChar="" prefixChar="" '
        f'suffixChar=")" supscript="0"/></hp:autoNum></hp:ctrl><hp:t> {escape(text)}</hp:t></hp:run></hp:p>'
        f"</hp:subList></hp:{tag}></hp:ctrl></hp:run>"
    )


def footnote(text: str, num: int | None = 1) -> str:
    """A footnote control run (its text shows at the page foot as ``1) text``)."""
    return _note("FOOTNOTE", text, num)


def endnote(text: str, num: int | None = 1) -> str:
    return _note("ENDNOTE", text, num)


def content_hpf(section_names: Sequence[str], spine: Sequence[str] | None = None, title: str = "") -> str:
    items = "".join(f'<opf:item id="{n}" href="Contents/{n}.xml" media-type="application/xml"/>' for n in section_names)
    refs = "".join(f'<opf:itemref idref="{n}" linear="yes"/>' for n in (spine or section_names))
    return (
        f'<?xml version="1.0" encoding="UTF-8"?><opf:package {OPF_NS}><opf:metadata><opf:title>{escape(title)}'
        f'</opf:title></opf:metadata><opf:manifest><opf:item id="header" href="Contents/header.xml" '
        f'media-type="application/xml"/>{items}</opf:manifest><opf:spine><opf:itemref idref="header"/>{refs}'
        "</opf:spine></opf:package>"
    )


def write_hwpx(
    path: Path,
    sections: Sequence[str],
    *,
    spine: Sequence[str] | None = None,
    with_hpf: bool = True,
    manifest: str | None = None,
    title: str = "",
    extra: dict[str, bytes] | None = None,
    header: str | None = None,
) -> Path:
    """Write an HWPX package: ``sections[i]`` becomes ``Contents/section{i}.xml``."""
    names = [f"section{i}" for i in range(len(sections))]
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr(zipfile.ZipInfo("mimetype"), "application/hwp+zip")
        z.writestr("version.xml", '<?xml version="1.0"?><hv:HCFVersion xmlns:hv="urn:x" major="5"/>')
        z.writestr("Contents/header.xml",
                   header or f'<?xml version="1.0"?><hh:head xmlns:hh="urn:h" secCnt="{len(names)}"/>')
        for name, xml in zip(names, sections, strict=True):
            z.writestr(f"Contents/{name}.xml", xml)
        if with_hpf:
            z.writestr("Contents/content.hpf", content_hpf(names, spine, title))
        z.writestr("META-INF/container.xml", '<?xml version="1.0"?><container/>')
        if manifest is not None:
            z.writestr("META-INF/manifest.xml", manifest)
        for name, data in (extra or {}).items():
            z.writestr(name, data)
    return path


ENCRYPTED_MANIFEST = (
    '<?xml version="1.0" encoding="UTF-8"?><odf:manifest xmlns:odf="urn:oasis:names:tc:opendocument:xmlns:'
    'manifest:1.0"><odf:file-entry full-path="Contents/section0.xml" media-type="application/xml" size="10">'
    '<odf:encryption-data checksum-type="sha256-1k" checksum="x"><odf:algorithm algorithm-name='
    '"http://www.w3.org/2001/04/xmlenc#aes256-cbc" initialisation-vector="x"/></odf:encryption-data>'
    "</odf:file-entry></odf:manifest>"
)

BILLION_LAUGHS = (
    '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">'
    '<!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">'
    '<!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">'
    '<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">'
    '<!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">'
    '<!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">'
    '<!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">'
    '<!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">'
    '<!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">'
    '<!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">]>'
    f'<hs:sec {NS}><hp:p><hp:run><hp:t>&lol9;</hp:t></hp:run></hp:p></hs:sec>'
)


def simple_doc(path: Path) -> Path:
    return write_hwpx(path, [section(para("KDS 99 00 01 : 2024"), para("시험 설계기준"), para("1 일반사항"))])


def zip_bomb(path: Path, megabytes: int = 24) -> Path:
    """A section of zeros: tiny compressed, huge inflated (ratio ≈ 1000)."""
    return write_hwpx(path, [section(para("1 일반사항"))], extra={"Contents/section1.xml": b"\0" * (megabytes << 20)})


def billion_laughs(path: Path) -> Path:
    return write_hwpx(path, [BILLION_LAUGHS])


def truncated(path: Path) -> Path:
    simple_doc(path)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    return path


def empty(path: Path) -> Path:
    path.write_bytes(b"")
    return path


def encrypted(path: Path) -> Path:
    return write_hwpx(path, [section(para("암호"))], manifest=ENCRYPTED_MANIFEST)


def traversal(path: Path) -> Path:
    return write_hwpx(path, [section(para("1 일반사항"))], extra={"../../evil.txt": b"x"})


def ole_named_hwpx(path: Path) -> Path:
    path.write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 2048)
    return path


def not_hwpx_zip(path: Path) -> Path:
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("mimetype", "application/vnd.oasis.opendocument.text")
        z.writestr("content.xml", "<x/>")
    return path
