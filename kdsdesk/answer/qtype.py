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
_UNIT_ASKED = re.compile(rf"몇\s*({_UNIT_ALT})(?![A-Za-z])")
_UNIT_PAREN = re.compile(rf"\(\s*({_UNIT_ALT})\s*\)")

_DEFINITION = re.compile(
    r"(이란|[가-힣]란\s|[가-힣]란\?|정의|무엇이라|뭐라고|뭐라\s|이라고\s*(하|부르)|라고\s*(하|부르)|라\s*하나요|"
    r"어떤\s*의미|무슨\s*뜻|의\s*뜻|무엇을\s*말하|어떤\s*\S+[을를]\s*말하나요|[을를]\s*말하나요|[은는]\s*어떤\s*[가-힣]+인가요)"
)
_INVERSE = re.compile(r"(무엇이라|뭐라고|뭐라\s|이라고\s*(하|부르)|라고\s*(하|부르)|라\s*하나요)")
_VALUE = re.compile(
    r"(얼마|몇\s|몇[가-힣A-Za-z%°]|최댓값|최솟값|상한(값|은|는)|하한(값|은|는)|계수(는|가|를)\s*[?？]?$|값(은|는)\s*[?？]?$|"
    r"비율(은|는)|간격\s*한도|한도(는|은)|(최대|최소)\s*[가-힣]*\s*(는|은)\s*[?？]?$)"
)
_REGULATION = re.compile(
    r"(어떻게|무엇을\s*해야|어떤\s*조치|어떤\s*\S+(으로|로|에만|을|를)\s|어떤\s*식|어떤\s*접합|원칙|해야\s*하나요)"
)
_CONDITION = re.compile(
    r"(인\s*경우|한\s*경우|는\s*경우|일\s*때|할\s*때|쓸\s*때|[을를]?\s*때|[가-힣](으)?면\s|이고\s|에서\s)"
)
_LE = re.compile(r"(이하|미만|넘지\s*않|초과하지\s*않|≤|<=|<)")
_GT = re.compile(r"(초과|넘는|넘으면|넘을|넘어|이상인|>|≥|>=)")


@dataclass(frozen=True, slots=True)
class QuestionInfo:
    """What the rules read from a question."""

    qtype: QType
    unit: str = ""  # the unit asked for, "" when none
    comparison: Comparison = ""
    asks_term: bool = False  # inverse definition: the question describes, the answer is the term


def unit_asked(question: str) -> str:
    q = unicodedata.normalize("NFC", question)
    m = _UNIT_ASKED.search(q) or _UNIT_PAREN.search(q)
    if not m:
        return ""
    u = m.group(1)
    return {"도": "°", "℃": "°C", "kN/m2": "kN/m²", "kN/m3": "kN/m³", "mm2": "mm²", "N/mm2": "N/mm²"}.get(u, u)


def classify(question: str) -> QuestionInfo:
    """Type of a single-intent question and what it asks (see the module docstring)."""
    q = " ".join(question.split())
    unit = unit_asked(q)
    comparison: Comparison = "le" if _LE.search(q) else ("gt" if _GT.search(q) else "")
    if _DEFINITION.search(q) and not unit and not re.search(r"얼마|몇", q):
        return QuestionInfo("definition", asks_term=bool(_INVERSE.search(q)))
    if unit or _VALUE.search(q):
        qtype: QType = "conditional" if _CONDITION.search(q + " ") else "numeric"
        return QuestionInfo(qtype, unit=unit, comparison=comparison)
    if _REGULATION.search(q):
        return QuestionInfo("regulation", comparison=comparison)
    return QuestionInfo("regulation", comparison=comparison)
