"""Answer evaluation figures on hand-made answers: accuracy, precision, wrong values, declining, citation pages."""

from __future__ import annotations

from typing import Any

import pytest

from kdsdesk.evaluation.answers import evaluate_answers, in_library
from kdsdesk.evaluation.split import item_split
from kdsdesk.records import Answer, Citation, DocRef, Draft, Verdict
from tests.data.answer_records import text_chunk

PDF_A = DocRef(file="/lib/std-a.pdf", sha256="a" * 64, kind="pdf", doc_code="KDS 14 20 22")
PDF_B = DocRef(file="/lib/std-b.pdf", sha256="b" * 64, kind="pdf", doc_code="KDS 14 31 25")
HWPX_A = DocRef(file="/lib/std-a.hwpx", sha256="c" * 64, kind="hwpx", doc_code="KDS 14 20 22")


def _cite(doc: DocRef, page: int | None, verified: bool = True) -> Citation:
    return Citation(text_chunk("값은 8.4 MPa 이하로 한다.", doc=doc), "8.4 MPa", verified=verified, page_index=page)


def _answer(status: str, value: str = "", cites: tuple[Citation, ...] = (), **checks: bool) -> Answer:
    return Answer("q", Draft("numeric", value=value), Verdict(status, checks), citations=cites)  # type: ignore[arg-type]


def _item(qid: str, doc: str = "KDS 14 20 22", answer: str = "8.4", qtype: str = "numeric", **kw: Any) -> dict:
    return {"id": qid, "question": qid, "answer": answer, "qtype": qtype, "evidence": "body", "doc": doc, **kw}


PAGES = {"pdf_pages": [2, 3], "file_stem": "std-a"}

# (item, the answer the library gives)
CASES: list[tuple[dict[str, Any], Answer]] = [
    # right value, confirmed, cited on a gold page (0-based 2 = page 3) of the gold file
    (_item("right-page", **PAGES), _answer("confirmed", "8.4", (_cite(PDF_A, 2),))),
    # wrong value confirmed, cited on a page outside the gold's
    (_item("wrong-confirmed", **PAGES), _answer("confirmed", "7.0", (_cite(PDF_A, 9),))),
    # wrong value as a warning; right page number but another file; an unverified citation ahead of it is skipped
    (_item("wrong-warning", qtype="conditional", **PAGES),
     _answer("warning", "7.0", (_cite(PDF_A, 1, verified=False), _cite(PDF_B, 1)))),
    # declined although in the library; a value left on a restricted answer breaks the policy
    (_item("declined-in-library", **PAGES), _answer("restricted", "3")),
    # right, citing a source without pages (HWPX): not counted for pages
    (_item("right-hwpx", **PAGES), _answer("confirmed", "8.4", (_cite(HWPX_A, None),))),
    # right value shown without any verified citation: counted, wrong page
    (_item("right-uncited", **PAGES), _answer("warning", "8.4", (_cite(PDF_A, 1, verified=False),))),
    # not in the library: declined two ways, and one value shown
    (_item("nil-restricted", doc="", answer=""), _answer("restricted")),
    (_item("nil-unverified", doc="", answer=""), _answer("unverified", quote=False)),
    (_item("nil-shown", doc="", answer=""), _answer("warning", "0.85", (_cite(PDF_B, 0),))),
    # retrieval-only items are not answered
    (_item("symbol-only", qtype="symbol"), _answer("confirmed", "8.4")),
]  # fmt: skip


class _Library:
    """Gives the prepared answer for each question and records how it was asked."""

    def __init__(self) -> None:
        self.answers = {item["question"]: a for item, a in CASES}
        self.asked: list[tuple[str, str | None, bool]] = []

    def ask(self, question: str, llm: str | None = None, remember: bool = True) -> Answer:
        self.asked.append((question, llm, remember))
        return self.answers[question]


