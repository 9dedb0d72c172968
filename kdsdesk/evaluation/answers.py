"""Answer evaluation over a QA set (``qa.jsonl`` format): accuracy, precision, wrong values, declining, pages.

``evaluate_answers(library, items, llm)`` answers every item whose ``qtype`` is an answer type (numeric,
conditional, regulation, definition; retrieval-only items are skipped) through the ``service`` facade and returns
a dict that ``kdsdesk eval --answers`` merges into its report. Figures (the project's measuring rules):

- ``accuracy``: answers *shown* (confirmed or warning) whose content equals the gold answer, over the items whose
  answer is in the library (``n_in_library``; gold ``doc`` not empty);
- ``confirmed_precision`` / ``shown_precision``: correct among confirmed / among shown answers;
- ``wrong_shown`` / ``wrong_confirmed``: ids of the items shown (confirmed) with a wrong value — a value shown for
  a question whose answer is in no standard counts as wrong; ``wrong_confirmed`` is the number that must stay 0;
- ``not_in_library``: the items whose gold ``doc`` is empty, how many were declined (status restricted or
  unverified) and the ids of those shown a value;
- ``citation_page_right``: among shown answers to items with ``pdf_pages`` and ``file_stem``, the share whose
  first verified citation is in the gold file on one of the gold's (1-based) pages (``citation_page_n`` answers;
  answers citing a source without pages, HWPX, are not counted; a shown answer without a verified citation is
  counted wrong); None when there is nothing to count;
- ``valid_rate``: answers whose status follows the policy for their checks (and, with a model, schema-valid
  output: ``schema_valid_rate``);
- the same per ``qtype``, per ``evidence`` kind, per both and per ``split`` (the development/validation half of
  :mod:`kdsdesk.evaluation.split`); mean prompt tokens; time to answer (p50, mean); one row per item.

Content equality (:func:`judge`): a gold answer that is one number equals the answer's value as numbers
(``2`` = ``2.0``, ``5 %`` = ``0.05``, thousands separators ignored; a value written with the document's
qualifiers, "각각 1.0 m 이하", is compared by its number); any other gold answer must be contained, after
``tex_to_plain`` and normalisation (brackets around one symbol next to a fraction bar dropped), in the
answer's value with unit, requirements, definition or term.
"""

from __future__ import annotations

import re
import statistics
import time
import unicodedata
from collections import defaultdict
from collections.abc import Iterable, Mapping
from decimal import Decimal
from typing import Any

from kdsdesk.evaluation.split import item_split
from kdsdesk.records import Answer, Citation
from kdsdesk.service import Library
from kdsdesk.text.match import number_spans
from kdsdesk.text.normalize import norm, tex_to_plain
from kdsdesk.verify.need import UNITS
from kdsdesk.verify.policy import ADVISORY_CHECKS, follows_policy, passes
from kdsdesk.verify.values import only_number

ANSWER_TYPES = ("numeric", "conditional", "regulation", "definition")
SHOWN = ("confirmed", "warning")
DECLINED = ("restricted", "unverified")


def _numbers(text: str, unit: str) -> set[Decimal]:
    out: set[Decimal] = set()
    for d, _, b in number_spans(text):
        out.add(d.normalize())
        if norm(unit) == "%" or text[b:].lstrip().startswith("%"):
            out.add((d / 100).normalize())
    return out


_UNIT_ALT = "|".join(re.escape(u) for u in sorted(UNITS, key=len, reverse=True))
_QUALIFIED = re.compile(
    rf"^\s*(?:각각|모두)?\s*(?P<num>[-−±]?[\d,.]+\s*%?)\s*(?P<unit>{_UNIT_ALT})?\s*(?:이하|이상|미만|이내|까지|초과)?\s*$"
)


def _bare(value: str) -> str:
    """The number of a value written with its qualifiers ("각각 1.0 m 이하" → "1.0"); else the value."""
    m = _QUALIFIED.match(unicodedata.normalize("NFKC", value))
    return m["num"] if m else value


