"""The extractive answerer (no LLM): read the answer from the best evidence by rules, in the answer JSON's shape.

- Evidence units: the sentences and lines of the top hits (``units``), scored by the share of the question's
  content bigrams they contain, plus a little for the chunk's clause title and the hit rank.
- Value questions: a table hit is read cell-wise (``kdsdesk.answer.tables``); in text, every number of the
  best units is a candidate, scored by its unit (the unit asked for wins), the words after it (이상/이하 against
  최소/최대), its distance to the question's terms and its unit's score. Numbers that are clause, table,
  equation or item references, or that the question itself states, are never candidates. Two different values
  within a small margin make the draft ``ambiguous`` (→ restricted).
- Requirements: the best unit carrying a requirement cue (하여야 한다, 이하로 한다, 원칙으로 한다 …).
- Definitions: "용어: 설명" lines and "~을 말한다" sentences; "X이란?" reads the line whose term matches X,
  "…을 무엇이라 하나요?" the line whose explanation matches the question, and answers with its term.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from kdsdesk.answer.match import bigrams, coverage, question_grams
from kdsdesk.answer.qtype import UNITS, QuestionInfo
from kdsdesk.answer.schema import Draft, Evidence
from kdsdesk.answer.tables import read_table
from kdsdesk.records import Alternative, Chunk, Hit
from kdsdesk.text.chunk import split_sentences
from kdsdesk.text.normalize import norm
from kdsdesk.verify.values import number_spans

TOP_HITS = 6
VALUE_MARGIN = 0.15

_UNIT_ALT = "|".join(re.escape(u) for u in sorted(UNITS, key=len, reverse=True))
_UNIT_AT = re.compile(rf"\s*({_UNIT_ALT})(?![A-Za-z가-힣])|\s*(배|°|%)")
_ITEM = re.compile(r"^\s*(\(\d+\)|[①-⑳]|[가-하]\.|\d+\)|[-·•])\s*")
_REF_BEFORE = re.compile(r"(식|표|그림|제|KDS|KCS|KS\s*[A-Z]?)\s*\(?\s*(\d{2,4}\s+){0,2}$")
_REQ_CUE = re.compile(
    r"(하여야\s*한다|해야\s*한다|이어야\s*한다|여야\s*한다|로\s*한다|으로\s*한다|원칙으로\s*한다|할\s*수\s*있다|"
    r"아니한다|않는다|적용한다|따른다|산정한다|설계한다|사용한다|배치한다|구성한다|한다)"
)
_DEF_LINE = re.compile(r"^\s*([^:：]{1,40}?)\s*[:：]\s*(.+)$")
_DEF_SENT = re.compile(r"(을|를)\s*말한다|(이)?라\s*한다|(이)?라고\s*한다")
_MAX_CUE = re.compile(r"최대|상한|이하|넘지|초과하지|까지")
_MIN_CUE = re.compile(r"최소|하한|이상|최솟값")


@dataclass(frozen=True, slots=True)
class Unit:
    """A sentence or line of a hit's chunk: ``chunk.text[start:end]``."""

    hit: Hit
    start: int
    end: int
    score: float = 0.0

    @property
    def text(self) -> str:
        return self.hit.chunk.text[self.start : self.end]


def _trim(text: str, a: int, b: int) -> tuple[int, int]:
    while a < b and text[a].isspace():
        a += 1
    while b > a and text[b - 1].isspace():
        b -= 1
    return a, b


def units(hits: Sequence[Hit], top: int = TOP_HITS) -> list[Unit]:
    """Sentences/lines of the top hits (table chunks: one unit per line)."""
    out: list[Unit] = []
    for h in hits[:top]:
        text = h.chunk.text
        pos = 0
        for line in text.split("\n"):
            for a, b in split_sentences(line) if h.chunk.kind != "table" else [(0, len(line))]:
                s, e = _trim(text, pos + a, pos + b)
                if e > s:
                    out.append(Unit(h, s, e))
            pos += len(line) + 1
    return out


