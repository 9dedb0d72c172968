"""Question sets generated from documents, for measuring retrieval on any corpus (no hand-written questions).

As the PDF/PUA write-up did: every "여기서, X : 설명" symbol line gives a symbol-only query (``X`` as typed on a
keyboard: ``A_{v,min}`` → ``A_v,min``) and a description query (the explanation, without its unit); every table
gives its title as a query and a few of its rows (the row-header cells' text). Gold = the file stem and the
clause of the chunk that holds the line or table; when the same symbol, title or row text occurs in several
clauses of one document, all of them are listed in ``clauses`` (any counts). Items use the ``qa.jsonl`` format.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from kdsdesk.records import Chunk, ParsedDoc
from kdsdesk.text.symbols import SYMBOL_RE, has_hangul, symbol_tokens

ROWS_PER_TABLE = 3
_SYMBOL_LINE = re.compile(r"^\s*(?:여기서\s*,?\s*)?(?P<sym>[^\s:：가-힣][^:：가-힣]{0,30}?)\s*[:：]\s*(?P<desc>.+)$")
_UNIT_TAIL = re.compile(r"\s*\([^()]*\)\s*$")
_NUMERIC = re.compile(r"^[\d\s.,~≤≥<>=+\-×/%()]*$")


def typed_symbol(sym: str) -> str:
    """A symbol as someone types it: ``A_{v,min}`` → ``A_v,min``, ``f_{ck}`` → ``f_ck``."""
    return re.sub(r"[{}\s]", "", sym)


def description_query(desc: str) -> str:
    """The explanation of a symbol line without its trailing unit and "…로서 …" elaboration."""
    d = desc.strip()
    d = re.split(r"로서|으로서|이며|\.\s", d, maxsplit=1)[0]
    d = _UNIT_TAIL.sub("", d).strip(" ,.")
    return d


def _symbol_items(chunks: Sequence[Chunk]) -> Iterable[tuple[str, str, str]]:
    """(qtype, query, clause) for the symbol lines of text chunks."""
    for c in chunks:
        if c.kind == "table":
            continue
        for line in c.text.splitlines():
            m = _SYMBOL_LINE.match(line)
            if not m:
                continue
            sym = m.group("sym").strip()
            full = SYMBOL_RE.fullmatch(sym)
            if full is None or not symbol_tokens(sym):
                continue
            yield "symbol", typed_symbol(sym), c.clause
            desc = description_query(m.group("desc"))
            if has_hangul(desc) and len(desc) >= 4:
                yield "description", desc, c.clause


def _row_query(cells: Sequence[str]) -> str:
    text_cells = [t for t in cells if t.strip() and not _NUMERIC.match(t)]
    return " ".join(text_cells[:2]).strip()


def _table_items(chunks: Sequence[Chunk]) -> Iterable[tuple[str, str, str, str]]:
    """(qtype, query, clause, table number) for table titles and a few rows per table."""
    for c in chunks:
        t = c.table
        if t is None:
            continue
        if len(t.title) >= 2 and has_hangul(t.title):
            yield "table_title", t.title, c.clause, t.number
        body = [r for r in t.origin_grid()[t.header_rows :]]
        queries = [q for q in (_row_query([x or "" for x in row]) for row in body) if len(q) >= 2]
        if not queries:
            continue
        step = max(1, len(queries) // ROWS_PER_TABLE)
        for q in queries[::step][:ROWS_PER_TABLE]:
            yield "table_row", q, c.clause, t.number


def items_for(parsed: ParsedDoc, chunks: Sequence[Chunk]) -> list[dict[str, Any]]:
    """Evaluation items of one document (ids ``<stem>-<qtype>-<n>``)."""
    stem = Path(parsed.doc.file).stem
    found: dict[tuple[str, str], dict[str, Any]] = {}
    rows: list[tuple[str, str, str, str]] = [(q, s, cl, "") for q, s, cl in _symbol_items(chunks)]
    rows += list(_table_items(chunks))
    for qtype, query, clause, table in rows:
        key = (qtype, " ".join(query.split()))
        item = found.get(key)
        if item is None:
            item = {
                "question": key[1],
                "qtype": qtype,
                "evidence": "table" if table else "body",
                "doc": parsed.doc.doc_code,
                "clause": clause,
                "clauses": [clause],
                "file_stem": stem,
            }
            if table:
                item["table"] = table
            found[key] = item
        elif clause not in item["clauses"]:
            item["clauses"].append(clause)
    out = []
    counters: dict[str, int] = {}
    for item in found.values():
        n = counters[item["qtype"]] = counters.get(item["qtype"], 0) + 1
        out.append({"id": f"{stem}-{item['qtype']}-{n:03d}", **item})
    return out


def build_evalset(
    files: Sequence[Path], parse: Callable[[Path], ParsedDoc] | None = None
) -> tuple[list[dict[str, Any]], list[tuple[str, str]]]:
    """Items for every file that parses, and (file, Korean message) for those that do not."""
    from kdsdesk.errors import KnownError
    from kdsdesk.text.chunk import chunk_document

    if parse is None:
        from kdsdesk.ingest.isolate import parse_isolated

        parse = parse_isolated
    items: list[dict[str, Any]] = []
    failed: list[tuple[str, str]] = []
    for f in files:
        try:
            parsed = parse(Path(f))
        except KnownError as exc:
            failed.append((str(f), exc.message))
            continue
        items += items_for(parsed, chunk_document(parsed))
    return items, failed
