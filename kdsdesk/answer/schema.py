"""The answer JSON per question type, its strict validation, and the typed ``Draft`` both answerers produce.

Every string has a ``maxLength`` and every array a ``maxItems`` (llama.cpp grammars otherwise allow runaway
output). Evidence is cited as ``{"item": N, "quote": "…"}`` where N numbers the evidence items of the prompt;
the pipeline maps items back to chunk ids. Anything a model emits goes through :func:`validate` — unknown keys,
wrong types, over-long strings and out-of-range items are errors, never silently fixed.
"""

from __future__ import annotations

from typing import Any

from kdsdesk.records import Alternative, Draft, Evidence, QType

__all__ = ["Draft", "Evidence", "SchemaError", "draft_from_json", "schema_for", "validate"]

MAX_ITEMS = 12  # evidence items in a prompt


class SchemaError(ValueError):
    """Model output that does not follow the schema."""


def _s(n: int) -> dict[str, Any]:
    return {"type": "string", "maxLength": n}


def _evidence(n_items: int) -> dict[str, Any]:
    return {
        "type": "array",
        "maxItems": 3,
        "items": {
            "type": "object",
            "properties": {"item": {"type": "integer", "minimum": 1, "maximum": max(1, n_items)}, "quote": _s(200)},
            "required": ["item", "quote"],
            "additionalProperties": False,
        },
    }


def schema_for(qtype: QType, n_items: int = MAX_ITEMS) -> dict[str, Any]:
    """The JSON schema the model's output must follow for ``qtype``."""
    props: dict[str, Any]
    if qtype in ("numeric", "conditional"):
        props = {"value": _s(40), "unit": _s(16), "condition": _s(120)}
        if qtype == "conditional":
            props["alternatives"] = {
                "type": "array",
                "maxItems": 4,
                "items": {
                    "type": "object",
                    "properties": {"condition": _s(120), "value": _s(40), "unit": _s(16)},
                    "required": ["condition", "value", "unit"],
                    "additionalProperties": False,
                },
            }
    elif qtype == "regulation":
        props = {"requirements": {"type": "array", "maxItems": 3, "items": _s(200)}}
    else:
        props = {"term": _s(40), "definition": _s(300)}
    props["evidence"] = _evidence(n_items)
    return {"type": "object", "properties": props, "required": list(props), "additionalProperties": False}


def validate(obj: Any, schema: dict[str, Any], path: str = "$") -> None:
    """Strict validation of the subset of JSON Schema used here; raises :class:`SchemaError`."""
    t = schema.get("type")
    if t == "object":
        if not isinstance(obj, dict):
            raise SchemaError(f"{path}: object expected")
        props: dict[str, Any] = schema.get("properties", {})
        for k in schema.get("required", []):
            if k not in obj:
                raise SchemaError(f"{path}: missing {k}")
        for k, v in obj.items():
            if k not in props:
                raise SchemaError(f"{path}: unknown key {k!r}")
            validate(v, props[k], f"{path}.{k}")
    elif t == "array":
        if not isinstance(obj, list):
            raise SchemaError(f"{path}: array expected")
        if len(obj) > schema.get("maxItems", 1 << 30):
            raise SchemaError(f"{path}: too many items")
        for i, v in enumerate(obj):
            validate(v, schema["items"], f"{path}[{i}]")
    elif t == "string":
        if not isinstance(obj, str):
            raise SchemaError(f"{path}: string expected")
        if len(obj) > schema.get("maxLength", 1 << 30):
            raise SchemaError(f"{path}: string too long")
    elif t == "integer":
        if not isinstance(obj, int) or isinstance(obj, bool):
            raise SchemaError(f"{path}: integer expected")
        if not schema.get("minimum", -(1 << 62)) <= obj <= schema.get("maximum", 1 << 62):
            raise SchemaError(f"{path}: integer out of range")
    else:
        raise SchemaError(f"{path}: unsupported schema type {t!r}")


def draft_from_json(obj: Any, qtype: QType, item_chunks: list[str]) -> Draft:
    """Validate model output and turn it into a :class:`Draft` (items → chunk ids)."""
    validate(obj, schema_for(qtype, len(item_chunks)))
    ev = tuple(
        Evidence(item_chunks[e["item"] - 1], e["quote"]) for e in obj["evidence"] if 1 <= e["item"] <= len(item_chunks)
    )
    if qtype in ("numeric", "conditional"):
        alts = tuple(Alternative(a["condition"], a["value"], a["unit"]) for a in obj.get("alternatives", []))
        return Draft(
            qtype, value=obj["value"].strip(), unit=obj["unit"].strip(), condition=obj["condition"].strip(),
            alternatives=alts, evidence=ev,
        )  # fmt: skip
    if qtype == "regulation":
        reqs = tuple(r.strip() for r in obj["requirements"] if r.strip())
        return Draft(qtype, requirements=reqs, evidence=ev)
    return Draft(qtype, term=obj["term"].strip(), definition=obj["definition"].strip(), evidence=ev)
