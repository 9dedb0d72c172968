"""Question types by rules: single value, conditional value, requirement, definition — and what the question asks.

Rules first (the answer shape depends on them; the LLM only fills the shape):
- definition: "~이란", "~란 무엇", "정의", "무엇이라고 하나요", "뭐라고 부르나요", "어떤 의미", "~을 말하나요";
- value (numeric): "얼마", "몇", a unit asked for ("몇 mm", "몇 %", "몇 배"), "최대/최소/상한/하한 … 는?",
  "계수는", "값은";
- conditional: a value question that also states a condition ("~인 경우", "~일 때", "~(으)면", "~에서");
- regulation: anything else ("어떻게 해야", "무엇을 해야", "어떤 조치", "어떤 … 으로 설계").

``classify`` also returns the unit asked for (``"mm"``, ``"%"``, ``"배"``), the comparison the question states
(``le``: 이하/미만/넘지 않는, ``gt``: 초과/넘는/이상) and whether the question asks for the term (inverse
definition: "… 을 무엇이라고 하나요").
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Literal

from kdsdesk.records import QType

Comparison = Literal["", "le", "gt"]

UNITS = (
    "kN/m²", "kN/m³", "kN/m2", "kN/m3", "N/mm²", "N/mm2", "kN·m", "kNm", "kN/m", "MPa", "GPa", "kPa", "kN", "mm²",
    "mm2", "mm", "cm", "m/h", "m/s", "m²", "m", "%", "°C", "℃", "°", "배", "도", "개", "년", "일", "시간", "분", "회",
)  # fmt: skip

_UNIT_ALT = "|".join(re.escape(u) for u in sorted(UNITS, key=len, reverse=True))
# "몇 분의 몇" asks for a fraction, not minutes
_UNIT_ASKED = re.compile(rf"몇\s*({_UNIT_ALT}|퍼센트|프로)(?![A-Za-z])(?!\s*의\s*몇)")
_UNIT_PAREN = re.compile(rf"\(\s*({_UNIT_ALT})\s*\)")
# a telegraphic question ending on a unit written in Latin letters or signs: "연결부 설계강도 하한 kN"
_UNIT_FINAL = re.compile(rf"(?<=[^\d.\s]\s)({_UNIT_ALT})\s*[?？]?$(?<![가-힣])")

_DEFINITION = re.compile(
    r"(이란|[가-힣]란\s|[가-힣]란\?|정의|무엇이라|뭐라고|뭐라\s|이라고\s*(하|부르)|라고\s*(하|부르)|라\s*하나요|"
    r"어떤\s*의미|무슨\s*뜻|의\s*뜻|\s뜻\s*[?？]?$|무엇을\s*말하|어떤\s*\S+[을를]\s*말하나요|[을를]\s*말하나요|[은는]\s*어떤\s*[가-힣]+인가요)"
)
_INVERSE = re.compile(r"(무엇이라|뭐라고|뭐라\s|이라고\s*(하|부르)|라고\s*(하|부르)|라\s*하나요)")
_VALUE = re.compile(
    r"(얼마|몇\s|몇[가-힣A-Za-z%°]|최댓값|최솟값|상한(값|은|는)|하한(값|은|는)|계수(는|가|를)\s*[?？]?$|값(은|는)\s*[?？]?$|"
    r"비율(은|는)|간격\s*한도|한도(는|은)|(최대|최소)\s*[가-힣]*\s*(는|은)\s*[?？]?$|"
    r"(강도|계수|(포아송|세장|두께|철근|면적|경간|폭)비|두께|간격|지름|직경|길이|거리|높이|깊이|하중|응력)\s*(\(?[A-Za-zφ-ω][\w′']*\)?\s*)?"
    r"(는|은)\s*[?？]?$|"
    r"(최소|최대|최솟|최댓|하한|상한|허용|기준)\s*값|"
    r"(계수|장력|강도|두께|간격|지름|직경|길이|거리|하중|[가-힣]율|[가-힣]률|중량|처짐)\s*(은|는)?\s*[?？]?$)"
)  # the last lines: a quantity named at the end ("… 항복강도 Fy는?", "… 포아송비는?")
_REGULATION = re.compile(
    r"(어떻게|무엇을\s*해야|어떤\s*조치|어떤\s*\S+(으로|로|에만|을|를)\s|어떤\s*식|어떤\s*접합|원칙|해야\s*하나요)"
)
_CONDITION = re.compile(
    r"([가-힣]\s*시\s|인\s*경우|한\s*경우|는\s*경우|일\s*때|할\s*때|쓸\s*때|[을를]?\s*때|[가-힣](으)?면\s|이고\s|에서\s)"
)
_LE = re.compile(r"(이하|미만|넘지\s*않|초과하지\s*않|≤|<=|<)")
_GT = re.compile(r"(초과|넘는|넘으면|넘을|넘어|이상인|>|≥|>=)")


# Telegraphic questions name the quantity (and its bound) with no question word: "거푸집 자중 하한값",
# "M24 볼트 표준구멍 지름", "강관 외경 하한", "B급 마감 절대처짐 허용값". The last word decides: a quantity noun,
# optionally followed by a bound word; synonyms (외경/내경/구경, 한계/허용값, 크기/치수) count alike.
_QUANTITY_NOUN = (
    r"(계수|강도|응력|장력|하중|측압|압력|두께|간격|지름|직경|외경|내경|구경|길이|거리|폭|높이|깊이|치수|크기|"
    r"사이즈|처짐|중량|단위중량|자중|[가-힣]율|[가-힣]률|비율|각도|경사각|온도|면적|단면적|철근량|비|φ|λ|θ|"
    r"[A-Za-zα-ωΑ-Ω](_?\{?[A-Za-z0-9]+\}?)?)"
)
_BOUND_WORD = (
    r"(최솟값|최댓값|최소값|최대값|최소치|최대치|하한값?|상한값?|한도|한곗값|한계값?|허용값|허용치|제한값?|기준값|"
    r"값|최소|최대|수치)"
)
_TELEGRAPHIC_VALUE = re.compile(
    rf"(?<![가-힣])[가-힣A-Za-z0-9_]*{_QUANTITY_NOUN}(\s*{_BOUND_WORD})?\s*[?？]?$|{_BOUND_WORD}\s*[?？]?$"
)
_TAIL_PAREN = re.compile(r"\s*\([^()]*\)\s*[?？]?$")


def _strip_tail(q: str) -> str:
    """The question without a trailing parenthetical remark ("… 단위중량 (연직하중 산정)")."""
    return _TAIL_PAREN.sub("", q).strip()


@dataclass(frozen=True, slots=True)
class QuestionInfo:
    """What the rules read from a question."""

    qtype: QType
    unit: str = ""  # the unit asked for, "" when none
    comparison: Comparison = ""
    asks_term: bool = False  # inverse definition: the question describes, the answer is the term


def unit_asked(question: str) -> str:
    q = unicodedata.normalize("NFC", question)
    m = _UNIT_ASKED.search(q) or _UNIT_PAREN.search(q) or _UNIT_FINAL.search(q)
    if not m:
        return ""
    u = m.group(1)
    spelled = {"퍼센트": "%", "프로": "%", "도": "°", "℃": "°C"}
    return {**spelled, "kN/m2": "kN/m²", "kN/m3": "kN/m³", "mm2": "mm²", "N/mm2": "N/mm²"}.get(u, u)


def classify(question: str) -> QuestionInfo:
    """Type of a single-intent question and what it asks (see the module docstring)."""
    q = " ".join(question.split())
    unit = unit_asked(q)
    comparison: Comparison = "le" if _LE.search(q) else ("gt" if _GT.search(q) else "")
    if _DEFINITION.search(q) and not unit and not re.search(r"얼마|몇", q):
        return QuestionInfo("definition", asks_term=bool(_INVERSE.search(q)))
    if unit or _VALUE.search(q) or (" " in q and _TELEGRAPHIC_VALUE.search(_strip_tail(q))):
        qtype: QType = "conditional" if _CONDITION.search(q + " ") else "numeric"
        return QuestionInfo(qtype, unit=unit, comparison=comparison)
    if _REGULATION.search(q):
        return QuestionInfo("regulation", comparison=comparison)
    return QuestionInfo("regulation", comparison=comparison)


# -- the quantity a value question asks for, and units that cannot be it -----------------------------------------
# The head noun of a Korean noun phrase comes last ("추가 측압 비율" is a ratio; "강도감소계수" a factor), so the
# LAST quantity noun of the question names what is asked. A factor/ratio-of-two word ends the search unconstrained.
_QUANTITY = re.compile(
    r"(계수|배율|계수값|비|배|비율|백분율|할증률|[가-힣]율|[가-힣]률|속도|강도|응력|하중|측압|압력|"
    r"두께|간격|길이|거리|폭|지름|직경|외경|내경|바깥지름|깊이|높이|피복|치수|사이즈|온도|기간|시간|각도)(?=[은는이가을를의도만과와]|\s|\?|$)"
)
_DIMENSION_OF_NOUN = {
    "비율": "ratio", "백분율": "ratio", "할증률": "ratio",
    "속도": "speed",
    "강도": "stress", "응력": "stress",
    "하중": "force", "측압": "force", "압력": "force",
    "두께": "length", "간격": "length", "길이": "length", "거리": "length", "폭": "length", "지름": "length",
    "직경": "length",
    "외경": "length", "내경": "length", "바깥지름": "length",
    "깊이": "length", "높이": "length", "피복": "length", "치수": "length", "사이즈": "length",
    "온도": "temperature",
}  # fmt: skip
_UNIT_DIMENSION = (
    (re.compile(r"^%$"), "ratio"),
    (re.compile(r"/(h|s|min|hr|초|분|시간)$"), "speed"),
    (re.compile(r"^(MPa|GPa|kPa|N/mm[²2])$"), "stress"),
    (re.compile(r"^(kN|N|MN|kN/m|kN/m[²2³3]|kN·m|kNm|kPa|MPa)$"), "force"),
    (re.compile(r"^(mm|cm|m|km)$"), "length"),
    (re.compile(r"^(°C|℃)$"), "temperature"),
    (re.compile(r"^(개|본|회|EA|ea)$"), "count"),
)
_MULTIPLIER = re.compile(r"곱하|곱한|곱해|나누|나눈|상수|지수|승수")
_UNIT_IN_VALUE = re.compile(rf"\d\s*({_UNIT_ALT})(?![A-Za-z])")


def asked_dimension(question: str) -> str:
    """The dimension of the quantity asked ("ratio", "speed", "stress", "force", "length", "temperature"), or ""."""
    nouns = [m.group(1) for m in _QUANTITY.finditer(unicodedata.normalize("NFC", question))]
    if not nouns:
        return ""
    last = nouns[-1]
    if last.endswith(("율", "률")) and last not in _DIMENSION_OF_NOUN:
        return "ratio"
    return _DIMENSION_OF_NOUN.get(last, "")


def unit_dimension(unit: str) -> str:
    u = unit.strip()
    for pattern, dim in _UNIT_DIMENSION:
        if pattern.search(u):
            return dim
    return ""


def dimension_conflict(question: str, value: str, unit: str) -> bool:
    """True when the answer's unit cannot measure what the question asks (a speed given for a ratio, a unitless
    factor for a strength). Unknown units and unitless values (units often sit in table headers) never conflict,
    except for strengths, stresses and lengths, which are never unitless."""
    asked = asked_dimension(question)
    if not asked or unit_asked(question) or _MULTIPLIER.search(question):
        return False  # a unit named in the question ("몇 %") governs; a multiplier of a formula has none
    if not unit.strip():
        m = _UNIT_IN_VALUE.search(value)
        unit = m.group(1) if m else ""
    dim = unit_dimension(unit)
    if not unit.strip():
        return asked in ("stress", "length") and bool(re.search(r"\d", value))
    if asked == "force" and dim == "stress":
        return False  # pressures (측압, 압력) are written in kPa/MPa too
    return bool(dim) and dim != asked
