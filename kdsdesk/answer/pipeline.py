"""Question → typed, verified ``Answer``: read the need, draft (LLM or extractive), verify, decide the status.

``answer_question(question, hits, llm=None|"none"|path, on_token=None)``:
- the question's *need* is read first (``kdsdesk.verify.need``): what is asked, its subject, the cases it states,
  the bound, unit and position asked;
- ``llm=None``: use the first ``*.gguf`` in ``models/llm/`` (``kdsdesk.paths.model("llm")``), else extractive;
  ``"none"``: extractive; a path: that GGUF (``KnownError`` when missing). Both answerers follow one contract
  (``kdsdesk.answer.contract``) and return a ``Draft``;
- the same verifier judges both (``kdsdesk.verify.verifier``, which reads the evidence again itself and never
  calls the answerer), and ``kdsdesk.verify.policy`` turns its checks into confirmed / warning / restricted /
  unverified. An ambiguous read gives nothing (restricted), never a guess; when several values fit the need
  equally, they are listed as cases (``alternatives``) and none is confirmed;
- an answer that is not shown keeps no value or text; its citations remain as evidence, and the best passages of
  the retrieved chunks (``kdsdesk.answer.passages``) are always attached, so a declined answer still finds the page.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

from kdsdesk import paths
from kdsdesk.answer.contract import Answerer, ExtractiveAnswerer, LlmAnswerer
from kdsdesk.answer.passages import passages
from kdsdesk.errors import KnownError
from kdsdesk.records import Alternative, Answer, Citation, Draft, Hit, Verdict
from kdsdesk.text.normalize import norm
from kdsdesk.verify import policy
from kdsdesk.verify.clauses import clause_in
from kdsdesk.verify.need import QuestionInfo, read_need
from kdsdesk.verify.verifier import Verification, verify

log = logging.getLogger(__name__)


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


def _answer_text(draft: Draft, info: QuestionInfo) -> str:
    if draft.qtype in ("numeric", "conditional"):
        s = f"{draft.value} {draft.unit}".strip()
        return f"{s} ({draft.condition})" if draft.condition else s
    if draft.qtype == "regulation":
        whole = [r for r in draft.requirements if not any(r != o and clause_in(r, o) for o in draft.requirements)]
        return " / ".join(whole) or draft.value  # the sentences, not their clauses again
    if info.asks_term and draft.term:
        return draft.term
    return draft.definition


def _blank(draft: Draft) -> Draft:
    return Draft(draft.qtype, evidence=draft.evidence, notes=draft.notes)


def answer_question(
    question: str,
    hits: Sequence[Hit],
    llm: str | None = None,
    on_token: Callable[[str], None] | None = None,
) -> Answer:
    """Answer ``question`` from the retrieved ``hits`` (see the module docstring)."""
    t0 = time.perf_counter()
    need = read_need(question)
    info = QuestionInfo(need.qtype, unit=need.unit, asks_term=need.kind == "term")
    gguf = find_llm(llm)
    answerer: Answerer = LlmAnswerer(gguf, on_token) if gguf is not None else ExtractiveAnswerer()
    t1 = time.perf_counter()
    draft = answerer.draft(need, hits)
    t2 = time.perf_counter()
    model_checks: dict[str, bool] = dict(draft.notes.get("model_checks", {}))
    timing: dict[str, float] = dict(draft.notes.get("timing", {}))
    ambiguous = draft.ambiguous
    if ambiguous:
        log.info("ambiguous read withheld: %r", draft.value)
        draft = _blank(draft)
    result: Verification | None = None
    checks: dict[str, bool] = {}
    cites: tuple[Citation, ...] = ()
    if all(model_checks.values()):
        result = verify(need, draft, hits)
        # the answerer's next candidates, while the verifier refuses (a warning from an advisory check is an answer)
        for other in draft.notes.get("next", ()):
            if (result.checks and policy.passes(result.checks)) or result.rivals:
                break
            tried = verify(need, other, hits)
            if policy.passes(tried.checks) or tried.rivals:
                draft, result = other, tried
        checks, cites = dict(result.checks), result.citations
    checks = {**model_checks, **checks}
    if ambiguous:
        checks["unambiguous"] = False
    from_table = bool(result and result.from_table and cites)
    verdict: Verdict = policy.decide(draft.given, checks, from_table)
    verdict = policy.cap_ocr(verdict, cites)  # a value read by OCR is at most a warning
    shown_draft = result.draft if result is not None else draft
    if verdict.status in ("confirmed", "warning"):
        shown = shown_draft
    elif result is not None and result.rivals and result.reading is not None:
        r = result.reading  # several values fit the need equally: list them as cases, confirm none
        cases = (Alternative(" · ".join(r.cases) or r.chunk.clause, r.value, r.unit), *shown_draft.alternatives)
        shown = Draft(draft.qtype, alternatives=cases, evidence=draft.evidence)
    else:
        shown = _blank(shown_draft)
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
    if verdict.status in ("confirmed", "warning") and draft.qtype in ("numeric", "conditional"):
        text = _with_bound(text, shown, result)
    if info.asks_term and shown.term and verdict.status in ("confirmed", "warning"):
        shown = replace(shown, definition=_def_line(shown))
    reading = result.reading.as_dict() if result is not None and result.reading is not None else {}
    return Answer(
        question=question,
        draft=shown,
        verdict=verdict,
        answer_text=text,
        citations=tuple(cites),
        hits=tuple(hits),
        need=need,
        reading=reading,
        passages=passages(need, hits),
        prompt_tokens=int(draft.notes.get("prompt_tokens", 0) or 0),
        timing_ms={k: round(v, 2) for k, v in timing.items()},
        answerer=answerer.name,
    )


def _with_bound(text: str, shown: Draft, result: Verification | None) -> str:
    """"75 mm" → "75 mm 이하" when the document writes the value as a bound and the shown value does not say so."""
    r = result.reading if result is not None else None
    word = {"ge": "이상", "gt": "초과", "le": "이하", "lt": "미만"}.get(r.bound if r is not None else "", "")
    if not word or any(w in shown.value for w in ("이상", "이하", "초과", "미만", "이내")):
        return text
    head = f"{shown.value} {shown.unit}".strip()
    return text.replace(head, f"{head} {word}", 1) if head in text else text


def _def_line(d: Draft) -> str:
    """For a term question: the definition with its term, as the document writes it when it does."""
    return d.definition if norm(d.term) in norm(d.definition) else f"{d.term}: {d.definition}"
