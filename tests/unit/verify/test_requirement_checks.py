"""Requirement and definition answers by class of input: the clause that answers, a list's lead-in, an exemption,
a definition asked and a rule given, a desirable value and the limit."""

from __future__ import annotations

from dataclasses import replace

from kdsdesk import lexicon as lx
from kdsdesk.answer.pipeline import answer_question
from kdsdesk.records import Answer
from kdsdesk.verify.align import match
from kdsdesk.verify.need import read_need
from kdsdesk.verify.readings import reading_of_value
from tests.data.answer_records import DOC, hits, text_chunk


def _ask(question: str, text: str, clause_path: tuple[str, ...] = ("4 설계", "4.1 일반")) -> Answer:
    return answer_question(question, hits(text_chunk(text, clause_path=clause_path)), llm="none")


def test_the_clause_that_answers_may_follow_another_topic_in_the_sentence() -> None:
    text = (
        "(1) 선수의 눈부심을 줄이기 위해 코트의 장축은 남북 방향으로, 관중을 위해서는 본부석을 코트의 서쪽에 "
        "배치한다."
    )
    a = _ask("관중을 위한 본부석은 코트의 어느 쪽에 배치하나요?", text)
    assert a.status == "confirmed"
    assert "서쪽" in " ".join(a.draft.requirements)


def test_a_sentence_that_only_introduces_a_list_is_not_the_answer() -> None:
    text = "(1) 조사 대상 노선은 일반적으로 다음과 같은 노선으로 한다."
    a = _ask("조사 대상 노선은 어떻게 정하나요?", text)
    assert a.status != "confirmed"
    assert not a.verdict.checks.get("not_lead_in", True)


def test_an_exemption_asked_needs_the_exception_not_the_rule() -> None:
    rule = "(1) 모든 펌프에는 역류방지밸브를 펌프별로 설치하여야 한다."
    a = _ask("역류방지밸브를 펌프별로 설치하지 않아도 되는 펌프는?", rule)
    assert a.status != "confirmed"
    with_exception = rule + " 다만, 소화용 펌프에는 그러하지 아니할 수 있다."
    assert lx.EXEMPTION_STATED.search(with_exception)


def test_a_definition_asked_is_not_answered_by_a_rule_about_the_term() -> None:
    text = "① 보행환산거리는 300미터를 초과하지 않는 것을 원칙으로 한다."
    a = _ask("'보행환산거리'란 무엇인가요?", text)
    assert a.status != "confirmed"


def test_a_desirable_value_is_not_the_minimum_asked() -> None:
    text = "(5) 배수관의 경사는 1.0 % 이상이 바람직하나 최소 0.3 % 이상으로 한다."
    chunk = text_chunk(text)
    need = read_need("배수관 경사는 최소 몇 % 이상이어야 하나요?")
    desirable = reading_of_value(chunk, 0, len(text), "1.0")[0]
    limit = reading_of_value(chunk, 0, len(text), "0.3")[0]
    assert not match(need, desirable).checks["bound"]
    assert match(need, limit).checks["bound"]
    assert match(read_need("배수관 경사로 바람직한 값은 몇 % 이상인가요?"), desirable).checks["bound"]


def test_a_light_verb_is_negated_with_its_object() -> None:
    assert lx.negation_disagrees("지연제를 사용하지 않는 경우", "지연제를 사용하는 경우")
    assert not lx.negation_disagrees("유공관을 설치하지 않는 것으로 하여", "횡방향으로 설치하는 맹암거")


def test_a_quoted_term_before_ran_asks_a_definition() -> None:
    for q in ("'보행거리'란 무엇인가요?", "철도역 계획에서 '보행거리'란?", "“보행거리”란?"):
        need = read_need(q)
        assert need.kind == "definition"
        assert need.subject == "보행거리"


