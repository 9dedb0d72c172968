"""Checking subcommands: ``parse`` (one file, in the parse worker) and ``doctor`` (models, encoder, LLM, font,
library folder, library damage; ``--repair``)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from kdsdesk import service
from kdsdesk.cli.common import EXIT_FAIL, EXIT_OK, chunk_json, dump_json, run_with_progress


def cmd_parse(args: argparse.Namespace) -> int:
    """``kdsdesk parse FILE [--json]``: the blocks, chunks and tables one file gives."""
    parsed, chunks = service.parse_document(args.file)
    tables = []
    for t in parsed.tables():
        tables.append(
            {
                "number": t.number,
                "caption": t.caption,
                "n_rows": t.n_rows,
                "n_cols": t.n_cols,
                "header_rows": t.header_rows,
                "grid": t.origin_grid(),
                "pages": [t.page_index + 1] if t.page_index is not None else [],
                "rows": t.row_records(),
            }
        )
    doc = parsed.doc
    stats = dict(parsed.stats)
    stats.update({"blocks": len(parsed.blocks), "chunks": len(chunks), "tables": len(tables)})
    if args.json:
        dump_json(
            {
                "doc_code": doc.doc_code,
                "title": doc.title,
                "year": doc.year,
                "file": doc.file,
                "kind": doc.kind,
                "n_pages": parsed.n_pages,
                "chunks": [chunk_json(c) for c in chunks],
                "tables": tables,
                "unreadable": [
                    {"page": u.page_index + 1, "rect": list(u.rect) if u.rect else None, "reason": u.reason}
                    for u in parsed.unreadable
                ],
                "stats": stats,
            }
        )
    else:
        print(f"{doc.doc_code} : {doc.year}  {doc.title}  ({doc.kind}, {parsed.n_pages}쪽)")
        for c in chunks:
            loc = f"p.{','.join(str(p + 1) for p in c.pages)}" if c.pages else f"¶{c.paragraphs[:1]}"
            print(f"--- {c.chunk_id} [{c.kind}] {c.clause} {loc}")
            print(c.text)
        print(json.dumps(stats, ensure_ascii=False))
    return EXIT_OK


DOCTOR_STATUS = {
    "ok": "확인",
    "unverified": "있음(해시 미기재)",
    "substitute": "대체 파일",
    "missing": "없음",
    "wrong_size": "크기 다름",
    "wrong_hash": "손상",
    "unreadable": "읽을 수 없음",
}


def cmd_doctor(args: argparse.Namespace) -> int:
    """Models (manifest, sizes, hashes, memory), encoder, LLM engine, Korean font, library folder."""
    env = service.check_environment(args.library, deep=bool(getattr(args, "verify", False)))
    report = env.models
    health_ok, health_msg, damages = _library_health(args.library, repair=bool(getattr(args, "repair", False)))
    items = [(c.name, c.ok, c.message) for c in env.checks] + [("library_health", health_ok, health_msg)]
    if args.json:
        dump_json({
            "items": [{"name": n, "ok": ok, "message": m} for n, ok, m in items], "models": report.as_json(),
            "damage": [{"kind": d.kind, "message": d.message, "files": list(d.files)} for d in damages],
        })  # fmt: skip
    else:
        for name, ok, message in items:
            print(f"{'[정상]' if ok else '[주의]'} {message}")
            if name == "library_health":
                for d in damages:
                    print(f"    - {d.message}")
            if name == "models":
                for c in report.files:
                    print(f"    - {c.entry.name}: {DOCTOR_STATUS[c.status]} ({c.path or c.entry.file})")
                for problem in report.problems:
                    print(f"      {problem}")
        for line in report.capabilities:
            print(f"=> {line}")
    return EXIT_FAIL if env.failed or not health_ok else EXIT_OK


def _library_health(library: str | None, repair: bool) -> tuple[bool, str, list[Any]]:
    """Damage of the library (``service.library_damage``); with ``repair`` repaired first, with progress."""
    damages = service.library_damage(library)
    if damages and repair:
        result = run_with_progress(service.repair_library(library))
        where = f" 손상된 파일은 {result.backup}에 보관했습니다." if result.backup else ""
        print(f"복구했습니다.{where}", file=sys.stderr)
        damages = service.library_damage(library)
    if not damages:
        return True, "라이브러리 상태: 정상", []
    hint = "" if repair else " 'kdsdesk doctor --repair'로 복구하세요."
    return False, f"라이브러리 손상 {len(damages)}건.{hint}", damages
