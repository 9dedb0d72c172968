"""Retrieve stage: a question → ranked ``Hit``s. BM25 candidates from the lexical index, dense candidates fused by
reciprocal rank fusion where vectors exist, then routes (symbols, table titles and rows, table and clause numbers,
a standard's code, editions) that move hits forward without removing any. Entry point: ``hybrid.search_stages``.
"""
