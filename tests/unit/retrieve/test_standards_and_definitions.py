"""A library of several standards that share words: the question's words about the standard (its title, its
scope) choose among them, and a definition question finds the standard that defines the term — by a definition
line or a clause headed by the term — above those that only use it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from kdsdesk.index.indexer import add_files
from kdsdesk.index.library import Catalog
from kdsdesk.retrieve.definitions import asked_term, defines, defines_in_sentence, defines_inline
from kdsdesk.retrieve.hybrid import search_stages
from tests.data.synthetic_docs import fake_parse, write_spec


def spec(code: str, title: str, scope: str, blocks: list[list[object]]) -> dict[str, object]:
    return {
        "code": code,
        "title": title,
        "year": "2021",
        "blocks": [["1.1", "text", f"(1) 이 기준은 {scope}에 적용한다."], *blocks],
    }


FORMWORK = spec("KDS 98 50 10", "시험용 거푸집 설계기준", "거푸집과 동바리의 설계", [
    ["1.4", "text", "∙ 측압: 굳지 않은 콘크리트가 거푸집 측면에 미치는 압력\n∙ 동바리: 거푸집을 지지하는 가설 부재"],
    ["4.2", "text", "(1) 측압은 타설 속도와 온도에 따라 정하며 측압 계산은 표에 따른다."],
])  # fmt: skip
RETAINING = spec("KDS 98 60 20", "시험용 옹벽 설계기준", "옹벽과 흙막이의 설계", [
    ["1.4", "text", "∙ 측압: 흙과 물이 옹벽 배면에 미치는 수평 압력\n∙ 배수공: 옹벽 배면의 물을 빼는 시설"],
    ["4.3", "text", "(1) 옹벽의 측압은 토압과 수압을 합하여 구하며 측압 분포는 삼각형으로 한다."],
])  # fmt: skip
USER = spec("KDS 98 70 30", "시험용 교량 하부구조 설계기준", "교대와 교각의 설계", [
    ["4.1", "text", "(1) 교대에 작용하는 측압 측압 측압은 옹벽 기준의 측압을 따르며 측압 측압을 검토한다."],
    ["4.4", "text", "(1) 허용지지력은 지반의 극한지지력을 안전율로 나눈 값과 허용 변위량으로 정한다."],
    ["4.5", "text", "(1) 교각 기초의 허용지지력 검토는 4.4에 따른다."],
])  # fmt: skip
SURVEY = {**spec("KDS 98 90 50", "시험용 무인비행 측량 설계기준", "무인비행장치 측량", [
    ["4.2.1", "text", "(1) 지상기준점측량은 항공사진의 기준이 되는 점의 위치를 미리 정하여 둔다."],
    ["4.2.2", "text", "(1) 검사점측량이란 성과의 정확도를 검사하기 위하여 검사점의 위치를 측량하는 작업을 말한다."],
    ["4.3", "text", "(1) 구조물의 실험강도는 최고재하하중에 고정하중을 더한 값을 말한다."],
]), "headings": {"4.2": "영상취득", "4.2.1": "지상기준점측량", "4.2.2": "검사 작업"}}  # fmt: skip
INSPECTION = spec("KDS 98 95 60", "시험용 측량 성과 검사 기준", "측량 성과의 검사", [
    ["1.4", "text", "∙ 검사점측량: 성과를 검사하는 측량\n∙ 성과: 측량으로 얻은 결과"],
])  # fmt: skip
PAVEMENT = {**spec("KDS 98 80 40", "시험용 아스팔트 포장 설계기준", "아스팔트 콘크리트 포장의 설계", [
    ["4.1", "text", "(1) 포장 설계는 교통량과 공용기간을 고려한다."],
    ["4.1.6", "text", "(1) 포장이 제 기능을 하도록 설계하는 기간으로 20년을 표준으로 한다."],
]), "headings": {"4.1": "설계 조건", "4.1.6": "공용기간"}}  # fmt: skip


@pytest.fixture(scope="module")
def many(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    root = tmp_path_factory.mktemp("standards")
    files = [
        write_spec(root / f"s{i}.hwpx", s)
        for i, s in enumerate([FORMWORK, RETAINING, USER, PAVEMENT, SURVEY, INSPECTION])
    ]
    cat = Catalog(root / "lib")
    for _ in add_files(cat, files, parse=fake_parse):
        pass
    yield cat
    cat.close()


def _top(cat: Catalog, query: str, n: int = 1) -> list[tuple[str, str]]:
    return [(h.chunk.doc.doc_code, h.chunk.clause) for h in search_stages(cat, query, k=10, dense=False).hits[:n]]


def test_the_defining_standard_the_question_points_to_comes_first(many: Catalog) -> None:
    assert _top(many, "옹벽 설계에서 '측압'이란?") == [("KDS 98 60 20", "1.4")]
    assert _top(many, "거푸집 설계기준에서 측압의 정의는?") == [("KDS 98 50 10", "1.4")]


def test_a_standard_that_only_uses_the_term_is_not_first(many: Catalog) -> None:
    code, clause = _top(many, "측압이란 무엇인가요?")[0]
    assert clause == "1.4"
    assert code in ("KDS 98 50 10", "KDS 98 60 20")


def test_a_clause_headed_by_the_term_defines_it(many: Catalog) -> None:
    st = search_stages(many, "아스팔트 포장 설계에서 '공용기간'은 무엇을 뜻하나요?", k=10, dense=False)
    assert (st.hits[0].chunk.doc.doc_code, st.hits[0].route) == ("KDS 98 80 40", "definition")


def test_a_sentence_in_the_standard_asked_about_defines_the_term(many: Catalog) -> None:
    """ "X이란 … 작업을 말한다" in the standard the question names, above a definition line in another standard."""
    st = search_stages(many, "무인비행 측량 설계기준에서 검사점측량이란 어떤 작업인가요?", k=10, dense=False)
    assert (st.hits[0].chunk.doc.doc_code, st.hits[0].chunk.clause, st.hits[0].route) == (
        "KDS 98 90 50",
        "4.2.2",
        "definition",
    )


@pytest.mark.parametrize(
    ("text", "term", "yes"),
    [("(1) 검사점측량이란 검사점의 위치를 측량하는 작업을 말한다.", "검사점측량", True),
     ("(1) 구조물의 실험강도는 최고재하하중에 고정하중을 더한 값을 말한다.", "실험강도", True),
     ("(1) 열차무선설비는 정보를 무선으로 교환하는 설비이다.", "철도 열차무선설비", True),
     ("(1) 지상기준점측량은 항공사진의 기준이 되는 점의 위치를 미리 정하여 둔다.", "지상기준점측량", False),
     ("(1) 검사점측량의 성과는 검사 기록을 말한다.", "검사점측량", False),
     ("(1) 유수지는 홍수시 물을 저장하여 수량을 조절하는 저수지이다.", "유수지(遊水池)", True)],
)  # fmt: skip
def test_defines_in_sentence(text: str, term: str, yes: bool) -> None:
    assert defines_in_sentence(text, term) is yes


@pytest.mark.parametrize(
    ("text", "term", "yes"),
    [("공칭강도：구조부재의 강도 (저항계수가 적용되지 않은 값) 표면지압판：강재에 접합되는 판", "표면지압판", True),
     ("벽피어: 벽체의 일부분 보통못：철선으로 제조되는 못", "보통못", True),
     ("∙ 윈드 슈(wind shoe): 교축직각방향 움직임을 제어하는 장치", "윈드 슈", True),
     ("강재보 웨브에 전단연결재와 표면지압판을 설치해야 한다.", "표면지압판", False),
     ("강재 표면지압판의 두께: 10 mm 이상", "표면지압판", False),
     ("여기서, r : 조립부재의 수정된 세장비\n: 조립부재의 유효길이", "세장비", False)],
)  # fmt: skip
def test_defines_inline(text: str, term: str, yes: bool) -> None:
    assert defines_inline(text, term) is yes


@pytest.mark.parametrize(
    "question",
    ["케이블교량의 윈드 슈(wind shoe)란?", "합성구조 기준에서 말하는 표면지압판은 무엇인가요?",
     "하수도 내진설계 기준의 액상화 정의", "터널에서 허용편차는 뭘 말하는 거?", "선배수 시설이 뭐야?"],
)  # fmt: skip
def test_definition_questions(question: str) -> None:
    from kdsdesk.retrieve.routes import is_definition_question

    assert is_definition_question(question)


def test_a_list_position_question_is_no_definition_question() -> None:
    from kdsdesk.retrieve.routes import is_definition_question

    assert not is_definition_question("지하주차장 환기설비 자동제어 구성 항목 중 세 번째는 무엇인가요?")


def test_value_questions_keep_their_order(many: Catalog) -> None:
    assert _top(many, "교각 기초 허용지지력은 어떻게 정하나요?", 3)[0][0] == "KDS 98 70 30"


@pytest.mark.parametrize(
    ("question", "term"),
    [("'벽률'은 어떻게 정의되나요?", "벽률"), ("강구조에서 \"치올림\"이란?", "치올림"),
     ("교량 하부구조 설계기준에서 말하는 허용지지력의 정의는?", "허용지지력"), ("전단마찰이란?", "전단마찰"),
     ("기호 a(전단경간)는 무엇을 뜻하나요?", "a(전단경간)"), ("콘크리트 기초 피어의 정의는?", "콘크리트 기초 피어"),
     ("상수도 기준에서 '배수지'는 어떤 시설로 정의되나요?", "배수지"), ("철도 자갈궤도는 어떤 구조로 정의되나요?",
     "철도 자갈궤도"),
     ("거푸집 설계에서 말하는 작업하중은 어떤 하중인가요?", "작업하중"), ("'윤번관개'는 어떤 방법인가요?", "윤번관개"),
     ("솟아오르게 해 두는 것을 무엇이라고 하나요?", ""), ("물을 하부로 흘려보내는 배수시설은 뭐라고 부르나요?", ""),
     ("케이블교량 연결요소 중 버퍼란 무엇인가?", "버퍼"), ("양·배수장 기준에서 유수지(遊水池)란?", "유수지(遊水池)"),
     ("합성구조 기준에서 말하는 표면지압판은 무엇인가요?", "표면지압판"),
     # typed as a search, or in everyday words
     ("하수도 내진설계 기준의 액상화 정의", "액상화"), ("터널에서 허용편차는 뭘 말하는 거?", "허용편차"),
     ("도로 노면배수에서 선배수 시설이 뭐야?", "선배수 시설")],
)  # fmt: skip
def test_asked_term(question: str, term: str) -> None:
    assert asked_term(question) == term


def test_defines() -> None:
    assert defines("기초 피어", "기초피어")
    assert defines("사수위(Dead Storage Level, DSL)", "사수위")
    assert defines("𝑎", "a(전단경간)")
    assert defines("기초 피어", "콘크리트 기초 피어")
    assert not defines("피어", "콘크리트 기초 피어")
    assert not defines("측압계수", "측압")
    assert not defines("강도", "실험강도")  # the tail of one word is another word
    assert defines("문화재", "조적조 문화재")


def test_headed_by() -> None:
    from kdsdesk.retrieve.definitions import _headed_by

    assert _headed_by(("4. 설계", "4.1 포장 설계", "4.1.6 공용기간"), "공용기간")
    assert _headed_by(("2. 배수지", "2.1 총칙"), "배수지")
    assert not _headed_by(("2. 배수지", "2.3 용량"), "배수지")
    assert not _headed_by(("4.1.6 공용기간의 산정",), "공용기간")
    assert _headed_by(("4. 설계", "4.10 유수지"), "유수지(遊水池)")


def test_the_best_standards_add_their_own_chunks_even_when_one_is_in_the_pool() -> None:
    """The pool holds the named standard's 1.1 (it shares the question's words) but not the short clause asked
    about: that standard's own best chunks are searched all the same."""
    from collections.abc import Sequence

    from kdsdesk.records import Chunk, DocRef, Hit
    from kdsdesk.retrieve.standards import with_standard_prior

    a = DocRef(file="/x/a.hwpx", sha256="0" * 64, kind="hwpx", doc_code="KDS 98 10 45")
    b = DocRef(file="/x/b.hwpx", sha256="1" * 64, kind="hwpx", doc_code="KDS 98 10 10")

    def hit(cid: str, doc: DocRef, score: float) -> Hit:
        return Hit(Chunk(chunk_id=cid, doc=doc, kind="text", text=cid), score, 1)

    pool = [hit("b-4.2.1", b, 9.5), hit("a-1.1", a, 6.0)]
    asked: list[Sequence[str]] = []

    def search_in(codes: Sequence[str], n: int) -> list[Hit]:
        asked.append(codes)
        return [hit("a-4.2", a, 9.0)] if "KDS 98 10 45" in codes else []

    out = with_standard_prior(pool, {a.file: 1.0, b.file: 0.5}, {a.file: a.doc_code, b.file: b.doc_code}, search_in)
    assert [h.chunk.chunk_id for h in out] == ["a-4.2", "b-4.2.1", "a-1.1"]  # 9 × 1.2 > 9.5 × 1.1
    assert "KDS 98 10 45" in asked[0]


