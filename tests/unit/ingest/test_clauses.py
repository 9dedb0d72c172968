"""Clause headings, numbering order, item markers and document code/title/year."""

from __future__ import annotations

import pytest

from kdsdesk.ingest.clauses import ClauseTracker, detect_doc_meta, parse_heading, split_item


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("4.2.3 전단철근", ("4.2.3", "전단철근")),
        ("1 일반사항", ("1", "일반사항")),
        ("1. 일반사항", ("1", "일반사항")),
        ("4.1.\t인장부재", ("4.1", "인장부재")),
        ("A.2.2 전단 지연", ("A.2.2", "전단 지연")),
        ("4.3.2.1.1.6 강축 휨을 받는 부재", ("4.3.2.1.1.6", "강축 휨을 받는 부재")),
        ("4.1 2방향 슬래브", ("4.1", "2방향 슬래브")),
        ("3.1 강구조 연결 설계기준(하중저항계수설계법)", ("3.1", "강구조 연결 설계기준(하중저항계수설계법)")),
        ("부록 A 강재의 성질", ("A", "강재의 성질")),
    ],
)
def test_headings_are_recognised(line: str, expected: tuple[str, str]) -> None:
    assert parse_heading(line) == expected


@pytest.mark.parametrize(
    "line",
    [
        "0.75",
        "12.7 kN/m",
        "1.5 배 이상",
        "10 mm",
        "2 이상",
        "(1) 이 기준은 보에 적용한다.",
        "① 전단철근",
        "가. 일반",
        "1) 하나",
        "4.2 V_u ≤ φV_n",
        "1 over 2",
        "4.1.2 강도감소계수는 표 4.1-1에 따른다.",
        "3 이상인 경우 적용한다.",
        "1.1 목적 ········ 3",
        "1.1 목적 1",
        "2022",
        "40 설계",
        "4.05 두께",
        "",
        "4.2.3 " + "가" * 120,
    ],
)
def test_non_headings_are_refused(line: str) -> None:
    assert parse_heading(line) is None


def test_tracker_builds_clause_paths() -> None:
    tr = ClauseTracker()
    assert tr.clause == ""
    assert tr.clause_path == ()
    for line in ["1 일반사항", "1.1 목적", "4 설계", "4.2 전단", "4.2.3 전단철근"]:
        assert tr.offer(line) is not None, line
    assert tr.clause == "4.2.3"
    assert tr.clause_path == ("4 설계", "4.2 전단", "4.2.3 전단철근")
    assert tr.level == 3
    assert tr.offer("4.3 깊은 보") == ("4.3", "깊은 보")
    assert tr.clause_path == ("4 설계", "4.3 깊은 보")


@pytest.mark.parametrize(
    "bad",
    ["1.3 목적 다시", "4.3.2 손자 건너뜀", "9.1 엉뚱한 번호", "4 설계", "4.2.7 너무 먼 번호", "4.1 앞 번호"],
)
def test_tracker_refuses_implausible_order(bad: str) -> None:
    tr = ClauseTracker()
    for line in ["1 일반사항", "4 설계", "4.2 전단", "4.2.3 전단철근"]:
        tr.offer(line)
    assert tr.offer(bad) is None
    assert tr.clause == "4.2.3"


def test_tracker_accepts_siblings_ancestors_and_appendix() -> None:
    tr = ClauseTracker()
    seq = ["4.2.5 중간부터 시작", "4.2.6 다음", "4.3 다음 절", "4.3.1 하위", "4.3.1.1 더 하위", "5 다음 장",
           "A.1 부록 절", "A.2 부록 다음", "A.2.1 부록 하위"]
    for line in seq:
        assert tr.offer(line) is not None, line
    assert tr.clause_path == ("A.2 부록 다음", "A.2.1 부록 하위")


def test_tracker_restarts_after_table_of_contents() -> None:
    tr = ClauseTracker()
    for line in ["1 일반사항", "1.1 목적", "2 조사 및 계획", "4 설계", "4.1 일반"]:
        tr.offer(line)
    assert tr.offer("1 일반사항") is not None
    assert tr.clause_path == ("1 일반사항",)


@pytest.mark.parametrize(
    ("text", "marker"),
    [("(2) 깊은 보", "(2)"), ("① 가", "①"), ("가. 일반", "가."), ("1) 하나", "1)"), ("(가) 항", "(가)"),
     ("1.5 배", ""), ("이 기준은", ""), ("가나다", "")],
)
def test_split_item(text: str, marker: str) -> None:
    assert split_item(text) == marker


def test_doc_meta_from_content() -> None:
    title = "콘크리트구조 전단 및 비틀림 설계기준"
    lines = ["KDS 14 20 22 : 2022", title, "1 일반사항"]
    assert detect_doc_meta(lines, "x.hwpx") == ("KDS 14 20 22", title, "2022")
    assert detect_doc_meta(["KDS 14 31 25:2022", "2022년 1월 개정", "강구조 연결 설계기준"], "x.pdf") == (
        "KDS 14 31 25", "강구조 연결 설계기준", "2022")
    flat = (
        "KDS 14 00 00 설계기준 구조 설계기준 KDS 14 20 22 : 2022 "
        "콘크리트구조 전단 설계기준 . 2022년 1월 11일 개정"
    )
    assert detect_doc_meta([flat], "x.pdf") == ("KDS 14 20 22", "콘크리트구조 전단 설계기준", "2022")


def test_doc_meta_prefers_own_code_over_references() -> None:
    lines = ["머리말", "이 기준은 KDS 14 20 01 에 따른다", "KDS 21 50 00 : 2022", "거푸집 및 동바리 설계기준"]
    assert detect_doc_meta(lines, "a.hwpx") == ("KDS 21 50 00", "거푸집 및 동바리 설계기준", "2022")


@pytest.mark.parametrize(
    ("name", "code"),
    [("KDS143110.pdf", "KDS 14 31 10"), ("dev-kds-14-20-22.hwpx", "KDS 14 20 22"),
     ("KDS_14_20_22_part1.json", "KDS 14 20 22"), ("report.hwpx", "")],
)
def test_doc_meta_from_file_name(name: str, code: str) -> None:
    assert detect_doc_meta(["본문"], name)[0] == code


def test_an_appendix_numbered_from_one_again_is_acceptable() -> None:
    """"부록. …" then "1. 일반사항" again: not a successor of 4.2, but the first heading again — the PDF parser asks
    ``acceptable`` (as ``accept`` does for HWPX) so the appendix keeps its own clauses."""
    t = ClauseTracker()
    body = [("1", "일반사항"), ("1.1", "목적"), ("2", "재료"), ("4", "설계"), ("4.1", "평가"), ("4.2", "재하시험")]
    for number, title in body:
        assert t.accept(number, title)
    assert not t.plausible("1")
    assert t.acceptable("1", "일반사항")
    assert not t.acceptable("1", "총칙")
    assert t.accept("1", "일반사항")
    assert t.clause == "1"
    assert t.acceptable("1.1", "목적")
