"""Value questions answered from the facts read at index time (``Chunk.facts``): match the need, pick one.

Every fact of the top retrieved chunks is a candidate. Hard rules drop the ones that cannot answer: a unit of
another dimension than the one asked, a bound written the other way than the one asked (상한 ↛ "25 mm 이상"), a
number that states a condition when the question does not ask for one, an expression with a symbol for a question
in plain units, a year for anything but a year. The rest are ranked by how well the fact's own reading fits the
question — its subject against the quantity asked, its cases against the question's cases (a case the question
does not state counts against it), the question's cases found around it — plus the retrieval score of its
sentence (``kdsdesk.answer.sentences``). Two different values close in rank make the draft ``ambiguous``; the
other candidates of the best one's kind become its alternatives.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from decimal import Decimal

from kdsdesk import lexicon as lx
from kdsdesk.answer.sentences import Unit
from kdsdesk.records import Alternative, Draft, Evidence, Fact, Hit, Need
from kdsdesk.text.conditions import agreement, question_conditions
from kdsdesk.text.facts import chunk_facts, topic_of
from kdsdesk.text.match import alternatives, bigrams, coverage, in_interval, interval, number_spans, words_covered
from kdsdesk.text.normalize import canonical_terms, norm

TOP = 6
MARGIN = 0.25  # two different values closer than this: ambiguous
MIN_SCORE = 1.0
_FILLER = lx.FILLER_WORDS


def _grams(phrase: str) -> set[str]:
    out: set[str] = set()
    for w in re.findall(r"[가-힣]+|[A-Za-z][A-Za-z0-9]*", lx.nfkc(canonical_terms(phrase))):
        w = lx.PARTICLE_END.sub("", w) if len(w) > 2 and re.match(r"[가-힣]", w) else w
        if w in _FILLER or w in lx.GENERIC_WORDS or w in lx.QUESTION_WORDS or (len(w) < 2 and w >= "가"):
            continue
        out |= bigrams(w)
    return out


def _cover(phrase: str, text: str) -> float:
    g = _grams(phrase)
    return coverage(g, bigrams(canonical_terms(text))) if g else 1.0


@dataclass(frozen=True, slots=True)
class Candidate:
    fact: Fact
    hit: Hit
    score: float
    sentence: str


def _dimension_ok(need: Need, f: Fact) -> bool:
    dim = lx.unit_dimension(f.unit)
    if dim == "year" and need.dimension not in ("year", "time") and lx.canonical_unit(need.unit) != "년":
        return False
    if need.unit:
        if f.unit:
            return lx.same_unit(f.unit, need.unit) or (bool(dim) and dim == lx.unit_dimension(need.unit))
        return f.kind == "cell" or lx.unit_dimension(need.unit) in ("ratio", "count", "") or need.unit in ("배", "%")
    if not need.dimension:
        return True
    if not f.unit:
        measured = need.dimension in ("length", "stress", "force", "speed", "area", "temperature")
        return f.kind == "cell" or not measured or bool(re.search(r"배|계수|비율|곱|나누|분의|상수", need.question))
    if need.dimension == "force" and dim == "stress":
        return True
    return not dim or dim == need.dimension


def _bound_ok(need: Need, f: Fact) -> bool:
    if need.bound in ("ge", "gt") and f.bound in ("le", "lt"):
        return False
    if need.bound in ("le", "lt") and f.bound in ("ge", "gt"):
        return False
    if not need.threshold and need.extreme == "max" and f.bound in ("ge", "gt"):
        return False
    return need.threshold or need.extreme != "min" or f.bound not in ("le", "lt")


def _usable(need: Need, f: Fact, text: str = "") -> bool:
    # "연장길이는 슬래브 두께의 4.5배": a length written as a multiple of another length
    multiple = f.unit == "배" and need.dimension in lx.MEASURED_DIMENSIONS and not need.unit and bool(
        lx.MULTIPLE_BASE_BEFORE.search(text[max(0, f.start - 12) : f.start])
    )
    if not f.value or not (_dimension_ok(need, f) or multiple) or not _bound_ok(need, f):
        return False
    if f.threshold and not need.threshold:
        return False
    if f.symbolic and (need.unit not in ("", "배") or need.dimension in ("length", "stress", "force", "speed")):
        return False
    qnums = {d.normalize() for d, _, _ in number_spans(need.question)}
    own = [d.normalize() for d, _, _ in number_spans(f.value)]
    return not (own and all(d in qnums for d in own))  # the question states this number: it asks for another


def _unit_score(u: Unit | None) -> float:
    return u.score if u is not None else 0.0


def score_fact(need: Need, f: Fact, hit: Hit, unit: Unit | None) -> float:
    """How well the fact answers the need (higher is better)."""
    text = hit.chunk.text
    sentence = text[f.quote_start : f.quote_end] if f.quote_start >= 0 else text
    clause = text[f.clause_start : f.start] if f.clause_start >= 0 and f.start >= 0 else ""
    frame = " ".join([sentence, *hit.chunk.clause_path, hit.chunk.doc.title])
    s = 1.5 * _unit_score(unit) + 0.1 / hit.rank
    topic = topic_of(sentence) if f.kind == "text" else ""
    if need.head:
        h = norm(canonical_terms(need.head))
        local = norm(canonical_terms(" ".join([f.subject, clause, topic])))
        s += 0.8 if h and h in local else (0.4 * coverage(bigrams(h), bigrams(local)) if h else 0.0)
    if need.subject:
        s += 0.4 * _cover(need.subject, " ".join([f.subject, clause, sentence]))
    if f.kind == "text" and len(_grams(clause)) >= 2:
        s += 0.5 * _cover(clause, need.question)  # the words leading to the value are the question's (a list item)
    for c in need.conditions:
        s += 0.3 * _cover(c, frame) + 0.5 * words_covered(c, " ".join([clause, topic, *f.cases])) - 0.3
    qconds = question_conditions(need.question)
    qnums = {d.normalize() for d, _, _ in number_spans(need.question)}
    for c in f.cases:
        if re.fullmatch(r"\d+(?:\.\d+)?", c.strip()):  # the number it stands for ("각각")
            s += 1.0 if Decimal(c.strip()).normalize() in qnums else -1.5
            continue
        iv = interval(c) if f.kind == "cell" and not re.search(r"[가-힣]{2,}", c) else None
        if iv is not None and qnums:  # a row of a range ("6 < t ≤ 13") for the question's number
            s += 1.0 if any(in_interval(x, iv) for x in qnums) else -1.5
            continue
        cov = max(words_covered(alt, need.question) for alt in alternatives(c))
        ag = agreement(qconds, c) if qconds else 0
        if ag > 0:
            cov = 1.0
        s += 0.6 * cov - 0.5  # a case the question does not state counts against the fact
        if ag < 0 or lx.negation_disagrees(c, need.question):
            s -= 1.5  # written for another numeric range, or the negation of the question's case
    own = " ".join([f.subject, clause, *f.cases])
    if any(_cover(x, own) >= 1.0 for x in need.excluded):
        s -= 1.5  # "팽창성이 아닌 그라우트": the fact is for the case the question rules out
    if need.unit and f.unit and lx.same_unit(need.unit, f.unit):
        s += 0.5
    if need.bound and f.bound:
        s += 0.3 if (need.bound in ("ge", "gt")) == (f.bound in ("ge", "gt")) else -0.6
    if need.extreme and f.bound:
        s += 0.2 if (need.extreme == "min") == (f.bound in ("ge", "gt")) else 0.0
    if need.threshold and f.threshold:
        s += 0.4
    if f.kind == "cell":
        labels = " ".join(f.cases)
        s += 0.5 * _cover(labels, need.question) + 0.3 * _cover(need.question, labels + " " + f.subject)
    return s


def _unit_of(f: Fact, hit: Hit, units: Sequence[Unit]) -> Unit | None:
    best: Unit | None = None
    for u in units:
        if u.hit.chunk.chunk_id != hit.chunk.chunk_id:
            continue
        inside = u.start <= max(f.start, 0) < u.end or (f.quote_start < u.end and u.start < f.quote_end)
        if inside and (best is None or u.score > best.score):
            best = u
    return best


def candidates(need: Need, hits: Sequence[Hit], ranked: Sequence[Unit]) -> list[Candidate]:
    out: list[Candidate] = []
    for rank, h in enumerate(hits[:TOP]):
        c = h.chunk
        facts = c.facts or chunk_facts(c.kind, c.text, c.table)  # a chunk indexed before facts existed
        for f in facts:
            # a multiple ("슬래브 두께의 4.5배") for a length asked: from the first passage, and only when its
            # sentence writes no value in the asked dimension itself ("0.7배 이상이어야 하며 최소 2.5 m")
            multiple_ok = rank == 0 and f.unit == "배" and not any(
                g.quote_start == f.quote_start and g.unit and lx.unit_dimension(g.unit) == need.dimension for g in facts
            )
            if not _usable(need, f, c.text if multiple_ok else ""):
                continue
            u = _unit_of(f, h, ranked)
            sentence = h.chunk.text[f.quote_start : f.quote_end] if f.quote_start >= 0 else ""
            out.append(Candidate(f, h, score_fact(need, f, h, u), sentence))
    out.sort(key=lambda c: -c.score)
    return out


def _shown_value(c: Candidate) -> tuple[str, str]:
    """The value and unit as the document writes them: with "각각"/"모두" and a bound written after it kept in the
    value ("각각 1.0 m 이하", "12 mm 이상": 12 mm alone would read as an exact size), unit then empty."""
    text, f = c.hit.chunk.text, c.fact
    if f.start < 0 or f.kind != "text":
        return f.value, f.unit
    value = " ".join(text[f.start : f.end].split())
    if not f.bound:
        return value, f.unit
    m = re.match(rf"\s*{re.escape(f.unit)}" if f.unit else r"", text[f.end :])
    after = f.end + (m.end() if m else 0)
    b = re.compile(r"\s*(이하|이상|미만|이내)").match(text, after)  # the bounds a value is written with
    if b is None:
        return value, f.unit  # "… 를 초과하지 않도록": the bound is a verb; keep number and unit
    return " ".join(text[f.start : b.end()].split()), ""


NEXT_TRIES = 4  # further candidates (other values) the pipeline may put to the verifier when the first fails


def _draft(need: Need, c: Candidate, cands: Sequence[Candidate]) -> Draft:
    f = c.fact
    alts = tuple(
        Alternative(" · ".join(o.fact.cases) or o.hit.chunk.clause, o.fact.value, o.fact.unit)
        for o in cands[:6]
        if o is not c and norm(o.fact.value) != norm(f.value) and o.fact.subject == f.subject and o.hit is c.hit
    )[:3]
    quote = c.sentence or f.value
    value, unit = _shown_value(c)
    return Draft(
        need.qtype,
        value=value,
        unit=unit,
        condition=" · ".join(f.cases),
        requirements=(lx.strip_item(quote),) if f.kind == "text" else (),  # the sentence that states it
        alternatives=alts if need.qtype == "conditional" else (),
        evidence=(Evidence(c.hit.chunk.chunk_id, quote),),
        from_table=f.kind == "cell",
        notes={"score": round(c.score, 3), "bound": f.bound, "fact": True},
    )


def answer_value(need: Need, hits: Sequence[Hit], ranked: Sequence[Unit]) -> Draft | None:
    """A draft from the best fact, or None when no fact fits. The next best facts of other values (at most
    ``NEXT_TRIES``, each within reach of the best) ride along in ``notes["next"]``: when the verifier finds the
    first does not answer the question, the pipeline puts the next one to it — the verifier alone decides."""
    cands = candidates(need, hits, ranked)
    if not cands or cands[0].score < MIN_SCORE:
        return None
    best = cands[0]
    seen = {norm(best.fact.value)}
    nxt: list[Draft] = []
    for c in cands[1:]:
        if len(nxt) >= NEXT_TRIES or c.score < MIN_SCORE:
            break
        if norm(c.fact.value) in seen:
            continue
        seen.add(norm(c.fact.value))
        nxt.append(_draft(need, c, cands))
    d = _draft(need, best, cands)
    return replace(d, notes={**d.notes, "next": tuple(nxt)})
