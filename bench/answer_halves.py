"""Before/after answer figures with one judge and one split, for any checkout of the app.

    .venv/bin/python bench/answer_halves.py LIBRARY QA.jsonl [QA.jsonl …] [--split S] [--live-facts] [--dump OUT]
    PYTHONPATH=/path/to/old/checkout .venv/bin/python bench/answer_halves.py …   # the same figures for old code

The app's own ``kdsdesk eval --answers`` judges with the judge of the checkout it runs in; comparing two versions
needs one judge, so this script carries its own (a gold number compares as a number — 2 = 2.0, 25 % = 0.25 — with
the answer's qualifiers "각각", "이상", "이하" allowed around it; a gold text must be contained, normalised, in the
value+unit, the requirements or the definition) and the project's split (by standard: sha256 of "KDS 14 20 22",
first 8 hex digits, even → dev; a not-in-library question by its id). It only needs ``kdsdesk.service.Library``
and ``kdsdesk.answer.pipeline.answer_question``, which every version since 2026-11-29 has.

``--live-facts`` reads the facts of each retrieved chunk again with the checkout's extractor (the same as indexing
again, as the facts are a function of the chunk text), so a library built by an older extractor can be used.

Prints one JSON object: per question type (and "all") n (answerable), accuracy, shown, confirmed, confirmed
precision, wrong shown, wrong confirmed, not-in-library n and declined, and "page right" — shown answers whose first
verified citation is on a gold page of the gold file (items with ``pdf_pages`` and ``file_stem``).
"""

from __future__ import annotations

import argparse
import collections
import hashlib
import json
import re
import unicodedata
from dataclasses import replace
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

_NUM = re.compile(r"(?<![\d.,])(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?![\d])")
_ONLY_NUMBER = re.compile(r"\s*[-−]?\s*(\d{1,3}(,\d{3})+|\d+)(\.\d+)?\s*%?\s*")
_QUALIFIED = re.compile(
    r"^\s*(?:각각|모두)?\s*(?P<num>[-−±]?[\d,.]+\s*%?)\s*(?P<unit>[^\d\s/][^\s]{0,9})?\s*(?:이하|이상|미만|이내|까지|초과)?\s*$"
)
_FOLD = (("〜", "~"), ("∼", "~"), ("～", "~"), ("_", ""), ("{", ""), ("}", ""), ("〖", ""), ("〗", ""), (",", ""),
         ("×", "x"), ("−", "-"))  # fmt: skip


def _numbers(text: str, unit: str = "") -> set[Decimal]:
    t = unicodedata.normalize("NFKC", text)
    out: set[Decimal] = set()
    for m in _NUM.finditer(t):
        try:
            d = Decimal(m.group(0).replace(",", ""))
        except InvalidOperation:
            continue
        out.add(d.normalize())
        if unit.strip() == "%" or t[m.end() :].lstrip().startswith("%"):
            out.add((d / 100).normalize())
    return out


def _only_number(text: str) -> bool:
    return bool(_ONLY_NUMBER.fullmatch(unicodedata.normalize("NFKC", text)))


def _norm(text: str) -> str:
    t = re.sub(r"\s+", "", unicodedata.normalize("NFKC", text)).lower()
    for a, b in _FOLD:
        t = t.replace(a, b)
    return t


def _plain(tex: str) -> str:
    t = re.sub(r"\{\{|\}\}", "", tex)
    t = re.sub(r"\\frac\{([^{}]*)\}\{([^{}]*)\}", r"\1/\2", t)
    t = re.sub(r"\\sqrt\{([^{}]*)\}", r"√\1", t)
    return re.sub(r"\\[a-z]+", "", t)


def judge(item: dict[str, Any], a: Any) -> bool:
    gold = _plain(str(item.get("answer", ""))).strip()
    if not gold:
        return False
    if _only_number(gold) and a.value:
        m = _QUALIFIED.match(unicodedata.normalize("NFKC", a.value))
        bare = m["num"] if m else a.value
        if not _only_number(bare):
            return False
        unit = a.unit or ((m["unit"] or "") if m else "")
        return bool(_numbers(gold, item.get("unit", "")) & _numbers(bare, unit))
    texts = [f"{a.value} {a.unit}", a.value, *a.requirements, a.definition]
    if a.qtype == "definition":
        texts.append(a.answer_text)
    g = _norm(gold)
    return any(g in _norm(t) for t in texts if t.strip())


def _need_row(need: Any) -> dict[str, Any]:
    """The need's slots as plain JSON (for the dump's error analysis)."""
    if need is None:
        return {}
    out: dict[str, Any] = {}
    for k in getattr(need, "__dataclass_fields__", {}):
        v = getattr(need, k)
        if isinstance(v, (str, int, float, bool)) or v is None:
            out[k] = v
        elif isinstance(v, (tuple, list, frozenset, set)) and all(isinstance(x, str) for x in v):
            out[k] = sorted(v) if isinstance(v, (set, frozenset)) else list(v)
    return out