def test_a_term_is_the_same_with_or_without_its_other_name() -> None:
    text = "스트립받침(strip bearing): 받침의 길이가 너비의 최소 10배인 평패드받침"
    a = _ask("교량 받침에서 스트립받침이란?", text)
    assert a.status == "confirmed"
    assert "평패드받침" in a.draft.definition
    assert read_need("스트립받침(strip bearing)이란?").subject == "스트립받침"


def test_a_term_defined_twice_differently_is_not_confirmed() -> None:
    first = text_chunk("물리탐사: 지하 지질에 관한 제반사항을 간접적인 방법에 의하여 규명하는 조사", "d1")
    second = text_chunk("물리탐사: 지층 구성 요소의 물리적 특성 차이로 암체의 종류와 구조를 조사하는 방법", "d2")
    a = answer_question("물리탐사의 정의는?", hits(first, second), llm="none")
    assert a.status != "confirmed"
    same = text_chunk("물리탐사: 지하 지질에 관한 제반사항을 간접적인 방법에 의하여 규명하는 조사", "d3")
    assert answer_question("물리탐사의 정의는?", hits(first, same), llm="none").status == "confirmed"


def test_an_exception_answers_only_a_question_that_states_its_case() -> None:
    text = (
        "(2) 하나의 이음부에 리벳과 용접을 병용하는 경우에는 용접이 하중 전부를 부담하도록 설계하여야 한다. "
        "다만, 리벳을 용접 이전에 모두 체결한 경우에는 리벳과 용접이 하중을 분담하는 것으로 할 수 있다."
    )
    a = _ask("한 이음부에 리벳과 용접을 같이 쓰면 하중 분담은 어떻게 설계하나요?", text)
    assert not (a.status == "confirmed" and "분담하는 것으로 할 수" in " ".join(a.draft.requirements))


def test_a_case_bound_answer_from_a_passage_not_retrieved_first_is_a_warning() -> None:
    top = text_chunk("(1) 옹벽 배수공의 간격은 4.5 m 이하로 한다.", "top", clause="4.1")
    other = text_chunk("(2) 높이 6 m 이상인 옹벽의 경우 배수공의 간격은 3 m 이하로 한다.", "other", clause="4.3")
    q = "높이 6 m 이상인 옹벽의 경우 배수공 간격은 몇 m 이하인가요?"
    second = answer_question(q, hits(top, other), llm="none")
    first = answer_question(q, hits(other, top), llm="none")
    assert first.value == second.value
    assert first.value.startswith("3")
    assert first.status == "confirmed"
    assert second.status == "warning"  # still shown, with the advice to check the source
    assert "첫 문단" in second.verdict.reason


def test_a_longer_term_is_not_defined_by_the_definition_of_its_first_word() -> None:
    text = "커버리지(Coverage): 하나의 기지국과 단말기간 송·수신이 가능한 전파권역을 말한다."
    a = _ask("'커버리지 중첩'의 뜻은?", text)
    assert a.status != "confirmed"


def test_a_list_item_that_only_repeats_the_question_answers_nothing() -> None:
    text = (
        "(1) 조사 대상 도로는 일반적으로 다음과 같은 도로로 한다.\n"
        "① 계획도로와 교차하는 교통이 많은 도로\n"
        "② 계획도로와 병행하는 도로"
    )
    a = _ask("계획도로와 병행하는 도로는 어디에 조사 지점을 두나요?", text)
    assert a.status != "confirmed"


def test_a_factor_asked_is_not_a_number_glued_to_a_letter() -> None:
    text = "차종별 환산계수 차종 승용차 버스 대형트럭 (8t) 환산계수 1.0 1.9 2.5"
    chunk = text_chunk(text)
    r = reading_of_value(chunk, 0, len(text), "8")[0]
    assert r.symbolic
    assert not match(read_need("대형트럭의 승용차 환산계수는?"), r).checks["unit"]


