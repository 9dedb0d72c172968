"""Library subcommands: ``index``, ``encode``, ``remove``, ``list``, ``unanswered``, ``pack export|import``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from kdsdesk import paths, service
from kdsdesk.cli.common import EXIT_FAIL, EXIT_OK, dump_json, opened_library, run_with_progress
from kdsdesk.errors import KnownError


def cmd_index(args: argparse.Namespace) -> int:
    """``kdsdesk index PATH…``: add files/folders; then dense vectors unless ``--no-dense`` (no-op without model)."""
    with opened_library(args) as lib:
        report = run_with_progress(lib.add([Path(p) for p in args.paths]))
        encoded = 0 if args.no_dense else run_with_progress(lib.encode_pending())
    if args.json:
        dump_json(
            {
                "added": list(report.added),
                "replaced": list(report.replaced),
                "skipped": list(report.skipped),
                "failed": [{"file": f, "message": m} for f, m in report.failed],
                "duplicates": [{"file": f, "same_as": o} for f, o in report.duplicates],
                "encoded": encoded,
            }
        )
    else:
        print(
            f"추가 {len(report.added)}, 교체 {len(report.replaced)}, 변경 없음 {len(report.skipped)}, "
            f"실패 {len(report.failed)}" + (f", 같은 내용 {len(report.duplicates)}" if report.duplicates else "")
            + (f", 의미 검색 벡터 {encoded}" if encoded else "")
        )
        for f, o in report.duplicates:
            print(f"같은 내용: {f} = {o}")
        for f, m in report.failed:
            print(f"실패: {f}: {m}")
    return EXIT_FAIL if report.failed else EXIT_OK


def cmd_encode(args: argparse.Namespace) -> int:
    """``kdsdesk encode``: compute missing dense vectors (resumable: Ctrl+C keeps what is done)."""
    with opened_library(args) as lib:
        ready, message = lib.encoder_status()
        if not ready:
            print(message, file=sys.stderr)
            return EXIT_OK
        encoded = run_with_progress(lib.encode_pending())
    print(f"의미 검색 벡터 {encoded}개를 계산했습니다.")
    return EXIT_OK


def cmd_remove(args: argparse.Namespace) -> int:
    with opened_library(args) as lib:
        n = lib.remove([Path(p) for p in args.paths])
    print(f"{n}개 파일을 라이브러리에서 제거했습니다.")
    return EXIT_OK if n else EXIT_FAIL


def cmd_list(args: argparse.Namespace) -> int:
    with opened_library(args) as lib:
        docs = lib.documents()
    if args.json:
        dump_json(
            [
                {
                    "file": d.file, "kind": d.kind, "doc_code": d.doc_code, "title": d.title, "year": d.year,
                    "status": d.status, "message": d.message, "n_pages": d.n_pages, "n_chunks": d.n_chunks,
                    "n_vectors": d.n_vectors, "sha256": d.sha256, "size": d.size, "mtime": d.mtime,
                }
                for d in docs
            ]
        )  # fmt: skip
        return EXIT_OK
    code = None
    for d in docs:
        if d.doc_code != code:
            code = d.doc_code
            print(code or "(코드 없음)")
        state = {"searchable": "검색 가능", "indexing": "색인 중", "failed": "실패"}.get(d.status, d.status)
        extra = f" — {d.message}" if d.message else ""
        print(f"  {d.year or '----'} {d.kind:4} {state} 청크 {d.n_chunks} 벡터 {d.n_vectors}  {d.file}{extra}")
    if not docs:
        print("라이브러리가 비어 있습니다. 'kdsdesk index 폴더'로 문서를 추가하세요.")
    return EXIT_OK


def cmd_unanswered(args: argparse.Namespace) -> int:
    """``kdsdesk unanswered [--json]``: questions that ended restricted/unverified, with counts and last asked."""
    with opened_library(args) as lib:
        rows = lib.unanswered()
    if args.json:
        dump_json([{"question": q, "count": n, "last_asked": t, "last_status": s} for q, n, t, s in rows])
        return EXIT_OK
    for q, n, t, s in rows:
        print(f"{n:4}회  {t}  [{s}]  {q}")
    if not rows:
        print("답하지 못한 질문이 없습니다.")
    return EXIT_OK


def cmd_pack(args: argparse.Namespace) -> int:
    """``pack export OUT`` / ``pack import PACK`` for the library folder."""
    library = paths.library_dir(args.library)
    if args.pack_command == "export":
        info = service.export_pack(library, args.out)
        print(f"색인 팩을 만들었습니다: {info.path} (파일 {info.n_files}개, {info.n_bytes / 1e6:,.1f} MB)")
        return EXIT_OK
    if args.pack_command == "import":
        info = service.import_pack(args.pack, library)
        print(f"색인 팩을 가져왔습니다: {info.path} → {library} (파일 {info.n_files}개)")
        for w in info.warnings:
            print(f"주의: {w}")
        return EXIT_OK
    raise KnownError("사용법: kdsdesk pack export 파일.kdspack | kdsdesk pack import 파일.kdspack")

