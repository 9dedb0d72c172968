"""Question sets generated from documents, for measuring retrieval on any corpus (no hand-written questions).

As the PDF/PUA write-up did: every "여기서, X : 설명" symbol line gives a symbol-only query (``X`` as typed on a
keyboard: ``A_{v,min}`` → ``A_v,min``) and a description query (the explanation, without its unit); every table
gives its title as a query and a few of its rows (the row-header cells' text). Gold = the file stem and the
clause of the chunk that holds the line or table; when the same symbol, title or row text occurs in several
clauses or documents, all of them are listed in ``golds`` (``[{"file_stem", "clause"}, …]``; any counts) and the
first is also given as ``file_stem``/``clause`` (the ``qa.jsonl`` format). Left out: lines before the first
recognised clause (no gold to name) and one-letter symbols (``b``, ``d``: defined in nearly every standard, not a
query anyone types alone); rows whose header cells have no Hangul (``F_y F_u``, ``① H``: tables whose labels are
symbols or unreadable outlines).
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
            if full is None or not symbol_tokens(sym) or len(typed_symbol(sym)) < 2:
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
        for q in [q for q in queries if has_hangul(q)][::step][:ROWS_PER_TABLE]:
            yield "table_row", q, c.clause, t.number


def _raw_items(parsed: ParsedDoc, chunks: Sequence[Chunk]) -> list[tuple[str, str, str, str]]:
    """(qtype, query, clause, table) of one document, clause-less lines left out."""
    rows: list[tuple[str, str, str, str]] = [(q, s, cl, "") for q, s, cl in _symbol_items(chunks)]
    rows += list(_table_items(chunks))
    return [(q, " ".join(text.split()), cl, t) for q, text, cl, t in rows if cl]


def merge_items(per_doc: Iterable[tuple[ParsedDoc, list[tuple[str, str, str, str]]]]) -> list[dict[str, Any]]:
    """One item per (qtype, query) over all documents, with every place it occurs as a gold."""
    found: dict[tuple[str, str], dict[str, Any]] = {}
    for parsed, rows in per_doc:
        stem = Path(parsed.doc.file).stem
        for qtype, query, clause, table in rows:
            item = found.get((qtype, query))
            if item is None:
                item = {
                    "question": query,
                    "qtype": qtype,
                    "evidence": "table" if table else "body",
                    "doc": parsed.doc.doc_code,
                    "clause": clause,
                    "file_stem": stem,
                    "golds": [],
                }
                if table:
                    item["table"] = table
                found[(qtype, query)] = item
            gold = {"file_stem": stem, "clause": clause}
            if gold not in item["golds"]:
                item["golds"].append(gold)
    out = []
    counters: dict[str, int] = {}
    for item in found.values():
        n = counters[item["qtype"]] = counters.get(item["qtype"], 0) + 1
        out.append({"id": f"{item['qtype']}-{n:04d}", **item})
    return out


def items_for(parsed: ParsedDoc, chunks: Sequence[Chunk]) -> list[dict[str, Any]]:
    """Evaluation items of one document."""
    return merge_items([(parsed, _raw_items(parsed, chunks))])


def build_evalset(
    files: Sequence[Path], parse: Callable[[Path], ParsedDoc] | None = None
) -> tuple[list[dict[str, Any]], list[tuple[str, str]]]:
    """Items for every file that parses, and (file, Korean message) for those that do not."""
    from kdsdesk.errors import KnownError
    from kdsdesk.text.chunk import chunk_document

    if parse is None:
        from kdsdesk.ingest.isolate import parse_isolated

        parse = parse_isolated
    per_doc: list[tuple[ParsedDoc, list[tuple[str, str, str, str]]]] = []
    failed: list[tuple[str, str]] = []
    for f in files:
        try:
            parsed = parse(Path(f))
        except KnownError as exc:
            failed.append((str(f), exc.message))
            continue
        per_doc.append((parsed, _raw_items(parsed, chunk_document(parsed))))
    return merge_items(per_doc), failed
