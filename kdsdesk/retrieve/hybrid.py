"""Search: BM25 candidates, dense candidates fused by RRF where vectors exist, then the routes.

Skeleton — the lexical-retrieval issue fills this in.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from kdsdesk.records import Hit

if TYPE_CHECKING:
    from kdsdesk.index.library import Catalog


def search(
    catalog: Catalog, query: str, k: int = 20, doc_codes: Sequence[str] | None = None, dense: bool = True
) -> list[Hit]:
    raise NotImplementedError