def test_a_definition_sentence_may_go_on_after_it_defines() -> None:
    # "X란 … 을 말하며, …", "X란 … 비율로서 …", "X는 … 저류지로서 …": the term is defined however the sentence ends
    for text, term in (
        ("설계속도란 운전자가 쾌적성을 잃지 않고 유지할 수 있는 속도를 말하며, 기본이 된다.", "설계속도"),
        ("소화효율이란 유기성분이 가스화 및 무기화하는 비율로서 소화일수 등에 따라 정해진다.", "소화효율"),
        ("배수지는 송수를 받아 배수하기 위한 저류지로서 배수량의 시간변동을 조절하는 기능을 갖는다.", "배수지"),
    ):
        assert lx.defined_term(text) == term
        a = _ask(f"'{term}'의 정의는?", text)
        assert a.status == "confirmed"
    # a rule about a thing "as" something defines nothing
    assert lx.defined_term("(1) 강재는 구조용으로서 KS 규격에 맞아야 한다.") == ""


def test_a_term_asked_of_a_group_or_a_thing_is_the_term_itself() -> None:
    assert read_need("케이블교량 연결요소 중 버퍼란 무엇인가?").subject == "버퍼"
    assert read_need("판형열교환기 설계에서 말하는 어프로치 온도는 어떻게 정의되나요?").subject == "어프로치 온도"
    from dataclasses import replace

    from tests.data.answer_records import DOC

    text = "∙ 윈드 슈: 바람에 의한 보강형의 교축직각방향 움직임을 제어하며 그 반력을 구조물에 전달하는 장치"
    frame = {"doc": replace(DOC, title="케이블교량 설계기준"), "clause_path": ("1 일반", "1.4 케이블교량 용어")}
    chunk = text_chunk(text, **frame)
    assert answer_question("케이블교량의 윈드 슈란?", hits(chunk), llm="none").status == "confirmed"
    # a word before the term without "의" makes another term
    assert _ask("이차 냉매란?", "냉매: 냉동 사이클에서 열을 운반하는 작동 유체를 말한다.").status != "confirmed"


def test_a_definition_from_outside_the_setting_asked_is_no_rival() -> None:
    from dataclasses import replace

    from tests.data.answer_records import DOC

    farm = replace(DOC, file="/tmp/farm.pdf", doc_code="KDS 67 40 10", title="농도 설계기준")
    road = replace(DOC, file="/tmp/road.pdf", doc_code="KDS 44 10 10", title="도로 설계기준")
    own = text_chunk("설계속도란 운전자가 농도의 구간에서 쾌적성을 잃지 않고 유지하는 속도를 말한다.", "f1", doc=farm)
    other = text_chunk("설계속도란 도로 설계의 기초가 되는 자동차의 속도를 말한다.", "r1", doc=road)
    assert answer_question("농도 설계기준에서 '설계속도'의 정의는?", hits(own, other), llm="none").status == "confirmed"
    assert answer_question("'설계속도'의 정의는?", hits(own, other), llm="none").status != "confirmed"


def test_a_place_in_a_list_asked_needs_the_item_at_that_place() -> None:
    text = "(1) 다음의 개방형 프로토콜을 사용한다.\n① BACnet\n② LonWorks\n③ Modbus\n④ KNX"
    q = "중앙관제설비 개방형 통신 프로토콜 목록에서 세 번째로 제시된 것은?"
    sentence = "(1) 승강설비 중앙관제시스템은 개방형 프로토콜 통신이 가능하도록 구성한다."
    assert _ask(q, sentence).status != "confirmed"
    from kdsdesk.records import Citation
    from kdsdesk.verify.verifier import _item_place

    chunk = text_chunk(text)
    def cite(x: str) -> Citation:
        return Citation(chunk, x, verified=True, start=text.find(x), end=text.find(x) + len(x))

    place = [_item_place(cite(x)) for x in ("BACnet", "Modbus", "KNX")]
    assert place == [(1, False), (3, False), (4, True)]