HVAC = spec("KDS 97 25 05", "시험용 공기조화설비 설계기준", "공기조화설비의 설계", [
    ["1.4", "text", "∙ 표준 공기 : 온도 20℃, 절대 압력 101.3 kPa, 상대 습도 65%의 습공기\n"
                    "∙ 현열 : 온도 변화에 드는 열량"],
    ["4.2", "text", "(1) 공기의 절대 압력과 온도는 실내 공기 조건에 따라 정하고 표준 공기 상태로 환산하여 검토한다."],
    ["4.3", "text", "(1) 표준 공기의 절대 압력 변화에 따른 송풍기 동력은 별도로 계산한다."],
])  # fmt: skip
TIMBER = spec("KDS 97 50 05", "시험용 목구조 설계기준", "목구조의 설계", [
    ["1.4", "text", "경간：지점 사이의 거리 건조사용조건：사용 중에 평형함수율이 19% 이하로 유지되는 조건 "
                    "경사면：경사진 재면"],
    ["4.1", "text", "(1) 목재의 평형함수율은 사용조건에 따라 다르며 건조사용조건에서는 건조 목재를 쓴다."],
])  # fmt: skip
SURVEY_SCALE = spec("KDS 97 20 35", "시험용 지형현황측량 기준", "지형현황측량", [
    ["4.1", "text", "(1) 축척 1:500 측량에서 지상기준점은 시가지 10,000 ㎡당 5점을 배치한다."],
    ["4.2", "text", "(1) 지형현황측량 축척 1:200~1:500으로 상세하게 측량한다."],
])  # fmt: skip


