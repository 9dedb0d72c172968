"""Index-time facts (``kdsdesk.text.facts``), by class of sentence."""

from __future__ import annotations

from kdsdesk import lexicon as lx
from kdsdesk.text.facts import chunk_facts


def _cases(text: str, value: str) -> tuple[str, ...]:
    facts = [f for f in chunk_facts("text", text, None) if f.value == value]
    assert facts, f"no fact {value} in {text}"
    return facts[0].cases


def test_a_case_the_sentence_excepts_is_marked_as_excepted() -> None:
    for written in ("경우를 제외하고는", "경우를 제외 하고는", "때를 제외한", "경우 외에는"):
        text = f"(1) 기기 사이의 거리는 방화 장벽을 설치한 {written} 2 m 이상으로 한다."
        cases = _cases(text, "2")
        assert cases
        assert cases[-1].endswith(lx.EXCLUDED_CASE_WORD), (written, cases)
    plain = _cases("(1) 기기 사이의 거리는 방화 장벽을 설치한 경우에는 3 m 이상으로 한다.", "3")
    assert plain
    assert not plain[-1].endswith(lx.EXCLUDED_CASE_WORD)


def test_a_duration_keeps_its_unit() -> None:
    facts = chunk_facts("text", "(1) 습윤 양생은 10 ℃ 이상에서는 7일간, 5 ℃ 이상에서는 9일간 실시한다.", None)
    assert [(f.value, f.unit) for f in facts if f.unit == "일"] == [("7", "일"), ("9", "일")]
    hours = chunk_facts("text", "(1) 유효용량은 계획1일최대급수량의 최소 12시간분 이상을 표준으로 한다.", None)
    assert ("12", "시간", "ge") in [(f.value, f.unit, f.bound) for f in hours]
    assert not [f for f in chunk_facts("text", "(1) 공사는 5일부터 시작한다.", None) if f.unit == "일"]
