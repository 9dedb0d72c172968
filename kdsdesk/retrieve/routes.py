"""Routes: rules that move results to the front of the ranked list without removing anything.

In the order applied (a later route ends up in front of an earlier one):

1. a query without Hangul (a symbol query: ``fck``, ``A_v,min``) keeps the BM25 order — no route applies;
2. a table number (``표 3.6-2``) → that table (``table_no``);
3. a table-title hit whose title terms cover ≥ 2/3 of the query's content terms → that table (``table_title``);
   else a table row whose terms cover ≥ 0.8 of them → that table (``table_row``) — not for a question that asks
   what a term means ("전단마찰이란?", "…을 무엇이라고 하나요?"): a table that merely names the term is not its
   definition;
4. a clause number (``4.1.2``: at least two dots, not after 표 or 식) → that clause (``clause_no``), applied last.

Front matter — a chunk outside every clause (a standard's cover with its code and title, its 목차, its 연혁) — is
never the place of a rule, yet it is short and full of the title's words: ``front_matter_last`` moves it behind
the other hits when its file has clause hits in the list (a file with no clause headings at all is left as it is).

A query that names a standard of the library (``KDS 14 31 05``, ``KDS143105``, ``KCS 14 20 10``, ``예시 14 20 22``)
scopes the structural routes to that standard's files (falling back to the whole library when it has no match)
and moves its BM25 hits ahead of the others' (order kept, route ``bm25`` kept, nothing removed); the code itself is
cut out of the text the terms and routes see. A code the library does not hold changes nothing.

"Content terms" are the query's distinct terms that occur in the library at all, less the vocabulary of asking
(얼마, 무엇, 의미, 말하다, 부르다 …): a question's frame is not part of what it asks about. With many documents, a
route that matches several keeps them in their BM25 order (chunks of documents that have no BM25 candidate come
after), at most ``MAX_PER_ROUTE`` chunks per route.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kdsdesk import lexicon as lx
from kdsdesk.records import Chunk, Hit, Route
from kdsdesk.text.symbols import has_hangul

if TYPE_CHECKING:
    from kdsdesk.index.library import Catalog

TITLE_COVERAGE = 2 / 3
ROW_COVERAGE = 0.8
MAX_PER_ROUTE = 3
_NUM = r"(?:[A-Z]|\d+)(?:\.\d+)*"
TABLE_NO_RE = re.compile(rf"표\s*({_NUM}\s*-\s*\d+)")
CLAUSE_RE = re.compile(
    r"(?<![\w.\-])(?<!표)(?<!식)(?<!표 )(?<!식 )((?:[A-Z]|\d+)(?:\.\d+){2,})(?![\w.]*\d)(?!\s*-\s*\d)"
)
# terms of the question frame ("…은 무엇을 말하나요?", "… 뭐라고 부르나요?", "얼마인가요?", "어떤 의미인가요?")
QUESTION_TERMS = frozenset(
    {"말", "말하", "하", "되", "있", "부르", "의미", "뜻", "뜻하", "얼마", "무엇", "뭐", "몇", "어떻", "어떤",
     "어느", "무슨", "알", "대하", "관하", "경우", "값", "기준"}
)  # fmt: skip
# a standard's code as typed: "KDS 14 31 05", "KDS143105", "kcs 14-20-10", "예시 14 20 22", optional ": 2022"
DOC_CODE_RE = re.compile(
    r"(?<![A-Za-z0-9])(KDS|KCS|예시)\s*(\d{2})[\s\-_]*(\d{2})[\s\-_]*(\d{2})(?!\d)(?:\s*[:：]\s*(?:19|20)\d{2}(?!\d))?",
    re.IGNORECASE,
)
# the code with a particle glued to it ("KDS 21 50 00에서 …"): a bare particle would read as a word
CODE_WITH_PARTICLE_RE = re.compile(
    DOC_CODE_RE.pattern
    + r"(?:(?:에서는|에서의|에서|에는|에의|에|의|은|는|을|를|이|가|과|와|로|으로|으로는)(?![가-힣]))?",
    re.IGNORECASE,
)
ONLY_NUMBERS_RE = re.compile(rf"^\s*(?:표|식)?\s*{_NUM}(?:\s*-\s*\d+)?\s*$")


@dataclass(frozen=True, slots=True)
class QueryTerms:
    """The query as the routes see it: its text, distinct terms and the subset that occurs in the library.

    ``codes``: the library's doc codes the query names (``text`` is then the query without them)."""

    text: str
    terms: tuple[str, ...]
    known: tuple[str, ...]
    codes: tuple[str, ...] = ()


def named_codes(query: str) -> list[tuple[str, str]]:
    """``(prefix, "14 31 05")`` for each standard's code typed in ``query`` (prefix upper-cased: KDS, KCS, 예시)."""
    return [(m.group(1).upper(), f"{m.group(2)} {m.group(3)} {m.group(4)}") for m in DOC_CODE_RE.finditer(query)]


