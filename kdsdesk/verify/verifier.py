"""Verification of a draft answer, independent of how it was found: does the quote answer *this* question?

``verify(need, draft, hits)`` reads the evidence again itself — it never calls the answerer nor uses its scores —
and returns named checks that :mod:`kdsdesk.verify.policy` turns into a status:

- provenance: every quote lies in a retrieved chunk (``kdsdesk.verify.quotes``);
- a value: its numbers are in the quote (``value_in_quote``), its unit after them or in the table's headers; the
  verifier's own reading of the value in its sentence or cell (``kdsdesk.verify.readings``) fills every slot of
  the need (``kdsdesk.verify.align``: ``need_subject``, ``need_conditions``, ``need_own_cases``, ``need_bound``,
  ``need_unit``, ``need_threshold``, ``need_ordinal``; ``need_modifiers`` only caps it at a warning, from the
  first passage and with every asked word in the cited standard); and no other reading of the retrieved evidence
  matches the need as well with another value (``unique``; a reading matched only softly never rivals a full
  one) — when several do, they are listed as alternatives and nothing is confirmed;
- a requirement: its text is the document's (``text_in_quotes``), the quoted sentence is about what the question
  names (``need_subject``: its topic is in the question, and the question's words are in the sentence, not only
  around it), states the question's cases (``need_conditions``), and is not only a pointer elsewhere ("표 4.2-1에
  따른다") or the standard's scope sentence (``not_pointer``);
- a definition: the defined term is the one asked (``need_subject``), or — for "… 을 무엇이라 하나요" — the
  definition holds the question's description (``need_subject``);
- a formula: the answer holds the equation itself, not only the sentence that introduces it (``formula_given``);
- relevance: the share of the question's content words in the evidence (a rule, not a model).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from kdsdesk import lexicon as lx
from kdsdesk.records import Alternative, Chunk, Citation, Draft, Hit, Need
from kdsdesk.text import formula as fx
from kdsdesk.text.flat_tables import flat_cells, table_text_start
from kdsdesk.text.match import bigrams, content_words, coverage, words_covered
from kdsdesk.text.normalize import norm
from kdsdesk.verify.align import COVER, WORDS, amounts_missing, covered, match
from kdsdesk.verify.clauses import clause_in
from kdsdesk.verify.quotes import verify_quote
from kdsdesk.verify.readings import Reading, clause_spans, evidence_readings, reading_of_value
from kdsdesk.verify.values import relevance, table_context, text_in_quotes, unit_ok, value_in_quote

TOP = 6  # retrieved chunks whose readings compete with the answer's
RIVAL_MARGIN = 0.2  # a rival reading this close in score to the answer's, with another value: not unique
RELEVANCE_MIN = 0.3
DISTINCT = 0.6  # share of the question's distinctive nouns a requirement sentence must write
_EQUATION = re.compile(r"[=≤≥<>]")


@dataclass(frozen=True, slots=True)
class Verification:
    """What verification found: the draft (alternatives it could not verify dropped), the citations, the named
    checks, whether the value is a table cell, the reading that matched and the rivals listed as cases."""

    draft: Draft
    citations: tuple[Citation, ...]
    checks: dict[str, bool]
    from_table: bool = False
    reading: Reading | None = None
    rivals: tuple[Reading, ...] = field(default_factory=tuple)


def citations(draft: Draft, hits: Sequence[Hit]) -> tuple[list[Citation], bool]:
    """Verified citations of the draft's evidence, and whether every quote was found in a retrieved chunk."""
    out: list[Citation] = []
    ok = bool(draft.evidence)
    for ev in draft.evidence:
        c = verify_quote(ev.chunk_id, ev.quote, hits)
        if c is None or not c.verified:
            ok = False
        if c is not None:
            out.append(c)
    return out, ok


def _context(c: Citation) -> list[str]:
    return [c.quote, *c.chunk.clause_path[-1:], *_table_of(c)]