def score_units(question: str, us: Sequence[Unit]) -> list[Unit]:
    qg = question_grams(question)
    scored = []
    for u in us:
        ug = bigrams(u.text)
        title = bigrams(" ".join(u.hit.chunk.clause_path[-1:]))
        s = coverage(qg, ug) + 0.3 * coverage(qg, title) + 0.1 / u.hit.rank
        scored.append(Unit(u.hit, u.start, u.end, s))
    return sorted(scored, key=lambda x: -x.score)


# -- values ------------------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class _Cand:
    value: str
    unit: str
    score: float
    unit_obj: Unit


def _question_numbers(question: str) -> set[str]:
    return {str(d.normalize()) for d, _, _ in number_spans(question)}


_CODE = re.compile(r"(?<!\d)\d{2}\s\d{2}\s\d{2}(?!\d)")


def _is_reference(text: str, a: int, b: int) -> bool:
    """A number that is a clause, table, equation, item or code reference: 식 (4.2-1), 표 4.1-1, 4.2.3, (1)."""
    before, after = text[max(0, a - 12) : a], text[b : b + 16]
    if _REF_BEFORE.search(before) or re.match(r"[.\-]\d", after):
        return True
    if any(m.start() <= a and b <= m.end() for m in _CODE.finditer(text, max(0, a - 6), b + 6)):
        return True
    if re.search(r"\d[.\-]$", before):  # the tail of 4.2-1 or 4.2.3
        return True
    return before.endswith("(") and after.startswith(")") and not re.search(r"\w\s*$", before[:-1])


def _value_candidates(question: str, info: QuestionInfo, u: Unit) -> list[_Cand]:
    text = unicodedata.normalize("NFKC", u.text)
    qnums = _question_numbers(question)
    qg = question_grams(question)
    out: list[_Cand] = []
    # where the question's terms occur in the unit (normalised bigram hits, by original offset)
    hits_at = [i for i in range(len(text) - 1) if norm(text[i : i + 2]) in qg]
    for d, a, b in number_spans(text):
        after = text[b : b + 16]
        if _is_reference(text, a, b):
            continue
        if str(d.normalize()) in qnums:
            continue
        m = _UNIT_AT.match(after)
        unit = (m.group(1) or m.group(2)) if m else ""
        s = u.score
        if info.unit:
            s += 1.0 if unit and norm(unit) == norm(info.unit) else (-0.6 if unit else -0.3)
        elif unit in ("%", "배"):
            s -= 0.2  # not asked for
        tail = after[len(m.group(0)) if m else 0 :]
        if _MAX_CUE.search(question) and re.match(r"\s*(이하|까지|를\s*초과하지|을\s*초과하지)", tail):
            s += 0.3
        if _MIN_CUE.search(question) and re.match(r"\s*(이상)", tail):
            s += 0.3
        if hits_at:
            dist = min(abs(i - a) for i in hits_at)
            s += 0.3 / (1 + dist / 10)
        value = text[a:b]
        out.append(_Cand(value, unit, s, u))
    return out


def _value_from_text(question: str, info: QuestionInfo, ranked: Sequence[Unit]) -> Draft | None:
    cands: list[_Cand] = []
    for u in ranked[:5]:
        if u.score <= 0.2:
            break
        cands.extend(_value_candidates(question, info, u))
    if not cands:
        return None
    cands.sort(key=lambda c: -c.score)
    best = cands[0]
    rival = next((c for c in cands[1:] if norm(c.value) != norm(best.value)), None)
    ambiguous = rival is not None and best.score - rival.score < VALUE_MARGIN
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
        notes={"score": round(best.score, 3), "margin": round(best.score - rival.score, 3) if rival else None},
    )  # fmt: skip


