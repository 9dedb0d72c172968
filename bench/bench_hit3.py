"""Clause Hit@3 per question type of question files on an indexed library (retrieval only, no answers).

    .venv/bin/python bench/bench_hit3.py LIBRARY QUESTIONS.jsonl [QUESTIONS.jsonl …] [--split dev|val|all]
        [--misses OUT.jsonl]

A question counts when it has a ``doc`` and a ``file_stem`` (as ``bench/kcsc_build.py`` places them); a hit is the
gold file and clause among the first three chunks of ``Library.search`` (k = 20), as ``kdsdesk eval`` judges it.
``--split`` keeps one half by standard (``kdsdesk.evaluation.split``: rules are developed on ``dev``, ``val`` is
reported); ``--misses`` writes the misses of the selected half (gold rank, the standards and clauses ranked first)
for analysis — write it for ``dev`` only.
"""

from __future__ import annotations

import argparse
import collections
import json
from pathlib import Path

from kdsdesk.evaluation.retrieval import first_gold_rank
from kdsdesk.evaluation.split import select
from kdsdesk.service import Library


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("library", type=Path)
    ap.add_argument("questions", type=Path, nargs="+")
    ap.add_argument("--split", choices=("dev", "val", "all"), default="all")
    ap.add_argument("--misses", type=Path, help="write the misses (JSON Lines) here")
    args = ap.parse_args()
    lib = Library(args.library)
    tally: dict[str, list[int]] = collections.defaultdict(lambda: [0, 0])
    misses = []
    for path in args.questions:
        items = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        for item in select([i for i in items if i.get("doc") and i.get("file_stem")], args.split):
            hits = lib.search(item["question"], k=20)
            rank = first_gold_rank(hits, item)
            for key in (item["qtype"], "all"):
                tally[key][0] += 1
                tally[key][1] += int(0 < rank <= 3)
            if args.misses and not 0 < rank <= 3:
                gold_file_rank = next(
                    (i for i, h in enumerate(hits, 1) if Path(h.chunk.doc.file).stem == item["file_stem"]), 0
                )
                misses.append(
                    {
                        "set": path.stem,
                        "id": item.get("id", ""),
                        "qtype": item["qtype"],
                        "question": item["question"],
                        "gold": f"{item['file_stem']} {item['clause']}",
                        "rank": rank,
                        "gold_file_rank": gold_file_rank,
                        "top": [f"{Path(h.chunk.doc.file).stem} {h.chunk.clause} {h.route}" for h in hits[:5]],
                    }
                )
    for key, (n, hit) in sorted(tally.items()):
        print(f"{key:12s} {n:4d}  Hit@3 {hit / n:.3f} ({hit}/{n})")
    if args.misses:
        args.misses.write_text("".join(json.dumps(m, ensure_ascii=False) + "\n" for m in misses), encoding="utf-8")


if __name__ == "__main__":
    main()