def _table_of(c: Citation) -> list[str]:
    """The caption and headers over a cited cell: of a table chunk, or of a table flattened into the text
    (``kdsdesk.text.flat_tables``) whose row the quote is."""
    if c.chunk.table is not None:
        return list(table_context(c))
    if c.start < 0:
        return []
    cells = [x for x in flat_cells(c.chunk.text) if c.start <= x.start < max(c.end, c.start + 1)]
    return [cells[0].header, *dict.fromkeys(x.column for x in cells if x.column)] if cells else []


def _clause_text(r: Reading, hits: Sequence[Hit]) -> list[str]:
    """Retrieved text that frames a reading from outside its chunk: for a table cell, the text of its clause
    around the table (a case such as "허용응력설계 시" is written in the sentence that points to the table); for a
    list item that opens its chunk, the chunk before it in the same clause (the list's lead)."""
    c = r.chunk
    same = [h.chunk for h in hits if h.chunk.doc.file == c.doc.file and h.chunk.clause == c.clause]
    if r.cell:
        return [x.text for x in same if x.kind != "table"]
    opens = lx.SUB_ITEM_MARK.match(c.text) or lx.EXCEPTION_OPEN.match(c.text) or lx.CONTINUATION_OPEN.match(c.text)
    if opens and c.text.find(r.sentence) <= 2:
        return [x.text for x in same if x.ordinal == c.ordinal - 1]
    parent, _, _ = _list_item(c.text, r.start)
    return [parent] if parent else []  # "(1) 엘리베이터 계획 및 설계" over "② 출입문의 폭은 0.8 m 이상"


def _list_item(text: str, pos: int) -> tuple[str, int, bool]:
    """For the list item whose line holds ``pos``: the item line above it in the chunk that it belongs to ("" when
    none), its place among the items of its level under that one (1 for the first; 0 when the line opens no item)
    and whether it is the last of them."""
    lines = text.split("\n")
    k = text[: max(pos, 0)].count("\n")
    level = lx.item_level(lines[k]) if k < len(lines) else -1
    if level < 0:
        return "", 0, False
    parent, place = "", 1
    for line in reversed(lines[:k]):
        other = lx.item_level(line)
        if 0 <= other < level:
            parent = line  # the item above them all
            break
        place += other == level
    later: list[int] = []
    for x in (lx.item_level(line) for line in lines[k + 1 :]):
        if 0 <= x < level:
            break
        later.append(x)
    return parent, place, level not in later


def _same_value(a: str, b: str) -> bool:
    return value_in_quote(a, b) and value_in_quote(b, a)


