"""``Chunk`` ⇄ plain JSON-able dicts, exactly round-tripping (spans, table cells, clause path, pages).

Used by the catalog (chunks are stored as JSON in SQLite, without their ``DocRef``, which the catalog keeps once per
file, and with their spans packed apart by ``spans_to_blob``: a PDF chunk has ~85 spans, which dominate both the
size and the decoding time) and by the index-pack export (with the ``DocRef``). Compact: spans and cells are short
lists.
"""

from __future__ import annotations

import math
import struct
import zlib
from typing import Any

from kdsdesk.records import Chunk, DocRef, Fact, Span, Table, TableCell

SERIAL_VERSION = 1


def doc_to_dict(doc: DocRef) -> dict[str, Any]:
    return {
        "file": doc.file,
        "sha256": doc.sha256,
        "kind": doc.kind,
        "doc_code": doc.doc_code,
        "title": doc.title,
        "year": doc.year,
    }


def doc_from_dict(d: dict[str, Any]) -> DocRef:
    return DocRef(
        file=d["file"],
        sha256=d["sha256"],
        kind=d["kind"],
        doc_code=d.get("doc_code", ""),
        title=d.get("title", ""),
        year=d.get("year", ""),
    )


def _rect(r: Any) -> tuple[float, float, float, float] | None:
    if r is None:
        return None
    a, b, c, d = r
    return (float(a), float(b), float(c), float(d))


def span_to_list(s: Span) -> list[Any]:
    out = [s.start, s.end, s.page_index, list(s.rect) if s.rect is not None else None, s.paragraph]
    return out if s.ocr is None else [*out, s.ocr]


def span_from_list(v: list[Any]) -> Span:
    return Span(int(v[0]), int(v[1]), v[2], _rect(v[3]), v[4], float(v[5]) if len(v) > 5 else None)


_SPAN = struct.Struct("<iiiidddd")  # start, end, page (-1: none), paragraph (-1: none), rect (NaN: none)
_OCR_SPAN = struct.Struct("<iiiiddddd")  # the same and the OCR confidence (NaN: text layer)
_OCR = b"\x00OC"  # spans of a chunk with OCR text: records of ``_OCR_SPAN`` (never the start of a plain record)


_ZLIB = b"\x00ZL"  # a packed record never starts so (it would be a span starting at offset 5,003,776)


def spans_to_blob(spans: tuple[Span, ...]) -> bytes:
    """Spans packed as fixed-size records (float64 rectangles: exact), zlib-compressed (~4 KB → ~1.5 KB for a PDF
    chunk of ~85 spans). A chunk with text read by OCR has records with its confidence, after a marker."""
    nan = math.nan
    if any(s.ocr is not None for s in spans):
        packed = b"".join(
            _OCR_SPAN.pack(
                s.start, s.end,
                -1 if s.page_index is None else s.page_index,
                -1 if s.paragraph is None else s.paragraph,
                *(s.rect if s.rect is not None else (nan, nan, nan, nan)),
                nan if s.ocr is None else s.ocr,
            )
            for s in spans
        )  # fmt: skip
        return _OCR + zlib.compress(packed, 6)
    raw = b"".join(
        _SPAN.pack(
            s.start, s.end,
            -1 if s.page_index is None else s.page_index,
            -1 if s.paragraph is None else s.paragraph,
            *(s.rect if s.rect is not None else (nan, nan, nan, nan)),
        )
        for s in spans
    )  # fmt: skip
    return _ZLIB + zlib.compress(raw, 6) if len(raw) > 256 else raw


def spans_from_blob(blob: bytes) -> tuple[Span, ...]:
    if blob.startswith(_OCR):
        return tuple(
            Span(a, b, None if p < 0 else p, None if x0 != x0 else (x0, y0, x1, y1), None if q < 0 else q,
                 None if c != c else c)
            for a, b, p, q, x0, y0, x1, y1, c in _OCR_SPAN.iter_unpack(zlib.decompress(blob[len(_OCR) :]))
        )
    raw = zlib.decompress(blob[len(_ZLIB) :]) if blob.startswith(_ZLIB) else blob
    return tuple(
        Span(a, b, None if p < 0 else p, None if x0 != x0 else (x0, y0, x1, y1), None if q < 0 else q)
        for a, b, p, q, x0, y0, x1, y1 in _SPAN.iter_unpack(raw)
    )


