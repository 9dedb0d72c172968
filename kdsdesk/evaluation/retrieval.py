"""Retrieval metrics over a question set (``qa.jsonl`` format): per ``qtype`` Hit@1/3/5, MRR, Recall@20 and pool
recall (the gold inside the candidate pool before routing), so each stage can be judged on its own.

A hit is correct when its file stem and clause equal the gold's (``file_stem``, ``clause``); an item may list
several acceptable places in ``golds`` (``[{"file_stem", "clause"}, …]``) — the generated evalset does for a
symbol defined in several clauses or documents.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kdsdesk.errors import KnownError
from kdsdesk.records import Hit
from kdsdesk.service import Library

CUTOFFS = (1, 3, 5)
RECALL_AT = 20


def load_items(path: Path) -> list[dict[str, Any]]:
    """Question items from a JSON Lines file (``id``, ``question``, ``file_stem``, ``clause``, ``qtype`` …)."""
    items = []
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise KnownError(f"질문 파일을 읽을 수 없습니다: {exc.strerror or exc}", path=str(path)) from exc
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except ValueError as exc:
            raise KnownError(f"질문 파일 {n}번째 줄이 JSON 형식이 아닙니다.", path=str(path)) from exc
        if not isinstance(item, dict) or "question" not in item:
            raise KnownError(f"질문 파일 {n}번째 줄에 'question'이 없습니다.", path=str(path))
        items.append(item)
    return items


def is_gold(hit: Hit, item: dict[str, Any]) -> bool:
    stem = Path(hit.chunk.doc.file).stem
    golds = item.get("golds") or [{"file_stem": item.get("file_stem", ""), "clause": item.get("clause", "")}]
    return any(
        (not g.get("file_stem") or g["file_stem"] == stem) and g.get("clause", "") == hit.chunk.clause for g in golds
    )


def has_gold(item: dict[str, Any]) -> bool:
    """The item names where its answer is (a clause, a file, or golds); a not-in-library question names none."""
    return bool(item.get("golds") or item.get("clause") or item.get("file_stem"))


def first_gold_rank(hits: Sequence[Hit], item: dict[str, Any]) -> int:
    """1-based rank of the first correct hit, 0 when none."""
    for i, h in enumerate(hits, 1):
        if is_gold(h, item):
            return i
    return 0


@dataclass(slots=True)
class _Acc:
    n: int = 0
    hit_at: dict[int, int] | None = None
    rr: float = 0.0
    recall: int = 0
    pool: int = 0

    def add(self, rank: int, pool_has: bool) -> None:
        if self.hit_at is None:
            self.hit_at = dict.fromkeys(CUTOFFS, 0)
        self.n += 1
        for c in CUTOFFS:
            if 0 < rank <= c:
                self.hit_at[c] += 1
        if rank:
            self.rr += 1.0 / rank
        if 0 < rank <= RECALL_AT:
            self.recall += 1
        if pool_has:
            self.pool += 1

    def report(self) -> dict[str, Any]:
        n = max(self.n, 1)
        hit_at = self.hit_at or dict.fromkeys(CUTOFFS, 0)
        out: dict[str, Any] = {"n": self.n}
        for c in CUTOFFS:
            out[f"hit@{c}"] = round(hit_at[c] / n, 4)
        out["mrr"] = round(self.rr / n, 4)
        out[f"recall@{RECALL_AT}"] = round(self.recall / n, 4)
        out["pool_recall"] = round(self.pool / n, 4)
        return out


def evaluate_retrieval(
    library: Library, items: Iterable[dict[str, Any]], k: int = RECALL_AT, dense: bool = True
) -> dict[str, Any]:
    """Metrics over ``items``: ``{"all": {...}, "by_qtype": {qtype: {...}}, "misses": [...]}``. ``dense`` False:
    lexical retrieval only (dense runs only where the library's settings allow it)."""
    total = _Acc()
    per: dict[str, _Acc] = {}
    misses: list[dict[str, Any]] = []
    not_in_library = 0
    for item in items:
        if not has_gold(item):
            not_in_library += 1  # nothing to find: a retrieval metric has no rank for it (answers count its refusal)
            continue
        st = library.search_stages(str(item["question"]), k=max(k, RECALL_AT), dense=dense)
        rank = first_gold_rank(st.hits, item)
        pool_has = first_gold_rank(st.pool, item) > 0
        total.add(rank, pool_has)
        per.setdefault(str(item.get("qtype", "")), _Acc()).add(rank, pool_has)
        if not 0 < rank <= 3:
            top = st.hits[0] if st.hits else None
            misses.append(
                {
                    "id": item.get("id", ""),
                    "qtype": item.get("qtype", ""),
                    "question": item["question"],
                    "gold": item.get("clause", ""),
                    "rank": rank,
                    "top": f"{Path(top.chunk.doc.file).stem} {top.chunk.clause} ({top.route})" if top else "",
                }
            )
    return {
        "all": total.report(),
        "by_qtype": {q: a.report() for q, a in sorted(per.items())},
        "misses": misses,
        "not_in_library": not_in_library,
    }