def _check_value(need: Need, draft: Draft, good: list[Citation], hits: Sequence[Hit]) -> Verification:
    checks: dict[str, bool] = {}
    holding = [c for c in good if value_in_quote(draft.value, c.quote, draft.unit)]
    checks["value_in_quote"] = bool(holding)
    checks["unit_in_quote"] = any(
        unit_ok(draft.value, draft.unit, c.quote, _table_of(c)) for c in holding
    )
    if fx.asked(need.question) is not None:
        # "… 에 곱하는 계수", "1/(T+18) 항의 상수": the value must stand in that relation to the product the
        # question names, in the quoted equation itself
        checks["formula_relation"] = any(fx.agrees(need.question, draft.value, _sentence_of(c)) for c in holding)
        return Verification(draft, tuple(good), checks)
    reads: list[tuple[Reading, Citation]] = []
    for c in holding:
        lo = c.start if c.start >= 0 else 0
        hi = c.end if c.end >= 0 else len(c.chunk.text)
        reads.extend((r, c) for r in reading_of_value(c.chunk, lo, hi, draft.value))
    if not reads:
        checks["need_reading"] = False
        return Verification(draft, tuple(good), checks)
    scored = [(match(need, r, _clause_text(r, hits)), r, c) for r, c in reads]
    scored.sort(key=lambda t: (not t[0].ok, not t[0].full, -t[0].score))  # a full match before a soft one
    best, reading, _cite = scored[0]
    checks.update({f"need_{k}": v for k, v in best.checks.items()})
    rivals: list[Reading] = []
    if best.ok:
        for r in evidence_readings(hits, TOP):
            same_place = r.chunk.chunk_id == reading.chunk.chunk_id and r.start == reading.start
            if same_place or _same_value(r.value, reading.value):
                continue
            if reading.unit and lx.unit_dimension(r.unit) != lx.unit_dimension(reading.unit):
                continue  # a value of another dimension measures something else
            m = match(need, r, _clause_text(r, hits), strict=True)
            if m.ok and m.score >= best.score - RIVAL_MARGIN and (m.full or not best.full):
                rivals.append(r)
        checks["unique"] = not rivals
    texts = [c.chunk.text for c in good]
    alts = tuple(a for a in draft.alternatives if a.value and any(value_in_quote(a.value, t, a.unit) for t in texts))
    if rivals:
        seen = {norm(reading.value)}
        listed: list[Alternative] = []
        for r in rivals:
            if norm(r.value) in seen:
                continue
            seen.add(norm(r.value))
            listed.append(Alternative(" · ".join(r.cases) or r.chunk.clause, r.value, r.unit))
        alts = tuple(listed[:4])
    # a number in a table's text read as a sentence's is a cell all the same: at most a warning
    in_table = reading.cell or table_text_start(reading.chunk.text, reading.start) >= 0
    return Verification(replace(draft, alternatives=alts), tuple(good), checks, in_table, reading, tuple(rivals))


def _sentence_of(c: Citation, lead: bool = False) -> str:
    """The quote widened to the whole sentence it is part of (``lead``: with the sentence before it, when the
    quoted one is a list item or goes on from it)."""
    text = c.chunk.text
    if c.start < 0:
        return c.quote
    a = max(text.rfind("\n", 0, c.start), text.rfind(". ", 0, c.start))
    if lead and a > 0 and (lx.SUB_ITEM_MARK.match(text[a + 1 :]) or lx.EXCEPTION_OPEN.match(text[a + 1 :])
                           or lx.CONTINUATION_OPEN.match(text[a + 1 :]) or lx.ITEM_MARK.match(text[a + 1 :])):
        a = max(text.rfind("\n", 0, a), text.rfind(". ", 0, a))
    end = max(c.start, c.end - 1)  # a quote that ends its sentence ("… 것이다.") ends there, not at the next one
    b_candidates = [x for x in (text.find("\n", end), text.find(". ", end)) if x >= 0]
    b = min(b_candidates) if b_candidates else len(text)
    return text[a + 1 : b + 1].strip()


def _clauses(sentence: str) -> list[str]:
    """The sentence and each clause after a comma or a connective ending ("…하고, …", "…하며 …")."""
    parts = [p for p in (sentence[a:b].strip() for a, b in clause_spans(sentence)) if p]
    return [sentence, *parts[1:]]


def _topic(sentence: str) -> str:
    s = lx.ITEM_MARK.sub("", sentence, count=1)
    m = re.search(r"^(.{2,40}?\S)(?:은|는)\s", s) or re.search(r"^(.{2,40}?\S)(?:을|를)\s", s)
    return m.group(1) if m else ""


def _distinctive(need: Need, frames: Sequence[str]) -> list[str]:
    """The question's nouns that say what it is about: not the cited document's or clause's own subject (title,
    clause path), not words that only say what kind of answer is wanted (방식, 원칙, 요구사항)."""
    fg = bigrams(" ".join(frames))
    words = need.nouns or need.terms
    return [
        t for t in words
        if t not in lx.GENERIC_WORDS and t not in lx.REQUEST_WORDS and coverage(bigrams(t), fg) < 0.5
    ]  # fmt: skip


