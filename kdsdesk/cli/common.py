"""What every subcommand shares: exit codes, the library it opens, progress on stderr, JSON Lines input, and the
JSON and text forms of chunks, hits and answers (pages 1-based in every output)."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Generator, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from kdsdesk.errors import KnownError
from kdsdesk.records import Answer, Chunk, Hit, Need, Passage, Progress
from kdsdesk.service import Library

T = TypeVar("T")

EXIT_OK, EXIT_FAIL, EXIT_KNOWN, EXIT_CANCELLED = 0, 1, 2, 130


def run_with_progress(gen: Generator[Progress, None, T], quiet: bool = False) -> T:
    """Drive a Progress generator, printing a throttled progress line on stderr; return its result."""
    last = 0.0
    try:
        while True:
            p = next(gen)
            now = time.monotonic()
            if not quiet and (now - last > 0.1 or (p.total and p.done >= p.total)):
                last = now
                total = f"/{p.total}" if p.total else ""
                print(f"[{p.stage}] {p.done}{total} {p.detail}", file=sys.stderr, flush=True)
    except StopIteration as stop:
        return stop.value  # type: ignore[no-any-return]
    finally:
        gen.close()


def dump_json(obj: Any) -> None:
    sys.stdout.write(json.dumps(obj, ensure_ascii=False) + "\n")


@contextmanager
def opened_library(args: argparse.Namespace) -> Iterator[Library]:
    """The library of ``--library`` (or the default folder), closed when the block ends."""
    lib = Library(args.library)
    try:
        yield lib
    finally:
        lib.close()


def batch_lines(source: str) -> list[dict[str, Any]]:
    """``--batch FILE|-``: one ``{"id", "question"}`` JSON object a line."""
    text = sys.stdin.read() if source == "-" else Path(source).read_text(encoding="utf-8")
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        if line.strip():
            try:
                item = json.loads(line)
            except ValueError as exc:
                raise KnownError(f"--batch 입력 {n}번째 줄이 JSON 형식이 아닙니다.") from exc
            if not isinstance(item, dict) or "question" not in item:
                raise KnownError(f"--batch 입력 {n}번째 줄에 'question'이 없습니다.")
            out.append(item)
    return out


def chunk_json(chunk: Chunk) -> dict[str, Any]:
    """A chunk as JSON (1-based pages)."""
    out: dict[str, Any] = {
        "chunk_id": chunk.chunk_id,
        "kind": chunk.kind,
        "file": chunk.doc.file,
        "doc_code": chunk.doc.doc_code,
        "year": chunk.doc.year,
        "clause": chunk.clause,
        "clause_path": list(chunk.clause_path),
        "item": chunk.item,
        "pages": [p + 1 for p in chunk.pages],
        "paragraphs": list(chunk.paragraphs),
        "text": chunk.text,
    }
    if chunk.table is not None:
        out["table"] = chunk.table.number
        out["caption"] = chunk.table.caption
    return out


def hit_json(hit: Hit) -> dict[str, Any]:
    """A search hit as JSON (``pages`` 1-based)."""
    c = hit.chunk
    return {
        "rank": hit.rank,
        "score": round(float(hit.score), 4),
        "route": hit.route,
        "chunk_id": c.chunk_id,
        "file": c.doc.file,
        "doc_code": c.doc.doc_code,
        "year": c.doc.year,
        "clause": c.clause,
        "clause_path": list(c.clause_path),
        "kind": c.kind,
        "pages": [p + 1 for p in c.pages],
        "text": c.text,
    }


def need_json(need: Need | None) -> dict[str, Any]:
    """What the question asks (``Need``) as JSON; {} when none."""
    if need is None:
        return {}
    return {
        "kind": need.kind, "subject": need.subject, "head": need.head, "conditions": list(need.conditions),
        "excluded": list(need.excluded), "bound": need.bound, "extreme": need.extreme, "ordinal": need.ordinal,
        "unit": need.unit, "dimension": need.dimension, "threshold": need.threshold,
    }  # fmt: skip


def passage_json(p: Passage) -> dict[str, Any]:
    """A passage: where it is (1-based page), its text and the question's words in it."""
    ch = p.chunk
    return {
        "chunk_id": ch.chunk_id, "file": ch.doc.file, "doc_code": ch.doc.doc_code, "clause": ch.clause,
        "clause_path": list(ch.clause_path), "page": p.page_index + 1 if p.page_index is not None else None,
        "text": p.text, "marks": [list(m) for m in p.marks], "score": p.score,
    }  # fmt: skip


def answer_json(answer: Answer, item_id: str = "") -> dict[str, Any]:
    """An ``Answer`` as the JSON of ``kdsdesk ask --json`` (pages 1-based; rects ``[page, x0, y0, x1, y1]``)."""
    cites = []
    for c in answer.citations:
        ch = c.chunk
        cites.append(
            {
                "chunk_id": ch.chunk_id, "file": ch.doc.file, "doc_code": ch.doc.doc_code, "year": ch.doc.year,
                "clause": ch.clause, "clause_path": list(ch.clause_path), "item": ch.item,
                "page": c.page_index + 1 if c.page_index is not None else None, "quote": c.quote,
                "rects": [[p + 1, *(round(v, 2) for v in (x0, y0, x1, y1))] for p, x0, y0, x1, y1 in c.rects],
                "verified": c.verified,
            }
        )  # fmt: skip
    return {
        "id": item_id,
        "question": answer.question,
        "qtype": answer.qtype,
        "status": answer.status,
        "value": answer.value,
        "unit": answer.unit,
        "condition": answer.condition,
        "alternatives": [{"condition": a.condition, "value": a.value, "unit": a.unit} for a in answer.alternatives],
        "requirements": list(answer.requirements),
        "definition": answer.definition,
        "answer_text": answer.answer_text,
        "citations": cites,
        "checks": dict(answer.verdict.checks),
        "reason": answer.verdict.reason,
        "need": need_json(answer.need),
        "reading": dict(answer.reading),
        "passages": [passage_json(p) for p in answer.passages],
        "prompt_tokens": answer.prompt_tokens,
        "timing_ms": dict(answer.timing_ms),
    }


def print_answer(answer: Answer) -> None:
    label = {
        "confirmed": "확인됨", "warning": "확인 필요", "restricted": "값을 확정할 수 없음", "unverified": "검증 실패"
    }  # fmt: skip
    print(f"[{label.get(answer.status, answer.status)}] {answer.question}")
    if answer.status in ("confirmed", "warning"):
        print(f"답: {answer.answer_text}")
        for a in answer.alternatives:
            print(f"  다른 조건: {a.condition} → {a.value} {a.unit}".rstrip())
    if answer.verdict.reason:
        print(answer.verdict.reason)
    for c in answer.citations:
        ch = c.chunk
        where = f"{c.page_index + 1}쪽" if c.page_index is not None else ch.doc.kind.upper()
        mark = "✓" if c.verified else "✗"
        print(f"  {mark} {ch.doc.doc_code}:{ch.doc.year} {ch.clause} ({where}) “{' '.join(c.quote.split())}”")

