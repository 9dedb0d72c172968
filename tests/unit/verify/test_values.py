"""Value, unit and text checks against the verified quote."""

from __future__ import annotations

import pytest

from kdsdesk.verify.values import (
    number_values,
    relevance,
    text_in_quotes,
    unit_ok,
    value_in_quote,
)


@pytest.mark.parametrize(
    ("value", "unit", "quote"),
    [
        ("2", "", "안전율은 2.0 이상으로 한다"),
        ("2.0", "", "안전율은 2 이상으로 한다"),
        ("0.05", "", "고정하중의 5 % 이상"),
        ("5", "%", "고정하중의 5 % 이상"),
        ("1000", "MPa", "F10T 1,000 MPa"),
        ("1,000", "MPa", "F10T 1000 MPa"),
        ("22 × 50", "mm", "M20 | 22 | 24 | 22 × 26 | 22 × 50"),
        ("d/2 이하", "", "d/2 이하, 600 mm 이하"),
    ],
)
def test_value_found(value: str, unit: str, quote: str) -> None:
    assert value_in_quote(value, quote, unit)


@pytest.mark.parametrize(
    ("value", "quote"),
    [
        ("150", "전체 깊이가 1500 mm 이하"),
        ("15", "전체 깊이가 150 mm 이하"),
        ("8.5", "8.4 MPa를 초과하지"),
        ("22 × 60", "22 × 50"),
        ("d/4 이하", "d/2 이하"),
        ("", "아무 값"),
        ("0.5", "5 % 이상"),
    ],
)
def test_value_not_found(value: str, quote: str) -> None:
    assert not value_in_quote(value, quote)


def test_unit_must_follow_the_number_in_text() -> None:
    q = "유효깊이 d가 150 mm 이상이고 전단철근 지름의 16배 이상"
    assert unit_ok("150", "mm", q)
    assert not unit_ok("16", "mm", q)
    assert unit_ok("16", "배", q)
    assert unit_ok("16", "", q)


def test_unit_of_a_table_cell_from_headers_or_caption() -> None:
    assert not unit_ok("27", "mm", "M24 | 27 | 30")
    assert unit_ok("27", "mm", "M24 | 27 | 30", ["표 4.3-1 고력볼트의 구멍 치수", "구멍의 치수(mm)"])
    assert not unit_ok("27", "kN", "M24 | 27 | 30", ["표 4.3-1 고력볼트의 구멍 치수", "구멍의 치수(mm)"])


def test_number_values_include_percent_fraction() -> None:
    vals = number_values("5 % 및 1,300 MPa")
    assert {str(v) for v in vals} >= {"5", "0.05", "1.3E+3"}


def test_text_in_quotes() -> None:
    assert text_in_quotes("최소 전단철근을 배치하여야 한다", ["… 휨부재에는 최소 전단철근을  배치하여야 한다."])
    assert not text_in_quotes("최대 전단철근을 배치하여야 한다", ["최소 전단철근을 배치하여야 한다."])
    assert not text_in_quotes("", ["x"])


def test_relevance() -> None:
    q = "합판 거푸집 널의 최소 두께는 몇 mm인가요?"
    assert relevance(q, ["합판 거푸집 널의 최소 두께는 12 mm 이상으로 하여야 한다."]) > 0.8
    assert relevance(q, ["고력볼트의 표준볼트장력은 설계볼트장력에 10 %를 할증한 값으로 한다."]) < 0.3
