"""The quantity a question asks for, and answers whose unit cannot measure it (never confirmed)."""

from __future__ import annotations

import pytest

from kdsdesk.verify.need import asked_dimension, dimension_conflict


@pytest.mark.parametrize(
    ("question", "dimension"),
    [
        ("고유동 콘크리트로 역타설할 때 추가 측압 비율은?", "ratio"),  # head noun last: 측압 … 비율
        ("강재의 항복강도는 얼마인가?", "stress"),
        ("강도감소계수는?", ""),  # a factor: no constraint
        ("벽체 거푸집 긴결재 간격 최대값은?", "length"),
        ("타설 속도의 상한은 얼마인가요?", "speed"),
        ("콘크리트 타설 시 작업하중은 얼마인가요?", "force"),
        ("철근의 감소율은?", "ratio"),
    ],
)
def test_asked_dimension(question: str, dimension: str) -> None:
    assert asked_dimension(question) == dimension


@pytest.mark.parametrize(
    ("question", "value", "unit", "conflict"),
    [
        ("역타설 시 추가 측압 비율은?", "10", "m/h", True),  # a speed given for a ratio
        ("역타설 시 추가 측압 비율은?", "50 % 이상", "", False),
        ("역타설 시 추가 측압 비율은?", "0.25", "", False),  # ratios may be unitless
        ("강재의 항복강도는 얼마인가?", "0.90", "", True),  # a strength is never a bare number
        ("강재의 항복강도는 얼마인가?", "355", "MPa", False),
        ("측압은 얼마인가?", "30", "kPa", False),  # pressure in stress units
        ("긴결재 간격은?", "1.0", "m", False),
        ("긴결재 간격은?", "2.5", "kN/m²", True),
        ("전단강도 식에서 λ√fck·bw·d에 얼마를 곱하나요?", "0.29", "", False),  # a multiplier
        ("압축강도는 설계기준강도의 몇 % 이상인가?", "85", "%", False),  # the unit asked governs
    ],
)
def test_dimension_conflict(question: str, value: str, unit: str, conflict: bool) -> None:
    assert dimension_conflict(question, value, unit) is conflict


@pytest.mark.parametrize(
    ("question", "qtype", "unit"),
    [
        ("F10T 볼트 인장강도 최소값", "numeric", ""),  # no question word: the quantity named at the end
        ("F13T M22 볼트의 설계볼트장력", "numeric", ""),
        ("시스템 동바리 전도 안전율은?", "numeric", ""),
        ("동바리 수평하중은 고정하중의 몇 퍼센트 이상?", "numeric", "%"),  # units spelled in Hangul
        ("대형구멍은 어떤 접합에만 사용할 수 있나요?", "regulation", ""),
        ("전단철근의 종류는?", "regulation", ""),
    ],
)
def test_value_questions_without_question_words(question: str, qtype: str, unit: str) -> None:
    from kdsdesk.verify.need import classify

    info = classify(question)
    assert (info.qtype, info.unit) == (qtype, unit)
