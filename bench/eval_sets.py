"""Answer and retrieval figures of one question set on its library, per question type, development and
validation halves apart.

    .venv/bin/python bench/eval_sets.py SET [SET …] [--split dev|val|both] [--reindex] [--json OUT.json]

Sets (``list`` prints them with their files and question files):

- ``samples-pdf`` / ``samples-hwpx``: the three sample standards (``../shared/corpus/samples``), their qa.jsonl;
- ``realpdf``: the real KDS PDFs (``../shared/corpus/real/kds/*.pdf``), ``bench/qa/realpdf.jsonl`` (or the draft
  in ``/work/qa-drafts/``);
- ``kcsc-hwpx`` / ``kcsc-pdf``: the 350 standards built by ``bench/kcsc_build.py``, its ``bench/out/kcsc/qa/*.jsonl``
  (``../shared/corpus/kcsc/qa.jsonl`` and ``bench/qa/kcsc-w*.jsonl`` with ``file_stem`` and ``pdf_pages``).

The library is indexed once with ``kdsdesk index --no-dense`` into ``bench/out/lib-<set>`` (kept while the same
files with the same sizes and times are given; ``--reindex`` starts again). Each half of the questions (split by
standard with ``kdsdesk.evaluation.split``) is run through ``kdsdesk eval --answers --llm none --json`` and a
markdown table per question type is printed:

- Hit@3 — the gold clause (in the gold file) among the first three retrieved chunks, over the questions whose answer
  is in the library;
- accuracy — correct shown answers / questions whose answer is in the library;
- confirmed precision — correct / confirmed; wrong shown — wrong answers shown (confirmed or warning); wrong
  confirmed — wrong answers marked confirmed (the number that matters most);
- NIL declined — not-in-library questions declined (restricted or unverified) / not-in-library questions;
- page right — shown answers whose first verified citation is in the gold file on a gold PDF page / shown answers
  of questions with ``pdf_pages`` (PDF libraries only; "—" when ``kdsdesk eval`` does not report the cited page).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
SHARED = ROOT.parent / "shared" / "corpus"
OUT = ROOT / "bench" / "out"
KCSC = OUT / "kcsc"
KDSDESK = [sys.executable, "-m", "kdsdesk"]  # this checkout's code, with the Python running this script
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
SHOWN = ("confirmed", "warning")
DECLINED = ("restricted", "unverified")
ANSWER_TYPES = ("numeric", "conditional", "regulation", "definition")


@dataclass(frozen=True)
class EvalSet:
    name: str
    files: tuple[Path, ...]
    qa: tuple[Path, ...]
    note: str = ""


def _first(*paths: Path) -> list[Path]:
    return [p for p in paths if p.exists()][:1]


def sets() -> dict[str, EvalSet]:
    samples = SHARED / "samples"
    kcsc_qa = tuple(sorted((KCSC / "qa").glob("*.jsonl")))
    real_qa = _first(ROOT / "bench" / "qa" / "realpdf.jsonl", Path("/work/qa-drafts/realpdf.jsonl"))
    out = [
        EvalSet("samples-pdf", tuple(sorted(samples.glob("*.pdf"))), (samples / "qa.jsonl",)),
        EvalSet("samples-hwpx", tuple(sorted(samples.glob("*.hwpx"))), (samples / "qa.jsonl",)),
        EvalSet("realpdf", tuple(sorted((SHARED / "real" / "kds").glob("*.pdf"))), tuple(real_qa),
                "" if real_qa else "no realpdf.jsonl yet"),
        EvalSet("kcsc-hwpx", tuple(sorted((KCSC / "hwpx").glob("*.hwpx"))), kcsc_qa,
                "" if kcsc_qa else "run bench/kcsc_build.py first"),
        EvalSet("kcsc-pdf", tuple(sorted((KCSC / "pdf").glob("*.pdf"))), kcsc_qa,
                "" if kcsc_qa else "run bench/kcsc_build.py first"),
    ]
    return {s.name: s for s in out}


# -- library ------------------------------------------------------------------------------------------------
def _stamp(files: Sequence[Path]) -> list[list[Any]]:
    return [[str(f), f.stat().st_size, int(f.stat().st_mtime)] for f in files]


def _searchable(lib: Path) -> int:
    import sqlite3

    db = lib / "catalog.sqlite3"
    if not db.exists():
        return 0
    with sqlite3.connect(db) as conn:
        return int(conn.execute("SELECT count(*) FROM files WHERE status = 'searchable'").fetchone()[0])


def ensure_library(s: EvalSet, reindex: bool = False) -> Path:
    """``bench/out/lib-<set>`` indexed with the set's files (once; again when the files changed)."""
    lib = OUT / f"lib-{s.name}"
    stamp_file = lib / "eval_sets.stamp.json"
    want = _stamp(s.files)
    if (not reindex and stamp_file.exists() and json.loads(stamp_file.read_text(encoding="utf-8")) == want
            and _searchable(lib) >= len(s.files)):
        return lib
    if lib.exists():
        import shutil

        shutil.rmtree(lib)
    lib.mkdir(parents=True)
    t0 = time.time()
    print(f"indexing {len(s.files)} files into {lib.relative_to(ROOT)} …", file=sys.stderr, flush=True)
    subprocess.run([*KDSDESK, "index", "--library", str(lib), *map(str, s.files), "--no-dense"], check=True,
                   stdout=subprocess.DEVNULL, env=ENV, cwd=ROOT)
    print(f"indexed in {time.time() - t0:.0f} s", file=sys.stderr, flush=True)
    stamp_file.write_text(json.dumps(want), encoding="utf-8")
    return lib


# -- questions ------------------------------------------------------------------------------------------------
def load_items(files: Iterable[Path]) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    for f in files:
        items += [json.loads(x) for x in f.read_text(encoding="utf-8").splitlines() if x.strip()]
    return items


