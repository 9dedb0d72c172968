"""The one tokenizer of documents and queries: content morphemes, numbers and symbols whole."""

from __future__ import annotations

from kdsdesk.text.korean import analyze, analyze_many, tokenize, tokenize_many


def test_particles_endings_and_punctuation_are_dropped() -> None:
    toks = tokenize("콘크리트의 강도는 설계에 사용한다.")
    assert "콘크리트" in toks
    assert "강도" in toks
    for dropped in ("의", "는", "에", "다", "."):
        assert dropped not in toks


def test_numbers_clause_and_table_numbers_stay_whole() -> None:
    toks = tokenize("4.2.4에 따라 12.7 mm 이상, 표 4.2-1의 1,000 kN")
    assert "4.2.4" in toks
    assert "12.7" in toks
    assert "4.2-1" in toks
    assert "1000" in toks


def test_symbols_survive_kiwi_inside_sentences() -> None:
    toks = tokenize("√f_ck의 값은 A_{v,min}보다 크고 φs를 곱한다")
    assert "fck" in toks
    assert "avmin" in toks
    assert "φs" in toks
    assert "phis" in toks
    assert "f" not in toks
    assert "ck" not in toks


def test_query_and_document_forms_meet() -> None:
    doc = set(tokenize("여기서, A_{v,min} : 최소 전단철근 단면적"))
    for query in ("A_v,min", "avmin", "Avmin"):
        assert set(tokenize(query)) <= doc | {"avmin"}
        assert "avmin" in tokenize(query)


def test_foreign_words_lowercased() -> None:
    assert "mpa" in tokenize("8.4 MPa를 초과")


def test_batch_equals_single() -> None:
    texts = ["전단철근의 최대 간격", "", "f_{yt} : 횡방향 철근의 설계기준항복강도(MPa)", "4.1.2 강도감소계수"]
    assert tokenize_many(texts) == [tokenize(t) for t in texts]
    assert [a.grams for a in analyze_many(texts)] == [analyze(t).grams for t in texts]


def test_bigrams_join_compound_pieces() -> None:
    grams = analyze("최소 전단철근량").grams
    assert {"전단", "단철", "철근"} <= set(grams)


def test_a_short_word_with_its_genitive_is_the_noun_itself() -> None:
    from kdsdesk.text.match import words_covered

    assert words_covered("노즈 끝의 반지름", "노즈 끝에서의 최소 반지름") == 1.0
    assert words_covered("노즈 끝의 반지름", "노즈 중앙의 최소 반지름") < 1.0

