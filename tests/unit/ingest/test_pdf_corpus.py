"""Every PDF of the shared corpus parses without a crash (or a Korean ``KnownError``), with sane records:
spans inside their text, no raw PUA in chunks, unreadable regions where the real KCSC PDFs draw text as outlines,
and the ASCII-punctuation equations of ``exam_math.pdf`` marked unreadable instead of indexed."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

from kdsdesk.errors import KnownError
from kdsdesk.ingest.pdf import parse_pdf
from kdsdesk.records import ParsedDoc
from kdsdesk.text.chunk import chunk_document
from tests.conftest import corpus_files
from tests.data import real_pdfs

_PUA = re.compile(r"[\ue000-\uf8ff]")


@cache
def _parse(path: Path) -> ParsedDoc | KnownError:
    try:
        if path.parent.name == "kds" and path.parent.parent.name == "real":
            return real_pdfs.parsed(path.name)
        return parse_pdf(path)
    except KnownError as exc:
        return exc


@pytest.mark.slow
@pytest.mark.parametrize("path", corpus_files("*.pdf"))
def test_every_corpus_pdf_parses(path: Path) -> None:
    result = _parse(path)
    if isinstance(result, KnownError):
        assert re.search(r"[가-힣]", result.message)
        return
    assert result.n_pages >= 1
    for b in result.blocks:
        for s in b.spans:
            assert 0 <= s.start < s.end <= len(b.text)
            assert s.page_index is not None
            assert 0 <= s.page_index < result.n_pages
    chunks = chunk_document(result)
    assert not any(_PUA.search(c.text) for c in chunks)


@pytest.mark.slow
def test_real_kds_reading_order_puts_equations_in_sentences(corpus: Path) -> None:
    result = _parse(corpus / "real" / "kds" / "KDS143110-1.pdf")
    assert isinstance(result, ParsedDoc)
    text = "\n".join(b.text for b in result.blocks)
    assert "가장 얇은 덧판 두께의 0.75√(E/F_y)배 및 300 mm 이하로 하여야 한다" in text
    assert result.stats["pua_coverage"] >= 0.99


@pytest.mark.slow
def test_outline_lettering_is_recorded_unreadable_without_ocr(corpus: Path) -> None:
    result = real_pdfs.parsed("KDS143110-1.pdf", use_ocr=False)
    table_pages = {t.page_index for t in result.tables()}
    assert {u.page_index for u in result.unreadable} & table_pages
    assert all(u.reason for u in result.unreadable)


@pytest.mark.slow
def test_ascii_punctuation_equations_are_marked_unreadable(corpus: Path) -> None:
    result = _parse(corpus / "real" / "hwp-pdf" / "exam_math.pdf")
    assert isinstance(result, ParsedDoc)
    assert result.stats["unreadable_equations"] > 0
    assert any("수식" in u.reason for u in result.unreadable)
    text = "\n".join(b.text for b in result.blocks)
    assert "$×&$" not in text
