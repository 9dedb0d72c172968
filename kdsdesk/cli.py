"""``kdsdesk SUBCOMMAND …``: the command-line interface over ``kdsdesk.service`` (no Qt). Progress goes to stderr,
results to stdout (``--json`` for machines). ``KnownError`` ends with its Korean message and exit code 2.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import time
from collections.abc import Callable, Generator, Sequence
from pathlib import Path
from typing import Any, TypeVar

from kdsdesk import __version__
from kdsdesk.errors import Cancelled, KnownError
from kdsdesk.records import Chunk, Progress

log = logging.getLogger(__name__)
T = TypeVar("T")

EXIT_OK, EXIT_FAIL, EXIT_KNOWN, EXIT_CANCELLED = 0, 1, 2, 130


# -- helpers shared by the subcommands ---------------------------------------------------------------------------
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


# -- subcommands ---------------------------------------------------------------------------------------------------
def cmd_parse(args: argparse.Namespace) -> int:
    from kdsdesk.ingest.dispatch import parse_file
    from kdsdesk.text.chunk import chunk_document

    parsed = parse_file(Path(args.file))
    chunks = chunk_document(parsed)
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


def _not_yet(name: str) -> Callable[[argparse.Namespace], int]:
    def handler(args: argparse.Namespace) -> int:
        raise KnownError(f"'{name}' 명령은 아직 준비되지 않았습니다.")

    return handler


def _korean_font() -> tuple[bool, str]:
    """Is a Korean font available to the window? Bundled ``resources/fonts`` or PyMuPDF's built-in CJK font."""
    from kdsdesk import paths

    fonts = paths.resource("fonts")
    bundled = sorted(p.name for p in fonts.glob("*.[ot]t[fc]")) if fonts.is_dir() else []
    if bundled:
        return True, f"한글 글꼴: {', '.join(bundled)}"
    try:
        import pymupdf as _pymupdf

        pymupdf: Any = _pymupdf  # untyped engine call
        if pymupdf.Font("korea").buffer:
            return True, "한글 글꼴: PyMuPDF 내장 CJK 글꼴(Droid Sans Fallback)"
    except (ImportError, RuntimeError, ValueError) as exc:
        return False, f"한글 글꼴을 찾지 못해 글자가 네모로 보일 수 있습니다 ({exc})"
    return False, "한글 글꼴을 찾지 못해 글자가 네모로 보일 수 있습니다."


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
    import importlib.util

    from kdsdesk import models, paths
    from kdsdesk.index.encoder import encoder_status
    from kdsdesk.service import check_library_folder

    report = models.check_models(deep=bool(getattr(args, "verify", False)))
    enc_ok, enc_msg = encoder_status()
    engine_ok = importlib.util.find_spec("llama_cpp") is not None
    font_ok, font_msg = _korean_font()
    library = paths.library_dir(args.library)
    try:
        check_library_folder(library)
        lib_ok, lib_msg = True, f"라이브러리 폴더(쓰기 가능): {library}"
    except KnownError as exc:
        lib_ok, lib_msg = False, str(exc)
    if report.llm_ok and report.llm_path and engine_ok:
        llm_msg = f"LLM: {report.llm_path.name}"
        if report.ram_available_mb is not None:
            llm_msg += f" (사용 가능 메모리 {report.ram_available_mb:,} MB, 필요 {report.ram_needed_mb:,} MB)"
    elif report.llm_ok and not engine_ok:
        llm_msg = "LLM 실행 모듈(llama_cpp)이 없어 추출식 답변만 사용합니다."
    else:
        llm_msg = "LLM을 쓸 수 없어 추출식 답변만 사용합니다."
    items = [
        ("models", not report.problems, f"모델 파일 문제 {len(report.problems)}건" if report.problems else "모델 정상"),
        ("encoder", enc_ok, enc_msg),
        ("llm", report.llm_ok and engine_ok, llm_msg),
        ("font", font_ok, font_msg),
        ("library", lib_ok, lib_msg),
    ]
    corrupt = any(c.corrupt for c in report.files)
    if args.json:
        dump_json({"items": [{"name": n, "ok": ok, "message": m} for n, ok, m in items], "models": report.as_json()})
    else:
        for name, ok, msg in items:
            print(f"{'[정상]' if ok else '[주의]'} {msg}")
            if name == "models":
                for c in report.files:
                    print(f"    - {c.entry.name}: {DOCTOR_STATUS[c.status]} ({c.path or c.entry.file})")
                for problem in report.problems:
                    print(f"      {problem}")
        for line in report.capabilities:
            print(f"=> {line}")
    return EXIT_FAIL if corrupt or not lib_ok else EXIT_OK


