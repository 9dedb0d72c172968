"""Retrieval metrics (``kdsdesk.evaluation.retrieval``): what counts as a hit, and what is not counted."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, cast

from kdsdesk.evaluation.retrieval import evaluate_retrieval
from kdsdesk.records import Hit
from kdsdesk.service import Library
from tests.data.answer_records import hits, text_chunk


@dataclass
class _Stages:
    hits: list[Hit]
    pool: list[Hit] = field(default_factory=list)


class _Library:
    """Always finds clause 4.2 of doc.pdf first."""

    def search_stages(self, question: str, k: int = 20, dense: bool = True) -> _Stages:
        found = hits(text_chunk("본문", clause="4.2"), text_chunk("다른 본문", chunk_id="c2", clause="4.3"))
        return _Stages(found, found)


def test_not_in_library_questions_have_no_rank_and_are_counted_apart() -> None:
    items: list[dict[str, Any]] = [
        {"id": "a", "question": "q1", "qtype": "numeric", "file_stem": "doc", "clause": "4.2"},
        {"id": "b", "question": "q2", "qtype": "numeric", "file_stem": "doc", "clause": "9.9"},
        {"id": "n", "question": "없는 기준", "qtype": "numeric", "doc": "", "file_stem": "", "clause": ""},
    ]
    result = evaluate_retrieval(cast(Library, _Library()), items)
    assert result["not_in_library"] == 1
    assert result["by_qtype"]["numeric"]["n"] == 2
    assert result["by_qtype"]["numeric"]["hit@3"] == 0.5
    assert [m["id"] for m in result["misses"]] == ["b"]