def _own_case_asked(sentence: str, question: str) -> bool:
    """Whether a sentence that opens with a case of its own ("논의 경우 …", "방호벽일 경우 …") has it stated in the
    question — one of its alternatives ("…을 초과하거나 …없는 경우") is enough; a sentence without such a case,
    or whose case governs only its first clause ("…연결할 경우에는 중계레일을 사용하고 …"), passes."""
    own = lx.SENTENCE_CASE.match(sentence)
    if own is None or not content_words(own["case"]) or lx.READING_CLAUSE_CUT.search(sentence[own.end() :]):
        return True
    case = re.sub(r"(?<=[가-힣])의(?=\s|$)", "", own["case"])  # "논의 경우": the case is 논
    parts = [p for p in lx.CASE_OR.split(case) if content_words(p)]
    if not parts:  # one syllable ("논", "밭"): written as a word of the question
        return all(re.search(rf"(?<![가-힣]){w}", question) for w in re.findall(r"[가-힣]+", case))
    return any(covered(p, question) >= COVER or words_covered(p, question) >= 1.0 for p in parts)


def _check_requirement(need: Need, draft: Draft, good: list[Citation]) -> dict[str, bool]:
    quotes = [c.quote for c in good]
    reqs = [r for r in draft.requirements if r.strip()]
    checks = {"text_in_quotes": bool(reqs) and all(any(clause_in(r, q) for q in quotes) for r in reqs)}
    sentences = [_sentence_of(c) for c in good if c.chunk.kind != "table"] or quotes
    joined = " ".join(_sentence_of(c, lead=True) for c in good if c.chunk.kind != "table") or " ".join(quotes)
    frames = [t for c in good for t in (c.chunk.doc.title, *c.chunk.clause_path)]
    ask = _distinctive(need, frames)
    topic_ok = True
    # the topic of the sentence or of one of its clauses ("…장축은 …, 관람자를 위해서는 메인스탠드를 …")
    topics = [t for t in (_topic(p) for s in sentences for p in _clauses(s)) if t]
    if topics and not lx.AGENT_ASKED.search(need.question):
        # the topic of the sentence or of a clause is the question's (unless the question asks who: then the
        # topic is the answer), or one clause writes all its distinctive nouns
        topic_ok = any(covered(t, need.question) >= COVER for t in topics) or (
            len(ask) >= 2 and any(words_covered(" ".join(ask), p) >= 1.0 for s in sentences for p in _clauses(s)[1:])
        )
    if ask:
        distinct_ok = words_covered(" ".join(ask), joined) >= DISTINCT
    else:
        # every noun of the question is the clause's or document's own subject: the sentence in that frame
        terms = [t for t in need.terms if t not in lx.REQUEST_WORDS and t not in lx.GENERIC_WORDS] or need.terms
        distinct_ok = covered(" ".join(terms), " ".join([joined, *frames])) >= DISTINCT
    checks["need_subject"] = distinct_ok and topic_ok
    # an exception ("다만, … 경우에는 …") answers only a question that states its case
    for sent in sentences:
        opening = lx.EXCEPTION_OPEN.match(sent)
        case = lx.CONDITION_PART.match(sent[opening.end() :]) if opening else None
        if case and covered(case.group(1), need.question) < COVER:
            checks["need_own_cases"] = False
    # a requirement written for a case of its own ("방호벽일 경우 …", "논의 경우 …") answers only a question
    # that states that case or asks which case it is
    if not lx.CASE_ASKED.search(need.question) and sentences:
        checks["need_own_cases"] = checks.get("need_own_cases", True) and any(
            _own_case_asked(s, need.question) for s in sentences
        )
    if lx.PROHIBITION_ASKED.search(need.question):
        # "어디에 쓰면 안 되나요": the requirement must forbid, not allow or describe
        checks["need_prohibition"] = any(lx.PROHIBITION_STATED.search(r) for r in reqs)
    elif need.permission:
        checks["need_permission"] = any(_permission_near(r, ask) for r in reqs)
    frame = [joined] + [t for c in good for t in (*c.chunk.clause_path, c.chunk.doc.title)]
    checks["need_conditions"] = all(
        covered(cond, " ".join(frame)) >= COVER and not amounts_missing(cond, joined) for cond in need.conditions
    )
    pointer = all(lx.POINTER.search(s) and len(re.sub(r"\s", "", lx.POINTER.sub("", s))) < 40 for s in sentences)
    scope = all(lx.SCOPE_SENTENCE.search(s) for s in sentences) and not lx.ASKS_SCOPE.search(need.question)
    checks["not_pointer"] = not (pointer and not lx.ASKS_POINTER.search(need.question)) and not scope
    # a sentence that only introduces a list ("다음과 같은 노선으로 한다") does not give the items asked
    # and a list item that only repeats the question's words ("③ 계획노선과 병행하는 노선") answers nothing
    asked_words = set(content_words(need.question))
    informative = [r for r in reqs if not lx.LIST_LEAD.search(r) and set(content_words(r)) - asked_words]
    checks["not_lead_in"] = not reqs or bool(informative)
    if lx.EXEMPTION_ASKED.search(need.question):
        # "설치하지 않아도 되는 것은": the exception, not the rule it makes an exception to
        checks["need_exemption"] = any(lx.EXEMPTION_STATED.search(r) for r in reqs)
    if need.ordinal:
        # "세 번째로 제시된 것은?": the item at that place of a list, not a sentence about the list
        places = [_item_place(c) for c in good]
        checks["need_ordinal"] = any(
            (n == need.ordinal) if need.ordinal > 0 else (n > 0 and last) for n, last in places
        )
    if need.kind == "formula":
        checks["formula_given"] = any(
            _EQUATION.search(r) and len(re.findall(r"[가-힣]", r)) < len(r) // 3 for r in reqs
        )
    return checks