def table_to_dict(t: Table) -> dict[str, Any]:
    return {
        "number": t.number,
        "caption": t.caption,
        "n_rows": t.n_rows,
        "n_cols": t.n_cols,
        "cells": [
            [c.row, c.col, c.text, c.rowspan, c.colspan, c.is_header, *([True] if c.ocr else [])] for c in t.cells
        ],
        "header_rows": t.header_rows,
        "header_cols": t.header_cols,
        "bbox": list(t.bbox) if t.bbox is not None else None,
        "page_index": t.page_index,
    }


def table_from_dict(d: dict[str, Any]) -> Table:
    return Table(
        number=d["number"],
        caption=d["caption"],
        n_rows=int(d["n_rows"]),
        n_cols=int(d["n_cols"]),
        cells=tuple(
            TableCell(int(v[0]), int(v[1]), str(v[2]), int(v[3]), int(v[4]), bool(v[5]), len(v) > 6 and bool(v[6]))
            for v in d["cells"]
        ),
        header_rows=int(d.get("header_rows", 1)),
        header_cols=int(d.get("header_cols", 0)),
        bbox=_rect(d.get("bbox")),
        page_index=d.get("page_index"),
    )


_FACT_FIELDS = (
    "kind", "value", "unit", "bound", "subject", "cases", "start", "end", "quote_start", "quote_end", "symbolic",
    "threshold", "clause_start", "clause_end", "row", "col",
)  # fmt: skip


def fact_to_list(f: Fact) -> list[Any]:
    return [list(f.cases) if n == "cases" else getattr(f, n) for n in _FACT_FIELDS]


def fact_from_list(v: list[Any]) -> Fact:
    d = dict(zip(_FACT_FIELDS, v, strict=True))
    d["cases"] = tuple(d["cases"])
    return Fact(**d)


def chunk_to_dict(chunk: Chunk, with_doc: bool = True) -> dict[str, Any]:
    """A chunk as a JSON-able dict; ``with_doc=False`` leaves out the ``DocRef`` (the caller keeps it)."""
    d: dict[str, Any] = {
        "v": SERIAL_VERSION,
        "chunk_id": chunk.chunk_id,
        "kind": chunk.kind,
        "text": chunk.text,
        "clause": chunk.clause,
        "clause_path": list(chunk.clause_path),
        "item": chunk.item,
        "pages": list(chunk.pages),
        "paragraphs": list(chunk.paragraphs),
        "spans": [span_to_list(s) for s in chunk.spans],
        "table": table_to_dict(chunk.table) if chunk.table is not None else None,
        "ordinal": chunk.ordinal,
    }
    if chunk.ocr:
        d["ocr"] = chunk.ocr
    if chunk.facts:
        d["facts"] = [fact_to_list(f) for f in chunk.facts]
    if with_doc:
        d["doc"] = doc_to_dict(chunk.doc)
    return d


def chunk_from_dict(d: dict[str, Any], doc: DocRef | None = None, spans: tuple[Span, ...] | None = None) -> Chunk:
    """The chunk of ``chunk_to_dict``; ``doc`` is required when the dict was written without one; ``spans`` given
    apart (the catalog's packed spans, or ``()`` for a light chunk) replace the dict's."""
    if doc is None:
        if "doc" not in d:
            raise ValueError("chunk dict has no 'doc' and none was given")
        doc = doc_from_dict(d["doc"])
    table = d.get("table")
    return Chunk(
        chunk_id=d["chunk_id"],
        doc=doc,
        kind=d["kind"],
        text=d["text"],
        clause=d.get("clause", ""),
        clause_path=tuple(d.get("clause_path", ())),
        item=d.get("item", ""),
        pages=tuple(int(p) for p in d.get("pages", ())),
        paragraphs=tuple(int(p) for p in d.get("paragraphs", ())),
        spans=spans if spans is not None else tuple(span_from_list(s) for s in d.get("spans", ())),
        table=table_from_dict(table) if table is not None else None,
        ordinal=int(d.get("ordinal", 0)),
        ocr=str(d.get("ocr", "")),
        facts=tuple(fact_from_list(f) for f in d.get("facts", ())),
    )
