"""Answer benchmark: accuracy per type and evidence kind, prompt tokens and time to answer.

    .venv/bin/python bench/bench_answers.py [--llm none|PATH] [--kinds pdf hwpx] [--limit N]

Indexes ``../shared/corpus/samples`` (PDFs and HWPX files as two libraries, in a temp folder), answers every
answer-type question of ``qa.jsonl`` and prints the report of ``kdsdesk.evaluation.answers`` as a Markdown table.
"""

from __future__ import annotations

import argparse
import json
import platform
import tempfile
import time
from pathlib import Path

from kdsdesk.evaluation.answers import evaluate_answers
from kdsdesk.service import Library, drain

SAMPLES = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus" / "samples"


def build(root: Path, files: list[Path]) -> Library:
    lib = Library(root)
    drain(lib.add(files))
    return lib


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--llm", default="none")
    ap.add_argument("--kinds", nargs="+", default=["pdf", "hwpx"])
    ap.add_argument("--limit", type=int, default=0, help="answer only the first N answer-type questions")
    ap.add_argument("--json", metavar="OUT")
    args = ap.parse_args()
    qa = [json.loads(x) for x in (SAMPLES / "qa.jsonl").read_text(encoding="utf-8").splitlines() if x.strip()]
    qa = [q for q in qa if q["qtype"] in ("numeric", "conditional", "regulation", "definition")]
    if args.limit:
        qa = qa[:: max(1, len(qa) // args.limit)][: args.limit]
    print(f"# {platform.platform()} python {platform.python_version()} {time.strftime('%Y-%m-%d')} llm={args.llm}")
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        for kind in args.kinds:
            lib = build(Path(tmp) / kind, sorted(SAMPLES.glob(f"*.{kind}")))
            try:
                if args.llm != "none":  # warm the model once (load time is not time to answer)
                    from kdsdesk.answer.pipeline import answer_question

                    answer_question(qa[0]["question"], lib.search(qa[0]["question"]), llm=args.llm)
                rep = evaluate_answers(lib, qa, args.llm)["answers"]
            finally:
                lib.close()
            out[kind] = rep
            print(f"\n## {kind} (n={rep['n']}): accuracy {rep['accuracy']}, shown precision "
                  f"{rep['shown_precision']}, confirmed precision {rep['confirmed_precision']}, "
                  f"valid {rep['valid_rate']}, schema-valid {rep['schema_valid_rate']}")  # fmt: skip
            print(f"status {rep['status']}; wrong confirmed {rep['wrong_confirmed']}; wrong shown {rep['wrong_shown']}")
            print(f"prompt tokens mean {rep['prompt_tokens_mean']} max {rep['prompt_tokens_max']}; time to answer "
                  f"p50 {rep['time_ms_p50']} ms, mean {rep['time_ms_mean']} ms (search + answer + verify)")  # fmt: skip
            head = "| type / evidence | n | accuracy | confirmed precision | confirmed | warning | restr. | unverif. |"
            print("\n" + head)
            print("|---|---|---|---|---|---|---|---|")
            for key, r in [*rep["by_qtype_evidence"].items(), *rep["by_qtype"].items()]:
                s = r["status"]
                print(f"| {key} | {r['n']} | {r['accuracy']} | {r['confirmed_precision']} | {s.get('confirmed', 0)} | "
                      f"{s.get('warning', 0)} | {s.get('restricted', 0)} | {s.get('unverified', 0)} |")  # fmt: skip
    if args.json:
        Path(args.json).write_text(json.dumps(out, ensure_ascii=False, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