def cmd_pack(args: argparse.Namespace) -> int:
    """``pack export OUT`` / ``pack import PACK`` for the library folder."""
    from kdsdesk import paths
    from kdsdesk.index.pack import export_pack, import_pack

    library = paths.library_dir(args.library)
    if args.pack_command == "export":
        info = export_pack(library, Path(args.out))
        print(f"색인 팩을 만들었습니다: {info.path} (파일 {info.n_files}개, {info.n_bytes / 1e6:,.1f} MB)")
        return EXIT_OK
    if args.pack_command == "import":
        info = import_pack(Path(args.pack), library)
        print(f"색인 팩을 가져왔습니다: {info.path} → {library} (파일 {info.n_files}개)")
        for w in info.warnings:
            print(f"주의: {w}")
        return EXIT_OK
    raise KnownError("사용법: kdsdesk pack export 파일.kdspack | kdsdesk pack import 파일.kdspack")


def cmd_selftest(args: argparse.Namespace) -> int:
    from kdsdesk.evaluation.selftest import main as selftest_main

    samples = getattr(args, "samples", None)
    return selftest_main(Path(samples) if samples else None, llm=getattr(args, "llm", None))


# -- library and retrieval: index, remove, list, search, eval, evalset -----------------------------------------------
def hit_json(hit: Any) -> dict[str, Any]:
    """A search hit as JSON (``pages`` 1-based)."""
    c: Chunk = hit.chunk
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


def _open_library(args: argparse.Namespace) -> Any:
    from kdsdesk.service import Library

    return Library(args.library)


def cmd_index(args: argparse.Namespace) -> int:
    """``kdsdesk index PATH…``: add files/folders; then dense vectors unless ``--no-dense`` (no-op without model)."""
    lib = _open_library(args)
    try:
        report = run_with_progress(lib.add([Path(p) for p in args.paths]))
        encoded = 0 if args.no_dense else run_with_progress(lib.encode_pending())
    finally:
        lib.close()
    if args.json:
        dump_json(
            {
                "added": list(report.added),
                "replaced": list(report.replaced),
                "skipped": list(report.skipped),
                "failed": [{"file": f, "message": m} for f, m in report.failed],
                "encoded": encoded,
            }
        )
    else:
        print(
            f"추가 {len(report.added)}, 교체 {len(report.replaced)}, 변경 없음 {len(report.skipped)}, "
            f"실패 {len(report.failed)}" + (f", 의미 검색 벡터 {encoded}" if encoded else "")
        )
        for f, m in report.failed:
            print(f"실패: {f}: {m}")
    return EXIT_FAIL if report.failed else EXIT_OK


def cmd_encode(args: argparse.Namespace) -> int:
    """``kdsdesk encode``: compute missing dense vectors (resumable: Ctrl+C keeps what is done)."""
    from kdsdesk.index.encoder import encoder_status

    lib = _open_library(args)
    try:
        ready, message = encoder_status(lib.settings.encoder_dir)
        if not ready:
            print(message, file=sys.stderr)
            return EXIT_OK
        encoded = run_with_progress(lib.encode_pending())
    finally:
        lib.close()
    print(f"의미 검색 벡터 {encoded}개를 계산했습니다.")
    return EXIT_OK