def test_a_sentence_that_leaves_the_choice_to_a_table_is_a_pointer() -> None:
    text = "② 배수로 측량의 축척은 유역 면적에 따라 다음 표 4.2-3의 범위 내에서 정하여 실시한다."
    assert lx.POINTER.search(text)
    a = _ask("배수로 측량에서 유역 면적이 2 ㎢ 이상이면 축척은?", text)
    assert a.status not in ("confirmed", "warning")


def test_a_case_with_an_amount_needs_a_sentence_that_writes_that_amount() -> None:
    general = "(3) 옹벽 배면의 배수층은 옹벽 높이 이상의 범위에 투수성이 좋은 재료로 설치하여야 한다."
    a = _ask("옹벽 높이가 6 m 이상이면 배면 배수층은 어떻게 설치하나요?", general)
    assert a.status not in ("confirmed", "warning")
    assert not a.verdict.checks.get("need_conditions", True)
    stated = "(3) 옹벽 높이가 6 m 이상이면 배면의 배수층은 투수성이 좋은 재료로 두께 300 mm 이상 설치하여야 한다."
    assert _ask("옹벽 높이가 6 m 이상이면 배면 배수층은 어떻게 설치하나요?", stated).verdict.checks["need_conditions"]


def test_when_something_is_allowed_asks_for_a_sentence_that_allows_it() -> None:
    assert read_need("기준보다 작은 두께를 적용할 수 있는 경우는?").permission
    assert not read_need("배관에 결로가 생길 수 있는 경우 감아야 하는 재료는?").permission  # a case, not the ask
    rule = "(1) 보호층의 두께는 표 4.1-2에서 정하는 값 이상으로 하여야 한다."
    a = _ask("보호층을 표의 값보다 얇게 적용할 수 있는 경우는?", rule)
    assert a.status not in ("confirmed", "warning")


def test_a_case_naming_a_grade_needs_a_sentence_that_writes_that_grade() -> None:
    text = "① 정류장에는 아래 표 3.1-2의 기준에 따라 대기소를 설치하고, 대기공간은 보행자의 통행을 고려하여 확보한다."
    a = _ask("3등급 정류장에서 대기소 설치 여부는?", text)
    assert a.status not in ("confirmed", "warning")


def test_a_glossary_written_as_one_paragraph_defines_each_of_its_terms() -> None:
    text = (
        "건조상태：부재의 함수율이 15 % 이하로 유지되는 상태 지간：받침의 중심에서 다른 받침의 중심까지의 거리 "
        "호칭치수：실제치수보다 크게 정해 부르기 편하게 쓰는 치수 단일재：하나의 부재만으로 하중을 지지하는 부재"
    )
    a = _ask("호칭치수란 무엇인가?", text, clause_path=("1 일반사항", "1.4 용어의 정의"))
    assert a.status == "confirmed"
    assert a.draft.term == "호칭치수"
    assert a.draft.definition.startswith("실제치수보다 크게")
    assert "지간" not in a.draft.definition


def test_a_question_naming_the_standards_scope_is_relevant_to_its_sentence() -> None:
    text = "(1) 저류조는 우수를 일시 저장하여 하류의 유량을 조절하는 시설이다."
    doc = replace(DOC, title="빗물 이용 및 배수 설비 설계기준")
    chunk = text_chunk(text, doc=doc, clause_path=("1 일반사항", "1.4 용어의 정의"))
    a = answer_question("빗물 이용 배수 설비 설계기준에서 저류조(貯留槽)란?", hits(chunk), llm="none")
    assert a.verdict.checks["relevance"]
    assert a.status == "confirmed"


def test_who_does_something_is_answered_by_the_sentence_whose_topic_is_the_agent() -> None:
    text = "(3) 감리원은 말뚝 시공 중에 공정별로 재하시험을 입회하여 확인하여야 한다."
    a = _ask("말뚝 시공 중 공정별 재하시험 입회 확인은 누가 하나요?", text)
    assert a.status == "confirmed"
    assert _ask("말뚝 시공 중 공정별 재하시험 입회 확인 주체", text).status == "confirmed"
    other = "(3) 재하시험은 말뚝 시공 중에 공정별로 실시하여야 한다."
    assert _ask("말뚝 시공 중 공정별 재하시험 입회 확인은 누가 하나요?", other).status != "confirmed"


