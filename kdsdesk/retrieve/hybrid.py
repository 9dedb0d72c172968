"""Search: BM25 candidates, dense candidates fused by RRF where vectors exist, then the routes.

``search`` = ``search_stages(...).hits``: the query is analysed once (``kdsdesk.text.korean.analyze``: the same
terms as the documents); Tantivy gives the BM25 pool (top ``POOL``; a question asking what a term means weighs the
definition-line fields more); dense search (Hangul queries only, when a model and vectors exist) is fused with it
by reciprocal rank; a value question about a term whose definition entry gives the value goes to that entry
(``definitions.route_defined_value``); the routes put structural matches in front (a standard's code in the query
— one the library holds — is cut out of the searched text and scopes the routes: ``routes.library_codes_named``) and
front matter (a cover, a 목차: ``routes.front_matter_last``) behind; the top ``k`` are returned, the newest edition of a
standard first unless the query names a year (``editions``).
``Stages.pool`` (the candidates before routing) serves the evaluation's pool recall.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kdsdesk.records import Hit
from kdsdesk.retrieve.definitions import route_defined_value, route_definition
from kdsdesk.retrieve.editions import prefer_editions
from kdsdesk.retrieve.routes import (
    QUESTION_TERMS,
    QueryTerms,
    apply_routes,
    front_matter_last,
    is_definition_question,
    library_codes_named,
    named_codes,
    without_codes,
)
from kdsdesk.retrieve.standards import standard_prior, with_standard_prior
from kdsdesk.text.symbols import has_hangul

if TYPE_CHECKING:
    from kdsdesk.index.library import Catalog

log = logging.getLogger(__name__)
POOL = 50
DEFINITION_DEFS_BOOST = 2.0
DEFINITION_LINE_BOOST = 1.0


@dataclass(frozen=True, slots=True)
class Stages:
    """One search, stage by stage: the BM25 list, the fused pool (before routes) and the final hits.

    Chunks in ``bm25`` (and BM25's in ``pool``) are light (``spans`` empty: cheaper to load); ``hits`` have full
    chunks."""

    bm25: list[Hit]
    pool: list[Hit]
    hits: list[Hit]
    terms: QueryTerms


def named_library_codes(catalog: Catalog, text: str, doc_codes: Sequence[str] | None = None) -> tuple[str, ...]:
    """The doc codes of the library (within ``doc_codes`` when given) that ``text`` names."""
    if not named_codes(text):
        return ()
    library = [c for c in catalog.doc_codes() if not doc_codes or c in doc_codes]
    return library_codes_named(text, library)


def query_terms(catalog: Catalog, text: str, doc_codes: Sequence[str] | None = None) -> tuple[QueryTerms, list[str]]:
    """The query's distinct terms, those the library knows, and its character bigrams.

    A standard's code the library holds is cut out of the text first (its digits and ``KDS`` are not search terms)
    and kept in ``QueryTerms.codes``; when nothing but the code was typed, the text stays as it was."""
    from kdsdesk.text.korean import analyze

    codes = named_library_codes(catalog, text, doc_codes)
    if codes and without_codes(text):
        text = without_codes(text)
    a = analyze(text)
    terms = tuple(dict.fromkeys(a.terms))
    known = tuple(catalog.lexical.known_terms([t for t in terms if t not in QUESTION_TERMS]))
    return QueryTerms(text, terms, known, codes), a.grams


def field_boosts(query: str) -> dict[str, float]:
    """The BM25 field weights for this query: a question asking what a term means weighs definition lines more."""
    from kdsdesk.index.lexical import FIELD_BOOSTS

    if is_definition_question(query):
        return {**FIELD_BOOSTS, "defs": DEFINITION_DEFS_BOOST, "line": DEFINITION_LINE_BOOST}
    return FIELD_BOOSTS


def bm25(catalog: Catalog, q: QueryTerms, grams: Sequence[str], n: int, doc_codes: Sequence[str] | None) -> list[Hit]:
    found = catalog.lexical.search(q.terms, grams, limit=n, doc_codes=doc_codes, boosts=field_boosts(q.text))
    chunks = {c.chunk_id: c for c in catalog.chunks([h.chunk_id for h in found], light=True)}
    out: list[Hit] = []
    for h in found:
        c = chunks.get(h.chunk_id)
        if c is not None:  # a chunk of a file being replaced or removed is skipped
            out.append(Hit(c, h.score, len(out) + 1, "bm25"))
    return out


def _fuse(catalog: Catalog, query: str, lexical: list[Hit], doc_codes: Sequence[str] | None) -> list[Hit]:
    from kdsdesk.index.dense import dense_search

    dense_hits = dense_search(catalog, query, n=POOL, doc_codes=doc_codes)
    if not dense_hits:
        return lexical
    try:
        from kdsdesk.retrieve.rrf import rrf_fuse
    except ImportError:
        return lexical
    return list(rrf_fuse([lexical, dense_hits]))


def search_stages(
    catalog: Catalog, query: str, k: int = 20, doc_codes: Sequence[str] | None = None, dense: bool = True
) -> Stages:
    q, grams = query_terms(catalog, query, doc_codes)
    lexical = bm25(catalog, q, grams, POOL, doc_codes) if q.terms or grams else []
    file_codes = catalog.file_codes()
    prior = standard_prior(catalog, q, grams, doc_codes, len(file_codes))
    if lexical and prior:

        def within(codes: Sequence[str], n: int) -> list[Hit]:
            return bm25(catalog, q, grams, n, codes)

        lexical = with_standard_prior(lexical, prior, file_codes, within)
    pool = _fuse(catalog, q.text, lexical, doc_codes) if dense and has_hangul(q.text) else lexical
    routed = route_defined_value(catalog, q, pool, doc_codes, prior)  # before the table and clause routes
    routed = route_definition(catalog, q, apply_routes(catalog, q, routed, doc_codes), doc_codes, prior)
    routed = front_matter_last(routed)
    routed = prefer_editions(routed, catalog.editions(), query)[:k]
    full = {c.chunk_id: c for c in catalog.chunks([h.chunk.chunk_id for h in routed])}  # with spans, for display
    hits: list[Hit] = []
    for h in routed:
        if h.chunk.chunk_id in full:  # (a file removed meanwhile drops out)
            hits.append(Hit(full[h.chunk.chunk_id], h.score, len(hits) + 1, h.route))
    return Stages(lexical, pool, hits, q)


def search(
    catalog: Catalog, query: str, k: int = 20, doc_codes: Sequence[str] | None = None, dense: bool = True
) -> list[Hit]:
    """Top ``k`` hits for ``query`` (every hit says which route placed it)."""
    return search_stages(catalog, query, k=k, doc_codes=doc_codes, dense=dense).hits
