"""Reciprocal Rank Fusion (Cormack, Clarke & Büttcher 2009): pure functions over ranked ``Hit`` lists.

``score(chunk) = Σ 1 / (k + rank)`` over the rankings that contain the chunk, where ``rank`` is the chunk's 1-based
position in that ranking (its list position, not ``Hit.rank``; a chunk listed twice in one ranking counts once, at
its first position). ``k = 60`` as in the paper: it damps the weight of the very first ranks so that agreement of
several rankings outweighs one ranking's top hit.

Rules, kept simple:

- Two or more non-empty rankings: every fused hit has route ``"rrf"``, ``score`` = the fused score, ``rank`` = its
  1-based position in the result, and the ``Chunk`` object from the first ranking that lists it.
- Only one non-empty ranking (e.g. dense found nothing, or no vectors yet): there is nothing to fuse, so its hits
  come back unchanged — same order, routes and scores (ranks renumbered from 1), so BM25-only results keep route
  ``"bm25"``.
- Ties in the fused score keep the order in which chunks first appear when the rankings are read in the given
  order (put the ranking that should win ties first, e.g. BM25 before dense). Sorting is stable.
- ``limit`` cuts the result after sorting; ``None`` keeps all.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from kdsdesk.records import Chunk, Hit

DEFAULT_K = 60


def rrf_scores(rankings: Sequence[Sequence[Hit]], k: int = DEFAULT_K) -> dict[str, float]:
    """Chunk id → fused score, in first-appearance order."""
    if k < 0:
        raise ValueError("k must be >= 0")
    scores: dict[str, float] = {}
    for ranking in rankings:
        seen: set[str] = set()
        for position, hit in enumerate(ranking, start=1):
            cid = hit.chunk.chunk_id
            if cid in seen:
                continue
            seen.add(cid)
            scores[cid] = scores.get(cid, 0.0) + 1.0 / (k + position)
    return scores


def rrf_fuse(rankings: Sequence[Sequence[Hit]], k: int = DEFAULT_K, limit: int | None = None) -> list[Hit]:
    """Fuse ranked hit lists by Reciprocal Rank Fusion (see the module docstring for the exact rules)."""
    non_empty = [r for r in rankings if r]
    if len(non_empty) <= 1:
        only = list(non_empty[0]) if non_empty else []
        kept: list[Hit] = []
        seen: set[str] = set()
        for hit in only:
            if hit.chunk.chunk_id not in seen:
                seen.add(hit.chunk.chunk_id)
                kept.append(replace(hit, rank=len(kept) + 1))
        return kept[: max(0, limit)] if limit is not None else kept
    scores = rrf_scores(non_empty, k)
    chunks: dict[str, Chunk] = {}
    for ranking in non_empty:
        for hit in ranking:
            chunks.setdefault(hit.chunk.chunk_id, hit.chunk)
    order = sorted(scores, key=lambda cid: -scores[cid])  # stable: ties keep first appearance
    if limit is not None:
        order = order[: max(0, limit)]
    return [Hit(chunk=chunks[cid], score=scores[cid], rank=i, route="rrf") for i, cid in enumerate(order, start=1)]