def cmd_remove(args: argparse.Namespace) -> int:
    lib = _open_library(args)
    try:
        n = lib.remove([Path(p) for p in args.paths])
    finally:
        lib.close()
    print(f"{n}개 파일을 라이브러리에서 제거했습니다.")
    return EXIT_OK if n else EXIT_FAIL


def cmd_list(args: argparse.Namespace) -> int:
    lib = _open_library(args)
    try:
        docs = lib.documents()
    finally:
        lib.close()
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


def _batch_lines(source: str) -> list[dict[str, Any]]:
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


def cmd_search(args: argparse.Namespace) -> int:
    """``kdsdesk search QUERY`` or ``--batch FILE|-`` (JSON Lines in and out; models load once)."""
    if not args.batch and not args.query:
        raise KnownError("검색어를 주거나 --batch 파일을 지정하세요.")
    lib = _open_library(args)
    dense = None if not args.lexical else False
    try:
        if args.batch:
            for item in _batch_lines(args.batch):
                hits = lib.search(str(item["question"]), k=args.k, dense=dense)
                dump_json({"id": item.get("id", ""), "hits": [hit_json(h) for h in hits]})
            return EXIT_OK
        hits = lib.search(args.query, k=args.k, dense=dense)
    finally:
        lib.close()
    if args.json:
        dump_json({"query": args.query, "hits": [hit_json(h) for h in hits]})
        return EXIT_OK
    for h in hits:
        c = h.chunk
        where = f"p.{','.join(str(p + 1) for p in c.pages)}" if c.pages else c.doc.kind
        head = " ".join(c.text.split())[:90]
        print(f"{h.rank:3} {h.score:7.2f} [{h.route}] {c.doc.doc_code}:{c.doc.year} {c.clause} ({where}) {head}")
    if not hits:
        print("검색 결과가 없습니다.")
    return EXIT_OK


def cmd_eval(args: argparse.Namespace) -> int:
    """Retrieval metrics per qtype over ``--qa FILE.jsonl``; with ``--answers`` also answer accuracy;
    ``--split dev|val`` keeps one half of the questions (by standard)."""
    from kdsdesk.evaluation.retrieval import evaluate_retrieval, load_items
    from kdsdesk.evaluation.split import select

    split = getattr(args, "split", "all")
    items = select(load_items(Path(args.qa)), split)
    lib = _open_library(args)
    try:
        dense = lib.settings.dense_enabled and not args.lexical
        result: dict[str, Any] = evaluate_retrieval(lib.catalog, items, k=args.k, dense=dense)
        result["library"] = str(lib.root)
        result["qa"] = str(Path(args.qa).resolve())
        result["split"] = split
        if args.answers:
            from kdsdesk.evaluation.answers import evaluate_answers

            result.update(evaluate_answers(lib, items, args.llm))
    finally:
        lib.close()
    if args.json:
        dump_json(result)
        return EXIT_OK
    cols = ("n", "hit@1", "hit@3", "hit@5", "mrr", "recall@20", "pool_recall")
    print(f"{'qtype':14}" + "".join(f"{c:>12}" for c in cols))
    for name, row in [*result["by_qtype"].items(), ("ALL", result["all"])]:
        print(f"{name:14}" + "".join(f"{row[c]:>12}" for c in cols))
    for m in result["misses"]:
        print(f"miss {m['id']} [{m['qtype']}] gold {m['gold']} rank {m['rank']} top {m['top']}: {m['question']}")
    for key, value in result.items():
        if key not in ("all", "by_qtype", "misses", "library", "qa", "split"):
            print(f"{key}: {json.dumps(value, ensure_ascii=False)}")
    return EXIT_OK


