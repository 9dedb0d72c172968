"""The extractive answerer's text answers: requirements (the best unit carrying a requirement cue — 하여야 한다,
이하로 한다, 원칙으로 한다 …, cut into clauses; an equation reference brings its equation line) and definitions
("용어: 설명" lines, "~을 말한다" / "A를 B라고 한다" sentences; "X이란?" reads the line whose term matches X,
"…을 무엇이라 하나요?" the line whose explanation matches, and answers with its term).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from kdsdesk import lexicon as lx
from kdsdesk.answer.schema import Draft, Evidence
from kdsdesk.answer.sentences import (
    Unit,
    equation_label,
    is_equation,
    units,
    where_symbol,
)
from kdsdesk.records import Hit, Need
from kdsdesk.text.match import bigrams, coverage, number_spans, question_grams
from kdsdesk.text.normalize import norm
from kdsdesk.verify.clauses import split_requirements
from kdsdesk.verify.need import QuestionInfo


def _question_numbers(question: str) -> set[str]:
    """The numbers the question itself states (normalised): they are conditions, not answers."""
    return {str(d.normalize()) for d, _, _ in number_spans(question)}


def _evidence(ranked: Sequence[Unit], n: int = 3) -> tuple[Evidence, ...]:
    return tuple(Evidence(u.hit.chunk.chunk_id, u.text) for u in ranked[:n] if u.score > 0)


def _strip_item(text: str) -> str:
    return lx.strip_item(text)


_LABEL = re.compile(r"식\s*\(\s*([0-9A-Z.\-\s]+?)\s*\)")
_GARBLED = re.compile(r"[⎧⎨⎩⎪⎫⎬⎭⎛⎝⎞⎠⎡⎣⎤⎦⎜⎟⎢⎥|;̅]")


def _equation_for(u: Unit, hits: Sequence[Hit]) -> Unit | None:
    """The display equation a sentence refers to ("식 (4.2-5)에 따라"): the equation line ending in that number
    in a retrieved chunk of the same document (its own chunk first)."""
    m = _LABEL.search(u.text)
    if not m:
        return None
    label = re.sub(r"\s+", "", m.group(1))
    doc = u.hit.chunk.doc.file
    pool = [u.hit, *(h for h in hits if h.chunk.doc.file == doc and h.chunk.chunk_id != u.hit.chunk.chunk_id)]
    for v in units(pool, len(pool)):
        if v.hit.chunk.kind != "table" and is_equation(v.text) and equation_label(v.text) == label:
            return v
    return None


def _next_equation(u: Unit) -> Unit | None:
    """The display equation a lead-in sentence introduces ("다음 식에 따라", "다음과 같이 산정한다"): the first
    equation line after it in its chunk, before any other sentence."""
    if not lx.INTRO_TO_FORMULA.search(u.text):
        return None
    for v in units([u.hit], 1):
        if v.start < u.end:
            continue
        return v if is_equation(v.text) else None
    return None


MAX_SYMBOL_LINES = 8


def _flat(text: str) -> str:
    return re.sub(r"[\s{}]", "", lx.nfkc(text))


def symbol_lines(eq: Unit) -> list[Unit]:
    """The "여기서, X : 설명" lines that follow an equation in its chunk and explain a symbol the equation writes
    (the block may also explain symbols of the equation before it: those are left out)."""
    block: list[Unit] = []
    for v in units([eq.hit], 1):
        if v.start < eq.end:
            continue
        if not where_symbol(v.text) or len(block) >= 2 * MAX_SYMBOL_LINES:
            break
        block.append(v)
    flat = _flat(eq.text)
    return [v for v in block if _flat(where_symbol(v.text)) in flat][:MAX_SYMBOL_LINES]


def readable_equation(text: str) -> bool:
    """An equation line that reads as a formula: balanced brackets, no stray pieces of tall brackets, bars or
    group separators left by a layout reader (shown as a formula only then)."""
    if _GARBLED.search(text):
        return False
    depth = 0
    for ch in text:
        depth += (ch == "(") - (ch == ")")
        if depth < 0:
            return False
    return depth == 0


def _lead_of(u: Unit) -> Unit | None:
    """For a list item (①, 가.), the sentence that introduces the list in the same chunk."""
    if not re.match(r"\s*([①-⑳]|[가-하]\.)", u.text):
        return None
    lead = None
    for v in units([u.hit], 1):
        if v.start >= u.start:
            break
        if lx.REQUIREMENT_END.search(v.text) and not re.match(r"\s*([①-⑳]|[가-하]\.)", v.text):
            lead = v
    return lead


SUBJECT_BONUS = 0.15


def subject_named(question: str, text: str) -> bool:
    """The sentence's topic ("구조물 및 구조 부재는 …") is written, whole, in the question."""
    m = lx.TOPIC_PHRASE.match(_strip_item(text))
    subject = norm(m.group(1)) if m else ""
    return len(subject) >= 3 and subject in norm(question)


DISTINCT_WEIGHT = 0.5
PERMISSION_BONUS = 0.3


def distinctive_cover(terms: Sequence[str], u: Unit) -> float:
    """Share of the question's words that are not the document's or clause's own subject (its title, its clause
    path) found in the unit: "보강 ALC 조적조에서 묶음철근을 써도 되나요?" turns on 묶음철근, not on ALC."""
    frame = " ".join([u.hit.chunk.doc.title, *u.hit.chunk.clause_path])
    fg = bigrams(frame)
    words = [t for t in terms if t not in lx.GENERIC_WORDS and coverage(bigrams(t), fg) < 0.5]
    if not words:
        return 0.0
    ug = bigrams(u.text)
    return sum(1 for w in words if coverage(bigrams(w), ug) >= 0.5) / len(words)


