"""Reading a value from a table with multi-level headers (the sample standards' golden tables)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kdsdesk.answer.tables import read_table
from kdsdesk.records import Table, TableCell
from kdsdesk.text.match import in_interval, interval
from tests.data.answer_records import golden_tables


@pytest.fixture(scope="module")
def tables(samples: Path) -> dict[str, Table]:
    return golden_tables(samples / "golden" / "dev-kds-14-31-25.json")


def test_two_level_column_header_and_row_identifier(tables: dict[str, Table]) -> None:
    t = next(t for t in tables.values() if t.n_cols == 4 and t.header_rows == 2 and "F13T" in t.rows_text()[1])
    r = read_table("F13T 등급 M22 고력볼트의 설계볼트장력은 몇 kN인가요?", t, "kN")
    assert r is not None
    assert (r.value, r.unit) == ("266", "kN")
    assert not r.ambiguous
    assert r.col_headers[-1] == "F13T"


def test_numeric_interval_row_label(tables: dict[str, Table]) -> None:
    t = next(t for t in tables.values() if "t ≤ 6" in " ".join(t.rows_text()))
    r = read_table("접합부의 얇은 쪽 모재 두께가 10 mm일 때 필릿용접의 최소 사이즈는 몇 mm인가요?", t, "mm")
    assert r is not None
    assert r.value == "5"
    assert r.unit == "mm"
    assert {a.value for a in r.alternatives} <= {"3", "6", "8"}


def test_negation_in_a_header_decides_the_column() -> None:
    cells = (
        TableCell(0, 0, "시멘트", is_header=True),
        TableCell(0, 1, "지연제를 사용하지 않는 경우", is_header=True),
        TableCell(0, 2, "지연제를 사용하는 경우", is_header=True),
        TableCell(1, 0, "보통 시멘트"),
        TableCell(1, 1, "1.0"),
        TableCell(1, 2, "1.2"),
    )
    t = Table("1", "표 1 계수", 2, 3, cells)
    r1 = read_table("보통 시멘트에 지연제를 사용하는 경우 계수는?", t)
    r2 = read_table("보통 시멘트에 지연제를 사용하지 않는 경우 계수는?", t)
    assert r1 is not None
    assert r2 is not None
    assert (r1.value, r2.value) == ("1.2", "1.0")


def test_a_tie_is_ambiguous() -> None:
    cells = (
        TableCell(0, 0, "구분", is_header=True),
        TableCell(0, 1, "A형", is_header=True),
        TableCell(0, 2, "B형", is_header=True),
        TableCell(1, 0, "값"),
        TableCell(1, 1, "1.0"),
        TableCell(1, 2, "2.0"),
    )
    r = read_table("값은 얼마인가요?", Table("1", "표 1", 2, 3, cells))
    assert r is not None
    assert r.ambiguous


@pytest.mark.parametrize(
    ("label", "x", "inside"),
    [("6 < t ≤ 13", "13", True), ("6 < t ≤ 13", "6", False), ("t > 19", "20", True), ("2.1~4.5", "3", True),
     ("4.5 m/h 초과", "4.5", False), ("10 mm 이하", "10", True)],
)  # fmt: skip
def test_intervals(label: str, x: str, inside: bool) -> None:
    from decimal import Decimal

    iv = interval(label)
    assert iv is not None
    assert in_interval(Decimal(x), iv) is inside