def cmd_evalset(args: argparse.Namespace) -> int:
    """``kdsdesk evalset build FILES… [--out FILE.jsonl]``: questions generated from the documents."""
    from kdsdesk.evaluation.evalset import build_evalset

    if getattr(args, "evalset_command", None) != "build":
        raise KnownError("사용법: kdsdesk evalset build 파일… [--out 질문.jsonl]")
    from kdsdesk.index.indexer import expand

    items, failed = build_evalset(expand([Path(f) for f in args.files]))
    lines = "".join(json.dumps(i, ensure_ascii=False) + "\n" for i in items)
    if args.out:
        Path(args.out).write_text(lines, encoding="utf-8")
        counts: dict[str, int] = {}
        for i in items:
            counts[i["qtype"]] = counts.get(i["qtype"], 0) + 1
        print(f"질문 {len(items)}개 → {args.out} {json.dumps(counts, ensure_ascii=False)}", file=sys.stderr)
    else:
        sys.stdout.write(lines)
    for f, m in failed:
        print(f"실패: {f}: {m}", file=sys.stderr)
    return EXIT_OK if items else EXIT_FAIL


def answer_json(answer: Any, item_id: str = "") -> dict[str, Any]:
    """An ``Answer`` as the JSON of ``kdsdesk ask --json`` (pages 1-based; rects ``[page, x0, y0, x1, y1]``)."""
    cites = []
    for c in answer.citations:
        ch: Chunk = c.chunk
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
        "prompt_tokens": answer.prompt_tokens,
        "timing_ms": dict(answer.timing_ms),
    }


def _print_answer(answer: Any) -> None:
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


def cmd_ask(args: argparse.Namespace) -> int:
    """``kdsdesk ask [--llm PATH|none] [--json] QUESTION`` or ``--batch FILE|-`` (JSON Lines in and out)."""
    if not args.batch and not args.question:
        raise KnownError("질문을 주거나 --batch 파일을 지정하세요.")
    lib = _open_library(args)
    try:
        if args.batch:
            for item in _batch_lines(args.batch):
                answer = lib.ask(str(item["question"]), llm=args.llm)
                dump_json(answer_json(answer, str(item.get("id", ""))))
            return EXIT_OK
        stream = None if args.json else (lambda t: print(t, end="", file=sys.stderr, flush=True))
        answer = lib.ask(args.question, llm=args.llm, on_token=stream)
    finally:
        lib.close()
    if args.json:
        dump_json(answer_json(answer))
    else:
        _print_answer(answer)
    return EXIT_OK if answer.status in ("confirmed", "warning") else EXIT_FAIL


def cmd_unanswered(args: argparse.Namespace) -> int:
    """``kdsdesk unanswered [--json]``: questions that ended restricted/unverified, with counts and last asked."""
    lib = _open_library(args)
    try:
        rows = lib.catalog.unanswered()
    finally:
        lib.close()
    if args.json:
        dump_json([{"question": q, "count": n, "last_asked": t, "last_status": s} for q, n, t, s in rows])
        return EXIT_OK
    for q, n, t, s in rows:
        print(f"{n:4}회  {t}  [{s}]  {q}")
    if not rows:
        print("답하지 못한 질문이 없습니다.")
    return EXIT_OK


# Handlers are looked up by name so each stage's owner fills in its own function in this module.
HANDLERS: dict[str, Callable[[argparse.Namespace], int]] = {"parse": cmd_parse}