def answer_requirement(
    question: str, info: QuestionInfo, ranked: Sequence[Unit], hits: Sequence[Hit] = (), need: Need | None = None
) -> Draft:
    """The best-matching requirement sentence (its lead for a list item), as written; a sentence that refers to an
    equation brings the equation's line — and a question that asks for the formula is answered only when that line
    is found and reads as a formula. The question's distinctive words and, for a question of what is allowed, a
    sentence that allows or forbids rank higher."""
    asks_formula = bool(lx.FORMULA_NAMED.search(question)) or (need is not None and need.kind == "formula")
    qnums = _question_numbers(question)
    bonus = {id(u): 0.3 for u in ranked if qnums and {str(d.normalize()) for d, _, _ in number_spans(u.text)} & qnums}
    for u in ranked:
        if subject_named(question, u.text):
            bonus[id(u)] = bonus.get(id(u), 0.0) + SUBJECT_BONUS
        if need is not None:
            bonus[id(u)] = bonus.get(id(u), 0.0) + DISTINCT_WEIGHT * distinctive_cover(need.terms, u)
            if lx.PROHIBITION_ASKED.search(question):
                bonus[id(u)] += PERMISSION_BONUS if lx.PROHIBITION_STATED.search(u.text) else 0.0
            elif need.permission and lx.PERMISSION_STATED.search(u.text):
                bonus[id(u)] += PERMISSION_BONUS
    ranked = sorted(ranked, key=lambda u: -(u.score + bonus.get(id(u), 0.0)))
    for u in ranked[:8]:
        if u.score < 0.3 or u.hit.chunk.kind == "table":
            continue
        chosen = [u] if lx.REQUIREMENT_END.search(u.text) else []
        lead = _lead_of(u)
        if not chosen and lead is not None:
            chosen = [lead, u]
        if not chosen:
            continue
        eq = next((e for v in chosen if (e := _equation_for(v, hits or [u.hit])) is not None), None)
        if eq is None and asks_formula:
            eq = next((e for v in chosen if (e := _next_equation(v)) is not None), None)
        if eq is not None and not readable_equation(eq.text):
            eq = None
        if asks_formula and eq is None and not any(is_equation(v.text) for v in chosen):
            return Draft("regulation", evidence=_evidence(ranked))  # the formula asked for is not readable here
        shown_whole: list[Unit] = []
        if eq is not None:  # the equation as written, with the lines that explain its symbols
            shown_whole = [eq, *symbol_lines(eq)]
            chosen.extend(shown_whole)
        reqs = tuple(
            dict.fromkeys(
                r
                for v in chosen
                for r in (
                    [v.text]
                    if any(v is w for w in shown_whole)
                    else [*split_requirements(_strip_item(v.text)), _strip_item(v.text)]
                )
            )
        )  # the requirement clauses (connective endings made final) and the whole sentence
        return Draft(
            "regulation", requirements=reqs, evidence=tuple(Evidence(v.hit.chunk.chunk_id, v.text) for v in chosen)
        )
    return Draft("regulation", evidence=_evidence(ranked))


def _same_term(a: str, b: str) -> float:
    """How surely two written terms are the same (1.0 equal after normalising; bigram overlap both ways else)."""
    na, nb = norm(lx.nfkc(a)), norm(lx.nfkc(b))
    if not na or not nb:
        return 0.0
    if na == nb:
        return 1.0
    ga, gb = bigrams(na), bigrams(nb)
    return min(coverage(ga, gb), coverage(gb, ga))


def answer_definition(question: str, info: QuestionInfo, ranked: Sequence[Unit], need: Need | None = None) -> Draft:
    """A definition: the sentence or "용어: 설명" line that defines the term asked (``lexicon.defined_term``); for
    "… 을 무엇이라 하나요?", the definition that holds the question's description, answered with its term."""
    from kdsdesk.verify.need import term_asked

    asked = (need.subject if need is not None and need.kind == "definition" else "") or term_asked(question)
    qg = question_grams(question)
    best: tuple[float, Unit, str, str, str] | None = None
    lines = [(u, _strip_item(u.text)) for u in ranked[:40] if u.hit.chunk.kind != "table"]
    # a glossary written as one paragraph: each of its entries is a line of its own
    lines += [(u, e) for u, line in list(lines) for e in lx.glossary_entries(line)]
    for u, line in lines:
        term = lx.defined_term(line)
        if not term:
            continue
        m = lx.DEFINITION_LINE.match(line)
        expl = m.group(2).strip() if m and norm(m.group(1)) == norm(term) else line
        if info.asks_term:
            if norm(term) in norm(question):
                continue  # the question names this term: it asks for another
            s = coverage(bigrams(expl), bigrams(question)) + coverage(qg, bigrams(expl)) + 0.2 * u.score
        else:
            readings = lx.term_readings(asked) if asked else []
            same = max((_same_term(lx.strip_alias(term), lx.strip_alias(a)) for a in readings), default=0.0)
            if need is not None and need.head and len(asked.split()) > 1 and asked.endswith(need.head):
                # "관수로 설계수압": the term with its field written before it; the whole term written first
                same = max(same, 0.9 * _same_term(lx.strip_alias(term), need.head))
            if same < 0.6:
                continue
            s = 2.0 * same + 0.3 * u.score
        if best is None or s > best[0]:
            best = (s, u, term, expl, line)
    if best is None or best[0] < 0.6:
        return Draft("definition", evidence=_evidence(ranked))
    _, u, term, expl, line = best
    definition = line if info.asks_term else expl
    quote = u.text if line == _strip_item(u.text) else line
    return Draft("definition", term=term, definition=definition, evidence=(Evidence(u.hit.chunk.chunk_id, quote),))
