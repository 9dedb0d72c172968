"""Prompts for the LLM answerer: a stable system prompt and a small, numbered evidence window.

On a CPU the prompt is the cost (a 3B model on a laptop reads 18–29 tokens/s), so the whole prompt — system
part, evidence, candidate facts, the need and the task — is held to ``PROMPT_CHARS`` characters, the
tokenizer-independent measure: about 1,300 tokens with gemma-3's tokenizer (0.62–0.72 tokens a character on the
sample prompts, docs/BENCHMARKS.md), under the 1,500-token aim. The need line and the candidate facts (at most
``MAX_FACTS`` lines of ``FACT_CHARS``) always go in; the evidence gets the rest, at most ``EVIDENCE_CHARS``: the
sentences, table rows and equations of the top hits that match the question (scored like the extractive
answerer's units), best first, a sentence that does not fit left out for a shorter one. A table item carries its
caption and header rows with the best-matching body rows (fewer when the room is short). Each item is numbered;
the model cites ``{"item": N, "quote": …}`` and the pipeline maps N back to the chunk.

``SYSTEM`` never changes between questions, so llama.cpp reuses the evaluated prefix (its prompt cache).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from kdsdesk.answer.schema import MAX_ITEMS
from kdsdesk.answer.sentences import score_units, units
from kdsdesk.records import Hit, Need
from kdsdesk.text.match import label_score, question_grams

PROMPT_CHARS = 1900  # system + user part, characters (see the module docstring)
EVIDENCE_CHARS = 1400  # the evidence window at most (numbers and labels included)
TABLE_ROWS = 4
MIN_PIECE = 120  # a table or sentence is cut to the room left only when at least this much is left
QUESTION_CHARS = 200  # the question (and the need line) as the prompt repeats them

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


def _fit(text: str, room: int, table: bool) -> str:
    """``text`` within ``room`` characters: a table loses body rows from the end first; else cut, when at least
    ``MIN_PIECE`` characters are left; "" when nothing useful fits."""
    if len(text) <= room:
        return text
    if table:
        lines = text.split("\n")
        while len(lines) > 2 and len("\n".join(lines)) > room:
            lines.pop()
        text = "\n".join(lines)
        if len(text) <= room:
            return text
    return text[:room].rstrip() if room >= MIN_PIECE else ""


def evidence_items(question: str, hits: Sequence[Hit], budget: int = EVIDENCE_CHARS) -> list[Item]:
    """The evidence window: best units of the top hits, grouped by chunk, numbered in rank order; the items as
    the prompt writes them (``[N] (label)`` lines included) take at most ``budget`` characters."""
    ranked = score_units(question, units(hits))
    per_chunk: dict[str, list[str]] = {}
    order: list[Hit] = []
    used = 0
    for u in ranked:
        if budget - used < 2:
            break
        h = u.hit
        cid = h.chunk.chunk_id
        new = cid not in per_chunk
        if new and len(order) >= MAX_ITEMS:
            continue
        is_table = h.chunk.kind == "table"
        if is_table and not new:
            continue
        if not is_table and u.score <= 0.1 and used > budget // 3:
            continue
        head = len(f"[{len(order) + 1}] ({_label(h)})\n") + 1 if new else 1  # the item line, the joining "\n"
        text = _fit(_table_text(question, h) if is_table else u.text, budget - used - head, is_table)
        if not text:
            continue  # a shorter sentence further down may still fit
        if new:
            per_chunk[cid] = []
            order.append(h)
        per_chunk[cid].append(text)
        used += head + len(text)
    return [Item(n, h.chunk.chunk_id, _label(h), "\n".join(per_chunk[h.chunk.chunk_id]))
            for n, h in enumerate(order, 1)]  # fmt: skip


_SHAPE = {
    "numeric": '{"value": "", "unit": "", "condition": "", "evidence": [{"item": 1, "quote": ""}]}',
    "conditional": (
        '{"value": "", "unit": "", "condition": "", "alternatives": [{"condition": "", "value": "", "unit": ""}], '
        '"evidence": [{"item": 1, "quote": ""}]}'
    ),
    "regulation": '{"requirements": [""], "evidence": [{"item": 1, "quote": ""}]}',
    "definition": '{"term": "", "definition": "", "evidence": [{"item": 1, "quote": ""}]}',
}


MAX_FACTS = 6
FACT_CHARS = 100  # a fact line at most: the cases are shortened first
_BOUND_WORDS = {"ge": "이상", "gt": "초과", "le": "이하", "lt": "미만"}


def fact_line(value: str, unit: str, bound: str, subject: str, cases: Sequence[str], clause: str) -> str:
    """"값 | 단위 | 한계 | 대상 | 경우 | 조항" in at most ``FACT_CHARS`` characters."""
    head = [value[:40], unit[:12], _BOUND_WORDS.get(bound, ""), subject[:30]]
    tail = clause[:16]
    room = FACT_CHARS - len(" | ".join([*head, "", tail]))
    case = " · ".join(cases)
    if len(case) > room:
        case = case[: max(0, room - 1)].rstrip() + "…" if room > 1 else ""
    return " | ".join([*head, case, tail])


def candidate_facts(need: Need, hits: Sequence[Hit]) -> list[str]:
    """The facts (index time) of the evidence that could answer a value question, best first, as short lines:
    "값 | 단위 | 이상/이하 | 대상 | 경우 | 조항"."""
    if need.kind != "value":
        return []
    from kdsdesk.answer.values import candidates

    ranked = score_units(need.question, units(hits))
    return [fact_line(c.fact.value, c.fact.unit, c.fact.bound, c.fact.subject, c.fact.cases, c.hit.chunk.clause)
            for c in candidates(need, hits, ranked)[:MAX_FACTS]]  # fmt: skip


def need_line(need: Need) -> str:
    """What the question asks, in the prompt's words."""
    parts = [f"묻는 것: {(need.subject or need.head or need.question)[:80]}"]
    if need.conditions:
        parts.append("질문의 조건: " + ", ".join(need.conditions))
    if need.unit:
        parts.append(f"묻는 단위: {need.unit}")
    bound = {"ge": "이상", "gt": "초과", "le": "이하", "lt": "미만"}.get(need.bound, "")
    if bound or need.extreme:
        parts.append("한계: " + (bound or {"min": "최소", "max": "최대"}[need.extreme]))
    return "; ".join(parts)[:QUESTION_CHARS]