@pytest.fixture(scope="module")
def report() -> dict[str, Any]:
    lib = _Library()
    out = evaluate_answers(lib, [item for item, _ in CASES], "none")  # type: ignore[arg-type]
    assert all(llm == "none" and not remember for _, llm, remember in lib.asked)  # evaluation logs no question
    assert "symbol-only" not in {q for q, _, _ in lib.asked}
    return out["answers"]


def test_counts_and_accuracy_over_in_library_items(report: dict[str, Any]) -> None:
    assert report["n"] == 9
    assert report["n_in_library"] == 6
    assert report["accuracy"] == 0.5  # right-page, right-hwpx, right-uncited of 6
    assert report["shown_precision"] == 0.5  # 3 right of 6 shown (nil-shown is wrong)
    assert report["confirmed_precision"] == round(2 / 3, 4)
    assert report["status"] == {"confirmed": 3, "warning": 3, "restricted": 2, "unverified": 1}


def test_wrong_values_are_listed(report: dict[str, Any]) -> None:
    assert report["wrong_confirmed"] == ["wrong-confirmed"]
    assert report["wrong_shown"] == ["wrong-confirmed", "wrong-warning", "nil-shown"]


def test_not_in_library_declined_or_shown(report: dict[str, Any]) -> None:
    assert report["not_in_library"] == {"n": 3, "declined": 2, "shown": ["nil-shown"]}


def test_citation_page_counts_shown_answers_with_gold_pages(report: dict[str, Any]) -> None:
    # counted: right-page (right), wrong-confirmed (page 10), wrong-warning (other file), right-uncited (none)
    assert report["citation_page_n"] == 4
    assert report["citation_page_right"] == 0.25


def test_policy_validity(report: dict[str, Any]) -> None:
    assert report["valid_rate"] == round(8 / 9, 4)  # the restricted answer that keeps a value


def test_an_advisory_check_caps_a_value_at_warning_without_breaking_the_policy() -> None:
    """A value read by OCR (or from a source changed since indexing) is a warning by policy; the same answer
    confirmed breaks it."""
    item = _item("ocr")
    for status, valid in (("warning", 1.0), ("confirmed", 0.0)):
        lib = _Library()
        lib.answers = {"ocr": _answer(status, "8.4", (_cite(PDF_A, 2),), value_in_quote=True, ocr_source=False)}
        out = evaluate_answers(lib, [item], "none")  # type: ignore[arg-type]
        assert out["answers"]["valid_rate"] == valid, status


def test_per_question_type_and_split(report: dict[str, Any]) -> None:
    assert set(report["by_qtype"]) == {"numeric", "conditional"}
    cond = report["by_qtype"]["conditional"]
    assert (cond["n"], cond["accuracy"], cond["wrong_shown"]) == (1, 0.0, ["wrong-warning"])
    num = report["by_qtype"]["numeric"]
    assert num["n"] == 8
    assert num["wrong_confirmed"] == ["wrong-confirmed"]
    assert num["not_in_library"]["declined"] == 2
    halves = report["by_split"]
    assert sum(h["n"] for h in halves.values()) == 9
    for half, row in halves.items():
        expected = {item["id"] for item, _ in CASES[:-1] if item_split(item) == half}
        assert row["n"] == len(expected)
        assert set(row["wrong_shown"]) <= expected
    per_item = {r["id"]: r for r in report["items"]}
    assert per_item["right-page"]["cited"] == {"file_stem": "std-a", "clause": "4.1", "page": 3}
    assert per_item["nil-shown"]["in_library"] is False


def test_nothing_to_count_gives_none() -> None:
    lib = _Library()
    items = [_item("nil-restricted", doc="", answer="")]
    rep = evaluate_answers(lib, items, None)["answers"]  # type: ignore[arg-type]
    assert rep["accuracy"] is None
    assert rep["confirmed_precision"] is None
    assert rep["citation_page_right"] is None
    assert rep["not_in_library"] == {"n": 1, "declined": 1, "shown": []}


def test_an_item_without_doc_field_is_in_the_library() -> None:
    assert in_library({"question": "x"})
    assert in_library({"doc": "KDS 14 20 22"})
    assert not in_library({"doc": ""})
    assert not in_library({"doc": "  "})
