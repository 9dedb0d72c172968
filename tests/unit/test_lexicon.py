"""The Korean lexicon: the one place where words of units, bounds, cases, items, negation and sentence kinds live.

Each test is a class of input (a unit in parentheses, a limit written as a negation, a numbered item, …), checked
with several forms, so that a change to one pattern that breaks its class fails here rather than in an answer."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from kdsdesk import lexicon as lx


@pytest.mark.parametrize(
    ("text", "unit"),
    [
        ("두께 200 mm 이상", "mm"), ("강도 24 MPa를", "MPa"), ("비율 25 %로", "%"), ("값은 200 (MPa) 이다", "MPa"),
        ("수압 98N/㎠(10.0kgf/㎠) 이하", "N/㎠"),
    ],
)
def test_unit_after_a_number_is_read_written_plainly_or_in_parentheses(text: str, unit: str) -> None:
    m = re.search(r"\d+", text)
    assert m
    u = lx.unit_at(text, m.end())
    assert u is not None
    assert u.group(1) == unit


def test_a_word_that_only_starts_like_a_unit_is_not_one() -> None:
    text = "3 mmx 이상"
    assert lx.unit_at(text, 1) is None


@pytest.mark.parametrize(
    ("text", "bound"),
    [
        ("200 mm 이상으로 한다", "ge"),
        ("200 mm 이하로 한다", "le"),
        ("200 mm를 초과하지 않도록", "le"),
        ("400 mm를 넘을 수는 없다", "le"),  # a limit written as a negation
        ("300 mm보다 작을 수 없다", "ge"),
        ("300 mm보다 커서는 안 된다", "le"),
        ("300 mm로 한다", ""),
        ("300 mm(30 cm) 이하로 한다", "le"),  # the same value in other units in between
    ],
)
def test_bound_after_a_value_reads_negated_limits_as_the_bound_they_set(text: str, bound: str) -> None:
    pos = text.index("mm") + 2
    assert lx.bound_after(text, pos) == bound


def test_upper_and_lower_bounds_are_told_apart() -> None:
    assert [lx.is_upper(b) for b in ("le", "lt", "ge", "gt")] == [True, True, False, False]
    assert [lx.is_lower(b) for b in ("le", "lt", "ge", "gt")] == [False, False, True, True]


@pytest.mark.parametrize(
    ("unit", "dimension"), [("mm", "length"), ("MPa", "stress"), ("kN", "force"), ("%", "ratio"), ("℃", "temperature")]
)
def test_units_have_the_dimension_they_measure(unit: str, dimension: str) -> None:
    assert lx.unit_dimension(unit) == dimension


def test_spellings_of_one_unit_are_the_same_unit() -> None:
    assert lx.same_unit("㎜", "mm")
    assert lx.same_unit("N/mm²", "MPa")
    assert not lx.same_unit("mm", "m")
    assert lx.same_unit("N/㎠", "N/cm2")


@pytest.mark.parametrize(
    ("text", "rest"),
    [
        ("① 슬래브 두께", "슬래브 두께"),
        ("(1) 피복두께는", "피복두께는"),
        ("가. 보의 폭", "보의 폭"),
        ("- 기둥", "기둥"),
    ],
)
def test_list_marks_are_stripped_from_items(text: str, rest: str) -> None:
    assert lx.strip_item(text) == rest


def test_numbered_items_exclude_bullets_and_sub_items_exclude_paragraph_numbers() -> None:
    assert lx.NUMBERED_ITEM_MARK.match("(2) 철근은")
    assert not lx.NUMBERED_ITEM_MARK.match("- 철근은")
    assert lx.SUB_ITEM_MARK.match("① 철근은")
    assert not lx.SUB_ITEM_MARK.match("(1) 철근은")


@pytest.mark.parametrize(
    "text", ["곡선부의 경우에는 0.5", "시공 중에는 0.5", "역타설 시 0.5", "h/l이 0.2일 때 0.5", "기온이 낮으면 0.5"]
)
def test_case_markers_are_found_in_each_form(text: str) -> None:
    assert lx.CASE_MARKER.search(text)


def test_exceptions_and_continuations_open_a_sentence() -> None:
    assert lx.EXCEPTION_OPEN.match("다만, 경량콘크리트의 경우에는")
    assert lx.EXCEPTION_OPEN.match("(3) 단, 이 경우")
    assert lx.CONTINUATION_OPEN.match("이 경우, 간격은")
    assert not lx.EXCEPTION_OPEN.match("다만 그 밖의")


def test_negated_words_read_prefixes_and_endings_alike() -> None:
    assert "부착" in lx.negated_words("비부착 긴장재")
    assert "부착" in lx.negated_words("부착되지 않는 긴장재")
    assert lx.negation_disagrees("비부착 긴장재", "부착된 긴장재")
    assert not lx.negation_disagrees("부착된 긴장재", "부착된 긴장재의 응력")


@pytest.mark.parametrize(
    ("text", "n"),
    [("첫 번째 값", 1), ("두번째", 2), ("마지막 항목", -1), ("세 값", 0), ("제2 조건", 2),
     ("제1종 건널목 보안장치의 네 번째 설비", 4), ("제1종 건널목", 0)],  # "제1종" names a class
)  # fmt: skip
def test_ordinals(text: str, n: int) -> None:
    assert lx.ordinal_in(text) == n


@pytest.mark.parametrize(
    ("sentence", "term"),
    [
        ("전단마찰 : 균열면을 따라 전달되는 전단", "전단마찰"),
        ("보의 춤이 경간의 1/4 이상인 보를 깊은보라고 한다.", "깊은보"),
        ("지연재란 응결을 늦추는 혼화제를 말한다.", "지연재"),
        ("(1) 철근은 이형철근을 사용하여야 한다.", ""),
        # the topic defined as a kind of thing while the sentence goes on
        ("횡단보도는 보행자가 도로를 가로지르도록 표시한 부분으로 다음과 같이 구분한다.", "횡단보도"),
        ("침사지는 유입수의 모래를 가라앉히는 시설로서 유입부에 둔다.", "침사지"),
        ("배수시설은 기존 시설로 한다.", ""),  # a requirement
        ("보의 폭은 300 mm 이상인 부재로 설계한다.", ""),  # a limit, not a definition
        # a count written inside the description ("1필지마다") does not make it a value
        ("② 경계확인은 현지형에서 1필지마다 경계를 확인하는 작업으로 말뚝을 설치하여야 한다.", "경계확인"),
        # a noun as the predicate, the sentence going on ("… 보내는 수로이며, …")
        ("(1) 승수로는 지구 밖의 유출수를 직접 배수 본천에 보내는 수로이며, 일반적으로 설치한다.", "승수로"),
        ("(1) 기초의 두께는 300 mm 이상이며, 또한 폭의 1/2 이상으로 한다.", ""),  # a value
    ],
)
def test_defined_term_is_read_from_the_sentence_form(sentence: str, term: str) -> None:
    assert lx.defined_term(sentence) == term


def test_requirement_endings_and_their_connective_forms_agree() -> None:
    for connective, final in lx.REQUIREMENT_CONNECTIVES:
        assert lx.REQUIREMENT_END.search("사용할 " + final), final  # the final form ends a requirement
        assert not lx.REQUIREMENT_END.search("사용할 " + connective + ","), connective  # the connective does not


def test_pointer_sentences_point_to_a_table_equation_or_standard() -> None:
    assert lx.POINTER.search("표 4.2-1에 따른다")
    assert lx.POINTER.search("KDS 14 20 10을 따른다")
    assert not lx.POINTER.search("피복두께는 40 mm 이상으로 한다")


def test_permission_questions_and_statements() -> None:
    assert lx.PERMISSION_ASKED.search("생략해도 되나요?")
    assert lx.PERMISSION_STATED.search("생략할 수 있다")
    assert lx.PERMISSION_STATED.search("사용하여서는 안 된다")


def test_every_quantity_noun_has_a_dimension_or_is_knowingly_dimensionless() -> None:
    assert all(isinstance(lx.QUANTITY_DIMENSION[w], str) for w in lx.QUANTITY_NOUNS)
    assert lx.QUANTITY_DIMENSION["측압"] == "force"


def _phrase_lists(path: Path) -> list[str]:
    """Module-level regexes and word collections of ``path`` that hold two or more Hangul alternatives."""
    src = path.read_text(encoding="utf-8")
    out = []
    for node in ast.parse(src).body:
        if not isinstance(node, (ast.Assign, ast.AnnAssign)) or node.value is None:
            continue
        value = node.value
        is_regex = isinstance(value, ast.Call) and ast.unparse(value.func) == "re.compile"
        is_words = isinstance(value, (ast.Set, ast.Tuple, ast.List)) or (
            isinstance(value, ast.Call) and ast.unparse(value.func) == "frozenset"
        )
        text = ast.get_source_segment(src, value) or ""
        if (is_regex or is_words) and len(re.findall(r"[가-힣]{2,}\s*[|\"]", text)) >= 2:
            out.append(f"{path.parent.name}/{path.name}:{node.lineno}")
    return out


def test_phrase_patterns_live_in_the_lexicon_only() -> None:
    """The text, answer and verify stages compile no Korean phrase list of their own: the lexicon is the one
    place, so a word added for one stage is seen by the others."""
    root = Path(lx.__file__).parent
    offenders = [
        o for sub in ("text", "answer", "verify") for p in sorted((root / sub).glob("*.py")) for o in _phrase_lists(p)
    ]
    assert not offenders, offenders


def test_a_unit_in_square_brackets_and_households_are_units() -> None:
    for text, unit in (("14 [mm] 아래", "mm"), ("초속 40[m]로", "m"), ("1,000세대 이상", "세대"), ("25mm", "mm")):
        start = next(i for i, ch in enumerate(text) if ch.isdigit())
        end = start
        while end < len(text) and (text[end].isdigit() or text[end] == ","):
            end += 1
        m = lx.UNIT_AFTER_NUMBER.match(text, end)
        assert m is not None
        assert m.group(1) == unit
    assert lx.unit_dimension("세대") == "count"


def test_a_scope_sentence_says_what_a_standard_applies_to_not_what_to_apply() -> None:
    assert lx.SCOPE_SENTENCE.search("(1) 이 기준은 철도 신호설비의 설계에 적용한다.")
    assert lx.SCOPE_SENTENCE.search("지하 구조물의 내진설계에 적용한다.")
    assert not lx.SCOPE_SENTENCE.search("(1) 품셈의 적용은 신호품셈을 우선 적용하며, 없는 항목은 전기품셈을 적용한다.")


def test_a_question_that_asks_when_a_rule_applies_asks_its_scope() -> None:
    for asked in ("전단면굴착은 어떤 조건에서 적용하나?", "이 공법은 어디에 적용하나요?", "언제 적용되나"):
        assert lx.ASKS_SCOPE.search(asked), asked
    assert not lx.ASKS_SCOPE.search("적용되는 하중의 크기는 얼마인가?")


def test_spoken_question_words_are_written_out() -> None:
    from kdsdesk.verify.need import read_need

    need = read_need("습윤 양생은 기온 10 ℃ 이상이면 며칠?")
    assert need.kind == "value"
    assert need.unit == "일"


@pytest.mark.parametrize(
    ("head", "dimension"),
    [
        ("분포각", "angle"),  # ends with the quantity it is: 각
        ("유효폭", "length"),
        ("면풍속", "speed"),
        ("냉각시간", "time"),
        ("간격", "length"),  # a quantity noun itself
        ("설비", ""),  # a thing whose last syllable is also a quantity's (비, 도)
        ("궤도", ""),
        ("조사항목", ""),
        ("단위중량", ""),  # a weight per volume, not a mass
    ],
)
def test_a_head_noun_has_the_dimension_of_the_quantity_it_ends_with(head: str, dimension: str) -> None:
    assert lx.head_dimension(head) == dimension


def test_the_dimension_asked_is_the_heads_not_a_quantity_before_it() -> None:
    from kdsdesk.verify.need import read_need

    assert read_need("강바닥판 차륜하중 분포각은?").dimension == "angle"  # not the force of 하중


def test_a_paragraph_of_run_together_glossary_entries_splits_into_entries() -> None:
    text = (
        "복곡률(Double Curvature) : 단부 모멘트에 의해 부재가 S형태로 변형되는 휨 상태 복부판 크립플링(Web "
        "Crippling) : 복부판에 발생하는 국부적인 파괴. 국부좌굴：압축판 요소의 좌굴"
    )
    terms = [lx.defined_term(e) for e in lx.glossary_entries(text)]
    assert "복곡률(Double Curvature)" in terms
    assert "복부판 크립플링(Web Crippling)" in terms  # the term, not the last word of the entry before it
    assert "국부좌굴" in terms
    assert all(e in text for e in lx.glossary_entries(text))  # verbatim, to be quoted
    # one entry, or a colon inside a sentence: nothing to split
    assert lx.glossary_entries("교통환기력(Traffic ventilation force): 차량의 피스톤 효과에 의한 환기력") == []
    assert lx.glossary_entries("채토관은 내경 : 50 mm 용량 : 100 ㎖의 것을 사용한다") == []