def _item_place(c: Citation) -> tuple[int, bool]:
    """The place of the quoted list item among its siblings (0 when the quote opens no list item), and whether it
    is the last of them."""
    _, place, last = _list_item(c.chunk.text, c.start)
    return place, last


def _retrieved_text(hits: Sequence[Hit]) -> str:
    """What was found, as one text: the chunks, their clause headings and their standards' titles (NFKC)."""
    return lx.nfkc(" ".join(t for h in hits for t in (h.chunk.text, *h.chunk.clause_path, h.chunk.doc.title)))


def _orphan_noun(need: Need, hits: Sequence[Hit]) -> bool:
    """A noun of three or more syllables in the question that names a thing (not the quantity, a bound, a generic
    or request word) is written in none of the retrieved chunks, their clause headings or their standards' titles:
    the library does not hold what is asked (a question whose answer is in no standard)."""
    wide = bigrams(_retrieved_text(hits))
    for w in need.nouns:
        if len(w) < 3 or not re.fullmatch(r"[가-힣]+", w) or w == need.head or w in lx.QUANTITY_DIMENSION:
            continue
        if w in lx.GENERIC_WORDS or w in lx.REQUEST_WORDS or w in lx.EXTREME_NOUNS:
            continue
        if coverage(bigrams(w), wide) < 0.5:
            return True
    return False


def _scope_words_in_standard(need: Need, good: Sequence[Citation], hits: Sequence[Hit]) -> bool:
    """For a value whose sentence leaves out words that qualify the quantity (``need_modifiers``): it is from the
    first passage found (below it such values were wrong more often than right on the development halves), and
    every word of the asked subject is written in what was found of the cited standard — its text, headings or
    title ("조적조" asked of a concrete standard, "자율주행차" of a bus lane: another thing, not this one's scope)."""
    if not good or not hits or good[0].chunk.chunk_id != hits[0].chunk.chunk_id:
        return False
    written = norm(_retrieved_text([h for h in hits if h.chunk.doc.file == good[0].chunk.doc.file]))
    return all(norm(w) in written for w in content_words(need.subject) if re.match(r"[가-힣]", w))


