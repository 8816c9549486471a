"""MathVerse demo: three problems in the five main versions, with PIL diagrams.

As in MathVerse, each version moves information from the text into the diagram: Text Dominant states everything,
Text Lite drops what the figure already shows, Vision Intensive also drops properties the figure marks (tick marks,
right-angle boxes, grid), Vision Dominant moves the numbers into the figure, and Vision Only puts the whole
question in the image and leaves `question` empty (`question_for_eval` still holds the text).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from demo_generator.draw import (
    BLUE,
    GRID,
    INK,
    MUTED,
    RED,
    angle_arc,
    dashed_line,
    dot,
    label,
    new_image,
    right_angle_mark,
    text_width,
)

VERSIONS = ("Text Dominant", "Text Lite", "Vision Intensive", "Vision Dominant", "Vision Only")
DIAGRAM = (400, 300)
CHOICE_LETTERS = "ABCD"

_MC_WO = "Please directly answer the question and provide the correct option letter, e.g., A, B, C, D.\nQuestion: "
_MC_COT = (
    "Please first conduct reasoning, and then answer the question and provide the correct option letter, "
    "e.g., A, B, C, D, at the end.\nQuestion: "
)
_FF_WO = "Please directly answer the question and provide the final value, e.g., 1, 2.5, 300.\nQuestion: "
_FF_COT = (
    "Please first conduct reasoning, and then answer the question and provide the final value, "
    "e.g., 1, 2.5, 300, at the end.\nQuestion: "
)
_VO_MC_WO = (
    "According to the question shown in the image, please directly answer the question and provide the "
    "correct option letter, e.g., A, B, C, D."
)
_VO_MC_COT = (
    "According to the question shown in the image, please first conduct reasoning, and then answer the "
    "question and provide the correct option letter, e.g., A, B, C, D, at the end."
)
_VO_FF_WO = (
    "According to the question shown in the image, please directly answer the question and provide the "
    "final value, e.g., 1, 2.5, 300."
)
_VO_FF_COT = (
    "According to the question shown in the image, please first conduct reasoning, and then answer the "
    "question and provide the final value, e.g., 1, 2.5, 300, at the end."
)


@dataclass(frozen=True)
class Problem:
    """One MathVerse problem: four version texts (Vision Only has none), choices, gold answer and a diagram
    painter that draws the numbers into the figure when `with_values` is set."""

    index: int
    subject: str
    subfield: str
    texts: tuple[str, str, str, str]
    choices: tuple[str, ...]
    answer: str
    paint: Callable[[object, bool], None]
    solution: tuple[str, ...]
    slip: str  # the final answer a typical wrong solution reaches (a letter for multi-choice)
    slip_reason: str

    @property
    def question_type(self) -> str:
        return "multi-choice" if self.choices else "free-form"

    def with_choices(self, text: str) -> str:
        if not self.choices:
            return text
        lines = [f"{letter}:{choice}" for letter, choice in zip(CHOICE_LETTERS, self.choices, strict=False)]
        return text + "\nChoices:\n" + "\n".join(lines)

    def image_name(self, version: str) -> str:
        """Versions 1-3 share the plain figure; Vision Dominant and Vision Only each have their own."""
        suffix = {"Vision Dominant": "_vd", "Vision Only": "_vo"}.get(version, "")
        return f"image_{self.index}{suffix}.png"

    def record(self, sample_index: int, version: str) -> dict:
        """The testmini record for one version, in MathVerse's field order."""
        vision_only = version == "Vision Only"
        shown = "" if vision_only else self.with_choices(self.texts[VERSIONS.index(version)])
        for_eval = self.with_choices(self.texts[3]) if vision_only else shown
        choice = bool(self.choices)
        if vision_only:
            query_wo, query_cot = (_VO_MC_WO, _VO_MC_COT) if choice else (_VO_FF_WO, _VO_FF_COT)
        else:
            wo, cot = (_MC_WO, _MC_COT) if choice else (_FF_WO, _FF_COT)
            query_wo, query_cot = wo + shown, cot + shown
        return {
            "sample_index": str(sample_index),
            "problem_index": str(self.index),
            "problem_version": version,
            "question": shown,
            "image": f"images/{self.image_name(version)}",
            "answer": self.answer,
            "question_type": self.question_type,
            "metadata": {
                "split": "testmini",
                "source": "MathReel synthetic",
                "subject": self.subject,
                "subfield": self.subfield,
            },
            "query_wo": query_wo,
            "query_cot": query_cot,
            "question_for_eval": for_eval,
        }


def fmt_num(value: float) -> str:
    """10.0 -> "10", 2.5 -> "2.5"."""
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _wrap(text: str, size: int, width: float) -> list[str]:
    """Greedy word wrap of one paragraph to `width` pixels."""
    lines, current = [], ""
    for word in text.split():
        trial = f"{current} {word}".strip()
        if current and text_width(trial, size) > width:
            lines.append(current)
            current = word
        else:
            current = trial
    return [*lines, current] if current else lines


