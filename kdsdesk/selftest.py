"""``kdsdesk --selftest``: headless end-to-end check on the bundled samples (stub)."""
