"""Synthetic ``ParsedDoc``s built from the sample standards' golden JSON (``../shared/corpus/samples/golden``).

For testing the library and retrieval without the real parsers: the structure (clauses, tables with merged cells,
equations) is what the parsers are meant to produce; inline math ``{{ }}`` is rendered the way the parsers render
equations (``V_u``, ``A_{v,min}``, ``√f_{ck}``, ``(a)/(b)``).
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

from kdsdesk.records import Block, DocRef, ParsedDoc, Span, Table, TableCell

_FRAC = re.compile(r"\\frac\{([^{}]*(?:\{[^{}]*\}[^{}]*)*)\}\{([^{}]*(?:\{[^{}]*\}[^{}]*)*)\}")
_SQRT = re.compile(r"\\sqrt\{([^{}]*(?:\{[^{}]*\}[^{}]*)*)\}")
_SUB1 = re.compile(r"_\{(\w)\}")


def _sqrt(m: re.Match[str]) -> str:
    inner = m.group(1)
    return f"√({inner})" if len(inner) > 1 and "_" not in inner else f"√{inner}"


def render_math(src: str) -> str:
    s = src
    for _ in range(4):
        s = _FRAC.sub(lambda m: f"({m.group(1)})/({m.group(2)})", s)
        s = _SQRT.sub(_sqrt, s)
    return _SUB1.sub(r"_\1", s)


def render(text: str) -> str:
    return re.sub(r"\{\{(.*?)\}\}", lambda m: render_math(m.group(1)), text)


def _table(b: dict[str, Any]) -> Table:
    header: list[list[Any]] = b.get("header", [])
    rows: list[list[Any]] = b.get("rows", [])
    cells: list[TableCell] = []
    all_rows = [(r, True) for r in header] + [(r, False) for r in rows]
    n_cols = max((len(r) for r, _ in all_rows), default=0)
    for i, (row, is_header) in enumerate(all_rows):
        for j, cell in enumerate(row):
            if cell is None:
                continue
            if isinstance(cell, dict):
                cells.append(
                    TableCell(i, j, render(cell["text"]), cell.get("rowspan", 1), cell.get("colspan", 1), is_header)
                )
            else:
                cells.append(TableCell(i, j, render(str(cell)), 1, 1, is_header))
    return Table(
        number=b["no"],
        caption=f"표 {b['no']} {render(b['title'])}",
        n_rows=len(all_rows),
        n_cols=n_cols,
        cells=tuple(cells),
        header_rows=len(header),
    )


def parsed_from_golden(golden: Path, file: Path, kind: str = "hwpx") -> ParsedDoc:
    """A ``ParsedDoc`` for ``file`` with the structure of ``golden`` (sha256 of ``file``'s bytes)."""
    d = json.loads(golden.read_text(encoding="utf-8"))
    sha = hashlib.sha256(file.read_bytes()).hexdigest()
    doc = DocRef(file=str(file.resolve()), sha256=sha, kind=kind, doc_code=d["code"], title=d["title"], year=d["year"])  # type: ignore[arg-type]
    blocks: list[Block] = []
    path: list[str] = []
    clause = ""
    for i, b in enumerate(d["blocks"]):
        t = b["type"]
        if t == "heading":
            no = b["no"]
            level = no.count(".") + 1
            path = [*path[: level - 1], f"{no} {b['text']}"]
            clause = no
            text = f"{no} {b['text']}"
            blocks.append(Block("heading", text, clause, tuple(path), paragraphs=(i,), heading_level=level))
            continue
        if t == "table":
            table = _table(b)
            text = "\n".join([table.caption, *table.rows_text()])
            kind_b = "table"
        elif t == "equation":
            text = render_math(b["src"]) + (f" {b['label']}" if b.get("label") else "")
            table = None
            kind_b = "equation"
        else:
            text = render(b["text"])
            table = None
            kind_b = "text"
        m = re.match(r"^(\(\d+\)|[①-⑳]|[가-하]\.)", text)
        blocks.append(
            Block(
                kind_b,  # type: ignore[arg-type]
                text,
                clause,
                tuple(path),
                item=m.group(1) if m else "",
                paragraphs=(i,),
                spans=(Span(0, len(text), paragraph=i),),
                table=table,
            )
        )
    return ParsedDoc(doc=doc, blocks=tuple(blocks), n_pages=0)


def golden_parser(golden_dir: Path):  # type: ignore[no-untyped-def]
    """A ``parse`` function for ``add_files``: the golden structure of the file's stem."""

    def parse(path: Path) -> ParsedDoc:
        path = Path(path)
        golden = golden_dir / f"{path.stem}.json"
        if not golden.exists():
            from kdsdesk.errors import KnownError

            raise KnownError("골든 구조가 없는 파일입니다.", path=str(path))
        return parsed_from_golden(golden, path, "pdf" if path.suffix.lower() == ".pdf" else "hwpx")

    return parse