def build_parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--library", metavar="DIR", help="라이브러리 폴더 (기본: 사용자 데이터 폴더 또는 KDSDESK_HOME)")
    common.add_argument("-v", "--verbose", action="store_true", help="자세한 로그")

    p = argparse.ArgumentParser(prog="kdsdesk", description="KDS Desk — 설계기준 질의응답 (오프라인)", parents=[common])
    p.add_argument("--version", action="version", version=f"kdsdesk {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    s = sub.add_parser("parse", parents=[common], help="파일 하나를 분석해 청크를 출력")
    s.add_argument("file")
    s.add_argument("--json", action="store_true")

    s = sub.add_parser("index", parents=[common], help="파일·폴더를 라이브러리에 추가(색인)")
    s.add_argument("paths", nargs="+")
    s.add_argument("--no-dense", action="store_true", help="의미 검색 벡터 계산을 건너뜀")
    s.add_argument("--json", action="store_true")

    s = sub.add_parser("remove", parents=[common], help="라이브러리에서 파일 제거")
    s.add_argument("paths", nargs="+")

    s = sub.add_parser("list", parents=[common], help="라이브러리의 문서 목록")
    s.add_argument("--json", action="store_true")

    s = sub.add_parser("search", parents=[common], help="검색")
    s.add_argument("query", nargs="?")
    s.add_argument("--k", type=int, default=20)
    s.add_argument("--json", action="store_true")
    s.add_argument("--batch", metavar="FILE|-", help='JSON Lines {"id","question"}')
    s.add_argument("--lexical", action="store_true", help="의미 검색(dense)을 쓰지 않음")

    s = sub.add_parser("ask", parents=[common], help="질문에 답하기")
    s.add_argument("question", nargs="?")
    s.add_argument("--llm", metavar="PATH|none")
    s.add_argument("--json", action="store_true")
    s.add_argument("--batch", metavar="FILE|-", help='JSON Lines {"id","question"}')

    s = sub.add_parser("eval", parents=[common], help="질문 세트로 검색/답변 평가")
    s.add_argument("--qa", required=True, metavar="FILE.jsonl")
    s.add_argument("--answers", action="store_true", help="답변 정확도까지 평가")
    s.add_argument("--llm", metavar="PATH|none")
    s.add_argument("--k", type=int, default=20)
    s.add_argument("--json", action="store_true")
    s.add_argument("--lexical", action="store_true")
    s.add_argument("--split", choices=("dev", "val", "all"), default="all", help="기준별 개발/검증 절반만 (기본: all)")

    s = sub.add_parser("evalset", parents=[common], help="문서에서 평가 질문 생성")
    ss = s.add_subparsers(dest="evalset_command", metavar="build")
    b = ss.add_parser("build", parents=[common])
    b.add_argument("files", nargs="+")
    b.add_argument("--out", metavar="FILE.jsonl")

    s = sub.add_parser("encode", parents=[common], help="의미 검색 벡터 계산(재개 가능)")

    s = sub.add_parser("unanswered", parents=[common], help="답하지 못한 질문 목록")
    s.add_argument("--json", action="store_true")

    s = sub.add_parser("doctor", parents=[common], help="모델·환경 점검")
    s.add_argument("--json", action="store_true")
    s.add_argument("--verify", action="store_true", help="모델 파일의 해시를 캐시 없이 다시 계산")

    s = sub.add_parser("pack", parents=[common], help="색인 팩 내보내기/가져오기")
    ss = s.add_subparsers(dest="pack_command", metavar="export|import")
    e = ss.add_parser("export", parents=[common])
    e.add_argument("out")
    i = ss.add_parser("import", parents=[common])
    i.add_argument("pack")

    s = sub.add_parser("selftest", parents=[common], help="오프라인 자체 점검 (kdsdesk --selftest 와 같음)")
    s.add_argument("--samples", metavar="DIR", help="예제 문서 폴더 (기본: 설치된 예제)")
    s.add_argument("--llm", metavar="PATH|none", help="LLM GGUF 경로 또는 none (기본: models/llm에서 찾음)")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING, format="%(levelname)s %(message)s")
    if not args.command:
        parser.print_help()
        return EXIT_OK
    handler = HANDLERS.get(args.command) or globals().get(f"cmd_{args.command}") or _not_yet(args.command)
    try:
        return handler(args)
    except KnownError as exc:
        print(f"오류: {exc}", file=sys.stderr)
        return EXIT_KNOWN
    except Cancelled:
        print("취소되었습니다.", file=sys.stderr)
        return EXIT_CANCELLED
    except KeyboardInterrupt:
        print("중단되었습니다.", file=sys.stderr)
        return EXIT_CANCELLED
