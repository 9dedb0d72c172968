"""``kdsdesk SUBCOMMAND …``: the command-line interface over ``kdsdesk.service`` and ``kdsdesk.evaluation`` (no Qt,
no stage imported directly). Progress goes to stderr, results to stdout (``--json`` for machines). ``KnownError``
ends with its Korean message and exit code 2.

One module per concern: ``common`` (exit codes, progress, JSON forms), ``library`` (index, encode, remove, list,
unanswered, pack), ``query`` (search, ask), ``checks`` (parse, doctor), ``evaluate`` (eval, evalset, selftest);
the argument parser and ``main`` are here.
"""

from __future__ import annotations

import argparse
import logging
import sqlite3
import sys
from collections.abc import Callable, Sequence

from kdsdesk import __version__
from kdsdesk.cli import checks, evaluate, library, query
from kdsdesk.cli.common import EXIT_CANCELLED, EXIT_KNOWN, EXIT_OK
from kdsdesk.errors import REPAIR_HINT, Cancelled, KnownError

HANDLERS: dict[str, Callable[[argparse.Namespace], int]] = {
    "parse": checks.cmd_parse,
    "doctor": checks.cmd_doctor,
    "index": library.cmd_index,
    "encode": library.cmd_encode,
    "remove": library.cmd_remove,
    "list": library.cmd_list,
    "unanswered": library.cmd_unanswered,
    "pack": library.cmd_pack,
    "search": query.cmd_search,
    "ask": query.cmd_ask,
    "eval": evaluate.cmd_eval,
    "evalset": evaluate.cmd_evalset,
    "selftest": evaluate.cmd_selftest,
}


def build_parser() -> argparse.ArgumentParser:
    library_help = "라이브러리 폴더 (기본: 사용자 데이터 폴더 또는 KDSDESK_HOME)"
    top = argparse.ArgumentParser(add_help=False)
    top.add_argument("--library", metavar="DIR", help=library_help)
    top.add_argument("-v", "--verbose", action="store_true", help="자세한 로그")
    # the same options after the command; left unset there unless given, so "kdsdesk --library DIR ask …" keeps DIR
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--library", metavar="DIR", default=argparse.SUPPRESS, help=library_help)
    common.add_argument("-v", "--verbose", action="store_true", default=argparse.SUPPRESS, help="자세한 로그")

    p = argparse.ArgumentParser(prog="kdsdesk", description="KDS Desk — 설계기준 질의응답 (오프라인)", parents=[top])
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
    s.add_argument("--repair", action="store_true", help="손상된 라이브러리 복구(손상된 파일은 backup 폴더에 보관)")

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
    handler = HANDLERS[args.command]
    try:
        return handler(args)
    except KnownError as exc:
        print(f"오류: {exc}", file=sys.stderr)
        return EXIT_KNOWN
    except sqlite3.DatabaseError as exc:  # damage that appeared after the library was opened
        print(f"오류: 라이브러리 목록(catalog.sqlite3)을 읽을 수 없습니다({exc}). {REPAIR_HINT}", file=sys.stderr)
        return EXIT_KNOWN
    except Cancelled:
        print("취소되었습니다.", file=sys.stderr)
        return EXIT_CANCELLED
    except KeyboardInterrupt:
        print("중단되었습니다.", file=sys.stderr)
        return EXIT_CANCELLED

