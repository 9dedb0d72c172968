"""Model files (the dense encoder, the local LLM): ``manifest`` (what files the app may use: ``models/manifest.json``
and its records), ``check`` (are they there, whole, and is there memory for them; what still works without them —
``kdsdesk doctor``, the self-test and the window's status) and ``runtime`` (loading the LLM engine's CPU backends).
Below the stages: imports only paths, errors and ``kdsdesk.hashing``.
"""
