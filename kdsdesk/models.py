"""Model files: the manifest, size/hash checks and what still works when a model is missing (stub)."""
