"""The identity of a judged response: reviews and judgments are joined on (question id, response fingerprint),
so a review of one response is never applied to another response to the same question."""

from __future__ import annotations

import hashlib
import unicodedata


def response_fingerprint(text: str) -> str:
    """sha256 of the NFC-normalised response, first 16 hex digits (NFC: the same text typed or pasted differently
    has one fingerprint)."""
    return hashlib.sha256(unicodedata.normalize("NFC", text or "").encode("utf-8")).hexdigest()[:16]
