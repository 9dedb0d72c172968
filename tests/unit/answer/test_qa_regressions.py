"""End-to-end QA findings on the real KDS library, as rules: a quantity named at the end of a question is a
value question, a cell holding stacked numbers is ambiguous, an answer about another quantity is not confirmed."""

from __future__ import annotations

import pytest

from kdsdesk.answer.pipeline import answer_question
from kdsdesk.answer.qtype import classify
from kdsdesk.answer.tables import read_table, stacked
from kdsdesk.records import Table, TableCell
from tests.data.answer_records import hits, table_chunk, text_chunk


@pytest.mark.parametrize(
    ("question", "qtype"),
    [
        ("강과 주강의 포아송비는?", "numeric"),
        ("SM355 강재의 항복강도 Fy는?", "numeric"),
        ("판 두께 16mm 이하일 때 SM355 강재의 항복강도 Fy는?", "conditional"),
        ("스터드 전단연결재의 줄기 지름의 표준은?", "regulation"),
        ("설비는?", "regulation"),
    ],
)
def test_quantity_named_at_the_end(question: str, qtype: str) -> None:
    assert classify(question).qtype == qtype


@pytest.mark.parametrize(
    ("value", "is_stacked"),
    [("900 1000", True), ("240 400", True), ("1,000", False), ("22 × 50", False), ("0.30", False), ("d/2 이하", False)],
)
def test_stacked(value: str, is_stacked: bool) -> None:
    assert stacked(value) is is_stacked


BOLTS = Table(
    "3.4-4", "표 3.4-4 고장력볼트의 재료강도(MPa)", 2, 4,
    (TableCell(0, 0, "볼트 등급 최소 강도", is_header=True), TableCell(0, 1, "F8T", is_header=True),
     TableCell(0, 2, "F10T", is_header=True), TableCell(0, 3, "F13T", is_header=True),
     TableCell(1, 0, "F_y F_u"), TableCell(1, 1, "640 800"), TableCell(1, 2, "900 1000"),
     TableCell(1, 3, "1170 1300")),
)  # fmt: skip


def test_a_stacked_cell_is_never_shown() -> None:
    r = read_table("F10T 고장력볼트의 최소 인장강도 Fu는 얼마인가?", BOLTS)
    assert r is not None
    assert r.ambiguous
    a = answer_question("F10T 고장력볼트의 최소 인장강도 Fu는 얼마인가?", hits(table_chunk(BOLTS, "t")), llm="none")
    assert a.status not in ("confirmed", "warning")
    assert a.value == ""


LAP = text_chunk(
    "(1) 필릿용접의 유효길이는 필릿용접 사이즈의 4배 이상으로 하여야 한다.\n"
    "(2) 겹침이음의 최소 겹침길이는 접합되는 얇은 쪽 판 두께의 5배 이상, 25 mm 이상으로 하여야 한다.",
    "lap",
    clause_path=("4.2.2.4 필릿용접의 구조 제한",),
)


def test_another_length_is_not_the_asked_length() -> None:
    a = answer_question("인장 이형철근의 정착길이는 최소 몇 mm 이상이어야 하는가?", hits(LAP), llm="none")
    assert a.status not in ("confirmed", "warning")
    assert a.value == ""
    b = answer_question("겹침이음의 최소 겹침길이는 몇 mm 이상인가?", hits(LAP), llm="none")
    assert b.status == "confirmed"
    assert "25" in b.value