def test_a_thing_written_nowhere_in_what_was_retrieved_is_not_in_the_library() -> None:
    text = "(3) 농로의 측구는 저폭 0.3 m, 깊이 0.3 m, 사면 기울기 1:0.5 정도로 만든다."
    a = _ask("다이빙대 착지사면 최대 기울기", text)
    assert a.status not in ("confirmed", "warning")
    assert not a.verdict.checks["need_subject"]
    assert _ask("농로 측구 사면 기울기", text).status in ("confirmed", "warning")


def test_a_requirement_written_for_a_case_of_its_own_needs_that_case_asked() -> None:
    text = (
        "(1) 논의 경우 배수로 계획은 지구 경계의 간선배수로부터 시작해서 지선배수로에 이르기까지 순차적으로 "
        "결정하는 것을 원칙으로 한다."
    )
    other = _ask("밭의 배수로 계획은 무엇부터 시작하나요?", text)
    assert other.status != "confirmed"  # the sentence holds for 논 only
    assert not other.verdict.checks["need_own_cases"]
    own = _ask("논의 배수로 계획은 무엇부터 시작하나요?", text)
    assert own.verdict.checks["need_own_cases"]  # "논의 경우": the one-syllable case is the question's
    assert own.status == "confirmed"


def test_a_case_governing_only_the_first_clause_or_one_of_alternatives_does_not_bind_the_answer() -> None:
    first_clause = _ask(
        "신호 절연이 필요한 개소에는 무엇을 사용하나요?",
        "(3) 서로 다른 레일을 연결할 경우에는 중계레일을 사용하고, 신호 절연이 필요한 개소는 절연이음매를 사용한다.",
    )
    assert first_clause.verdict.checks.get("need_own_cases", True)
    either = _ask(
        "교통량을 정할 수 없을 때 어떤 피로강도를 적용하나요?",
        "(4) 반복횟수가 한계를 초과하거나 교통량을 정할 수 없는 경우는 무한수명 피로강도를 적용할 수 있다.",
    )
    assert either.verdict.checks.get("need_own_cases", True)


def test_a_value_from_a_passage_retrieved_below_the_first_two_is_a_warning() -> None:
    other = [text_chunk(f"(1) 관련 없는 문장 {i}.", f"o{i}", clause=f"2.{i}") for i in range(2)]
    cited = text_chunk("(2) 보도 포장의 횡단경사는 2 % 이하로 한다.", "cited", clause="4.2")
    q = "보도 포장의 횡단경사는 몇 % 이하인가요?"
    top = answer_question(q, hits(cited, *other), llm="none")
    low = answer_question(q, hits(*other, cited), llm="none")
    assert top.status == "confirmed"
    assert top.value == low.value
    assert low.status == "warning"


def test_a_value_under_a_parallel_list_for_another_scope_is_not_the_scopes() -> None:
    text = (
        "(1) 일반 강구조 이음판에 대한 구조제한은 다음과 같다.\n"
        "① 볼트 구멍의 직경은 볼트 직경보다 2 mm를 초과하여 크면 안 된다.\n"
        "(2) 교량 강구조의 이음판에 대한 구조제한은 다음과 같다.\n"
        "① 이음판의 두께는 12 mm 이상이어야 한다."
    )
    a = _ask("교량 강구조 이음판에서 볼트 구멍의 직경은 볼트 직경보다 몇 mm를 초과하면 안 되나요?", text)
    assert a.status != "confirmed"  # 2 mm is the rule of (1) 일반 강구조, not of (2) 교량 강구조
    general = _ask("일반 강구조 이음판에서 볼트 구멍의 직경은 볼트 직경보다 몇 mm를 초과하면 안 되나요?", text)
    assert general.value.startswith("2")
