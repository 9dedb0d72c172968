"""HWPX (OWPML) → ``ParsedDoc``: sections in spine order, paragraphs, clause headings, tables and equations.

- Package: ``guard.open_hwpx`` (limits, encryption, non-HWPX zips). Sections follow ``Contents/content.hpf``'s spine;
  without it (or for sections it misses) ``Contents/sectionN.xml`` by number. ``META-INF/manifest.xml`` is optional.
- Elements are matched by local name, so namespace versions (2011/2016) do not matter.
- Text: ``hp:p`` → ``hp:run`` → ``hp:t`` with ``hp:tab``/``hp:fwSpace``/``hp:nbSpace`` as spaces and ``hp:lineBreak``
  as a line break. ``hp:secPr``, ``hp:ctrl`` (column/page layout, headers, footers, fields),
  ``hp:linesegarray`` and pictures are skipped. Text boxes (``hp:drawText``) are read as plain paragraphs.
- Generated numbers: a paragraph whose ``paraPrIDRef`` asks for 한글's outline or paragraph numbering gets the
  number it shows (``hwpx_numbering``: ``4.2.3``, ``(1)``, ``①``, ``가.``) before its text, as if typed, so headings
  and items numbered by 한글 are recognised like typed ones (body, cells, captions and text boxes alike).
- Footnotes/endnotes (``hp:ctrl/hp:footNote|endNote``): no marker is put into the sentence; each note becomes a
  ``text`` block ``1) …`` (item ``""``, the anchor paragraph's index) emitted at the end of the anchor's clause.
- Paragraph indexes: every ``hp:p`` (body, caption, table cell, text box) gets the next 0-based index in document
  order; a block lists the indexes it was made from. HWPX blocks have no pages.
- Headings: body paragraphs (never cells, captions, boxes, or paragraphs holding an equation) offered to
  ``clauses.ClauseTracker``; a number and title in separate runs are joined first.
- Equations: ``hp:equation/hp:script`` → ``hwpeq.linearize``. Inline equations stay in their sentence; a
  paragraph holding only equations (and maybe an equation number ``(4.1-1)``) is an ``equation`` block with the raw
  script in ``Block.script``.
- Tables: see ``hwpx_tables``. The caption is the paragraph just above (``표 4.2-1 …``) or ``hp:caption`` whose
  ``hp:autoNum numType="TABLE"`` is restored from its ``num`` attribute or by counting tables. A nested table's
  rows go into its cell's text (`` / `` between rows) and it also becomes its own table block after its parent.
- Items: a block's ``item`` is the marker its text starts with (``(2)``, ``①``, ``가.``), else the last marker
  seen in the current clause (so an equation or table under item (2) carries ``(2)``); a heading resets it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from kdsdesk.errors import KnownError
from kdsdesk.ingest.clauses import ClauseTracker, detect_doc_meta, heading_level, split_item
from kdsdesk.ingest.guard import ZipPackage, open_hwpx
from kdsdesk.ingest.hwpeq import linearize
from kdsdesk.ingest.hwpx_numbering import Numberer, NumberingStyles, note_number, read_styles
from kdsdesk.ingest.hwpx_tables import RawCell, build_table, caption_number, is_caption_line
from kdsdesk.records import Block, DocRef, ParsedDoc, Span, Table

# Bump whenever the blocks produced for the same file may change: libraries re-index HWPX files.
PARSER_VERSION = "1"

_SECTION = re.compile(r"(?i)^/?contents/section(\d+)\.xml$")
_EQ_LABEL = re.compile(r"^\(?\s*(?:식\s*)?[A-Z]?\d+(?:\.\d+)*(?:-\d+)?[a-z]?\s*\)?$")
_SPACES = re.compile(r"[ \t\u00a0\u3000]+")
META_LINES = 40
MAX_NEST = 12


def _local(el: Any) -> str:
    tag = el.tag
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def _children(el: Any, name: str) -> list[Any]:
    return [c for c in el if _local(c) == name]


def _child(el: Any, name: str) -> Any:
    for c in el:
        if _local(c) == name:
            return c
    return None


def _int(el: Any, attr: str, default: int) -> int:
    if el is None:
        return default
    try:
        return int(el.get(attr, default))
    except (TypeError, ValueError):
        return default


def _t_text(t: Any) -> str:
    parts = [t.text or ""]
    for c in t:
        name = _local(c)
        if name in ("tab", "fwSpace", "nbSpace"):
            parts.append(" ")
        elif name == "lineBreak":
            parts.append("\n")
        elif name == "hyphen":
            parts.append("-")
        parts.append(c.tail or "")
    return "".join(parts)


def _clean(text: str) -> str:
    lines = [_SPACES.sub(" ", ln).strip() for ln in text.split("\n")]
    return "\n".join(ln for ln in lines if ln)


def _line_spans(text: str, paragraph: int, offset: int = 0) -> list[Span]:
    spans, start = [], 0
    for line in text.split("\n"):
        if line:
            spans.append(Span(offset + start, offset + start + len(line), paragraph=paragraph))
        start += len(line) + 1
    return spans


@dataclass
class _Piece:
    kind: str  # text | eq | table | box | note
    text: str = ""
    script: str = ""
    el: Any = None


def _inline(p: Any, autonum: dict[str, int] | None = None) -> list[_Piece]:
    """Inline content of one paragraph in order. ``autonum``: numType (``TABLE``, ``FOOTNOTE``, ``ENDNOTE``) → the
    number an ``hp:autoNum`` of that type shows when it has no ``num`` attribute; other autoNums are dropped.
    Footnotes/endnotes (``hp:ctrl/hp:footNote``) become ``note`` pieces; other controls are skipped."""
    out: list[_Piece] = []
    for run in p:
        if _local(run) != "run":
            continue
        for c in run:
            name = _local(c)
            if name == "t":
                out.append(_Piece("text", _t_text(c)))
            elif name == "equation":
                script = _child(c, "script")
                raw = (script.text or "") if script is not None else ""
                out.append(_Piece("eq", linearize(raw), raw.strip()))
            elif name == "tbl":
                out.append(_Piece("table", el=c))
            elif name == "ctrl":
                for cc in c:
                    cname = _local(cc)
                    if cname in ("footNote", "endNote"):
                        out.append(_Piece("note", el=cc))
                    elif cname == "autoNum" and autonum is not None and cc.get("numType", "") in autonum:
                        num_type = cc.get("numType", "")
                        if num_type == "TABLE":
                            out.append(_Piece("text", str(_int(cc, "num", autonum[num_type]))))
                        else:
                            out.append(_Piece("text", note_number(cc, autonum[num_type])))
            elif name in ("rect", "ellipse", "polygon", "curve", "arc", "container", "textart"):
                out.append(_Piece("box", el=c))
    return out


@dataclass
class _Walker:
    path: Path
    numberer: Numberer = field(default_factory=lambda: Numberer(NumberingStyles()))
    blocks: list[Block] = field(default_factory=list)
    tracker: ClauseTracker = field(default_factory=ClauseTracker)
    para: int = -1
    item: str = ""
    n_tables: int = 0
    pending: tuple[str, int, tuple[str, tuple[str, ...]]] | None = None  # a caption line waiting for its table
    notes: list[Block] = field(default_factory=list)  # footnotes/endnotes waiting for the end of their clause
    n_notes: dict[str, int] = field(default_factory=dict)
    first_lines: list[str] = field(default_factory=list)
    stats: dict[str, float] = field(default_factory=dict)

    def count(self, key: str, n: float = 1) -> None:
        self.stats[key] = self.stats.get(key, 0) + n

    def next_para(self) -> int:
        self.para += 1
        self.count("paragraphs")
        return self.para

    @property
    def where(self) -> tuple[str, tuple[str, ...]]:
        return self.tracker.clause, self.tracker.clause_path

    def add(self, kind: Any, text: str, paras: tuple[int, ...], spans: list[Span],
            where: tuple[str, tuple[str, ...]] | None = None, **kw: Any) -> None:
        clause, path = where or self.where
        self.blocks.append(
            Block(kind=kind, text=text, clause=clause, clause_path=path, paragraphs=paras, spans=tuple(spans), **kw)
        )

    # -- paragraphs --------------------------------------------------------------------------------------------
    def section(self, root: Any) -> None:
        self.count("sections")
        self.numberer.section(root)
        for el in root:
            if _local(el) == "p":
                self.paragraph(el, body=True, depth=0)

    def paragraph(self, p: Any, body: bool, depth: int) -> None:
        idx = self.next_para()
        prefix = self.numberer.prefix(p.get("paraPrIDRef"))  # a generated number goes before the first text
        segment: list[_Piece] = []
        notes: list[Any] = []  # read after the text: a note on a heading belongs to the heading's clause
        for piece in _inline(p):
            if piece.kind in ("text", "eq"):
                segment.append(piece)
                continue
            if piece.kind == "note":
                notes.append(piece.el)
                continue
            if self.text_segment(segment, idx, body, prefix):
                prefix = ""  # the number went to the first text; an anchored object before it does not take it
            segment = []
            if piece.kind == "table":
                self.table(piece.el, idx, depth)
            elif depth < MAX_NEST:
                for sub in piece.el.iter():
                    if _local(sub) == "subList":
                        for sp in _children(sub, "p"):
                            self.paragraph(sp, body=False, depth=depth + 1)
        self.text_segment(segment, idx, body, prefix)
        for el in notes:
            self.note(el, idx)

    def note(self, el: Any, anchor: int) -> None:
        """A footnote/endnote: its text waits (under the anchor's clause) until the clause ends."""
        kind = "ENDNOTE" if _local(el) == "endNote" else "FOOTNOTE"
        self.n_notes[kind] = self.n_notes.get(kind, 0) + 1
        lines = []
        for sub in _children(el, "subList"):
            for p in _children(sub, "p"):
                pieces = _inline(p, autonum={kind: self.n_notes[kind]})
                lines.append(_clean("".join(pc.text for pc in pieces if pc.kind in ("text", "eq"))))
        text = _clean("\n".join(lines))
        if text:
            self.count("notes")
            clause, path = self.where
            self.notes.append(Block(kind="text", text=text, clause=clause, clause_path=path, paragraphs=(anchor,),
                                    spans=tuple(_line_spans(text, anchor))))

    def flush_notes(self) -> None:
        self.blocks.extend(self.notes)
        self.notes = []

    def flush_pending(self) -> None:
        if self.pending is not None:
            text, idx, where = self.pending
            self.pending = None
            self.plain(text, idx, where)

    def plain(self, text: str, idx: int, where: tuple[str, tuple[str, ...]] | None = None) -> None:
        marker = split_item(text)
        if marker:
            self.item = marker
        self.add("text", text, (idx,), _line_spans(text, idx), where, item=self.item)

    def text_segment(self, pieces: list[_Piece], idx: int, body: bool, prefix: str = "") -> bool:
        text = _clean("".join(pc.text for pc in pieces))
        if not text:
            return False
        if prefix:
            text = _clean(f"{prefix} {text}")
        eqs = [pc for pc in pieces if pc.kind == "eq" and pc.script]
        self.count("equations", len(eqs))
        if body and len(self.first_lines) < META_LINES:
            self.first_lines.append(text)
        rest = _clean("".join(pc.text for pc in pieces if pc.kind == "text"))
        if eqs and (not rest or _EQ_LABEL.match(rest)):
            self.flush_pending()
            line = " ".join(pc.text for pc in eqs if pc.text)
            line = _clean(f"{prefix} {line} {rest}")
            if prefix and split_item(prefix):
                self.item = split_item(prefix)
            self.count("display_equations")
            self.add("equation", line, (idx,), _line_spans(line, idx), item=self.item,
                     script="\n".join(pc.script for pc in eqs))
            return True
        if body and not eqs and "\n" not in text:
            heading = self.tracker.offer(text)
            if heading is not None:
                self.flush_pending()  # a caption line that met no table stays in the clause it was in
                self.flush_notes()
                self.item = ""
                self.count("headings")
                label = f"{heading[0]} {heading[1]}"
                self.add("heading", label, (idx,), _line_spans(label, idx), heading_level=heading_level(heading[0]))
                return True
            if is_caption_line(text):
                self.flush_pending()
                self.pending = (text, idx, self.where)
                return True
        self.flush_pending()
        self.plain(text, idx)
        return True

    # -- tables ------------------------------------------------------------------------------------------------
    def read_table(self, tbl: Any, depth: int) -> tuple[Table, list[int], list[int], list[tuple[Table, list[int]]]]:
        """(table, its paragraph indexes, first paragraph of each row, nested tables) — nothing emitted yet."""
        self.n_tables += 1
        number_here = self.n_tables
        paras: list[int] = []
        caption = ""
        cap = _child(tbl, "caption")
        if cap is not None:
            lines = []
            for sub in _children(cap, "subList"):
                for p in _children(sub, "p"):
                    paras.append(self.next_para())
                    prefix = self.numberer.prefix(p.get("paraPrIDRef"))
                    line = _clean("".join(pc.text for pc in _inline(p, autonum={"TABLE": number_here})))
                    lines.append(_clean(f"{prefix} {line}") if line else "")
            caption = " ".join(x for x in lines if x)
        cells: list[RawCell] = []
        nested: list[tuple[Table, list[int]]] = []
        row_first: dict[int, int] = {}
        for tr_index, tr in enumerate(_children(tbl, "tr")):
            for tc in _children(tr, "tc"):
                texts: list[str] = []
                first_para = -1
                for sub in _children(tc, "subList"):
                    for p in _children(sub, "p"):
                        pidx = self.next_para()
                        paras.append(pidx)
                        first_para = pidx if first_para < 0 else first_para
                        prefix = self.numberer.prefix(p.get("paraPrIDRef"))
                        for pc in _inline(p):
                            if pc.kind in ("text", "eq"):
                                if prefix and pc.text.strip():
                                    texts.append(prefix + " ")
                                    prefix = ""
                                texts.append(pc.text)
                            elif pc.kind == "note":
                                self.note(pc.el, pidx)
                            elif pc.kind == "table" and depth < MAX_NEST:
                                inner, inner_paras, _, deeper = self.read_table(pc.el, depth + 1)
                                texts.append(" " + " / ".join(inner.rows_text()) + " ")
                                nested.append((inner, inner_paras))
                                nested.extend(deeper)
                        texts.append(" ")
                addr, span = _child(tc, "cellAddr"), _child(tc, "cellSpan")
                cell = RawCell(
                    row=_int(addr, "rowAddr", -1),
                    col=_int(addr, "colAddr", -1),
                    rowspan=max(1, _int(span, "rowSpan", 1)),
                    colspan=max(1, _int(span, "colSpan", 1)),
                    text=_clean("".join(texts).replace("\n", " ")),
                    header_flag=tc.get("header", "0") in ("1", "true"),
                    tr_index=tr_index,
                )
                cells.append(cell)
                if first_para >= 0 and cell.row >= 0:
                    row_first.setdefault(cell.row, first_para)
        table = build_table(cells, caption, caption_number(caption))
        rows = [row_first.get(r, paras[0] if paras else self.para) for r in range(table.n_rows)]
        return table, paras, rows, nested

    def table(self, tbl: Any, anchor: int, depth: int) -> None:
        above = self.pending
        self.pending = None
        table, paras, rows, nested = self.read_table(tbl, depth)
        cap_para = anchor
        if above is not None and (not table.caption or not caption_number(table.caption)):
            table = Table(number=caption_number(above[0]), caption=above[0], n_rows=table.n_rows,
                          n_cols=table.n_cols, cells=table.cells, header_rows=table.header_rows)
            cap_para = above[1]
        elif above is not None:
            self.pending = above
            self.flush_pending()
        self.emit_table(table, [cap_para, anchor, *paras], rows, cap_para)
        for inner, inner_paras in nested:
            self.emit_table(inner, inner_paras, [], inner_paras[0] if inner_paras else anchor)

    def emit_table(self, table: Table, paras: list[int], rows: list[int], cap_para: int) -> None:
        if table.n_rows == 0:
            return
        self.count("tables")
        self.count("table_cells", len(table.cells))
        lines = [table.caption] if table.caption else []
        line_paras = [cap_para] if table.caption else []
        for r, row in enumerate(table.rows_text()):
            if row.replace("|", "").strip():  # a row of empty cells adds nothing searchable
                lines.append(row)
                line_paras.append(rows[r] if r < len(rows) else cap_para)
        spans: list[Span] = []
        offset = 0
        for line, pidx in zip(lines, line_paras, strict=True):
            if line:
                spans.append(Span(offset, offset + len(line), paragraph=pidx))
            offset += len(line) + 1
        self.add("table", "\n".join(lines), tuple(sorted(set(paras))), spans, table=table, item=self.item)


def _section_names(pkg: ZipPackage) -> list[str]:
    """Section parts in spine order, then any ``Contents/sectionN.xml`` the spine missed, by number."""
    by_number = sorted(
        ((int(m.group(1)), n) for n in pkg.names if (m := _SECTION.match(n))), key=lambda x: x[0]
    )
    ordered: list[str] = []
    hpf = pkg.find("Contents/content.hpf")
    if hpf is not None:
        root = pkg.read_xml(hpf)
        hrefs: dict[str, str] = {}
        for el in root.iter():
            if _local(el) == "item" and el.get("id") and el.get("href"):
                hrefs[el.get("id")] = el.get("href")
        base = PurePosixPath(hpf).parent
        for el in root.iter():
            if _local(el) != "itemref":
                continue
            href = hrefs.get(el.get("idref", ""), "")
            for cand in (href, str(base / href)):
                name = pkg.find(cand) if cand else None
                if name is not None and _SECTION.match(name) and name not in ordered:
                    ordered.append(name)
                    break
    ordered.extend(n for _, n in by_number if n not in ordered)
    return ordered


def _opf_title(pkg: ZipPackage) -> str:
    hpf = pkg.find("Contents/content.hpf")
    if hpf is None:
        return ""
    for el in pkg.read_xml(hpf).iter():
        if _local(el) == "title":
            title = _clean(el.text or "")
            return title if re.search(r"[가-힣A-Za-z].*[가-힣A-Za-z]", title) else ""
    return ""


def _numbering_styles(pkg: ZipPackage) -> NumberingStyles:
    """Outline/paragraph numbering of ``Contents/header.xml``; a missing or unreadable header numbers nothing."""
    name = pkg.find("Contents/header.xml")
    if name is None:
        return NumberingStyles()
    try:
        return read_styles(pkg.read_xml(name))
    except KnownError:  # the body is what matters; a broken header only loses generated numbers
        return NumberingStyles()


def parse_hwpx(path: Path) -> ParsedDoc:
    """Parse one HWPX file. Raises ``KnownError`` (Korean) for files that cannot be read safely."""
    from kdsdesk.hashing import sha256_of

    path = Path(path).resolve()
    with open_hwpx(path) as pkg:
        names = _section_names(pkg)
        if not names:
            raise KnownError("HWPX 문서에 본문 구역(section)이 없습니다. 한글에서 다시 저장한 뒤 추가하세요.",
                             path=str(path))
        walker = _Walker(path, numberer=Numberer(_numbering_styles(pkg)))
        for name in names:
            walker.section(pkg.read_xml(name))
        opf_title = _opf_title(pkg)
    walker.flush_pending()
    walker.flush_notes()
    code, title, year = detect_doc_meta(walker.first_lines, path.name)
    doc = DocRef(file=str(path), sha256=sha256_of(path), kind="hwpx", doc_code=code,
                 title=title or opf_title, year=year)
    stats = dict(walker.stats)
    stats["numbered_paragraphs"] = walker.numberer.numbered
    stats["blocks"] = len(walker.blocks)
    stats["chars"] = sum(len(b.text) for b in walker.blocks)
    return ParsedDoc(doc=doc, blocks=tuple(walker.blocks), n_pages=0, stats=stats)
