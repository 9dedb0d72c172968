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


def test_a_korean_counter_unit_keeps_its_particle() -> None:
    written = {
        "① 이용수요는 개통 후 5년이 경과한 시점의 예측자료를 적용한다.": ("5", "년"),
        "·유수형성기: 유수 분화기 후 약 7~10일에 영화의 분화가 이루어진다.": ("7~10", "일"),
        "(2) 접지극은 최소 3개소에는 설치하여야 한다.": ("3", "개소"),
    }
    for text, (value, unit) in written.items():
        assert (value, unit) in [(f.value, f.unit) for f in chunk_facts("text", text, None)], text
    # the counter is the first syllable of a word: no unit
    assert not [f for f in chunk_facts("text", "(1) 공사는 5일부터 시작한다.", None) if f.unit]


def test_a_unit_in_brackets_is_read_without_them() -> None:
    text = "궤간: 레일의 윗면으로부터 14 [mm] 아래 지점을 기준으로 한다."
    assert ("14", "mm") in [(f.value, f.unit) for f in chunk_facts("text", text, None)]
