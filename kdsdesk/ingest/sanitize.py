"""Every text leaves the parsers valid: lone surrogates (a crafted ToUnicode map can yield U+D800), the
non-characters U+FFFE/U+FFFF and NUL are replaced by U+FFFD, one code point for one, so every offset and span
stays where it was. ``clean_parsed`` is applied once, at the parser boundary (``dispatch.parse_file``); nothing
downstream (tokeniser, SQLite, Tantivy, JSON output) then meets a string it cannot encode.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from typing import TypeVar

from kdsdesk.records import Block, DocRef, ParsedDoc, Table, UnreadableRegion

_BAD = re.compile("[\x00\ud800-\udfff\ufffe\uffff]")
REPLACEMENT = "\ufffd"
T = TypeVar("T")


def clean_text(text: str) -> str:
    """``text`` with every invalid code point replaced by U+FFFD (same length)."""
    return _BAD.sub(REPLACEMENT, text) if _BAD.search(text) else text


def _clean_fields(obj: T) -> T:
    """A dataclass with its ``str`` and ``tuple[str, ...]`` fields cleaned (the same object when nothing changes)."""
    changes: dict[str, object] = {}
    for f in dataclasses.fields(obj):  # type: ignore[arg-type]
        if not f.init:
            continue
        value = getattr(obj, f.name)
        if isinstance(value, str):
            new: object = clean_text(value)
        elif isinstance(value, tuple) and value and all(isinstance(v, str) for v in value):
            new = tuple(clean_text(v) for v in value)
        else:
            continue
        if new != value:
            changes[f.name] = new
    return dataclasses.replace(obj, **changes) if changes else obj  # type: ignore[type-var]


def _clean_table(table: Table) -> Table:
    cells = tuple(_clean_fields(c) for c in table.cells)
    out = _clean_fields(table)
    if any(a is not b for a, b in zip(cells, table.cells, strict=True)):
        out = dataclasses.replace(out, cells=cells)
    return out


def _clean_block(block: Block) -> Block:
    out = _clean_fields(block)
    if block.table is not None:
        table = _clean_table(block.table)
        if table is not block.table:
            out = dataclasses.replace(out, table=table)
    return out


def _clean_labels(labels: Mapping[int, str]) -> Mapping[int, str]:
    return {k: clean_text(v) for k, v in labels.items()}


def clean_parsed(parsed: ParsedDoc) -> ParsedDoc:
    """``parsed`` with every text valid (see the module docstring); unchanged documents are returned as they are."""
    doc: DocRef = _clean_fields(parsed.doc)
    blocks = tuple(_clean_block(b) for b in parsed.blocks)
    unreadable: tuple[UnreadableRegion, ...] = tuple(_clean_fields(u) for u in parsed.unreadable)
    labels = _clean_labels(parsed.page_labels)
    same = (
        doc is parsed.doc
        and all(a is b for a, b in zip(blocks, parsed.blocks, strict=True))
        and all(a is b for a, b in zip(unreadable, parsed.unreadable, strict=True))
        and labels == dict(parsed.page_labels)
    )
    if same:
        return parsed
    return dataclasses.replace(parsed, doc=doc, blocks=blocks, unreadable=unreadable, page_labels=labels)



