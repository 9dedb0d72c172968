"""The LLM prompt stays within its size bound (characters, the tokenizer-independent measure) whatever the
evidence, and always keeps the need line and the candidate facts."""

from __future__ import annotations

import pytest

from kdsdesk.answer import prompts
from kdsdesk.records import Hit, Table, TableCell
from kdsdesk.verify.need import read_need
from tests.data.answer_records import hits, table_chunk, text_chunk

SENTENCE = "({n}) 보의 전단철근 간격은 유효깊이 d의 {k}배 이하로 하되, 어떠한 경우에도 {m} mm 이하로 하여야 한다. "


def _long_text(i: int, sentences: int = 12) -> str:
    return "\n".join(SENTENCE.format(n=j + 1, k=j % 5 + 1, m=300 + 50 * (j + i)) * 2 for j in range(sentences))


def _wide_table(i: int, rows: int = 8, cols: int = 8) -> Table:
    head = [TableCell(0, 0, "부재 구분", is_header=True)]
    case = "V_s ≤ (1/3)λ√f_ck b_w d인 경우"
    head += [TableCell(0, c, f"{case} {c}열 부재축 방향", is_header=True) for c in range(1, cols)]
    body = [
        TableCell(r, c, f"철근콘크리트 부재 {r}행 (강도 {i}) 조건" if c == 0 else f"d/{c} 이하, {100 * c + r} mm 이하")
        for r in range(1, rows)
        for c in range(cols)
    ]
    return Table(f"4.{i}-1", f"표 4.{i}-1 전단철근의 최대 간격 (경우 {i})", rows, cols, tuple(head + body))


def _long_evidence() -> list[Hit]:
    chunks = []
    for i in range(6):
        chunks.append(text_chunk(_long_text(i), f"t{i}", clause=f"4.2.{i}"))
        chunks.append(table_chunk(_wide_table(i), f"w{i}", clause=f"4.3.{i}"))
    return hits(*chunks)


QUESTIONS = [
    "V_s가 (1/3)λ√fck·bw·d 이하인 철근콘크리트 보에서 부재축 방향 전단철근의 최대 간격은 몇 mm인가요?",
    "보의 전단철근 간격은 어떻게 해야 하나요?",
    "전단철근의 최대 간격이란 무엇인가요?",
    "철근콘크리트 보에서 " + "부재축 방향으로 배치된 전단철근의 " * 30 + "최대 간격은 얼마인가요?",  # very long
]


@pytest.mark.parametrize("question", QUESTIONS)
def test_prompt_for_long_evidence_stays_within_its_bound(question: str) -> None:
    need = read_need(question)
    evidence = _long_evidence()
    assert sum(len(h.chunk.text) for h in evidence) > 5 * prompts.PROMPT_CHARS  # far more than fits
    p = prompts.build(need, evidence)
    assert p.chars == len(prompts.SYSTEM) + len(p.user) <= prompts.PROMPT_CHARS
    assert p.items  # the evidence still gets room
    assert sum(len(f"[{it.number}] ({it.label})\n{it.text}") for it in p.items) <= prompts.EVIDENCE_CHARS
    assert prompts.need_line(need) in p.user  # the need line always goes in
    if need.kind == "value":
        assert len(p.facts) == prompts.MAX_FACTS
        assert all(len(f) <= prompts.FACT_CHARS for f in p.facts)
        assert all(f in p.user for f in p.facts)  # the candidate facts always go in
    for it in p.items:  # every item is the chunk's own text (a quote from it can be verified)
        chunk = next(h.chunk for h in evidence if h.chunk.chunk_id == it.chunk_id)
        assert all(piece in chunk.text for piece in it.text.split("\n"))


def test_the_bound_is_kept_for_every_evidence_budget() -> None:
    evidence = _long_evidence()
    question = QUESTIONS[0]
    for budget in (0, 50, 300, 700, prompts.EVIDENCE_CHARS):
        items = prompts.evidence_items(question, evidence, budget)
        rendered = "\n".join(f"[{it.number}] ({it.label})\n{it.text}" for it in items)
        assert len(rendered) <= budget
        assert [it.number for it in items] == list(range(1, len(items) + 1))


def test_a_short_evidence_set_is_given_whole() -> None:
    body = text_chunk("(1) 합판 거푸집 널의 최소 두께는 12 mm 이상으로 하여야 한다.", "b")
    p = prompts.build(read_need("합판 거푸집 널의 최소 두께는 몇 mm인가요?"), hits(body))
    assert p.items[0].text == body.text
    assert p.chars < prompts.PROMPT_CHARS


def test_a_fact_line_shortens_its_cases_first() -> None:
    line = prompts.fact_line("d/2 이하, 600", "mm", "le", "전단철근의 최대 간격", ["철근콘크리트 부재"] * 20, "4.2.3")
    assert len(line) <= prompts.FACT_CHARS
    assert line.startswith("d/2 이하, 600 | mm | 이하 | 전단철근의 최대 간격 | 철근콘크리트 부재")
    assert line.endswith("… | 4.2.3")
