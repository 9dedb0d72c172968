"""Requirement clauses of compound sentences and their verification against the quote."""

from __future__ import annotations

from kdsdesk.verify.clauses import clause_in, split_requirements

S = "대형구멍은 미끄럼임계접합에만 사용할 수 있으며, 외측 판에 대형구멍을 사용하는 경우에는 와셔를 사용하여야 한다."


def test_split_at_modal_endings_only() -> None:
    assert split_requirements(S) == [
        "대형구멍은 미끄럼임계접합에만 사용할 수 있다",
        "외측 판에 대형구멍을 사용하는 경우에는 와셔를 사용하여야 한다.",
    ]
    one = "유효깊이 d가 150 mm 이상이고 전단철근 지름의 16배 이상이어야 한다."
    assert split_requirements(one) == [one]  # two conditions of one requirement
    two = "중심 간 거리는 2.5배 이상으로 하여야 하며, 3배 이상을 표준으로 한다."
    assert split_requirements(two)[0] == "중심 간 거리는 2.5배 이상으로 하여야 한다"


def test_a_clause_is_verified_with_its_connective_ending() -> None:
    assert clause_in("대형구멍은 미끄럼임계접합에만 사용할 수 있다", S)
    assert clause_in("와셔를 사용하여야 한다", S)
    assert not clause_in("대형구멍은 지압접합에만 사용할 수 있다", S)
    assert not clause_in("외측 판에 대형구멍을 사용할 수 있다", S)  # no such clause ending in the quote
