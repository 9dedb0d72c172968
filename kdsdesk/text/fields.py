"""The fields of the Korean construction standards (KDS/KCS 분류): the code's first two digits name the field
("KDS 24 14 21" → 24 교량). Used to group a large library and to let a question's domain words point to a field.

Pure data and functions on strings.
"""

from __future__ import annotations

import re

# the field number (first two digits of the code) → its Korean name (국가건설기준 코드 체계)
FIELD_NAMES: dict[str, str] = {
    "10": "공통", "11": "지반", "12": "건설측량", "14": "구조", "17": "내진", "21": "가설", "24": "교량",
    "27": "터널", "29": "공동구", "31": "설비", "32": "전기", "33": "정보통신", "34": "조경", "41": "건축",
    "42": "소규모건축", "43": "건축(특수구조)", "44": "도로", "47": "철도", "51": "하천", "54": "댐",
    "57": "상수도", "61": "하수도", "64": "항만", "67": "농업생산기반",
}  # fmt: skip
OTHER = ("", "기타")
_CODE = re.compile(r"(?:KDS|KCS|예시)\s*(\d{2})\s*\d{2}\s*\d{2}", re.IGNORECASE)


def field_of(doc_code: str) -> tuple[str, str]:
    """``("24", "교량")`` for ``"KDS 24 14 21"``; ``("", "기타")`` for a code outside the table or no code."""
    m = _CODE.search(doc_code or "")
    if m is None:
        return OTHER
    num = m.group(1)
    return (num, FIELD_NAMES[num]) if num in FIELD_NAMES else (num, f"분야 {num}")


def field_label(doc_code: str) -> str:
    """``"24 교량"`` (or ``"기타"``): how the library panel names a field."""
    num, name = field_of(doc_code)
    return f"{num} {name}" if num else name
