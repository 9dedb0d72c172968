"""Index stage: the library folder on disk — the catalog (SQLite: files, versions, failures, chunks), the lexical
index (Tantivy over Kiwi morphemes and symbol tokens), dense vectors (BGE-M3 through ONNX Runtime) and index packs.

Entry points: ``indexer.add_files`` (expand, skip unchanged, parse in a worker, chunk, tokenise, write) and
``library.Catalog``. Crash-safe: a killed run loses at most the file in progress.
"""
