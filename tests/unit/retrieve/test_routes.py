"""Each route proven: in these queries BM25 alone ranks a distractor first, and the route puts the target first."""

from __future__ import annotations

from kdsdesk.index.library import Catalog
from kdsdesk.retrieve import routes
from kdsdesk.retrieve.hybrid import search_stages
from kdsdesk.retrieve.routes import clause_numbers, is_symbol_query, table_numbers


def _top(cat: Catalog, query: str) -> tuple[str, str, str]:
    st = search_stages(cat, query, k=10, dense=False)
    assert st.bm25, query
    first = st.hits[0]
    return st.bm25[0].chunk.clause, first.chunk.clause, first.route


def test_reference_patterns() -> None:
    assert table_numbers("표 3.6-2의 값, 표4.1-1") == ["3.6-2", "4.1-1"]
    assert clause_numbers("4.1.2에 따른 값과 4.2.3.1") == ["4.1.2", "4.2.3.1"]
    assert clause_numbers("표 4.1.2") == []
    assert clause_numbers("식 4.2.1") == []
    assert clause_numbers("12.7 mm와 4.2-1") == []
    assert is_symbol_query("fck")
    assert not is_symbol_query("4.1.2")
    assert not is_symbol_query("fck 값")


def test_table_number_route(route_catalog: Catalog) -> None:
    bm25_first, first, route = _top(route_catalog, "표 4.3-4")
    assert bm25_first == "1.1"  # the text that cites the table four times
    assert (first, route) == ("4.3.4", "table_no")


def test_table_title_route(route_catalog: Catalog) -> None:
    bm25_first, first, route = _top(route_catalog, "고력볼트의 설계볼트장력")
    assert bm25_first == "2.1"
    assert (first, route) == ("4.3.4", "table_title")


def test_table_row_route(route_catalog: Catalog) -> None:
    bm25_first, first, route = _top(route_catalog, "프리스트레스트콘크리트 부재 간격은?")
    assert bm25_first == "2.2"
    assert (first, route) == ("4.2.3", "table_row")


def test_clause_number_route_is_applied_last(route_catalog: Catalog) -> None:
    bm25_first, first, route = _top(route_catalog, "4.2.4 전단철근")
    assert bm25_first == "3.1"
    assert (first, route) == ("4.2.4", "clause_no")
    st = search_stages(route_catalog, "4.2.3 표 4.3-4", k=10, dense=False)
    assert [(h.chunk.clause, h.route) for h in st.hits[:2]] == [("4.2.3", "clause_no"), ("4.3.4", "table_no")]


def test_symbol_query_keeps_bm25_order(route_catalog: Catalog) -> None:
    st = search_stages(route_catalog, "F13T 260", k=10, dense=False)
    assert [h.chunk.chunk_id for h in st.hits] == [h.chunk.chunk_id for h in st.bm25]
    assert {h.route for h in st.hits} == {"bm25"}
    # the same terms would have been routed as a table row had the query had Hangul
    routed = routes.route_table_title_row(route_catalog, st.terms, list(st.bm25), None)
    assert routed[0].route == "table_row"


def test_routes_never_remove_anything(route_catalog: Catalog) -> None:
    for q in ("표 4.3-4", "고력볼트의 설계볼트장력", "4.2.4 전단철근", "프리스트레스트콘크리트 부재 간격은?"):
        st = search_stages(route_catalog, q, k=50, dense=False)
        assert {h.chunk.chunk_id for h in st.bm25} <= {h.chunk.chunk_id for h in st.hits}
        assert [h.rank for h in st.hits] == list(range(1, len(st.hits) + 1))


def test_definition_questions_skip_table_routes(route_catalog: Catalog) -> None:
    assert routes.is_definition_question("설계볼트장력이란 무엇을 말하나요?")
    assert routes.is_definition_question("…을 무엇이라고 하나요?")
    assert not routes.is_definition_question("고력볼트의 설계볼트장력은 얼마인가요?")
    assert routes.is_definition_question("작업하중은 어떤 하중인가요?")  # a kind of thing asked
    assert routes.is_definition_question("'배수지'는 어떤 시설로 정의되나요?")
    assert not routes.is_definition_question("옹벽 뒤채움 흙은 어떤 재료를 써야 하나요?")
    st = search_stages(route_catalog, "고력볼트의 설계볼트장력이란?", k=10, dense=False)
    assert st.hits[0].route in ("bm25", "definition")  # not a table route
    assert st.hits[0].chunk.clause == "2.1"  # the definition line, not the table that names the term


def test_front_matter_goes_behind_the_clauses_of_its_file() -> None:
    from kdsdesk.records import Chunk, DocRef, Hit
    from kdsdesk.retrieve.routes import front_matter_last

    a = DocRef(file="/x/a.hwpx", sha256="0" * 64, kind="hwpx", doc_code="KDS 98 10 10", title="시험 배수시설 설계기준")
    b = DocRef(file="/x/b.pdf", sha256="1" * 64, kind="pdf")  # a file without clause headings at all

    def hit(cid: str, doc: DocRef, clause: str) -> Hit:
        path = (f"{clause} 조항",) if clause else ()
        return Hit(Chunk(chunk_id=cid, doc=doc, kind="text", text=cid, clause=clause, clause_path=path), 1.0, 1)

    hits = [hit("cover", a, ""), hit("b-text", b, ""), hit("a-2.1", a, "2.1"), hit("a-2.3", a, "2.3")]
    out = front_matter_last(hits)
    assert [h.chunk.chunk_id for h in out] == ["b-text", "a-2.1", "a-2.3", "cover"]
    assert [h.rank for h in out] == [1, 2, 3, 4]
    only_front = [hit("cover", a, ""), hit("b-text", b, "")]
    assert [h.chunk.chunk_id for h in front_matter_last(only_front)] == ["cover", "b-text"]  # nothing to put first