def _page_ok(item: dict[str, Any], a: Any) -> bool | None:
    """Whether the first verified citation is on a gold page of the gold file (None when the item has no pages)."""
    if not (item.get("pdf_pages") and item.get("file_stem")):
        return None
    c = next((c for c in a.citations if c.verified), None)
    return bool(
        c is not None and c.page_index is not None and c.chunk.doc.stem == item["file_stem"]
        and c.page_index + 1 in item["pdf_pages"]
    )  # fmt: skip


def split_of(item: dict[str, Any]) -> str:
    doc = (item.get("doc") or "").strip()
    if doc:
        m = re.match(r"([A-Za-z]+)\s*(\d{2})\s*(\d{2})\s*(\d{2})", doc)
        key = f"{m.group(1).upper()} {m.group(2)} {m.group(3)} {m.group(4)}" if m else " ".join(doc.split()).upper()
    else:
        key = str(item.get("id", ""))
    return "dev" if int(hashlib.sha256(key.encode()).hexdigest()[:8], 16) % 2 == 0 else "val"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("library")
    ap.add_argument("qa", nargs="+")
    ap.add_argument("--split", choices=("dev", "val", "all"), default="val")
    ap.add_argument("--live-facts", action="store_true")
    ap.add_argument("--dump", help="write one JSON line per question (id, status, judged right, value) to this file")
    args = ap.parse_args()

    from kdsdesk.answer.pipeline import answer_question
    from kdsdesk.service import Library

    lib = Library(args.library)
    items = [
        json.loads(line) for f in args.qa for line in Path(f).read_text(encoding="utf-8").splitlines() if line.strip()
    ]
    items = [
        q for q in items
        if (args.split == "all" or split_of(q) == args.split)
        and q["qtype"] in ("numeric", "conditional", "regulation", "definition")
    ]  # fmt: skip
    tally: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    dump = Path(args.dump).open("w", encoding="utf-8") if args.dump else None  # noqa: SIM115
    for q in items:
        hits = lib.search(q["question"], k=20)
        if args.live_facts:
            from kdsdesk.text.facts import chunk_facts

            hits = [
                replace(h, chunk=replace(h.chunk, facts=chunk_facts(h.chunk.kind, h.chunk.text, h.chunk.table)))
                for h in hits
            ]
        a = answer_question(q["question"], hits, llm="none")
        shown = a.status in ("confirmed", "warning")
        if dump is not None:
            row = {"id": q["id"], "qtype": q["qtype"], "status": a.status, "answer": a.answer_text[:160],
                   "ok": bool((q.get("doc") or "").strip()) and judge(q, a), "nil": not (q.get("doc") or "").strip(),
                   "quote": a.citations[0].quote[:160] if a.citations else "",
                   "rank": next((i for i, h in enumerate(hits) for c in a.citations[:1]
                                 if h.chunk.chunk_id == c.chunk.chunk_id), -1),
                   "failed": sorted(k for k, v in a.verdict.checks.items() if not v),
                   "checks": sorted(a.verdict.checks), "dqtype": a.draft.qtype, "unit": a.unit,
                   "reading": {k: v for k, v in dict(a.reading).items() if k != "chunk_id"},
                   "need": _need_row(a.need), "n_cites": len(a.citations), "n_alts": len(a.draft.alternatives),
                   "page_ok": _page_ok(q, a)}  # fmt: skip
            dump.write(json.dumps(row, ensure_ascii=False) + "\n")
        for key in ("all", q["qtype"]):
            t = tally[key]
            if not (q.get("doc") or "").strip():
                t["nil"] += 1
                t["nil_declined"] += not shown
                continue
            ok = judge(q, a)
            t["n"] += 1
            t["ok"] += ok and shown
            t["shown"] += shown
            t["conf"] += a.status == "confirmed"
            t["conf_ok"] += a.status == "confirmed" and ok
            t["wrong_shown"] += shown and not ok
            t["wrong_conf"] += a.status == "confirmed" and not ok
            if shown and q.get("pdf_pages") and q.get("file_stem"):
                c = next((c for c in a.citations if c.verified), None)
                t["page_n"] += 1
                t["page_ok"] += bool(
                    c is not None
                    and c.page_index is not None
                    and c.chunk.doc.stem == q["file_stem"]
                    and c.page_index + 1 in q["pdf_pages"]
                )
    if dump is not None:
        dump.close()
    out = {}
    for key, t in tally.items():
        n = t["n"] or 1
        out[key] = {
            "n": t["n"],
            "accuracy": round(t["ok"] / n, 3),
            "shown": t["shown"],
            "confirmed": t["conf"],
            "conf_precision": round(t["conf_ok"] / t["conf"], 3) if t["conf"] else None,
            "wrong_shown": t["wrong_shown"],
            "wrong_confirmed": t["wrong_conf"],
            "nil": t["nil"],
            "nil_declined": t["nil_declined"],
            "page_right": f"{t['page_ok']}/{t['page_n']}" if t["page_n"] else "—",
        }
    print(json.dumps(out, ensure_ascii=False))


if __name__ == "__main__":
    main()
