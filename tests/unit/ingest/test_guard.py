"""Safe package reading: hostile HWPX files give Korean KnownErrors, never a traceback or a hang."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from kdsdesk.errors import KnownError
from kdsdesk.ingest import guard
from kdsdesk.ingest.hwpx import parse_hwpx
from tests.data import hwpx_builder as hb

HANGUL = re.compile(r"[가-힣]")


@pytest.mark.parametrize(
    ("build", "expect"),
    [
        (hb.zip_bomb, "압축"),
        (hb.billion_laughs, "XML"),
        (hb.truncated, "손상"),
        (hb.empty, "0바이트"),
        (hb.encrypted, "암호"),
        (hb.traversal, "경로"),
        (hb.ole_named_hwpx, "HWPX' 또는 'PDF"),
        (hb.not_hwpx_zip, "HWPX 문서가 아닌"),
    ],
)
def test_hostile_files_give_korean_known_errors(
    tmp_path: Path, build: Callable[[Path], Path], expect: str
) -> None:
    path = build(tmp_path / "bad.hwpx")
    with pytest.raises(KnownError) as info:
        parse_hwpx(path)
    assert expect in info.value.message
    assert HANGUL.search(info.value.message)
    assert info.value.path == str(path.resolve())


def test_read_is_capped_whatever_the_headers_say(tmp_path: Path) -> None:
    path = hb.simple_doc(tmp_path / "ok.hwpx")
    with guard.open_hwpx(path) as pkg:
        assert pkg.read("Contents/section0.xml")
        with pytest.raises(KnownError):
            pkg.read("Contents/section0.xml", limit=10)


def test_too_many_entries(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(guard, "MAX_ENTRIES", 3)
    path = hb.simple_doc(tmp_path / "many.hwpx")
    with pytest.raises(KnownError, match="항목 수"):
        guard.open_hwpx(path)


def test_parser_never_resolves_entities() -> None:
    xml = b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>'
    with pytest.raises(KnownError, match="DTD"):
        guard.parse_xml(xml, "f.hwpx", "x.xml")
    # defence in depth: the parser itself never expands entities either
    from lxml import etree

    root = etree.fromstring(b'<!DOCTYPE x [<!ENTITY e "SECRET">]><x>&e;</x>', parser=guard.xml_parser())
    assert "SECRET" not in etree.tostring(root, encoding="unicode")


def test_broken_xml_is_a_known_error() -> None:
    with pytest.raises(KnownError, match="손상"):
        guard.parse_xml(b"<a><b></a>", "f.hwpx", "Contents/section0.xml")


def test_missing_entry_is_a_known_error(tmp_path: Path) -> None:
    with guard.open_hwpx(hb.simple_doc(tmp_path / "ok.hwpx")) as pkg, pytest.raises(KnownError):
        pkg.read("Contents/nothing.xml")
