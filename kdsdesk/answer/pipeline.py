"""Question → typed, verified ``Answer``: classify, answer (LLM or extractive), verify by rules, decide the status.

``answer_question(question, hits, llm=None|"none"|path, on_token=None)``:
- ``llm=None``: use the first ``*.gguf`` in ``models/llm/`` (``kdsdesk.paths.model("llm")``), else extractive;
  ``"none"``: extractive; a path: that GGUF (``KnownError`` when missing).
- Both answerers produce a ``Draft`` in one schema; the same checks run on both (``kdsdesk.verify``): quote
  provenance (the quote lies in a retrieved chunk), value and unit read from the verified quote, requirement or
  definition text contained in its quotes (a requirement may be one clause of a quoted compound sentence, its
  connective ending made final: ``kdsdesk.verify.clauses``), relevance of the evidence to the question, and —
  for the model — a schema-valid, complete output. An ambiguous read gives nothing (restricted), never a guess.
- An ``unverified`` answer keeps no value or text (it must never be shown as an answer); its citations remain as
  evidence.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

from kdsdesk import paths
from kdsdesk.answer import extractive, formula, sentences
from kdsdesk.answer.qtype import QuestionInfo, classify, dimension_conflict
from kdsdesk.answer.schema import Draft, SchemaError, draft_from_json
from kdsdesk.errors import KnownError
from kdsdesk.records import Alternative, Answer, Citation, Hit, Verdict
from kdsdesk.text.normalize import norm
from kdsdesk.verify import policy
from kdsdesk.verify.clauses import clause_in
from kdsdesk.verify.quotes import verify_quote
from kdsdesk.verify.values import (
    relevance,
    table_context,
    text_in_quotes,
    topic_found,
    unit_ok,
    value_in_quote,
)

log = logging.getLogger(__name__)

RELEVANCE_MIN = 0.3  # share of the question's content bigrams that the evidence must contain
RANK_MARGIN = 0.25  # a value's sentence may trail the best-matching retrieved sentence by at most this


def _best_sentence(question: str, c: Citation, hits: Sequence[Hit]) -> bool:
    """The sentence holding a cited value is (nearly) the best match to the question among the retrieved
    sentences — so a true quote of a neighbouring sentence (same unit, other subject) does not pass."""
    us = sentences.score_units(question, sentences.units(hits))
    rel = {id(u): u.score for u in us}
    best = max(rel.values(), default=0.0)
    own = [rel[id(u)] for u in us if u.hit.chunk.chunk_id == c.chunk.chunk_id and u.start < c.end and c.start < u.end]
    return bool(own) and max(own) >= best - RANK_MARGIN


def _table_agrees(question: str, value: str, c: Citation, unit_hint: str) -> bool:
    """A value cited from a table must be the cell the rule reader finds unambiguously for this question."""
    from kdsdesk.answer.tables import read_table

    t = c.chunk.table
    if t is None:
        return False
    r = read_table(question, t, unit_hint)
    return r is not None and not r.ambiguous and norm(r.value) == norm(value)


def find_llm(llm: str | None) -> Path | None:
    """The GGUF to use: ``None`` → first ``models/llm/*.gguf`` or none; ``"none"`` → none; else that path."""
    if llm is not None and llm.strip().lower() == "none":
        return None
    if llm:
        p = Path(llm).expanduser()
        if not p.is_file():
            raise KnownError(
                "언어 모델(GGUF) 파일을 찾을 수 없습니다. 경로를 확인하거나 --llm none 을 쓰세요.", path=str(p)
            )
        return p
    d = paths.model("llm")
    if d is None:
        return None
    if d.is_file() and d.suffix.lower() == ".gguf":
        return d
    found = sorted(d.glob("*.gguf")) if d.is_dir() else []
    return found[0] if found else None


def _citations(draft: Draft, hits: Sequence[Hit]) -> tuple[list[Citation], bool]:
    """Verified citations of the draft's evidence, and whether every quote was found in a retrieved chunk."""
    out: list[Citation] = []
    ok = bool(draft.evidence)
    for ev in draft.evidence:
        c = verify_quote(ev.chunk_id, ev.quote, hits)
        if c is None or not c.verified:
            ok = False
            if c is not None:
                out.append(c)
            continue
        out.append(c)
    return out, ok


def verify(question: str, draft: Draft, hits: Sequence[Hit]) -> tuple[Draft, list[Citation], dict[str, bool], bool]:
    """Run the rule checks on ``draft``: (draft with unverifiable alternatives dropped, citations, checks, table)."""
    cites, provenance = _citations(draft, hits)
    good = [c for c in cites if c.verified]
    quotes = [c.quote for c in good]
    checks: dict[str, bool] = {"quote_provenance": provenance}
    from_table = False
    if not draft.given:
        pass  # nothing to check but the evidence shown
    elif draft.qtype in ("numeric", "conditional"):
        holding = [c for c in good if draft.value and value_in_quote(draft.value, c.quote, draft.unit)]
        checks["value_in_quote"] = bool(holding)
        checks["unit_in_quote"] = any(
            unit_ok(draft.value, draft.unit, c.quote, table_context(c) if c.chunk.kind == "table" else ())
            for c in holding
        )
        from_table = any(c.chunk.kind == "table" for c in holding)
        checks["dimension"] = not dimension_conflict(question, draft.value, draft.unit)
        info = classify(question)
        checks["best_evidence"] = any(
            _table_agrees(question, draft.value, c, info.unit)
            if c.chunk.kind == "table"
            else _best_sentence(question, c, hits) or formula.agrees(question, draft.value, c.quote)
            for c in holding
        )
        texts = [c.chunk.text for c in good]
        alts = tuple(
            a for a in draft.alternatives if a.value and any(value_in_quote(a.value, t, a.unit) for t in texts)
        )
        draft = replace(draft, alternatives=alts)
    elif draft.qtype == "regulation":
        reqs = [r for r in draft.requirements if r.strip()]
        checks["text_in_quotes"] = bool(reqs) and all(any(clause_in(r, q) for q in quotes) for r in reqs)
    else:
        parts = [p for p in (draft.definition, draft.term) if p.strip()]
        checks["text_in_quotes"] = bool(parts) and all(text_in_quotes(p, quotes) for p in parts)
    context: list[str] = list(quotes)
    for c in good:
        context.extend(c.chunk.clause_path[-1:])
        if c.chunk.table is not None:
            context.extend(table_context(c))
    checks["relevance"] = bool(good) and relevance(question, context) >= RELEVANCE_MIN
    formula_q = sentences.FORMULA_Q.search(question) is not None  # a term of an equation: asked by its place
    if checks["relevance"] and draft.given and not classify(question).asks_term and not formula_q:
        chunks = [c.chunk.text for c in good] + [t for c in good for t in c.chunk.clause_path] + context
        checks["relevance"] = topic_found(sentences.topic_term(question), chunks)
    return draft, cites, checks, from_table


def _answer_text(draft: Draft, info: QuestionInfo) -> str:
    if draft.qtype in ("numeric", "conditional"):
        s = f"{draft.value} {draft.unit}".strip()
        return f"{s} ({draft.condition})" if draft.condition else s
    if draft.qtype == "regulation":
        return " / ".join(draft.requirements) or draft.value
    if info.asks_term and draft.term:
        return draft.term
    return draft.definition


def _blank(draft: Draft) -> Draft:
    return Draft(draft.qtype, evidence=draft.evidence, notes=draft.notes)


def _llm_draft(
    question: str, info: QuestionInfo, hits: Sequence[Hit], gguf: Path, on_token: Callable[[str], None] | None
) -> tuple[Draft, dict[str, bool], int, dict[str, float]]:
    import kdsdesk.answer.llm as llm_mod
    import kdsdesk.answer.prompts as prompts
    from kdsdesk.answer.schema import schema_for

    items = prompts.evidence_items(question, hits)
    user = prompts.user_message(question, info, items)
    schema = schema_for(info.qtype, len(items))
    res = llm_mod.complete_json(gguf, prompts.SYSTEM, user, schema, on_token=on_token)
    checks = {"complete": res.finish_reason != "length", "schema": True}
    timing = {"llm_ms": res.elapsed_ms}
    try:
        draft = draft_from_json(json.loads(res.text), info.qtype, [it.chunk_id for it in items])
    except (ValueError, SchemaError) as exc:  # json.JSONDecodeError is a ValueError
        log.info("model output rejected: %s", exc)
        checks["schema"] = False
        draft = Draft(info.qtype, value="?", requirements=("?",), definition="?")  # something given, unusable
    return draft, checks, res.prompt_tokens, timing


def answer_question(
    question: str,
    hits: Sequence[Hit],
    llm: str | None = None,
    on_token: Callable[[str], None] | None = None,
) -> Answer:
    """Answer ``question`` from the retrieved ``hits`` (see the module docstring)."""
    t0 = time.perf_counter()
    info = classify(question)
    gguf = find_llm(llm)
    t1 = time.perf_counter()
    timing: dict[str, float] = {}
    model_checks: dict[str, bool] = {}
    prompt_tokens = 0
    if gguf is not None:
        draft, model_checks, prompt_tokens, timing = _llm_draft(question, info, hits, gguf, on_token)
    else:
        draft = extractive.answer(question, info, hits)
    t2 = time.perf_counter()
    ambiguous = draft.ambiguous
    if ambiguous:
        log.info("ambiguous read withheld: %r", draft.value)
        draft = _blank(draft)
    from_table = False
    cites: list[Citation] = []
    checks: dict[str, bool] = {}
    if not all(model_checks.values()):
        draft_v = draft
    else:
        draft_v, cites, checks, from_table = verify(question, draft, hits)
    checks = {**model_checks, **checks}
    if ambiguous:
        checks["unambiguous"] = False
    verdict: Verdict = policy.decide(draft.given, checks, from_table if cites else False)
    verdict = policy.cap_ocr(verdict, cites)  # a value read by OCR is at most a warning
    shown = draft_v if verdict.status in ("confirmed", "warning") else _blank(draft_v)
    t3 = time.perf_counter()
    timing.update(
        {
            "classify_ms": (t1 - t0) * 1000,
            "answer_ms": (t2 - t1) * 1000,
            "verify_ms": (t3 - t2) * 1000,
            "total_ms": (t3 - t0) * 1000,
        }
    )
    text = _answer_text(shown, info) if verdict.status in ("confirmed", "warning") else policy.NO_VALUE
    return Answer(
        question=question,
        qtype=info.qtype,
        verdict=verdict,
        value=shown.value,
        unit=shown.unit,
        condition=shown.condition,
        alternatives=tuple(Alternative(a.condition, a.value, a.unit) for a in shown.alternatives),
        requirements=shown.requirements,
        definition=shown.definition if not (info.asks_term and shown.term) else _def_line(shown),
        answer_text=text,
        citations=tuple(cites),
        hits=tuple(hits),
        prompt_tokens=prompt_tokens,
        timing_ms={k: round(v, 2) for k, v in timing.items()},
        answerer=gguf.name if gguf is not None else "extractive",
    )


def _def_line(d: Draft) -> str:
    """For a term question: the definition with its term, as the document writes it when it does."""
    return d.definition if norm(d.term) in norm(d.definition) else f"{d.term}: {d.definition}"
