"""Quote provenance: containment after normalisation, the LCS fallback, retrieved chunks only, rects."""

from __future__ import annotations

from dataclasses import replace

import pytest

from kdsdesk.records import DocRef, Span
from kdsdesk.verify.quotes import LCS_THRESHOLD, cite, lcs_coverage, locate, rects_for, verify_quote
from tests.data.answer_records import hits, text_chunk

TEXT = "(1) 전단강도 계산에 사용하는 √(f_ck)의 값은 8.4 MPa를 초과하지 않도록 하여야 한다."


def test_contained_after_normalisation() -> None:
    m = locate("√(f_{ck})의 값은 8.4MPa를 초과하지", TEXT)
    assert m is not None
    assert m.coverage == 1.0
    assert TEXT[m.start : m.end] == "√(f_ck)의 값은 8.4 MPa를 초과하지"


def test_lcs_fallback_accepts_a_small_change_and_returns_the_document_text() -> None:
    quote = "전단강도 계산에 사용하는 √(f_ck)의 값은 8.4 MPa를 초과하지 않도록 하여야 한다"
    changed = quote.replace("사용하는", "쓰는")
    assert lcs_coverage(changed, TEXT) < 1.0
    m = locate(changed, TEXT, threshold=0.5)
    assert m is not None
    assert "8.4 MPa" in TEXT[m.start : m.end]


def test_a_different_sentence_is_rejected() -> None:
    assert locate("강관의 바깥지름은 48.6 mm 이상으로 한다", TEXT) is None
    assert locate("", TEXT) is None


def test_changed_number_in_a_long_quote_never_survives_into_the_verified_text() -> None:
    chunk = text_chunk(TEXT)
    c = cite(chunk, TEXT.replace("8.4", "9.4"))
    # either rejected, or verified with the document's own text (which says 8.4)
    assert not c.verified or "9.4" not in c.quote


def test_quote_must_come_from_a_retrieved_chunk() -> None:
    a, b = text_chunk(TEXT, "a"), text_chunk("다른 문장이다.", "b")
    assert verify_quote("b", "다른 문장", hits(a)) is None
    got = verify_quote("a", "8.4 MPa", hits(a, b))
    assert got is not None
    assert got.verified


def test_quote_in_another_retrieved_chunk_does_not_verify() -> None:
    a, b = text_chunk(TEXT, "a"), text_chunk("다른 문장이다.", "b")
    got = verify_quote("b", "8.4 MPa를 초과하지", hits(a, b))
    assert got is not None
    assert not got.verified


def test_rects_clip_partial_spans_proportionally() -> None:
    chunk = text_chunk("abcdefghij\nklmnopqrst", spans=[Span(0, 10, 2, (0.0, 0.0, 100.0, 10.0)),
                                                          Span(11, 21, 3, (0.0, 20.0, 50.0, 30.0))])  # fmt: skip
    r = rects_for(chunk, 5, 15)
    assert r == ((2, 50.0, 0.0, 100.0, 10.0), (3, 0.0, 20.0, 20.0, 30.0))
    c = cite(chunk, "fghij klmn")
    assert c.verified
    assert c.page_index == 2
    assert [x[0] for x in c.rects] == [2, 3]


def test_hwpx_citations_have_no_rects() -> None:
    doc = DocRef(file="/tmp/a.hwpx", sha256="1" * 64, kind="hwpx")
    chunk = replace(text_chunk(TEXT), doc=doc, spans=(Span(0, len(TEXT), paragraph=3),))
    c = cite(chunk, "8.4 MPa")
    assert c.verified
    assert c.page_index is None
    assert c.rects == ()


def test_threshold_is_documented_value() -> None:
    assert 0.5 < LCS_THRESHOLD <= 1.0


@pytest.mark.parametrize("quote", ["8.4", "MPa를"])
def test_short_quotes_locate(quote: str) -> None:
    assert locate(quote, TEXT) is not None
