"""The status policy: what may be shown."""

from __future__ import annotations

from kdsdesk.records import Citation
from kdsdesk.verify.policy import NO_VALUE, OCR_REASON, cap_ocr, decide, follows_policy


def test_outcomes() -> None:
    ok = {"quote_provenance": True, "value_in_quote": True}
    assert decide(True, ok, from_table=False).status == "confirmed"
    assert decide(True, ok, from_table=True).status == "warning"
    assert decide(True, {**ok, "value_in_quote": False}, from_table=False).status == "unverified"
    assert decide(True, {**ok, "value_in_quote": False}, from_table=True).status == "unverified"
    v = decide(False, ok, from_table=False)
    assert v.status == "restricted"
    assert NO_VALUE in v.reason


def test_follows_policy() -> None:
    assert follows_policy(True, {"a": True}, "confirmed")
    assert not follows_policy(True, {"a": False}, "confirmed")
    assert follows_policy(True, {"a": False}, "unverified")
    assert follows_policy(False, {}, "restricted")
    assert not follows_policy(True, {"a": True}, "restricted")


def _cite(ocr: float | None, start: int = 0, end: int = 4, engine: str = "Tesseract") -> Citation:
    from kdsdesk.records import Chunk, DocRef, Span

    doc = DocRef("/x.pdf", "0" * 64, "pdf")
    spans = (Span(0, 4, 0, (0, 0, 10, 10), None, ocr), Span(5, 9, 0, (12, 0, 20, 10)))
    chunk = Chunk("c-1", doc, "table", "0.90 0.85", spans=spans, ocr=engine if ocr is not None else "")
    return Citation(chunk, chunk.text[start:end], True, 0, (), start, end)


def test_a_value_read_by_ocr_is_never_confirmed() -> None:
    ok = {"quote_provenance": True, "value_in_quote": True}
    confirmed = decide(True, ok, from_table=False)
    capped = cap_ocr(confirmed, [_cite(0.93)])
    assert capped.status == "warning"
    assert capped.reason == OCR_REASON
    assert capped.checks["ocr_source"] is False
    assert follows_policy(True, capped.checks, capped.status)
    assert not follows_policy(True, capped.checks, "confirmed")
    table_warning = cap_ocr(decide(True, ok, from_table=True), [_cite(0.5)])
    assert table_warning.status == "warning"
    assert table_warning.reason.startswith(OCR_REASON)
    assert cap_ocr(confirmed, [_cite(0.93, 5, 9)]).status == "confirmed"  # the quote is text-layer characters
    assert cap_ocr(confirmed, [_cite(None)]).status == "confirmed"
    assert cap_ocr(decide(False, ok, from_table=False), [_cite(0.9)]).status == "restricted"
