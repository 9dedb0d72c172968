"""The one lexicon of Korean regulatory language that every stage uses (ingest, text, answer, verify).

KDS sentences and engineers' questions share a small grammar: a quantity noun (강도, 간격, 계수 …) is bounded by a
comparison word written after its number (이상, 이하, 초과, 미만, 이내, 까지, 넘지 않도록), or named as an extreme
(최소, 최대, 하한, 상한); a case is stated before a case marker (… 경우, … 때, … 시, … 에서는, … 이면); list items
start with marks ((1), ①, 가.); requirements end in modal endings (하여야 한다, 할 수 있다, 로 한다); definitions
are written "용어: 설명", "… 을 말한다", "A를 B라고 한다". Word lists and patterns for all of these live here, once,
with their meaning as data (a unit's dimension, a bound word's direction), so a rule elsewhere names the class it
needs ("a bound word", "a case marker") instead of keeping its own phrase list.

Everything here is plain data and compiled patterns over NFKC text; nothing heavy is imported.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Literal

Dimension = Literal[
    "", "ratio", "speed", "stress", "force", "length", "area", "volume", "mass", "temperature", "angle", "time",
    "count", "flow", "frequency", "concentration", "resistance", "year", "moment", "illuminance",
]  # fmt: skip
Bound = Literal["", "ge", "gt", "le", "lt"]
Extreme = Literal["", "min", "max"]


def nfkc(text: str) -> str:
    return unicodedata.normalize("NFKC", text)


# -- units ---------------------------------------------------------------------------------------------------------
# unit as written (after NFKC) → dimension. Longest match first when compiled. Units spelled in Hangul that are
# also ordinary words (도, 분, 시, 개) are listed: the patterns below only read them right after a number.
UNIT_DIMENSION: dict[str, Dimension] = {
    "kN/m²": "stress", "kN/m2": "stress", "kN/m³": "force", "kN/m3": "force", "N/mm²": "stress", "N/mm2": "stress",
    "kgf/cm²": "stress", "kgf/cm2": "stress", "tf/m²": "stress", "tf/m2": "stress", "t/m²": "stress", "t/m2": "stress",
    "kN·m": "moment", "kNm": "moment", "kN-m": "moment", "N·mm": "moment", "tf·m": "moment",
    "kN/m": "force", "N/m": "force",
    "MPa": "stress", "GPa": "stress", "kPa": "stress", "Pa": "stress", "psi": "stress",
    "MN": "force", "kN": "force", "N": "force", "tf": "force", "kgf": "force",
    "m³/s": "flow", "m3/s": "flow", "m³/sec": "flow", "m3/sec": "flow", "㎥/s": "flow", "m³/분": "flow",
    "m3/분": "flow", "m³/min": "flow", "m3/min": "flow", "m³/h": "flow", "m3/h": "flow", "m³/일": "flow",
    "m3/일": "flow", "L/s": "flow", "ℓ/s": "flow", "L/min": "flow",
    "km/h": "speed", "km/hr": "speed", "m/s": "speed", "m/sec": "speed", "m/h": "speed", "m/hr": "speed",
    "cm/s": "speed", "mm/s": "speed", "m/min": "speed", "m/분": "speed", "mm/h": "speed", "mm/hr": "speed",
    "mm²": "area", "mm2": "area", "cm²": "area", "cm2": "area", "m²": "area", "m2": "area", "㎡": "area", "ha": "area",
    "km²": "area",
    "mm³": "volume", "mm3": "volume", "cm³": "volume", "m³": "volume", "m3": "volume", "㎥": "volume", "ℓ": "volume",
    "μm": "length", "µm": "length", "mm": "length", "cm": "length", "m": "length", "km": "length", "㎜": "length",
    "㎝": "length", "㎞": "length",
    "kg": "mass", "㎏": "mass", "ton": "mass", "톤": "mass",
    "미터": "length", "센티미터": "length", "밀리미터": "length", "킬로미터": "length",
    "°C": "temperature", "℃": "temperature",
    "°": "angle", "rad": "angle", "도": "angle",
    "%": "ratio", "‰": "ratio", "퍼센트": "ratio", "배": "ratio",
    "kg/m³": "concentration", "kg/m3": "concentration", "kg/㎥": "concentration", "g/L": "concentration",
    "ppm": "concentration", "mg/L": "concentration", "mg/l": "concentration",
    "Hz": "frequency", "rpm": "frequency", "dB": "", "lx": "illuminance", "lux": "illuminance",
    "Ω": "resistance", "kΩ": "resistance",
    "년": "year", "개월": "time", "일": "time", "시간": "time", "분": "time", "초": "time", "sec": "time",
    "hr": "time", "min": "time",
    "개": "count", "개소": "count", "본": "count", "회": "count", "층": "count", "가닥": "count", "갈래": "count",
    "점": "count", "명": "count", "대": "count", "인": "count", "차로": "count",
}  # fmt: skip
UNITS: tuple[str, ...] = tuple(sorted(UNIT_DIMENSION, key=len, reverse=True))
# Latin and sign units only (safe to read without a number in front, e.g. in a header "(mm)")
LATIN_UNITS: tuple[str, ...] = tuple(u for u in UNITS if not re.search(r"[가-힣]", u))
UNIT_ALT = "|".join(re.escape(u) for u in UNITS)
LATIN_UNIT_ALT = "|".join(re.escape(u) for u in LATIN_UNITS)
# a unit right after a number: Latin units must not run into more letters ("m" of "mm", "t" of "ton")
UNIT_AFTER_NUMBER = re.compile(rf"\s*({UNIT_ALT})(?![A-Za-z0-9²³/·])")
UNIT_IN_PARENS = re.compile(rf"\(\s*({LATIN_UNIT_ALT}|%)\s*\)")
_UNIT_PARENS_AFTER = re.compile(rf"\s*\(\s*({LATIN_UNIT_ALT}|%)\s*\)")


def unit_at(text: str, pos: int) -> re.Match[str] | None:
    """The unit written right after a value at ``pos``: "25 mm", or in parentheses as equations write it
    ("E_s = 200,000 (MPa)"); group 1 is the unit."""
    return UNIT_AFTER_NUMBER.match(text, pos) or _UNIT_PARENS_AFTER.match(text, pos)
# units spelled out in a question ("몇 퍼센트", "몇 도") → the written unit
SPELLED_UNITS: dict[str, str] = {
    "퍼센트": "%", "프로": "%", "밀리미터": "mm", "센티미터": "cm", "미터": "m", "킬로미터": "km", "톤": "ton",
    "킬로그램": "kg", "도": "°", "℃": "°C", "초": "sec",
}  # fmt: skip
CANONICAL_UNIT: dict[str, str] = {
    "kN/m2": "kN/m²", "kN/m3": "kN/m³", "mm2": "mm²", "N/mm2": "N/mm²", "m2": "m²", "m3": "m³", "㎥": "m³",
    "㎡": "m²", "㎜": "mm", "㎝": "cm", "㎞": "km", "㎏": "kg", "℃": "°C", "m/sec": "m/s", "km/hr": "km/h",
    "m3/s": "m³/s", "㎥/s": "m³/s", "m³/sec": "m³/s", "m3/sec": "m³/s", "µm": "μm", "cm2": "cm²",
    "kgf/cm2": "kgf/cm²", "lux": "lx", "톤": "ton", "퍼센트": "%", "도": "°", "mm3": "mm³",
}  # fmt: skip
# conversions to a base unit of the same dimension (value × factor), for comparing "20 mm" with "0.02 m"
UNIT_FACTOR: dict[str, float] = {
    "μm": 1e-3, "mm": 1.0, "cm": 10.0, "m": 1000.0, "km": 1e6,
    "Pa": 1e-6, "kPa": 1e-3, "MPa": 1.0, "N/mm²": 1.0, "GPa": 1e3,
    "N": 1e-3, "kN": 1.0, "MN": 1e3,
    "kg": 1.0, "ton": 1e3,
    "mm²": 1.0, "cm²": 100.0, "m²": 1e6,
    "sec": 1.0, "분": 60.0, "min": 60.0, "시간": 3600.0, "hr": 3600.0, "일": 86400.0,
}  # fmt: skip


def canonical_unit(unit: str) -> str:
    u = nfkc(unit).strip()
    return CANONICAL_UNIT.get(u, u)


def unit_dimension(unit: str) -> Dimension:
    u = nfkc(unit).strip()
    if not u:
        return ""
    if u in UNIT_DIMENSION:
        return UNIT_DIMENSION[u]
    c = canonical_unit(u)
    if c in UNIT_DIMENSION:
        return UNIT_DIMENSION[c]
    if re.search(r"/(h|s|sec|min|hr|초|분|시간)$", u):
        return "speed" if re.match(r"^(k?m|cm|mm)/", u) else "flow"
    return ""


def same_unit(a: str, b: str) -> bool:
    """Two written units name the same unit ("mm2" = "mm²", "㎥/s" = "m³/s")."""
    return canonical_unit(a).lower() == canonical_unit(b).lower()


# -- quantities a question asks for (the head noun comes last in a Korean noun phrase) -----------------------------
QUANTITY_DIMENSION: dict[str, Dimension] = {
    "비율": "ratio", "백분율": "ratio", "할증률": "ratio", "비": "ratio", "배율": "ratio", "배수": "ratio",
    "속도": "speed", "유속": "speed", "풍속": "speed", "설계속도": "speed", "속력": "speed",
    "강도": "stress", "응력": "stress", "압축강도": "stress", "인장강도": "stress", "항복강도": "stress",
    "탄성계수": "stress", "지지력": "", "압력": "force", "측압": "force", "토압": "force", "수압": "force",
    "하중": "force", "장력": "force", "축력": "force", "전단력": "force", "모멘트": "moment",
    "두께": "length", "간격": "length", "순간격": "length", "길이": "length", "거리": "length", "폭": "length",
    "너비": "length", "지름": "length", "직경": "length", "외경": "length", "내경": "length", "바깥지름": "length",
    "반지름": "length", "반경": "length", "깊이": "length", "높이": "length", "피복": "length", "피복두께": "length",
    "치수": "length", "사이즈": "length", "처짐": "length", "변위": "length", "여유고": "length", "경간": "length",
    "지간": "length", "연장": "length", "표고": "length", "심도": "length", "근입깊이": "length", "여굴": "length",
    "면적": "area", "단면적": "area", "철근량": "area",
    "체적": "volume", "용량": "volume", "용적": "volume",
    "중량": "mass", "질량": "mass", "무게": "mass", "자중": "",
    "온도": "temperature", "수온": "temperature", "기온": "temperature",
    "각도": "angle", "경사각": "angle", "각": "angle",
    "기간": "time", "시간": "time", "주기": "time", "재현주기": "time", "수명": "time",
    "유량": "flow", "환기량": "flow", "수량": "flow",
    "농도": "concentration",
    "저항": "resistance",
    "횟수": "count", "개수": "count", "본수": "count",
}  # fmt: skip
# words that name a pure number: a factor, ratio or coefficient has no unit of its own
FACTOR_WORDS = ("계수", "상수", "지수", "승수", "계수값", "비", "배", "배율", "비율", "율", "률", "값")
QUANTITY_NOUNS = tuple(sorted(QUANTITY_DIMENSION, key=len, reverse=True))
QUANTITY_ALT = "|".join(re.escape(w) for w in QUANTITY_NOUNS)

# generic words of quantity or rule: they say a value is asked, not which quantity
GENERIC_WORDS = frozenset({
    "한계", "한계값", "한곗값", "기준", "기준값", "크기", "범위", "제한", "제한값", "조건", "규정", "방법", "종류",
    "표준", "표준값", "최솟값", "최댓값", "최소", "최대", "상한", "하한", "상한값", "하한값", "한도", "요구사항",
    "내용", "사항", "것", "이것", "수치", "값", "최대값", "최소값", "허용값", "허용치", "한계치", "최대치", "최소치",
    "설계값", "권장값", "적정값", "얼마", "정도", "수준", "설정값", "기본값", "기본",
})  # fmt: skip

# -- bounds and extremes -----------------------------------------------------------------------------------------
# a bound written after a value (its unit read): "이하", "를 초과하지 않도록", "까지" …; longest / negated first
BOUND_WORDS: tuple[tuple[str, Bound], ...] = (
    ("초과하지 않", "le"), ("넘지 않", "le"), ("넘어서는 안", "le"), ("이상", "ge"), ("이하", "le"), ("초과", "gt"),
    ("미만", "lt"), ("이내", "le"), ("까지", "le"), ("넘는", "gt"), ("넘을", "gt"), ("넘으면", "gt"),
    ("보다 크", "gt"), ("보다 작", "lt"), ("을 넘", "gt"), ("를 넘", "gt"),
)  # fmt: skip
_BOUND_ALT = "|".join(re.escape(w).replace(r"\ ", r"\s*") for w, _ in BOUND_WORDS)
BOUND_AFTER = re.compile(rf"\s*(?:[을를이가은는]|보다)?\s*({_BOUND_ALT})")
SIGN_BOUND: dict[str, Bound] = {"≤": "le", "<": "lt", "≥": "ge", ">": "gt", "⩽": "le", "⩾": "ge"}


def bound_of_word(word: str) -> Bound:
    w = re.sub(r"\s+", " ", nfkc(word).strip())
    for written, b in BOUND_WORDS:
        if re.sub(r"\s+", " ", written) == w or w.startswith(written):
            return b
    return ""


_NEGATED_LIMIT = re.compile(r"[가-힣]{0,4}\s*(?:수는?\s*없|서는\s*안|지\s*않|지\s*못|면\s*안)")
_FLIP: dict[Bound, Bound] = {"gt": "le", "ge": "lt", "lt": "ge", "le": "gt"}
_COMPARE_AFTER = re.compile(r"\s*(?:[을를이가]\s*)?보다\s*(크|작|많|적|길|짧|높|낮)")


def bound_after(text: str, pos: int) -> Bound:
    """The bound written right after ``pos`` (after a value and its unit), "" when none. A limit written as a
    negation reads as the bound it sets: "400 mm를 넘을 수는 없다" → le, "300 mm보다 작을 수 없다" → ge."""
    m = BOUND_AFTER.match(text, pos)
    if m:
        b = bound_of_word(m.group(1))
        end = m.end()
    else:
        c = _COMPARE_AFTER.match(text, pos)
        if c is None:
            return ""
        b = "gt" if c.group(1) in ("크", "많", "길", "높") else "lt"
        end = c.end()
    if b in ("gt", "lt") and _NEGATED_LIMIT.match(text, end):
        return _FLIP[b]
    return b


def is_upper(b: Bound) -> bool:
    return b in ("le", "lt")


def is_lower(b: Bound) -> bool:
    return b in ("ge", "gt")


EXTREME_WORDS: tuple[tuple[str, Extreme], ...] = (
    ("최솟값", "min"), ("최소값", "min"), ("최소치", "min"), ("하한값", "min"), ("하한", "min"), ("최소", "min"),
    ("최저", "min"), ("적어도", "min"),
    ("최댓값", "max"), ("최대값", "max"), ("최대치", "max"), ("상한값", "max"), ("상한", "max"), ("최대", "max"),
    ("최고", "max"), ("한도", "max"), ("허용", "max"), ("제한", "max"),
)  # fmt: skip

# -- particles, endings, question words ----------------------------------------------------------------------------
PARTICLES = ("으로", "에서", "에는", "에도", "이란", "란", "은", "는", "이", "가", "을", "를", "의", "에", "로", "와",
             "과", "도", "만", "이나", "나", "께", "부터", "까지", "보다")  # fmt: skip
SUBJECT_PARTICLES = ("은", "는", "이", "가")
OBJECT_PARTICLES = ("을", "를")
TOPIC_PARTICLES = ("은", "는", "이란", "란", "이라는", "라는")
PARTICLE_END = re.compile(r"(으로|에서|에는|이란|란|은|는|이|가|을|를|의|에|로|와|과|도|만|이나|나)$")
QUESTION_WORDS = frozenset({
    "얼마", "몇", "무엇", "어떤", "어떻게", "어느", "언제", "뭐", "무슨", "얼마나", "얼마로", "얼마를", "무엇을",
    "무엇이", "어떤가요", "뭔가요",
})  # fmt: skip
QUESTION_END = re.compile(r"(인가요|인가|인지|일까요|나요|까요|습니까|니까|는지|ㄴ가요|가요|죠|요)$")

# -- list items ----------------------------------------------------------------------------------------------------
ITEM_MARK = re.compile(
    r"^\s*(?P<m>\(\d{1,2}\)|\([가-하]\)|[①-⑳]|[㉠-㉭]|[㉮-㉻]|[가-하]\.(?=\s)|[가-하]\)(?=\s)|\d{1,2}\)(?=\s)"
    r"|[a-z]\)(?=\s)|[∙·•\-])"
)
SUB_ITEM_MARK = re.compile(r"^\s*([①-⑳]|[가-하]\.|\d+\)|[a-z]\))")  # an item under a numbered paragraph


def strip_item(text: str) -> str:
    """The text without the list mark it starts with."""
    return ITEM_MARK.sub("", text, count=1).strip()


# -- cases and conditions ----------------------------------------------------------------------------------------
# a case is written before one of these markers: "곡선의 경우에는", "시공 중에는", "역타설 시", "h/l이 0.2일 때"
CASE_MARKER = re.compile(
    r"(?:인|일|한|하는|되는|는|은|의)?\s*(?:경우|때)(?:에는|에도|에|는|의)?|"
    r"(?<=[가-힣])\s*시(?=[\s,]|$|에는)|(?<=[가-힣])(?:에서는|에는|에\s*대(?:해|하여)서?는)(?=[\s,])|\s중에는(?=[\s,])|"
    r"(?<=[가-힣])(?:이|으|하|되|있으|없으|않으|넘으|크|작|많으|적으|라)면(?=[\s,])"
)
# words inside a case phrase that carry no case of their own
CASE_STOP = frozenset({
    "다음", "이", "그", "이러한", "해당", "각", "모든", "일반", "일반적", "기타", "위", "아래", "상기", "동", "같은",
    "경우", "때", "시",
})  # fmt: skip
# a case opens a sentence or clause: "… 경우에는 …", "… 때에는"
CASE_OPEN = re.compile(r"(경우|때|시)(에는|에도|에|는)?\s*,?\s")
EXCEPTION_OPEN = re.compile(r"^\s*(?:\(\d+\)\s*)?(다만|단)\s*,")
CONTINUATION_OPEN = re.compile(r"^\s*(이때|이 때|이 경우|이 경우에)\s*,?")
NEGATION = re.compile(r"지\s*(않|아니)|없는|없이|아닌|제외|미사용|아니하")
# nouns whose negation is written as a prefix: "비부착" = "부착되지 않는", "비보강" = "보강되지 않은"
NEGATED_PREFIX = re.compile(
    r"(?<![가-힣])(비|미|무)(부착|보강|탄성|균열|구속|합성|지지|대칭|선형|내진|건조|처리|사용|설치|도장)"
)


def negated_words(text: str) -> set[str]:
    """The content words a text negates: "부착되지 않는 긴장재" → {부착}, "비부착 긴장재" → {부착}."""
    t = nfkc(text)
    out = {m.group(2) for m in NEGATED_PREFIX.finditer(t)}
    for m in re.finditer(r"([가-힣]{2,}?)(?:하|되|이)?(?:지\s*(?:않|아니)|가\s*아닌|이\s*아닌|\s*없는)", t):
        out.add(m.group(1))
    return out


def negation_disagrees(a: str, b: str) -> bool:
    """Two texts speak of one word, one negating it and the other not ("비부착" against "부착된")."""
    na, nb = negated_words(a), negated_words(b)
    for w in na ^ nb:
        other = b if w in na else a
        if w in nfkc(other):
            return True
    return False

# -- ordinals ------------------------------------------------------------------------------------------------------
ORDINALS: dict[str, int] = {
    "첫째": 1, "첫 번째": 1, "첫번째": 1, "첫": 1, "1번째": 1, "제1": 1,
    "둘째": 2, "두 번째": 2, "두번째": 2, "2번째": 2, "제2": 2,
    "셋째": 3, "세 번째": 3, "세번째": 3, "3번째": 3, "제3": 3,
    "넷째": 4, "네 번째": 4, "네번째": 4, "4번째": 4, "제4": 4,
    "다섯째": 5, "다섯 번째": 5, "5번째": 5,
    "마지막": -1,
}  # fmt: skip
ORDINAL = re.compile("|".join(re.escape(k).replace(r"\ ", r"\s*") for k in sorted(ORDINALS, key=len, reverse=True)))


def ordinal_in(text: str) -> int:
    """The ordinal position a text names (1 for "첫 번째", -1 for "마지막"), 0 when none."""
    m = ORDINAL.search(nfkc(text))
    if not m:
        return 0
    key = re.sub(r"\s+", " ", m.group(0))
    return ORDINALS.get(key, ORDINALS.get(key.replace(" ", ""), 0))


# -- sentence kinds ----------------------------------------------------------------------------------------------
REQUIREMENT_END = re.compile(
    r"(하여야\s*한다|해야\s*한다|이어야\s*한다|여야\s*한다|로\s*한다|으로\s*한다|원칙으로\s*한다|할\s*수\s*있다|"
    r"할\s*수\s*없다|아니한다|않는다|적용한다|따른다|산정한다|설계한다|사용한다|배치한다|구성한다|금한다|"
    r"바람직하다|표준으로\s*한다|검토한다|고려한다|확인한다|한다)"
)
# connective requirement endings before ", ": each clause is a requirement of its own (made final)
REQUIREMENT_CONNECTIVES: tuple[tuple[str, str], ...] = (
    ("하여야 하며", "하여야 한다"), ("여야 하며", "여야 한다"), ("해야 하며", "해야 한다"), ("수 있으며", "수 있다"),
    ("수 없으며", "수 없다"), ("아니하며", "아니한다"), ("지 않으며", "지 않는다"), ("으로 하며", "으로 한다"),
    ("로 하며", "로 한다"),
)  # fmt: skip
DEFINITION_LINE = re.compile(r"^\s*(?:[∙·•\-]\s*)?([^:：]{1,40}?)\s*[:：]\s*(.+)$")
DEFINITION_AFTER = re.compile(r"^(.{6,}?)\s*[을를]\s+(\S{2,20}?)(?:이)?라(?:고)?\s*(?:한다|부른다|칭한다)\s*\.?$")
DEFINITION_SENTENCE = re.compile(
    r"(을|를)\s*말한다|(이)?라\s*한다|(이)?라고\s*한다|(을|를)\s*의미한다|(을|를)\s*뜻한다"
)
_TOPIC_DEFINITION = re.compile(
    r"^(.{1,40}?)(?:이란|란|은|는|이라\s*함은|라\s*함은)\s.*(말한다|뜻한다|의미한다|지칭한다|일컫는다|이다|말하며|말하고|"
    r"로서|으로서|을\s*말함|를\s*말함)\.?$"
)


def defined_term(sentence: str) -> str:
    """The term a definition sentence defines, read from its own words: "용어: 설명", "… 을 X라고 한다",
    "X(이)란 … 을 말한다", "X는 … 이다"; "" when the sentence is not a definition."""
    s = strip_item(" ".join(sentence.split()))
    m = DEFINITION_LINE.match(s)
    if m and not re.search(r"\d\s*$", m.group(1)) and len(m.group(2)) > 3:
        return m.group(1).strip()
    m = DEFINITION_AFTER.match(s)
    if m:
        return m.group(2).strip()
    m = _TOPIC_DEFINITION.match(s)
    return m.group(1).strip() if m else ""


# a sentence that only points elsewhere ("표 4.2-1에 따른다", "KDS 14 20 10을 따른다")
POINTER = re.compile(
    r"((표|식|그림)\s*\(?\s*[A-Z]?\d+(\.\d+)*(-\d+)?\s*\)?|KDS\s*\d{2}\s*\d{2}\s*\d{2}|KCS\s*\d{2}\s*\d{2}\s*\d{2}|"
    r"\d+(\.\d+)+)\s*(의\s*(값|규정|내용)\s*)?(에\s*따르|을\s*따르|를\s*따르|을\s*참조|를\s*참조|에\s*의하|에\s*준하|"
    r"에\s*제시|에서\s*정하|에\s*규정|과\s*같)"
)
INTRO_TO_FORMULA = re.compile(r"(다음\s*(식|과\s*같이|의\s*식)|아래\s*식|식\s*\(\s*[A-Z]?[\d.]+\s*-\s*\d+\s*\))")

# words a question uses to say what kind of answer it wants, not what it is about ("어떤 방식으로", "요구사항은")
REQUEST_WORDS = frozenset({
    "방식", "방법", "원칙", "원칙적", "요구사항", "요구조건", "조건", "조치", "형식", "절차", "사항", "처리", "기준",
    "규정", "내용", "방향", "정도", "요건", "대책", "경우", "때", "무엇", "어떻게", "어떤", "얼마나", "종류",
})  # fmt: skip

# questions of what is allowed, and the sentences that allow or forbid it
PERMISSION_ASKED = re.compile(
    r"(써도|사용해도|설계해도|해도|적용해도|생략해도|둬도|놓아도|허용되|가능한가|가능하나|할\s*수\s*있나|될\s*수\s*있나|"
    r"되나요|돼나요|괜찮나요|무방한가)"
)
PERMISSION_STATED = re.compile(
    r"(할\s*수\s*없|수\s*없다|할\s*수\s*있|수\s*있다|금한다|금지|아니\s*된다|안\s*된다|지\s*않아야|해서는|하여서는|"
    r"지\s*않는다|지\s*않도록|아니한다|허용|불가|무방|생략할\s*수|인정하지|원칙으로\s*한다)"
)

# -- synonyms an engineer uses for the same word (folded before comparing) -----------------------------------------
SYNONYMS: tuple[tuple[str, str], ...] = (
    ("바깥지름", "외경"), ("바깥 지름", "외경"), ("안지름", "내경"), ("안 지름", "내경"), ("직경", "지름"),
    ("최솟값", "최소"), ("최소값", "최소"), ("최소치", "최소"), ("하한값", "최소"), ("하한", "최소"),
    ("최댓값", "최대"), ("최대값", "최대"), ("최대치", "최대"), ("상한값", "최대"), ("상한", "최대"),
    ("허용값", "허용"), ("허용치", "허용"), ("한곗값", "한계"), ("한계값", "한계"), ("너비", "폭"),
    ("반경", "반지름"), ("스팬", "경간"), ("별도의", "따로"), ("별도", "따로"), ("자중", "무게"),
)  # fmt: skip