def half_of(item: Mapping[str, Any]) -> str:
    """``dev`` or ``val``: the project's split by standard (``kdsdesk.evaluation.split``)."""
    from kdsdesk.evaluation.split import item_split

    return str(item_split(item))


def run_eval(lib: Path, items: list[dict[str, Any]], tag: str) -> dict[str, Any]:
    qa = lib / f"qa-{tag}.jsonl"
    qa.write_text("".join(json.dumps(i, ensure_ascii=False) + "\n" for i in items), encoding="utf-8")
    out = subprocess.run([*KDSDESK, "eval", "--library", str(lib), "--qa", str(qa), "--answers", "--llm", "none",
                          "--json"], capture_output=True, text=True, env=ENV, cwd=ROOT)
    if out.returncode != 0:
        print(f"kdsdesk eval failed on {qa.name}:\n{out.stderr[-3000:]}", file=sys.stderr)
        return {}
    result: dict[str, Any] = json.loads(out.stdout)
    return result


# -- figures --------------------------------------------------------------------------------------------------
def _rate(x: int, n: int) -> str:
    return f"{x / n:.3f} ({x}/{n})" if n else "—"


def figures(items: list[dict[str, Any]], result: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """Per question type (and ``ALL``): the figures of the module docstring, from ``kdsdesk eval``'s per-item
    answers joined with the question items."""
    by_id = {str(i.get("id")): i for i in items}
    answers = {str(a["id"]): a for a in result.get("answers", {}).get("items", [])}
    rows: dict[str, dict[str, Any]] = {}
    for qt in (*ANSWER_TYPES, "ALL"):
        sel = [i for i in items if qt == "ALL" or i.get("qtype") == qt]
        sel = [i for i in sel if str(i.get("id")) in answers]
        if not sel:
            continue
        inlib = [i for i in sel if str(i.get("doc", "x") or "").strip()]
        nil = [i for i in sel if i not in inlib]
        a = [answers[str(i["id"])] for i in sel]
        shown = [x for x in a if x["status"] in SHOWN]
        confirmed = [x for x in a if x["status"] == "confirmed"]
        page_n = page_ok = 0
        page_known = any("cited" in x for x in a)
        for x in shown:
            item = by_id[str(x["id"])]
            if not item.get("pdf_pages") or not item.get("file_stem"):
                continue
            cited = x.get("cited")
            if cited is not None and cited.get("page") is None:
                continue
            page_n += 1
            page_ok += bool(cited) and cited["file_stem"] == item["file_stem"] and cited["page"] in item["pdf_pages"]
        missed = {str(m["id"]) for m in result.get("misses", [])}
        hit3 = sum(1 for i in inlib if str(i.get("id")) not in missed)
        rows[qt] = {
            "n": len(sel),
            "hit@3": _rate(hit3, len(inlib)),
            "accuracy": _rate(sum(x["correct"] for x in shown if by_id[str(x["id"])] in inlib), len(inlib)),
            "confirmed precision": _rate(sum(x["correct"] for x in confirmed), len(confirmed)),
            "wrong shown": sum(1 for x in shown if not x["correct"] and by_id[str(x["id"])] in inlib)
            + sum(1 for x in shown if by_id[str(x["id"])] in nil),
            "wrong confirmed": sum(1 for x in confirmed if not x["correct"]),
            "NIL declined": _rate(sum(1 for i in nil if answers[str(i["id"])]["status"] in DECLINED), len(nil)),
            "page right": _rate(page_ok, page_n) if page_known else "—",
        }
    return rows


def table(rows: Mapping[str, Mapping[str, Any]]) -> str:
    cols = ["n", "hit@3", "accuracy", "confirmed precision", "wrong shown", "wrong confirmed", "NIL declined",
            "page right"]
    out = ["| qtype | " + " | ".join(cols) + " |", "|---|" + "---|" * len(cols)]
    for qt, r in rows.items():
        out.append(f"| {qt} | " + " | ".join(str(r[c]) for c in cols) + " |")
    return "\n".join(out)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("sets", nargs="+", help="set names, or 'list'")
    ap.add_argument("--split", choices=("dev", "val", "both"), default="both")
    ap.add_argument("--reindex", action="store_true")
    ap.add_argument("--json", type=Path, help="write the raw figures here")
    args = ap.parse_args(argv)
    known = sets()
    if args.sets == ["list"]:
        for s in known.values():
            print(f"{s.name}: {len(s.files)} files, questions {[str(q) for q in s.qa]} {s.note}")
        return 0
    dump: dict[str, Any] = {}
    for name in args.sets:
        s = known.get(name)
        if s is None:
            print(f"unknown set {name!r}; known: {', '.join(known)}", file=sys.stderr)
            return 2
        if not s.files or not s.qa:
            print(f"{name}: {s.note or 'no files'}", file=sys.stderr)
            return 2
        lib = ensure_library(s, args.reindex)
        items = load_items(s.qa)
        for half in ("dev", "val") if args.split == "both" else (args.split,):
            sel = [i for i in items if half_of(i) == half]
            t0 = time.time()
            result = run_eval(lib, sel, half)
            if not result:
                continue
            rows = figures(sel, result)
            print(f"\n### {name} — {half} ({len(sel)} questions, {len(s.files)} files; {time.time() - t0:.0f} s)\n")
            print(table(rows))
            dump[f"{name}/{half}"] = {"rows": rows, "misses": result.get("misses", []),
                                      "wrong_confirmed": [x["id"] for x in result.get("answers", {}).get("items", [])
                                                          if x["status"] == "confirmed" and not x["correct"]]}
    if args.json:
        args.json.write_text(json.dumps(dump, ensure_ascii=False, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
