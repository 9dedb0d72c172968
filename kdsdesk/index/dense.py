"""Dense vectors (stub until the dense-retrieval issue lands): no model → no dense candidates."""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING

from kdsdesk.records import Hit, Progress

if TYPE_CHECKING:
    from kdsdesk.index.library import Catalog


def dense_search(catalog: Catalog, query: str, n: int = 50) -> list[Hit]:
    """Top ``n`` chunks by cosine similarity among chunks that have vectors; [] when no encoder or vectors."""
    return []


def encode_pending(catalog: Catalog, threads: int = 2) -> Generator[Progress, None, int]:
    """Encode chunks without vectors, checkpointing as it goes. Returns how many were encoded."""
    return 0
    yield  # pragma: no cover
