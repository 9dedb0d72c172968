"""Question subcommands: ``search`` and ``ask`` (one query, or ``--batch`` JSON Lines with the models loaded once)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from kdsdesk.cli.common import (
    EXIT_FAIL,
    EXIT_OK,
    answer_json,
    batch_lines,
    dump_json,
    hit_json,
    opened_library,
    print_answer,
)
from kdsdesk.errors import KnownError

if TYPE_CHECKING:
    from kdsdesk.service import Library


def _warn_outdated(lib: Library) -> None:
    """Say on stderr, in Korean, when files of the library were indexed by another version (they may be missing
    from what is found until indexed again), with the command that does it."""
    old = lib.outdated_files()
    if not old:
        return
    names = ", ".join(Path(f).name for f in old[:3]) + (f" 외 {len(old) - 3}개" if len(old) > 3 else "")
    print(
        f"알림: 파일 {len(old)}개가 이전 버전으로 색인되어 검색·답변에서 빠질 수 있습니다({names}). "
        f"다시 색인하세요: kdsdesk index --library {lib.root} <파일 또는 폴더>",
        file=sys.stderr,
    )


def cmd_search(args: argparse.Namespace) -> int:
    """``kdsdesk search QUERY`` or ``--batch FILE|-`` (JSON Lines in and out; models load once)."""
    if not args.batch and not args.query:
        raise KnownError("검색어를 주거나 --batch 파일을 지정하세요.")
    dense = None if not args.lexical else False
    with opened_library(args) as lib:
        _warn_outdated(lib)
        if args.batch:
            for item in batch_lines(args.batch):
                hits = lib.search(str(item["question"]), k=args.k, dense=dense)
                dump_json({"id": item.get("id", ""), "hits": [hit_json(h) for h in hits]})
            return EXIT_OK
        hits = lib.search(args.query, k=args.k, dense=dense)
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


def cmd_ask(args: argparse.Namespace) -> int:
    """``kdsdesk ask [--llm PATH|none] [--json] QUESTION`` or ``--batch FILE|-`` (JSON Lines in and out)."""
    if not args.batch and not args.question:
        raise KnownError("질문을 주거나 --batch 파일을 지정하세요.")
    with opened_library(args) as lib:
        _warn_outdated(lib)
        if args.batch:
            for item in batch_lines(args.batch):
                answer = lib.ask(str(item["question"]), llm=args.llm)
                dump_json(answer_json(answer, str(item.get("id", ""))))
            return EXIT_OK
        stream = None if args.json else (lambda t: print(t, end="", file=sys.stderr, flush=True))
        answer = lib.ask(args.question, llm=args.llm, on_token=stream)
    if args.json:
        dump_json(answer_json(answer))
    else:
        print_answer(answer)
    return EXIT_OK if answer.status in ("confirmed", "warning") else EXIT_FAIL

