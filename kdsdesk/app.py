"""The ``kdsdesk`` entry point: a subcommand goes to ``cli.main``; none opens the GUI after early checks.

``kdsdesk [--library DIR] [--screenshot OUT.png [--ask QUESTION]] [--selftest]``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

SUBCOMMANDS = {
    "parse", "index", "remove", "list", "search", "ask", "eval", "evalset", "encode",
    "unanswered", "doctor", "pack", "selftest",
}


def _subcommand_lines() -> str:
    """The CLI's subcommands with their one-line help, for ``kdsdesk --help``."""
    from kdsdesk import cli

    parser = cli.build_parser()
    lines = ["명령 (kdsdesk 명령 --help 로 자세히):"]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            lines += [f"  {choice.dest:<12} {choice.help or ''}" for choice in action._choices_actions]
    return "\n".join(lines)


def _gui_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="kdsdesk",
        add_help=True,
        description="KDS Desk — 설계기준 질의응답 (오프라인). 명령 없이 실행하면 창을 엽니다.",
        epilog=_subcommand_lines(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--library", metavar="DIR")
    p.add_argument("--screenshot", metavar="OUT.png", help="창을 열고 (질문에 답한 뒤) 화면을 저장하고 종료")
    p.add_argument("--ask", metavar="QUESTION")
    p.add_argument("--selftest", action="store_true", help="오프라인 자체 점검 후 종료")
    p.add_argument("--version", action="store_true")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    positional = [a for a in argv if not a.startswith("-")]
    # a subcommand anywhere before other positionals (``--library DIR`` may come first)
    first = next((a for i, a in enumerate(argv) if a in SUBCOMMANDS and (i == 0 or argv[i - 1] != "--library")), None)
    if first is not None and positional and first in positional:
        from kdsdesk import cli

        return cli.main(argv)
    args = _gui_parser().parse_args(argv)
    if args.version:
        from kdsdesk import __version__

        print(f"kdsdesk {__version__}")
        return 0
    if args.selftest:
        from kdsdesk import cli

        return cli.main(["selftest", *(["--library", args.library] if args.library else [])])
    from kdsdesk.ui.main_window import run_gui

    return run_gui(library=args.library, screenshot=args.screenshot, ask=args.ask)