def _permission_near(sentence: str, words: Sequence[str]) -> bool:
    """The sentence allows or forbids, and the question's distinctive words stand before that, in its clause."""
    for m in lx.PERMISSION_STATED.finditer(sentence):
        window = sentence[max(0, m.start() - 80) : m.end()]
        if not words or words_covered(" ".join(words), window) >= WORDS:
            return True
    return False


def _frame_of(chunk: Chunk) -> str:
    return " ".join([chunk.doc.title, chunk.doc.doc_code, *chunk.clause_path])


def _other_definition(draft: Draft, hits: Sequence[Hit], need: Need, cited: Chunk | None) -> bool:
    """Another definition of the same term, in other words, among the best hits ("물리탐사: …" in two standards);
    not one from a standard or clause outside the setting the question names ("농도계획에서 '설계속도'의 정의는?":
    a road standard's 설계속도 is another standard's term) when the cited one is inside it."""
    term = norm(lx.strip_alias(draft.term)) if draft.term else ""
    if not term or not draft.definition or not re.search(r"[가-힣]", draft.term):
        return False  # a symbol ("a : 전단경간") is each standard's own
    given = bigrams(draft.definition)
    frame = _frame_of(cited) if cited is not None else ""
    inside = [c for c in need.conditions if words_covered(c, frame) >= WORDS] if frame else []
    for h in hits[:TOP]:
        if inside and not any(words_covered(c, _frame_of(h.chunk)) >= WORDS for c in inside):
            continue
        for line in h.chunk.text.split("\n"):
            line = lx.strip_item(line)
            t = lx.defined_term(line)
            if not t or norm(lx.strip_alias(t)) != term:
                continue
            m = lx.DEFINITION_LINE.match(line)
            expl = m.group(2) if m else line
            if norm(draft.definition) in norm(expl):
                continue  # the given definition itself, with more run-together entries after it
            if len(re.findall(r"[가-힣]", expl)) >= 8 and coverage(bigrams(expl), given) < 0.5:
                return True
    return False


def _past_domain(asked: str, chunk: Chunk) -> list[str]:
    """The asked term without the words before it that name the cited document's own field ("관수로 설계수압" in a
    standard on 관수로 asks 설계수압); a word the document's title and headings do not write stays part of the term
    ("이차 냉매" is not "냉매")."""
    words = asked.split()
    frame = " ".join([chunk.doc.title, *chunk.clause_path])
    return [
        " ".join(words[k:])
        for k in range(1, len(words))
        if content_words(" ".join(words[:k])) and words_covered(" ".join(words[:k]), frame) >= 1.0
    ]


def _defined_in(c: Citation) -> str:
    """The term the cited entry defines: of the quote when it is a whole "용어：설명" entry of a glossary written
    as one paragraph, else of its sentence."""
    entry = lx.defined_term(c.quote) if lx.DEFINITION_LINE.match(c.quote) else ""
    return entry or lx.defined_term(_sentence_of(c))


def _check_definition(need: Need, draft: Draft, good: list[Citation]) -> dict[str, bool]:
    quotes = [c.quote for c in good]
    parts = [p for p in (draft.definition, draft.term) if p.strip()]
    checks = {"text_in_quotes": bool(parts) and all(text_in_quotes(p, quotes) for p in parts)}
    if need.kind == "term":
        description = lx.ASKS_NAME_TAIL.sub("", need.question)
        term = next((t for t in (_defined_in(c) for c in good) if t), "")
        checks["need_subject"] = (
            bool(term) and words_covered(description, draft.definition) >= 0.5 and norm(term) not in norm(description)
        )
    else:
        asked = need.subject or need.head
        term = next((t for t in (_defined_in(c) for c in good) if t), "")
        if asked and term:
            t = norm(lx.strip_alias(term))

            def same(a: str) -> bool:
                # one written inside the other counts only when they start alike: a word before the defined term
                # makes another, narrower term ("선배수시설" is not "배수시설")
                return (
                    a == t or (t.startswith(a) and len(a) >= 0.8 * len(t))
                    or (a.startswith(t) and len(t) >= 0.8 * len(a))
                    or (coverage(bigrams(a), bigrams(t)) >= 0.8 and coverage(bigrams(t), bigrams(a)) >= 0.8)
                )  # fmt: skip

            readings = lx.term_readings(lx.strip_item(asked))
            readings += _past_domain(readings[0], good[0].chunk) if good else []
            checks["need_subject"] = any(same(norm(lx.strip_alias(a))) for a in readings)
        else:
            checks["need_subject"] = False  # the quote does not define a term in a form the reader knows
    return checks


