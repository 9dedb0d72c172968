"""Two editions of one standard in the library: the newest answers unless the question names a year; a standard
with one edition and an unrelated year in the question change nothing."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from kdsdesk.index.indexer import add_files
from kdsdesk.index.library import Catalog
from kdsdesk.retrieve.editions import named_years
from kdsdesk.retrieve.hybrid import search_stages
from tests.data.synthetic_docs import fake_parse, write_spec


def edition(year: str, value: str) -> dict[str, object]:
    return {
        "code": "KDS 98 30 10",
        "title": "시험용 거푸집 설계기준",
        "year": year,
        "blocks": [
            ["1.1", "text", "(1) 이 기준은 거푸집 설계에 적용한다."],
            ["4.2", "text", f"(1) 역타설 시 최소 측압에 추가로 고려할 비율은 {value} %로 한다."],
        ],
    }


OTHER = {
    "code": "KDS 98 40 20",
    "title": "시험용 동바리 설계기준",
    "year": "2019",
    "blocks": [["3.1", "text", "(1) 동바리의 측압 검토는 별도로 한다."]],
}


@pytest.fixture(scope="module")
def two_editions(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    root = tmp_path_factory.mktemp("editions")
    files = [write_spec(root / "old.hwpx", edition("2016", "10")), write_spec(root / "new.pdf", edition("2021", "20")),
             write_spec(root / "other.hwpx", OTHER)]
    cat = Catalog(root / "lib")
    for _ in add_files(cat, files, parse=fake_parse):
        pass
    yield cat
    cat.close()


def _years(cat: Catalog, query: str) -> list[str]:
    return [h.chunk.doc.year for h in search_stages(cat, query, k=20, dense=False).hits
            if h.chunk.doc.doc_code == "KDS 98 30 10"]


def test_catalog_lists_editions(two_editions: Catalog) -> None:
    assert two_editions.editions() == {"KDS 98 30 10": ("2016", "2021"), "KDS 98 40 20": ("2019",)}


def test_newest_edition_first_without_a_year(two_editions: Catalog) -> None:
    years = _years(two_editions, "역타설 시 최소 측압에 추가로 고려할 비율은?")
    assert years[0] == "2021"
    assert "2016" in years  # moved back, not removed
    assert years.index("2016") > max(i for i, y in enumerate(years) if y == "2021")


@pytest.mark.parametrize("query", ["2016년 기준에서 역타설 측압 추가 비율은?", "KDS 98 30 10 : 2016 역타설 측압 비율",
                                   "2016년판 역타설 측압 비율은?"])
def test_a_named_year_picks_that_edition(two_editions: Catalog, query: str) -> None:
    assert _years(two_editions, query)[0] == "2016"


def test_a_year_that_is_no_edition_changes_nothing(two_editions: Catalog) -> None:
    assert _years(two_editions, "2019년 기준 역타설 측압 추가 비율은?")[0] == "2021"


def test_year_forms() -> None:
    assert named_years("2016년 기준 측압") == {"2016"}
    assert named_years("KDS 14 20 22:2022 4.2.1") == {"2022"}
    assert named_years("(2016) 개정 전 값") == {"2016"}
    assert named_years("2016년판과 2021년판 차이") == {"2016", "2021"}
    assert named_years("하중 2000 kN") == set()
    assert named_years("높이 2016 mm 이상") == set()
