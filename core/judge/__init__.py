"""The LLM judge: CoT answer extraction, step-wise evaluation, error analysis and free-form equivalence.

Built on the OpenAI-compatible client with its own endpoint (`judge_endpoint`). Replies follow a JSON contract
checked field by field (`parse`), replies are cached on disk (`cache`), and every question ends as a
`Judgment` that keeps the judge model, the prompt version and the raw reply. `core.judge.views` turns judgment
files into the tables the app and the CLI show.
"""

from mathreel.core.judge.cache import JudgeCache, cache_key, default_cache_dir
from mathreel.core.judge.endpoint import judge_endpoint
from mathreel.core.judge.inputs import StepsNote, attach_steps, cases_from_results, with_dataset_steps
from mathreel.core.judge.model import (
    STATUSES,
    TASKS,
    Case,
    Judgment,
    count_statuses,
    read_judgments,
    write_judgments,
)
from mathreel.core.judge.parse import CardError, final_card
from mathreel.core.judge.runner import (
    DEFAULT_TASKS,
    JudgeRun,
    judge_cases,
    judge_cases_async,
    parse_tasks,
)

__all__ = [
    "DEFAULT_TASKS",
    "STATUSES",
    "TASKS",
    "CardError",
    "Case",
    "JudgeCache",
    "JudgeRun",
    "Judgment",
    "StepsNote",
    "attach_steps",
    "cache_key",
    "cases_from_results",
    "count_statuses",
    "default_cache_dir",
    "final_card",
    "judge_cases",
    "judge_cases_async",
    "judge_endpoint",
    "parse_tasks",
    "read_judgments",
    "with_dataset_steps",
    "write_judgments",
]
