"""Which standard: in a large library the question's own words — the standard it names by title ("소규모건축
구조기준에서"), its field or domain (교량, 터널, 말뚝, 조적식구조, 허용응력설계법 …) — point to a few standards.

Each indexed file has a profile in the lexical index (``kdsdesk.index.terms``: its code and title, its clause
headings, the text of 1.1 목적 and 1.2 적용범위). The question's content terms are searched over the profiles
(BM25); the best ``TOP_STANDARDS`` standards add their own best chunks to the candidate pool (whether or not some
of their chunks are in it already), and every candidate's BM25 score is raised by ``PRIOR_WEIGHT`` times its
standard's profile score relative to the best one. With a few files (the prior cannot choose among one or two), or
when no profile matches, the pool is left as it was.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from kdsdesk.index.terms import PROFILE_PREFIX
from kdsdesk.records import Hit

if TYPE_CHECKING:
    from kdsdesk.index.library import Catalog
    from kdsdesk.retrieve.routes import QueryTerms

TOP_STANDARDS = 3  # standards whose best chunks join the pool
EXTRA_PER_STANDARD = 8
PRIOR_WEIGHT = 0.2
MIN_FILES = 3


PROFILE_BOOSTS = {"ptitle": 1.0, "prof": 0.3}


def standard_scores(
    catalog: Catalog, terms: Sequence[str], grams: Sequence[str], doc_codes: Sequence[str] | None
) -> dict[str, float]:
    """File → profile score relative to the best (1.0 for the best), for the files whose profile matches."""
    hits = catalog.lexical.search(terms, grams, limit=20, doc_codes=doc_codes, boosts=PROFILE_BOOSTS)
    out: dict[str, float] = {}
    top = hits[0].score if hits else 0.0
    for h in hits:
        if h.chunk_id.startswith(PROFILE_PREFIX) and top > 0:
            out.setdefault(h.chunk_id[len(PROFILE_PREFIX) :], h.score / top)
    return out


def standard_prior(
    catalog: Catalog, q: QueryTerms, grams: Sequence[str], doc_codes: Sequence[str] | None, n_files: int
) -> dict[str, float]:
    """The question's standards (file → relative profile score); empty when the library is too small to choose,
    the question names a standard's code, or has no content terms."""
    if n_files < MIN_FILES or not q.known or q.codes:
        return {}
    return standard_scores(catalog, q.known, grams, doc_codes)


def with_standard_prior(
    pool: Sequence[Hit],
    prior: dict[str, float],
    file_codes: dict[str, str],
    search_in: Callable[[Sequence[str], int], list[Hit]],
) -> list[Hit]:
    """The BM25 pool with the best standards' chunks added (``search_in(codes, n)``: the same BM25 query within
    those standards) and every score raised by its standard's prior."""
    if not prior:
        return list(pool)
    best_files = list(prior)[:TOP_STANDARDS]
    # every best standard's own best chunks, also when one of its chunks is already in the pool: the pool may hold
    # its 1.1 목적 that shares the question's words and miss the short clause the question asks about
    want = sorted({file_codes.get(f, "") for f in best_files} - {""})
    extra = search_in(want, EXTRA_PER_STANDARD * len(want)) if want else []
    seen: set[str] = set()
    merged: list[Hit] = []
    for h in [*pool, *extra]:
        if h.chunk.chunk_id not in seen:
            seen.add(h.chunk.chunk_id)
            merged.append(h)

    def boosted(h: Hit) -> float:
        return h.score * (1.0 + PRIOR_WEIGHT * prior.get(h.chunk.doc.file, 0.0))

    scored = sorted(merged, key=lambda h: -boosted(h))
    return [Hit(h.chunk, boosted(h), i + 1, h.route) for i, h in enumerate(scored)]