def verify(need: Need, draft: Draft, hits: Sequence[Hit]) -> Verification:
    """Run every check on ``draft`` for ``need`` against the retrieved ``hits`` (see the module docstring)."""
    cites, provenance = citations(draft, hits)
    good = [c for c in cites if c.verified]
    checks: dict[str, bool] = {"quote_provenance": provenance}
    if not draft.given:
        return Verification(draft, tuple(cites), checks)
    result = Verification(draft, tuple(cites), {})
    if draft.qtype in ("numeric", "conditional"):
        result = _check_value(need, draft, good, hits)
        result = replace(result, citations=tuple(cites))
        checks.update(result.checks)
    elif draft.qtype == "regulation":
        checks.update(_check_requirement(need, draft, good))
    else:
        checks.update(_check_definition(need, draft, good))
        cited = good[0].chunk if good else None
        if need.kind == "definition" and checks.get("need_subject") and _other_definition(draft, hits, need, cited):
            checks["unique"] = False  # the term is defined twice, differently, in what was found
    if checks.get("need_modifiers") is False and not _scope_words_in_standard(need, good, hits):
        checks["need_subject"] = False
    if checks.get("need_subject", True) and _orphan_noun(need, hits):
        checks["need_subject"] = False  # "스키점프대 착지사면 최대 기울기": nothing retrieved is about a 스키점프대
    if need.kind in ("definition", "term") and draft.qtype != "definition":
        checks["need_kind"] = False  # a definition asked, a requirement or value given ("X는 … 원칙으로 한다")
    if need.kind == "value" and draft.qtype == "regulation":
        checks["need_kind"] = False  # a value asked ("β1 값은?"), a sentence without it given
    if good and hits and (draft.qtype == "regulation" or need.qtype == "conditional"):
        # a case-bound value or a requirement from a passage retrieval did not put first: shown as a warning (on
        # the development questions such answers were wrong four times in ten, against one in thirty at the top)
        cited, top = good[0].chunk, hits[0].chunk  # the top passage, or its clause continued in the next chunk
        checks["top_evidence"] = cited.chunk_id == top.chunk_id or (
            cited.doc.file == top.doc.file and cited.clause == top.clause and cited.ordinal == top.ordinal + 1
        )
    if good and hits and draft.qtype in ("numeric", "conditional", "definition"):
        # from a passage retrieval put below the first two: shown as a warning (on the development halves such
        # answers were wrong four times in thirteen, against one in twenty-five in the first two)
        cited = good[0].chunk
        rank = next((i for i, h in enumerate(hits) if h.chunk.chunk_id == cited.chunk_id), len(hits))
        if rank >= 2:
            checks["top_evidence"] = False
    # for a definition (its term checked above) the cited standard's title and clause headings count: a question
    # names its scope as the standard does ("양·배수장 설계기준에서 유수지란?")
    scope = need.kind in ("definition", "term")
    context: list[str] = [
        t for c in good for t in (*_context(c), *((c.chunk.doc.title, *c.chunk.clause_path) if scope else ()))
    ]
    checks["relevance"] = bool(good) and relevance(need.question, context) >= RELEVANCE_MIN
    return replace(result, checks=checks)
