"""Pages of lines → blocks: running headers/footers, page labels, unreadable regions, headings, paragraphs,
display equations and tables in reading order.

- Running lines: a line in the top or bottom band whose text (digits masked) recurs at the same height on most
  pages is removed; a number that changes from page to page in such a line is the printed page label. Rules in
  the bands that recur on most pages (or on most of the pages whose drawings were read) go too.
- Tables (``pdf_tables``) take their place in reading order; a table that comes first on a page and continues
  the numbered table that ended the previous page joins it (``pdf_table_pages``).
- Unreadable regions: rows of vector-outline lettering (``pdf_outlines``; no text layer) away from the running
  header/footer, table captions drawn that way, tables whose lettering is mostly outlines (kept as a caption and
  ``[표 내용 판독 불가]``, no cells), equations printed as ASCII codes, and pages that are only an
  image.
- Headings: ``clauses.parse_heading`` + ``ClauseTracker`` order, and the line must look like a heading (bold or
  larger than body text, or not the continuation of a paragraph). A heading that fills the line width continues on
  the next line.
- Paragraphs: wrapped lines join; a new paragraph starts at an item marker (``(1)``, ``①``, ``가.``), a heading,
  a wider gap, a line that starts left of the paragraph, or after a line that ended early (its next word would
  have fitted). Korean lines broken inside a word join without a space when the document marks word breaks with
  a trailing space (한글's export does); otherwise a space.
"""

from __future__ import annotations

import dataclasses
import itertools
import re
import statistics
from collections.abc import Mapping
from dataclasses import dataclass, field

from kdsdesk.ingest import pua
from kdsdesk.ingest.clauses import ClauseTracker, heading_level, parse_heading, split_item
from kdsdesk.ingest.pdf_ocr import PageOcr, read_outlines
from kdsdesk.ingest.pdf_outlines import OUTLINE_REASON, TABLE_REASON, outline_regions, table_outlined
from kdsdesk.ingest.pdf_page import PageData as PageData
from kdsdesk.ingest.pdf_table_pages import OpenTable, continues, merge, start
from kdsdesk.ingest.pdf_tables import PageTable, find_tables, table_text, unreadable
from kdsdesk.ingest.pdf_text import Line, PageStats
from kdsdesk.records import Block, BlockKind, RectT, Span, Table, UnreadableRegion

OcrRects = Mapping[tuple[int, RectT], float]  # (page, rectangle) of each word read by OCR → its confidence

RUNNING_BAND = 0.12  # top/bottom share of the page where running headers/footers live
EQ_LABEL = re.compile(r"\s*\((?:[A-Z]\.)?\d+(?:\.\d+)*[-–]\d+[a-z]?\)\s*$")
_PAGE_NO = re.compile(r"^[-–—·\s]*(\d{1,4})[-–—·\s]*$")
_LAST_NO = re.compile(r"(?:^|\s)(\d{1,4})\s*$|^(\d{1,4})\s")
_DIGITS = re.compile(r"\d+")
_BARE_NUMBER = re.compile(r"^\s*([1-9]\d?(?:\.[1-9]\d?){0,5})\.?\s*$")
_HANGUL = re.compile(r"[가-힣]")
_TOC_TITLE = re.compile(r"^\s*(?:목\s*차|차\s*례|contents)\s*$", re.IGNORECASE)
_TOC_ENTRY = re.compile(r"^\s*(?:[A-Z]|\d{1,2})(?:\.\d{1,2})*\.?\s+\S.*?(?:\s|[.·…])\d{1,3}\s*$")
TOC_SHARE = 0.5  # a page whose lines are mostly "number title … page" entries (at least TOC_MIN) is a contents page
TOC_MIN = 5

CAPTION_REASON = "표 제목이 벡터 윤곽선으로 그려져 있어 읽을 수 없습니다"
EQUATION_REASON = "수식이 ASCII 문자로 출력되어 읽을 수 없습니다"


@dataclass(slots=True)
class LayoutResult:
    blocks: list[Block]
    page_labels: Mapping[int, str]
    unreadable: list[UnreadableRegion]
    running_removed: int = 0


@dataclass(slots=True)
class _Piece:
    line: Line
    page: int


@dataclass(slots=True)
class _Acc:
    """A block being built from lines."""

    kind: BlockKind
    parts: list[str] = field(default_factory=list)
    spans: list[Span] = field(default_factory=list)
    pieces: list[_Piece] = field(default_factory=list)
    length: int = 0
    ocr: OcrRects = field(default_factory=dict)

    def add(self, piece: _Piece, sep: str) -> None:
        if self.parts:
            self.parts.append(sep)
            self.length += len(sep)
        ln = piece.line
        base, page, ocr = self.length, piece.page, self.ocr
        if ocr:
            self.spans.extend([Span(base + s, base + e, page, r, None, ocr.get((page, r))) for s, e, r in ln.spans])
        else:  # no OCR'd text in the file: no look-ups
            self.spans.extend([Span(base + s, base + e, page, r, None, None) for s, e, r in ln.spans])
        self.parts.append(ln.text)
        self.length += len(ln.text)
        self.pieces.append(piece)

    @property
    def text(self) -> str:
        return "".join(self.parts)


