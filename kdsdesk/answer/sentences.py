"""Evidence units (the sentences and lines of the retrieved chunks) and how well each one matches a question.

A unit's score is built from generic signals, each one a rule that holds for any KDS standard:

- **terms**: the question's content morphemes (Kiwi, via ``kdsdesk.text.korean``: particles and endings dropped,
  compounds glued, then cut into character bigrams so "공칭전단강도" meets "공칭 전단강도") found in the unit,
  each weighted by how rare it is among the candidate units (a word every sentence shares decides nothing);
- **context**: words the unit does not write but means — the explanation of each symbol it uses, from the
  "기호 : 설명" lines of the same document ("√f_ck" is "콘크리트의 설계기준압축강도"'s root), for a list item
  (①, 가.) the sentence that introduces the list ("다음의 경우는 제외한다"), for "이때 …" the sentence before;
  these count at a reduced weight; a display equation's caption — the sentences that refer to it by number and
  are written for the question's case — counts fully when the question is about a formula;
- **symbols**: the share of the question's symbols (``V_n``, ``C_w``) the unit writes;
- **conditions**: +/- when the numeric condition the unit is written for agrees with / excludes the question's
  (``kdsdesk.text.conditions``: "4.5 m/h를 넘으면" vs "4.5 m/h를 초과하는 경우" / "4.5 m/h 이하인 경우"),
  and when the negation of its condition clause agrees / disagrees ("고려하지 않는 경우" vs "고려되는 경우");
- **exceptions**: a "다만, …경우에는" sentence gains a little, with the sentence it qualifies as context, when
  the question states its condition, and loses a little when not (a question that does not name the exception
  asks for the rule);
- **topic**: a unit whose topic (the words before its first 은/는) is the question's topic ("조립압축재의 단부
  연결은 …?" — "단부 연결은 …") gains a little;
- the clause title and the hit's rank, a little.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from kdsdesk import lexicon as lx
from kdsdesk.records import Hit
from kdsdesk.text.conditions import Cond, agreement, question_conditions
from kdsdesk.text.match import bigrams, coverage
from kdsdesk.text.sentences import split_units
from kdsdesk.text.symbols import find_symbols, normalize

TOP_HITS = 6
CONTEXT_WEIGHT = 0.5  # a word met only in a unit's context (symbol explanation, list lead) counts this much
SYMBOL_WEIGHT = 0.3
CONDITION_WEIGHT = 0.4
EXCEPTION_WEIGHT = 0.2
INHERIT_GAP = 0.05  # a bound on the sentence before it ranks just below that sentence
NEGATION_WEIGHT = 0.15
TOPIC_WEIGHT = 0.2

_WHERE = re.compile(r"^\s*(?:여기서\s*,?\s*)?(?P<sym>[^\s:：가-힣][^:：가-힣]{0,24}?)\s*[:：]\s*(?P<desc>.+)$")
_EQUATION = re.compile(r"[=≤≥<>]")
_LABEL = re.compile(r"\(\s*([A-Z]?\d+(?:\.\d+)*\s*-\s*\d+)\s*\)\s*$")  # "(4.2-3)" ending an equation line


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
            for a, b in split_units(line) if h.chunk.kind != "table" else [(0, len(line))]:
                s, e = _trim(text, pos + a, pos + b)
                if e > s:
                    out.append(Unit(h, s, e))
            pos += len(line) + 1
    return out


def is_equation(text: str) -> bool:
    """A display-equation line: a relation sign and little Hangul."""
    return bool(_EQUATION.search(text)) and len(re.findall(r"[가-힣]", text)) <= len(text) // 5


def where_symbol(text: str) -> str:
    """The symbol a "여기서, V_c : 설명" line explains ("V_c"), "" when the line is not one."""
    m = _WHERE.match(text)
    return m.group("sym").strip() if m else ""


def is_item(text: str) -> bool:
    """A list item (①, 가., 1), a)) — not a numbered paragraph "(1)"."""
    return bool(lx.SUB_ITEM_MARK.match(text))


def symbols_of(text: str) -> set[str]:
    """Symbol tokens written in ``text`` (``V_n`` → ``vn``), units and numbers left out."""
    out: set[str] = set()
    for s in find_symbols(normalize(text)):
        tok = s.tokens[0]
        if tok and not tok[0].isdigit() and tok not in lx.UNIT_TOKENS:
            out.add(tok)
    return out


# -- the question -----------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Query:
    """What a question is matched with: content bigrams, symbols, numeric conditions."""

    grams: frozenset[str]
    symbols: frozenset[str]
    conds: tuple[Cond, ...]


_CONTENT_TAGS = ("NNG", "NNP", "NR", "XR", "VV", "VA", "XSN", "SL", "SN", "SH")


def content_words(question: str) -> list[str]:
    """The question's words as written, each cut to its content morphemes (Kiwi decides where the particle or
    ending starts: "겹침이음의" → "겹침이음", "계산할" → "계산"); Hangul only (symbols and numbers are matched
    apart), question words and single syllables dropped."""
    from kdsdesk.text.korean import get_kiwi

    q = unicodedata.normalize("NFKC", question)
    toks = get_kiwi().tokenize(q)
    out: list[str] = []
    for m in re.finditer(r"\S+", q):
        spans = [
            (t.start, t.start + t.len)
            for t in toks
            if m.start() <= t.start < m.end()
            and str(t.tag).split("-", 1)[0] in _CONTENT_TAGS
            and t.form not in lx.ASKING_MORPHEMES
        ]
        if not spans:
            continue
        w = re.sub(r"[^가-힣]", "", q[min(a for a, _ in spans) : max(b for _, b in spans)])
        if len(w) >= 2:
            out.append(w)
    return out


def topic_term(question: str) -> str:
    """The word a question is about: the word carrying its first topic particle ("거푸집 설계에서 말하는
    작업하중은 …" → "작업하중"; "전단마찰이란 …" → "전단마찰"), as written; "" when none."""
    from kdsdesk.text.korean import get_kiwi

    q = unicodedata.normalize("NFKC", question)
    toks = get_kiwi().tokenize(q)
    for t in toks:
        if str(t.tag) == "JX" and t.form in lx.TOPIC_PARTICLES and t.start > 0:
            ws = q.rfind(" ", 0, t.start) + 1
            while ws > 1:  # a noun phrase: earlier words that are nouns only ("비세장판 단면이란")
                prev = q.rfind(" ", 0, ws - 1) + 1
                word = [x for x in toks if prev <= x.start < ws - 1]
                if not word or any(str(x.tag).split("-")[0] not in _NOUN_TAGS for x in word):
                    break
                ws = prev
            return q[ws : t.start].strip()
    return ""


_NOUN_TAGS = frozenset({"NNG", "NNP", "NNB", "NR", "XPN", "XSN", "SL", "SN", "SH"})


def _same_topic(topic: str, text: str) -> bool:
    ut = unit_topic(text)
    return bool(ut) and coverage(bigrams(topic), bigrams(ut)) == 1.0 and coverage(bigrams(ut), bigrams(topic)) >= 0.5


def unit_topic(text: str) -> str:
    """The topic of a requirement sentence: the (last two) words before its first 은/는 ("… 단부 연결은 …")."""
    m = lx.SENTENCE_TOPIC.search(lx.SUB_ITEM_MARK.sub("", re.sub(r"^\s*\(\d+\)\s*", "", text)))
    if not m:
        return ""
    return " ".join(m.group(1).split()[-2:])


def query(question: str) -> Query:
    grams: set[str] = set()
    for w in content_words(question):
        grams |= bigrams(w)
    grams -= lx.ASKING_GRAMS
    return Query(frozenset(grams), frozenset(symbols_of(question)), tuple(question_conditions(question)))


# -- context of a unit ------------------------------------------------------------------------------------------
def glossary(us: Sequence[Unit]) -> dict[tuple[str, str], str]:
    """``(document, symbol) → explanation`` from the "기호 : 설명" lines of the units' chunks."""
    out: dict[tuple[str, str], str] = {}
    seen: set[str] = set()
    for u in us:
        c = u.hit.chunk
        if c.chunk_id in seen or c.kind == "table":
            continue
        seen.add(c.chunk_id)
        for line in c.text.split("\n"):
            m = _WHERE.match(line)
            if not m or re.search(r"[가-힣]", m["sym"]):
                continue
            syms = symbols_of(m["sym"])
            if len(syms) == 1:
                out.setdefault((c.doc.file, next(iter(syms))), m["desc"])
    return out


def lead_of(u: Unit, us: Sequence[Unit]) -> Unit | None:
    """For a list item, the nearest sentence before it that is not an item itself: in the same chunk, or — when
    the chunk starts inside the list — at the end of the previous chunk of the same clause, if retrieved."""
    c = u.hit.chunk
    if not is_item(u.text):
        return _lines_lead(u, us)

    def last_lead(chunk_id: str, before: int) -> Unit | None:
        lead = None
        for v in us:
            if v.hit.chunk.chunk_id != chunk_id or v.start >= before:
                continue
            if not is_item(v.text) and not is_equation(v.text) and not _WHERE.match(v.text):
                lead = v if lead is None or v.start > lead.start else lead
        return lead

    lead = last_lead(c.chunk_id, u.start)
    if lead is None:
        prev = next(
            (v.hit.chunk for v in us if v.hit.chunk.doc.file == c.doc.file and v.hit.chunk.ordinal == c.ordinal - 1
             and v.hit.chunk.clause == c.clause),
            None,
        )  # fmt: skip
        if prev is not None:
            lead = last_lead(prev.chunk_id, len(prev.text) + 1)
    return lead


def _lines_lead(u: Unit, us: Sequence[Unit]) -> Unit | None:
    """For an unmarked list line ("단일 래티스 경우: 60° 이상"), the "… 다음과 같이 한다." sentence above the
    lines of its list in the same chunk."""
    before = sorted(
        (v for v in us if v.hit.chunk.chunk_id == u.hit.chunk.chunk_id and v.end <= u.start), key=lambda v: -v.start
    )
    for v in before:
        if re.search(r"다\.?\s*$", v.text):
            return v if "다음" in v.text else None
    return None


def context_grams(u: Unit, us: Sequence[Unit], gloss: dict[tuple[str, str], str], question: str = "") -> set[str]:
    """Bigrams of what the unit means but does not write: its symbols' explanations, its list lead, the rule an
    exception the question asks about qualifies."""
    out: set[str] = set()
    doc = u.hit.chunk.doc.file
    if not _WHERE.match(u.text):
        for s in symbols_of(u.text):
            desc = gloss.get((doc, s))
            if desc:
                out |= bigrams(desc)
    lead = lead_of(u, us) or (parent_of(u, us) if exception_asked(question, u.text) else None)
    if lead is not None:
        out |= bigrams(lead.text)
    return out


def caption_grams(u: Unit, us: Sequence[Unit], q: Query, question: str) -> set[str]:
    """For a display equation, the bigrams of the sentences that refer to it by number ("기둥 거푸집의 측압은
    식 (4.2-3)에 따라 산정한다" captions equation 4.2-3) — those written for another case than the question's
    left out."""
    label = equation_label(u.text) if is_equation(u.text) else ""
    out: set[str] = set()
    if label:
        doc = u.hit.chunk.doc.file
        for v in us:
            if v.hit.chunk.doc.file == doc and not is_equation(v.text) and refers_to(v.text, label):
                if agreement(list(q.conds), v.text) < 0 or negation_agreement(question, v.text) < 0:
                    continue
                out |= bigrams(v.text)
    return out


def _cond_part(text: str) -> str | None:
    m = lx.CONDITION_PART.search(text)
    return m.group(1) if m else None


def negation_agreement(question: str, text: str) -> int:
    """+1 / -1 / 0: the condition clause (before "경우/때/면") of the question and of the unit are both or
    neither negated / one is ("고려하지 않는 경우" against "고려되는 경우") / either states no condition."""
    qc, uc = _cond_part(question), _cond_part(text)
    if qc is None or uc is None:
        return 0
    return 1 if bool(lx.NEGATION.search(qc)) == bool(lx.NEGATION.search(uc)) else -1


def equation_label(text: str) -> str:
    """The number of a display equation ("4.2-3" of "p = … (4.2-3)"), "" when none."""
    m = _LABEL.search(text)
    return re.sub(r"\s+", "", m.group(1)) if m else ""


def refers_to(text: str, label: str) -> bool:
    """The sentence refers to equation ``label`` ("식 (4.2-3)에 따라")."""
    return any(re.sub(r"\s+", "", m.group(1)) == label for m in re.finditer(r"식\s*\(\s*([^()]{1,16})\)", text))


def is_exception(text: str) -> bool:
    """ "다만, …경우에는 …": an exception to the rule before it."""
    return bool(lx.EXCEPTION_OPEN.match(text))


def exception_asked(question: str, text: str) -> bool:
    """The question states the exception's own condition (the words between "다만," and "경우에는"; one
    alternative of "…거나 …" / "… 또는 …" is enough)."""
    m = lx.EXCEPTION_OPEN.match(text)
    if not m:
        return True
    rest = text[m.end() :]
    e = lx.CASE_END.search(rest)
    cond = rest[: e.start()] if e else rest
    qg = bigrams(question)
    return any(coverage(bigrams(part), qg) >= 0.5 for part in re.split(r"거나|또는|,", cond) if part.strip())


def bounds_parent(text: str) -> bool:
    """ "다만, 이때 구한 l_d는 항상 200 mm 이상": an exception without a case of its own that bounds the result of
    the sentence before it — asked whenever that sentence is, not a case the question must state."""
    m = lx.EXCEPTION_OPEN.match(text)
    if not m:
        return False
    rest = text[m.end() :]
    o = lx.CONTINUATION_OPEN.match(rest) or lx.THIS_VALUE_OPEN.match(rest)
    return o is not None and not lx.CASE_END.search(rest[o.end() :])


def continues(text: str) -> bool:
    """ "이때 …", "이 경우 …": a sentence that goes on about the one before it."""
    return bool(lx.CONTINUATION_OPEN.match(text))


def parent_of(u: Unit, us: Sequence[Unit]) -> Unit | None:
    """For an exception ("다만, …") or a continuation ("이때 …"), the sentence just before it in the chunk."""
    if not (is_exception(u.text) or continues(u.text)):
        return None
    prev = [v for v in us if v.hit.chunk.chunk_id == u.hit.chunk.chunk_id and v.end <= u.start]
    return max(prev, key=lambda v: v.start) if prev else None


# -- scoring ----------------------------------------------------------------------------------------------------
def _weights(q: Query, grams_of: Sequence[set[str]]) -> dict[str, float]:
    n = len(grams_of)
    df: Counter[str] = Counter()
    for g in grams_of:
        df.update(q.grams & g)
    return {g: math.log((n + 1) / (df[g] + 0.5)) for g in q.grams}


def score_units(question: str, us: Sequence[Unit]) -> list[Unit]:
    """Units by how well they match the question (see the module docstring), best first."""
    if not us:
        return []
    q = query(question)
    gloss = glossary(us)
    own = [bigrams(u.text) for u in us]
    w = _weights(q, own)
    total = sum(w.values()) or 1.0
    qg = set(q.grams)
    formula = bool(lx.FORMULA_WORDS.search(question)) and bool(q.symbols)
    topic = topic_term(question)
    scored = []
    for u, ug in zip(us, own, strict=True):
        cap = caption_grams(u, us, q, question) - ug
        ctx = context_grams(u, us, gloss, question) - ug - cap
        cap_w = 1.0 if formula else CONTEXT_WEIGHT
        s = sum(w[g] for g in qg & ug) + cap_w * sum(w[g] for g in qg & cap)
        s = (s + CONTEXT_WEIGHT * sum(w[g] for g in qg & ctx)) / total
        title = " ".join(u.hit.chunk.clause_path[-1:])
        s += 0.3 * coverage(qg, bigrams(title)) + 0.1 / u.hit.rank
        if q.symbols:
            s += SYMBOL_WEIGHT * len(q.symbols & symbols_of(u.text)) / len(q.symbols)
        if q.conds:
            s += CONDITION_WEIGHT * agreement(list(q.conds), u.text)
        s += NEGATION_WEIGHT * negation_agreement(question, u.text)
        if topic and _same_topic(topic, u.text):
            s += TOPIC_WEIGHT
        if is_exception(u.text) and not bounds_parent(u.text):
            s += EXCEPTION_WEIGHT if exception_asked(question, u.text) else -EXCEPTION_WEIGHT
        if formula and is_equation(u.text):
            s += len(q.symbols & symbols_of(u.text)) / len(q.symbols) + 0.3 * coverage(qg, bigrams(title))
        scored.append(Unit(u.hit, u.start, u.end, s))
    for i, u in enumerate(us):  # a bound on the result of the sentence before it is read with that sentence
        p = parent_of(u, us) if bounds_parent(u.text) else None
        if p is not None:
            ps = scored[us.index(p)].score - INHERIT_GAP
            if ps > scored[i].score:
                scored[i] = Unit(u.hit, u.start, u.end, ps)
    return sorted(scored, key=lambda x: -x.score)
