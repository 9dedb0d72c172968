"""Syllables the OCR model cannot write (휨, 댐 …) restored from the document's own text layer."""

from __future__ import annotations

from kdsdesk.ingest import ocr
from kdsdesk.ingest.ocr_lexicon import Lexicon

CHARSET = frozenset("휠횡좌굴비틀림국부강재의댐체")  # a model without 휨 and 댐's neighbours


def test_a_syllable_the_model_lacks_is_restored_from_the_text_layer() -> None:
    lex = Lexicon(["휨좌굴 또는 휨비틀림좌굴", "부재의 휨좌굴강도, 휨비틀림좌굴", "댐 체"], CHARSET)
    assert lex.correct("휠좌굴") == "휨좌굴"
    assert lex.correct("국부좌굴휠좌굴") == "국부좌굴휨좌굴"  # context: the syllable and its neighbours
    assert lex.correct("횡비틀림좌굴") == "휨비틀림좌굴"


def test_no_change_without_evidence() -> None:
    lex = Lexicon(["휨좌굴 휨좌굴", "횡비틀림좌굴 횡비틀림좌굴 횡비틀림좌굴 휨비틀림좌굴"], CHARSET)
    assert lex.correct("횡비틀림좌굴") == "횡비틀림좌굴"  # the word as read is the more frequent one
    assert lex.correct("강재") == "강재"  # nothing near a missing syllable
    assert Lexicon(["휨좌굴"], CHARSET).correct("휠좌굴") == "휠좌굴"  # seen once: not enough
    assert Lexicon(["휨좌굴 휨좌굴"], frozenset()).correct("횡좌굴") == "횡좌굴"  # charset unknown: 휨 is two jamo off


def test_the_korean_model_lacks_hwim() -> None:
    model = ocr.find_model()
    assert model is not None
    charset = ocr.model_charset(model)
    assert "가" in charset
    assert "좌" in charset
    assert "휨" not in charset  # why ocr_lexicon exists


def test_a_vowel_misread_in_a_word_never_seen_is_corrected() -> None:
    lex = Lexicon(["설계값 설계값 설계기준 설계강도, 휨모멘트와 모멘트"], CHARSET)
    assert lex.correct("셜계값") == "설계값"
    assert lex.correct("호멘트와") == "모멘트와"
    assert lex.correct("셜몽") == "셜몽"  # neither form is in the text layer


def test_a_dropped_syllable_the_model_lacks_is_put_back_when_a_glyph_is_missing() -> None:
    """The row was drawn with one glyph more than the Hangul read: the syllable the model cannot write goes where
    the text layer has it most often; with as many glyphs as syllables, or any non-Hangul, nothing changes."""
    lex = Lexicon(["휨비틀림좌굴 휨비틀림좌굴 비틀림좌굴", "휨모멘트와 압축력 휨모멘트"], CHARSET)
    assert lex.restore(["비틀림좌굴"], 6) == ["휨비틀림좌굴"]
    assert lex.restore(["모멘트와", "압축력"], 8) == ["휨모멘트와", "압축력"]
    assert lex.restore(["비틀림좌굴"], 5) == ["비틀림좌굴"]  # every glyph read
    assert lex.restore(["비틀림좌굴1"], 7) == ["비틀림좌굴1"]  # not all Hangul: glyphs are not syllables
    assert Lexicon(["휨비틀림좌굴"], CHARSET).restore(["비틀림좌굴"], 6) == ["비틀림좌굴"]  # seen once: not enough


def test_a_two_syllable_word_the_text_layer_lacks_is_left_as_read() -> None:
    """"구분" read right from outlines in a part whose text layer never writes it: a one-jamo neighbour that the
    text layer holds ("구부" of "국부 … 구부러진") is not evidence that it was misread."""
    lex = Lexicon(["구부러진 부재", "구부러진 판"], CHARSET)
    assert lex.correct("구분") == "구분"


def test_a_particle_at_a_word_end_is_left_as_read() -> None:
    """The last syllable of a word is where a particle stands, chosen by the sentence: a text layer that writes
    "요소의" and "판요" but never "요소에" or "판이" is no evidence that 에 or 이 was misread (판요소에 → 판요소의,
    세장판이 → 세장판요 were); inside the word the one-jamo rule still reads (셜계값 → 설계값)."""
    texts = ["단면요소의 판요소의 강재요소의 세장판요소 세장판요소", "설계값 설계값"]
    lex = Lexicon(texts, frozenset("".join(texts) + "셜에이"))  # a model that writes every syllable here
    assert lex.correct("판요소에") == "판요소에"
    assert lex.correct("세장판이") == "세장판이"
    assert lex.correct("셜계값") == "설계값"


def test_a_syllable_the_model_lacks_needs_more_than_one_neighbour() -> None:
    """One neighbour alone does not bring in a syllable the model cannot write: 계획토피 stays, though 계휨 (of
    설계휨강도) is frequent; a context of three syllables does (휠모멘트 → 휨모멘트), and a two-syllable word is
    its own context (휠을 → 휨을)."""
    lex = Lexicon(["설계휨강도 설계휨강도 설계휨강도", "휨모멘트 휨모멘트", "휨을 받는 휨을 받는"], CHARSET)
    assert lex.correct("계획토피") == "계획토피"
    assert lex.correct("휠모멘트") == "휨모멘트"
    assert lex.correct("휠을") == "휨을"