def _unit_in(value: str) -> str:
    m = _QUALIFIED.match(unicodedata.normalize("NFKC", value))
    return (m["unit"] or "") if m else ""


def judge(item: Mapping[str, Any], answer: Answer) -> bool:
    """Does the answer's content equal the gold answer (see the module docstring)?"""
    gold = tex_to_plain(str(item.get("answer", ""))).strip()
    if not gold:
        return False
    gold_unit = str(item.get("unit", ""))
    if only_number(gold) and answer.value:
        bare = _bare(answer.value)
        if not only_number(bare):
            return False
        return bool(_numbers(gold, gold_unit) & _numbers(bare, answer.unit or _unit_in(answer.value)))
    texts = [f"{answer.value} {answer.unit}", answer.value, *answer.requirements, answer.definition]
    if answer.qtype == "definition":
        texts.append(answer.answer_text)
    ng = _canon(norm(gold))
    return bool(ng) and any(ng in _canon(norm(t)) for t in texts if t.strip())


_ATOM_PARENS = re.compile(r"\((?P<a>[0-9a-zα-ω.]+)\)(?=/)|(?<=/)\((?P<b>[0-9a-zα-ω.]+)\)")


def _canon(normed: str) -> str:
    """Brackets around one symbol or number next to a fraction bar dropped: "(αr)/100" = "αr/100" (equation
    writers differ there)."""
    return _ATOM_PARENS.sub(lambda m: m["a"] or m["b"], normed)


def _follows_policy(a: Answer) -> bool:
    """The status is one the policy allows for the answer's checks. An advisory check (a value read by OCR, a
    source changed since indexing) caps a value at warning: it fails a confirmed answer, never a warning."""
    checks = a.verdict.checks
    ok = passes(checks)
    if a.status == "confirmed":
        return ok and all(checks.get(k, True) for k in ADVISORY_CHECKS)
    if a.status == "warning":
        return ok
    if a.status == "unverified":
        return not ok
    return not (a.value or a.requirements or a.definition) or follows_policy(a.draft.given, checks, a.status)


def in_library(item: Mapping[str, Any]) -> bool:
    """Is the item's answer in some standard? (A gold ``doc`` that is empty says it is in none.)"""
    return bool(str(item.get("doc", "x") or "").strip())


def first_verified(a: Answer) -> Citation | None:
    return next((c for c in a.citations if c.verified), None)


def citation_page_right(item: Mapping[str, Any], a: Answer) -> bool | None:
    """Is the first verified citation of a shown answer in the gold file on a gold page? None when not counted:
    the item names no ``pdf_pages``/``file_stem``, the answer is not shown, or the cited source has no pages."""
    pages = item.get("pdf_pages") or []
    stem = str(item.get("file_stem") or "")
    if not pages or not stem or a.status not in SHOWN:
        return None
    c = first_verified(a)
    if c is None:
        return False
    if c.page_index is None:
        return None
    return c.chunk.doc.stem == stem and c.page_index + 1 in {int(p) for p in pages}


def _rate(x: int, y: int) -> float | None:
    return round(x / y, 4) if y else None


