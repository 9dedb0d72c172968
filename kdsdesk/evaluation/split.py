"""The development/validation split of a question set, by standard.

Every question belongs to the half of its standard: ``split_of("KDS 14 20 22")`` is ``"dev"`` or ``"val"``,
fixed for ever by a hash of the normalised code (letters and digits only, upper case, any ``: 2021`` year cut), so
"KDS 14 20 22", "kds142022" and "KDS 14 20 22 : 2022" fall in the same half and adding questions or standards
never moves an old one. A question whose answer is in no standard (gold ``doc`` empty) is split by a hash of its
``id`` instead. Rules are developed on the ``dev`` half only; the ``val`` half is what gets reported.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from typing import Any, Literal

Split = Literal["dev", "val"]
SPLITS: tuple[Split, ...] = ("dev", "val")
_WORD = re.compile(r"[A-Z]+|\d+")


def normalise_code(doc_code: str) -> str:
    """``"KDS 14 20 22 : 2022"`` → ``"KDS142022"`` (the part before a year separator; letters and digits)."""
    return "".join(_WORD.findall(doc_code.split(":", 1)[0].upper()))


def _half(key: str) -> Split:
    return "dev" if int(hashlib.sha256(key.encode("utf-8")).hexdigest()[:8], 16) % 2 == 0 else "val"


def _spaced(code: str) -> str:
    """``"KDS142022"`` → ``"KDS 14 20 22"`` (the form the halves were first drawn with)."""
    m = re.fullmatch(r"([A-Z]+)(\d+)", code)
    if not m:
        return code
    digits = m.group(2)
    return " ".join([m.group(1), *(digits[i : i + 2] for i in range(0, len(digits), 2))])


def split_of(doc_code: str) -> Split:
    """The half a standard's questions belong to (deterministic; see the module docstring)."""
    return _half(_spaced(normalise_code(doc_code)))


def item_split(item: Mapping[str, Any]) -> Split:
    """The half of one question item: by its standard ``doc``, or by its ``id`` when it has no standard."""
    code = normalise_code(str(item.get("doc") or ""))
    return _half(_spaced(code)) if code else _half(str(item.get("id", item.get("question", ""))))


def select(items: list[dict[str, Any]], split: str) -> list[dict[str, Any]]:
    """The items of ``split`` (``"dev"``, ``"val"``; ``"all"`` keeps every item)."""
    if split == "all":
        return list(items)
    if split not in SPLITS:
        raise ValueError(f"unknown split {split!r}")
    return [i for i in items if item_split(i) == split]
