"""A small library whose BM25 order puts distractors first, so each route can be shown to matter."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from kdsdesk.index.indexer import add_files
from kdsdesk.index.library import Catalog
from tests.data.synthetic_docs import fake_parse, write_spec

ROUTE_SPEC = {
    "code": "KDS 99 00 01",
    "title": "시험용 설계기준",
    "year": "2024",
    "blocks": [
        ["1.1", "text", "(1) 표 4.3-4에 따른다. 표 4.3-4 표 4.3-4 표 4.3-4 참조."],
        ["2.1", "text", "(1) 고력볼트의 설계볼트장력: 고력볼트 설계볼트장력, 고력볼트 설계볼트장력."],
        ["2.2", "text", "(1) 프리스트레스트콘크리트 부재 간격: 프리스트레스트콘크리트 부재 간격 0.75h."],
        ["3.1", "text", "(1) 전단철근 전단철근 전단철근 배치 상세."],
        ["4.2.4", "text", "(1) 최소 전단철근을 배치한다."],
        ["4.3.4", "table", {"no": "4.3-4", "title": "고력볼트의 설계볼트장력",
                            "header": [["볼트 등급", "장력(kN)"]], "rows": [["F10T", "200"], ["F13T", "260"]]}],
        ["4.2.3", "table", {"no": "4.2-1", "title": "부재별 최대 간격",
                            "header": [["부재 구분", "간격"]],
                            "rows": [["철근콘크리트 부재", "d/2"], ["프리스트레스트콘크리트 부재", "0.75h"]]}],
    ],
}  # fmt: skip


@pytest.fixture(scope="module")
def route_catalog(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    root = tmp_path_factory.mktemp("routes")
    f = write_spec(root / "route.pdf", ROUTE_SPEC)
    cat = Catalog(root / "lib")
    gen = add_files(cat, [f], parse=fake_parse)
    for _ in gen:
        pass
    yield cat
    cat.close()


def catalog_path(cat: Catalog) -> Path:
    return cat.root
