"""Export BAAI/bge-m3 to ONNX and quantise it to int8 for KDS Desk's dense search (run on a machine with internet).

Not run in CI, not used at run time: the app never downloads anything. Output folder (default ``models/bge-m3``):

    model_int8.onnx   the encoder, int8 weights (dynamic quantisation), ~0.6 GB — what the app loads
    tokenizer.json    the XLM-R tokenizer (Hugging Face ``tokenizers`` format)
    LICENSE.txt       BGE-M3 is MIT-licensed (https://huggingface.co/BAAI/bge-m3)
    export.json       source repo and revision, sizes and SHA-256 (copy them into ``models/manifest.json``)

and, with ``--keep-fp32``, ``model.onnx`` + ``model.onnx_data`` (2.27 GB; the app uses it when no int8 file exists).

Usage (Python 3.11, ~12 GB free RAM — quantising the 2.27 GB model peaks near 10 GB — and ~6 GB of disk)::

    python -m venv /tmp/exp && /tmp/exp/bin/pip install onnx onnxruntime tokenizers huggingface_hub numpy
    /tmp/exp/bin/python packaging/export_bge_m3.py --out models/bge-m3

By default the ONNX export that BAAI publishes in the model repository (``onnx/model.onnx`` + ``model.onnx_data``)
is downloaded. ``--from-torch`` exports from the PyTorch weights instead (needs ``pip install torch transformers``;
the output is the encoder's ``last_hidden_state``). Either way the model must meet the contract in
``kdsdesk/index/encoder.py``: inputs ``input_ids``/``attention_mask``, output ``[batch, seq, 1024]``, CLS pooling.

Checks before anything is written to ``--out``: the fp32 and int8 vectors of a few Korean sentences agree
(cosine ≥ 0.97), related sentences are nearer than unrelated ones, and with ``--from-torch`` the fp32 ONNX vectors
match PyTorch's (cosine ≥ 0.999).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import sys
import tempfile
from pathlib import Path

import numpy as np

REPO_ID = "BAAI/bge-m3"
CHECK_SENTENCES = [
    "차로 수에 따라 줄이는 계수",
    "다차로 재하계수는 재하 차로의 수에 따라 활하중에 곱하는 계수이다.",
    "콘크리트의 설계기준압축강도는 재령 28일 강도로 한다.",
    "고장력볼트 마찰접합의 미끄럼계수",
]


def download(workdir: Path, revision: str | None) -> tuple[Path, Path, str]:
    from huggingface_hub import hf_hub_download, model_info

    rev = revision or model_info(REPO_ID).sha or "main"
    files = {}
    for name in ("onnx/model.onnx", "onnx/model.onnx_data", "tokenizer.json"):
        files[name] = Path(hf_hub_download(REPO_ID, name, revision=rev, local_dir=workdir))
    return files["onnx/model.onnx"], files["tokenizer.json"], rev


def export_from_torch(workdir: Path, revision: str | None) -> tuple[Path, Path, str]:
    import torch
    from huggingface_hub import model_info
    from transformers import AutoModel, AutoTokenizer

    rev = revision or model_info(REPO_ID).sha or "main"
    tok = AutoTokenizer.from_pretrained(REPO_ID, revision=rev)
    model = AutoModel.from_pretrained(REPO_ID, revision=rev).eval()
    enc = tok(CHECK_SENTENCES, padding=True, return_tensors="pt")
    out = workdir / "model.onnx"
    with torch.no_grad():
        torch.onnx.export(
            model,
            (enc["input_ids"], enc["attention_mask"]),
            str(out),
            input_names=["input_ids", "attention_mask"],
            output_names=["last_hidden_state"],
            dynamic_axes={n: {0: "batch", 1: "seq"} for n in ("input_ids", "attention_mask", "last_hidden_state")},
            opset_version=17,
        )
        ref = model(**enc).last_hidden_state[:, 0].numpy()
    np.save(workdir / "torch_cls.npy", ref / np.linalg.norm(ref, axis=1, keepdims=True))
    tok.backend_tokenizer.save(str(workdir / "tokenizer.json"))
    return out, workdir / "tokenizer.json", rev


def vectors(model: Path, tokenizer: Path) -> np.ndarray:
    """CLS-pooled unit vectors of CHECK_SENTENCES, the way kdsdesk.index.encoder computes them."""
    import onnxruntime as ort
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(str(tokenizer))
    tok.no_padding()
    seqs = [e.ids for e in tok.encode_batch(CHECK_SENTENCES)]
    width = max(len(s) for s in seqs)
    ids = np.ones((len(seqs), width), dtype=np.int64)  # <pad> = 1
    mask = np.zeros_like(ids)
    for i, s in enumerate(seqs):
        ids[i, : len(s)], mask[i, : len(s)] = s, 1
    sess = ort.InferenceSession(str(model), providers=["CPUExecutionProvider"])
    names = [o.name for o in sess.get_outputs()]
    out = sess.run(
        ["last_hidden_state" if "last_hidden_state" in names else names[0]], {"input_ids": ids, "attention_mask": mask}
    )[0]
    if out.ndim != 3 or out.shape[2] != 1024:
        sys.exit(f"unexpected output shape {out.shape}: the encoder contract needs [batch, seq, 1024]")
    cls = out[:, 0, :]
    return cls / np.linalg.norm(cls, axis=1, keepdims=True)


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        while block := f.read(1 << 24):
            h.update(block)
    return h.hexdigest()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, default=Path("models/bge-m3"))
    ap.add_argument("--revision", help="model repository commit (default: the current one, recorded)")
    ap.add_argument("--from-torch", action="store_true", help="export from the PyTorch weights")
    ap.add_argument("--keep-fp32", action="store_true", help="also write model.onnx + model.onnx_data")
    ap.add_argument("--workdir", type=Path, help="scratch folder (default: a temporary folder)")
    args = ap.parse_args()
    from onnxruntime.quantization import QuantType, quantize_dynamic

    work = args.workdir or Path(tempfile.mkdtemp(prefix="bge-m3-"))
    work.mkdir(parents=True, exist_ok=True)
    fp32, tokenizer, rev = (export_from_torch if args.from_torch else download)(work, args.revision)
    print(f"fp32 model: {fp32}  (revision {rev})", flush=True)
    int8 = work / "model_int8.onnx"
    print("quantising (peaks near 10 GB RAM, several minutes)…", flush=True)
    quantize_dynamic(str(fp32), str(int8), weight_type=QuantType.QInt8, use_external_data_format=False)

    v32, v8 = vectors(fp32, tokenizer), vectors(int8, tokenizer)
    agree = (v32 * v8).sum(axis=1)
    print("fp32 vs int8 cosine per sentence:", np.round(agree, 4))
    if agree.min() < 0.97:
        sys.exit("int8 vectors drifted from fp32; not writing the output")
    sims = v8 @ v8.T
    if not sims[0, 1] > max(sims[0, 2], sims[0, 3]):
        sys.exit("the paraphrase check failed (related sentences are not nearest); not writing the output")
    if args.from_torch:
        ref = np.load(work / "torch_cls.npy")
        if (ref * v32).sum(axis=1).min() < 0.999:
            sys.exit("ONNX fp32 vectors differ from PyTorch's; not writing the output")

    args.out.mkdir(parents=True, exist_ok=True)
    written = [int8, tokenizer] + ([fp32, fp32.with_name("model.onnx_data")] if args.keep_fp32 else [])
    record = {
        "source": f"https://huggingface.co/{REPO_ID}",
        "revision": rev,
        "licence": "MIT",
        "export": "torch.onnx.export" if args.from_torch else "repository onnx/",
        "files": {},
    }
    for src in written:
        if not src.exists():
            continue
        dest = args.out / src.name
        shutil.copyfile(src, dest)
        record["files"][dest.name] = {"size": dest.stat().st_size, "sha256": sha256(dest)}
    (args.out / "LICENSE.txt").write_text(
        "BGE-M3 (BAAI/bge-m3) is released under the MIT License: https://huggingface.co/BAAI/bge-m3\n", encoding="utf-8"
    )
    (args.out / "export.json").write_text(json.dumps(record, indent=2), encoding="utf-8")
    print(json.dumps(record, indent=2))
    print(f"done: {args.out}  (put size/sha256 of model_int8.onnx into models/manifest.json)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
