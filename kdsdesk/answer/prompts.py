"""Prompts for the LLM answerer: a stable system prompt and a small, numbered evidence window.

On a CPU the prompt is the cost, so the model sees only the sentences, table rows and equations of the top hits
that match the question (scored like the extractive answerer's units), up to ``EVIDENCE_CHARS`` characters —
about 1,000 tokens, so that with the instructions the prompt stays under ~1,500 tokens. A table item carries
its caption and header rows with the best-matching body rows. Each item is numbered; the model cites
``{"item": N, "quote": …}`` and the pipeline maps N back to the chunk.

``SYSTEM`` never changes between questions, so llama.cpp reuses the evaluated prefix (its prompt cache).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from kdsdesk.answer.schema import MAX_ITEMS
from kdsdesk.answer.sentences import score_units, units
from kdsdesk.records import Hit, Need
from kdsdesk.text.match import label_score, question_grams

EVIDENCE_CHARS = 1400
TABLE_ROWS = 4

SYSTEM = (
    "당신은 한국 설계기준(KDS) 문서에 대한 질문에 답하는 도우미입니다. "
    "반드시 아래에 번호로 주어진 근거 항목만 사용하고, 추측하지 마세요. "
    "값은 문서에 적힌 그대로(숫자, 기호, 단위 포함) 쓰고, 근거의 인용문(quote)은 해당 항목에서 한 글자도 바꾸지 말고 "
    "그대로 복사하세요. 근거에 답이 없으면 값이나 문장을 빈 문자열로 두세요. "
    "출력은 주어진 JSON 형식 하나뿐입니다."
)

_TASK = {
    "numeric": "질문이 묻는 값 하나를 value에, 단위를 unit에, 적용 조건을 condition에 쓰세요.",
    "conditional": (
        "질문의 조건에 해당하는 값을 value에, 단위를 unit에, 적용한 조건을 condition에 쓰고, "
        "같은 조항이나 표의 다른 조건의 값들을 alternatives에 쓰세요."
    ),
    "regulation": "질문에 해당하는 요구사항 문장을 requirements에 문서의 표현 그대로 쓰세요.",
    "definition": "용어를 term에, 그 정의 문장을 definition에 문서의 표현 그대로 쓰세요.",
}


@dataclass(frozen=True, slots=True)
class Item:
    """One numbered evidence item of a prompt."""

    number: int
    chunk_id: str
    label: str  # "KDS 14 20 22 4.2.4"
    text: str


def _label(h: Hit) -> str:
    c = h.chunk
    return " ".join(p for p in (c.doc.doc_code, c.clause) if p)


def _table_text(question: str, h: Hit) -> str:
    t = h.chunk.table
    lines = h.chunk.text.split("\n")
    if t is None:
        return "\n".join(lines[: 1 + TABLE_ROWS])
    rows = t.rows_text()
    head = [t.caption, *rows[: t.header_rows]]
    qg = question_grams(question)
    body = sorted(range(t.header_rows, len(rows)), key=lambda r: -label_score(question, rows[r], qg))
    keep = sorted(body[:TABLE_ROWS])
    return "\n".join([*head, *(rows[r] for r in keep)])


def evidence_items(question: str, hits: Sequence[Hit], budget: int = EVIDENCE_CHARS) -> list[Item]:
    """The evidence window: best units of the top hits, grouped by chunk, numbered in rank order."""
    ranked = score_units(question, units(hits))
    per_chunk: dict[str, list[str]] = {}
    order: list[Hit] = []
    used = 0
    for u in ranked:
        if used >= budget or len(order) >= MAX_ITEMS:
            break
        cid = u.hit.chunk.chunk_id
        if cid not in per_chunk:
            if u.hit.chunk.kind == "table":
                text = _table_text(question, u.hit)
                per_chunk[cid] = [text]
                order.append(u.hit)
                used += len(text)
                continue
            per_chunk[cid] = []
            order.append(u.hit)
        elif u.hit.chunk.kind == "table":
            continue
        if u.score <= 0.1 and used > budget // 3:
            continue
        per_chunk[cid].append(u.text)
        used += len(u.text)
    items: list[Item] = []
    for h in order:
        texts = per_chunk[h.chunk.chunk_id]
        if texts:
            items.append(Item(len(items) + 1, h.chunk.chunk_id, _label(h), "\n".join(texts)))
    return items


_SHAPE = {
    "numeric": '{"value": "", "unit": "", "condition": "", "evidence": [{"item": 1, "quote": ""}]}',
    "conditional": (
        '{"value": "", "unit": "", "condition": "", "alternatives": [{"condition": "", "value": "", "unit": ""}], '
        '"evidence": [{"item": 1, "quote": ""}]}'
    ),
    "regulation": '{"requirements": [""], "evidence": [{"item": 1, "quote": ""}]}',
    "definition": '{"term": "", "definition": "", "evidence": [{"item": 1, "quote": ""}]}',
}


MAX_FACTS = 8


def candidate_facts(need: Need, hits: Sequence[Hit]) -> list[str]:
    """The facts (index time) of the evidence that could answer a value question, best first, as short lines:
    "값 | 단위 | 이상/이하 | 대상 | 경우 | 조항"."""
    if need.kind != "value":
        return []
    from kdsdesk.answer.sentences import score_units, units
    from kdsdesk.answer.values import candidates

    words = {"ge": "이상", "gt": "초과", "le": "이하", "lt": "미만"}
    out: list[str] = []
    for c in candidates(need, hits, score_units(need.question, units(hits)))[:MAX_FACTS]:
        f = c.fact
        cases = " · ".join(f.cases)[:60]
        out.append(" | ".join([f.value, f.unit, words.get(f.bound, ""), f.subject[:30], cases, c.hit.chunk.clause]))
    return out


def need_line(need: Need) -> str:
    """What the question asks, in the prompt's words."""
    parts = [f"묻는 것: {need.subject or need.head or need.question}"]
    if need.conditions:
        parts.append("질문의 조건: " + ", ".join(need.conditions))
    if need.unit:
        parts.append(f"묻는 단위: {need.unit}")
    bound = {"ge": "이상", "gt": "초과", "le": "이하", "lt": "미만"}.get(need.bound, "")
    if bound or need.extreme:
        parts.append("한계: " + (bound or {"min": "최소", "max": "최대"}[need.extreme]))
    return "; ".join(parts)


def user_message(need: Need, items: Sequence[Item], facts: Sequence[str] = ()) -> str:
    """The per-question part of the prompt: evidence items, candidate facts, the need, the task, the JSON shape."""
    ev = "\n".join(f"[{it.number}] ({it.label})\n{it.text}" for it in items)
    fx = ("\n후보 값(값 | 단위 | 한계 | 대상 | 경우 | 조항):\n" + "\n".join(facts)) if facts else ""
    cite = " 근거는 evidence에 항목 번호와 인용문으로 쓰세요. 질문의 조건과 다른 경우의 값은 쓰지 마세요."
    shape = f"\nJSON 형식: {_SHAPE[need.qtype]}"
    return f"근거:\n{ev}{fx}\n\n질문: {need.question}\n{need_line(need)}\n\n{_TASK[need.qtype]}{cite}{shape}"
