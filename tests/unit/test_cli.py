"""Command-line options: the library folder and verbosity given before or after the command."""

from __future__ import annotations

import pytest

from kdsdesk.cli import build_parser


@pytest.mark.parametrize(
    "argv",
    [
        ["--library", "/tmp/lib", "ask", "질문"],
        ["ask", "--library", "/tmp/lib", "질문"],
        ["--library", "/tmp/other", "ask", "--library", "/tmp/lib", "질문"],  # the one after the command wins
    ],
)
def test_the_library_is_kept_wherever_it_is_given(argv: list[str]) -> None:
    args = build_parser().parse_args(argv)
    assert args.library == "/tmp/lib"
    assert args.command == "ask"


def test_without_a_library_or_verbosity_the_defaults_stand() -> None:
    args = build_parser().parse_args(["list"])
    assert args.library is None
    assert args.verbose is False
    assert build_parser().parse_args(["-v", "list"]).verbose is True
    assert build_parser().parse_args(["list", "-v"]).verbose is True
