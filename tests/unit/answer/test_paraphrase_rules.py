"""Rules for reworded questions: telegraphic value questions, synonyms in term matching, joint bounds, dimensions."""

from __future__ import annotations

import pytest

from kdsdesk.text.facts import joint_bound
from kdsdesk.text.match import bigrams, label_score
from kdsdesk.text.normalize import canonical_terms
from kdsdesk.verify.need import classify, dimension_conflict


@pytest.mark.parametrize(
    "question",
    ["거푸집 자중 하한값", "강관 외경 하한", "M24 볼트 표준구멍 지름", "B급 마감 절대처짐 허용값",
     "무근콘크리트 강도감소계수", "표준볼트장력 할증률", "보통중량 콘크리트 단위중량 (연직하중 산정)",
     "우수관 최소 유속", "거푸집 존치 기간", "배수펌프 용량", "강관 비계 기둥 압축성능", "측량 관측 세션 수",
     "맨홀 뚜껑 설치 개수", "방파제 전면 설계 파고", "취수구 최소 수심", "관로 매설 심도"],
)  # fmt: skip
def test_telegraphic_value_questions(question: str) -> None:
    assert classify(question).qtype in ("numeric", "conditional")


def test_telegraphic_rules_leave_other_types() -> None:
    assert classify("대형구멍 사용 가능한 접합").qtype == "regulation"
    assert classify("연단거리 뜻").qtype == "definition"
    assert classify("C_c").qtype == "regulation"  # a bare symbol is a lookup, not a value question
    assert classify("지연제 사용 시 C_c").qtype == "conditional"
    # a count is its own word: a word that merely ends in 수 names no count
    assert classify("공공하수도 정비 하수").qtype == "regulation"
    assert classify("내진성능 확보 방안").qtype == "regulation"


def test_synonyms_match_alike() -> None:
    assert canonical_terms("강관의 바깥지름") == canonical_terms("강관의 외경")
    assert canonical_terms("최솟값") == canonical_terms("하한") == "최소"
    assert bigrams("표준구멍 직경") == bigrams("표준구멍 지름")
    assert label_score("M24 표준구멍 지름", "표준구멍(직경)") > label_score("M24 표준구멍 지름", "대형구멍(폭)")


def test_joint_bounds() -> None:
    t = "겹침길이는 판 두께의 5배 이상, 25 mm 이상으로 하여야 한다."
    a = t.index("5배")
    assert joint_bound(t, a, a + len("5배 이상"))
    b = t.index("25 mm")
    assert joint_bound(t, b, b + len("25 mm 이상"))
    u = "벽의 두께는 0.5배 이상이어야 하며, 100 mm 이상으로 한다."
    c = u.index("100")
    assert joint_bound(u, c, c + len("100 mm 이상"))
    v = "간격은 600 mm 이하, 높이는 3 m 이상으로 한다."
    d = v.index("600")
    assert not joint_bound(v, d, d + len("600 mm 이하"))


def test_lengths_and_counts() -> None:
    assert dimension_conflict("강관 동바리 강관 외경 하한", "3개 이상", "")
    assert dimension_conflict("강관 외경 하한", "1.5 이상", "")
    assert not dimension_conflict("강관 외경 하한", "48.6 mm 이상", "")
    assert not dimension_conflict("강관 외경은 몇 배", "2", "")


def test_unit_written_last_is_the_unit_asked() -> None:
    from kdsdesk.verify.need import unit_asked

    assert unit_asked("연결부 설계강도 하한 kN") == "kN"
    assert unit_asked("√fck 상한 MPa") == "MPa"
    assert unit_asked("높이 4 m") == ""  # a number's unit states a condition, not the unit asked
