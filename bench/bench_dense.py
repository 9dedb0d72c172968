"""Dense-encoding benchmark (not CI): a BGE-M3-shaped ONNX model with random weights on this machine's CPU.

Builds (once, cached under ``bench/out/``, git-ignored) an XLM-R-shaped encoder — ``--layers`` 24, hidden 1,024,
16 heads, FFN 4,096, GELU, post-LayerNorm, position ids from the attention mask like XLM-R — saved the way the
official export is (``model.onnx`` + ``model.onnx_data``), its int8 twin made with ``quantize_dynamic`` (what
``packaging/export_bge_m3.py`` does), and a Unigram ``tokenizer.json`` trained on the real KDS texts in
``../shared/corpus/real/kds/*.json`` (8,000 pieces instead of XLM-R's 250,002: the vocabulary size changes only the
embedding lookup, not the speed).

Then, for int8 and fp32, at 128/256/512 tokens per chunk, on identical inputs:

- raw: ``InferenceSession.run`` alone on pre-tokenised, pre-padded batches (ONNX Runtime's own throughput);
- pipeline: ``Encoder.encode(texts)`` (tokenise, length-sort, batch, pad, run, CLS-pool, normalise);
- store: ``encode_pending`` through a small catalog (adds float16 append, fsync and manifest checkpoints) — int8.

It reports chunks/s, tokens/s, pipeline/raw ratio (target ≥ 0.9), the estimated time to encode the 568-standard
corpus (~50k chunks, ~300 tokens each) and the exact-cosine search time over 50k × 1,024 float16 vectors.

    .venv/bin/python bench/bench_dense.py              # full model (~1.3 GB fp32; needs ~5 GB RAM to build)
    .venv/bin/python bench/bench_dense.py --layers 6   # a quarter of the layers; figures are scaled ×4

Timings are the best of ``--repeat`` runs (the machine is shared). Results also go to ``bench/out/bench_dense.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from kdsdesk.index.encoder import Encoder, EncoderFiles  # noqa: E402

OUT = REPO / "bench" / "out"
KDS_JSON = REPO.parent / "shared" / "corpus" / "real" / "kds"
CORPUS_CHUNKS = 50_000
CORPUS_TOKENS = 300  # mean tokens per chunk assumed for the corpus estimate


# -- the model ------------------------------------------------------------------------------------------------------
def build_model(folder: Path, vocab: int, layers: int, hidden: int, heads: int, ffn: int, seed: int = 0) -> None:
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    rng = np.random.default_rng(seed)
    inits: list[onnx.TensorProto] = []
    nodes: list[onnx.NodeProto] = []

    def w(name: str, *shape: int, std: float = 0.02) -> str:
        inits.append(numpy_helper.from_array((rng.standard_normal(shape, dtype=np.float32) * std), name))
        return name

    def const(name: str, value: np.ndarray) -> str:
        inits.append(numpy_helper.from_array(value, name))
        return name

    def ones(name: str, n: int, v: float) -> str:
        return const(name, np.full(n, v, dtype=np.float32))

    def node(op: str, ins: list[str], out: str, **kw: object) -> str:
        nodes.append(helper.make_node(op, ins, [out], **kw))
        return out

    def layernorm(x: str, tag: str) -> str:
        return node(
            "LayerNormalization",
            [x, ones(f"{tag}.g", hidden, 1.0), ones(f"{tag}.b", hidden, 0.0)],
            f"{tag}.out",
            axis=-1,
            epsilon=1e-5,
        )

    def dense(x: str, tag: str, n_in: int, n_out: int) -> str:
        y = node("MatMul", [x, w(f"{tag}.w", n_in, n_out)], f"{tag}.mm")
        return node("Add", [y, ones(f"{tag}.bias", n_out, 0.0)], f"{tag}.out")

    head_dim = hidden // heads
    split = const("split_shape", np.array([0, 0, heads, head_dim], dtype=np.int64))
    merge = const("merge_shape", np.array([0, 0, hidden], dtype=np.int64))
    scale = const("scale", np.array(1.0 / np.sqrt(head_dim), dtype=np.float32))
    one_f = const("one_f", np.array(1.0, dtype=np.float32))
    one_i = const("one_i", np.array(1, dtype=np.int64))
    big = const("neg_big", np.array(-1e4, dtype=np.float32))
    half = const("half", np.array(0.5, dtype=np.float32))
    rsqrt2 = const("rsqrt2", np.array(1.0 / np.sqrt(2.0), dtype=np.float32))
    axis1 = const("axis1", np.array(1, dtype=np.int64))
    axes12 = const("axes12", np.array([1, 2], dtype=np.int64))

    we = node("Gather", [w("word_emb", vocab, hidden), "input_ids"], "we")
    cums = node("CumSum", ["attention_mask", axis1], "cums")
    pos = node("Add", [node("Mul", [cums, "attention_mask"], "pos0"), one_i], "pos")  # XLM-R: padding_idx 1
    pe = node("Gather", [w("pos_emb", 514, hidden), pos], "pe")
    x = layernorm(node("Add", [we, pe], "emb"), "emb_ln")
    maskf = node("Cast", ["attention_mask"], "maskf", to=TensorProto.FLOAT)
    bias = node("Unsqueeze", [node("Mul", [node("Sub", [one_f, maskf], "inv"), big], "bias0"), axes12], "bias")
    for i in range(layers):
        t = f"l{i}"
        q = node(
            "Transpose",
            [node("Reshape", [dense(x, f"{t}.q", hidden, hidden), split], f"{t}.qr")],
            f"{t}.qt",
            perm=[0, 2, 1, 3],
        )
        k = node(
            "Transpose",
            [node("Reshape", [dense(x, f"{t}.k", hidden, hidden), split], f"{t}.kr")],
            f"{t}.kt",
            perm=[0, 2, 3, 1],
        )
        v = node(
            "Transpose",
            [node("Reshape", [dense(x, f"{t}.v", hidden, hidden), split], f"{t}.vr")],
            f"{t}.vt",
            perm=[0, 2, 1, 3],
        )
        s = node("Add", [node("Mul", [node("MatMul", [q, k], f"{t}.qk"), scale], f"{t}.qks"), bias], f"{t}.sc")
        ctx = node("MatMul", [node("Softmax", [s], f"{t}.p", axis=-1), v], f"{t}.ctx")
        ctx = node("Reshape", [node("Transpose", [ctx], f"{t}.ctxt", perm=[0, 2, 1, 3]), merge], f"{t}.ctxm")
        x = layernorm(node("Add", [dense(ctx, f"{t}.o", hidden, hidden), x], f"{t}.res1"), f"{t}.ln1")
        h = dense(x, f"{t}.f1", hidden, ffn)
        erf = node("Erf", [node("Mul", [h, rsqrt2], f"{t}.hs")], f"{t}.erf")
        g = node("Mul", [node("Mul", [h, half], f"{t}.hh"), node("Add", [erf, one_f], f"{t}.erf1")], f"{t}.gelu")
        x = layernorm(node("Add", [dense(g, f"{t}.f2", ffn, hidden), x], f"{t}.res2"), f"{t}.ln2")
    nodes.append(helper.make_node("Identity", [x], ["last_hidden_state"]))
    graph = helper.make_graph(
        nodes,
        "bge_m3_shaped",
        [
            helper.make_tensor_value_info(n, TensorProto.INT64, ["batch", "seq"])
            for n in ("input_ids", "attention_mask")
        ],
        [helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT, ["batch", "seq", hidden])],
        initializer=inits,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], producer_name="kdsdesk-bench")
    model.ir_version = 8
    folder.mkdir(parents=True, exist_ok=True)
    onnx.save_model(
        model,
        str(folder / "model.onnx"),
        save_as_external_data=True,
        all_tensors_to_one_file=True,
        location="model.onnx_data",
        size_threshold=1024,
    )


def kds_texts() -> list[str]:
    texts = []
    for p in sorted(KDS_JSON.glob("*.json")):
        content = json.loads(p.read_text(encoding="utf-8")).get("content", "")
        full = content.get("full", "") if isinstance(content, dict) else str(content)
        texts += [full[i : i + 700] for i in range(0, len(full), 700)]
    if not texts:
        sys.exit(f"no KDS texts found in {KDS_JSON}")
    return texts


def build_tokenizer(path: Path, texts: list[str]) -> int:
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, processors, trainers

    tok = Tokenizer(models.Unigram())
    tok.pre_tokenizer = pre_tokenizers.Metaspace()
    tok.decoder = decoders.Metaspace()
    trainer = trainers.UnigramTrainer(
        vocab_size=8000, special_tokens=["<s>", "<pad>", "</s>", "<unk>"], unk_token="<unk>"
    )
    tok.train_from_iterator(texts, trainer=trainer)
    tok.post_processor = processors.TemplateProcessing(single="<s> $A </s>", special_tokens=[("<s>", 0), ("</s>", 2)])
    tok.save(str(path))
    return int(tok.get_vocab_size())


def prepare(folder: Path, layers: int) -> None:
    from onnxruntime.quantization import QuantType, quantize_dynamic

    if (folder / "model_int8.onnx").exists():
        return
    t = time.perf_counter()
    folder.mkdir(parents=True, exist_ok=True)
    vocab = build_tokenizer(folder / "tokenizer.json", kds_texts())
    build_model(folder, vocab, layers, 1024, 16, 4096)
    print(f"built fp32 model in {time.perf_counter() - t:.0f} s", flush=True)
    t = time.perf_counter()
    quantize_dynamic(str(folder / "model.onnx"), str(folder / "model_int8.onnx"), weight_type=QuantType.QInt8)
    print(f"quantised in {time.perf_counter() - t:.0f} s", flush=True)


# -- measurements ---------------------------------------------------------------------------------------------------
def texts_of_length(enc: Encoder, pool: list[str], n_tokens: int, count: int) -> list[str]:
    """``count`` texts of exactly (or nearly) ``n_tokens`` tokens, cut from real KDS text."""
    joined = " ".join(pool)
    out: list[str] = []
    start = 0
    while len(out) < count:
        lo, hi = 1, min(len(joined) - start, n_tokens * 6)
        while lo < hi:  # the shortest prefix with ≥ n_tokens tokens
            mid = (lo + hi) // 2
            if len(enc.tokenise([joined[start : start + mid]])[0]) >= n_tokens:
                hi = mid
            else:
                lo = mid + 1
        out.append(joined[start : start + lo])
        start = (start + lo * 3) % max(1, len(joined) - n_tokens * 6)
    return out


def timed(fn: Callable[[], object], repeat: int) -> float:
    return timed_cpu(fn, repeat)[0]


def timed_cpu(fn: Callable[[], object], repeat: int) -> tuple[float, float]:
    """Best (wall seconds, process CPU seconds of all threads) of ``repeat`` calls."""
    walls, cpus = [], []
    for _ in range(repeat):
        t, c = time.perf_counter(), time.process_time()
        fn()
        walls.append(time.perf_counter() - t)
        cpus.append(time.process_time() - c)
    return min(walls), min(cpus)


class NullSession:
    """Stands in for the ONNX session: returns an output of the right shape at once, so timing ``encode`` with it
    measures our own work around the model (tokenise, sort, pad, pool, normalise, store) without the model."""

    def __init__(self, dim: int) -> None:
        self.dim = dim

    def run(self, names: list[str], feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
        ids = feeds["input_ids"]
        return [np.ones((*ids.shape, self.dim), dtype=np.float32)]


@contextmanager
def null_session(enc: Encoder) -> Iterator[None]:
    real = enc._session
    enc._session = NullSession(enc.dim)  # type: ignore[assignment]
    try:
        yield
    finally:
        enc._session = real


def measure(enc: Encoder, texts: list[str], repeat: int) -> dict[str, float]:
    """Raw ONNX Runtime vs ``Encoder.encode`` on the same texts, batches and padding.

    ``ratio`` compares the two timings directly (noisy on a shared machine); ``ratio_overhead`` = raw / (raw + our
    own work measured with a null session), which is stable.
    """
    seqs = enc.tokenise(texts)
    feeds = [enc.pad([seqs[i] for i in b]) for b in enc.batches([len(s) for s in seqs])]
    sess = enc._session
    enc.encode(texts[:2])  # warm-up

    def raw() -> None:
        for f in feeds:
            sess.run([enc._output], f)

    t_raw, t_pipe, c_raw, c_pipe = (float("inf"),) * 4
    for _ in range(repeat):  # alternate, so a busy moment of the shared machine hits both alike
        w, c = timed_cpu(raw, 1)
        t_raw, c_raw = min(t_raw, w), min(c_raw, c)
        w, c = timed_cpu(lambda: enc.encode(texts), 1)
        t_pipe, c_pipe = min(t_pipe, w), min(c_pipe, c)
    with null_session(enc):
        t_over = timed(lambda: enc.encode(texts), 5)
    n_tok = sum(len(s) for s in seqs)
    return {
        "chunks": len(texts),
        "mean_tokens": n_tok / len(texts),
        "raw_s": t_raw,
        "pipeline_s": t_pipe,
        "overhead_s": t_over,
        "raw_chunks_s": len(texts) / t_raw,
        "pipeline_chunks_s": len(texts) / t_pipe,
        "pipeline_tokens_s": n_tok / t_pipe,
        "ratio": t_raw / t_pipe,
        "ratio_overhead": t_raw / (t_raw + t_over),
        "raw_cpu_s": c_raw,
        "pipeline_cpu_s": c_pipe,
        "ratio_cpu": c_raw / c_pipe,
    }


def measure_store(folder: Path, texts: list[str], threads: int) -> dict[str, float]:
    """The whole background path: ``encode_pending`` over a catalog of these texts (float16 store, fsync), once
    with the model and once with a null session (our overhead alone)."""
    from kdsdesk.index import dense
    from kdsdesk.index.encoder import load_encoder
    from kdsdesk.records import Chunk, DocRef

    doc = DocRef(file="/bench.pdf", sha256="b" * 64, kind="pdf")
    chunks = [Chunk(chunk_id=f"bench-{i:05d}", doc=doc, kind="text", text=t) for i, t in enumerate(texts)]

    class Cat:
        def __init__(self, root: Path) -> None:
            self.root = root

        def iter_chunks(self) -> Iterator[Chunk]:
            return iter(chunks)

        def set_encoder_state(self, path: str, version: str, n: int) -> None:
            pass

    def once() -> float:
        with tempfile.TemporaryDirectory() as tmp:
            (Path(tmp) / "settings.json").write_text(json.dumps({"encoder_dir": str(folder)}), encoding="utf-8")
            t = time.perf_counter()
            for _ in dense.encode_pending(Cat(Path(tmp)), threads):  # type: ignore[arg-type]
                pass
            return time.perf_counter() - t

    enc = load_encoder(str(folder), threads)  # loaded once per process, as in the app: not part of the timing
    assert enc is not None
    elapsed = once()
    with null_session(enc):
        over = min(once() for _ in range(3))
    return {"chunks": len(texts), "store_s": elapsed, "store_chunks_s": len(texts) / elapsed, "store_overhead_s": over}


def search_latency(dim: int = 1024, n: int = CORPUS_CHUNKS) -> tuple[float, float]:
    from kdsdesk.index.dense import cosine_scores

    rng = np.random.default_rng(1)
    path = OUT / "search-50k.f16"
    if not path.exists():
        path.write_bytes(rng.standard_normal((n, dim), dtype=np.float32).astype(np.float16).tobytes())
    q = rng.standard_normal(dim, dtype=np.float32)
    q /= np.linalg.norm(q)
    mm = np.memmap(path, dtype=np.float16, mode="r", shape=(n, dim))

    def once() -> None:
        s = cosine_scores(mm, q)
        np.argsort(-s, kind="stable")[:50]

    return timed_cpu(once, 5)


def main() -> int:
    ap = argparse.ArgumentParser(description="dense encoding benchmark (BGE-M3-shaped, random weights)")
    ap.add_argument("--layers", type=int, default=24)
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--lengths", default="128,256,512")
    ap.add_argument("--tokens-per-batch", type=int, default=4096, help="chunks per length = this / length")
    args = ap.parse_args()
    scale = 24 / args.layers
    folder = OUT / f"bge-m3-shaped-L{args.layers}"
    prepare(folder, args.layers)
    pool = kds_texts()
    results: dict[str, object] = {
        "load_average_start": os.getloadavg(),
        "machine": f"{platform.platform()} · {os.cpu_count()} CPUs · Python {platform.python_version()}",
        "date": time.strftime("%Y-%m-%d"),
        "layers": args.layers,
        "scale_to_24_layers": scale,
        "threads": args.threads,
        "rows": [],
    }
    rows: list[dict[str, object]] = []
    int8_256: list[str] = []
    for variant, name in (("int8", "model_int8.onnx"), ("fp32", "model.onnx")):
        files = EncoderFiles(folder, folder / name, folder / "tokenizer.json", variant)
        enc = Encoder(files, threads=args.threads)
        for length in (int(x) for x in args.lengths.split(",")):
            texts = texts_of_length(enc, pool, length, max(1, args.tokens_per_batch // length))
            if variant == "int8" and length == 256:
                int8_256 = texts
            r = measure(enc, texts, args.repeat)
            row = {"variant": variant, "tokens": length, **{k: round(v, 4) for k, v in r.items()}}
            row["chunks_s_24_layers"] = round(r["pipeline_chunks_s"] / scale, 3)
            # what the same work needs when the threads have their cores to themselves: CPU seconds / threads
            row["chunks_s_24_layers_cpu"] = round(len(texts) / (r["pipeline_cpu_s"] / args.threads) / scale, 3)
            rows.append(row)
            print(json.dumps(row), flush=True)
        del enc
    if int8_256:
        st = measure_store(folder, int8_256 * 2, args.threads)
        raw256 = next(float(r["raw_s"]) for r in rows if r["variant"] == "int8" and r["tokens"] == 256)
        st["ratio_overhead"] = 2 * raw256 / (2 * raw256 + st["store_overhead_s"])  # the texts twice over
        results["store_int8_256"] = {k: round(v, 4) for k, v in st.items()}
        print("store path (int8, 256 tokens):", results["store_int8_256"], flush=True)
    results["rows"] = rows
    for variant in ("int8", "fp32"):
        for key, label in (("chunks_s_24_layers", "wall"), ("chunks_s_24_layers_cpu", "cpu")):
            per = {int(r["tokens"]): 1 / float(r[key]) for r in rows if r["variant"] == variant}
            if 256 in per and 512 in per:
                t300 = per[256] + (per[512] - per[256]) * (CORPUS_TOKENS - 256) / 256
                hours = CORPUS_CHUNKS * t300 / 3600
                results[f"corpus_hours_{variant}_{label}"] = round(hours, 2)
                print(f"{variant} ({label}): {CORPUS_CHUNKS} chunks × {CORPUS_TOKENS} tokens ≈ {hours:.1f} h")
    wall, cpu = search_latency()
    results["search_50k_ms"], results["search_50k_cpu_ms"] = round(wall * 1000, 1), round(cpu * 1000, 1)
    print(f"exact cosine search, 50k × 1024 float16: {results['search_50k_ms']} ms (CPU {cpu * 1000:.0f} ms)")
    results["load_average"] = os.getloadavg()
    (OUT / "bench_dense.json").write_text(json.dumps(results, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
