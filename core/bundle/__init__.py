"""The evidence bundle: a self-contained static site for one or more runs of a benchmark (`mathreel bundle`).

Headline figures with intervals, every reference reproduction, breakdowns drawn as inline SVG, and one page per
question with the frame thumbnails the model saw, the subtitle lines at each frame, the prompt, every run's response
with the answer marked where it was read, and the judge's card and people's reviews. Pure Python and plain files:
no server code, no request leaves the page (`docs/architecture.md`).

`plan_bundle(request)` reads and scores the runs and says what will be written (with its estimated size);
`write_bundle(plan, out)` writes it.
"""

from __future__ import annotations

from mathreel.core.bundle.load import BundleRequest, PromptOverrides
from mathreel.core.bundle.write import BundlePlan, Written, plan_bundle, write_bundle

__all__ = ["BundlePlan", "BundleRequest", "PromptOverrides", "Written", "plan_bundle", "write_bundle"]
