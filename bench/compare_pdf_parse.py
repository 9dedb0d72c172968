"""Output check for PDF-parser changes: ``kdsdesk parse --json`` plus every block's spans, before and after.

    .venv/bin/python bench/compare_pdf_parse.py [--base REV] [--files GLOB ...]

"Before" is the working tree's ``kdsdesk`` package with the PDF parser's own files taken from ``REV`` (default
``HEAD``), so concurrent edits by others (equation decoding, CLI) are the same on both sides and only the parser
change is compared. Each PDF under ``../shared/corpus`` is parsed by both in a subprocess; timings are dropped and
any difference is printed (first differing path per file). Exit status 1 when anything differs.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpus"
OWNED = [
    "pdf.py", "pdf_text.py", "pdf_layout.py", "pdf_tables.py", "pdf_table_grid.py", "pdf_table_geometry.py",
    "isolate.py",
]

DUMP = r"""
import contextlib, io, json, sys
from pathlib import Path
from kdsdesk import cli
from kdsdesk.ingest.pdf import parse_pdf
path = sys.argv[1]
buf = io.StringIO()
with contextlib.redirect_stdout(buf):
    cli.main(["parse", path, "--json"])
out = {"cli": json.loads(buf.getvalue() or "null")}
parsed = parse_pdf(Path(path))
out["blocks"] = [
    {"kind": b.kind, "text": b.text, "clause": b.clause, "item": b.item, "pages": list(b.pages),
     "spans": [[s.start, s.end, s.page_index, [round(v, 3) for v in s.rect]] for s in b.spans],
     "table": None if b.table is None else [b.table.number, b.table.caption, b.table.n_rows, b.table.n_cols,
                                            b.table.header_rows, [round(v, 3) for v in b.table.bbox or ()],
                                            b.table.page_index]}
    for b in parsed.blocks
]
out["labels"] = {str(k): v for k, v in sorted(parsed.page_labels.items())}
sys.stdout.write(json.dumps(out, ensure_ascii=False))
"""


def _base_tree(rev: str, into: Path, owned: list[str]) -> Path:
    shutil.copytree(ROOT / "kdsdesk", into / "kdsdesk", ignore=shutil.ignore_patterns("__pycache__"))
    for name in owned:
        src = subprocess.run(
            ["git", "-C", str(ROOT), "show", f"{rev}:kdsdesk/ingest/{name}"], capture_output=True, check=True
        ).stdout
        (into / "kdsdesk" / "ingest" / name).write_bytes(src)
    return into


def _dump(root: Path, pdf: Path) -> Any:
    env = {"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin", "HOME": tempfile.gettempdir(),
           "KDSDESK_HOME": tempfile.mkdtemp()}
    proc = subprocess.run([sys.executable, "-c", DUMP, str(pdf)], capture_output=True, text=True, env=env, cwd=root)
    if proc.returncode != 0:
        return {"error": proc.stderr[-2000:]}
    return _strip(json.loads(proc.stdout))


def _strip(obj: Any) -> Any:
    if isinstance(obj, dict):
        return {k: _strip(v) for k, v in obj.items() if not any(t in k for t in ("time", "_ms", "seconds", "file"))}
    if isinstance(obj, list):
        return [_strip(v) for v in obj]
    if isinstance(obj, float):
        return round(obj, 3)
    return obj


def _first_diff(a: Any, b: Any, path: str = "") -> str | None:
    if type(a) is not type(b):
        return f"{path}: {str(a)[:200]!r} != {str(b)[:200]!r}"
    if isinstance(a, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                return f"{path}.{k}: only on one side"
            d = _first_diff(a[k], b[k], f"{path}.{k}")
            if d:
                return d
        return None
    if isinstance(a, list):
        for i, (x, y) in enumerate(zip(a, b, strict=False)):
            d = _first_diff(x, y, f"{path}[{i}]")
            if d:
                return d
        if len(a) != len(b):
            return f"{path}: length {len(a)} != {len(b)}"
        return None
    return None if a == b else f"{path}: {str(a)[:200]!r} != {str(b)[:200]!r}"


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--base", default="HEAD")
    ap.add_argument("--files", nargs="*", default=["**/*.pdf"])
    ap.add_argument("--owned", nargs="*", default=OWNED, help="files of kdsdesk/ingest taken from --base")
    args = ap.parse_args()
    pdfs = sorted({p for g in args.files for p in CORPUS.glob(g)})
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        base = _base_tree(args.base, Path(tmp), args.owned)
        for pdf in pdfs:
            before, after = _dump(base, pdf), _dump(ROOT, pdf)
            diff = _first_diff(before, after)
            if "error" in before or "error" in after:
                diff = f"parse failed: {before.get('error') or after.get('error')}"
            bad += diff is not None
            print(f"{'DIFF' if diff else 'same'} {pdf.relative_to(CORPUS)}" + (f"\n    {diff}" if diff else ""))
    print(f"{len(pdfs) - bad}/{len(pdfs)} identical")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
