"""Builders of synthetic records for the answer/verify tests: tables from golden JSON, chunks, hits."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from kdsdesk.records import Chunk, DocRef, Hit, Span, Table, TableCell
from kdsdesk.text.normalize import tex_to_plain

DOC = DocRef(file="/tmp/doc.pdf", sha256="0" * 64, kind="pdf", doc_code="KDS 99 00 00", year="2024")


def table_from_golden(block: dict[str, Any]) -> Table:
    """A ``Table`` record from a golden ``{"type": "table", "header": [...], "rows": [...]}`` block."""
    rows = list(block["header"]) + list(block["rows"])
    cells: list[TableCell] = []
    n_cols = max(len(r) for r in rows)
    hdr = len(block["header"])
    for i, row in enumerate(rows):
        for j, c in enumerate(row):
            if c is None:
                continue
            if isinstance(c, str):
                cells.append(TableCell(i, j, tex_to_plain(c), is_header=i < hdr))
            else:
                cells.append(
                    TableCell(i, j, tex_to_plain(c["text"]), c.get("rowspan", 1), c.get("colspan", 1), i < hdr)
                )
    return Table(
        number=block.get("no", ""),
        caption=f"표 {block.get('no', '')} {block.get('title', '')}".strip(),
        n_rows=len(rows),
        n_cols=n_cols,
        cells=tuple(cells),
        header_rows=hdr,
    )


def golden_tables(path: Path) -> dict[str, Table]:
    d = json.loads(path.read_text(encoding="utf-8"))
    return {b["no"]: table_from_golden(b) for b in d["blocks"] if b["type"] == "table"}


def text_chunk(text: str, chunk_id: str = "c1", clause: str = "4.1", spans: Sequence[Span] = (), **kw: Any) -> Chunk:
    """A text chunk; without spans, one span per line on page 0 (10 pt per character)."""
    if not spans:
        out = []
        pos = 0
        for n, line in enumerate(text.split("\n")):
            if line:
                out.append(Span(pos, pos + len(line), 0, (50.0, 100.0 + 20 * n, 50.0 + 10 * len(line), 112.0 + 20 * n)))
            pos += len(line) + 1
        spans = out
    return Chunk(chunk_id=chunk_id, doc=kw.pop("doc", DOC), kind=kw.pop("kind", "text"), text=text, clause=clause,
                 spans=tuple(spans), pages=(0,), **kw)  # fmt: skip


def table_chunk(table: Table, chunk_id: str = "t1", clause: str = "4.1") -> Chunk:
    text = "\n".join([table.caption, *table.rows_text()])
    return text_chunk(text, chunk_id, clause, kind="table", table=table)


def hits(*chunks: Chunk) -> list[Hit]:
    return [Hit(c, 1.0 / (i + 1), i + 1) for i, c in enumerate(chunks)]
