"""Values read from tables with multi-level headers, through the whole pipeline: the cell's row labels and column
headers must be the question's, a table value is at most a warning, and a tie is never a value."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from kdsdesk.answer.pipeline import answer_question
from kdsdesk.records import Table, TableCell
from kdsdesk.text.match import in_interval, interval
from tests.data.answer_records import golden_tables, hits, table_chunk


@pytest.fixture(scope="module")
def tables(samples: Path) -> dict[str, Table]:
    return golden_tables(samples / "golden" / "dev-kds-14-31-25.json")


def test_two_level_column_header_and_row_identifier(tables: dict[str, Table]) -> None:
    t = next(t for t in tables.values() if t.n_cols == 4 and t.header_rows == 2 and "F13T" in t.rows_text()[1])
    a = answer_question("F13T 등급 M22 고력볼트의 설계볼트장력은 몇 kN인가요?", hits(table_chunk(t)), llm="none")
    assert a.status == "warning"  # a table cell: shown, with a request to check the original table
    assert (a.value, a.unit) == ("266", "kN")


def test_numeric_interval_row_label(tables: dict[str, Table]) -> None:
    t = next(t for t in tables.values() if "t ≤ 6" in " ".join(t.rows_text()))
    q = "접합부의 얇은 쪽 모재 두께가 10 mm일 때 필릿용접의 최소 사이즈는 몇 mm인가요?"
    a = answer_question(q, hits(table_chunk(t)), llm="none")
    assert a.status == "warning"
    assert a.value == "5"


def test_negation_in_a_header_decides_the_column() -> None:
    cells = (
        TableCell(0, 0, "시멘트", is_header=True),
        TableCell(0, 1, "지연제를 사용하지 않는 경우", is_header=True),
        TableCell(0, 2, "지연제를 사용하는 경우", is_header=True),
        TableCell(1, 0, "보통 시멘트"),
        TableCell(1, 1, "1.0"),
        TableCell(1, 2, "1.2"),
    )
    t = table_chunk(Table("1", "표 1 첨가물 계수", 2, 3, cells))
    a1 = answer_question("보통 시멘트에 지연제를 사용하는 경우 첨가물 계수는?", hits(t), llm="none")
    a2 = answer_question("보통 시멘트에 지연제를 사용하지 않는 경우 첨가물 계수는?", hits(t), llm="none")
    assert (a1.value, a2.value) == ("1.2", "1.0")


def test_a_tie_is_never_a_value() -> None:
    cells = (
        TableCell(0, 0, "구분", is_header=True),
        TableCell(0, 1, "A형", is_header=True),
        TableCell(0, 2, "B형", is_header=True),
        TableCell(1, 0, "계수"),
        TableCell(1, 1, "1.0"),
        TableCell(1, 2, "2.0"),
    )
    a = answer_question("계수는 얼마인가요?", hits(table_chunk(Table("1", "표 1 계수", 2, 3, cells))), llm="none")
    assert a.status not in ("confirmed", "warning")
    assert a.value == ""


@pytest.mark.parametrize(
    ("label", "x", "inside"),
    [("6 < t ≤ 13", "13", True), ("6 < t ≤ 13", "6", False), ("t > 19", "20", True), ("2.1~4.5", "3", True),
     ("4.5 m/h 초과", "4.5", False), ("10 mm 이하", "10", True)],
)  # fmt: skip
def test_intervals(label: str, x: str, inside: bool) -> None:
    iv = interval(label)
    assert iv is not None
    assert in_interval(Decimal(x), iv) is inside
