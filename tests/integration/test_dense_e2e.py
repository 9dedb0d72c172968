"""Dense retrieval end to end through ``kdsdesk.service.Library`` with the tiny encoder: lexical-only without a
model, background encoding that can be interrupted and resumed, RRF fusion once vectors exist, a document added
later searchable at once (lexically) without vectors, and a removed document's vectors ignored."""

from __future__ import annotations

from pathlib import Path

import pytest

from kdsdesk import paths
from kdsdesk.index import encoder as enc_mod
from kdsdesk.index.dense import dense_search
from kdsdesk.index.encoder import encoder_status
from kdsdesk.retrieve.hybrid import search_stages
from kdsdesk.service import Library, drain
from tests.data.tiny_encoder import build_tiny_encoder

QUERY = "전단철근의 간격 제한"


@pytest.mark.slow
def test_dense_and_rrf_through_the_library(samples: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    models = tmp_path / "models"
    monkeypatch.setenv("KDSDESK_MODELS", str(models))
    monkeypatch.setattr(paths, "model_dirs", lambda: [models])  # ignore a real model a developer may have
    monkeypatch.setattr(enc_mod, "MAX_BATCH", 8)  # several batches, so encoding can stop mid-way
    lib = Library()
    try:
        drain(lib.add([samples / "dev-kds-14-20-22.hwpx", samples / "dev-kds-14-31-25.hwpx"]))
        docs = lib.documents()
        assert len(docs) == 2
        assert all(d.status == "searchable" for d in docs)

        # no model: lexical search only, said in Korean; encoding is a no-op
        ok, msg = encoder_status()
        assert not ok
        assert "단어 검색만" in msg
        lexical = lib.search(QUERY)
        assert lexical
        assert "rrf" not in {h.route for h in lexical}
        assert drain(lib.encode_pending()) == 0

        # the model arrives (a tiny one whose tokenizer learnt the documents' words)
        texts = [c.text for c in lib.catalog.iter_chunks()]
        build_tiny_encoder(models / "bge-m3", dim=32, int8=True, sentences=texts, vocab_size=800)
        assert encoder_status()[0]

        # interrupted after two batches: what was done is kept and already searchable; a restart resumes
        gen = lib.encode_pending()
        total = next(gen).total
        next(gen), next(gen)
        gen.close()
        assert total == len(texts)
        partial = dense_search(lib.catalog, QUERY, n=500)
        assert 0 < len(partial) < total
        resumed = lib.encode_pending()
        assert next(resumed).total == total - len(partial)
        assert drain(resumed) == total - len(partial)
        assert all(d.n_vectors == d.n_chunks > 0 for d in lib.documents())
        assert len(dense_search(lib.catalog, QUERY, n=500)) == total

        # fused: the pool is RRF of BM25 and dense; the best lexical hit stays among the results
        stages = search_stages(lib.catalog, QUERY, k=20)
        assert {h.route for h in stages.pool} == {"rrf"}
        hits = lib.search(QUERY)
        assert lexical[0].chunk.chunk_id in [h.chunk.chunk_id for h in hits]
        assert lib.search(QUERY, dense=False)[0].chunk.chunk_id == lexical[0].chunk.chunk_id

        # a document added after encoding is searchable at once, lexically; dense knows nothing of it yet
        drain(lib.add([samples / "dev-kds-21-50-00.hwpx"]))
        new = next(d for d in lib.documents() if d.file.endswith("dev-kds-21-50-00.hwpx"))
        assert new.status == "searchable"
        assert new.n_vectors == 0
        assert all(h.chunk.doc.sha256 != new.sha256 for h in dense_search(lib.catalog, "거푸집 동바리", n=500))
        assert any(h.chunk.doc.sha256 == new.sha256 for h in lib.search("거푸집 동바리"))
        assert drain(lib.encode_pending()) == new.n_chunks
        assert any(h.chunk.doc.sha256 == new.sha256 for h in dense_search(lib.catalog, "거푸집 동바리"))

        # a removed document's vectors no longer count
        gone = next(d for d in lib.documents() if d.file.endswith("dev-kds-14-31-25.hwpx"))
        assert lib.remove([samples / "dev-kds-14-31-25.hwpx"]) == 1
        assert all(h.chunk.doc.sha256 != gone.sha256 for h in dense_search(lib.catalog, "고장력볼트", n=500))
    finally:
        lib.close()
