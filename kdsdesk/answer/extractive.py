"""The extractive answerer (no LLM): read the answer from the best evidence by rules, in the answer JSON's shape.

- Evidence units: the sentences and lines of the top hits (``units``), scored by the share of the question's
  content bigrams they contain, plus a little for the chunk's clause title and the hit rank.
- Value questions: a table hit is read cell-wise (``kdsdesk.answer.tables``); in text, every number of the
  best units is a candidate, scored by its unit (the unit asked for wins), the words after it (이상/이하 against
  최소/최대), its distance to the question's terms and its unit's score. Numbers that are clause, table,
  equation or item references, or that the question itself states, are never candidates. Two different values
  within a small margin make the draft ``ambiguous`` (→ restricted).
- Requirements and definitions: `kdsdesk.answer.requirements`.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from kdsdesk.answer import formula, values
from kdsdesk.answer.constants import constant_read
from kdsdesk.answer.requirements import _evidence, _question_numbers, answer_definition, answer_requirement
from kdsdesk.answer.schema import Draft, Evidence
from kdsdesk.answer.sentences import (
    FORMULA_Q,
    TOP_HITS,
    Unit,
    score_units,
    units,
)
from kdsdesk.answer.tables import read_table
from kdsdesk.records import Alternative, Chunk, Hit, Need
from kdsdesk.text.match import bigrams, coverage, identifiers, number_spans, question_grams
from kdsdesk.text.normalize import canonical_terms, norm
from kdsdesk.verify.need import UNITS, QuestionInfo, classify, dimension_conflict

VALUE_MARGIN = 0.15  # two different values closer than this: ambiguous
FIT_GAP = 0.25  # a sure read whose evidence covers this much less of the question than a rival's is not trusted
CONSTANT_BONUS = 1.0  # "X는 다음 식 (N)의 값" + "X_s = 200,000 (MPa) (N)": the sentence names X and states the value
MIN_VALUE_SCORE = 1.2  # below this the best number is too weakly tied to the question (measured on the samples)

_UNIT_ALT = "|".join(re.escape(u) for u in sorted(UNITS, key=len, reverse=True))
_UNIT_AT = re.compile(rf"\s*({_UNIT_ALT})(?![A-Za-z])")
_REF_BEFORE = re.compile(r"(식|표|그림|제|KDS|KCS|KS\s*[A-Z]?)\s*\(?\s*(\d{2,4}\s+){0,2}$")
_MAX_CUE = re.compile(r"최대|상한|이하|넘지|초과하지|까지")
_MIN_CUE = re.compile(r"최소|하한|이상|최솟값")


# -- values ------------------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class _Cand:
    value: str
    unit: str
    score: float
    unit_obj: Unit


_CODE = re.compile(r"(?<!\d)\d{2}\s\d{2}\s\d{2}(?!\d)")


def _is_reference(text: str, a: int, b: int) -> bool:
    """A number that is a clause, table, equation, item or code reference: 식 (4.2-1), 표 4.1-1, 4.2.3, (1)."""
    before, after = text[max(0, a - 12) : a], text[b : b + 16]
    if _REF_BEFORE.search(before) or re.match(r"[.\-‐‑‒–—−]\d", after):
        return True
    if any(m.start() <= a and b <= m.end() for m in _CODE.finditer(text, max(0, a - 6), b + 6)):
        return True
    if re.search(r"\d[.\-‐‑‒–—−]$", before):  # the tail of 4.2-1 or 4.2.3
        return True
    if "." in text[a:b] and re.match(r"\s*(의\s*규정|에\s*따|에서\s*규정|절|항|조)", after):
        return True  # a clause number: "3.1의 규정에 따른다"
    return before.endswith("(") and after.startswith(")") and not re.search(r"\w\s*$", before[:-1])


_SEG_START = re.compile(r"[,;:(]|\b및\b|\d\s*[가-힣%°]*\s")
_COND_AFTER = re.compile(
    r"\s*[을를이가]?\s*(초과하는|넘는|이상인|이하인|미만인|이상의|이하의|미만의|인\s*경우|일\s*때|인\s*때)"
)
_EXPR = re.compile(r"[A-Za-z0-9_.√/()α-ωΑ-Ω]+")


CLAUSE_RECALL = 0.5
CLAUSE_CASE = 0.3
_CLAUSE_END = re.compile(r"[,;]\s|(며|고|나),?\s|다\.\s|:\s")


def _case_not_asked(before: str, question: str) -> bool:
    """The clause states its case ("복 래티스재의 경우 …") with a word the question does not have."""
    m = re.search(r"([^,:;]{1,30}?)(?:인|일)?\s*(경우|때)", before)
    if not m:  # or a setting opening the clause: "연속부재에서 …" against a question about 단순부재
        m = re.match(r"\s*(?:\(\d+\)\s*)?([가-힣]{2,})에서\s", before)
    if not m:
        return False
    nq = norm(question)
    words = [re.sub(r"(의|인|에서|에|을|를|이|가|은|는)$", "", w) for w in m.group(1).split()]
    return any(w and norm(w) not in nq for w in words if re.search(r"[가-힣]", w))


OWNER = 0.4
OWNER_COVER = 0.6
_OWNER = re.compile(r"(\S{2,}?)(?:이|가|은|는|을|를)")
_NOT_NOUN = re.compile(r"(하|되|있|없|받|않|같|지|라|면|여|고|서|며|기|으|에|의|도|와|과|로)$")
_PARTICLES = ("이", "가", "은", "는", "을", "를")
_GENERIC = ("값", "것", "수", "경우", "이것", "이때", "이")
_DESIGNATION = re.compile(r"[A-Z]{1,3}\d+")
_OWNED_BY = re.compile(r"의\s+(\S+)")


def _in_question(word: str, question: str) -> bool:
    """A document word (a noun or a symbol) is named in the question (normalised, synonyms folded)."""
    w, nq = canonical_terms(norm(word)), canonical_terms(norm(question))
    if not w:
        return False
    if w in nq or identifiers(word) & identifiers(question):
        return True
    grams = bigrams(w)
    return len(grams) > 1 and coverage(grams, bigrams(nq)) >= OWNER_COVER


def owner_agreement(text: str, a: int, end: int, question: str) -> int:
    """Whose number it is: "지름이 6 mm 이상" belongs to 지름, "0.005의 인장지배변형률 한계" to 인장지배변형률.
    +1 when the number is written as the value of a word the question names (``N의 X``), -1 when the word
    marked as its subject or object right before it (``X가 N``, ``X를 … N까지``) is not in the question, else 0."""
    m = _OWNED_BY.match(text, end)
    if m and _in_question(re.sub(r"(을|를|이|가|은|는|로|으로)$", "", m.group(1)), question):
        return 1
    before = text[max(0, a - 40) : a]
    words = re.split(r"[,;:.]\s", before)[-1].split()[-5:]
    word = ""
    for i in range(len(words) - 1, -1, -1):  # the nearest word marked as subject or object
        if words[i] in _PARTICLES and i > 0:  # a symbol and its particle: "l_d 는"
            word = words[i - 1]
            break
        m2 = _OWNER.fullmatch(words[i])
        if m2 and not _NOT_NOUN.search(m2.group(1)):
            word = m2.group(1)
            break
        if words[i].endswith("는"):
            break  # a verb's adnominal ("압축을 받는 200 mm"): the marked word is the verb's
    if not word or not re.search(r"[가-힣A-Za-zα-ωΑ-Ω]", unicodedata.normalize("NFKC", word)) or word in _GENERIC:
        return 0
    if not re.search(r"[가-힣]", word) and not identifiers(question):
        return 0  # a symbol ("l_d 는 150 mm") answers a question that names its quantity in words
    return 0 if _in_question(word, question) else -1


def _clause(text: str, a: int) -> str:
    """The clause holding the number at ``a``: "…140 이하로 하며, 복 래티스재의 경우 세장비는 200 이하로 하고" →
    "복 래티스재의 경우 세장비는 200 이하로 하고" for 200."""
    start, end = 0, len(text)
    for m in _CLAUSE_END.finditer(text):
        if m.end() <= a:
            start = m.end()
        elif m.start() >= a:
            end = m.end()
            break
    return text[start:end]


def _segment(text: str, a: int) -> str:
    """The words leading to the number at ``a``: from the last delimiter or previous number."""
    start = 0
    for m in _SEG_START.finditer(text, 0, a):
        start = m.end()
    return text[start:a]


def _symbols(question: str) -> set[str]:
    return {norm(t) for t in re.findall(r"[A-Za-zα-ωΑ-Ω][A-Za-z0-9_α-ω]*", unicodedata.normalize("NFKC", question))}


def _expression(text: str, a: int, b: int, syms: set[str], divides: bool = False) -> tuple[int, int]:
    """Widen a number glued to symbols (``h/2``, ``0.375h``) to the whole expression, unless the symbol after it
    is one the question names (then the number is the coefficient asked for)."""
    glued_before = a > 0 and (text[a - 1] == "/" or text[a - 1].isalpha()) and not divides
    glued_after = b < len(text) and (text[b].isalpha() or text[b] == "/")
    if not (glued_before or glued_after):
        return a, b
    m = _EXPR.match(text, b)
    follow = norm(m.group(0)) if m else ""
    if glued_after and not glued_before and any(follow.startswith(s) for s in syms if s):
        return a, b
    lo = a
    while lo > 0 and _EXPR.fullmatch(text[lo - 1]):
        lo -= 1
    hi = m.end() if m and glued_after else b
    return lo, hi


def _value_candidates(question: str, info: QuestionInfo, u: Unit) -> list[_Cand]:
    raw = u.text
    text = unicodedata.normalize("NFKC", raw)
    same = len(text) == len(raw)  # slice the original so the value and unit read as written
    qnums = _question_numbers(question)
    qg = question_grams(question)
    qids = identifiers(question)
    syms = _symbols(question)
    resp = respectively(text, qnums)
    asked_bound = _asked_bound(question)
    out: list[_Cand] = []
    for d, a, b in number_spans(text):
        after = text[b : b + 16]
        if _is_reference(text, a, b) or str(d.normalize()) in qnums:
            continue
        target = resp.get(a)
        if same and (raw[a] in "⁰¹²³⁴⁵⁶⁷⁸⁹" or "\u2460" <= raw[a] <= "\u24ff"):
            continue  # an exponent (m², mm³) or an item mark (④)
        m = _UNIT_AT.match(after)
        unit = (m.group(1) or m.group(2)) if m else ""
        ue = b + (len(m.group(0)) if m else 0)
        s = u.score
        if info.unit:
            s += 1.0 if unit and norm(unit) == norm(info.unit) else (-0.6 if unit else -0.3)
        elif unit in ("%", "배"):
            s -= 0.2  # not asked for
        tail = text[ue : ue + 12]
        if _MAX_CUE.search(question) and re.match(r"\s*(이하|까지|를\s*초과하지|을\s*초과하지)", tail):
            s += 0.3
        if _MIN_CUE.search(question) and re.match(r"\s*(이상)", tail):
            s += 0.3
        if _MAX_CUE.search(question) and re.search(r"[≤<]\s*$", text[max(0, a - 3) : a]):
            s += 0.3  # the bound of an inequality
        if _MIN_CUE.search(question) and re.search(r"[≥>]\s*$", text[max(0, a - 3) : a]):
            s += 0.3
        if _COND_AFTER.match(tail):
            s -= 0.4  # a number stating a condition, not a result
        seg = bigrams(_segment(text, a))
        s += len(seg & qg) / max(3, len(seg))
        clause = _clause(text, a)
        s += CLAUSE_RECALL * coverage(qg, bigrams(clause))
        owner = owner_agreement(text, a, ue, question)
        if owner < 0 and info.qtype == "numeric":
            continue  # "지름이 6 mm 이상" cannot answer for 정착길이: the number is another quantity's
        s += OWNER * owner
        if _case_not_asked(clause[: max(0, a - text.find(clause))] if clause in text else "", question):
            s -= CLAUSE_CASE  # the number's own clause is written for a case the question does not state
        near = identifiers(text[max(0, a - 10) : a])
        if near:
            s += 0.5 if near & qids else (-0.5 if qids else 0.0)
        m2 = _EXPR.match(text, b)
        if syms and m2 and any(norm(m2.group(0)).startswith(x) for x in syms):
            s += 0.5  # coefficient of a symbol the question names
        if raw.lstrip().startswith("다만"):
            s -= 0.1
        lo, hi = _expression(text, a, b, syms, divides="나누" in question)
        if text[hi - 1 : hi] in ("_", "^") or _DESIGNATION.fullmatch(text[lo:hi]):
            continue  # a cut expression ("0.6d_") or a designation ("D19", "M24"), not a value
        src = raw if same else text
        value, unit_text = src[lo:hi], src[ue - len(unit) : ue] if unit else ""
        q = qualified(text, lo, ue if unit else hi) if target is None else None
        if asked_bound:
            written = _bound_word(text[ue:])
            if written and written != asked_bound and info.qtype == "numeric":
                continue  # "몇 mm 이상" is never answered by a number written "… 이하"
            if written:
                s += ASKED_BOUND if written == asked_bound else -2 * ASKED_BOUND
        if q is not None and not info.unit and joint_bound(text, q[0], q[1]):
            continue  # "두께의 5배 이상, 25 mm 이상": one bound of several is half an answer
        if q is not None:  # "각각 1.0 m 이하": the value as the document writes it, unit inside
            value, unit_text = src[q[0] : q[1]], ""
        if dimension_conflict(question, value, unit_text):
            continue  # a speed cannot answer for a ratio, nor a bare factor for a strength
        if target is not None:
            s += 1.0 if target else -0.5
        out.append(_Cand(value, unit_text, s, u))
    return out


ASKED_BOUND = 0.3
_ASKED_BOUND = re.compile(
    r"(몇\s*(?:[^\s가-힣]{0,6}|도|배|퍼센트|개|년|일|시간|분|회)|얼마)\s*[을를]?\s*"
    r"(이하|이상|미만|초과(?!하지)|까지|넘지\s*않|초과하지\s*않)"
)


def _asked_bound(question: str) -> str:
    """The bound the asked part names: "몇 mm 이하인" / "얼마 이상" → "le" / "ge"; "" when none."""
    m = _ASKED_BOUND.search(unicodedata.normalize("NFKC", question))
    if not m:
        return ""
    return "ge" if m.group(2) in ("이상", "초과") else "le"


_WRITTEN_BOUND = re.compile(r"\s*[을를이가]?\s*(이하|미만|이내|까지|이상|초과하지\s*않|넘지\s*않)")


def _bound_word(tail: str) -> str:
    """The bound written right after a value (its unit read): "이하", "를 초과하지 않도록" → "le"; "이상" → "ge"."""
    m = _WRITTEN_BOUND.match(tail)
    if not m:
        return ""
    return "ge" if m.group(1) == "이상" else "le"


_N = r"\d+(?:\.\d+)?"
_AND = r"\s*(?:와|과|및|,)\s*"
_RESP = re.compile(rf"(?P<x1>{_N}){_AND}(?P<x2>{_N})\s*[을를은는이가]?\s*각각\s*(?P<y1>{_N}){_AND}(?P<y2>{_N})")


def respectively(text: str, qnums: set[str]) -> dict[int, bool]:
    """"계수 1.2와 2.4를 각각 1.5와 3.0으로 한다": when the question names one of the first numbers, the number
    at the same place in the second list is the one asked for. Start offset → True (asked) / False (the other)."""
    out: dict[int, bool] = {}
    for m in _RESP.finditer(text):
        named = [str(Decimal(m[x]).normalize()) in qnums for x in ("x1", "x2")]
        if sum(named) == 1:
            out[m.start("y1")] = named[0]
            out[m.start("y2")] = named[1]
    return out


_QUAL_AFTER = re.compile(r"\s*(이하|이상|미만|이내)")
_QUAL_BEFORE = re.compile(r"(각각|모두)\s*$")


_JOINER = r"\s*(?:이어야\s*하며|이고|이며|으로\s*하며|로\s*하며)?\s*,\s*"
_JOINT_AFTER = re.compile(_JOINER + r"[\d.,]+\s*[^\s\d,]{0,6}\s*(이하|이상|미만|이내)")
_JOINT_BEFORE = re.compile(r"(이하|이상|미만|이내)" + _JOINER + "$")


def joint_bound(text: str, lo: int, hi: int) -> bool:
    """True when the bounded value ``text[lo:hi]`` ("5배 이상") is one of a list of bounds of the same kind written
    together ("5배 이상, 25 mm 이상"; "0.5배 이상이어야 하며, 100 mm 이상"): either alone would be half an answer."""
    own = _QUAL_AFTER.search(text, lo, hi)
    if own is None:
        return False
    after = _JOINT_AFTER.match(text, hi)
    if after is not None and after.group(1) == own.group(1):
        return True
    before = _JOINT_BEFORE.search(text, 0, lo)
    return before is not None and before.group(1) == own.group(1)


def qualified(text: str, lo: int, end: int) -> tuple[int, int] | None:
    """The span of a value with the words that qualify it in the document — a bound after it (이하, 이상, 미만,
    이내) and "각각"/"모두" before it — or None when none is written ("12 mm" read from "12 mm 이상" would
    read as an exact size; the bound is half of the answer)."""
    m = _QUAL_AFTER.match(text, end)
    p = _QUAL_BEFORE.search(text, 0, lo)
    if m is None and p is None:
        return None
    return (p.start() if p else lo), (m.end() if m else end)


def _value_from_text(
    question: str, info: QuestionInfo, ranked: Sequence[Unit], hits: Sequence[Hit] = ()
) -> Draft | None:
    cands: list[_Cand] = []
    for u in [v for v in ranked if v.hit.chunk.kind != "table"][:5]:  # table cells: read under their headers
        if u.score <= 0.2:
            break
        cands.extend(_value_candidates(question, info, u))
        k = constant_read(question, u, hits) if hits else None
        if k is not None and (not info.unit or not k[1] or norm(k[1]) == norm(info.unit)):
            cands.append(_Cand(k[0], k[1], u.score + CONSTANT_BONUS + (1.0 if info.unit else 0.0), k[2]))
    if not cands:
        return None
    cands.sort(key=lambda c: -c.score)
    best = cands[0]
    rival = next((c for c in cands[1:] if norm(c.value) != norm(best.value)), None)
    ambiguous = best.score < MIN_VALUE_SCORE or (rival is not None and best.score - rival.score < VALUE_MARGIN)
    alts: tuple[Alternative, ...] = ()
    if info.qtype == "conditional":
        alts = tuple(
            Alternative("", c.value, c.unit)
            for c in cands[1:5]
            if c.unit_obj is best.unit_obj and norm(c.value) != norm(best.value)
        )[:3]
    u = best.unit_obj
    return Draft(
        info.qtype, value=best.value, unit=best.unit or "", alternatives=alts,
        evidence=(Evidence(u.hit.chunk.chunk_id, u.text),), ambiguous=ambiguous,
        notes={
            "score": round(best.score, 3),
            "margin": round(best.score - rival.score, 3) if rival else None,
            "fit": round(_fit(question, [u.text, *u.hit.chunk.clause_path[-1:]]), 3),
        },
    )  # fmt: skip


def _value_from_tables(question: str, info: QuestionInfo, hits: Sequence[Hit]) -> tuple[Draft, float] | None:
    best: tuple[Draft, float] | None = None
    if FORMULA_Q.search(question):
        return None  # a question about a formula is not answered by a table cell
    for h in hits[:TOP_HITS]:
        t = h.chunk.table
        if h.chunk.kind != "table" or t is None:
            continue
        cr = read_table(question, t, info.unit)
        if cr is None:
            continue
        if str(norm(cr.value)) in {norm(x) for x in _question_numbers(question)}:
            continue  # the question states this number; it asks for another
        if dimension_conflict(question, cr.value, cr.unit):
            continue  # the cell measures something other than what is asked
        rows = t.rows_text()
        quote = rows[cr.row] if cr.row < len(rows) else cr.value
        score = cr.score + 0.5 / h.rank
        fit = round(_fit(question, [t.caption, *cr.col_headers, *cr.row_labels, *h.chunk.clause_path[-1:]]), 3)
        d = Draft(
            info.qtype, value=cr.value, unit=cr.unit, condition=" · ".join([*cr.row_labels, *cr.col_headers[-1:]]),
            alternatives=cr.alternatives if info.qtype == "conditional" else (),
            evidence=(Evidence(h.chunk.chunk_id, quote),), from_table=True, ambiguous=cr.ambiguous,
            notes={"score": round(cr.score, 3), "margin": round(cr.margin, 3), "table": t.number, "fit": fit},
        )  # fmt: skip
        if best is None or score > best[1]:
            best = (d, score)
    return best


def _fit(question: str, texts: Sequence[str]) -> float:
    """Share of the question's content bigrams found in the evidence around a value."""
    return coverage(question_grams(question), bigrams(" ".join(texts)))


