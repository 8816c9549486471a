"""Make the demo set's synthetic review file (assets/demo/reviews/) from the demo judgments, so the app's agreement
view and `mathreel agreement` work with no setup. Two scripted reviewers go over synthetic-model-b's judgments:
they confirm most verdicts, change a few categories and step scores, and flag two questions. Fixed timestamps:
the same judgments give the same bytes. Called by assets/generate_demo.py."""

from __future__ import annotations

from pathlib import Path

RUN = "synthetic-model-b"
TIMESTAMP = "2025-01-01T00:00:{:02d}+00:00"
# Per reviewer and question: (primary category or None to accept the judge's, step score or None to accept).
CHANGES: dict[str, dict[str, tuple[str | None, int | None]]] = {
    "demo-reviewer-1": {
        "q004": ("Forgetting earlier context", 3),
        "q008": (None, 6),
        "q010": ("Failing to retrieve relevant information", None),
        "q011": (None, 5),
    },
    "demo-reviewer-2": {
        "q002": ("Wrong strategy or formula", 3),
        "q004": (None, 4),
        "q010": ("Failing to retrieve relevant information", None),
        "q011": (None, 6),
    },
}
FLAGGED: dict[str, dict[str, tuple[str, str]]] = {
    "demo-reviewer-1": {
        "q006": (
            "ambiguous",
            "The narration says to double 'it' before x is found; 'it' can be "
            "read as the right-hand side of the equation.",
        )
    },
    "demo-reviewer-2": {
        "q003": ("bad_annotation", "Step 4 calls the 9 m width labelled, but it is only spoken in the narration.")
    },
}
NOTES = {"changed": "synthetic demo review: the judge's verdict is changed", "accepted": "synthetic demo review"}


def _review(view, reviewer: str, second: int):  # view: core.review.join.JudgeView
    from mathreel.core.review import Review

    primary, score = CHANGES[reviewer].get(view.question_id, (None, None))
    flag, reason = FLAGGED[reviewer].get(view.question_id, (None, ""))
    category_verdict = ("changed" if primary else "accepted") if view.primary else ""
    steps_verdict = "changed" if score is not None else "accepted"
    secondary = [c for c in view.secondary if c != primary] if primary else list(view.secondary)
    return Review(
        view.question_id,
        reviewer,
        view.judge_model,
        view.prompt_version,
        view.fingerprint,
        "videomathqa",
        "mcq",
        category_verdict=category_verdict,
        primary=primary or view.primary,
        secondary=secondary,
        note=NOTES[category_verdict or steps_verdict],
        steps_verdict=steps_verdict,
        step_score=view.step_score if score is None else score,
        matched=view.matched,
        flag=flag,
        flag_reason=reason,
        timestamp=TIMESTAMP.format(second),
    )


def demo_reviews(judgment_dir: Path) -> list:
    """Both scripted reviewers' records on the demo judgments of RUN, in a fixed order."""
    from mathreel.core.judge import read_judgments
    from mathreel.core.review.join import judge_views

    views = judge_views(read_judgments(judgment_dir / f"videomathqa_mcq_{RUN}_judgments.jsonl"))
    reviews, second = [], 0
    for reviewer in CHANGES:
        for view in views.values():
            reviews.append(_review(view, reviewer, second))
            second += 1
    return reviews


def write(out: Path, judgment_dir: Path) -> list[Path]:
    """assets/demo/reviews/<run>_reviews.jsonl from the committed demo judgments in `judgment_dir`."""
    from mathreel.core.review import reviews_to_text

    path = out / "reviews" / f"videomathqa_mcq_{RUN}_reviews.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(reviews_to_text(demo_reviews(judgment_dir)).encode("utf-8"))
    return [path]
