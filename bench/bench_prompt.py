"""LLM prompt size: the prompt the LLM answerer would send for each question, in characters and model tokens.

    .venv/bin/python bench/bench_prompt.py --gguf ~/.cache/kdsdesk-test/gemma3-270m-q4_k_m.gguf \
        [--kinds pdf hwpx] [--qa FILE --files PATH…] [--json OUT]

Without ``--qa``: indexes ``../shared/corpus/samples`` (PDFs and HWPX files as two libraries, in a temp folder)
and takes every answer-type question of its ``qa.jsonl``. With ``--qa FILE --files PATH…``: one library of those
files and the answer-type questions of FILE (``doc`` empty ones too: they get a prompt as well).

For each question: the hits the app retrieves (``Library.search``, k=20), the need, and the prompt exactly as
``LlmAnswerer`` builds it (``kdsdesk.answer.prompts.build``); its size counted as ``kdsdesk.answer.llm`` counts
``prompt_tokens`` (system + user with the model's tokenizer, + 16 template tokens). Only the tokenizer is loaded
(``vocab_only``): nothing is generated, so the whole set takes seconds after indexing.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from kdsdesk.answer import prompts
from kdsdesk.answer.llm import count_tokens
from kdsdesk.service import Library, drain
from kdsdesk.verify.need import read_need

SAMPLES = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus" / "samples"
ANSWER_TYPES = ("numeric", "conditional", "regulation", "definition")


def measure(lib: Library, qa: list[dict[str, Any]], model: Any) -> list[dict[str, Any]]:
    system = count_tokens(model, prompts.SYSTEM)
    rows = []
    for q in qa:
        hits = lib.search(q["question"], k=20)
        need = read_need(q["question"])
        p = prompts.build(need, hits)
        rows.append({
            "id": q["id"], "qtype": need.qtype, "chars": p.chars, "items": len(p.items), "facts": len(p.facts),
            "evidence_chars": sum(len(i.text) for i in p.items),
            "tokens": system + count_tokens(model, p.user) + 16,
        })  # fmt: skip
    return rows


def summary(name: str, rows: list[dict[str, Any]]) -> str:
    tok = [r["tokens"] for r in rows]
    ch = [r["chars"] for r in rows]
    ratio = [r["tokens"] / r["chars"] for r in rows]
    worst = max(rows, key=lambda r: r["tokens"])
    return (
        f"| {name} | {len(rows)} | {statistics.mean(ch):.0f} / {max(ch)} | {statistics.mean(tok):.0f} / "
        f"{statistics.median(tok):.0f} / {max(tok)} | {sum(t > 1500 for t in tok)} | "
        f"{statistics.mean(ratio):.2f} / {max(ratio):.2f} | {worst['id']} ({worst['items']} items, "
        f"{worst['facts']} facts) |"
    )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--gguf", required=True, help="the GGUF whose tokenizer counts the tokens")
    ap.add_argument("--kinds", nargs="+", default=["pdf", "hwpx"])
    ap.add_argument("--qa", type=Path, help="questions (JSON Lines); with --files")
    ap.add_argument("--files", nargs="+", type=Path, default=[])
    ap.add_argument("--library", type=Path, help="an already indexed library of --files (kept)")
    ap.add_argument("--json", metavar="OUT")
    args = ap.parse_args()
    import llama_cpp

    model = llama_cpp.Llama(model_path=str(Path(args.gguf).expanduser()), vocab_only=True, verbose=False)
    print(f"# {platform.platform()} python {platform.python_version()} {time.strftime('%Y-%m-%d')} "
          f"cpus {os.cpu_count()} tokenizer {Path(args.gguf).name} EVIDENCE_CHARS {prompts.EVIDENCE_CHARS} "
          f"MAX_FACTS {prompts.MAX_FACTS}")  # fmt: skip
    print("\n| set | n | chars mean / max | tokens mean / p50 / max | over 1,500 | tokens per char mean / max "
          "| largest |")
    print("|---|---|---|---|---|---|---|")
    out: dict[str, list[dict[str, Any]]] = {}
    qa_file = args.qa or SAMPLES / "qa.jsonl"
    qa = [json.loads(x) for x in qa_file.read_text(encoding="utf-8").splitlines() if x.strip()]
    qa = [q for q in qa if q["qtype"] in ANSWER_TYPES]
    with tempfile.TemporaryDirectory() as tmp:
        sets = (
            [(args.qa.stem, args.files)] if args.qa
            else [(f"samples {k}", sorted(SAMPLES.glob(f"*.{k}"))) for k in args.kinds]
        )  # fmt: skip
        for name, files in sets:
            lib = Library(args.library or Path(tmp) / name.replace(" ", "-"))
            try:
                if args.library is None:
                    drain(lib.add(files))
                rows = measure(lib, qa, model)
            finally:
                lib.close()
            out[name] = rows
            print(summary(name, rows), flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(out, ensure_ascii=False, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
