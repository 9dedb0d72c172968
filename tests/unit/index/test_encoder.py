"""The encoder contract on a tiny XLM-R-shaped ONNX model: finding files, pooling, batching, status messages."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from kdsdesk.index import encoder as enc_mod
from kdsdesk.index.encoder import MAX_TOKENS, Encoder, EncoderFiles, encoder_status, find_encoder, load_encoder
from tests.data.tiny_encoder import SENTENCES, build_tiny_encoder

DIM = 32


@pytest.fixture(scope="module")
def models(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("models")
    build_tiny_encoder(root / "bge-m3", dim=DIM, int8=True)
    return root


@pytest.fixture
def on_path(models: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("KDSDESK_MODELS", str(models))
    return models / "bge-m3"


def test_int8_preferred_and_identity_stable(on_path: Path) -> None:
    files = find_encoder()
    assert files is not None
    assert files.model.name == "model_int8.onnx"
    assert find_encoder(str(on_path)) == files
    assert f"max_tokens={MAX_TOKENS}" in files.identity


def test_fp32_when_no_int8(tmp_path: Path, models: Path) -> None:
    folder = tmp_path / "enc"
    folder.mkdir()
    for name in ("model.onnx", "tokenizer.json"):
        (folder / name).write_bytes((models / "bge-m3" / name).read_bytes())
    files = find_encoder(str(folder))
    assert files is not None
    assert files.model.name == "model.onnx"
    ok, msg = encoder_status(str(folder))
    assert ok
    assert "fp32" in msg


def test_identity_changes_with_content(tmp_path: Path, models: Path) -> None:
    folder = tmp_path / "enc"
    folder.mkdir()
    (folder / "tokenizer.json").write_bytes((models / "bge-m3" / "tokenizer.json").read_bytes())
    (folder / "model.onnx").write_bytes((models / "bge-m3" / "model.onnx").read_bytes())
    before = find_encoder(str(folder))
    build_tiny_encoder(folder, dim=DIM, seed=7)  # same names, other weights
    after = find_encoder(str(folder))
    assert before is not None
    assert after is not None
    assert before.identity != after.identity


def test_status_missing_model_is_korean(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KDSDESK_MODELS", str(tmp_path / "none"))
    monkeypatch.setattr(enc_mod.paths, "model", lambda *parts: None)
    ok, msg = encoder_status()
    assert not ok
    assert "의미 검색 모델(BGE-M3)이 없어 단어 검색만 사용합니다" in msg
    assert load_encoder() is None


def test_status_incomplete_folder(tmp_path: Path) -> None:
    (tmp_path / "model.onnx").write_bytes(b"")
    ok, msg = encoder_status(str(tmp_path))
    assert not ok
    assert "tokenizer.json" in msg


def test_vectors_unit_length_and_similarity(on_path: Path) -> None:
    encoder = load_encoder(threads=1)
    assert encoder is not None
    assert encoder.dim == DIM
    vecs = encoder.encode(SENTENCES)
    assert vecs.shape == (len(SENTENCES), DIM)
    assert vecs.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-5)
    # a text is nearest to itself, and a paraphrase sharing its words is among its nearest (the tiny model's
    # tokenizer is trained at test time, and its pieces vary between runs: first place is not assured)
    assert int(np.argmax(vecs @ vecs[3])) == 3
    q = encoder.encode(["고장력볼트 마찰접합 연결부"])[0]
    assert 3 in [int(i) for i in np.argsort(-(vecs @ q))[:3]]


def test_cls_pooling_of_raw_output(on_path: Path) -> None:
    """The vector is the normalised hidden state of the first position of the model's own output."""
    encoder = load_encoder()
    assert encoder is not None
    feeds = encoder.pad(encoder.tokenise(SENTENCES[:2]))
    raw = encoder._session.run(["last_hidden_state"], feeds)[0]
    cls = raw[:, 0, :] / np.linalg.norm(raw[:, 0, :], axis=1, keepdims=True)
    np.testing.assert_allclose(encoder.encode(SENTENCES[:2]), cls, atol=1e-6)


def _fp32(files: EncoderFiles) -> Encoder:
    return Encoder(EncoderFiles(files.folder, files.folder / "model.onnx", files.tokenizer, "fp32"), threads=1)


def test_order_and_padding_do_not_change_vectors(on_path: Path) -> None:
    """Length-sorted, dynamically padded batches give each text the vector it gets alone, in the caller's order.

    Exact for fp32. Dynamic int8 quantises activations per batch, so batch mates move a vector slightly.
    """
    files = find_encoder()
    assert files is not None
    texts = [SENTENCES[5], "짧다", SENTENCES[0] * 3, SENTENCES[9]]
    fp32 = _fp32(files)
    together = fp32.encode(texts)
    alone = np.vstack([fp32.encode([t]) for t in texts])
    np.testing.assert_allclose(together, alone, atol=1e-5)
    int8 = load_encoder()
    assert int8 is not None
    cos = (int8.encode(texts) * np.vstack([int8.encode([t]) for t in texts])).sum(axis=1)
    assert cos.min() > 0.99


def test_batches_sorted_bounded_and_complete() -> None:
    lengths = [5, 300, 12, 512, 40, 7, 512, 200] * 10
    batches = list(Encoder.batches(lengths))
    flat = [i for b in batches for i in b]
    assert sorted(flat) == list(range(len(lengths)))
    assert [lengths[i] for i in flat] == sorted(lengths)
    for b in batches:
        assert len(b) <= enc_mod.MAX_BATCH
        assert len(b) == 1 or len(b) * max(lengths[i] for i in b) <= enc_mod.BATCH_TOKENS


def test_length_cap(on_path: Path) -> None:
    encoder = load_encoder()
    assert encoder is not None
    ids = encoder.tokenise([" ".join(SENTENCES) * 20])[0]
    assert len(ids) == MAX_TOKENS
    assert ids[0] == 0
    assert ids[-1] == 2  # </s> kept after truncation
    assert encoder.encode([" ".join(SENTENCES) * 20]).shape == (1, DIM)


def test_encoder_loaded_once(on_path: Path) -> None:
    assert load_encoder(threads=1) is load_encoder(threads=2)


def test_int8_close_to_fp32(on_path: Path) -> None:
    files = find_encoder()
    assert files is not None
    fp32 = _fp32(files)
    int8 = load_encoder()
    assert int8 is not None
    cos = (fp32.encode(SENTENCES) * int8.encode(SENTENCES)).sum(axis=1)
    assert cos.min() > 0.99