class _Tally:
    def __init__(self) -> None:
        self.n = 0
        self.n_in_library = 0
        self.correct = 0
        self.shown = 0
        self.shown_correct = 0
        self.confirmed = 0
        self.confirmed_correct = 0
        self.valid = 0
        self.status: dict[str, int] = defaultdict(int)
        self.wrong_shown: list[str] = []
        self.wrong_confirmed: list[str] = []
        self.nil = 0
        self.nil_declined = 0
        self.nil_shown: list[str] = []
        self.cite_n = 0
        self.cite_right = 0

    def add(self, item: Mapping[str, Any], a: Answer, ok: bool) -> None:
        item_id = str(item.get("id", ""))
        shown = a.status in SHOWN
        self.n += 1
        self.status[a.status] += 1
        self.valid += _follows_policy(a)
        if in_library(item):
            self.n_in_library += 1
        else:
            self.nil += 1
            self.nil_declined += a.status in DECLINED
            if shown:
                self.nil_shown.append(item_id)
        if shown:
            self.shown += 1
            self.shown_correct += ok
            self.correct += ok
            if not ok:
                self.wrong_shown.append(item_id)
        if a.status == "confirmed":
            self.confirmed += 1
            self.confirmed_correct += ok
            if not ok:
                self.wrong_confirmed.append(item_id)
        page_right = citation_page_right(item, a)
        if page_right is not None:
            self.cite_n += 1
            self.cite_right += page_right

    def report(self) -> dict[str, Any]:
        return {
            "n": self.n,
            "n_in_library": self.n_in_library,
            "accuracy": _rate(self.correct, self.n_in_library),
            "shown_precision": _rate(self.shown_correct, self.shown),
            "confirmed_precision": _rate(self.confirmed_correct, self.confirmed),
            "wrong_shown": list(self.wrong_shown),
            "wrong_confirmed": list(self.wrong_confirmed),
            "not_in_library": {"n": self.nil, "declined": self.nil_declined, "shown": list(self.nil_shown)},
            "citation_page_right": _rate(self.cite_right, self.cite_n),
            "citation_page_n": self.cite_n,
            "valid_rate": _rate(self.valid, self.n),
            "status": dict(self.status),
        }


def evaluate_answers(library: Library, items: Iterable[Mapping[str, Any]], llm: str | None) -> dict[str, Any]:
    """Answer each QA item with ``library`` and report the figures of the module docstring."""
    total = _Tally()
    groups: dict[str, dict[str, _Tally]] = {k: defaultdict(_Tally) for k in ("qtype", "evidence", "both", "split")}
    tokens: list[int] = []
    times: list[float] = []
    schema_ok = 0
    per_item: list[dict[str, Any]] = []
    for item in items:
        qt = str(item.get("qtype", ""))
        if qt not in ANSWER_TYPES:
            continue
        t0 = time.perf_counter()
        a = library.ask(str(item["question"]), llm=llm, remember=False)
        times.append((time.perf_counter() - t0) * 1000)
        ok = judge(item, a)
        ev = str(item.get("evidence", ""))
        half = item_split(item)
        total.add(item, a, ok)
        for key, name in (("qtype", qt), ("evidence", ev), ("both", f"{qt}/{ev}"), ("split", half)):
            groups[key][name].add(item, a, ok)
        tokens.append(a.prompt_tokens)
        schema_ok += a.verdict.checks.get("schema", True)
        cite = first_verified(a)
        per_item.append(
            {"id": item.get("id"), "status": a.status, "correct": ok, "value": a.value, "unit": a.unit,
             "answer_text": a.answer_text, "failed_checks": [k for k, v in a.verdict.checks.items() if not v],
             "split": half, "in_library": in_library(item),
             "cited": {"file_stem": cite.chunk.doc.stem, "clause": cite.chunk.clause,
                       "page": cite.page_index + 1 if cite.page_index is not None else None} if cite else None}
        )  # fmt: skip
    out = total.report()

    def by(key: str) -> dict[str, Any]:
        return {k: v.report() for k, v in sorted(groups[key].items())}

    out.update(
        {
            "schema_valid_rate": _rate(schema_ok, total.n),
            "prompt_tokens_mean": round(statistics.fmean(tokens), 1) if tokens else 0,
            "prompt_tokens_max": max(tokens) if tokens else 0,
            "time_ms_p50": round(statistics.median(times), 1) if times else 0,
            "time_ms_mean": round(statistics.fmean(times), 1) if times else 0,
            "llm": llm or "auto",
            "by_qtype": by("qtype"),
            "by_evidence": by("evidence"),
            "by_qtype_evidence": by("both"),
            "by_split": by("split"),
            "items": per_item,
        }
    )
    return {"answers": out}
