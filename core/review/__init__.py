"""People's reviews of the judge: the review record and file (`model`, `io`), reviews joined to the judgments
they reviewed (`join`), agreement between judge and people (`stats`, `agreement`), and scores with people's
verdicts in place of the judge's (`apply`). Imports nothing heavy: numpy only inside the statistics."""

from mathreel.core.review.io import (
    merge_reviews,
    read_many,
    read_reviews,
    reviews_from_text,
    reviews_to_text,
    write_reviews,
)
from mathreel.core.review.model import FLAGS, VERDICTS, Review, review_from_dict

__all__ = [
    "FLAGS",
    "VERDICTS",
    "Review",
    "merge_reviews",
    "read_many",
    "read_reviews",
    "review_from_dict",
    "reviews_from_text",
    "reviews_to_text",
    "write_reviews",
]
