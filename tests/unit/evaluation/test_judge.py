"""The evaluation's content equality: numbers as numbers, qualified values by their number, texts contained."""

from __future__ import annotations

from kdsdesk.evaluation.answers import judge
from kdsdesk.records import Answer, Draft, Verdict

OK = Verdict("confirmed", {}, "")


def _a(value: str, unit: str = "", qtype: str = "numeric", answer_text: str = "", **kw: object) -> Answer:
    return Answer("q", Draft(qtype, value=value, unit=unit, **kw), OK, answer_text=answer_text)  # type: ignore[arg-type]


def test_numbers_and_qualified_values() -> None:
    assert judge({"answer": "1.5"}, _a("1.5 이상"))
    assert judge({"answer": "1.0", "unit": "m"}, _a("각각 1.0 m 이하"))
    assert judge({"answer": "2", "unit": "%"}, _a("0.02"))
    assert judge({"answer": "1,000", "unit": "MPa"}, _a("1000", "MPa"))
    assert not judge({"answer": "1.5"}, _a("2.5 이상"))
    assert not judge({"answer": "1.5"}, _a("1.5h 이상"))  # an expression is not the number


def test_text_gold_is_contained() -> None:
    assert judge({"answer": "각각 1.0 m 이하"}, _a("각각 1.0 m 이하", qtype="regulation"))
    assert not judge({"answer": "각각 1.0 m 이하"}, _a("1.0", "m", qtype="regulation"))
    assert judge(
        {"answer": "미끄럼임계접합에만 사용할 수 있다"},
        _a("", qtype="regulation", requirements=("대형구멍은 미끄럼임계접합에만 사용할 수 있다",)),
    )


def test_equation_gold_modulo_brackets_around_one_symbol() -> None:
    gold = {"answer": r"p_{r} = (1 + \frac{α_{r}}{100})WH"}
    assert judge(gold, _a("", qtype="regulation", requirements=("p_r = (1 + (α_r)/100)WH (4.2-5)",)))
    assert not judge(gold, _a("", qtype="regulation", requirements=("p_r = (1 + (α_r + 1)/100)WH (4.2-5)",)))