def _value_from_tables(question: str, info: QuestionInfo, hits: Sequence[Hit]) -> tuple[Draft, float] | None:
    best: tuple[Draft, float] | None = None
    for h in hits[:TOP_HITS]:
        t = h.chunk.table
        if h.chunk.kind != "table" or t is None:
            continue
        cr = read_table(question, t, info.unit)
        if cr is None:
            continue
        rows = t.rows_text()
        quote = rows[cr.row] if cr.row < len(rows) else cr.value
        score = cr.score + 0.5 / h.rank
        d = Draft(
            info.qtype, value=cr.value, unit=cr.unit, condition=" · ".join([*cr.row_labels, *cr.col_headers[-1:]]),
            alternatives=cr.alternatives if info.qtype == "conditional" else (),
            evidence=(Evidence(h.chunk.chunk_id, quote),), from_table=True, ambiguous=cr.ambiguous,
            notes={"score": round(cr.score, 3), "margin": round(cr.margin, 3), "table": t.number},
        )  # fmt: skip
        if best is None or score > best[1]:
            best = (d, score)
    return best


def answer_value(question: str, info: QuestionInfo, hits: Sequence[Hit], ranked: Sequence[Unit]) -> Draft:
    table = _value_from_tables(question, info, hits)
    text = _value_from_text(question, info, ranked)
    # a table read that matched its row and column well beats text; else the better-ranked evidence
    if table is not None and table[1] >= 2.5:
        return table[0]
    if text is not None and (table is None or (ranked and ranked[0].hit.chunk.kind != "table")):
        return text
    if table is not None:
        return table[0]
    return Draft(info.qtype, evidence=_evidence(ranked))


# -- requirements and definitions ----------------------------------------------------------------------------------
def _evidence(ranked: Sequence[Unit], n: int = 3) -> tuple[Evidence, ...]:
    return tuple(Evidence(u.hit.chunk.chunk_id, u.text) for u in ranked[:n] if u.score > 0)


def _strip_item(text: str) -> str:
    return _ITEM.sub("", text, count=1).strip()


def answer_requirement(info: QuestionInfo, ranked: Sequence[Unit]) -> Draft:
    for u in ranked[:8]:
        if u.score < 0.3:
            break
        if _REQ_CUE.search(u.text) and u.hit.chunk.kind != "table":
            req = _strip_item(u.text)
            return Draft("regulation", requirements=(req,), evidence=(Evidence(u.hit.chunk.chunk_id, u.text),))
    return Draft("regulation", evidence=_evidence(ranked))


def _term_asked(question: str) -> str:
    m = re.match(r"\s*(.+?)\s*(이란|란|은|는|의\s*정의|의\s*뜻)\s", question + " ")
    return m.group(1) if m else ""


def answer_definition(question: str, info: QuestionInfo, ranked: Sequence[Unit]) -> Draft:
    qg = question_grams(question)
    term_q = _term_asked(question)
    best: tuple[float, Unit, str, str] | None = None
    for u in ranked[:12]:
        line = _strip_item(u.text)
        m = _DEF_LINE.match(line)
        if m:
            term, expl = m.group(1).strip(), m.group(2).strip()
        elif _DEF_SENT.search(line):
            term, expl = "", line
        else:
            continue
        if info.asks_term:
            s = coverage(bigrams(expl), bigrams(question)) + 0.5 * coverage(qg, bigrams(expl))
        else:
            s = 2.0 * coverage(bigrams(term or line), bigrams(term_q or question)) + 0.3 * u.score
            if term and term_q and norm(term) == norm(term_q):
                s += 2.0
        if best is None or s > best[0]:
            best = (s, u, term, expl)
    if best is None or best[0] < 0.5:
        return Draft("definition", evidence=_evidence(ranked))
    _, u, term, expl = best
    definition = _strip_item(u.text) if info.asks_term else expl
    return Draft(
        "definition", term=term or term_q, definition=definition, evidence=(Evidence(u.hit.chunk.chunk_id, u.text),)
    )


def answer(question: str, info: QuestionInfo, hits: Sequence[Hit]) -> Draft:
    """An extractive draft for ``question`` of type ``info.qtype`` from ``hits``."""
    ranked = score_units(question, units(hits))
    if info.qtype in ("numeric", "conditional"):
        return answer_value(question, info, hits, ranked)
    if info.qtype == "regulation":
        return answer_requirement(info, ranked)
    return answer_definition(question, info, ranked)


def chunk_of(hits: Sequence[Hit], chunk_id: str) -> Chunk | None:
    return next((h.chunk for h in hits if h.chunk.chunk_id == chunk_id), None)
