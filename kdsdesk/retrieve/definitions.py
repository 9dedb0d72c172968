"""Definition questions in a large library: the standard that defines the term, above the standards that use it.

A question that asks what a term means ("'벽률'은 어떻게 정의되나요?", "치올림이란?", "허용지지력의 정의는?") names
the term; every definition line of the library is a sub-document whose head is indexed (``defs``), so the chunks
whose definition-line head *is* that term ("벽률: …", "사수위(Dead Storage Level, DSL): …") are found directly, and
so are the clauses headed by the term itself ("4.1.6 공용기간") or the general first clause of a chapter headed by it
("2. 배수지" › "2.1 총칙"), and the chunks (of the candidate pool, or found by the term in the body) where a sentence
defines it in running prose ("양압력이란 … 힘을 말한다", "사용성은 … 상태를 말한다": ``lexicon.defined_term``).
When several standards define it, the one the rest of the question points to comes first (the standards' profiles,
``kdsdesk.retrieve.standards``), then BM25 order. Those chunks go to the front (route ``definition``, at most
``MAX_PER_ROUTE``); a question whose term no definition line names changes nothing.

A value question can also be answered by a definition entry ("표준 공기 : 온도 20℃, 절대 압력 101.3 kPa …", "기반암 :
전단파속도가 760m/s 이상인 지층"): ``route_defined_value`` puts the chunk of an entry headed by a term the question
names, holding a number and sharing the question's other words, in front (route ``definition``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from kdsdesk import lexicon as lx
from kdsdesk.records import Hit
from kdsdesk.retrieve.routes import MAX_PER_ROUTE, is_definition_question, promote

if TYPE_CHECKING:
    from kdsdesk.index.library import Catalog
    from kdsdesk.retrieve.routes import QueryTerms

CANDIDATES = 40
_QUOTED = re.compile(r"['\"‘’“”「『]([^'\"‘’“”」』]{1,30})['\"‘’“”」』]")
_NOT_TERM_WORD = re.compile(r"(?:는|은|을|를|에서|에서의|에서는|의|하는|되는|이라는|라는|로|으로)$")
_LEAD = re.compile(r"^(?:기호|용어|문자)\s+")  # "기호 a(전단경간)" asks about a
_WORD = re.compile(r"[가-힣一-鿿A-Za-z0-9()·\-]+$")  # (a Hanja alias: "유수지(遊水池)")


def asked_term(question: str) -> str:
    """The term a definition question asks about: a quoted term, else the words just before "이란/란/의 정의/은
    무엇" (up to three, none ending in a particle or an adnominal "…하는", none before "중": "연결요소 중 버퍼란" asks
    버퍼); "" when none is written (an inverse question: "…을 무엇이라고 하나요?")."""
    m = _QUOTED.search(question)
    if m:
        return _LEAD.sub("", m.group(1).strip())
    m = lx.DEFINITION_TERM_MARKER.search(question)
    if not m:
        return ""
    words: list[str] = []
    for w in reversed(question[: m.start()].split()):
        if len(words) == 3 or w in lx.TERM_GROUP_WORD or not _WORD.match(w) or (words and _NOT_TERM_WORD.search(w)):
            break
        words.insert(0, w)
    term = _LEAD.sub("", " ".join(words).strip())
    return term if len(term) >= 2 or (term and not term.isascii()) else term if len(words) == 1 else ""


def _squash(s: str) -> str:
    from kdsdesk.text.normalize import norm

    return norm(s)


def _heading_title(label: str) -> str:
    """``"4.1.6 공용기간"`` → ``"공용기간"`` (squashed)."""
    return _squash(re.sub(r"^\s*(?:[A-Z]|\d+)(?:\.\d+)*\.?\s*", "", label))


GENERAL_TITLES = frozenset({"총칙", "일반사항", "일반", "개요", "정의", "일반사항및정의"})


def _headed_by(path: Sequence[str], term: str) -> bool:
    """A clause headed by the term ("4.1.6 공용기간"), or the general first clause of a chapter headed by it
    ("2. 배수지" › "2.1 총칙": "배수지는 … 저류지로서 …")."""
    names = {_squash(term), _squash(lx.strip_alias(term))}  # "유수지(遊水池)" asked, "4.10 유수지" written
    if path and _heading_title(path[-1]) in names:
        return True
    return len(path) >= 2 and _heading_title(path[-2]) in names and _heading_title(path[-1]) in GENERAL_TITLES


def defines(head: str, term: str) -> bool:
    """Is a definition line's head the term ("기초 피어" = "기초피어"; "사수위(Dead …)" for "사수위"; the term's
    last words when they are at least half of it)?"""
    h, t = _squash(head), _squash(term)
    if not t or not h:
        return False
    if h == t or h.startswith(t + "(") or h == t.split("(")[0]:
        return True
    words = term.split()
    tails = {_squash(" ".join(words[i:])) for i in range(1, len(words))}  # "기초 피어", "피어" of "콘크리트 기초 피어"
    return h in tails and 2 * len(h) >= len(t)  # not "강도" for "실험강도": a word's tail is another word


def defines_in_sentence(text: str, term: str) -> bool:
    """Does a sentence of ``text`` define the term in running prose ("양압력이란 … 힘을 말한다", "사용성은 … 상태를
    말한다", "배수지는 … 저류지로서 …": ``lexicon.defined_term``), its subject being the term or ending in it
    ("구조물의 실험강도는 …")?"""
    from kdsdesk.text.sentences import sentence_ranges

    t = _squash(term)
    last = "".join(lx.strip_alias(term).split()[-1:])  # ("철도 열차무선설비": "열차무선설비는 …"; "유수지(遊水池)")
    if not t or not last or last not in "".join(text.split()):  # a cheap test before reading sentences
        return False
    for a, b in sentence_ranges(text):
        head = lx.defined_term(text[a:b])
        if head and (defines(head, term) or (_squash(head).endswith(t) and len(head.split()) <= 3)):
            return True
    return False


def defines_inline(text: str, term: str) -> bool:
    """A definition entry run into the text before it ("… 값 표면지압판：철근콘크리트 …", a flattened definition
    list, its colon maybe full-width with no space after it, which ``definition_lines`` does not read): the term
    after a space or a line's start, its other name in parentheses maybe, then a colon."""
    words = lx.strip_alias(term).split()
    if not words or words[-1] not in text:
        return False
    name = r"[ \t]*".join(re.escape(w) for w in words)  # on one line ("… 세장비\n: 유효길이" is a symbol list)
    colon = r"[ \t]*(?:\([^()\n]{0,40}\))?[ \t]*[:：]"
    return re.search(r"(?:^|(?<=\s))" + name + colon, text, re.MULTILINE) is not None


def route_definition(
    catalog: Catalog,
    q: QueryTerms,
    ranked: Sequence[Hit],
    doc_codes: Sequence[str] | None,
    prior: dict[str, float],
) -> list[Hit]:
    """The chunks whose definition line or sentence defines the asked term in front (see the module docstring)."""
    from kdsdesk.index.terms import definition_lines
    from kdsdesk.text.korean import analyze

    if not is_definition_question(q.text):
        return list(ranked)
    term = asked_term(q.text)
    if not term:
        return list(ranked)
    a = analyze(term)
    words = [*a.terms, *a.grams]
    lex = catalog.lexical
    ids = [h.chunk_id for h in lex.search_field("defs", words, limit=CANDIDATES, doc_codes=doc_codes)]
    ids += [h.chunk_id for h in lex.search_field("path", a.terms, limit=CANDIDATES, doc_codes=doc_codes)]
    prose = [h.chunk.chunk_id for h in ranked]
    prose += [h.chunk_id for h in lex.search_field("body", a.terms, limit=CANDIDATES, doc_codes=doc_codes)]
    chunks = catalog.chunks(list(dict.fromkeys([*ids, *prose])), light=True)
    in_fields = set(ids)
    rank_of = {h.chunk.chunk_id: i for i, h in enumerate(ranked)}
    found = []
    seen_clause: set[tuple[str, str]] = set()
    for order, c in enumerate(chunks):
        by_line = by_heading = False
        if c.chunk_id in in_fields:
            heads = [c.text[hs:he] for hs, he, _ls, _le in definition_lines(c.text)]
            by_line = any(defines(head, term) for head in heads)
            by_heading = _headed_by(c.clause_path, term)
        by_sentence = (
            not by_line
            and not by_heading
            and c.table is None
            and (defines_in_sentence(c.text, term) or defines_inline(c.text, term))
        )
        if by_heading and (c.doc.file, c.clause) in seen_clause:
            continue  # one chunk per clause headed by the term
        if by_line or by_heading or by_sentence:
            seen_clause.add((c.doc.file, c.clause))
            found.append((-prior.get(c.doc.file, 0.0), rank_of.get(c.chunk_id, len(ranked) + order), c))
    if not found:
        return list(ranked)
    found.sort(key=lambda x: (x[0], x[1]))
    return promote(ranked, [c for *_, c in found[:MAX_PER_ROUTE]], "definition")


# -- a value written in a definition entry ("표준 공기 : 온도 20℃, 절대 압력 101.3 kPa …") ---------------------------
VALUE_ENTRY_WORDS = 2  # the entry shares at least this many of the question's other terms
MAX_VALUE_ENTRIES = 2
_ENTRY_END = re.compile(r"\n|[ \t](?=[^\s:：]{1,30}[ \t]*(?:\([^()\n]{0,40}\))?[ \t]*[:：])")


def _asked_heads(question: str) -> list[str]:
    """Terms a value question may name: its words without their particles, alone (3+ characters) or in pairs
    ("표준 공기의 절대 압력" → "표준 공기")."""
    words = [w for w in re.findall(r"[가-힣A-Za-z0-9·]+", question) if w not in lx.QUESTION_WORDS]
    words = [w for w in words if not re.search(r"\d", w)]  # "축척 1:500": a ratio, not a term
    bare = [lx.PARTICLE_END.sub("", w) if len(w) > 2 else w for w in words]
    out = [b for b in bare if len(b) >= 3 and re.search(r"[가-힣]", b)]
    out += [f"{a} {b}" for a, w, b in zip(bare, words, bare[1:], strict=False) if a == w and len(a + b) >= 3]
    return list(dict.fromkeys(out))


def _entry_text(text: str, head: str) -> str:
    """What a definition entry headed ``head`` says (up to the line's end or the next run-together entry), "" when
    ``text`` has no such entry."""
    name = r"[ \t]*".join(re.escape(w) for w in head.split())
    m = re.search(r"(?:^|(?<=\s))" + name + r"[ \t]*(?:\([^()\n]{0,40}\))?[ \t]*[:：](?!\d)", text, re.MULTILINE)
    if m is None:
        return ""
    rest = text[m.end():m.end() + 300]
    end = _ENTRY_END.search(rest, 1)
    return rest[: end.start()] if end else rest


def route_defined_value(
    catalog: Catalog, q: QueryTerms, ranked: Sequence[Hit], doc_codes: Sequence[str] | None, prior: dict[str, float]
) -> list[Hit]:
    """A value question about a defined term whose definition entry gives values ("상수도 내진설계 기준에서 기반암으로
    보는 지층의 전단파속도 하한은?" → "기반암 : 전단파속도가 760m/s 이상인 지층"; "건조사용조건：… 평형함수율이 19% 이하
    …", a run-together list): the chunks holding an entry headed by a term of the question, with a number, that shares
    at least ``VALUE_ENTRY_WORDS`` of the question's other terms, go to the front (the standard the question points to
    first)."""
    if is_definition_question(q.text) or not lx.ASKS_VALUE.search(q.text):
        return list(ranked)
    heads = _asked_heads(q.text)
    if not heads:
        return list(ranked)
    lex = catalog.lexical
    ids = [h.chunk.chunk_id for h in ranked[:CANDIDATES]]
    ids += [h.chunk_id for h in lex.search_field("defs", list(q.terms), limit=CANDIDATES, doc_codes=doc_codes)]
    rank_of = {h.chunk.chunk_id: i for i, h in enumerate(ranked)}
    found = []
    for order, c in enumerate(catalog.chunks(list(dict.fromkeys(ids)), light=True)):
        if c.table is not None:
            continue
        for head in heads:
            if head.split()[-1] not in c.text:
                continue
            entry = _entry_text(c.text, head)
            own = _squash(head)
            shared = {t for t in q.terms if len(t) >= 2 and t not in own and t in entry}
            if entry and re.search(r"\d", entry) and len(shared) >= VALUE_ENTRY_WORDS:
                found.append((-prior.get(c.doc.file, 0.0), rank_of.get(c.chunk_id, len(ranked) + order), c))
                break
    if not found:
        return list(ranked)
    found.sort(key=lambda x: (x[0], x[1]))
    return promote(ranked, [c for *_, c in found[:MAX_VALUE_ENTRIES]], "definition")
