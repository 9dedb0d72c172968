"""RRF against a hand-computed example, plus its edge rules (single ranking, ties, duplicates, limit)."""

from __future__ import annotations

import pytest

from kdsdesk.records import Chunk, DocRef, Hit, Route
from kdsdesk.retrieve.rrf import rrf_fuse, rrf_scores

DOC = DocRef(file="/x/a.pdf", sha256="0" * 64, kind="pdf")


def hits(ids: str, route: Route = "bm25") -> list[Hit]:
    return [
        Hit(chunk=Chunk(chunk_id=c, doc=DOC, kind="text", text=c), score=10.0 - i, rank=i + 1, route=route)
        for i, c in enumerate(ids)
    ]


def test_hand_computed_example() -> None:
    # BM25: A B C D; dense: C A E.  k = 60:
    #   A = 1/61 + 1/62 = 0.0325224748    C = 1/63 + 1/61 = 0.0322664585
    #   B = 1/62        = 0.0161290323    E = 1/63        = 0.0158730159    D = 1/64 = 0.015625
    fused = rrf_fuse([hits("ABCD"), hits("CAE", "dense")])
    assert [h.chunk.chunk_id for h in fused] == ["A", "C", "B", "E", "D"]
    assert [h.score for h in fused] == pytest.approx([0.0325224748, 0.0322664585, 0.0161290323, 0.0158730159, 0.015625])
    assert [h.rank for h in fused] == [1, 2, 3, 4, 5]
    assert {h.route for h in fused} == {"rrf"}


def test_k_changes_the_balance() -> None:
    # A is 1st and 10th, B is 3rd and 3rd.  k = 0: A = 1 + 1/10 = 1.1 > B = 2/3 → A first;
    # k = 60: A = 1/61 + 1/70 = 0.0306792 < B = 2/63 = 0.0317460 → agreement wins, B first.
    bm25, dense = hits("AXB"), hits("PQBRSTUVWA", "dense")
    at0 = [h.chunk.chunk_id for h in rrf_fuse([bm25, dense], k=0)]
    assert at0[:3] == ["A", "P", "B"]  # P = 1/1, B = 2/3
    assert at0.index("A") < at0.index("B")
    assert rrf_fuse([bm25, dense], k=0)[0].score == pytest.approx(1.1)
    top = rrf_fuse([bm25, dense], k=60)[:2]
    assert [h.chunk.chunk_id for h in top] == ["B", "A"]
    assert [h.score for h in top] == pytest.approx([2 / 63, 1 / 61 + 1 / 70])


def test_ties_keep_first_appearance() -> None:
    assert [h.chunk.chunk_id for h in rrf_fuse([hits("A"), hits("B")])] == ["A", "B"]
    assert [h.chunk.chunk_id for h in rrf_fuse([hits("B"), hits("A")])] == ["B", "A"]
    assert [h.chunk.chunk_id for h in rrf_fuse([hits("AB"), hits("BA")])] == ["A", "B"]


def test_single_ranking_is_returned_unchanged() -> None:
    bm25 = hits("ABC")
    out = rrf_fuse([bm25, []])
    assert out == bm25
    assert {h.route for h in out} == {"bm25"}
    assert rrf_fuse([[], []]) == []
    assert rrf_fuse([]) == []


def test_limit_and_duplicates() -> None:
    fused = rrf_fuse([hits("AAB"), hits("BC")], limit=2)
    assert [h.chunk.chunk_id for h in fused] == ["B", "A"]  # B = 1/62 + 1/61 > A = 1/61 (counted once)
    assert rrf_scores([hits("AAB")])["A"] == pytest.approx(1 / 61)
    assert rrf_fuse([hits("ABC"), []], limit=2) == hits("AB")
    assert rrf_fuse([hits("AB"), hits("C")], limit=0) == []


def test_chunk_object_from_first_ranking() -> None:
    first = hits("A")
    other = [Hit(chunk=Chunk(chunk_id="A", doc=DOC, kind="text", text="other copy"), score=1, rank=1, route="dense")]
    fused = rrf_fuse([first, other, hits("B")])
    assert fused[0].chunk is first[0].chunk
