"""The sample standards' PDFs against ``golden/*.json``: clause numbers, table numbers, cell grids (math compared
leniently), no raw PUA in any chunk, symbols present, and the evidence pages of ``qa.jsonl``."""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from kdsdesk.ingest.pdf import parse_pdf
from kdsdesk.records import ParsedDoc, Table
from kdsdesk.text.chunk import chunk_document

STEMS = ["dev-kds-14-20-22", "dev-kds-14-31-25", "dev-kds-21-50-00"]
_MATH = re.compile(r"\{\{.*?\}\}")
_HANGUL = re.compile(r"[가-힣]+")
_PUA = re.compile(r"[\ue000-\uf8ff]")


@cache
def _parsed(path: str) -> ParsedDoc:
    return parse_pdf(Path(path))


def _golden(samples: Path, stem: str) -> dict[str, Any]:
    return json.loads((samples / "golden" / f"{stem}.json").read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def _cell_text(cell: Any) -> str | None:
    if cell is None:
        return None
    return str(cell["text"] if isinstance(cell, dict) else cell)


def same_cell(golden: str | None, ours: str | None) -> bool:
    """Exact (spaces ignored) outside math; inside ``{{ }}`` only the Korean words must agree."""
    if golden is None or ours is None:
        return golden is ours
    if "{{" not in golden:
        return re.sub(r"\s+", "", golden) == re.sub(r"\s+", "", ours)
    return _HANGUL.findall(_MATH.sub(" ", golden)) == _HANGUL.findall(ours)


def _grid(block: dict[str, Any]) -> list[list[str | None]]:
    return [[_cell_text(c) for c in row] for row in block["header"] + block["rows"]]


@pytest.mark.slow
@pytest.mark.parametrize("stem", STEMS)
def test_clause_and_table_numbers_found(samples: Path, stem: str) -> None:
    parsed = _parsed(str(samples / f"{stem}.pdf"))
    golden = _golden(samples, stem)
    want_clauses = [b["no"] for b in golden["blocks"] if b["type"] == "heading"]
    got_clauses = [b.clause for b in parsed.blocks if b.kind == "heading"]
    assert got_clauses == want_clauses
    want_tables = [b["no"] for b in golden["blocks"] if b["type"] == "table"]
    assert [t.number for t in parsed.tables()] == want_tables
    assert (parsed.doc.doc_code, parsed.doc.title, parsed.doc.year) == (golden["code"], golden["title"], golden["year"])


@pytest.mark.slow
@pytest.mark.parametrize("stem", STEMS)
def test_cell_grids_match_golden(samples: Path, stem: str) -> None:
    parsed = _parsed(str(samples / f"{stem}.pdf"))
    tables: dict[str, Table] = {t.number: t for t in parsed.tables()}
    for block in (b for b in _golden(samples, stem)["blocks"] if b["type"] == "table"):
        table = tables[block["no"]]
        want = _grid(block)
        got = table.origin_grid()
        assert (table.n_rows, table.n_cols) == (len(want), len(want[0])), block["no"]
        assert table.header_rows == len(block["header"]), block["no"]
        bad = [
            (r, c, want[r][c], got[r][c])
            for r in range(len(want))
            for c in range(len(want[0]))
            if not same_cell(want[r][c], got[r][c])
        ]
        assert not bad, (block["no"], bad)


@pytest.mark.slow
@pytest.mark.parametrize("stem", STEMS)
def test_chunks_have_no_raw_pua_and_keep_symbols(samples: Path, stem: str) -> None:
    parsed = _parsed(str(samples / f"{stem}.pdf"))
    chunks = chunk_document(parsed)
    text = "\n".join(c.text for c in chunks)
    assert not _PUA.search(text)
    golden = json.dumps(_golden(samples, stem), ensure_ascii=False)
    for sym in ("f_{ck}", "F_{y}", "φ", "λ", "R_{n}"):
        if sym in golden:
            assert sym.replace("{", "").replace("}", "") in text or sym in text, sym
    for c in chunks:  # a chunk never spans two clauses
        assert all(b.clause == c.clause for b in parsed.blocks if b.kind != "heading" and b.text and b.text in c.text)


@pytest.mark.slow
def test_qa_evidence_pages_match(samples: Path) -> None:
    rows = [json.loads(x) for x in (samples / "qa.jsonl").read_text(encoding="utf-8").splitlines() if x.strip()]
    misses = []
    for row in rows:
        parsed = _parsed(str(samples / f"{row['file_stem']}.pdf"))
        chunks = chunk_document(parsed)
        want = set(row["pdf_pages"])
        if row.get("table"):
            found = [c for c in chunks if c.table_number == row["table"]]
        else:
            words = _HANGUL.findall(_MATH.sub(" ", row["quote"]))
            found = [c for c in chunks if c.clause == row["clause"] and all(w in c.text for w in words)]
        if not found or not any(want <= {p + 1 for p in c.pages} for c in found):
            misses.append((row["id"], row["pdf_pages"], [[p + 1 for p in c.pages] for c in found]))
    assert len(misses) <= len(rows) // 20, misses