def answer_value(need: Need, info: QuestionInfo, hits: Sequence[Hit], ranked: Sequence[Unit]) -> Draft:
    """A value: a coefficient read from a formula the question names; else the constant a display equation
    states; else the fact of the evidence that fits the need best (``kdsdesk.answer.values``)."""
    question = need.question
    f = formula.read(question, ranked)
    if f is not None:  # the question names a product and a relation to it: read the formula, nothing else
        return Draft(
            info.qtype, value=f.value, evidence=(Evidence(f.unit.hit.chunk.chunk_id, f.unit.text),),
            ambiguous=f.ambiguous, notes={"score": round(f.score, 3), "margin": f.margin, "formula": True},
        )  # fmt: skip
    for u in [v for v in ranked if v.hit.chunk.kind != "table"][:5]:
        k = constant_read(question, u, hits)
        if k is not None and (not info.unit or not k[1] or norm(k[1]) == norm(info.unit)):
            return Draft(info.qtype, value=k[0], unit=k[1], evidence=(Evidence(u.hit.chunk.chunk_id, k[2].text),),
                         notes={"constant": True})  # fmt: skip
    d = values.answer_value(need, hits, ranked)
    return d if d is not None else Draft(info.qtype, evidence=_evidence(ranked))


def answer(need: Need, hits: Sequence[Hit]) -> Draft:
    """An extractive draft for ``need`` from ``hits``."""
    question = need.question
    info = classify(question)
    if need.kind == "value" and info.qtype not in ("numeric", "conditional"):
        info = QuestionInfo(need.qtype, unit=info.unit, comparison=info.comparison)
    ranked = score_units(question, units(hits))
    if need.kind == "value":
        return answer_value(need, info, hits, ranked)
    if info.qtype in ("numeric", "conditional"):
        info = QuestionInfo("regulation", comparison=info.comparison)
    if need.kind in ("requirement", "formula"):
        return answer_requirement(question, info, ranked, hits, need)
    return answer_definition(question, info, ranked, need)


def chunk_of(hits: Sequence[Hit], chunk_id: str) -> Chunk | None:
    return next((h.chunk for h in hits if h.chunk.chunk_id == chunk_id), None)