def _in_band(ln: Line, page: PageData) -> bool:
    return ln.y1 <= page.height * RUNNING_BAND or ln.y0 >= page.height * (1 - RUNNING_BAND)


def remove_running(pages: list[PageData]) -> tuple[dict[int, str], int]:
    """Drop running header/footer lines and rules; the printed page numbers found in them."""
    n = len(pages)
    need = max(2, (n + 1) // 2)
    counts: dict[tuple[int, str], int] = {}
    for p in pages:
        seen = {(round(ln.y0 / 4), _DIGITS.sub("#", ln.text)) for ln in p.lines if _in_band(ln, p)}
        for key in seen:
            counts[key] = counts.get(key, 0) + 1
    labels: dict[int, str] = {}
    removed = 0
    for p in pages:
        keep: list[Line] = []
        for ln in p.lines:
            if not _in_band(ln, p):
                keep.append(ln)
                continue
            running = counts.get((round(ln.y0 / 4), _DIGITS.sub("#", ln.text)), 0) >= need
            m = _PAGE_NO.match(ln.text)
            if m is not None and (running or n < 3 or ln.y0 >= p.height * (1 - RUNNING_BAND)):
                labels[p.index] = m.group(1)
                removed += 1
                continue
            if running:
                removed += 1
                m2 = _LAST_NO.search(ln.text)
                if m2 is not None and p.index not in labels:
                    labels[p.index] = m2.group(1) or m2.group(2)
                continue
            keep.append(ln)
        p.lines = keep
    _drop_constant_labels(labels)
    rule_counts: dict[tuple[int, int, int], int] = {}
    for p in pages:
        for r in p.rules:
            k = (round(r.y / 2), round(r.x0 / 4), round(r.x1 / 4))
            rule_counts[k] = rule_counts.get(k, 0) + 1
    # rules are read only on pages with drawings in the body: a header rule also counts as running when it is on
    # most of those pages (two thirds, at least two)
    drawn = sum(1 for p in pages if p.rules)
    rule_need = min(need, max(2, -(-2 * drawn // 3)))
    for p in pages:
        p.rules = [
            r for r in p.rules
            if rule_counts[(round(r.y / 2), round(r.x0 / 4), round(r.x1 / 4))] < rule_need
            or RUNNING_BAND * p.height < r.y < (1 - RUNNING_BAND) * p.height
        ]
    return labels, removed


def _drop_constant_labels(labels: dict[int, str]) -> None:
    """A number that is the same on most pages (an edition year in the header) is not a page label."""
    if len(labels) < 3:
        return
    values = list(labels.values())
    common = max(set(values), key=values.count)
    if values.count(common) > len(values) // 2:
        for k in [k for k, v in labels.items() if v == common]:
            del labels[k]


def _first_word_width(ln: Line) -> float:
    word = ln.text.split(" ", 1)[0]
    for s, e, rect in ln.spans:
        if s <= len(word) <= e or e >= len(word):
            frac = (len(word) - s) / max(1, e - s)
            return max(0.0, rect[0] + frac * (rect[2] - rect[0]) - ln.x0)
    return ln.x1 - ln.x0


@dataclass(slots=True)
class _Metrics:
    body_size: float
    right: dict[int, float]
    left: dict[int, float]
    gap: float
    trail_style: bool


def _metrics(pages: list[PageData]) -> _Metrics:
    sizes: dict[float, int] = {}
    for p in pages:
        for ln in p.lines:
            sizes[ln.size] = sizes.get(ln.size, 0) + len(ln.text)
    body = max(sizes, key=lambda k: sizes[k]) if sizes else 10.0
    right: dict[int, float] = {}
    left: dict[int, float] = {}
    gaps: list[float] = []
    n_trail = n_lines = 0
    for p in pages:
        body_lines = [ln for ln in p.lines if abs(ln.size - body) < 0.6]
        if body_lines:
            xs = sorted(ln.x1 for ln in body_lines)
            right[p.index] = xs[int(0.9 * (len(xs) - 1))]
            left[p.index] = sorted(ln.x0 for ln in body_lines)[len(body_lines) // 10]
        for a, b in itertools.pairwise(body_lines):
            g = b.y0 - a.y1
            if 0 <= g < 2 * body:
                gaps.append(g)
        n_lines += len(body_lines)
        n_trail += sum(1 for ln in body_lines if ln.trail)
    all_right = statistics.median(right.values()) if right else 0.0
    for p in pages:
        right.setdefault(p.index, all_right)
        left.setdefault(p.index, 0.0)
    gap = statistics.median(gaps) if gaps else 0.5 * body
    return _Metrics(body, right, left, gap, n_trail >= 3 and n_trail >= 0.05 * n_lines)


def _is_equation(ln: Line, m: _Metrics, page: int) -> bool:
    text = EQ_LABEL.sub("", ln.text)
    if not text.strip() or split_item(ln.text) or ln.math_share < 0.5:
        return False
    return ln.x0 >= m.left[page] + 2 * ln.size or bool(EQ_LABEL.search(ln.text))


def _marked(ot: OpenTable, ocr: OcrRects) -> Table:
    """The table with ``TableCell.ocr`` set on cells whose text was (partly) read by OCR."""
    hits = {k for k, v in ot.cells.items() if any((pg, r) in ocr for _, _, (pg, r) in v)} if ocr else set()
    if not hits:
        return ot.table
    cells = tuple(dataclasses.replace(c, ocr=True) if (c.row, c.col) in hits else c for c in ot.table.cells)
    return dataclasses.replace(ot.table, cells=cells)


def toc_pages(pages: list[PageData]) -> set[int]:
    """Pages of the table of contents: titled 목차/차례, or mostly entries ending in a page number. Their lines are
    never headings (with page numbers drawn as outlines and read by OCR, a contents line looks like a heading)."""
    out: set[int] = set()
    for p in pages:
        texts = [ln.text for ln in p.lines if ln.text.strip()]
        entries = sum(1 for t in texts if _TOC_ENTRY.match(t))
        if any(_TOC_TITLE.match(t) for t in texts) or (entries >= TOC_MIN and entries >= TOC_SHARE * len(texts)):
            out.add(p.index)
    return out


class _Builder:
    def __init__(self, m: _Metrics, ocr: OcrRects, toc: set[int] | None = None) -> None:
        self.m = m
        self.ocr = ocr
        self.toc = toc or set()
        self.tracker = ClauseTracker()
        self.blocks: list[Block] = []
        self.acc: _Acc | None = None
        self.open_table: OpenTable | None = None  # the last table block, to join a continuation on the next page
        self.open_block: Block | None = None

    def flush(self) -> None:
        acc, self.acc = self.acc, None
        if acc is None or not acc.parts:
            return
        text = acc.text
        pages = tuple(dict.fromkeys(p.page for p in acc.pieces))
        if acc.kind == "heading":
            number = self.tracker.clause
            self.blocks.append(
                Block("heading", text, number, self.tracker.clause_path, "", pages, (), tuple(acc.spans),
                      heading_level=heading_level(number))
            )
            return
        item = split_item(text) if acc.kind == "text" else ""
        self.blocks.append(
            Block(acc.kind, text, self.tracker.clause, self.tracker.clause_path, item, pages, (), tuple(acc.spans))
        )

    def _full(self, piece: _Piece) -> bool:
        return piece.line.x1 >= self.m.right[piece.page] - 0.8 * piece.line.size

    def _joiner(self, prev: _Piece, piece: _Piece) -> str:
        a, b = prev.line.text, piece.line.text
        if prev.line.trail or not self.m.trail_style:
            return " "
        if self._full(prev) and a and b and not a[-1].isspace() and not b[0].isspace():
            return ""
        return " "

    def _continues(self, prev: _Piece, piece: _Piece) -> bool:
        a, b = prev.line, piece.line
        if split_item(b.text):
            return False
        first = self.acc.pieces[0].line if self.acc else a
        if piece.page == prev.page:
            if b.y0 - a.y1 > self.m.gap + 0.6 * b.size or b.y0 < a.y0:
                return False
            if b.x0 < first.x0 - 0.5 * b.size:
                return False
        room = self.m.right[prev.page] - a.x1
        return room <= _first_word_width(b) + 0.5 * b.size

    def _heading_like(self, piece: _Piece, prev: _Piece | None) -> bool:
        ln = piece.line
        if ln.bold or ln.size > self.m.body_size + 0.4 or (ln.runs and ln.runs[0].bold):
            return True  # (KCSC sets the clause number in bold; some title fonts carry no bold flag)
        if self.acc is None or self.acc.kind != "text" or prev is None:
            return True
        return not self._continues(prev, piece)

    def line(self, piece: _Piece, prev: _Piece | None) -> None:
        ln = piece.line
        acc = self.acc
        if (
            acc is not None and acc.kind == "heading" and prev is not None and self._full(prev)
            and not split_item(ln.text) and parse_heading(ln.text) is None and self._continues(prev, piece)
            and len(acc.pieces) < 2
        ):
            acc.add(piece, self._joiner(prev, piece))
            return
        parsed = parse_heading(ln.text) if piece.page not in self.toc else None
        bare = _BARE_NUMBER.match(ln.text) if piece.page not in self.toc else None
        if parsed is None and bare is not None and (ln.bold or ln.size > self.m.body_size + 0.4):
            parsed = (bare.group(1), "")  # the title is drawn as outlines (no text layer)
        if parsed is not None and self.tracker.acceptable(*parsed) and self._heading_like(piece, prev):
            self.flush()
            self.tracker.accept(*parsed)
            self.acc = _Acc("heading", ocr=self.ocr)
            self.acc.add(piece, "")
            return
        if _is_equation(ln, self.m, piece.page):
            self.flush()
            self.acc = _Acc("equation", ocr=self.ocr)
            self.acc.add(piece, "")
            self.flush()
            return
        if acc is not None and acc.kind == "text" and prev is not None and self._continues(prev, piece):
            acc.add(piece, self._joiner(prev, piece))
            return
        self.flush()
        self.acc = _Acc("text", ocr=self.ocr)
        self.acc.add(piece, "")

    def table(self, pt: PageTable, page: int, first_on_page: bool) -> None:
        self.flush()
        last = self.open_table
        if (
            last is not None and first_on_page and self.blocks and self.blocks[-1] is self.open_block
            and continues(last, pt, page)
        ):  # the rest of the table that ended the previous page
            last = merge(last, pt, page)
            text, paged = table_text(last.table, last.cells)
            prev = self.blocks[-1]
            self.blocks[-1] = Block(
                "table", text, prev.clause, prev.clause_path, "", last.pages, (),
                tuple(Span(s, e, pg, r, None, self.ocr.get((pg, r))) for s, e, (pg, r) in paged),
                _marked(last, self.ocr),
            )
        else:
            last = start(pt, page)
            spans = tuple(Span(s, e, page, r, None, self.ocr.get((page, r))) for s, e, r in pt.spans)
            self.blocks.append(
                Block("table", pt.text, self.tracker.clause, self.tracker.clause_path, "", (page,), (), spans,
                      _marked(last, self.ocr))
            )
        self.open_table, self.open_block = last, self.blocks[-1]


def layout_document(
    pages: list[PageData], pstats: pua.PuaStats, stats: PageStats, ocr: PageOcr | None = None
) -> LayoutResult:
    """Blocks of the whole document in reading order, with page labels and unreadable regions. With ``ocr``, rows
    of outline lettering are read and become text (their spans marked) instead of unreadable regions."""
    labels, removed = remove_running(pages)
    regions = outline_regions(pages)
    if ocr is not None:
        regions = read_outlines(pages, regions, ocr, stats, OUTLINE_REASON)
    by_page: dict[int, list[UnreadableRegion]] = {}
    for u in regions:
        by_page.setdefault(u.page_index, []).append(u)
    m = _metrics(pages)
    b = _Builder(m, ocr.ocr_rects if ocr is not None else {}, toc_pages(pages))
    prev: _Piece | None = None
    for p in pages:
        tables = find_tables(p.rules, p.lines, p.index, lambda a, c: " ", pstats, stats, p.vrules)
        for k, t in enumerate(tables):
            rects = (r for spans in t.cells.values() for _, _, r in spans)
            if table_outlined(t.table, rects, by_page.get(p.index, [])):
                tables[k] = unreadable(t)
                regions.append(UnreadableRegion(p.index, t.table.bbox, TABLE_REASON))
        used = {id(ln) for t in tables for ln in t.lines}
        items: list[tuple[float, Line | PageTable]] = [(ln.y0, ln) for ln in p.lines if id(ln) not in used]
        for t in tables:
            cap = [ln.y0 for ln in t.lines if ln.y1 <= t.top + 1]
            items.append((min(cap) if cap else t.top, t))
            if t.caption_unreadable:
                bbox = t.table.bbox or (0.0, 0.0, p.width, p.height)
                regions.append(UnreadableRegion(p.index, (bbox[0], bbox[1] - 30, bbox[2], bbox[1]), CAPTION_REASON))
        items.sort(key=lambda it: it[0])
        for k, (_, item) in enumerate(items):
            if isinstance(item, Line):
                piece = _Piece(item, p.index)
                for rect in item.unreadable:
                    regions.append(UnreadableRegion(p.index, rect, EQUATION_REASON))
                b.line(piece, prev)
                prev = piece
            else:
                b.table(item, p.index, k == 0)
                prev = None
    b.flush()
    return LayoutResult(b.blocks, labels, regions, removed)
