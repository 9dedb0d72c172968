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
Relation = Literal["coef", "div", "term"]  # how a formula question relates its number to the formula


def nfkc(text: str) -> str:
    # "㎧" → "m∕s": the division slash NFKC leaves is the unit's slash (one character for one: offsets hold)
    return unicodedata.normalize("NFKC", text).replace("\u2215", "/")


# -- units ---------------------------------------------------------------------------------------------------------
# unit as written (after NFKC) → dimension. Longest match first when compiled. Units spelled in Hangul that are
# also ordinary words (도, 분, 시, 개) are listed: the patterns below only read them right after a number.
UNIT_DIMENSION: dict[str, Dimension] = {
    "kN/m²": "stress", "kN/m2": "stress", "kN/m³": "force", "kN/m3": "force", "N/mm²": "stress", "N/mm2": "stress",
    "kgf/cm²": "stress", "kgf/cm2": "stress", "kgf/㎠": "stress", "N/cm²": "stress", "N/cm2": "stress",
    "N/㎠": "stress", "kN/cm²": "stress", "kN/cm2": "stress", "tf/m²": "stress", "tf/m2": "stress",
    "t/m²": "stress", "t/m2": "stress",
    "kN·m": "moment", "kNm": "moment", "kN-m": "moment", "N·mm": "moment", "tf·m": "moment",
    "kN/m": "force", "N/m": "force",
    "MPa": "stress", "GPa": "stress", "kPa": "stress", "Pa": "stress", "psi": "stress",
    "MN": "force", "kN": "force", "N": "force", "tf": "force", "kgf": "force",
    "m³/s": "flow", "m3/s": "flow", "m³/sec": "flow", "m3/sec": "flow", "㎥/s": "flow", "m³/분": "flow",
    "m3/분": "flow", "m³/min": "flow", "m3/min": "flow", "m³/h": "flow", "m3/h": "flow", "m³/일": "flow",
    "m3/일": "flow", "L/s": "flow", "ℓ/s": "flow", "L/min": "flow",
    "km/h": "speed", "km/hr": "speed", "m/s": "speed", "㎧": "speed", "m/sec": "speed", "m/h": "speed", "m/hr": "speed",
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
    "점": "count", "명": "count", "대": "count", "인": "count", "차로": "count", "세대": "count", "가구": "count",
    "자리": "count", "가지": "count", "군데": "count", "곳": "count",
}  # fmt: skip
UNITS: tuple[str, ...] = tuple(sorted(UNIT_DIMENSION, key=len, reverse=True))
# Latin and sign units only (safe to read without a number in front, e.g. in a header "(mm)")
LATIN_UNITS: tuple[str, ...] = tuple(u for u in UNITS if not re.search(r"[가-힣]", u))
UNIT_ALT = "|".join(re.escape(u) for u in UNITS)
LATIN_UNIT_ALT = "|".join(re.escape(u) for u in LATIN_UNITS)
# a unit right after a number: Latin units must not run into more letters ("m" of "mm", "t" of "ton")
UNIT_AFTER_NUMBER = re.compile(rf"\s*(?:\[\s*)?({UNIT_ALT})(?![A-Za-z0-9²³/·])(?:\s*\])?")  # also "14 [mm]"
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
    "㎡": "m²", "㎧": "m/s", "㎜": "mm", "㎝": "cm", "㎞": "km", "㎏": "kg", "℃": "°C", "m/sec": "m/s", "km/hr": "km/h",
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
    """Two written units name the same unit ("mm2" = "mm²", "㎥/s" = "m³/s", "N/mm²" = "MPa")."""
    ca, cb = canonical_unit(a), canonical_unit(b)
    if ca.lower() == cb.lower():
        return True
    fa, fb = UNIT_FACTOR.get(ca), UNIT_FACTOR.get(cb)
    return fa is not None and fa == fb and unit_dimension(ca) == unit_dimension(cb) != ""


# -- quantities a question asks for (the head noun comes last in a Korean noun phrase) -----------------------------
QUANTITY_DIMENSION: dict[str, Dimension] = {
    "비율": "ratio", "백분율": "ratio", "할증률": "ratio", "비": "ratio", "배율": "ratio", "배수": "ratio",
    "속도": "speed", "유속": "speed", "풍속": "speed", "설계속도": "speed", "속력": "speed",
    "강도": "stress", "응력": "stress", "압축강도": "stress", "인장강도": "stress", "항복강도": "stress",
    "탄성계수": "stress", "지지력": "", "압력": "force", "측압": "force", "토압": "force", "수압": "force",
    "하중": "force", "장력": "force", "성능": "", "축력": "force", "전단력": "force", "모멘트": "moment",
    "두께": "length", "간격": "length", "순간격": "length", "길이": "length", "거리": "length", "폭": "length",
    "너비": "length", "지름": "length", "직경": "length", "외경": "length", "내경": "length", "바깥지름": "length",
    "반지름": "length", "반경": "length", "깊이": "length", "높이": "length", "피복": "length", "피복두께": "length",
    "치수": "length", "사이즈": "length", "처짐": "length", "변위": "length", "여유고": "length", "경간": "length",
    "지간": "length", "연장": "length", "표고": "length", "심도": "length", "근입깊이": "length", "여굴": "length",
    "파고": "length", "수심": "length",
    "면적": "area", "단면적": "area", "철근량": "area",
    "체적": "volume", "용량": "volume", "용적": "volume",
    "중량": "mass", "질량": "mass", "무게": "mass", "자중": "",
    "온도": "temperature", "수온": "temperature", "기온": "temperature",
    "각도": "angle", "경사각": "angle", "각": "angle",
    "기간": "time", "시간": "time", "주기": "time", "재현주기": "time", "수명": "time",
    "유량": "flow", "환기량": "flow", "수량": "flow",
    "농도": "concentration",
    "경사": "ratio", "종단경사": "ratio", "횡단경사": "ratio", "편경사": "ratio", "기울기": "ratio", "구배": "ratio",
    "동수경사": "ratio",
    "저항": "resistance",
    "횟수": "count", "개수": "count", "본수": "count",
}  # fmt: skip
# endings that make a compound the quantity they measure ("분포각", "유효폭", "면풍속", "냉각시간"); not loads,
# masses or strengths, whose compounds often measure something else ("단위중량" is a weight per volume)
_SUFFIX_QUANTITIES = tuple(
    w for w, d in QUANTITY_DIMENSION.items()
    if (len(w) >= 2 or w in ("각", "폭")) and d in ("length", "angle", "speed", "temperature", "time")
)  # fmt: skip


def head_dimension(head: str) -> Dimension:
    """The dimension of a question's head noun: its own, or that of the measured quantity it ends with ("분포각"
    is an angle, "유효폭" a length); one-syllable endings only where they name no thing ("설비", "궤도" end in
    비/도)."""
    if head in QUANTITY_DIMENSION:
        return QUANTITY_DIMENSION[head]
    ends = [w for w in _SUFFIX_QUANTITIES if head.endswith(w) and len(head) > len(w)]
    return QUANTITY_DIMENSION[max(ends, key=len)] if ends else ""


# words that name a pure number: a factor, ratio or coefficient has no unit of its own
FACTOR_WORDS = ("계수", "상수", "지수", "승수", "계수값", "비", "배", "배율", "비율", "율", "률", "값")
QUANTITY_NOUNS = tuple(sorted(QUANTITY_DIMENSION, key=len, reverse=True))
QUANTITY_ALT = "|".join(re.escape(w) for w in QUANTITY_NOUNS)
# the same without the bare one-syllable heads that also end names of things ("비": 설비, "도": 궤도)
QUANTITY_ALT_WORDS = "|".join(re.escape(w) for w in QUANTITY_NOUNS if w not in ("비", "도"))

