"""Ingestion: HWPX (OWPML) and HWP-exported PDF files → ``ParsedDoc`` (blocks with provenance).

Entry point: ``kdsdesk.ingest.dispatch.parse_file``. Heavy engines are imported inside the parsers.
"""