def render(problem: Problem, version: str):
    """The diagram for one version: the plain figure, the figure with its numbers, or figure plus question."""
    with_values = version in ("Vision Dominant", "Vision Only")
    if version != "Vision Only":
        image, draw = new_image(*DIAGRAM, color=(255, 255, 255))
        problem.paint(draw, with_values)
        return image
    text = problem.with_choices(problem.texts[3])
    lines = [wrapped for paragraph in text.split("\n") for wrapped in _wrap(paragraph, 16, DIAGRAM[0] - 30)]
    height = DIAGRAM[1] + 14 + 24 * len(lines)
    image, draw = new_image(DIAGRAM[0], height + height % 2, color=(255, 255, 255))
    problem.paint(draw, True)
    for i, line in enumerate(lines):
        label(draw, (15, DIAGRAM[1] + 14 + 24 * i), line, 16)
    return image


def _triangle() -> Problem:
    apex_angle = 40
    exterior = 180 - (180 - apex_angle) // 2
    a = (140.0, 40.0)
    half = math.radians(apex_angle / 2)
    b = (a[0] - 220 * math.tan(half), 260.0)
    c = (a[0] + 220 * math.tan(half), 260.0)
    d = (c[0] + 150, 260.0)

    def tick(draw, p, q) -> None:
        m = ((p[0] + q[0]) / 2, (p[1] + q[1]) / 2)
        dx, dy = q[0] - p[0], q[1] - p[1]
        n = math.hypot(dx, dy)
        ox, oy = -dy / n * 7, dx / n * 7
        draw.line((m[0] - ox, m[1] - oy, m[0] + ox, m[1] + oy), fill=INK, width=2)

    def paint(draw, with_values: bool) -> None:
        draw.polygon([a, b, c], outline=INK, width=3)
        draw.line((c, d), fill=INK, width=3)
        tick(draw, a, b)
        tick(draw, a, c)
        for name, p, dx, dy in (("A", a, 0, -16), ("B", b, -14, 10), ("C", c, 0, 18), ("D", d, 0, 18)):
            label(draw, (p[0] + dx, p[1] + dy), name, 18, align="center")
        angle_arc(draw, c, d, a, 24, BLUE)
        if with_values:
            spot = angle_arc(draw, a, b, c, 30, RED)
            label(draw, (spot[0], spot[1] + 4), f"{apex_angle}°", 15, RED, align="center")

    return Problem(
        1,
        "Plane Geometry",
        "Angle",
        (
            f"As shown in the figure, in triangle ABC, AB = AC, angle A = {apex_angle}°, and side BC is extended "
            "to point D. Find the measure of angle ACD.",
            f"AB = AC and angle A = {apex_angle}°. Find the measure of angle ACD.",
            f"Angle A = {apex_angle}°. Find the measure of angle ACD.",
            "Find the measure of angle ACD.",
        ),
        ("70°", "100°", f"{exterior}°", "140°"),
        "C",
        paint,
        (
            "AB = AC, so triangle ABC is isosceles and angle B = angle ACB.",
            f"Angle ACB = (180° - {apex_angle}°) / 2 = {(180 - apex_angle) // 2}°.",
            f"Angle ACD is supplementary to angle ACB: 180° - {(180 - apex_angle) // 2}° = {exterior}°.",
        ),
        "A",
        f"Angle ACD is the base angle of the isosceles triangle, {(180 - apex_angle) // 2}°.",
    )


def _circle() -> Problem:
    chord, distance = 16, 6
    radius = math.hypot(chord / 2, distance)
    area = round(math.pi * radius**2)
    o, r_px = (200.0, 150.0), 120.0
    scale = r_px / radius
    m = (o[0], o[1] + distance * scale)
    a_pt, b_pt = (o[0] - chord / 2 * scale, m[1]), (o[0] + chord / 2 * scale, m[1])

    def paint(draw, with_values: bool) -> None:
        draw.ellipse((o[0] - r_px, o[1] - r_px, o[0] + r_px, o[1] + r_px), outline=INK, width=3)
        draw.line((a_pt, b_pt), fill=INK, width=3)
        dashed_line(draw, o, m, BLUE, 2, 6)
        right_angle_mark(draw, m, o, b_pt, 10)
        dot(draw, o, 3, INK)
        for name, p, dx, dy in (("O", o, 0, -14), ("A", a_pt, -14, 8), ("B", b_pt, 14, 8), ("M", m, 10, 14)):
            label(draw, (p[0] + dx, p[1] + dy), name, 18, align="center")
        if with_values:
            label(draw, (o[0] - 12, (o[1] + m[1]) / 2), str(distance), 16, BLUE, align="right")
            label(draw, ((a_pt[0] + m[0]) / 2, m[1] + 16), f"AB = {chord}", 16, RED, align="center")

    return Problem(
        2,
        "Plane Geometry",
        "Area",
        (
            f"As shown in the figure, AB is a chord of circle O, and OM is perpendicular to AB at point M. "
            f"AB = {chord} and OM = {distance}. Find the area of circle O, rounded to the nearest whole number.",
            f"OM is perpendicular to AB, AB = {chord} and OM = {distance}. Find the area of circle O, rounded to "
            "the nearest whole number.",
            f"AB = {chord} and OM = {distance}. Find the area of circle O, rounded to the nearest whole number.",
            "Find the area of circle O, rounded to the nearest whole number.",
        ),
        (),
        str(area),
        paint,
        (
            f"OM is perpendicular to the chord, so M is the midpoint of AB and AM = {chord // 2}.",
            f"In right triangle OMA, OA^2 = {chord // 2}^2 + {distance}^2 = {fmt_num(radius**2)}, so the radius "
            f"is {fmt_num(radius)}.",
            f"The area is pi x {fmt_num(radius)}^2 = {math.pi * radius**2:.2f}, which rounds to {area}.",
        ),
        str(round(math.pi * chord**2)),
        f"I take AB = {chord} as the radius: pi x {chord}^2 = {math.pi * chord**2:.2f}.",
    )