@pytest.fixture(scope="module")
def valued(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    root = tmp_path_factory.mktemp("valued")
    files = [write_spec(root / f"v{i}.hwpx", s) for i, s in enumerate([HVAC, TIMBER, SURVEY_SCALE, FORMWORK])]
    cat = Catalog(root / "lib")
    for _ in add_files(cat, files, parse=fake_parse):
        pass
    yield cat
    cat.close()


@pytest.mark.parametrize(
    ("question", "code"),
    [("공기조화설비 기준에서 표준 공기의 절대 압력은 몇 kPa로 보나요?", "KDS 97 25 05"),
     ("목구조에서 건조사용조건은 사용 중 평형함수율이 몇 % 이하로 유지되는 조건인가요?", "KDS 97 50 05")],
)  # fmt: skip
def test_a_value_written_in_the_definition_entry_of_a_term_the_question_names(
    valued: Catalog, question: str, code: str
) -> None:
    """A value question about a defined term whose definition entry (a line "X : …" or an entry run into a flattened
    list "… X：…") gives the value and shares the question's other words: that entry's clause comes first."""
    st = search_stages(valued, question, k=10, dense=False)
    assert (st.hits[0].chunk.doc.doc_code, st.hits[0].chunk.clause, st.hits[0].route) == (code, "1.4", "definition")


def test_a_ratio_or_an_entry_without_the_question_s_words_moves_nothing(valued: Catalog) -> None:
    """"축척 1:500" is no definition entry; a value question whose words no entry with a number shares keeps BM25
    order."""
    st = search_stages(valued, "지형현황측량 축척 1:500 시가지 지상기준점은 10,000 ㎡당 몇 점?", k=10, dense=False)
    assert all(h.route != "definition" for h in st.hits)
    st = search_stages(valued, "거푸집 측압은 몇 kPa인가요?", k=10, dense=False)
    assert all(h.route != "definition" for h in st.hits)
