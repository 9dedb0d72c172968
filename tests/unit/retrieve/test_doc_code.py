"""A query that names a standard: in this two-standard library plain routing picks the other standard's table and
clause (it cites them over and over), and the code in the query sends the routes to the named one."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from kdsdesk.index.indexer import add_files
from kdsdesk.index.library import Catalog
from kdsdesk.retrieve.hybrid import query_terms, search_stages
from kdsdesk.retrieve.routes import library_codes_named, named_codes, without_codes
from tests.data.synthetic_docs import fake_parse, write_spec

NOISY = {
    "code": "KDS 98 10 01",
    "title": "시험용 일반 설계기준",
    "year": "2024",
    "blocks": [
        ["1.1", "text", "(1) 표 3.5-1 개정 이력. 표 3.5-1 표 3.5-1 표 3.5-1 참조. 4.2.1 4.2.1 4.2.1 참조. 측압."],
        ["3.5", "table", {"no": "3.5-1", "title": "개정 이력",
                          "header": [["연도", "내용"]], "rows": [["2016", "제정"], ["2022", "개정"]]}],
        ["4.2.1", "text", "(1) 일반 사항: 이 기준의 개정 이력을 따른다."],
        ["4.4", "text", "(1) 측압: 측압은 측압 기준의 측압이다."],
    ],
}  # fmt: skip
NAMED = {
    "code": "KDS 98 20 02",
    "title": "시험용 거푸집 설계기준",
    "year": "2024",
    "blocks": [
        ["3.5", "table", {"no": "3.5-1", "title": "타설 속도별 계수",
                          "header": [["타설 속도", "계수"]], "rows": [["2 m/h 이하", "0.8"], ["2 m/h 초과", "1.0"]]}],
        ["4.2.1", "text", "(1) 거푸집 압력은 타설 속도에 따라 정한다."],
        ["4.3", "text", "(1) 역타설 측압은 별도로 검토한다."],
    ],
}  # fmt: skip


@pytest.fixture(scope="module")
def two_docs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    root = tmp_path_factory.mktemp("doc-code")
    files = [write_spec(root / "noisy.pdf", NOISY), write_spec(root / "named.hwpx", NAMED)]
    cat = Catalog(root / "lib")
    for _ in add_files(cat, files, parse=fake_parse):
        pass
    yield cat
    cat.close()


def _first(cat: Catalog, query: str) -> tuple[str, str, str]:
    h = search_stages(cat, query, k=20, dense=False).hits[0]
    return h.chunk.doc.doc_code, h.chunk.clause, h.route


def test_code_forms() -> None:
    assert named_codes("KDS 14 31 05 표 3.5-1") == [("KDS", "14 31 05")]
    assert named_codes("KDS143105의 표") == [("KDS", "14 31 05")]
    assert named_codes("kcs 14 20 10, 예시 14 20 22 4.2.1") == [("KCS", "14 20 10"), ("예시", "14 20 22")]
    assert named_codes("KDS 14 20 22:2022 4.2.1") == [("KDS", "14 20 22")]
    assert named_codes("표 3.5-1, 12 31 05 MPa, KDS1431055") == []
    assert without_codes("KDS 21 50 00에서 역타설 측압") == "역타설 측압"
    assert without_codes("KDS 14 20 22 4.2.1") == "4.2.1"
    lib = ["KDS 14 20 10", "KCS 14 20 10", "KDS 14 20 22", "예시 21 50 00"]
    assert library_codes_named("KCS 14 20 10 표 1", lib) == ("KCS 14 20 10",)
    assert library_codes_named("KDS142010", lib) == ("KDS 14 20 10",)
    assert library_codes_named("예시 14 20 22", lib) == ("KDS 14 20 22",)  # a sample's code stands for the standard
    assert library_codes_named("KDS 21 50 00", lib) == ("예시 21 50 00",)
    assert library_codes_named("KCS 14 20 22", lib) == ()  # a construction spec is not the design standard
    assert library_codes_named("KDS 99 99 99", lib) == ()


def test_plain_routes_pick_the_noisy_standard(two_docs: Catalog) -> None:
    # without a code the table and clause numbers go to the standard that cites them most (BM25 order)
    assert _first(two_docs, "표 3.5-1") == ("KDS 98 10 01", "3.5", "table_no")
    assert _first(two_docs, "4.2.1") == ("KDS 98 10 01", "4.2.1", "clause_no")


@pytest.mark.parametrize("code", ["KDS 98 20 02", "KDS982002", "예시 98 20 02", "kds 98 20 02"])
def test_code_scopes_table_number_route(two_docs: Catalog, code: str) -> None:
    assert _first(two_docs, f"{code} 표 3.5-1") == ("KDS 98 20 02", "3.5", "table_no")


def test_code_scopes_clause_number_route(two_docs: Catalog) -> None:
    st = search_stages(two_docs, "KDS 98 20 02 4.2.1", k=20, dense=False)
    assert (st.hits[0].chunk.doc.doc_code, st.hits[0].chunk.clause, st.hits[0].route) == (
        "KDS 98 20 02",
        "4.2.1",
        "clause_no",
    )
    assert {h.chunk.chunk_id for h in st.bm25} <= {h.chunk.chunk_id for h in st.hits}  # nothing removed


def test_code_boosts_the_named_standard_and_keeps_routes(two_docs: Catalog) -> None:
    st = search_stages(two_docs, "KDS 98 20 02에서 측압", k=20, dense=False)
    assert st.bm25[0].chunk.doc.doc_code == "KDS 98 10 01"  # its definition line "측압: 측압은 …" outranks
    codes = [h.chunk.doc.doc_code for h in st.hits]
    assert codes[0] == "KDS 98 20 02"
    assert "KDS 98 10 01" in codes  # the other standard stays, after the named one's hits
    named_done = codes.index("KDS 98 10 01")
    assert all(c == "KDS 98 10 01" for c in codes[named_done:])
    assert all(h.route in ("bm25", "table_title", "table_row") for h in st.hits)


def test_code_tokens_do_not_reach_bm25(two_docs: Catalog) -> None:
    q, _ = query_terms(two_docs, "KDS 98 20 02 표 3.5-1")
    assert q.codes == ("KDS 98 20 02",)
    assert not {"kds", "98", "20", "02", "982002"} & set(q.terms)
    assert q.text == "표 3.5-1"


def test_unknown_code_behaves_as_today(two_docs: Catalog) -> None:
    q, _ = query_terms(two_docs, "KDS 11 11 11 표 3.5-1")
    assert q.codes == ()
    assert q.text == "KDS 11 11 11 표 3.5-1"
    assert _first(two_docs, "KDS 11 11 11 표 3.5-1") == ("KDS 98 10 01", "3.5", "table_no")
    # a named standard outside the caller's filter is not in play either
    q2, _ = query_terms(two_docs, "KDS 98 20 02 표 3.5-1", doc_codes=["KDS 98 10 01"])
    assert q2.codes == ()


def test_code_alone_still_searches(two_docs: Catalog) -> None:
    st = search_stages(two_docs, "KDS 98 20 02", k=20, dense=False)
    assert st.hits
    assert st.hits[0].chunk.doc.doc_code == "KDS 98 20 02"
