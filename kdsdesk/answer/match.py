"""How well a piece of evidence (sentence, table header, row label) matches a question — by rules.

Korean compounds are written with and without spaces and with different particles, so text similarity is the
share of character bigrams (normalised, spaces removed) of one side found in the other. On top of that:
identifiers (``M22``, ``F10T``, ``A급``, ``1종``) must match exactly; numeric conditions in a label
(``6 < t ≤ 13``, ``4.5 m/h 초과``, ``2.1~4.5``) are tested against the numbers of the question; negation
(``않는``, ``없는``, ``미사용``) and comparison direction (이하/초과) must agree.
"""

from __future__ import annotations

import re
import unicodedata
from decimal import Decimal

from kdsdesk.text.normalize import canonical_terms, norm
from kdsdesk.verify.values import content_terms, number_spans

_IDENT = re.compile(r"(?<![A-Za-z0-9])([A-Za-z]+\d+[A-Za-z0-9]*|[A-Za-z]\s*급|\d+\s*종|[A-Z]{1,3}(?=\s*급))")
_NEG = re.compile(r"(않|없|미사용|아닌|제외)")
_LE_WORDS = re.compile(r"(이하|미만|≤|<|넘지\s*않|초과하지\s*않)")
_GT_WORDS = re.compile(r"(초과|넘는|넘을|넘으면|>|≥|이상인)")
_ASKED = re.compile(r"(얼마|몇\s*\S*)\s*(이하|이상|미만|초과)")  # the asked part, not a condition


def bigrams(text: str) -> set[str]:
    s = norm(canonical_terms(text))
    return {s[i : i + 2] for i in range(len(s) - 1)} if len(s) > 1 else ({s} if s else set())


def question_grams(question: str) -> set[str]:
    out: set[str] = set()
    for t in content_terms(question):
        out |= bigrams(t)
    return out


def coverage(a: set[str], b: set[str]) -> float:
    """Share of ``a`` found in ``b``."""
    return len(a & b) / len(a) if a else 0.0


def identifiers(text: str) -> set[str]:
    return {norm(m.group(1)) for m in _IDENT.finditer(unicodedata.normalize("NFKC", text))}


def negated(text: str) -> bool:
    return bool(_NEG.search(text))


def direction(text: str) -> str:
    """``le`` / ``gt`` / ``""``: the comparison a text states (a label or a question)."""
    le, gt = bool(_LE_WORDS.search(text)), bool(_GT_WORDS.search(text))
    if le and not gt:
        return "le"
    if gt and not le:
        return "gt"
    return ""


_INTERVAL_PATTERNS = (
    # a < x ≤ b, a ≤ x < b
    re.compile(r"(?P<a>\d+(?:\.\d+)?)\s*(?P<o1><|≤|<=)\s*[^\d<>≤≥]{1,12}?\s*(?P<o2><|≤|<=)\s*(?P<b>\d+(?:\.\d+)?)"),
    # a ~ b
    re.compile(r"(?P<a>\d+(?:\.\d+)?)\s*[~〜∼～\-–]\s*(?P<b>\d+(?:\.\d+)?)"),
    # x ≤ b / x < b / b 이하 / b 미만
    re.compile(r"(?:(?P<o2><|≤|<=)\s*(?P<b>\d+(?:\.\d+)?))|(?:(?P<b2>\d+(?:\.\d+)?)\s*\S{0,6}?\s*(?P<w2>이하|미만))"),
    # x > a / x ≥ a / a 이상 / a 초과
    re.compile(r"(?:(?P<o1>>|≥|>=)\s*(?P<a>\d+(?:\.\d+)?))|(?:(?P<a2>\d+(?:\.\d+)?)\s*\S{0,6}?\s*(?P<w1>이상|초과))"),
)


def interval(label: str) -> tuple[Decimal | None, bool, Decimal | None, bool] | None:
    """``(low, low_inclusive, high, high_inclusive)`` stated by a label, or None."""
    s = unicodedata.normalize("NFKC", label)
    m = _INTERVAL_PATTERNS[0].search(s)
    if m:
        return Decimal(m["a"]), m["o1"] != "<", Decimal(m["b"]), m["o2"] != "<"
    m = _INTERVAL_PATTERNS[1].search(s)
    if m and Decimal(m["a"]) < Decimal(m["b"]):
        return Decimal(m["a"]), True, Decimal(m["b"]), True
    m = _INTERVAL_PATTERNS[2].search(s)
    if m:
        if m["b"]:
            return None, False, Decimal(m["b"]), m["o2"] != "<"
        return None, False, Decimal(m["b2"]), m["w2"] == "이하"
    m = _INTERVAL_PATTERNS[3].search(s)
    if m:
        if m["a"]:
            return Decimal(m["a"]), m["o1"] != ">", None, False
        return Decimal(m["a2"]), m["w1"] == "이상", None, False
    return None


def in_interval(x: Decimal, iv: tuple[Decimal | None, bool, Decimal | None, bool]) -> bool:
    lo, lo_inc, hi, hi_inc = iv
    if lo is not None and (x < lo or (x == lo and not lo_inc)):
        return False
    return not (hi is not None and (x > hi or (x == hi and not hi_inc)))


def label_score(question: str, label: str, qgrams: set[str] | None = None) -> float:
    """How well a header or row label matches the question (higher is better; negative is a contradiction)."""
    if not label.strip():
        return 0.0
    qg = question_grams(question) if qgrams is None else qgrams
    lg = bigrams(label)
    score = 2.0 * coverage(lg, bigrams(question)) + 0.5 * coverage(qg, lg)
    lid, qid = identifiers(label), identifiers(question)
    if lid:
        score += 3.0 * len(lid & qid) if lid & qid else (-2.0 if qid else 0.0)
    iv = interval(label)
    qnums = [d for d, _, _ in number_spans(question)]
    if iv is not None and qnums:
        score += 3.0 if any(in_interval(x, iv) for x in qnums) else -1.5
    if negated(label) != negated(question) and coverage(lg, bigrams(question)) > 0.2:
        score -= 1.5
    dl, dq = direction(label), direction(_ASKED.sub("", question))
    if dl and dq:
        score += 1.0 if dl == dq else -2.0
    return score
