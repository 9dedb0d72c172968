"""The outcome of verification: which answers may be shown, and how.

- ``confirmed``: something was given and every check passed;
- ``warning``: every check passed but the value was read from a table cell — shown, with a request to check the
  original table (cells under multi-level headers are where readers and models go wrong) — or an advisory check
  failed (``WARN_ONLY``: a passage below the first, words of the question the value's sentence leaves out);
- ``restricted``: nothing was given (no value, requirement or definition): the evidence is shown with
  "값을 확정할 수 없음";
- ``unverified``: something was given but a check failed — never shown as an answer.

A value whose quote was read by OCR (outline lettering, a scanned page: ``Span.ocr``) is at most a warning with
the reason "OCR로 읽은 값 — 원문 확인" (``cap_ocr``; the check ``ocr_source`` records it), whatever else passed; so is
a value whose source file changed or vanished since indexing (``source_fresh``).

The checks are rules over the document's own text (``kdsdesk.verify.quotes`` / ``values``); the model's output
is never asked whether it is right.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from kdsdesk.records import Citation, Status, Verdict

NO_VALUE = "값을 확정할 수 없음"
OCR_REASON = "OCR로 읽은 값 — 원문 확인"

_CHECK_REASONS = {
    "schema": "모델 출력이 형식에 맞지 않습니다",
    "complete": "모델 출력이 길이 제한으로 잘렸습니다",
    "quote_provenance": "인용문이 검색된 근거 문서에서 확인되지 않습니다",
    "value_in_quote": "값이 인용문에서 확인되지 않습니다",
    "unit_in_quote": "단위가 인용문이나 표 머리에서 확인되지 않습니다",
    "text_in_quotes": "답변 문장이 인용문에서 확인되지 않습니다",
    "relevance": "인용문이 질문과 관련이 적습니다",
    "best_evidence": "검색된 근거에 질문과 더 잘 맞는 문장이나 표 칸이 있습니다",
    "unambiguous": "근거에서 서로 다른 값이 후보로 나와 하나로 정할 수 없습니다",
    "dimension": "값의 단위가 질문이 묻는 양(비율·속도·강도·길이 등)과 맞지 않습니다",
    "need_reading": "인용문에서 값을 다시 읽을 수 없습니다",
    "need_subject": "근거 문장이 질문이 묻는 대상(양·용어)에 대한 것이 아닙니다",
    "need_conditions": "질문이 말한 조건이 근거에서 확인되지 않습니다",
    "need_own_cases": "근거의 값은 질문에 없는 다른 경우에 대한 값입니다",
    "need_bound": "값의 이상·이하가 질문이 묻는 한계(최소·최대)와 맞지 않습니다",
    "need_unit": "값의 단위나 형태가 질문이 묻는 양과 맞지 않습니다",
    "need_threshold": "근거의 수치는 조건을 나타내는 값이지 답이 아닙니다",
    "need_ordinal": "질문이 묻는 순서(몇 번째)의 값인지 확인되지 않습니다",
    "need_operand": "근거의 수치는 식의 일부(더하거나 빼는 값)이지 답이 아닙니다",
    "need_excluded": "근거의 값은 질문이 제외한 경우에 대한 값입니다",
    "need_permission": "근거 문장이 허용·금지를 말하지 않습니다",
    "need_kind": "질문이 묻는 것(값·정의)과 답의 종류가 다릅니다",
    "need_prohibition": "질문은 금지된 것을 묻지만 근거 문장은 금지하지 않습니다",
    "need_attributable": "값이 풀어 쓴 표나 목록 속에 있어 질문이 묻는 칸·항목의 값인지 확인할 수 없습니다",
    "need_total": "질문은 합계를 묻지만 근거의 값은 항목당 값입니다",
    "need_difference": "질문은 두 값의 차이를 묻지만 근거의 값은 한쪽의 값입니다",
    "unique": "근거에 질문과 똑같이 맞는 다른 값이 있어 하나로 정할 수 없습니다",
    "not_pointer": "근거 문장은 다른 표·기준을 가리키기만 하거나 적용범위 문장입니다",
    "not_lead_in": "근거 문장은 목록을 소개하기만 하고 목록의 항목을 담고 있지 않습니다",
    "need_exemption": "질문은 예외(하지 않아도 되는 경우)를 묻지만 근거 문장은 예외를 말하지 않습니다",
    "formula_relation": "값이 질문이 말한 식의 그 자리(계수·상수)에 있는지 확인되지 않습니다",
    "formula_given": "식 자체가 근거에서 확인되지 않습니다",
    "ocr_source": "OCR로 읽은 값 — 원문 확인",
    "top_evidence": "근거가 검색 결과의 첫 문단이 아닙니다 — 원문 확인",
    "need_modifiers": "질문의 일부 한정어가 근거 문장에 없습니다 — 원문 확인",
    "source_fresh": "원문 파일이 색인 후 변경됨/없음 — 다시 색인하세요",
}
# checks whose failure still lets a value be shown, as a warning with their reason (the value was read, but the
# reader cannot vouch for its source)
WARN_ONLY = ("ocr_source", "source_fresh", "top_evidence", "need_modifiers")
ADVISORY_CHECKS = frozenset(WARN_ONLY)  # a failed one caps the status at warning; it never makes it unverified


def decide(given: bool, checks: Mapping[str, bool], from_table: bool) -> Verdict:
    """Status from what was given, the checks (name → passed) and whether the value is a table cell."""
    failed = [name for name, ok in checks.items() if not ok and name not in WARN_ONLY]
    warned = [name for name, ok in checks.items() if not ok and name in WARN_ONLY]
    status: Status
    if not given:
        status = "restricted"
        reason = f"{NO_VALUE}: 근거를 직접 확인하세요."
        if failed:
            reason += " (" + "; ".join(_CHECK_REASONS.get(f, f) for f in failed) + ")"
    elif failed == ["unique"]:
        status = "restricted"
        reason = f"{NO_VALUE}: 근거에 질문에 맞는 값이 여럿 있습니다. 아래 경우별 값을 확인하세요."
    elif failed:
        status = "unverified"
        reason = "검증 실패: " + "; ".join(_CHECK_REASONS.get(f, f) for f in failed) + ". 답으로 쓰지 마세요."
    elif warned:
        status = "warning"
        reason = "; ".join(_CHECK_REASONS.get(f, f) for f in warned) + "."
    elif from_table:
        status = "warning"
        reason = "표의 셀에서 읽은 값입니다. 원문 표의 행·열 머리를 확인하세요."
    else:
        status = "confirmed"
        reason = ""
    return Verdict(status=status, checks=dict(checks), reason=reason)


def ocr_source(citations: Sequence[Citation]) -> bool:
    """The ``ocr_source`` check: True (passed) when no cited quote has a character read by OCR."""
    for c in citations:
        if c.start >= 0 and c.end > c.start:
            if c.chunk.ocr_between(c.start, c.end):
                return False
        elif c.chunk.ocr:  # the quote was not located: any OCR text in its chunk counts
            return False
    return True


def cap_ocr(verdict: Verdict, citations: Sequence[Citation]) -> Verdict:
    """``verdict`` with the ``ocr_source`` check: a value read by OCR is never confirmed (warning, with
    ``OCR_REASON`` first); other statuses keep theirs."""
    if ocr_source(citations):
        return verdict
    checks = {**verdict.checks, "ocr_source": False}
    if verdict.status == "confirmed":
        return Verdict(status="warning", checks=checks, reason=OCR_REASON)
    reason = f"{OCR_REASON}. {verdict.reason}" if verdict.status == "warning" and verdict.reason else verdict.reason
    return Verdict(status=verdict.status, checks=checks, reason=reason)


STALE_REASON = "원문 파일이 색인 후 변경됨/없음 — 다시 색인하세요"
_ADVISORY_REASONS = {"ocr_source": OCR_REASON, "source_fresh": STALE_REASON}
_STALE_WORDS = {"changed": "변경됨", "missing": "없음"}


def stale_reason(stale: Mapping[str, str]) -> str:
    """``{file: "changed"|"missing"}`` → the Korean warning naming the files (``""`` when nothing is stale)."""
    if not stale:
        return ""
    from pathlib import PurePath

    parts = [f"{PurePath(f).name}({_STALE_WORDS.get(kind, kind)})" for f, kind in stale.items()]
    kinds = "/".join(dict.fromkeys(_STALE_WORDS.get(k, k) for k in stale.values()))
    return f"원문 파일이 색인 후 {kinds} — 다시 색인하세요: {', '.join(parts)}"


def add_checks(verdict: Verdict, checks: Mapping[str, bool], detail: str = "") -> Verdict:
    """``verdict`` with advisory checks made after verification (``source_fresh`` by the service): a failed one
    turns ``confirmed`` into ``warning``; any status keeps it listed and its reason (``detail`` or the default)
    first."""
    merged = {**verdict.checks, **checks}
    failed = [name for name, ok in checks.items() if not ok]
    if not failed:
        return Verdict(status=verdict.status, checks=merged, reason=verdict.reason)
    reason = detail or "; ".join(_ADVISORY_REASONS.get(f, f) for f in failed)
    status: Status = "warning" if verdict.status == "confirmed" else verdict.status
    full = f"{reason}. {verdict.reason}" if verdict.reason else reason
    return Verdict(status=status, checks=merged, reason=full)


def passes(checks: Mapping[str, bool]) -> bool:
    """Every check passed but the advisory ones (those only cap an answer at warning)."""
    return all(ok for name, ok in checks.items() if name not in ADVISORY_CHECKS)


def follows_policy(given: bool, checks: Mapping[str, bool], status: Status) -> bool:
    """True when ``status`` is what :func:`decide` (and :func:`cap_ocr`, :func:`add_checks`) allows for these
    checks (for the valid-response rate)."""
    ok = passes(checks)
    if status == "confirmed" and not all(checks.get(k, True) for k in ADVISORY_CHECKS):
        return False
    if status == "restricted":
        return not given or [k for k, v in checks.items() if not v and k not in WARN_ONLY] == ["unique"]
    if status == "unverified":
        return given and not ok
    return given and ok
