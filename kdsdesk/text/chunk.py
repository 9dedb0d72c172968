"""Clause-aware chunks: a chunk never spans two clauses; body text is split at sentence boundaries to a bounded
length; a table is one chunk; equations stay with their clause's text.

Text before a document's first heading has no clause of its own. In one part of a standard split over several
files (KDS 14 31 10 and KDS143110-1 … -5) it continues the clause that ended the previous part: the indexer passes
that clause as ``lead``; without it (the part indexed alone) it belongs to the parent of the part's first heading
(text before 4.2.5 is inside 4.2), so no body chunk of a part is left without a clause. A document whose first
heading is in chapter 1 (1. 일반사항, or 1.1 목적 when the chapter title was not read) keeps its front matter
(cover, 연혁, 목차) without a clause.

``chunk_id`` = first 16 hex digits of the file's sha256 + the chunk's ordinal: stable across re-indexing and
machines for the same file content and parser version.
"""

from __future__ import annotations

from collections.abc import Sequence

from kdsdesk.records import Block, Chunk, ChunkKind, ParsedDoc, Span
from kdsdesk.text.facts import FACTS_VERSION, chunk_facts
from kdsdesk.text.sentences import split_sentences

# Bump whenever chunks produced from the same blocks may change: libraries re-index every file. The facts read
# from each chunk (``kdsdesk.text.facts``) are part of it.
CHUNKER_VERSION = f"2+facts{FACTS_VERSION}"
MAX_CHARS = 700  # body chunks are cut at sentence ends near this length


def make_chunk_id(sha256: str, ordinal: int) -> str:
    return f"{sha256[:16]}-{ordinal:05d}"


def _slice_spans(spans: Sequence[Span], a: int, b: int, offset: int) -> list[Span]:
    """Spans of ``[a, b)`` re-based to start at ``offset`` (spans crossing the cut are clipped)."""
    out = []
    for s in spans:
        lo, hi = max(s.start, a), min(s.end, b)
        if lo < hi:
            out.append(Span(lo - a + offset, hi - a + offset, s.page_index, s.rect, s.paragraph, s.ocr))
    return out


Lead = tuple[str, tuple[str, ...]]  # (clause, clause path) that text before the first heading continues


def leading_clause(parsed: ParsedDoc) -> Lead | None:
    """The parent of the first heading, when that heading is not a top-level one and not in chapter 1 (the file is a
    later part); its path is the heading's ancestors when the parser knew them, else the parent's number alone."""
    first = next((b for b in parsed.blocks if b.kind == "heading" and b.clause), None)
    if first is None or "." not in first.clause or first.clause.split(".", 1)[0] == "1":
        return None  # a standard's own start (1.1 목적 after a cover, 연혁 and 목차): front matter has no clause
    parent = first.clause.rsplit(".", 1)[0]
    path = first.clause_path[:-1] if len(first.clause_path) >= 2 else (parent,)
    return parent, path


class _Builder:
    def __init__(self, parsed: ParsedDoc, lead: Lead | None = None) -> None:
        self.parsed = parsed
        self.lead = lead
        self.chunks: list[Chunk] = []
        self._reset()

    def _reset(self) -> None:
        self.parts: list[str] = []
        self.spans: list[Span] = []
        self.pages: list[int] = []
        self.paragraphs: list[int] = []
        self.kinds: set[str] = set()
        self.first: Block | None = None
        self.length = 0

    def _add_piece(self, block: Block, text: str, spans: Sequence[Span], sep: str = "\n") -> None:
        """Append ``text``; blocks are joined by a line break, sentences of one block by a space."""
        if self.first is None:
            self.first = block
        if self.parts:
            self.parts.append(sep)
            self.length += len(sep)
        offset = self.length
        self.parts.append(text)
        self.spans.extend(s.shifted(offset) for s in spans)
        self.length += len(text)
        self.kinds.add(block.kind)
        for p in block.pages:
            if p not in self.pages:
                self.pages.append(p)
        for q in block.paragraphs:
            if q not in self.paragraphs:
                self.paragraphs.append(q)

    def add_body(self, block: Block) -> None:
        text = block.text
        if len(text) <= MAX_CHARS:
            if self.length + len(text) > MAX_CHARS and self.parts:
                self.flush()
            self._add_piece(block, text, block.spans)
            return
        same_block = False
        for a, b in split_sentences(text):
            piece = text[a:b]
            if self.length + len(piece) > MAX_CHARS and self.parts:
                self.flush()
                same_block = False
            self._add_piece(block, piece, _slice_spans(block.spans, a, b, 0), " " if same_block else "\n")
            same_block = True

    def flush(self) -> None:
        if not self.parts or self.first is None:
            self._reset()
            return
        kind: ChunkKind = "equation" if self.kinds == {"equation"} else "text"
        first = self.first
        self._emit(kind, "".join(self.parts), first, tuple(self.spans), tuple(self.pages), tuple(self.paragraphs))
        self._reset()

    def _emit(
        self,
        kind: ChunkKind,
        text: str,
        first: Block,
        spans: tuple[Span, ...],
        pages: tuple[int, ...],
        paragraphs: tuple[int, ...],
    ) -> None:
        ordinal = len(self.chunks)
        table = first.table if kind == "table" else None
        clause, path = (first.clause, first.clause_path)
        if not clause and self.lead is not None:
            clause, path = self.lead
        read = any(s.ocr is not None for s in spans) or (table is not None and any(c.ocr for c in table.cells))
        self.chunks.append(
            Chunk(
                chunk_id=make_chunk_id(self.parsed.doc.sha256, ordinal),
                doc=self.parsed.doc,
                kind=kind,
                text=text,
                clause=clause,
                clause_path=path,
                item=first.item,
                pages=pages,
                paragraphs=paragraphs,
                spans=spans,
                table=table,
                ordinal=ordinal,
                ocr=(self.parsed.ocr_engine or "ocr") if read else "",
                facts=chunk_facts(kind, text, table),
            )
        )

    def add_table(self, block: Block) -> None:
        self.flush()
        self._emit("table", block.text, block, block.spans, block.pages, block.paragraphs)


def chunk_document(parsed: ParsedDoc, lead: Lead | None = None) -> list[Chunk]:
    """Chunks of a parsed document in reading order; text before the first heading continues ``lead`` (the clause
    that ended the previous part of the same standard), else :func:`leading_clause`."""
    b = _Builder(parsed, lead or leading_clause(parsed))
    clause: str | None = None
    for block in parsed.blocks:
        if block.kind == "heading":
            b.flush()
            clause = block.clause
            continue
        if clause is not None and block.clause != clause:
            b.flush()
        clause = block.clause
        if block.kind == "table":
            b.add_table(block)
        elif block.text.strip():
            b.add_body(block)
    b.flush()
    return b.chunks
