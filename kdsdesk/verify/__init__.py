"""Verify stage, independent of ``answer``: whatever the answerer claims is read again from the quoted evidence —
the quote lies in the chunk it cites (and where on the page), the value, unit, subject, conditions and bound are
the quote's — and the policy turns the checks into confirmed, warning or restricted.
"""
