"""Frozen records passed between the stages (ingest → text → index → retrieve → answer/verify → show).

Index bases: ``page_index`` is 0-based everywhere inside the code; JSON output and the UI show 1-based pages
(``page_index + 1``). HWPX locations are 0-based paragraph indexes in document order and have no pages.

Every extracted text keeps ``Span``s: character ranges of the text mapped to their source location (page index and
PDF rectangle in PyMuPDF's top-left-origin points, or HWPX paragraph index). Verification, citation labels and the
page highlight share this one coordinate system.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

BlockKind = Literal["heading", "text", "table", "equation"]
ChunkKind = Literal["text", "table", "equation"]
FileKind = Literal["pdf", "hwpx"]
Route = Literal["bm25", "table_no", "table_title", "table_row", "clause_no", "rrf", "dense", "definition"]
Status = Literal["confirmed", "warning", "restricted", "unverified"]
QType = Literal["numeric", "conditional", "regulation", "definition"]

RectT = tuple[float, float, float, float]


@dataclass(frozen=True, slots=True)
class Span:
    """Characters ``[start, end)`` of an owning text come from one place of the source.

    For PDF: ``page_index`` (0-based) and ``rect`` (x0, y0, x1, y1 in points, top-left origin) of those characters
    on one line. For HWPX: ``paragraph`` (0-based, document order) and no page/rect. A span never crosses a line.
    ``ocr``: the recognition confidence (0–1) when the characters were read by OCR from lettering drawn as outlines
    or a scanned page (the engine is ``Chunk.ocr`` / ``ParsedDoc.ocr_engine``); ``None`` for the text layer.
    """

    start: int
    end: int
    page_index: int | None = None
    rect: RectT | None = None
    paragraph: int | None = None
    ocr: float | None = None

    def shifted(self, offset: int) -> Span:
        return Span(self.start + offset, self.end + offset, self.page_index, self.rect, self.paragraph, self.ocr)


@dataclass(frozen=True, slots=True)
class DocRef:
    """Identity and provenance of one source file."""

    file: str  # absolute path
    sha256: str
    kind: FileKind
    doc_code: str = ""  # e.g. "KDS 14 20 22"
    title: str = ""
    year: str = ""  # edition year, e.g. "2022"

    @property
    def stem(self) -> str:
        from pathlib import PurePath

        return PurePath(self.file).stem


@dataclass(frozen=True, slots=True)
class TableCell:
    """One (possibly merged) cell at its top-left grid position."""

    row: int
    col: int
    text: str
    rowspan: int = 1
    colspan: int = 1
    is_header: bool = False
    ocr: bool = False  # some of the text was read by OCR (its spans carry the confidence)


@dataclass(frozen=True, slots=True)
class Table:
    """A table as a cell grid with merged cells; ``header_rows`` leading rows are column headers."""

    number: str  # "4.2-1" (without "표"); "" when the table has no numbered caption
    caption: str  # full caption line, e.g. "표 4.2-1 전단강도 감소계수"
    n_rows: int
    n_cols: int
    cells: tuple[TableCell, ...]
    header_rows: int = 1
    header_cols: int = 0
    bbox: RectT | None = None  # PDF only
    page_index: int | None = None  # PDF only: page of the caption / first row
    # the expanded grid, built once on first use (a cache: not compared, not part of the identity)
    _grid: list[list[TableCell | None]] | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def title(self) -> str:
        """Caption without the "표 N.N-N" prefix."""
        import re

        return re.sub(r"^\s*표\s*[A-Z0-9][0-9.\-]*\s*", "", self.caption).strip()

    def grid(self) -> list[list[TableCell | None]]:
        """Expanded grid: every position holds the cell covering it (merged cells repeat).

        Built once per table and linear in its positions (a span is cut at the table's edge); the same list is
        returned on every call, so callers must not change it.
        """
        g = self._grid
        if g is None:
            g = [[None] * self.n_cols for _ in range(self.n_rows)]
            for c in self.cells:
                row_end = min(c.row + c.rowspan, self.n_rows)
                col_end = min(c.col + c.colspan, self.n_cols)
                if c.col >= col_end:
                    continue
                for r in range(max(c.row, 0), row_end):
                    g[r][c.col : col_end] = [c] * (col_end - c.col)
            object.__setattr__(self, "_grid", g)
        return g

    def origin_grid(self) -> list[list[str | None]]:
        """Grid of texts: a cell's text at its top-left, ``None`` where a span covers, ``""`` where no cell is."""
        g: list[list[str | None]] = [[""] * self.n_cols for _ in range(self.n_rows)]
        for c in self.cells:
            col_end = min(c.col + c.colspan, self.n_cols)
            for r in range(max(c.row, 0), min(c.row + c.rowspan, self.n_rows)):
                if c.col < col_end:
                    g[r][c.col : col_end] = [None] * (col_end - c.col)
        for c in self.cells:
            if c.row < self.n_rows and c.col < self.n_cols:
                g[c.row][c.col] = c.text
        return g

    def column_headers(self, col: int) -> list[str]:
        """Header texts above ``col`` from the top header row down (multi-level headers resolved)."""
        out: list[str] = []
        grid = self.grid()
        for r in range(min(self.header_rows, self.n_rows)):
            cell = grid[r][col]
            if cell is not None and cell.text and (not out or out[-1] != cell.text):
                out.append(cell.text)
        return out

    def row_headers(self, row: int) -> list[str]:
        """Texts of the row-header columns of ``row`` (merged cells resolved)."""
        out: list[str] = []
        grid = self.grid()
        for k in range(min(self.header_cols, self.n_cols)):
            cell = grid[row][k]
            if cell is not None and cell.text and (not out or out[-1] != cell.text):
                out.append(cell.text)
        return out

    def rows_text(self) -> list[str]:
        """One line per row: the row's cells joined by `` | `` (a merged cell's text once, at its first position)."""
        lines = []
        for row in self.origin_grid():
            lines.append(" | ".join(t for t in row if t is not None))
        return lines

    def row_records(self) -> list[str]:
        """Per body row: ``표 번호 제목 | 머리: 값 · 머리: 값`` (headers from the merged-cell grid)."""
        grid = self.grid()
        head = f"표 {self.number} {self.title}".strip() if self.number else self.caption
        col_heads = [" ".join(self.column_headers(k)) for k in range(self.n_cols)]  # once per column, not per cell
        out = []
        for r in range(self.header_rows, self.n_rows):
            parts: list[str] = []
            last: TableCell | None = None
            for k in range(self.n_cols):
                cell = grid[r][k]
                if cell is None or cell is last:
                    continue
                last = cell
                hdr = col_heads[k]
                parts.append(f"{hdr}: {cell.text}" if hdr else cell.text)
            out.append(f"{head} | " + " · ".join(parts))
        return out


@dataclass(frozen=True, slots=True)
class Block:
    """One structural unit of a document in reading order: heading, paragraph, table or display equation."""

    kind: BlockKind
    text: str  # linear, searchable text (table: caption line + rows joined by " | ")
    clause: str = ""  # deepest clause number, "4.2.3"; "" before the first heading
    clause_path: tuple[str, ...] = ()  # ("4 설계", "4.2 전단", "4.2.3 전단철근")
    item: str = ""  # paragraph marker the text starts with: "(2)", "①", "가."
    pages: tuple[int, ...] = ()  # 0-based page indexes (PDF)
    paragraphs: tuple[int, ...] = ()  # 0-based paragraph indexes (HWPX)
    spans: tuple[Span, ...] = ()
    table: Table | None = None
    script: str = ""  # raw equation script (HWPX hp:script) for equations
    heading_level: int = 0  # for headings: number of levels in the clause number


@dataclass(frozen=True, slots=True)
class UnreadableRegion:
    """A region whose text could not be read (vector outlines, ASCII-punctuation equations, unknown glyphs)."""

    page_index: int
    rect: RectT | None
    reason: str  # short Korean reason


@dataclass(frozen=True, slots=True)
class ParsedDoc:
    """The output of a parser: document identity, blocks in order and measurements."""

    doc: DocRef
    blocks: tuple[Block, ...]
    n_pages: int = 0
    page_labels: Mapping[int, str] = field(default_factory=dict)  # page_index → printed page number
    unreadable: tuple[UnreadableRegion, ...] = ()
    stats: Mapping[str, float] = field(default_factory=dict)
    ocr_engine: str = ""  # engine and version that read some of the text ("" when none did)

    def tables(self) -> Iterator[Table]:
        for b in self.blocks:
            if b.table is not None:
                yield b.table


@dataclass(frozen=True, slots=True)
class Fact:
    """A value a chunk states, read at index time (``kdsdesk.text.facts``): a number in a sentence or a table cell,
    with what it is for. Offsets are into the owning chunk's text (-1: not located)."""

    kind: Literal["text", "cell"]
    value: str  # as written: "12", "2~20", "1 : 0.8", "1/24", "0.375h"
    unit: str = ""
    bound: str = ""  # "ge" (이상), "gt" (초과), "le" (이하, 까지, 넘지 않도록), "lt" (미만) or ""
    subject: str = ""  # the quantity it belongs to, as written ("나선철근의 순간격"); a table's title for cells
    cases: tuple[str, ...] = ()  # what it is written for: case phrases; a cell's row labels and column headers
    start: int = -1  # the value (with a leading "각각"/"모두") in the chunk text
    end: int = -1
    quote_start: int = -1  # the sentence (cells: the table row's line) to cite
    quote_end: int = -1
    symbolic: bool = False  # an expression with a symbol ("d/2", "0.375h", "1D")
    threshold: bool = False  # the number states a condition ("두께가 10 mm 이상인 경우"), not a result
    clause_start: int = -1  # the clause of the sentence holding it (text facts)
    clause_end: int = -1
    row: int = -1  # cells
    col: int = -1


@dataclass(frozen=True, slots=True)
class Chunk:
    """The unit of indexing and citation. Never spans two clauses; a table is one chunk."""

    chunk_id: str  # from the file's content hash and the block position: stable across machines
    doc: DocRef
    kind: ChunkKind
    text: str
    clause: str = ""
    clause_path: tuple[str, ...] = ()
    item: str = ""
    pages: tuple[int, ...] = ()  # 0-based
    paragraphs: tuple[int, ...] = ()
    spans: tuple[Span, ...] = ()  # offsets into ``text``
    table: Table | None = None
    ordinal: int = 0  # position of the chunk in its document
    ocr: str = ""  # engine and version when some of the text was read by OCR (its spans say which characters)
    facts: tuple[Fact, ...] = ()  # the values it states (index time)

    @property
    def table_number(self) -> str:
        return self.table.number if self.table is not None else ""

    def ocr_between(self, start: int, end: int) -> bool:
        """Whether any character of ``text[start:end]`` was read by OCR (a chunk without its spans: whether any of
        its text was)."""
        if not self.ocr:
            return False
        if not self.spans:
            return True
        return any(s.ocr is not None and s.start < end and s.end > start for s in self.spans)


@dataclass(frozen=True, slots=True)
class Hit:
    """A retrieved chunk with its rank, score and the route that placed it."""

    chunk: Chunk
    score: float
    rank: int  # 1-based
    route: Route = "bm25"


@dataclass(frozen=True, slots=True)
class Citation:
    """A quote from a retrieved chunk, located in its source."""

    chunk: Chunk
    quote: str
    verified: bool = False
    page_index: int | None = None  # where the quote starts (PDF); None for HWPX
    rects: tuple[tuple[int, float, float, float, float], ...] = ()  # (page_index, x0, y0, x1, y1)
    start: int = -1  # offset of the matched quote in chunk.text (-1 when not found)
    end: int = -1


@dataclass(frozen=True, slots=True)
class Need:
    """What a question asks, read from its words alone (``kdsdesk.verify.need``): the slots a reading of the
    evidence must fill before an answer is confirmed."""

    question: str
    qtype: QType
    kind: Literal["value", "requirement", "definition", "term", "formula"]
    subject: str = ""  # the quantity or topic asked, as written ("나선철근 순간격")
    head: str = ""  # its head noun ("순간격"); "" when the question names none
    conditions: tuple[str, ...] = ()  # cases the question states ("곡선", "시공 중")
    excluded: tuple[str, ...] = ()  # what the question rules out ("팽창성이 아닌 그라우트" → "팽창성")
    scope: str = ""  # the setting it opens with ("얕은기초에서 …"), one of ``conditions``; checked more widely
    bound: str = ""  # the bound asked ("몇 mm 이상" → "ge"), "" when none
    extreme: str = ""  # "min" (최소, 하한) / "max" (최대, 상한, 한도) / ""
    ordinal: int = 0  # a position asked ("첫 번째" → 1, "마지막" → -1)
    unit: str = ""  # the unit asked for
    dimension: str = ""  # the dimension asked ("length", "stress", "ratio" …)
    threshold: bool = False  # the value asked is a condition's limit ("얼마 미만이면 … 않나요?")
    permission: bool = False  # a yes/no question of what is allowed ("… 써도 되나요?", "… 할 수 있나요?")
    terms: tuple[str, ...] = ()  # content words (Kiwi), question words left out
    nouns: tuple[str, ...] = ()  # the nouns and symbols among them (what the question is about)


@dataclass(frozen=True, slots=True)
class Passage:
    """A retrieved passage shown when no answer is confirmed (or beside one): where it is and which question
    terms it holds (ranges into ``text``)."""

    chunk: Chunk
    text: str  # the passage (a sentence window of the chunk)
    start: int  # its offset in chunk.text
    page_index: int | None = None
    marks: tuple[tuple[int, int], ...] = ()  # question terms in ``text``
    score: float = 0.0


@dataclass(frozen=True, slots=True)
class Alternative:
    condition: str
    value: str
    unit: str = ""


@dataclass(frozen=True, slots=True)
class Verdict:
    """The outcome of verification: status and the individual checks (name → passed)."""

    status: Status
    checks: Mapping[str, bool] = field(default_factory=dict)
    reason: str = ""  # Korean, shown to the user when not confirmed


@dataclass(frozen=True, slots=True)
class Evidence:
    """One quote an answerer cites: the chunk it is from and the text as the answerer gives it."""

    chunk_id: str
    quote: str


@dataclass(frozen=True, slots=True)
class Draft:
    """An answer's content: what an answerer says (unverified), and — inside an :class:`Answer` — what is shown
    after verification (blank when nothing may be shown)."""

    qtype: QType
    value: str = ""
    unit: str = ""
    condition: str = ""
    alternatives: tuple[Alternative, ...] = ()
    requirements: tuple[str, ...] = ()
    definition: str = ""
    term: str = ""
    evidence: tuple[Evidence, ...] = ()
    from_table: bool = False  # the value is a table cell
    ambiguous: bool = False  # the answerer saw competing values of similar weight
    notes: Mapping[str, Any] = field(default_factory=dict)

    @property
    def given(self) -> bool:
        if self.qtype in ("numeric", "conditional"):
            return bool(self.value.strip())
        if self.qtype == "regulation":
            return any(r.strip() for r in self.requirements) or bool(self.value.strip())
        return bool(self.definition.strip() or self.term.strip())


@dataclass(frozen=True, slots=True)
class Answer:
    """A verified answer: the shown content (``draft``), the verdict, its evidence and what was asked."""

    question: str
    draft: Draft
    verdict: Verdict
    answer_text: str = ""
    citations: tuple[Citation, ...] = ()
    hits: tuple[Hit, ...] = ()
    need: Need | None = None
    reading: Mapping[str, Any] = field(default_factory=dict)  # the evidence's reading that matched the need
    passages: tuple[Passage, ...] = ()
    prompt_tokens: int = 0
    timing_ms: Mapping[str, float] = field(default_factory=dict)
    answerer: str = "extractive"  # "extractive" or the LLM file name

    @property
    def status(self) -> Status:
        return self.verdict.status

    @property
    def qtype(self) -> QType:
        return self.draft.qtype

    @property
    def value(self) -> str:
        return self.draft.value

    @property
    def unit(self) -> str:
        return self.draft.unit

    @property
    def condition(self) -> str:
        return self.draft.condition

    @property
    def alternatives(self) -> tuple[Alternative, ...]:
        return self.draft.alternatives

    @property
    def requirements(self) -> tuple[str, ...]:
        return self.draft.requirements

    @property
    def definition(self) -> str:
        return self.draft.definition


@dataclass(frozen=True, slots=True)
class Progress:
    """One step of a long operation. ``total`` 0 means unknown; ``detail`` is shown to the user (Korean)."""

    stage: str
    done: int
    total: int = 0
    detail: str = ""

    @property
    def fraction(self) -> float:
        return self.done / self.total if self.total else 0.0


DocStatus = Literal["indexing", "searchable", "failed"]


@dataclass(frozen=True, slots=True)
class DocInfo:
    """A document as the library's catalog knows it (what the library panel and ``kdsdesk list`` show)."""

    file: str  # absolute path
    sha256: str
    kind: FileKind
    doc_code: str
    title: str
    year: str
    status: DocStatus
    message: str = ""  # Korean failure message when status == "failed"
    n_pages: int = 0
    n_chunks: int = 0
    n_vectors: int = 0  # chunks with dense vectors (== n_chunks when dense search is ready)
    size: int = 0
    mtime: float = 0.0


@dataclass(frozen=True, slots=True)
class IndexReport:
    """What one ``Library.add`` run did."""

    added: tuple[str, ...] = ()
    replaced: tuple[str, ...] = ()
    skipped: tuple[str, ...] = ()  # unchanged (same hash and versions)
    failed: tuple[tuple[str, str], ...] = ()  # (file, Korean message)
    duplicates: tuple[tuple[str, str], ...] = ()  # (file, the indexed file with the same content)
