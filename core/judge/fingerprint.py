"""The identity of a judged response: reviews and judgments are joined on (question id, response fingerprint),
so a review of one response is never applied to another response to the same question."""

from __future__ import annotations

import hashlib
import unicodedata


def response_fingerprint(text: str) -> str:
    """sha256 of the response, NFC-normalised and with whitespace runs folded, first 16 hex digits.

    NFC: the same text typed or pasted differently has one fingerprint; folded whitespace: a re-saved file may
    change line ends or indentation without changing what was judged.
    """
    folded = " ".join(unicodedata.normalize("NFC", str(text or "")).split())
    return hashlib.sha256(folded.encode("utf-8", "surrogatepass")).hexdigest()[:16]
