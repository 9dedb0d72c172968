"""Turn flattened real KDS texts (``../shared/corpus/real/kds/*.json`` or ``../shared/corpus/kcsc/json/*.json``) into
KDS-style HWPX files for a held-out answer measurement on text the answerer has never seen.

The clause structure now comes from the standard's own 목차 (``bench/kcsc_structure.py``, shared with
``bench/kcsc_build.py``, which builds the whole 350-standard library as HWPX and PDF with question files); the
earlier heuristic here (a number that follows the previous one) put 16 of the first 108 development quotes under
another clause.

Usage: ``.venv/bin/python bench/heldout_from_json.py ../shared/corpus/real/kds/KDS_14_20_10_full.json ...``
(writes ``bench/out/<stem>.hwpx``).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.kcsc_build import write_hwpx
from bench.kcsc_structure import load, split_body

OUT = Path(__file__).resolve().parent / "out"


def build(path: Path) -> tuple[Path, int]:
    std = load(path)
    st = split_body(std.text, std.part_only)
    OUT.mkdir(exist_ok=True)
    out = write_hwpx(std, st, OUT / f"{path.stem}.hwpx")
    return out, sum(1 for b in st.blocks if b.kind == "h")


def main(argv: list[str]) -> int:
    for a in argv:
        out, n = build(Path(a))
        print(out, n, "headings")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
