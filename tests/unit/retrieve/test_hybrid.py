"""hybrid.search: BM25 pool, dense fusion by RRF only for Hangul queries with dense hits, routes, top k."""

from __future__ import annotations

import pytest

from kdsdesk.index import dense as dense_mod
from kdsdesk.index.library import Catalog
from kdsdesk.records import Hit
from kdsdesk.retrieve.hybrid import search, search_stages


def test_top_k_ranks_and_text(route_catalog: Catalog) -> None:
    hits = search(route_catalog, "전단철근 배치", k=2, dense=False)
    assert len(hits) == 2
    assert [h.rank for h in hits] == [1, 2]
    assert all(h.chunk.doc.doc_code == "KDS 99 00 01" and h.chunk.doc.year == "2024" for h in hits)


@pytest.mark.parametrize("query", ['"(*', "", "   ", "AND OR NOT", "title:x", "표", "4.", "~~~", "표 ( -"])
def test_odd_queries_never_raise(route_catalog: Catalog, query: str) -> None:
    assert isinstance(search(route_catalog, query, dense=False), list)


def test_doc_code_filter(route_catalog: Catalog) -> None:
    assert search(route_catalog, "전단철근", doc_codes=["KDS 00 00 00"], dense=False) == []
    assert search(route_catalog, "전단철근", doc_codes=["KDS 99 00 01"], dense=False)


def _dense_stub(catalog: Catalog, calls: list[str]):  # type: ignore[no-untyped-def]
    # "dense" finds the clause 1.1 text, which shares no term with the query
    target = next(c for c in catalog.iter_chunks() if c.clause == "1.1")

    def fake(cat: Catalog, query: str, n: int = 50, doc_codes: object = None) -> list[Hit]:
        calls.append(query)
        return [Hit(target, 0.9, 1, "dense")]

    return fake, target


def test_dense_is_fused_for_hangul_queries(route_catalog: Catalog, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    fake, target = _dense_stub(route_catalog, calls)
    monkeypatch.setattr(dense_mod, "dense_search", fake)
    st = search_stages(route_catalog, "전단철근 배치", k=20, dense=True)
    assert calls == ["전단철근 배치"]
    assert target.chunk_id not in {h.chunk.chunk_id for h in st.bm25}
    assert target.chunk_id in {h.chunk.chunk_id for h in st.pool}
    assert {h.route for h in st.pool} == {"rrf"}


def test_dense_skipped_for_symbol_queries_and_when_off(route_catalog: Catalog, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    fake, _ = _dense_stub(route_catalog, calls)
    monkeypatch.setattr(dense_mod, "dense_search", fake)
    search(route_catalog, "F13T", dense=True)
    search(route_catalog, "전단철근", dense=False)
    assert calls == []


def test_no_dense_hits_keeps_bm25(route_catalog: Catalog, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dense_mod, "dense_search", lambda *a, **k: [])
    st = search_stages(route_catalog, "전단철근 배치", dense=True)
    assert st.pool == st.bm25
