"""Answer evaluation over a QA set (``qa.jsonl`` format): accuracy per type and evidence kind, policy, precision.

``evaluate_answers(library, items, llm)`` answers every item whose ``qtype`` is an answer type (numeric,
conditional, regulation, definition; retrieval-only items are skipped) and returns a dict that ``kdsdesk eval
--answers`` merges into its report:

- ``accuracy``: answers *shown* (confirmed or warning) whose content equals the gold answer, over all items;
- ``confirmed_precision`` / ``shown_precision``: correct among confirmed / among shown answers;
  ``wrong_confirmed`` lists the ids of wrong confirmed answers (the number that must stay 0);
- ``valid_rate``: answers whose status follows the policy for their checks (and, with a model, schema-valid
  output: ``schema_valid_rate``);
- the same per ``qtype``, per ``evidence`` kind and per both; mean prompt tokens; time to answer (p50, mean).

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
from collections import defaultdict
from collections.abc import Iterable, Mapping
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from kdsdesk.answer.pipeline import answer_question
from kdsdesk.answer.qtype import UNITS
from kdsdesk.records import Answer
from kdsdesk.text.normalize import norm, tex_to_plain
from kdsdesk.verify.values import number_spans, only_number

if TYPE_CHECKING:
    from kdsdesk.service import Library

ANSWER_TYPES = ("numeric", "conditional", "regulation", "definition")
SHOWN = ("confirmed", "warning")


def _numbers(text: str, unit: str) -> set[Decimal]:
    out: set[Decimal] = set()
    for d, _, b in number_spans(text):
        out.add(d.normalize())
        if norm(unit) == "%" or text[b:].lstrip().startswith("%"):
            out.add((d / 100).normalize())
    return out


_UNIT_ALT = "|".join(re.escape(u) for u in sorted(UNITS, key=len, reverse=True))
_QUALIFIED = re.compile(
    rf"^\s*(?:각각|모두)?\s*(?P<num>[-−]?[\d,.]+\s*%?)\s*(?P<unit>{_UNIT_ALT})?\s*(?:이하|이상|미만|이내)?\s*$"
)


def _bare(value: str) -> str:
    """The number of a value written with its qualifiers ("각각 1.0 m 이하" → "1.0"); else the value."""
    m = _QUALIFIED.match(value)
    return m["num"] if m else value


def _unit_in(value: str) -> str:
    m = _QUALIFIED.match(value)
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
    ok = all(a.verdict.checks.values())
    if a.status in SHOWN:
        return ok
    if a.status == "unverified":
        return not ok
    return not (a.value or a.requirements or a.definition)


class _Tally:
    def __init__(self) -> None:
        self.n = 0
        self.correct = 0
        self.shown = 0
        self.shown_correct = 0
        self.confirmed = 0
        self.confirmed_correct = 0
        self.valid = 0
        self.status: dict[str, int] = defaultdict(int)

    def add(self, a: Answer, ok: bool) -> None:
        self.n += 1
        self.status[a.status] += 1
        self.valid += _follows_policy(a)
        if a.status in SHOWN:
            self.shown += 1
            self.shown_correct += ok
            self.correct += ok
        if a.status == "confirmed":
            self.confirmed += 1
            self.confirmed_correct += ok

    def report(self) -> dict[str, Any]:
        def r(x: int, y: int) -> float | None:
            return round(x / y, 4) if y else None

        return {
            "n": self.n,
            "accuracy": r(self.correct, self.n),
            "shown_precision": r(self.shown_correct, self.shown),
            "confirmed_precision": r(self.confirmed_correct, self.confirmed),
            "valid_rate": r(self.valid, self.n),
            "status": dict(self.status),
        }


def evaluate_answers(library: Library, items: Iterable[Mapping[str, Any]], llm: str | None) -> dict[str, Any]:
    """Answer each QA item with ``library`` and report accuracy, precision and policy figures."""
    total = _Tally()
    by_type: dict[str, _Tally] = defaultdict(_Tally)
    by_ev: dict[str, _Tally] = defaultdict(_Tally)
    by_both: dict[str, _Tally] = defaultdict(_Tally)
    wrong_confirmed: list[str] = []
    wrong_shown: list[str] = []
    tokens: list[int] = []
    times: list[float] = []
    schema_ok = 0
    per_item: list[dict[str, Any]] = []
    for item in items:
        qt = str(item.get("qtype", ""))
        if qt not in ANSWER_TYPES:
            continue
        t0 = time.perf_counter()
        hits = library.search(str(item["question"]), k=20)
        a = answer_question(str(item["question"]), hits, llm=llm)
        times.append((time.perf_counter() - t0) * 1000)
        ok = judge(item, a)
        ev = str(item.get("evidence", ""))
        for t in (total, by_type[qt], by_ev[ev], by_both[f"{qt}/{ev}"]):
            t.add(a, ok)
        if a.status == "confirmed" and not ok:
            wrong_confirmed.append(str(item.get("id", "")))
        if a.status in SHOWN and not ok:
            wrong_shown.append(str(item.get("id", "")))
        tokens.append(a.prompt_tokens)
        schema_ok += a.verdict.checks.get("schema", True)
        per_item.append(
            {"id": item.get("id"), "status": a.status, "correct": ok, "value": a.value, "unit": a.unit,
             "answer_text": a.answer_text, "failed_checks": [k for k, v in a.verdict.checks.items() if not v]}
        )  # fmt: skip
    out = total.report()
    out.update(
        {
            "wrong_confirmed": wrong_confirmed,
            "wrong_shown": wrong_shown,
            "schema_valid_rate": round(schema_ok / total.n, 4) if total.n else None,
            "prompt_tokens_mean": round(statistics.fmean(tokens), 1) if tokens else 0,
            "prompt_tokens_max": max(tokens) if tokens else 0,
            "time_ms_p50": round(statistics.median(times), 1) if times else 0,
            "time_ms_mean": round(statistics.fmean(times), 1) if times else 0,
            "llm": llm or "auto",
            "by_qtype": {k: v.report() for k, v in sorted(by_type.items())},
            "by_evidence": {k: v.report() for k, v in sorted(by_ev.items())},
            "by_qtype_evidence": {k: v.report() for k, v in sorted(by_both.items())},
            "items": per_item,
        }
    )
    return {"answers": out}
