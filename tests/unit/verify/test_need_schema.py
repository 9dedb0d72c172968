"""Question types by rules; the answer schema and its strict validation."""

from __future__ import annotations

from typing import Any

import pytest

from kdsdesk.answer.schema import SchemaError, draft_from_json, schema_for, validate
from kdsdesk.verify.need import classify, unit_asked


@pytest.mark.parametrize(
    ("question", "qtype"),
    [
        ("전단마찰이란 무엇을 말하나요?", "definition"),
        ("접합면의 마찰력으로 미끄럼에 저항하는 접합을 무엇이라 하나요?", "definition"),
        ("합판 거푸집 널의 최소 두께는 몇 mm인가요?", "numeric"),
        ("M22 볼트에 대형구멍을 적용하면 구멍 직경은 몇 mm인가요?", "conditional"),
        ("비틀림철근은 어떤 철근으로 구성해야 하나요?", "regulation"),
        ("반복하중이 발생하는 접합부는 어떤 접합으로 설계해야 하나요?", "regulation"),
    ],
)
def test_classify(question: str, qtype: str) -> None:
    assert classify(question).qtype == qtype


def test_inverse_definition_asks_for_the_term() -> None:
    assert classify("굳지 않은 콘크리트가 거푸집에 수평으로 작용하는 압력을 뭐라고 하나요?").asks_term
    assert not classify("측압이란 무엇인가요?").asks_term


def test_unit_asked() -> None:
    assert unit_asked("최소 몇 mm 이상인가요?") == "mm"
    assert unit_asked("몇 %로 하나요?") == "%"
    assert unit_asked("몇 배 이상인가요?") == "배"
    assert unit_asked("몇 도로 하나요?") == "°"
    assert unit_asked("얼마인가요?") == ""


@pytest.mark.parametrize(("question", "unit"), [("몇 자리", "자리"), ("몇 개소", "개소"), ("몇 시간", "시간"),
                                                ("몇 가지", "가지"), ("몇 초", "sec"), ("몇 년", "년")])
def test_counters_and_korean_time_units_are_asked_as_written(question: str, unit: str) -> None:
    # a counter noun after 몇 is the unit of the answer ("3자리 이상", "2개소"); spelled units are converted
    assert unit_asked(f"유효숫자는 {question} 이상인가요?") == unit


def _ok(qtype: Any) -> dict[str, Any]:
    ev = [{"item": 1, "quote": "12 mm 이상"}]
    shapes: dict[str, dict[str, Any]] = {
        "numeric": {"value": "12", "unit": "mm", "condition": "", "evidence": ev},
        "regulation": {"requirements": ["12 mm 이상으로 하여야 한다"], "evidence": ev},
        "definition": {"term": "측압", "definition": "수평방향으로 작용하는 압력", "evidence": ev},
    }
    return shapes[qtype]


@pytest.mark.parametrize("qtype", ["numeric", "regulation", "definition"])
def test_valid_output_becomes_a_draft(qtype: Any) -> None:
    d = draft_from_json(_ok(qtype), qtype, ["chunk-a"])
    assert d.given
    assert d.evidence[0].chunk_id == "chunk-a"


@pytest.mark.parametrize(
    "mutate",
    [
        lambda o: o.update(extra="x"),
        lambda o: o.pop("unit"),
        lambda o: o.update(value=12),
        lambda o: o.update(value="1" * 41),
        lambda o: o["evidence"].append({"item": 5, "quote": "x"}),
        lambda o: o["evidence"][0].update(item=True),
        lambda o: o.update(evidence=[{"item": 1, "quote": "x"}] * 4),
    ],
)
def test_invalid_output_is_rejected(mutate: Any) -> None:
    obj = _ok("numeric")
    mutate(obj)
    with pytest.raises(SchemaError):
        validate(obj, schema_for("numeric", 3))


def test_every_string_has_a_max_length() -> None:
    def walk(s: dict[str, Any]) -> None:
        if s.get("type") == "string":
            assert "maxLength" in s
        for v in s.get("properties", {}).values():
            walk(v)
        if "items" in s:
            assert "maxItems" in s
            walk(s["items"])

    for qt in ("numeric", "conditional", "regulation", "definition"):
        walk(schema_for(qt))


@pytest.mark.parametrize(
    "question",
    [
        "",
        "?",
        "의",
        "조건식 a + 0.9b ≤ ? 의 한계값",  # a particle written apart after a sign
        "≤ ≥ = ?",
        "의 의 의 값은?",
        "KDS 14 20 22",
        "몇",
        "경우 때 시 중",
        "철근 " * 200 + "간격은?",
    ],
)
def test_reading_the_need_never_fails_on_odd_wording(question: str) -> None:
    from kdsdesk.verify.need import read_need

    need = read_need(question)
    assert need.question == question
