"""Clause Hit@3 per question type of question files on an indexed library (retrieval only, no answers).

    .venv/bin/python bench/bench_hit3.py LIBRARY QUESTIONS.jsonl [QUESTIONS.jsonl …]

A question counts when it has a ``doc`` and a ``file_stem`` (as ``bench/kcsc_build.py`` places them); a hit is the
gold file and clause among the first three chunks of ``Library.search`` (k = 20), as ``kdsdesk eval`` judges it.
"""

from __future__ import annotations

import argparse
import collections
import json
from pathlib import Path

from kdsdesk.evaluation.retrieval import first_gold_rank
from kdsdesk.service import Library


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("library", type=Path)
    ap.add_argument("questions", type=Path, nargs="+")
    args = ap.parse_args()
    lib = Library(args.library)
    tally: dict[str, list[int]] = collections.defaultdict(lambda: [0, 0])
    for path in args.questions:
        for line in path.read_text(encoding="utf-8").splitlines():
            item = json.loads(line) if line.strip() else {}
            if not item.get("doc") or not item.get("file_stem"):
                continue
            rank = first_gold_rank(lib.search(item["question"], k=20), item)
            for key in (item["qtype"], "all"):
                tally[key][0] += 1
                tally[key][1] += int(0 < rank <= 3)
    for key, (n, hit) in sorted(tally.items()):
        print(f"{key:12s} {n:4d}  Hit@3 {hit / n:.3f} ({hit}/{n})")


if __name__ == "__main__":
    main()
