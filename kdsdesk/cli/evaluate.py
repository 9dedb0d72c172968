"""Evaluation subcommands over ``kdsdesk.evaluation``: ``eval`` (retrieval and answer figures of a question set,
one half of it with ``--split``), ``evalset build`` (questions generated from documents) and ``selftest``."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from kdsdesk import service
from kdsdesk.cli.common import EXIT_FAIL, EXIT_OK, dump_json, opened_library
from kdsdesk.errors import KnownError


def cmd_eval(args: argparse.Namespace) -> int:
    """Retrieval metrics per qtype over ``--qa FILE.jsonl``; with ``--answers`` also answer accuracy;
    ``--split dev|val`` keeps one half of the questions (by standard)."""
    from kdsdesk.evaluation.retrieval import evaluate_retrieval, load_items
    from kdsdesk.evaluation.split import select

    split = getattr(args, "split", "all")
    items = select(load_items(Path(args.qa)), split)
    with opened_library(args) as lib:
        result: dict[str, Any] = evaluate_retrieval(lib, items, k=args.k, dense=not args.lexical)
        result["library"] = str(lib.root)
        result["qa"] = str(Path(args.qa).resolve())
        result["split"] = split
        if args.answers:
            from kdsdesk.evaluation.answers import evaluate_answers

            result.update(evaluate_answers(lib, items, args.llm))
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
    items, failed = build_evalset(service.expand_sources(args.files))
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


def cmd_selftest(args: argparse.Namespace) -> int:
    """``kdsdesk selftest [--samples DIR] [--llm PATH|none]``: the offline end-to-end check, one line per stage."""
    from kdsdesk.evaluation.selftest import main as selftest_main

    samples = getattr(args, "samples", None)
    return selftest_main(Path(samples) if samples else None, llm=getattr(args, "llm", None))