def without_codes(query: str) -> str:
    """``query`` with the standards' codes cut out (the rest as typed, spaces tidied)."""
    return re.sub(r"\s{2,}", " ", CODE_WITH_PARTICLE_RE.sub(" ", query)).strip()


def library_codes_named(query: str, library: Sequence[str]) -> tuple[str, ...]:
    """The library's doc codes that ``query`` names: the same prefix and number, else (for an ``예시`` code on
    either side: a sample standing in for the real one) the same number."""
    by_number: dict[str, list[str]] = {}
    for code in library:
        m = DOC_CODE_RE.fullmatch(code.strip())
        if m:
            by_number.setdefault(f"{m.group(2)} {m.group(3)} {m.group(4)}", []).append(code)
    out: list[str] = []
    for prefix, number in named_codes(query):
        same = by_number.get(number, [])
        exact = [c for c in same if c.upper().startswith(prefix)]
        loose = [c for c in same if prefix == "예시" or c.startswith("예시")]
        out += exact or loose
    return tuple(dict.fromkeys(out))


def boost_codes(ranked: Sequence[Hit], codes: Sequence[str]) -> list[Hit]:
    """Hits of the standards ``codes`` ahead of the others, each group in its order, routes kept."""
    if not codes:
        return list(ranked)
    front = [h for h in ranked if h.chunk.doc.doc_code in codes]
    rest = [h for h in ranked if h.chunk.doc.doc_code not in codes]
    return [Hit(h.chunk, h.score, i + 1, h.route) for i, h in enumerate(front + rest)]


def table_numbers(query: str) -> list[str]:
    return [re.sub(r"\s+", "", m.group(1)) for m in TABLE_NO_RE.finditer(query)]


def clause_numbers(query: str) -> list[str]:
    return [m.group(1) for m in CLAUSE_RE.finditer(query)]


def is_symbol_query(query: str) -> bool:
    """No Hangul and not a bare clause/table number: the BM25 order stands."""
    return bool(query.strip()) and not has_hangul(query) and not ONLY_NUMBERS_RE.match(query)


def is_definition_question(query: str) -> bool:
    return lx.DEFINITION_QUESTION.search(query) is not None


def coverage(query_terms: Sequence[str], target: set[str]) -> float:
    if not query_terms:
        return 0.0
    return sum(1 for t in query_terms if t in target) / len(query_terms)


Ref = tuple[str, str]  # (chunk_id, file): enough to order route matches without loading chunks


def _order(refs: Sequence[Ref], ranked: Sequence[Hit]) -> list[Ref]:
    """Route matches in BM25 order: by their own rank, else by their document's best rank, else as found."""
    rank_of = {h.chunk.chunk_id: i for i, h in enumerate(ranked)}
    file_rank: dict[str, int] = {}
    for i, h in enumerate(ranked):
        file_rank.setdefault(h.chunk.doc.file, i)
    big = len(ranked) + 1

    def key(item: tuple[int, Ref]) -> tuple[float, int]:
        pos, (cid, file) = item
        if cid in rank_of:
            return (rank_of[cid], pos)
        return (file_rank.get(file, big) + 0.5, pos)

    return [r for _, r in sorted(enumerate(refs), key=key)]


def _load(catalog: Catalog, refs: Sequence[Ref]) -> list[Chunk]:
    return catalog.chunks([cid for cid, _ in refs], light=True)


def promote(ranked: Sequence[Hit], chunks: Sequence[Chunk], route: Route) -> list[Hit]:
    """Move ``chunks`` (in this order) to the front, labelled ``route``; everything else keeps its order."""
    if not chunks:
        return list(ranked)
    score_of = {h.chunk.chunk_id: h.score for h in ranked}
    ids = {c.chunk_id for c in chunks}
    front = [Hit(c, score_of.get(c.chunk_id, 0.0), 0, route) for c in chunks]
    rest = [h for h in ranked if h.chunk.chunk_id not in ids]
    return [Hit(h.chunk, h.score, i + 1, h.route) for i, h in enumerate(front + rest)]


def _per_file_best(refs: Sequence[Ref], ranked: Sequence[Hit]) -> list[Ref]:
    """One match per file: the best-ranked one, else the first in reading order; files in BM25 order."""
    seen: set[str] = set()
    out = []
    for ref in _order(refs, ranked):
        if ref[1] not in seen:
            seen.add(ref[1])
            out.append(ref)
    return out


def _scopes(q: QueryTerms, doc_codes: Sequence[str] | None) -> list[Sequence[str] | None]:
    """The doc-code filters to try in turn: the named standards first (when the query names any), then ``doc_codes``."""
    return [q.codes, doc_codes] if q.codes else [doc_codes]