def _parabola() -> Problem:
    vertex, intercept = (2, -1), 3
    a = (intercept - vertex[1]) / vertex[0] ** 2
    b, c = -2 * a * vertex[0], intercept
    x_range, y_range = (-1, 5), (-2, 5)
    left, top, unit = 80.0, 22.0, 36.0

    def to_px(x: float, y: float) -> tuple[float, float]:
        return left + (x - x_range[0]) * unit, top + (y_range[1] - y) * unit

    def paint(draw, with_values: bool) -> None:
        for x in range(x_range[0], x_range[1] + 1):
            draw.line((to_px(x, y_range[0]), to_px(x, y_range[1])), fill=GRID)
        for y in range(y_range[0], y_range[1] + 1):
            draw.line((to_px(x_range[0], y), to_px(x_range[1], y)), fill=GRID)
        draw.line((to_px(x_range[0], 0), to_px(x_range[1], 0)), fill=INK, width=2)
        draw.line((to_px(0, y_range[0]), to_px(0, y_range[1])), fill=INK, width=2)
        for x in range(x_range[0], x_range[1] + 1):
            if x:
                label(draw, (to_px(x, 0)[0], to_px(x, 0)[1] + 12), str(x), 13, MUTED, align="center")
        for y in range(y_range[0], y_range[1] + 1):
            if y:
                label(draw, (to_px(0, y)[0] - 6, to_px(0, y)[1]), str(y), 13, MUTED, align="right")
        label(draw, (to_px(x_range[1], 0)[0] - 4, to_px(x_range[1], 0)[1] - 12), "x", 15, align="right")
        label(draw, (to_px(0, y_range[1])[0] + 8, to_px(0, y_range[1])[1] + 6), "y", 15)
        xs = [x_range[0] + 0.05 * i for i in range(int((x_range[1] - x_range[0]) / 0.05) + 1)]
        points = [to_px(x, a * x * x + b * x + c) for x in xs if y_range[0] <= a * x * x + b * x + c <= y_range[1]]
        draw.line(points, fill=BLUE, width=3)
        if with_values:
            for (x, y), text in (((0, intercept), f"(0, {intercept})"), (vertex, f"({vertex[0]}, {vertex[1]})")):
                dot(draw, to_px(x, y), 5, RED)
                label(draw, (to_px(x, y)[0] + 10, to_px(x, y)[1] - 2), text, 14, RED)

    def poly(qa: float, qb: float, qc: float) -> str:
        lead = "x^2" if qa == 1 else "-x^2"
        mid = f" {'+' if qb > 0 else '-'} {abs(int(qb))}x"
        return f"y = {lead}{mid} + {int(qc)}"

    return Problem(
        3,
        "Functions",
        "Expression",
        (
            f"As shown in the figure, the graph of the quadratic function y = ax^2 + bx + c opens upward, crosses "
            f"the y-axis at (0, {intercept}) and has its vertex at ({vertex[0]}, {vertex[1]}). Which equation does "
            "the graph represent?",
            f"The parabola crosses the y-axis at (0, {intercept}) and has its vertex at ({vertex[0]}, {vertex[1]}). "
            "Which equation does the graph represent?",
            f"The vertex of the parabola is ({vertex[0]}, {vertex[1]}). Which equation does the graph represent?",
            "Which equation does the graph represent?",
        ),
        (poly(a, b, c), poly(a, -b, c), poly(-a, -b, c), poly(a, b / 2, c)),
        "A",
        paint,
        (
            f"The vertex is ({vertex[0]}, {vertex[1]}), so y = a(x - {vertex[0]})^2 - {-vertex[1]}.",
            f"The graph passes through (0, {intercept}): {vertex[0] ** 2}a - {-vertex[1]} = {intercept}, so a = "
            f"{fmt_num(a)}.",
            f"Expanding, y = {poly(a, b, c)[4:]}.",
        ),
        "D",
        f"I put the axis of symmetry at x = {vertex[0] // 2}, which gives {poly(a, b / 2, c)}.",
    )


def build() -> list[Problem]:
    """The three demo problems, by problem index."""
    return [_triangle(), _circle(), _parabola()]


def records(problems: list[Problem]) -> list[dict]:
    """testmini.json: every problem in every version, sample_index counting from 1."""
    rows = []
    for problem in problems:
        for version in VERSIONS:
            rows.append(problem.record(len(rows) + 1, version))
    return rows