# generic words of quantity or rule: they say a value is asked, not which quantity
GENERIC_WORDS = frozenset({
    "한계", "한계값", "한곗값", "기준", "기준값", "크기", "범위", "제한", "제한값", "조건", "규정", "방법", "종류",
    "표준", "표준값", "최솟값", "최댓값", "최소", "최대", "상한", "하한", "상한값", "하한값", "한도", "요구사항",
    "내용", "사항", "것", "이것", "수치", "값", "최대값", "최소값", "허용값", "허용치", "한계치", "최대치", "최소치",
    "설계값", "권장값", "적정값", "얼마", "정도", "수준", "설정값", "기본값", "기본",
    "절대", "절대적",
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
_COMPARE_AFTER = re.compile(r"\s*(?:[을를이가]\s*)?보다\s*(크|커|컸|작|많|적|길|짧|높|낮)")


_CONVERSION_AFTER = re.compile(r"\s*\(\s*[\d.,]+\s*[A-Za-z㎠㎡㎥㎜㎝㎞°℃/·²³0-9]{1,10}\s*\)")


def bound_after(text: str, pos: int) -> Bound:
    """The bound written right after ``pos`` (after a value and its unit), "" when none. A limit written as a
    negation reads as the bound it sets: "400 mm를 넘을 수는 없다" → le, "300 mm보다 작을 수 없다" → ge. The same
    value in other units in a parenthesis is passed over: "98N/㎠(10.0kgf/㎠) 이하"."""
    conv = _CONVERSION_AFTER.match(text, pos)
    if conv:
        pos = conv.end()
    m = BOUND_AFTER.match(text, pos)
    if m:
        b = bound_of_word(m.group(1))
        end = m.end()
    else:
        c = _COMPARE_AFTER.match(text, pos)
        if c is None:
            return ""
        b = "gt" if c.group(1) in ("크", "커", "컸", "많", "길", "높") else "lt"
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
# words that say in which direction a value holds ("수평 7 m 이상, 상하 3 m 이상")
DIRECTION_WORDS = ("교축직각방향", "교축방향", "길이방향", "폭방향", "종방향", "횡방향", "수평", "수직", "연직",
                   "상하", "좌우", "전후")  # fmt: skip
# a grade, class or storey written after a number ("5등급", "2층", "3종"); not an ordinal ("2차") or a rate ("1인당")
GRADE_AFTER = re.compile(r"\s*(?:등급|층|종|급)(?![가-힣])|\s*(?:등급|층|종|급)(?=[은는이가을를의에인])")
# where a noun phrase ends going back from a word: a comma or colon, a topic/subject/object particle and a space,
# or a conjunction ("… 수직간격은 축방향 철근지름의" → "축방향 철근지름")
PHRASE_BREAK = re.compile(r"[,，:：]|(?<=[은는이가을를])\s|\s(?:또는|및|그리고|중)\s")
QUESTION_WORDS = frozenset({
    "얼마", "몇", "무엇", "어떤", "어떻게", "어느", "언제", "뭐", "무슨", "얼마나", "얼마로", "얼마를", "무엇을",
    "무엇이", "어떤가요", "뭔가요",
})  # fmt: skip
QUESTION_END = re.compile(r"(인가요|인가|인지|일까요|나요|까요|습니까|니까|는지|ㄴ가요|가요|죠|요)$")

# -- list items ----------------------------------------------------------------------------------------------------
_NUMBERED = (
    r"\(\d{1,2}\)|\([가-하]\)|[①-⑳]|[㉠-㉭]|[㉮-㉻]|[가-하]\.(?=\s)|[가-하]\)(?=\s)|\d{1,2}\)(?=\s)|[a-z]\)(?=\s)"
)
NUMBERED_ITEM_MARK = re.compile(rf"^\s*(?P<m>{_NUMBERED})")  # a numbered item: "(1)", "①", "가.", "1)"
ITEM_MARK = re.compile(rf"^\s*(?P<m>{_NUMBERED}|[∙·•\-])")  # a numbered or bulleted item
SUB_ITEM_MARK = re.compile(r"^\s*([①-⑳]|[가-하]\.|\d+\)|[a-z]\))")  # an item under a numbered paragraph


# the levels of KDS item marks, outermost first: "(1)" holds "①", which holds "가.", then "1)", then "a)"
ITEM_LEVELS = tuple(
    re.compile(rf"^\s*(?:{p})")
    for p in (r"\(\d{1,2}\)", r"[①-⑳]", r"[가-하]\.(?=\s)", r"\d{1,2}\)(?=\s)", r"[a-z]\)(?=\s)")
)


def item_level(line: str) -> int:
    """How deep the item a line opens lies (0 for "(1)", 1 for "①" …); -1 when the line opens no item."""
    return next((k for k, rx in enumerate(ITEM_LEVELS) if rx.match(line)), -1)


def strip_item(text: str) -> str:
    """The text without the list mark it starts with."""
    return ITEM_MARK.sub("", text, count=1).strip()


# -- cases and conditions ----------------------------------------------------------------------------------------
# a case is written before one of these markers: "곡선의 경우에는", "시공 중에는", "역타설 시", "h/l이 0.2일 때"
CASE_MARKER = re.compile(
    r"(?:인|일|한|하는|되는|는|은|의)?\s*(?:경우|때)(?:에는|에도|에|는|의)?|"
    r"(?<=[가-힣])\s*시(?=[\s,?？]|$|에는)|(?<=[가-힣])(?:에서는|에는|에\s*대(?:해|하여)서?는)(?=[\s,])|\s중에는(?=[\s,])|"
    r"(?<=[가-힣])(?:이|으|하|되|있으|없으|않으|넘으|크|작|많으|적으|라|다)면(?=[\s,?？]|$)|"
    r"(?<=[\s가-힣])(?:치|쓰|두|주|오|나|보|걸|길)면(?=[\s,?？]|$)"  # "콘크리트 치면", "강봉을 쓰면"
)
# words inside a case phrase that carry no case of their own
CASE_STOP = frozenset({
    "다음", "이", "그", "이러한", "해당", "각", "모든", "일반", "일반적", "기타", "위", "아래", "상기", "동", "같은",
    "경우", "때", "시", "그러나", "또한", "한편", "그리고", "따라서", "특히",
})  # fmt: skip
# a word that joins two clauses: a case phrase after it starts after it ("10 km 이내를 원칙으로 하되 부득이한 경우":
# the case is "부득이한"); a label of a list item is no word of the case ("⑦ 노선의 …", "가) 가드레일과 …")
CASE_ALTERNATIVE_WORDS = frozenset({"또는", "혹은"})  # "A인 경우 또는 B인 경우": either case
# a case the value does NOT hold for: "… 경우를 제외하고는 2 m 이상", "… 때 외에는": the case phrase is kept with
# EXCLUDED_CASE_WORD after it, so it never stands for the stated case itself
EXCLUSION_AFTER = re.compile(r"\s*(?:을|를)?\s*(?:제외\s*(?:하고|한|하면|하는)|외에는|외의|이외에는|이외의)")
EXCLUDED_CASE_WORD = "제외"


def case_phrase_end(phrase: str, text: str, marker_end: int) -> tuple[str, int]:
    """A case phrase read before a case marker ending at ``marker_end``, and where reading goes on: with
    EXCLUDED_CASE_WORD and past the excepting words when the text excepts the case ("… 경우를 제외하고는")."""
    excepted = EXCLUSION_AFTER.match(text, marker_end)
    return (f"{phrase} {EXCLUDED_CASE_WORD}", excepted.end()) if excepted else (phrase, marker_end)
CASE_CLAUSE_JOIN = re.compile(r"(?:하되|이되|으되|하며|이며|으며|하고|이고|지만|으나|[가-힣]하나|이나|면서)$")
CASE_ITEM_LABEL = re.compile(r"^(?:[①-⑳]|\(?\d{1,2}\)|[가-하][.)]|[a-z]\))$")
# a word that only says something exists or not ("…이 있을 경우", "…이 없으면"): not a content word of the case —
# whether it is negated is read by the negation rules
EXISTENCE_WORD = re.compile(r"^(?:있|없)(?:을|는|은|음|으면|으며|고|어|어서|어야|으나|지만|던|다)?$")
# a case opens a sentence or clause: "… 경우에는 …", "… 때에는"
CASE_OPEN = re.compile(r"(경우|때|시)(에는|에도|에|는)?\s*,?\s")
EXCEPTION_OPEN = re.compile(r"^\s*(?:\(\d+\)\s*)?(다만|단)\s*,")
CONTINUATION_OPEN = re.compile(r"^\s*(이때|이 때|이 경우|이 경우에)\s*,?")
NEGATION = re.compile(r"지\s*(않|아니)|없는|없이|아닌|제외|미사용|아니하")
# nouns whose negation is written as a prefix: "비부착" = "부착되지 않는", "비보강" = "보강되지 않은"
NEGATED_PREFIX = re.compile(
    r"(?<![가-힣])(비|미|무)(부착|보강|탄성|균열|구속|합성|지지|대칭|선형|내진|건조|처리|사용|설치|도장)"
)


_NEGATED_MODIFIER = re.compile(
    r"([가-힣A-Za-z]{2,}?)(?:하|되|이)?(?:지\s*(?:않[은는을]|않으면|않는다면|아니[한하])|[가이]\s*아닌|[가이]\s*아니면|"
    r"\s*없는|\s*없으면|\s*없다면|\s*없을|\s*없고)"
)  # "규정이 없는 경우" and "규정이 없으면" negate one word alike
# a thing left out ("공기필터(HEPA필터 제외)", "받침 거치면을 제외한"): negated as "HEPA필터가 아닌" is
_EXCLUDED_WORD = re.compile(r"([가-힣A-Za-z0-9]{2,})(?:(?:을|를)?\s*제외(?=\)|한\s|하고)|\s*이외(?:의|에는|에))")


# verbs made of a noun and 하다 that say little without their object ("설치하지 않는", "사용하지 않는")
LIGHT_VERB_NOUNS = frozenset({"설치", "사용", "적용", "고려", "이용", "시공", "포함", "해당", "필요", "반영"})
# words of a case phrase that only say what is done with its object or how it relates ("교량설치지점 및 중심선측량을
# RTK-GNSS 측량으로 실시할 경우", "마멸로 인하여 …", "콘크리트가 부착된 경우"): the case is its objects (case_core)
CASE_LIGHT_VERBS = LIGHT_VERB_NOUNS | {"실시", "수행", "배치", "부착", "구성", "설계", "채택", "계획", "시행", "명시"}
# the activity a question states its case with ("숏크리트 배합할 때", "설치수량을 정할 때", "관지름 선정 시", "증기를 쓸
# 때"): what is done, not what it is done to — the value's sentence names the object, rarely the doing
ACTIVITY_WORDS = re.compile(
    r"(?<!\S)(?:(?:정|선정|결정|산정|계산|배합|검토|사용|적용)(?:하|할|한|하는|하여|해)?|쓸|쓰는|쓴|써서|할|하는)(?=\s|$)"
)


def _core_without(case: str, *words: re.Pattern[str]) -> str:
    """``case`` with the words the patterns match taken out, when words of its own are left; else ``case``."""
    core = case
    for pattern in words:
        core = pattern.sub(" ", core)
    core = re.sub(r"\s+", " ", core).strip()
    return core if re.search(r"[가-힣A-Za-z]{2,}", core) else case


def activity_core(case: str) -> str:
    """A question's case without the activity it is stated with, when words of its own are left ("비탈면 숏크리트
    배합할" → "비탈면 숏크리트")."""
    return _core_without(case, ACTIVITY_WORDS)


_CASE_FUNCTION = re.compile(
    r"(?<!\S)(?:인하여|인해|의하여|의해서?|위하여|위해|따라|같이|특히|안에|통하여|통해|대하여|대해|되어|않을|않는|않은|않)(?!\S)"
)
_CASE_LIGHT = re.compile(
    rf"(?<!\S)(?:{'|'.join(sorted(CASE_LIGHT_VERBS))})(?:하|할|한|하는|하여|해|된|되는|될|되|되지|하지)?(?=\s|$)"
)


def case_core(case: str) -> str:
    """A case phrase without its light verbs and relating words, when words of its own are left ("슬립 폼의
    인양" stays; "강판의 한쪽 면에만 콘크리트가 부착" → "강판의 한쪽 면에만 콘크리트가")."""
    return _core_without(case, _CASE_FUNCTION, _CASE_LIGHT)


_SUBJECT_BEFORE = re.compile(r"([가-힣A-Za-z0-9]{2,})[이가을를]\s*$")
# verbs that only say a thing is given ("조건이 주어지지 않는", "규정이 명시되지 않을"): their negation is the thing's
_GIVEN_VERBS = frozenset({"주어", "주어지", "명시", "정해", "정해지", "규정", "지정", "제시", "요구", "언급"})
_OBJECT_BEFORE = re.compile(r"([가-힣A-Za-z0-9]{2,})[을를]\s*$")


def negated_words(text: str) -> set[str]:
    """The content words a text negates: "부착되지 않는 긴장재" → {부착}, "비부착 긴장재" → {부착}."""
    t = nfkc(text)
    out = {m.group(2) for m in NEGATED_PREFIX.finditer(t)} | {m.group(1) for m in _EXCLUDED_WORD.finditer(t)}
    # a negated modifier ("…되지 않은 이음부"), not a purpose or a requirement ("쪼개지지 않도록", "넘지 않아야")
    for m in _NEGATED_MODIFIER.finditer(t):
        word = m.group(1)
        obj = _OBJECT_BEFORE.search(t, 0, m.start())
        # a light verb is negated together with its object: "유공관을 설치하지 않는" says nothing of 맹암거's 설치
        subj = _SUBJECT_BEFORE.search(t, 0, m.start())
        if word in _GIVEN_VERBS and subj:
            out.add(subj.group(1))  # "조건이 주어지지 않는 한" negates 조건, as "조건이 없으면" does
        else:
            out.add(f"{obj.group(1)} {word}" if word in LIGHT_VERB_NOUNS and obj else word)
    return out


def negation_disagrees(a: str, b: str) -> bool:
    """Two texts speak of one word, one negating it and the other not ("비부착" against "부착된")."""
    na, nb = negated_words(a), negated_words(b)
    for w in na ^ nb:
        other = nfkc(b if w in na else a)
        if all(part in other for part in w.split()):
            return True
    return False


# modifiers that name the opposite side or kind of one quantity: "공칭너비" is not "실제너비", "상단" not "하단"
OPPOSITE_MODIFIERS = (
    ("공칭", "실제"), ("상부", "하부"), ("상단", "하단"), ("상면", "하면"), ("내측", "외측"), ("내부", "외부"),
    ("인장", "압축"), ("수평", "연직"), ("수평", "수직"), ("종방향", "횡방향"), ("단기", "장기"), ("정적", "동적"),
    ("상류", "하류"), ("좌측", "우측"), ("전면", "배면"), ("유입", "유출"), ("흡입", "토출"), ("급기", "배기"),
    ("내경", "외경"), ("한쪽", "양쪽"), ("편측", "양측"), ("단선", "복선"),
)  # fmt: skip


def opposite_modifier(asked: str, written: str) -> bool:
    """``written`` (the words a value is written for) names the opposite of a modifier ``asked`` names, and not
    that modifier itself ("공칭 너비" asked, "실제너비 38 mm" written)."""
    a, w = nfkc(asked), nfkc(written)
    for x, y in OPPOSITE_MODIFIERS:
        for mine, other in ((x, y), (y, x)):
            if mine in a and other not in a and other in w and mine not in w:
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
# "제1" is an ordinal, "제1종" / "제2호" / "제3조" a name (a class, an item of a law): not a position asked
ORDINAL = re.compile(
    "|".join(
        re.escape(k).replace(r"\ ", r"\s*") + (r"(?![0-9종급호조항장절편권])" if k.startswith("제") else "")
        for k in sorted(ORDINALS, key=len, reverse=True)
    )
)


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
# "용어: 설명"; a term may carry a long alias in parentheses ("상당온도차(equivalent temperature differential) : …")
DEFINITION_LINE = re.compile(r"^\s*(?:[∙·•\-]\s*)?([^:：]{1,40}?|[^:：()]{1,40}?\s*\([^()]{1,80}\))\s*[:：]\s*(.+)$")
# a glossary entry starting inside a paragraph of run-together entries ("… 환기력. 굴진율(Advance rate): …",
# "… 휨 상태 복부판 크립플링(Web Crippling) : …", "국부좌굴：…"): up to three words with another name in
# parentheses, or one word, then the colon
_GLOSSARY_ENTRY = re.compile(
    r"(?:^|(?<=\s))((?:[가-힣][가-힣0-9·\-]*\s){0,2}[가-힣][가-힣0-9·\-]*\s?\([A-Za-z][^()]{1,60}\)|[가-힣][가-힣0-9·\-]{1,15})"
    r"\s?[:：]\s?(?=[^\s\d])"
)


def glossary_entries(text: str) -> list[str]:
    """The "용어: 설명" entries of a paragraph that runs several together (each from its term to the next
    entry), with the shorter readings of a term written after a word of the entry before it ("상태 복부판
    크립플링(…)": also "복부판 크립플링(…)"); [] when the paragraph holds fewer than two entries."""
    found = list(_GLOSSARY_ENTRY.finditer(text))
    if len(found) < 2:
        return []
    out: list[str] = []
    for m, nxt in zip(found, [*found[1:], None], strict=True):
        # up to the next entry's last word before its other name: the words before it may end this explanation
        end = nxt.start(1) + nxt.group(1).split("(")[0].rstrip().rfind(" ") + 1 if nxt is not None else len(text)
        entry = text[m.start(1) : end].strip()
        words = m.group(1).split("(")[0].split()
        out.extend(entry[len(" ".join(words[:k])) :].strip() for k in range(len(words)))
    return out


DEFINITION_AFTER = re.compile(r"^(.{6,}?)\s*[을를]\s+(\S{2,20}?)(?:이)?라(?:고)?\s*(?:한다|부른다|칭한다)\s*\.?$")
DEFINITION_SENTENCE = re.compile(
    r"(을|를)\s*말한다|(이)?라\s*한다|(이)?라고\s*한다|(을|를)\s*의미한다|(을|를)\s*뜻한다"
)
_TOPIC_DEFINITION = re.compile(
    r"^(.{1,40}?)(?:이란|란|은|는|이라\s*함은|라\s*함은)\s.*(말한다|뜻한다|의미한다|지칭한다|일컫는다|이다|말하며|말하고|"
    r"로서|으로서|을\s*말함|를\s*말함)\.?$"
)


# "X는 … 교차하는 부분으로, …", "X는 … 흡수하는 구조로서 …": the topic defined as a kind of thing, the sentence
# going on (not "… 시설로 한다": a requirement)
DEFINITION_KINDS = (
    "시설", "설비", "구조", "부분", "작업", "장치", "공간", "방법", "방식", "하중", "구간", "재료", "부재", "지역",
    "체계", "시스템", "측량", "공법", "기능", "상태", "값", "것",
)
_APPOSITION_DEFINITION = re.compile(
    r"^([^\d]{1,30}?)(?:이란|란|은|는|이라\s*함은|라\s*함은)\s(?=.{6,})(?:[^\d]|\d+(?=[가-힣]{2}))*?"
    r"(?:인|한|하는|되는|된|는|은|의)\s*\S*(?:"
    + "|".join(DEFINITION_KINDS)
    + r")(?:으로서|로서|(?:으로|로)(?!\s*\S*(?:한다|하여야|해야|하며|하고|본다|된다)))(?:,|\s)"
)


# a question asking what a term means: "X이란 (무엇)?", "X란?", "'X'란?", "X의 정의", "X의 뜻", "…을 무엇이라고 하나요",
# "뭐라고 부르나요", "어떤 …을 말하나요", "X는 어떻게 정의되나요", "X는 무엇을 뜻하나요", "X는 어떤 시설로 정의되나요",
# "X는 어떤 하중인가요" (a kind of thing: ``DEFINITION_KINDS``), "윈드 슈(wind shoe)란?", "… 기준에서 말하는 X은
# 무엇인가요?" (a term the question says a standard uses)
_KIND_ASKED = (
    r"(?:은|는)\s+어떤\s+(?:" + "|".join(DEFINITION_KINDS) + r")(?:을|를)?\s*(?:인가|인지|입니까|이에요|예요|말하|뜻하)"
)
# "최소 평균 롤값(MARV)이 뭐야?": a term asked in everyday words (a definition unless what it names is a quantity:
# "최소 근입깊이가 뭐야?" asks a value)
CASUAL_WHAT = re.compile(r"(?:이|가|은|는)\s*(?:뭐야|뭐예요|뭐에요|뭔가요|뭐지|뭐죠)\s*[?？]?\s*$")
# a term typed as a search ("액상화 정의", "단기계측 뜻") or asked in everyday words ("허용편차는 뭘 말하는 거?")
_EVERYDAY_DEFINITION = (
    r"\s(?:정의|뜻|의미|개념)\s*[?？]?\s*$|(?:이|가|은|는)\s*(?:뭐야|뭐예요|뭐에요|뭔가요|뭐지|뭐죠)\s*[?？]?\s*$"
    r"|(?:은|는)\s*(?:뭘|무얼)\s*말하"
)
DEFINITION_QUESTION = re.compile(
    r"(?:이란|[가-힣)]란|['\"’”」』]\s*란)(?:\s|\?|$)|의\s*(?:정의|뜻|의미)|(?:무엇|뭐)(?:이라고|라고)"
    r"|말하는\s+[^\s?]+(?:은|는)\s*무엇"
    r"|(?:무엇|뭐|어떤[^?]*)(?:을|를)\s*말하|어떤\s*의미|무슨\s*(?:뜻|의미)|어떻게\s*정의|무엇을\s*뜻하"
    r"|정의(?:되|된다고|하나|한다고)|" + _KIND_ASKED + "|" + _EVERYDAY_DEFINITION
)
# a word that names the group the asked term is one of, not a word of the term: "연결요소 중 버퍼란?" asks 버퍼
TERM_GROUP_WORD = frozenset({"중", "가운데"})
GROUP_MEMBER_SPLIT = re.compile(r"\s(?:" + "|".join(sorted(TERM_GROUP_WORD)) + r")\s")  # "건축재료 중 목재를"
# a term asked with another name in parentheses ("롤값(MARV)이 뭐야?"): a term, whatever word it ends on
NAMED_TERM_ASKED = re.compile(r"\([A-Za-z][^()]*\)\s*(?:이|가|은|는)\s*뭐")
# a verb of use before the term a definition question asks ("…에 쓰는 최소 평균 롤값"): the term comes after it
USE_BEFORE_TERM = re.compile(r"(?:^|\s)(?:쓰는|사용하는|적용하는|쓰이는|사용되는)\s+")

# where a definition question's term ends: "X이란", "X란", "X의 정의/뜻/의미", "X는 무엇/어떤 의미/어떻게 정의/무슨",
# "X는 어떤 시설로 정의되나요"
DEFINITION_TERM_MARKER = re.compile(
    r"(?:이란|란)(?=\s|\?|$)|의\s*(?:정의|뜻|의미)"
    r"|(?:은|는|이|가)\s*(?:(?:무엇|뭐)(?!\s*(?:이)?라고)|어떤\s*의미|어떻게\s*정의|무슨)"
    r"|(?:은|는)\s+어떤\s+[가-힣]+(?:으로|로)\s*정의|" + _KIND_ASKED + "|" + _EVERYDAY_DEFINITION
)


# "설계속도란 … 속도를 말하며, …", "소화효율이란 … 비율로서 다음 식으로 나타낸다": a sentence that opens with "X(이)란"
# defines X, however it goes on
_RAN_DEFINITION = re.compile(
    r"^([^\s,.]\S{0,20}?(?:\s\S{1,20}?){0,3}?)(?:이란|란|이라\s*함은|라\s*함은)\s(?=.*[가-힣]{2}.{8,})"
)
# "배수지는 … 저류지로서 …", "공용기간은 … 수명으로서 …": the topic named as a kind of thing ("로서": in the role of)
_AS_DEFINITION = re.compile(
    r"^([^\d\s]\S{0,20}?(?:\s\S{1,20}?){0,3}?)(?:은|는)\s(?=.{6,})(?!.*(?:여야|해야|아야|어야)\s*(?:한다|하며|하고))[^\d]*?[가-힣](?:으로서|로서)(?:,|\s)"
)


# "승수로는 관개지구 밖으로부터의 유출수를 … 보내는 수로이며, …": the topic named by a noun as its predicate (no
# number in between: "… 30 mm 이상이며" is a value)
_PREDICATE_DEFINITION = re.compile(
    r"^([^\d\s]\S{0,20}?(?:\s\S{1,20}?){0,2}?)(?:은|는)\s(?=.{10,})[^\d]*?(?:인|한|하는|되는|된|는|은|의)\s+"
    r"[가-힣]{2,}(?<!이상)(?<!이하)(?<!미만)(?<!초과)(?<!이내)(?<!정도)(?:이며|이고),?\s"
)


def term_readings(asked: str) -> list[str]:
    """The term a definition question names, and the same without the thing it is said of ("케이블교량의 윈드 슈"
    → "윈드 슈"): the genitive names where the term is used, not another term. A word before the term without
    "의" stays ("이차 냉매" is not "냉매")."""
    out = [asked]
    for m in re.finditer(r"\S의\s+", asked):
        tail = asked[m.end() :].strip()
        if len(re.sub(r"\s", "", tail)) >= 2:
            out.append(tail)
    return out


def strip_alias(term: str) -> str:
    """A term without the other name written after it in parentheses: "스트립받침(strip bearing)" → "스트립받침"."""
    return re.sub(r"\s*\([^()]*\)\s*$", "", term).strip() or term


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
    m = (
        _TOPIC_DEFINITION.match(s) or _APPOSITION_DEFINITION.match(s) or _RAN_DEFINITION.match(s)
        or _AS_DEFINITION.match(s) or _PREDICATE_DEFINITION.match(s)
    )  # fmt: skip
    return m.group(1).strip() if m else ""


# a sentence that only points elsewhere ("표 4.2-1에 따른다", "KDS 14 20 10을 따른다")
POINTER = re.compile(
    r"((표|식|그림)\s*\(?\s*[A-Z]?\d+(\.\d+)*(-\d+)?\s*\)?|KDS\s*\d{2}\s*\d{2}\s*\d{2}|KCS\s*\d{2}\s*\d{2}\s*\d{2}|"
    r"\d+(\.\d+)+)\s*(의\s*(값|규정|내용|범위)(\s*내)?\s*)?(에\s*따르|에\s*따른다|[을를]\s*따른다|을\s*따르|를\s*따르|을\s*참조|를\s*참조|에\s*의하|에\s*준하|"
    r"에\s*제시|에서\s*정하|에\s*규정|과\s*같)"
)
INTRO_TO_FORMULA = re.compile(r"(다음\s*(식|과\s*같이|의\s*식)|아래\s*식|식\s*\(\s*[A-Z]?[\d.]+\s*-\s*\d+\s*\))")

# words a question uses to say what kind of answer it wants, not what it is about ("어떤 방식으로", "요구사항은")
REQUEST_WORDS = frozenset({
    "방식", "방법", "원칙", "원칙적", "요구사항", "요구조건", "조건", "조치", "형식", "절차", "사항", "처리", "기준",
    "규정", "내용", "방향", "정도", "요건", "대책", "경우", "때", "무엇", "어떻게", "어떤", "얼마나", "종류",
    "구하", "역할", "주체",
})  # fmt: skip
# a question asking who does something: the answer is the sentence's own topic ("책임구조기술자는 … 시행하여야 한다")
AGENT_ASKED = re.compile(r"(주체|누가|누구|(?:하는|할|해야\s*하는)\s*사람)")

# a requirement sentence written for a case of its own, at its start ("(2) 단독관로를 구성 시에는 …", "논의 경우 …",
# "방호벽일 경우 …"): the case's words, up to its marker
SENTENCE_CASE = re.compile(
    r"^\s*(?:\(\d+\)|[①-⑳]|[가-하]\.|\d+\)|[∙·•\-])?\s*"
    r"(?P<case>(?:(?!(?:[은는]|하며|하고|이며|으며)\s)[^.,:]){2,50}?)(?:경우|때)(?:에는|에도|에|는)?(?=[\s,])"
)  # the case's words may not hold a topic ("…은 ") or a finished clause ("…하며 "): then it is not the sentence's own
CASE_OR = re.compile(r"(?<=[가-힣])(?:거나|또는|이나)\s")  # "N이 N_CL을 초과하거나 트럭 교통량을 … 없는 경우"
# a question that asks the case itself ("어떤 경우에 설치하나?", "언제", "적용 조건"): a sentence's own case answers it
CASE_ASKED = re.compile(
    r"(?:어떤|어느|무슨)\s*(?:경우|때|조건|상황)|언제|조건(?:은|이|을)?\s*[?？]?$|경우(?:는|에는)?\s*[?？]?$"
)

# what stands between a noun phrase and the asked word when the phrase is the base of a comparison ("일반
# 산정값보다 몇 % 크게", "설계수위 대비 몇 m"), not the quantity asked (a share's base, "연직하중의 몇 %", is read
# as the owner the value is written for: "수평하중은 연직하중의 20 %")
RELATIVE_BASE_BETWEEN = re.compile(r"^\s*(?:보다|대비|에\s*비해)\s*(?:(?:최대|최소|약|대략)\s*)?$")

# a quantity can be written as a multiple of another of its kind ("슬래브 두께의 4.5배", "철근지름의 40배"): the
# dimensions so written, and the base's genitive right before the multiple
MEASURED_DIMENSIONS = frozenset({"length", "area", "force", "stress", "moment", "time"})
MULTIPLE_BASE_BEFORE = re.compile(r"[가-힣A-Za-z_〗)]의\s*$")

# questions of what is allowed, and the sentences that allow or forbid it
PERMISSION_ASKED = re.compile(
    r"(써도|사용해도|설계해도|해도|적용해도|생략해도|둬도|놓아도|허용되|가능한가|가능하나|할\s*수\s*있나|될\s*수\s*있나|"
    r"되나요|돼나요|괜찮나요|무방한가|"
    r"수\s*있는\s*(?:경우|때|조건)(?:[은는이가]|에는)?\s*(?:언제\S*|무엇\S*|어떤\s*경우\S*)?\s*[?？]?$)"
)  # the last: "낮은 강도를 적용할 수 있는 경우는?" asks when it is allowed (not "… 발생할 수 있는 경우 설치할 …")
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
    ("넘는", "초과"), ("넘을", "초과"), ("넘으면", "초과"), ("넘게", "초과"), ("초과하는", "초과"), ("초과할", "초과"),
    ("초과하면", "초과"), ("초과하게", "초과"),
)  # fmt: skip


# -- what a question asks (read by kdsdesk.verify.need) ----------------------------------------------------------------
# "몇 분의 몇" asks for a fraction, not minutes
UNIT_ASKED = re.compile(rf"몇\s*({UNIT_ALT}|퍼센트|프로)(?![A-Za-z0-9²³/])(?!\s*의\s*몇)")
UNIT_PAREN_IN_QUESTION = re.compile(rf"\(\s*({UNIT_ALT})\s*\)")
# a telegraphic question ending on a unit written in Latin letters or signs: "연결부 설계강도 하한 kN"
UNIT_AT_QUESTION_END = re.compile(rf"(?<=[^\d.\s]\s)({UNIT_ALT})\s*[?？]?$(?<![가-힣])")
ASKS_DEFINITION = re.compile(
    r"(이란|[가-힣'’\"”)]란\s|[가-힣'’\"”)]란\s*[?？]|[가-힣'’\"”)]란$|정의|무엇이라|뭐라고|뭐라\s|이라고\s*(하|부르)|라고\s*(하|부르)|라\s*하나요|"
    r"어떤\s*의미|무슨\s*뜻|의\s*뜻|\s뜻\s*[?？]?$|무엇을\s*말하|어떤\s*\S+[을를]\s*말하나요|[을를]\s*말하나요|[은는]\s*어떤\s*[가-힣]+인가요|"
    r"(무엇|뭘|무얼)을?\s*(뜻|의미)|뜻하나요|의미하나요|(명칭|이름|용어)(은|이|는)\s*(무엇|뭔|[?？]|$)|(뭘|무얼)\s*말하)"
)
# "압착성 지반(Squeezing ground)은 어떤 지반?": what kind of the thing its own last word names (a definition)
KIND_OF_ITSELF = re.compile(
    r"([가-힣]{2,})(?:\s*\([^()]*\))?(?:은|는)\s+어떤\s+\1\s*(?:인가요|인가|이야|이에요)?\s*[?？]?\s*$"
)
ASKS_NAME = re.compile(
    r"(무엇이라|뭐라고|뭐라\s|이라고\s*(하|부르)|라고\s*(하|부르)|라\s*하나요|(명칭|이름|용어)(은|이|는)\s*(무엇|뭔|[?？]|$))"
)
ASKS_VALUE = re.compile(
    r"(얼마|몇\s|몇[가-힣A-Za-z%°]|최댓값|최솟값|상한(값|은|는)|하한(값|은|는)|계수(는|가|를)\s*[?？]?$|값(은|는)\s*[?？]?$|"
    r"비율(은|는)|간격\s*한도|한도(는|은)|(최대|최소)\s*[가-힣]*\s*(는|은)\s*[?？]?$|"
    r"(강도|계수|(포아송|세장|두께|철근|면적|경간|폭)비|두께|간격|지름|직경|길이|거리|높이|깊이|하중|응력)\s*(\(?[A-Za-zφ-ω][\w′']*\)?\s*)?"
    r"(는|은)\s*[?？]?$|"
    r"(최소|최대|최솟|최댓|하한|상한|허용|기준)\s*값|"
    r"(계수|장력|강도|두께|간격|지름|직경|길이|거리|하중|[가-힣]율|[가-힣]률|중량|처짐)\s*(은|는)?\s*[?？]?$)"
)  # the last lines: a quantity named at the end ("… 항복강도 Fy는?", "… 포아송비는?")
ASKS_HOW = re.compile(
    r"(어떻게|무엇을\s*해야|어떤\s*조치|어떤\s*\S+(으로|로|에만|을|를)\s|어떤\s*식|어떤\s*접합|원칙|해야\s*하나요)"
)
STATES_CONDITION = re.compile(
    r"([가-힣]\s*시\s|인\s*경우|한\s*경우|는\s*경우|일\s*때|할\s*때|쓸\s*때|[을를]?\s*때|[가-힣](으)?면\s|이고\s|에서\s)"
)
ASKS_AT_MOST = re.compile(r"(이하|미만|넘지\s*않|초과하지\s*않|≤|<=|<)")
ASKS_ABOVE = re.compile(r"(초과|넘는|넘으면|넘을|넘어|이상인|>|≥|>=)")
# Telegraphic questions name the quantity (and its bound) with no question word: "거푸집 자중 하한값",
# "M24 볼트 표준구멍 지름", "강관 외경 하한", "B급 마감 절대처짐 허용값". The last word decides: a quantity noun,
# optionally followed by a bound word; synonyms (외경/내경/구경, 한계/허용값, 크기/치수) count alike.
QUANTITY_NOUN_RE = (
    r"(계수|강도|응력|장력|하중|측압|압력|두께|간격|지름|직경|외경|내경|구경|길이|거리|폭|높이|깊이|치수|크기|"
    r"사이즈|처짐|중량|단위중량|자중|[가-힣]율|[가-힣]률|비율|각도|경사각|온도|면적|단면적|철근량|비|φ|λ|θ|속도|유속|"
    r"시간|기간|용량|유량|(?:압축|인장|휨|전단)성능|파고|여유고|수심|심도|"
    r"[A-Za-zα-ωΑ-Ω](_?\{?[A-Za-z0-9]+\}?)?)"
)
BOUND_NOUN_RE = (
    r"(최솟값|최댓값|최소값|최대값|최소치|최대치|하한값?|상한값?|한도|한곗값|한계값?|허용값|허용치|제한값?|기준값|"
    r"값|최소|최대|수치)"
)
# a count written as its own word ("세션 수", "최소 수신 위성 수", "설치 개수")
COUNT_NOUN_RE = r"(?<![가-힣])(?:수|개수|횟수|본수|대수|매수)"
TELEGRAPHIC_VALUE = re.compile(
    rf"(?<![가-힣])[가-힣A-Za-z0-9_]*{QUANTITY_NOUN_RE}(\s*{BOUND_NOUN_RE})?\s*[?？]?$|{BOUND_NOUN_RE}\s*[?？]?$"
    rf"|\s{COUNT_NOUN_RE}\s*[?？]?$"
)
# -- the quantity a value question asks for, and units that cannot be it -----------------------------------------
# The head noun of a Korean noun phrase comes last ("추가 측압 비율" is a ratio; "강도감소계수" a factor), so the
# LAST quantity noun of the question names what is asked. A factor/ratio-of-two word ends the search unconstrained.
QUANTITY_HEAD = re.compile(
    r"(계수|배율|계수값|비|배|비율|백분율|할증률|[가-힣]율|[가-힣]률|속도|강도|응력|하중|측압|압력|"
    r"두께|간격|길이|거리|폭|지름|직경|외경|내경|바깥지름|깊이|높이|피복|치수|사이즈|온도|기간|시간|각도|성능|"
    r"파고|여유고|수심|심도)"
    r"(?=[은는이가을를의도만과와]|\s|\?|$)"
)
MULTIPLIER_ASKED = re.compile(r"곱하|곱한|곱해|나누|나눈|상수|지수|승수")
ASK_WORDS = frozenset({"얼마", "몇", "무엇", "어떤", "어느", "무슨", "뭐", "언제", "어떻", "어디"})
# the header word over a table's row labels ("구분 최저온도 표준온도 최고온도 …"): a flattened table's column headers
# are read only right after one of these (``kdsdesk.text.flat_tables``)
TABLE_ROW_HEADERS = frozenset({
    "구분", "항목", "종류", "분류", "용도", "등급", "재료", "지역", "공법", "형식", "조건", "부재", "지반종류",
    "검토항목", "적용구분", "시설", "시설물", "재질", "관종", "규격", "종별", "수질조건", "접수조건",
})  # fmt: skip
# a table's caption where a flattened table's text starts ("표 1.8-1 압축부재의 안전율 지지형식 …"), not a reference
# to it ("표 1.8-1의 값", "표 1.8-1에 따른다", "표 1.8-1 및 표 1.8-2", "(표 4.2-1 참조)")
TABLE_CAPTION = re.compile(
    r"(?<![\w<〈(])표\s*[A-Z]?\d+(?:\.\d+)*-\d+\s+(?!(?:의|에|을|를|과|와|은|는|이|가|로|으로|및|또는|참조|"
    r"에서|에\s|에서\s|과\s|와\s|[)\]〉>,.]))(?=[^\s\d])"
)
# where a flattened table's text ends: a sentence's end, or the next numbered item or heading
TABLE_TEXT_END = re.compile(r"다\.|다\s+(?=\(\d+\)|[①-⑳])|\(\d+\)\s|[①-⑳]\s?|(?<!\S)[가-하]\.\s")

# question words spoken as one word for "몇 + unit": "며칠" asks a number of days
SPOKEN_ASKS = {"며칠": "몇 일"}


def spoken_asks(question: str) -> str:
    """The question with its spoken question words written out ("며칠" → "몇 일")."""
    for said, written in SPOKEN_ASKS.items():
        question = question.replace(said, written)
    return question
FORMULA_ASKED = re.compile(
    r"(어떤|무슨)\s*(식|공식|계산식)|(?<![가-힣])(식|공식|계산식|산정식)(은|을|으로|이)(?=\s|[?？]|$)|(?<![가-힣])(합|곱)으로|"
    r"어떻게\s*(계산|산정|구하)"
)
REQUIREMENT_ASKED = re.compile(
    r"어떻게|무엇을\s*해야|어떤\s*조치|해야\s*하나요|되나요|돼나요|할\s*수\s*있나요|써도|사용해도|해도|"
    r"요구(조건|사항)|원칙은|규정은|방법은|조건은|제한\s*사항"
)
# "비" and "도" end quantities (철근비, 강도) and things too (설비, 장비, 궤도, 보도): those are not quantities
NOT_A_THING_BI = r"(?<![설장정준])"
NOT_A_THING_DO = r"(?<![궤보차인수용제지])"
QUANTITY_END = re.compile(
    rf"({QUANTITY_ALT_WORDS}|[가-힣]*(량|율|률|계수|상수|지수|{NOT_A_THING_BI}비|속도|값|한도|치수|깊이|높이|정확도|밀도|농도|빈도|경사도|경사|"
    r"기울기|구배|범위|균열폭|허용치|허용오차|오차))$"
)
THRESHOLD_ASKED = re.compile(
    r"(얼마|몇\s*\S{0,6})\s*(이상|이하|미만|초과|보다\s*\S+)\s*(이면|인\s*경우|일\s*때|인(?!가|지|데)|이고)|"
    r"(얼마|몇\s*\S{0,6})\s*(를|을)?\s*(넘으면|초과하면|넘는|초과하는)"
)
SCOPE_AT_START = re.compile(r"^\s*([^,?]{2,40}?)(?:에서는|에서|의\s*경우)\s")
TERM_PATTERNS = (
    r"\s*(.+?)\s*의\s*(?:정의|뜻|의미|개념)",
    r"\s*(.+?)\s*(?:이란|란)(?=[\s?？]|$)",
    r"\s*(.+?)\s*(?:은|는)\s*(?:무엇|뭐|어떤|무슨)",
    r"\s*(.+?)\s*(?:이|가)\s*(?:뭐야|뭐예요|뭐에요|뭔가요|뭐지|뭐죠)",
    r"\s*(.+?)\s*(?:은|는)\s",
    r"\s*(.+?)\s+(?:정의|뜻|의미|개념)\s*[?？]?\s*$",  # typed as a search: "단기계측 뜻"
)
EXCLUDED_ASKED = re.compile(
    r"([가-힣A-Za-z0-9·]{2,}?)(?:이|가)?\s*아닌|([가-힣A-Za-z0-9·]{2,}?)(?:을|를)?\s*제외(?:한|하고)"
)
RELATIVE_ASKED = re.compile(r"의\s*(얼마|몇\s*(배|%|퍼센트|분의))")
BOUND_ASKED = re.compile(
    r"(몇\s*(?:[^\s가-힣]{0,8}|도|배|퍼센트|개|년|일|시간|분|회|미터|톤)|얼마)\s*[을를]?\s*"
    r"(이하|이상|미만|초과(?!하지)|까지|넘지\s*않|초과하지\s*않)"
)


# -- evidence units (read by kdsdesk.answer.sentences) -----------------------------------------------------------------
FORMULA_WORDS = re.compile(r"식(에서|의|에|으로)|계산식|상세식|공식|곱하|나누|상수|항은")
ASKING_GRAMS = frozenset({"얼마", "무엇", "어떤", "경우", "하나", "나요", "인가"})
UNIT_TOKENS = frozenset({"mm", "cm", "m", "mpa", "gpa", "kpa", "kn", "n", "h", "s", "knm"})
ASKING_MORPHEMES = frozenset({"어떻", "하", "되", "있", "말하", "부르", "얼마", "무엇", "경우", "정하", "나오"})
SENTENCE_TOPIC = re.compile(r"([가-힣A-Za-z0-9_ ]{2,24}?)[은는]\s")
CONDITION_PART = re.compile(r"^(.*?)(경우|때|(?<=[가-힣])면\s)")
CASE_END = re.compile(r"(경우|때)(에는|에도|에|는)?|에서는|에는")
THIS_VALUE_OPEN = re.compile(r"^\s*(이\s*값|이렇게|이와\s*같이)")


# -- evidence sentences (read by kdsdesk.answer and kdsdesk.verify) ------------------------------------------------
# the words before a sentence's first 은/는: what it is about ("조립압축재의 단부 연결은 …")
TOPIC_PHRASE = re.compile(r"(.{3,30}?)\s?(?:은|는)\s")
TOPIC_AT_START = re.compile(r"^\s*(?:\(\d+\)\s*)?(.{3,30}?)\s?(?:은|는)\s")
REFERS_TO_FORMULA = re.compile(r"다음\s*식|식\s*\(")
# a question that names a formula ("어떤 식으로", "계산식은", "합으로")
FORMULA_NAMED = re.compile(
    r"(어떤|무슨)\s*(식|공식|계산식)|(?<![가-힣])(식|공식|계산식)(은|을)\s|(?<![가-힣])(합|곱)으로"
)
# words of quantity or rule that are never the head of what a question is about
GENERIC_HEADS = GENERIC_WORDS | {"상수", "계수", "항"}
# words a standard writes as a sign
WRITTEN_AS_SIGN: dict[str, str] = {"제곱근": "√", "루트": "√", "합계": "Σ", "총합": "Σ"}


# -- fact reading (kdsdesk.text.facts) ---------------------------------------------------------------------------------
REFERENCE_BEFORE_NUMBER = re.compile(
    r"(식|표|그림|제|KDS|KCS|KS\s*[A-Z]?|부록|<표|〈표)\s*[<〈(]?\s*(\d{1,4}\s+){0,2}$"
)
FACT_CLAUSE_END = re.compile(r"[,;]\s|(며|고|나|으나|지만|하고),?\s|다\.\s|:\s")
# a value that states a case rather than a requirement ("2 m 이내인 지역에서는 0.5 m"): the forms the facts and the
# verifier both read, then each one's own (the facts also read bare "인" and "… 시"; the verifier "이내이면")
_CASE_AFTER_VALUE = (
    r"초과하는|넘는|넘으면|이상인|이하인|미만인|초과인|이내인|이내일|이상이면|이하이면|미만이면|초과하면|인\s*경우|"
    r"일\s*때|이면"
)
THRESHOLD_AFTER = re.compile(
    rf"\s*(?:[을를이가]\s*)?(?:{_CASE_AFTER_VALUE}|넘을|일\s*경우|인\s*때|인|이상일|이하일|미만일|"
    r"이내에\s*있는|이상\s*시|이하\s*시|넘지\s*않을\s*때|초과하지\s*않는)"
)
READING_THRESHOLD_AFTER = re.compile(rf"\s*(?:[을를이가]\s*)?(?:{_CASE_AFTER_VALUE}|이내이면)")
OWNER_WORD = re.compile(r"(\S+?)(?:은|는|이|가|을|를)$")
VERB_STEM_END = re.compile(r"(하|되|있|없|않|받|같|시키|지니|가지|이루|나타나|작용하)$")
PARTICLE_WORD_END = re.compile(
    r"(은|는|을|를|에|에서|에는|로|으로|와|과|이나|부터|까지|보다|이며|이고|하고|하여|해서)$"
)
OF_NOUN_AFTER = re.compile(r"\s*의\s+([가-힣A-Za-z][^\s,.]{0,15})")
PAREN_CASE = re.compile(r"\(([^()]{2,80}?)(?:인|일|한|하는|되는|는|은|의)?\s*(?:경우|때)(?:에는|에|는)?\s*")
NOUN_AFTER = re.compile(r"\s+([가-힣]{2,}?)(?:은|는|이|가|을|를|의|으로|로|에)?(?=[\s,.]|$)")
OPENING_CASE = re.compile(r"^(.{2,80}?)(?:인|일|한|하는|되는|는|은|의)?\s*(?:경우|때)(?:에는|에도|에|는)?\s*,")
QUALIFIER_BEFORE = re.compile(r"(각각|모두)\s*$")
RESPECTIVELY = re.compile(
    r"(?P<x1>\d+(?:\.\d+)?)\s*(?:와|과|및|,)\s*(?P<x2>\d+(?:\.\d+)?)\s*[을를은는이가]?\s*각각\s*"
    r"(?P<y1>\d+(?:\.\d+)?)\s*(?:와|과|및|,)\s*(?P<y2>\d+(?:\.\d+)?)"
)
FREQUENCY = re.compile(r"\s*(년|개월|월|주|일|시간)\s*(에|마다)\s*\d+\s*(회|번)")
# a particle right after a Korean counter unit, ending the word ("5년이 경과한", "7~10일에", "3개소에는"): the
# counter is the value's unit, not the first syllable of a word ("5일부터" stays a date, "3차로" a name)
UNIT_PARTICLE = re.compile(
    r"(?:이|가|을|를|은|는|의|에|에는|에서|으로|로|마다|씩|까지|이내|이상|이하|미만|초과|간|동안|정도|가량|내외)(?![가-힣])"
)
GLUED_GRAMMAR = re.compile(
    r"(으로|로|이|가|을|를|은|는|의|에|와|과|도|만|이다|이며|이고|이나|이면|이상|이하|미만|초과|이내|까지|보다|부터|씩|"
    r"인|일|이어|여야|에서|마다|정도|내외|가량)"
)
DESIGNATION_AFTER = re.compile(
    r"\s*(등급|급|종|호|번|단계|형|류|차\s*\(|차\s|군|차원|층|블럭|블록|힌지|궤도당|당\b|\s*m당)"
    r"(?![가-힣]*(이상|이하|미만|초과))"
)
DESIGNATION_BEFORE = re.compile(r"(등급|제|No\.?|Type|타입|유형)\s*$")
DATE_AFTER_NUMBER = re.compile(r"\s*(년\s*\d{1,2}\s*월|월)")
VALUE_CELL_WORDS = re.compile(rf"이하|이상|초과|미만|및|또는|~|{UNIT_ALT}")
JOINT_OWN_BOUND = re.compile(r"\s*(이하|이상|미만|이내)")
JOINER = r"\s*(?:이어야\s*하며|이고|이며|으로\s*하며|로\s*하며)?\s*,\s*"
JOINT_AFTER = re.compile(JOINER + r"[\d.,]+\s*[^\s\d,]{0,6}\s*(이하|이상|미만|이내)")
JOINT_BEFORE = re.compile(r"(이하|이상|미만|이내)" + JOINER + "$")


# -- value reading (kdsdesk.verify.readings) ---------------------------------------------------------------------------
READING_CLAUSE_CUT = re.compile(r",\s|;\s|(?<=[가-힣])(?:며|고|으나|지만|하고|이고|이며|하며)\s|:\s")
OPEN_CASE_COMMA = re.compile(r"^(.{2,80}?)(?:경우|때)(?:에는|에도|에|는)?\s*,")
OF_NOUN_AFTER_STRICT = re.compile(r"\s*의\s+([가-힣]{2,}?)(?:은|는|이|가|을|를|에|으로|로)?(?=[\s,.]|$)")
# a number between the operators of a formula ("… ＝ Q × C × 1/108 × …"): a coefficient of the formula, not a limit
OPERATOR_BESIDE = re.compile(r"[×÷*]\s*$")
OPERATOR_AFTER = re.compile(r"\s*[×÷*]")
FORMULA_SIGN = re.compile(r"[=＝]")
# acronyms a question may write for words the standard spells out
ACRONYMS: dict[str, tuple[str, ...]] = {
    "LRFD": ("하중저항계수설계",), "ASD": ("허용응력설계",), "RC": ("철근콘크리트",), "PSC": ("프리스트레스트",),
    "PC": ("프리캐스트", "프리스트레스트"), "SRC": ("철골철근콘크리트",), "CFT": ("콘크리트충전강관",),
    "MSR": ("기계등급",), "TBM": ("터널굴착기",), "NATM": ("숏크리트",),
}  # fmt: skip
_LATIN_WORD = re.compile(r"(?<![A-Za-z])[A-Za-z]{2,}(?![A-Za-z])")


def acronyms_missing(phrase: str, text: str) -> list[str]:
    """The Latin-letter words of ``phrase`` ("GFRP 보강근", "ALC 블록") that ``text`` writes neither as they are
    nor spelled out (``ACRONYMS``)."""
    t = nfkc(text).upper()
    out = []
    for m in _LATIN_WORD.finditer(nfkc(phrase)):
        w = m.group(0).upper()
        if w in t or any(x in text for x in ACRONYMS.get(w, ())):
            continue
        out.append(m.group(0))
    return out


# a difference asked ("유리전이온도보다 몇 ℃ 이상 낮은"): the value is the margin, written as one ("… 보다 15 ℃ 이상
# 낮은"), not the other quantity's own value ("유리전이온도는 100 ℃ 이상")
DIFFERENCE_ASKED = re.compile(
    r"보다\s*(?:몇|얼마)\s*\S{0,6}\s*(?:이상|이하|정도)?\s*(?:더\s*)?(?:낮|높|크|작|적|많|짧|길|얕|깊|커|길어)"
)
COMPARATIVE_AFTER = re.compile(
    r"[^.,;]{0,12}?(?:이상|이하|정도)?\s*(?:더\s*)?(?:낮|높|크|작|적|많|짧|길|얕|깊|커|길어|차이|초과하|넘)"
)
COMPARED_BEFORE = re.compile(r"(?:보다|과의\s*차|와의\s*차|차이)[^.]{0,20}$")
OPERAND_AFTER = re.compile(r"\s*(?:을|를|에|으로|로)\s*(?:뺀|더한|곱한|나눈|빼|더하|곱하|나누)")
REFERENCE_BEFORE_VALUE = re.compile(r"(식|표|그림|KDS|KCS|제)\s*\(?\s*[\d.\-\s]*$")


# -- verifier (kdsdesk.verify.verifier) --------------------------------------------------------------------------------
# "이 기준은 …", "…에 적용한다": what a standard or clause applies to (not "… 품셈을 우선 적용한다": a rule)
SCOPE_SENTENCE = re.compile(
    r"^\s*(?:\(\d+\)\s*)?이\s*기준은|적용\s*범위|에\s*(?:대하여|대해|한하여|한해)?\s*적용한다\.?$"
)
ASKS_SCOPE = re.compile(
    r"적용\s*범위|적용\s*대상|어디에\s*적용|적용(?:하|되|할|될)[가-힣]*\s*[?？]?\s*$|대상은|어떤\s*(?:조건|경우)(?:에|에서)\s*적용"
)
ASKS_POINTER = re.compile(r"어느\s*기준|어떤\s*기준|무엇에\s*따|어디에\s*따|참조|따르")
ASKS_NAME_TAIL = re.compile(r"(을|를)?\s*(무엇|뭐)\S*\s*(이라고|라고)?\s*(하|부르|말하|칭하)\S*\s*[?？]?\s*$")


# -- alignment (kdsdesk.verify.align) ----------------------------------------------------------------------------------
EXTREME_NEAR = re.compile(r"(최소|최대|하한|상한|최솟|최댓)\S*\s*(\S+)\s*$")


# -- matching (kdsdesk.text.match) -------------------------------------------------------------------------------------
ASKING_END = re.compile(r"(인가요|인가|인지|일까요|나요|까요|습니까|니까|는지|ㄴ가요|가요)$")
NEGATION_WORDS = re.compile(r"(않|없|미사용|아닌|제외)")
LIMIT_ASKED = re.compile(r"(얼마|몇\s*\S*)\s*(이하|이상|미만|초과)")  # the asked part, not a condition


# -- formulas (kdsdesk.text.formula) -----------------------------------------------------------------------------------
UPPER_WORDS = re.compile(r"상한|최대|최댓값")  # not 이하/이상: in a question those usually state a condition
LOWER_WORDS = re.compile(r"하한|최소|최솟값")


# -- conditions (kdsdesk.text.conditions) ------------------------------------------------------------------------------
BETWEEN_BOUNDS = re.compile(r"\s*(?:[을를이가]|인|이고|이며|,)?\s*$")  # what may join "a 이상" and "b 이하"
BOUND_OPERATORS = {
    "초과": ">", "넘는": ">", "넘은": ">", "넘으": ">", "넘을": ">", "넘어": ">", "넘으면": ">", "상회": ">",
    "보다크": ">", "이상": "≥", "이하": "≤", "이내": "≤", "까지": "≤", "초과하지않": "≤", "넘지않": "≤", "미만": "<",
    "보다작": "<",
}  # fmt: skip


# -- words that say nothing about what a phrase is about ("일반적으로", "해당", "다음과 같은") ---------------
# one-syllable words that join or qualify ("및", "또", "즉", "약"): not the start of the next word
CONJUNCTION_SYLLABLES = frozenset({"및", "또", "즉", "약", "단", "곧", "더"})
FILLER_WORDS = frozenset({
    "일반적으로", "일반적", "특별한", "특별히", "다음", "다음과", "같은", "해당", "각각", "모든", "기타", "위", "이",
    "그", "상기", "아래", "경우", "때", "시", "등", "및", "또는", "설계", "기준", "적용", "규정", "검토", "산정",
})  # fmt: skip


# -- terms of a question (kdsdesk.text.match) --------------------------------------------------------------------------
ASKING_TERMS = {
    "얼마", "몇", "무엇", "어떤", "어떻게", "경우", "인가요", "하나요", "나요", "있나요", "되나요", "입니까", "해야",
    "하는", "하면", "할", "때", "값은", "값", "뭐라고", "무엇이라", "이라", "부르나요", "의미", "말하나요", "무슨",
    "하", "있", "되", "말하", "부르", "해야하", "얼마로", "얼마를", "얼마나", "무엇을", "어떤가요",
}  # fmt: skip
VERB_ENDING = re.compile(
    r"(하는|하고|하며|하여|하면|하지|하거나|할|한|해|되는|되어|되면|된|될|적인|적으로|인|일|이며|이고|거나|하|되)$"
)
INTERVAL_PATTERNS = (
    # a < x ≤ b, a ≤ x < b
    re.compile(r"(?P<a>\d+(?:\.\d+)?)\s*(?P<o1><|≤|<=)\s*[^\d<>≤≥]{1,12}?\s*(?P<o2><|≤|<=)\s*(?P<b>\d+(?:\.\d+)?)"),
    # a ~ b
    re.compile(r"(?P<a>\d+(?:\.\d+)?)\s*[~〜∼～\-–]\s*(?P<b>\d+(?:\.\d+)?)"),
    # x ≤ b / x < b / b 이하 / b 미만
    re.compile(r"(?:(?P<o2><|≤|<=)\s*(?P<b>\d+(?:\.\d+)?))|(?:(?P<b2>\d+(?:\.\d+)?)\s*\S{0,6}?\s*(?P<w2>이하|미만))"),
    # x > a / x ≥ a / a 이상 / a 초과
    re.compile(r"(?:(?P<o1>>|≥|>=)\s*(?P<a>\d+(?:\.\d+)?))|(?:(?P<a2>\d+(?:\.\d+)?)\s*\S{0,6}?\s*(?P<w1>이상|초과))"),
)


# -- formula relations asked (kdsdesk.text.formula) --------------------------------------------------------------------
FORMULA_CUES: tuple[tuple[Relation, re.Pattern[str]], ...] = (
    ("coef", re.compile(r"(에|의)\s*(얼마를|어떤\s*(계수|값|수)를|몇\s*배|곱)")),
    ("div", re.compile(r"(를|을)\s*(?:얼마로|몇으로|무엇으로)?\s*나누|(를|을)\s*(?:얼마로|몇으로)\s*나눈")),
    ("term", re.compile(r"\s*항의\s*(상수|계수)")),
)


# -- a bound asked by a sign before the question mark ("조건식 … ≤ ?") ---------------------------------------------
SIGN_ASKED = re.compile(r"([≤<≥>⩽⩾])\s*[?？]")
# a question that asks what is not allowed ("어디에 쓰면 안 되나요", "두면 안 되는 위치는")
PROHIBITION_ASKED = re.compile(
    r"(쓰면|사용하면|두면|하면|설치하면|적용하면|배치하면|놓으면)\s*안\s*되|해서는\s*안|하여서는\s*안|금지(되|하|된)|"
    r"(사용|적용|설치|배치)할\s*수\s*없는|안\s*되는\s*(곳|위치|경우|구간)"
)
# a sentence that forbids
PROHIBITION_STATED = re.compile(
    r"할\s*수\s*없|수\s*없다|수\s*없으며|금한다|금지|아니\s*된다|안\s*된다|해서는|하여서는|지\s*않아야|"
    r"지\s*않도록|아니\s*하여야|아니한다|사용하지\s*않"
)
# a question that asks a total ("모두 몇 점", "총 몇 개"), and a value given per item ("각 2점씩")
TOTAL_ASKED = re.compile(r"(모두|총|전체|합계|합쳐서|통틀어)\s*(몇|얼마)")
PER_ITEM_AFTER = re.compile(r"\s*[^\s\d]{0,4}?씩")
# a parenthesis after a value that gives another value for a case of its own ("1,000 m2(스프링클러 설치 시
# 2,000 m2)"): its case is not the value's
ALTERNATIVE_IN_PARENS = re.compile(r"^(?=.*\d)(.*?(?:경우|때|(?<=[가-힣])\s*시)(?:에는|에|는)?)\s*(?=.*\d)")
_PARENS_AFTER = re.compile(r"\s*\(([^()]{2,60})\)")


def cases_in_parens_after(text: str, pos: int) -> tuple[str, str]:
    """The case a parenthesis right after a value states ("＝ 2.0 (미건조제재목)") and the case of another value it
    gives instead ("1,000 m2(… 설치 시 2,000 m2)"); "" for either that is not there (a case is at most 40 long)."""
    m = _PARENS_AFTER.match(text, pos)
    if m is None or not re.search(r"[가-힣]{2,}", m.group(1)):
        return "", ""
    alt = ALTERNATIVE_IN_PARENS.match(m.group(1))
    if alt:
        return "", alt.group(1).strip()
    return (m.group(1).strip() if len(m.group(1)) <= 40 else ""), ""


# an aside that can state a case: words with a verb or modifier form, no reference or list
ASIDE_CASE = re.compile(
    r"(?!(?:표|그림|식|KDS|KCS)\s*[\d.])(?=\S+\s+\S)[^,]*[가-힣](?:는|은|된|한|인|의|\s?전|\s?후|\s?시|\s?중)(?:\s+[^,]*)?"
)
# words that name the end of a range asked, not a modifier of the quantity
EXTREME_NOUNS = frozenset({
    "최소", "최대", "상한", "하한", "최솟값", "최댓값", "상한값", "하한값", "최저", "최고", "한도",
})  # fmt: skip
# a class named by its number: "등급 2", "Type 3", "1종", "2차로" (not a measure: "높이 3 m")
DESIGNATION_BEFORE_NUMBER = r"등급|Type|TYPE|타입|유형|종별|구분|단계|class|Class"
DESIGNATION_AFTER_NUMBER = r"종(?!류)|급|차로|등급|단계|형(?!식)|호|층|차(?=\s|$)"
# a sentence that introduces a list, the answer being its items ("다음과 같은 노선으로 한다", "3단계로 구분한다")
LIST_LEAD = re.compile(
    r"(다음|아래)\s*(과|와)?\s*같|다음\s*(각|의)\s|다음\s*사항|(단계|종류|가지)로\s*구분한다|[:：]\s*$"
)
# a question asking what is exempt, and a sentence that exempts
EXEMPTION_ASKED = re.compile(r"않아도\s*(되|됩|괜찮)|생략(할|해도)|면제|예외|제외(되|할\s*수|해도)|안\s*해도")
EXEMPTION_STATED = re.compile(r"다만|단\s*,|그러하지\s*아니|제외|예외|않아도|생략할\s*수|아니할\s*수|면제")
# a head that names a factor, ratio or exponent (dimensionless unless the question gives a unit)
FACTOR_HEAD = re.compile(r"(계수|상수|지수|승수|비|비율|율|률|배율)$")
# a value written as what is desirable, and a question asking for that
RECOMMENDED_AFTER = re.compile(r"\s*\S{0,6}?\s*(?:이상|이하|미만|초과|이내)?\s*(?:이|가|으로|로)?\s*(?:바람직|권장)")
RECOMMENDED_ASKED = re.compile(r"바람직|권장|추천")
# an extreme written right before a value ("최소 5 m")
EXTREME_RIGHT_BEFORE = re.compile(r"(최소|최대|하한|상한|최솟값|최댓값)\s*(?:값은?\s*)?$")


def extreme_of(word: str) -> str:
    """"min" or "max" for an extreme word or its stem ("최솟" of 최솟값), "" for another word."""
    return next((e for w, e in EXTREME_WORDS if w.startswith(word) or word.startswith(w)), "")


# a quantity named by an action and a measure ("이격거리", "매입깊이", "정착길이"): the action's stem
VERBAL_HEAD = re.compile(r"^([가-힣]{2,})(?:거리|길이|깊이|간격|두께|높이|폭)$")
# the noun right after a value and its unit ("50 m 간격으로", "2 m 폭의")
NOUN_RIGHT_AFTER = re.compile(
    rf"\s*(?:{UNIT_ALT})?\s*(?:이상|이하|이내|미만|초과|정도|가량|내외)?\s*(?:의\s*)?([가-힣]{{1,8}}?)"
    r"(?:으로|로|을|를|이|가|은|는|의|에)?(?=[\s,.]|$)"
)
# a parenthesis with Hangul inside a question is an aside ("표면(받침 거치면 제외)의 경사")
HANGUL_ASIDE = re.compile(r"\s*\((?=[^()]*[가-힣])[^()]*\)")
# an arithmetic operation the question asks about ("…에서 뺀 값", "곱한 값")
OPERATION_ASKED = re.compile(r"빼|뺀|더하|더한|곱하|곱한|나누|나눈")
# a word negated right after it ("…이 아닌", "제외한")
NEGATED_AFTER = r"\S*\s*(아닌|않는|제외|없는)"