def _route_by_number(
    catalog: Catalog, q: QueryTerms, ranked: list[Hit], doc_codes: Sequence[str] | None, route: Route
) -> list[Hit]:
    """Chunks of the table (``table_no``) or clause (``clause_no``) numbers the query names, best per file, in front;
    the named standards are searched first, the rest of the library only when they hold no such number."""
    numbers = table_numbers(q.text) if route == "table_no" else clause_numbers(q.text)
    found: list[Ref] = []
    for scope in _scopes(q, doc_codes):
        for number in numbers:
            if route == "table_no":
                found += catalog.chunk_refs_where(table_no=number, doc_codes=scope)
            else:
                found += catalog.chunk_refs_where(clause=number, doc_codes=scope)
        if found:
            break
    return promote(ranked, _load(catalog, _per_file_best(found, ranked)[:MAX_PER_ROUTE]), route)


def route_table_no(catalog: Catalog, q: QueryTerms, ranked: list[Hit], doc_codes: Sequence[str] | None) -> list[Hit]:
    return _route_by_number(catalog, q, ranked, doc_codes, "table_no")


def _title_row_matches(
    catalog: Catalog, known: Sequence[str], scope: Sequence[str] | None
) -> tuple[list[tuple[float, int, str]], Route]:
    """(−coverage, BM25 position, chunk id) of the tables whose title (else one row) covers the query enough."""
    lex = catalog.lexical
    best: list[tuple[float, int, str]] = []
    for i, h in enumerate(lex.search_field("title", list(known), limit=10, doc_codes=scope)):
        title = set(" ".join(h.stored.get("title", [""])).split())
        cov = coverage(known, title)
        if cov >= TITLE_COVERAGE - 1e-9:
            best.append((-cov, i, h.chunk_id))
    if best:
        return best, "table_title"
    for i, h in enumerate(lex.search_field("rows", list(known), limit=10, doc_codes=scope)):
        rows = " ".join(h.stored.get("rows", [""])).split("\n")
        cov = max((coverage(known, set(r.split())) for r in rows), default=0.0)
        if cov >= ROW_COVERAGE - 1e-9:
            best.append((-cov, i, h.chunk_id))
    return best, "table_row"


def route_table_title_row(
    catalog: Catalog, q: QueryTerms, ranked: list[Hit], doc_codes: Sequence[str] | None
) -> list[Hit]:
    refs = set(table_numbers(q.text)) | set(clause_numbers(q.text))
    known = [t for t in q.known if t not in refs and not (refs and t in ("표", "식"))]  # references have routes
    if not known:
        return ranked
    best: list[tuple[float, int, str]] = []
    route: Route = "table_title"
    for scope in _scopes(q, doc_codes):
        best, route = _title_row_matches(catalog, known, scope)
        if best:
            break
    if not best:
        return ranked
    best.sort()
    top = best[0][0]
    ids = [cid for cov, _, cid in best if cov <= top + 1e-9]  # the best-covering tables, in BM25 order
    matches = [(c.chunk_id, c.doc.file) for c in catalog.chunks(ids, light=True)]
    return promote(ranked, _load(catalog, _order(matches, ranked)[:MAX_PER_ROUTE]), route)


def route_clause_no(catalog: Catalog, q: QueryTerms, ranked: list[Hit], doc_codes: Sequence[str] | None) -> list[Hit]:
    return _route_by_number(catalog, q, ranked, doc_codes, "clause_no")


def front_matter_last(hits: Sequence[Hit]) -> list[Hit]:
    """The hits outside every clause (no clause number, no clause path) of files that have clause hits in the list
    moved behind all others, each group in its order (see the module docstring)."""
    with_clauses = {h.chunk.doc.file for h in hits if h.chunk.clause or h.chunk.clause_path}

    def front(h: Hit) -> bool:
        return not h.chunk.clause and not h.chunk.clause_path and h.chunk.doc.file in with_clauses

    back = [h for h in hits if front(h)]
    if not back:
        return list(hits)
    kept = [h for h in hits if not front(h)]
    return [Hit(h.chunk, h.score, i + 1, h.route) for i, h in enumerate(kept + back)]


def apply_routes(
    catalog: Catalog, q: QueryTerms, ranked: Sequence[Hit], doc_codes: Sequence[str] | None = None
) -> list[Hit]:
    """The ranked list with the routes applied (nothing removed; routed hits say which route placed them)."""
    hits = list(ranked)
    if q.codes:
        hits = boost_codes(hits, q.codes)
    if is_symbol_query(q.text):
        return hits
    hits = route_table_no(catalog, q, hits, doc_codes)
    if has_hangul(q.text) and not is_definition_question(q.text):
        hits = route_table_title_row(catalog, q, hits, doc_codes)
    return route_clause_no(catalog, q, hits, doc_codes)
