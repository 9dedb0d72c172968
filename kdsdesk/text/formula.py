"""Coefficients read from formulas by the question's own symbols: "V_c의 상한은 λ√fck·bw·d에 얼마를 곱한 값",
"d·t·Fu의 몇 배", "λ√fck를 나누는 값", "1/(T+18) 항의 상수".

The question names a symbolic product P and a relation; the answer is the number that stands in that relation to
P in an equation or sentence of the evidence:

- ``coef``: "P에 얼마를 곱한", "P에 곱하는 계수", "P의 몇 배" — the number written right before P
  ("0.29λ√(f_ck)b_w d", "1/6 λ√(f_ck)b_w d" → "1/6");
- ``div``: "P를 나누는" — the number right after "P /" ("(λ√(f_ck))/12" → 12);
- ``term``: "1/(X) 항의 상수" — the number that takes the place of the 1 ("1160/(T + 18)" → 1160).

Both sides are read as token streams (numbers, symbols with their subscripts, operators; spaces, middle dots and
brackets skipped) and compared by their joined text, so "d·t·Fu" meets "dtF_u" and "bw·s" meets "b_w s" but not
"b_w s_h". A bound the question asks for (상한/최대 → after "≤" or before "이하"; 하한/최소 → "≥", "이상")
decides between matches; matches with different numbers of similar weight make the read ambiguous.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from kdsdesk import lexicon as lx

Relation = lx.Relation
MARGIN = 0.15
_LETTER = "A-Za-z\u0370-\u03ff"
_TOKEN = re.compile(
    rf"(?P<num>\d+(?:\.\d+)?)|(?P<sym>[{_LETTER}]+(?:_\{{[^{{}}]{{1,12}}\}}|_[{_LETTER}0-9]+(?:,[{_LETTER}0-9]+)*)?)"
    r"|(?P<op>[√/+\-=≤≥<>^,])|(?P<paren>[()])|(?P<stop>[가-힣:;|])"
)
_MATH = set(f"0123456789_√·()/+-*^.{{}} {chr(0x2212)}") | {chr(c) for c in range(0x0370, 0x0400)}
_UNITS = frozenset({"kn", "mm", "cm", "m", "mpa", "gpa", "kpa", "n", "knm", "kgf"})  # a unit after a product ends it


@dataclass(frozen=True, slots=True)
class Tok:
    kind: str  # "num", "sym", "op", "stop"
    text: str  # normalised: symbols without "_" and braces, lower-cased
    start: int
    end: int


def tokens(text: str) -> list[Tok]:
    """The formula token stream of a (NFKC) text."""
    out: list[Tok] = []
    for m in _TOKEN.finditer(text):
        kind = m.lastgroup or ""
        raw = m.group(0)
        norm = re.sub(r"[_{}]", "", raw).lower() if kind == "sym" else raw
        out.append(Tok(kind, norm, m.start(), m.end()))
    return out


@dataclass(frozen=True, slots=True)
class Asked:
    """The product a question names and how the number asked for relates to it."""

    relation: Relation
    key: str  # joined token text of the product
    bound: str  # "le", "ge" or ""


def asked(question: str) -> Asked | None:
    q = unicodedata.normalize("NFKC", question)
    for rel, cue in lx.FORMULA_CUES:
        for m in cue.finditer(q):
            i = m.start()
            while i > 0 and (q[i - 1] in _MATH or (q[i - 1].isascii() and q[i - 1].isalpha())):
                i -= 1
            toks = [t for t in tokens(q[i : m.start()]) if t.kind not in ("stop", "paren")]
            if not any(t.kind == "sym" for t in toks):
                continue
            if rel == "term":
                if len(toks) < 3 or toks[0].text != "1" or toks[1].text != "/":
                    continue
                toks = toks[1:]
            bound = "le" if lx.UPPER_WORDS.search(q) else ("ge" if lx.LOWER_WORDS.search(q) else "")
            return Asked(rel, "".join(t.text for t in toks), bound)
    return None


def _joins(toks: Sequence[Tok], key: str) -> int:
    """Index just after the tokens that spell ``key`` from the start of ``toks`` (brackets skipped), when the
    product ends there; -1 otherwise. The product ends unless a symbol, "/" or "^" follows it — after closing
    the brackets opened inside it ("0.35(b_w s)/(f_yt)" is not 0.35 times b_w s)."""
    acc = ""
    depth = 0
    for i, t in enumerate(toks):
        if t.kind == "paren":
            depth += 1 if t.text == "(" else -1
            continue
        if t.kind in ("num", "stop") and not key[len(acc) :].startswith(t.text):
            return -1
        acc += t.text
        if acc == key:
            j = i + 1
            while j < len(toks) and toks[j].text == ")" and depth > 0:
                depth -= 1
                j += 1
            nxt = toks[j] if j < len(toks) else None
            if nxt is not None and ((nxt.kind == "sym" and nxt.text not in _UNITS) or nxt.text in ("/", "^")):
                return -1
            return i + 1
        if not key.startswith(acc):
            return -1
    return -1


def _ends_with(toks: Sequence[Tok], key: str) -> bool:
    acc = ""
    for t in reversed(toks):
        if t.kind == "paren":
            continue
        if t.kind == "stop":
            return False
        acc = t.text + acc
        if acc == key:
            return True
        if not key.endswith(acc):
            return False
    return False


def _bound_of(text: str, toks: Sequence[Tok], i: int, after: int) -> str:
    before = next((t.text for t in reversed(toks[:i]) if t.kind != "paren"), "")
    if before in ("≤", "<"):
        return "le"
    if before in ("≥", ">"):
        return "ge"
    tail = text[after : after + 14]
    if re.match(r"[^가-힣,]*?(이하)", tail):
        return "le"
    if re.match(r"[^가-힣,]*?(이상)", tail):
        return "ge"
    return ""


def _matches(a: Asked, text: str) -> list[tuple[str, str]]:
    """``(value, bound)`` of each number in ``text`` in the asked relation to the product."""
    toks = tokens(text)
    out: list[tuple[str, str]] = []
    for i, t in enumerate(toks):
        if t.kind != "num":
            continue
        k = _joins(toks[i + 1 :], a.key) if a.relation in ("coef", "term") else -1
        if k > 0:
            start = t.start
            if a.relation == "coef" and i >= 2 and toks[i - 1].text == "/" and toks[i - 2].kind == "num":
                start = toks[i - 2].start  # "1/6 λ√f_ck": the coefficient is the fraction
            lead = i - 2 if start != t.start else i
            out.append((text[start : t.end], _bound_of(text, toks, lead, toks[i + k].end)))
        prev = [x for x in toks[:i] if x.kind != "paren"]
        if a.relation == "div" and prev and prev[-1].text == "/" and _ends_with(toks[: toks.index(prev[-1])], a.key):
            out.append((t.text, ""))
    return out


def agrees(question: str, value: str, quote: str) -> bool:
    """The quote writes ``value`` in the relation the question asks for (with the asked bound, if any) — the
    verifier's reading, applied to any answerer's value."""
    a = asked(question)
    if a is None:
        return False
    nv = value.replace(" ", "")
    return any(
        v.replace(" ", "") == nv and (not a.bound or b == a.bound)
        for v, b in _matches(a, unicodedata.normalize("NFKC", quote))
    )