def user_message(need: Need, items: Sequence[Item], facts: Sequence[str] = ()) -> str:
    """The per-question part of the prompt: evidence items, candidate facts, the need, the task, the JSON shape."""
    ev = "\n".join(f"[{it.number}] ({it.label})\n{it.text}" for it in items)
    fx = ("\n후보 값(값 | 단위 | 한계 | 대상 | 경우 | 조항):\n" + "\n".join(facts)) if facts else ""
    cite = " 근거는 evidence에 항목 번호와 인용문으로 쓰세요. 질문의 조건과 다른 경우의 값은 쓰지 마세요."
    shape = f"\nJSON 형식: {_SHAPE[need.qtype]}"
    question = need.question[:QUESTION_CHARS]
    return f"근거:\n{ev}{fx}\n\n질문: {question}\n{need_line(need)}\n\n{_TASK[need.qtype]}{cite}{shape}"


@dataclass(frozen=True, slots=True)
class Prompt:
    """The per-question prompt: its evidence items (for mapping cited numbers back), candidate facts, user text."""

    items: tuple[Item, ...]
    facts: tuple[str, ...]
    user: str

    @property
    def chars(self) -> int:
        """Characters of the whole prompt (system and user part): the tokenizer-independent size."""
        return len(SYSTEM) + len(self.user)


def build(need: Need, hits: Sequence[Hit]) -> Prompt:
    """The prompt for ``need`` over ``hits``, at most ``PROMPT_CHARS`` characters: the candidate facts, the need
    line and the task always; the evidence window in the room left (at most ``EVIDENCE_CHARS``)."""
    facts = tuple(candidate_facts(need, hits))
    frame = len(SYSTEM) + len(user_message(need, (), facts))
    room = max(0, min(EVIDENCE_CHARS, PROMPT_CHARS - frame))
    items = tuple(evidence_items(need.question, hits, room))
    return Prompt(items, facts, user_message(need, items, facts))
