"""VideoMathQA demo: eleven short lesson videos and twelve questions, MCQ and the derived multi-binary set.

Each `_video_*` builder fixes the numbers of one lesson, draws it frame by frame from those numbers, writes the
narration, and computes the correct option from the same numbers. The narration always carries something the
screen does not (a side length, which bars to compare, an extra edge), as in the real benchmark. A builder
declares its narration as a timed script and each question as an `Ask`; `_lesson` fills in what they share.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from demo_generator.clip import Clip, script
from demo_generator.draw import (
    BLUE,
    GREEN,
    GRID,
    INK,
    MUTED,
    ORANGE,
    PURPLE,
    RED,
    SHADE,
    angle_arc,
    dashed_line,
    dot,
    growing_line,
    header,
    label,
    new_image,
    ramp,
    right_angle_mark,
)

SIZE = (640, 360)
LETTERS = "ABCDE"


def fmt(value: float) -> str:
    """A number as a person writes it: 51, 6.25, 7.5."""
    return str(int(value)) if float(value).is_integer() else f"{value:.2f}".rstrip("0").rstrip(".")


@dataclass(frozen=True)
class MathQuestion:
    """One VideoMathQA question. `slip` is the distractor a typical wrong solution lands on, and why."""

    question_id: str
    video_id: str
    category: str
    length: str
    difficulty: str
    reasoning_type: str
    question: str
    correct: str
    distractors: tuple[str, str, str, str]
    letter: str
    steps: tuple[str, ...]
    slip: int
    slip_reason: str

    @property
    def option_texts(self) -> list[str]:
        """The five option texts with the correct one at `letter`."""
        texts = list(self.distractors)
        texts.insert(LETTERS.index(self.letter), self.correct)
        return texts

    @property
    def options(self) -> list[str]:
        return [f"{letter}. {text}" for letter, text in zip(LETTERS, self.option_texts, strict=True)]

    @property
    def slip_text(self) -> str:
        return self.distractors[self.slip]

    def letter_of(self, text: str) -> str:
        return LETTERS[self.option_texts.index(text)]

    def record(self) -> dict:
        """The MCQ row in the dataset's schema."""
        return {
            "videoID": self.video_id,
            "question_id": self.question_id,
            "category": self.category,
            "question": self.question,
            "options": self.options,
            "answer": self.letter,
            "steps": list(self.steps),
            "length": self.length,
            "difficulty": self.difficulty,
            "reasoning_type": self.reasoning_type,
        }

    def binary_pairs(self) -> list[tuple[str, list[str], str]]:
        """The benchmark's multi-binary derivation: the correct option against each distractor, one pair each,
        the correct option first in odd pairs and second in even ones. Returns (question_id, option texts, answer).
        """
        pairs = []
        for k, wrong in enumerate(self.distractors, start=1):
            texts = [self.correct, wrong] if k % 2 else [wrong, self.correct]
            pairs.append((f"{self.question_id}_{k}", texts, "A" if k % 2 else "B"))
        return pairs

    def binary_records(self) -> list[dict]:
        rows = []
        for pair_id, texts, answer in self.binary_pairs():
            row = self.record()
            row.update(question_id=pair_id, options=[f"A. {texts[0]}", f"B. {texts[1]}"], answer=answer)
            rows.append(row)
        return rows


@dataclass(frozen=True)
class Ask:
    """A question as a lesson declares it: only what is not shared with the lesson's video and other questions.
    `slip` is (index of the distractor a typical wrong solution lands on, that solution's reason)."""

    question_id: str
    difficulty: str
    reasoning_type: str
    question: str
    correct: str
    letter: str
    distractors: tuple[str, str, str, str]
    slip: tuple[int, str]
    steps: tuple[str, ...]


def _lesson(clip: Clip, category: str, length: str, *asks: Ask) -> tuple[Clip, list[MathQuestion]]:
    """A lesson's clip and its questions, each question given the clip's video id and the lesson's category and
    duration label."""
    questions = [
        MathQuestion(
            ask.question_id,
            clip.video_id,
            category,
            length,
            ask.difficulty,
            ask.reasoning_type,
            ask.question,
            ask.correct,
            ask.distractors,
            ask.letter,
            ask.steps,
            *ask.slip,
        )
        for ask in asks
    ]
    return clip, questions


# ---------------------------------------------------------------------------------------------- lesson 1: angle
def _video_exterior_angle() -> tuple[Clip, list[MathQuestion]]:
    apex_angle = 40
    base_angle = (180 - apex_angle) / 2
    exterior = 180 - base_angle
    half = math.radians(apex_angle / 2)
    a = (300.0, 80.0)
    height = 210.0
    b = (a[0] - height * math.tan(half), a[1] + height)
    c = (a[0] + height * math.tan(half), a[1] + height)
    d = (c[0] + 150, c[1])

    def render(t: float):
        image, draw = new_image(*SIZE)
        header(draw, SIZE[0], "Exterior angles of a triangle")
        growing_line(draw, a, b, ramp(t, 3, 2))
        growing_line(draw, b, c, ramp(t, 5, 2))
        growing_line(draw, c, a, ramp(t, 7, 2))
        if t >= 3:
            label(draw, (a[0], a[1] - 16), "A", 20, align="center")
        if t >= 5:
            label(draw, (b[0] - 16, b[1] + 8), "B", 20, align="center")
        if t >= 7:
            label(draw, (c[0] - 2, c[1] + 18), "C", 20, align="center")
        if t >= 10:
            spot = angle_arc(draw, a, b, c, 34)
            label(draw, (spot[0], spot[1] + 4), f"{apex_angle}°", 16, RED, align="center")
        if t >= 14:
            dashed_line(draw, c, d, progress=ramp(t, 14, 2))
        if t >= 16:
            label(draw, (d[0], d[1] + 18), "D", 20, align="center")
            spot = angle_arc(draw, c, d, a, 28, BLUE)
            label(draw, spot, "x", 18, BLUE, align="center")
        if t >= 18:
            label(draw, (500, 110), "x = ?", 26, BLUE, align="center")
        return image

    clip = Clip(
        "demo_vmq_01",
        28,
        4,
        SIZE,
        render,
        script("""
        0.5   3.0    Today we look at an exterior angle of a triangle.
        3.0   9.0    I am drawing triangle ABC. Sides AB and AC have exactly the same length.
        10.0  13.5   The angle at A is marked on the figure.
        14.0  18.0   Now extend BC past C to a point D, and call the exterior angle x.
        18.5  26.0   Pause here and find x before I continue.
    """),
    )
    question = Ask(
        "q001",
        "easy",
        "Problem Focused",
        "Side BC of the triangle in the video is extended beyond C to D, and the exterior angle at C is marked x. "
        "Using the facts given in the video, what is x?",
        f"{fmt(exterior)}°",
        "C",
        (f"{fmt(base_angle)}°", "140°", f"{apex_angle}°", "100°"),
        slip=(0, f"I take x to be the interior angle at C, which is {fmt(base_angle)}°."),
        steps=(
            f"The figure marks the angle at A as {apex_angle}°.",
            "The narrator says sides AB and AC have the same length, so triangle ABC is isosceles with apex A.",
            f"The base angles are equal: angle B = angle C = (180° - {apex_angle}°) / 2 = {fmt(base_angle)}°.",
            "The exterior angle x at C and the interior angle C lie on the straight line BD, so they add to 180°.",
            f"x = 180° - {fmt(base_angle)}° = {fmt(exterior)}°.",
        ),
    )
    return _lesson(clip, "Geometry Angle", "short", question)


# ----------------------------------------------------------------------------------------------- lesson 2: area
def _video_composite_area() -> tuple[Clip, list[MathQuestion]]:
    length, width, cut = 10, 6, 3
    area = length * width - cut * cut
    scale = 26
    x0, y0 = 50.0, 90.0
    x1, y1 = x0 + length * scale, y0 + width * scale
    corners = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
    notch = (x1 - cut * scale, y0, x1, y0 + cut * scale)
    lines = [
        (40, f"Rectangle: {length} x {width} = {length * width} cm^2"),
        (52, "Removed: one square"),
        (64, "Shaded area = ?"),
    ]

    def render(t: float):
        image, draw = new_image(*SIZE)
        header(draw, SIZE[0], "Area of a composite figure")
        if t >= 26:
            shaded = [(x0, y0), (notch[0], y0), (notch[0], notch[3]), (x1, notch[3]), (x1, y1), (x0, y1)]
            draw.polygon(shaded, fill=SHADE)
        for i in range(4):
            growing_line(draw, corners[i], corners[(i + 1) % 4], ramp(t, 5 + 2 * i, 2))
        if t >= 13:
            label(draw, ((x0 + x1) / 2, y1 + 18), f"{length} cm", 18, align="center")
            label(draw, (x0 - 8, (y0 + y1) / 2), f"{width} cm", 18, align="right")
        if t >= 20:
            p = ramp(t, 20, 4)
            dashed_line(draw, (notch[0], notch[1]), (notch[0], notch[3]), RED, progress=p)
            dashed_line(draw, (notch[0], notch[3]), (notch[2], notch[3]), RED, progress=p)
        for start, text in lines:
            if t >= start:
                label(draw, (350, 110 + 40 * lines.index((start, text))), text, 18)
        return image

    clip = Clip(
        "demo_vmq_02",
        80,
        2,
        SIZE,
        render,
        script("""
        1.0   5.0    Let's find the area of a shape made from a rectangle.
        5.0   13.0   First the rectangle. Its length and width are written on the figure.
        20.0  25.0   Now I cut a square out of the top right corner.
        26.0  33.0   The square I removed has sides of 3 centimetres.
        40.0  50.0   The rectangle's area is length times width.
        52.0  62.0   Then take away what we removed.
        64.0  78.0   What is the area of the shaded shape that is left?
    """),
    )
    question = Ask(
        "q002",
        "easy",
        "Problem Focused",
        "A square is cut from one corner of the rectangle shown in the video. What is the area of the shaded "
        "figure that remains?",
        f"{area} cm²",
        "A",
        (
            f"{length * width - cut} cm²",
            f"{length * width} cm²",
            f"{length * width - 2 * cut * cut} cm²",
            f"{length * width - 2 * cut} cm²",
        ),
        slip=(0, f"I subtract the side of the square, {cut}, from {length * width}."),
        steps=(
            f"The rectangle is labelled {length} cm by {width} cm.",
            f"Its area is {length} x {width} = {length * width} cm².",
            f"The narrator says the removed square has sides of {cut} cm; its size is not written on the figure.",
            f"The square's area is {cut} x {cut} = {cut * cut} cm².",
            f"The shaded area is {length * width} - {cut * cut} = {area} cm².",
        ),
    )
    return _lesson(clip, "Geometry Area", "medium", question)


# --------------------------------------------------------------------------------------------- lesson 3: length
def _video_garden_diagonal() -> tuple[Clip, list[MathQuestion]]:
    long_side, short_side = 12, 9
    diagonal = math.hypot(long_side, short_side)

    def chapter_one(draw, t: float) -> None:
        p, q, r = (90.0, 290.0), (90.0, 130.0), (210.0, 290.0)  # legs 4 (160 px) and 3 (120 px)
        growing_line(draw, p, q, ramp(t, 4, 2))
        growing_line(draw, p, r, ramp(t, 6, 2))
        growing_line(draw, q, r, ramp(t, 8, 2), BLUE)
        if t >= 10:
            right_angle_mark(draw, p, q, r)
            label(draw, (74, 210), "4", 18, align="right")
            label(draw, (150, 306), "3", 18, align="center")
            label(draw, (160, 200), "5", 18, BLUE)
        for i, (start, text) in enumerate([(20, "a^2 + b^2 = c^2"), (34, "3^2 + 4^2 = 9 + 16 = 25"), (48, "c = 5")]):
            if t >= start:
                label(draw, (300, 120 + 50 * i), text, 24)

    def chapter_two(draw, t: float) -> None:
        x0, y0, x1, y1 = 80.0, 110.0, 320.0, 270.0
        draw.rectangle((x0, y0, x1, y1), outline=INK, width=3)
        growing_line(draw, (x0, y1), (x1, y0), ramp(t, 80, 4), BLUE)
        if t >= 86:
            right_angle_mark(draw, (x1, y1), (x1, y0), (x0, y1), 14)
            draw.polygon([(x0, y1), (x1, y1), (x1, y0)], outline=RED, width=2)
        if t >= 92:
            label(draw, (350, 150), "The diagonal is the hypotenuse", 18)
            label(draw, (350, 180), "of a right triangle:", 18)
        if t >= 100:
            label(draw, (350, 230), "d^2 = length^2 + width^2", 22, BLUE)

    def chapter_three(draw, t: float) -> None:
        scale = 18
        x0, y1 = 90.0, 290.0
        x1, y0 = x0 + long_side * scale, y1 - short_side * scale
        draw.rectangle((x0, y0, x1, y1), fill=(220, 252, 231), outline=GREEN, width=3)
        label(draw, ((x0 + x1) / 2, y1 + 16), f"{long_side} m", 18, align="center")
        if t >= 140:
            dashed_line(draw, (x0, y1), (x1, y0), ORANGE, 3, progress=ramp(t, 140, 3))
        if t >= 144:
            label(draw, ((x0 + x1) / 2 - 16, (y0 + y1) / 2 - 24), "d", 22, ORANGE)
            label(draw, (420, 160), "Path length d = ?", 24, ORANGE)

    chapters = [
        (0, "1. The Pythagorean theorem", chapter_one),
        (70, "2. Diagonal of a rectangle", chapter_two),
        (130, "3. Your turn: the garden path", chapter_three),
    ]

    def render(t: float):
        image, draw = new_image(*SIZE)
        start, title, body = next(c for c in reversed(chapters) if t >= c[0])
        header(draw, SIZE[0], title)
        if t - start < 3:
            label(draw, (SIZE[0] / 2, SIZE[1] / 2), title, 30, align="center")
        else:
            body(draw, t)
        return image

    clip = Clip(
        "demo_vmq_03",
        210,
        2,
        SIZE,
        render,
        script("""
        1.0   8.0    In a right triangle, the two legs and the hypotenuse are linked.
        20.0  32.0   Square each leg, add them, and you get the square of the hypotenuse.
        34.0  46.0   With legs three and four, that gives twenty-five.
        48.0  60.0   So the hypotenuse is five.
        71.0  84.0   Now a rectangle. Draw one of its diagonals.
        86.0  100.0  The diagonal cuts it into two right triangles, and the diagonal is their hypotenuse.
        100.0 118.0  So the diagonal squared is the length squared plus the width squared.
        131.0 140.0  Your turn. Here is a rectangular garden.
        140.0 150.0  A straight path runs corner to corner across it.
        152.0 166.0  The garden is 9 metres wide; I didn't write that on the drawing.
        170.0 185.0  How long is the path? Use what we just learned.
    """),
    )
    question = Ask(
        "q003",
        "medium",
        "Deep Instructional Comprehension",
        "In the final exercise of the video, a straight path d runs diagonally across the rectangular garden. "
        "How long is the path?",
        f"{fmt(diagonal)} m",
        "E",
        (
            f"{long_side + short_side} m",
            f"{long_side**2 + short_side**2} m",
            f"{math.sqrt(long_side**2 - short_side**2):.1f} m",
            f"{fmt((long_side + short_side) / 2)} m",
        ),
        slip=(0, f"I add the two sides: {long_side} + {short_side} = {long_side + short_side} m."),
        steps=(
            "The first chapter states a^2 + b^2 = c^2 for the legs a, b and hypotenuse c of a right triangle.",
            "The second chapter shows that a rectangle's diagonal is the hypotenuse of a right triangle whose legs "
            "are the rectangle's sides.",
            f"In the exercise the garden's length is labelled {long_side} m.",
            f"The narrator gives the width, {short_side} m, which is not written on the drawing.",
            f"d^2 = {long_side}^2 + {short_side}^2 = {long_side**2} + {short_side**2} = "
            f"{long_side**2 + short_side**2}.",
            f"d = sqrt({long_side**2 + short_side**2}) = {fmt(diagonal)} m.",
        ),
    )
    return _lesson(clip, "Geometry Length", "long", question)


# ---------------------------------------------------------------------------------------------- lesson 4: chart
def _video_bar_chart() -> tuple[Clip, list[MathQuestion]]:
    days = ("Mon", "Tue", "Wed", "Thu", "Fri")
    books = (12, 18, 9, 15, 21)
    compare = (1, 2)  # the narrator names Tuesday and Wednesday
    left, right, top, bottom, top_value = 90.0, 600.0, 70.0, 300.0, 25
    per_unit = (bottom - top) / top_value
    slot = (right - left) / len(days)
    difference = abs(books[compare[0]] - books[compare[1]])
    names = {"Mon": "Monday", "Tue": "Tuesday", "Wed": "Wednesday", "Thu": "Thursday", "Fri": "Friday"}

    def render(t: float):
        image, draw = new_image(*SIZE)
        header(draw, SIZE[0], "Books read by the class, by day")
        for value in range(0, top_value + 1, 5):
            y = bottom - value * per_unit
            draw.line((left, y, right, y), fill=GRID, width=1)
            label(draw, (left - 10, y), str(value), 14, MUTED, align="right")
        draw.line((left, top - 5, left, bottom), fill=INK, width=2)
        draw.line((left, bottom, right, bottom), fill=INK, width=2)
        for i, (day, value) in enumerate(zip(days, books, strict=True)):
            grow = ramp(t, 4 + 3 * i, 2)
            cx = left + slot * (i + 0.5)
            label(draw, (cx, bottom + 16), day, 16, align="center")
            if grow > 0:
                draw.rectangle((cx - 30, bottom - value * per_unit * grow, cx + 30, bottom), fill=BLUE)
            if grow >= 1:
                label(draw, (cx, bottom - value * per_unit - 12), str(value), 16, align="center")
        return image

    first, second = (names[days[i]] for i in compare)
    clip = Clip(
        "demo_vmq_04",
        32,
        4,
        SIZE,
        render,
        script(f"""
        0.5   4.0    This chart shows how many books the class read each day.
        4.5   18.0   The bars appear one day at a time, with the count on top.
        19.0  25.0   Now compare {first} with {second}.
        25.5  31.0   How many more books were read on the busier of those two days?
    """),
    )
    spread = max(books) - min(books)
    question = Ask(
        "q004",
        "easy",
        "Problem Focused",
        "The narrator asks you to compare two of the days in the bar chart. How many more books were read on the "
        "busier of those two days?",
        str(difference),
        "B",
        (str(spread), "6", "3", str(books[compare[0]] + books[compare[1]])),
        slip=(0, f"I compare the tallest and the shortest bars: {max(books)} - {min(books)} = {spread}."),
        steps=(
            "The bars read: " + ", ".join(f"{d} {v}" for d, v in zip(days, books, strict=True)) + ".",
            f"The narrator asks to compare {first} with {second}.",
            f"{first} has {books[compare[0]]} books and {second} has {books[compare[1]]}.",
            f"The difference is {max(books[i] for i in compare)} - {min(books[i] for i in compare)} = {difference}.",
        ),
    )
    return _lesson(clip, "Chart", "short", question)


# ----------------------------------------------------------------------------------------- lesson 5: statistics
def _video_mean() -> tuple[Clip, list[MathQuestion]]:
    shown = (3, 7, 4, 9, 7, 10, 2)
    extra = 8
    values = (*shown, extra)
    mean = sum(values) / len(values)
    x_left, x_right, axis_y = 70.0, 570.0, 270.0
    per_unit = (x_right - x_left) / 12

    def render(t: float):
        image, draw = new_image(*SIZE)
        header(draw, SIZE[0], "Daily rainfall: the mean of a data set")
        draw.line((x_left, axis_y, x_right, axis_y), fill=INK, width=2)
        for v in range(13):
            x = x_left + v * per_unit
            draw.line((x, axis_y - 5, x, axis_y + 5), fill=INK, width=2)
            label(draw, (x, axis_y + 18), str(v), 14, align="center")
        label(draw, (x_right, axis_y + 40), "millimetres", 14, MUTED, align="right")
        seen: list[int] = []
        for i, value in enumerate(shown):
            if t >= 8 + 7 * i:
                seen.append(value)
                height = seen.count(value)
                dot(draw, (x_left + value * per_unit, axis_y - 14 - 22 * (height - 1)), 9, BLUE)
        if seen:
            label(draw, (40, 62), "Data (mm): " + ", ".join(map(str, seen)), 18)
        if t >= 60:
            label(draw, (40, 100), "mean = (sum of values) / (number of values)", 18, PURPLE)
        return image

    clip = Clip(
        "demo_vmq_05",
        90,
        2,
        SIZE,
        render,
        script("""
        1.0   7.5    Each dot is one day's rainfall, in millimetres.
        8.0   20.0   I'll add the days one at a time.
        52.0  59.0   That's seven days on the plot.
        60.0  68.0   One more measurement, 8 millimetres, was taken on Sunday. It is not on the plot.
        70.0  80.0   Find the mean of all the measurements, Sunday included.
    """),
    )
    without = sum(shown) / len(shown)
    ordered = sorted(values)
    median = (ordered[3] + ordered[4]) / 2
    question = Ask(
        "q005",
        "medium",
        "Problem Focused",
        "Including the extra measurement the narrator mentions, what is the mean rainfall of the data set?",
        fmt(mean),
        "D",
        (fmt(without), fmt(median), "5.5", fmt(extra)),
        slip=(0, f"I average the seven plotted values: {sum(shown)} / {len(shown)} = {fmt(without)}."),
        steps=(
            "The plot shows seven values: " + ", ".join(map(str, shown)) + " mm.",
            f"The narrator adds one more value, {extra} mm for Sunday, which is not plotted.",
            f"The sum of all eight values is {' + '.join(map(str, values))} = {sum(values)}.",
            f"There are {len(values)} values.",
            f"The mean is {sum(values)} / {len(values)} = {fmt(mean)}.",
        ),
    )
    return _lesson(clip, "Statistics", "medium", question)


# ----------------------------------------------------------------------------------------- lesson 6: arithmetic
def _video_equation() -> tuple[Clip, list[MathQuestion]]:
    a, b, total = 3, 5, 26
    x = (total - b) // a
    wanted = 2 * x - 5
    lines = [(4, f"{a}x + {b} = {total}"), (10, f"{a}x = {total - b}"), (16, f"x = {x}")]

    def render(t: float):
        image, draw = new_image(*SIZE)
        header(draw, SIZE[0], "Solving a linear equation")
        for i, (start, text) in enumerate(lines):
            if t >= start:
                label(draw, (220, 110 + 60 * i), text, 34)
        if t >= 20:
            draw.rounded_rectangle((205, 205, 345, 255), 8, outline=RED, width=3)
        return image

    clip = Clip(
        "demo_vmq_06",
        26,
        4,
        SIZE,
        render,
        script(f"""
        0.5   4.0    Let's solve this equation one line at a time.
        4.5   10.0   First take {b} away from both sides.
        10.5  16.0   Then divide both sides by {a}.
        18.0  25.0   Now double your value of x and subtract 5. That number is the answer I want.
    """),
    )
    question = Ask(
        "q006",
        "easy",
        "Problem Focused",
        "The narrator asks for a number computed from the solution x of the equation on the board. What is it?",
        str(wanted),
        "A",
        (str(x), str(2 * x), str(2 * (total - b) - 5), str(2 * x + 5)),
        slip=(2, f"I double {a}x = {total - b} instead of x: 2 x {total - b} - 5 = {2 * (total - b) - 5}."),
        steps=(
            f"The board shows {a}x + {b} = {total}.",
            f"Subtracting {b} from both sides gives {a}x = {total - b}.",
            f"Dividing by {a} gives x = {x}.",
            "The narrator asks to double x and subtract 5.",
            f"2 x {x} - 5 = {wanted}.",
        ),
    )
    return _lesson(clip, "Arithmetic", "short", question)


# ---------------------------------------------------------------------------------------- lesson 7: graph theory
def _video_handshake() -> tuple[Clip, list[MathQuestion]]:
    names = "ABCDEF"
    center, radius = (320.0, 200.0), 120.0
    spots = {
        n: (
            center[0] + radius * math.cos(math.radians(-90 + 60 * i)),
            center[1] + radius * math.sin(math.radians(-90 + 60 * i)),
        )
        for i, n in enumerate(names)
    }
    edges = ("AB", "BC", "CD", "DE", "EF", "FA", "BE", "CE", "DF")
    spoken = "DA"  # described by the narrator, never drawn
    first_edge, gap = 50.0, 17.0
    degree_sum = 2 * (len(edges) + 1)
    degree_e = sum("E" in e for e in edges)

    def intro(draw, t: float) -> None:
        tri = [(120.0, 120.0), (60.0, 240.0), (180.0, 240.0)]
        for i in range(3):
            growing_line(draw, tri[i], tri[(i + 1) % 3], ramp(t, 4 + 2 * i, 2))
        for p in tri:
            dot(draw, p, 10, ORANGE)
        if t >= 12:
            for p in tri:
                label(draw, (p[0], p[1] + 26 if p[1] > 200 else p[1] - 24), "2", 16, PURPLE, align="center")
        if t >= 18:
            label(draw, (250, 140), "sum of degrees = 2 x (number of edges)", 20)
        if t >= 26:
            label(draw, (250, 190), "2 + 2 + 2 = 6 = 2 x 3", 20, PURPLE)

    def graph(draw, t: float) -> None:
        for i, edge in enumerate(edges):
            growing_line(draw, spots[edge[0]], spots[edge[1]], ramp(t, first_edge + gap * i, 2), BLUE, 3)
        for n, p in spots.items():
            dot(draw, p, 14, (255, 255, 255), INK)
            label(draw, p, n, 16, align="center")
        if t >= 205:
            label(draw, (540, 90), "Sum of all", 20, RED, align="center")
            label(draw, (540, 116), "degrees = ?", 20, RED, align="center")

    def render(t: float):
        image, draw = new_image(*SIZE)
        title = "Degrees and edges" if t < 40 else ("Building a graph" if t < 205 else "Question time")
        header(draw, SIZE[0], title)
        (intro if t < 40 else graph)(draw, t)
        return image

    clip = Clip(
        "demo_vmq_07",
        240,
        2,
        SIZE,
        render,
        script("""
        1.0   10.0   The degree of a vertex is the number of edges that touch it.
        12.0  24.0   Every edge touches two vertices, so it adds two to the total of all degrees.
        26.0  38.0   That's the handshake rule: the degrees add up to twice the number of edges.
        42.0  50.0   Here are six vertices, A to F.
        50.0  60.0   I'll connect them one edge at a time.
        120.0 130.0  Keep watching; a few more edges are coming.
        190.0 200.0  That's every edge I'm going to draw.
        206.0 218.0  Now imagine one more edge joining D and A. I won't draw it.
        220.0 236.0  Including that edge, what do all the degrees add up to?
    """),
    )
    drawn = len(edges)
    sum_question = Ask(
        "q007",
        "hard",
        "Deep Instructional Comprehension",
        "Including the edge the narrator only describes, what is the sum of the degrees of all six vertices?",
        str(degree_sum),
        "C",
        (str(2 * drawn), str(drawn + 1), str(degree_sum + 2), str(degree_sum - 1)),
        slip=(0, f"I count only the drawn edges: 2 x {drawn} = {2 * drawn}."),
        steps=(
            "The video's first part states the handshake rule: the sum of all degrees is twice the number of edges.",
            f"The drawn edges are {', '.join(edges)}: {drawn} edges.",
            f"The narrator adds one more edge, {spoken[0]}-{spoken[1]}, without drawing it: {drawn + 1} edges.",
            f"The sum of the degrees is 2 x {drawn + 1} = {degree_sum}.",
        ),
    )
    degree_question = Ask(
        "q012",
        "medium",
        "Problem Focused",
        "In the graph drawn in the video (only the edges actually drawn), what is the degree of vertex E?",
        str(degree_e),
        "A",
        (str(degree_e - 1), str(degree_e + 1), "2", "6"),
        slip=(0, "I count E's two neighbours on the hexagon and one diagonal and miss the edge C-E."),
        steps=(
            "Vertices A to F sit on a hexagon and edges are drawn one by one.",
            "The edges touching E are " + ", ".join(e for e in edges if "E" in e) + ".",
            "The edge the narrator only describes, D-A, does not touch E.",
            f"So E has degree {degree_e}.",
        ),
    )
    return _lesson(clip, "Graph Theory", "long", sum_question, degree_question)


# -------------------------------------------------------------------------------------------- lesson 8: counting
def _video_triangles() -> tuple[Clip, list[MathQuestion]]:
    apex, base_left, base_right = (320.0, 70.0), (120.0, 300.0), (520.0, 300.0)
    inner_feet = (215.0, 300.0, 410.0)
    drawn_lines = 2 + len(inner_feet)
    with_extra = drawn_lines + 1
    count = math.comb(with_extra, 2)

    def render(t: float):
        image, draw = new_image(*SIZE)
        header(draw, SIZE[0], "Counting triangles")
        growing_line(draw, apex, base_left, ramp(t, 2, 2))
        growing_line(draw, base_left, base_right, ramp(t, 4, 2))
        growing_line(draw, base_right, apex, ramp(t, 6, 2))
        for i, foot in enumerate(inner_feet):
            growing_line(draw, apex, (foot, 300.0), ramp(t, 12 + 10 * i, 3), BLUE)
        if t >= 40:
            label(draw, (560, 120), "How many", 20, RED, align="center")
            label(draw, (560, 146), "triangles?", 20, RED, align="center")
        return image

    clip = Clip(
        "demo_vmq_08",
        75,
        2,
        SIZE,
        render,
        script("""
        1.0   10.0   Here is a large triangle.
        12.0  38.0   I'm drawing lines from the top corner down to the base.
        45.0  54.0   Any two lines from the top corner, together with the base, make one triangle.
        55.0  63.0   Now imagine one more line from the top corner to the base. I won't draw it.
        65.0  74.0   How many triangles would the figure have then?
    """),
    )
    question = Ask(
        "q008",
        "medium",
        "Concept Transfer",
        "After adding the extra line from the top corner that the narrator describes, how many triangles does the "
        "figure contain?",
        str(count),
        "B",
        (str(math.comb(drawn_lines, 2)), "12", str(math.comb(with_extra + 1, 2)), str(with_extra)),
        slip=(0, f"I count the triangles of the drawn figure only: C({drawn_lines}, 2) = {math.comb(drawn_lines, 2)}."),
        steps=(
            f"The figure is a triangle with {len(inner_feet)} extra lines from the apex: {drawn_lines} lines from "
            "the apex in all, counting the two sides.",
            f"The narrator adds one more line from the apex: {with_extra} lines.",
            "Every triangle in the figure is made of two lines from the apex and the base.",
            f"So there are C({with_extra}, 2) = {count} triangles.",
        ),
    )
    return _lesson(clip, "Counting", "medium", question)


# -------------------------------------------------------------------------------------------- lesson 9: topology
def _video_holes() -> tuple[Clip, list[MathQuestion]]:
    shapes = (("ring", 1), ("solid square", 0), ("figure eight", 2), ("disk with 3 holes", 3), ("mug", 1))
    spoken = ("pair of scissors", 2)
    total = sum(h for _, h in shapes) + spoken[1]

    def ring(draw, c):
        draw.ellipse((c[0] - 40, c[1] - 40, c[0] + 40, c[1] + 40), fill=ORANGE)
        draw.ellipse((c[0] - 18, c[1] - 18, c[0] + 18, c[1] + 18), fill=(250, 249, 245))

    def square(draw, c):
        draw.rectangle((c[0] - 36, c[1] - 36, c[0] + 36, c[1] + 36), fill=BLUE)

    def eight(draw, c):
        for dy in (-26, 26):
            draw.ellipse((c[0] - 30, c[1] + dy - 30, c[0] + 30, c[1] + dy + 30), fill=GREEN)
        for dy in (-26, 26):
            draw.ellipse((c[0] - 12, c[1] + dy - 12, c[0] + 12, c[1] + dy + 12), fill=(250, 249, 245))

    def disk3(draw, c):
        draw.ellipse((c[0] - 44, c[1] - 44, c[0] + 44, c[1] + 44), fill=PURPLE)
        for angle in (90, 210, 330):
            x = c[0] + 22 * math.cos(math.radians(angle))
            y = c[1] - 22 * math.sin(math.radians(angle))
            draw.ellipse((x - 9, y - 9, x + 9, y + 9), fill=(250, 249, 245))

    def mug(draw, c):
        draw.ellipse((c[0] + 10, c[1] - 26, c[0] + 52, c[1] + 20), fill=RED)
        draw.ellipse((c[0] + 22, c[1] - 14, c[0] + 40, c[1] + 8), fill=(250, 249, 245))
        draw.rectangle((c[0] - 34, c[1] - 36, c[0] + 24, c[1] + 36), fill=RED)

    painters = (ring, square, eight, disk3, mug)

    def render(t: float):
        image, draw = new_image(*SIZE)
        header(draw, SIZE[0], "Topology: counting holes")
        for i, ((name, _holes), paint) in enumerate(zip(shapes, painters, strict=True)):
            if t >= 3 + 5 * i:
                cx = 75 + 122 * i
                paint(draw, (cx, 175))
                label(draw, (cx, 250), name, 14, align="center")
        if t >= 28:
            label(draw, (320, 305), "How many holes in total?", 22, RED, align="center")
        return image

    clip = Clip(
        "demo_vmq_09",
        36,
        4,
        SIZE,
        render,
        script("""
        0.5   3.0    In topology, a hole is something you can thread a string through.
        3.0   8.0    A ring has one hole.
        8.5   24.0   Watch each object as it appears and count its holes.
        26.0  31.0   Add one more object I won't show: a pair of scissors, with two finger holes.
        31.5  35.5   How many holes are there altogether?
    """),
    )
    drawn = total - spoken[1]
    question = Ask(
        "q009",
        "easy",
        "Concept Transfer",
        "Counting the objects shown in the video and the extra object the narrator mentions, how many holes are "
        "there in total?",
        str(total),
        "E",
        (str(drawn), str(total - 1), str(total + 1), str(total + 3)),
        slip=(0, f"I count only the objects on screen: {drawn} holes."),
        steps=(
            *(f"The {name} has {holes} hole{'s' if holes != 1 else ''}." for name, holes in shapes),
            f"The objects on screen have {drawn} holes together.",
            f"The narrator adds a {spoken[0]} with {spoken[1]} holes: {drawn} + {spoken[1]} = {total}.",
        ),
    )
    return _lesson(clip, "Topology", "short", question)


# ---------------------------------------------------------------------------------------------- lesson 10: puzzle
def _video_sequence() -> tuple[Clip, list[MathQuestion]]:
    shown = 5
    terms = [n * (n + 1) for n in range(1, shown + 1)]
    position = 10
    wanted = position * (position + 1)

    def render(t: float):
        image, draw = new_image(*SIZE)
        header(draw, SIZE[0], "Puzzle: continue the pattern")
        for i, term in enumerate(terms):
            if t >= 6 + 8 * i:
                x = 70 + 100 * i
                draw.rounded_rectangle((x - 34, 120, x + 34, 176), 10, outline=BLUE, width=3)
                label(draw, (x, 148), str(term), 26, align="center")
        for i in range(shown - 1):
            if t >= 46 + 4 * i:
                label(draw, (120 + 100 * i, 210), f"+{terms[i + 1] - terms[i]}", 20, GREEN, align="center")
        if t >= 65:
            label(draw, (570, 148), "...", 26, align="center")
        return image

    clip = Clip(
        "demo_vmq_10",
        100,
        2,
        SIZE,
        render,
        script("""
        1.0   6.0    Here is a sequence. The terms appear one at a time.
        46.0  62.0   Look at the gaps between the terms.
        66.0  76.0   The first term is in position one.
        78.0  92.0   The puzzle: which number sits in position ten?
    """),
    )
    question = Ask(
        "q010",
        "medium",
        "Concept Transfer",
        "The narrator asks for one particular term of the sequence shown. What is that term?",
        str(wanted),
        "D",
        (str((position - 1) * position), str((position + 1) * (position + 2)), str(position**2), "56"),
        slip=(0, f"I stop one position early: {position - 1} x {position} = {(position - 1) * position}."),
        steps=(
            "The terms shown are " + ", ".join(map(str, terms)) + ".",
            "The gaps are "
            + ", ".join(str(terms[i + 1] - terms[i]) for i in range(shown - 1))
            + ", growing by 2 each time.",
            "The n-th term is n(n + 1): 1x2, 2x3, 3x4, ...",
            f"The narrator asks for position {position}.",
            f"{position} x {position + 1} = {wanted}.",
        ),
    )
    return _lesson(clip, "Puzzle", "medium", question)


# ----------------------------------------------------------------------------------------------- lesson 11: clock
def _video_clock() -> tuple[Clip, list[MathQuestion]]:
    start_hour, clock_start, seconds_per_minute = 3, 60.0, 2.0
    stop_minute = 40  # "when the minute hand points at the 8"
    minute_angle = 6 * stop_minute
    hour_angle = 30 * start_hour + 0.5 * stop_minute
    between = abs(minute_angle - hour_angle)
    between = min(between, 360 - between)
    center, radius = (320.0, 200.0), 130.0

    def hand(draw, angle: float, length: float, width: int, color) -> None:
        tip = (center[0] + length * math.sin(math.radians(angle)), center[1] - length * math.cos(math.radians(angle)))
        draw.line((center, tip), fill=color, width=width)

    def render(t: float):
        image, draw = new_image(*SIZE)
        if t < clock_start:
            header(draw, SIZE[0], "How fast do clock hands turn?")
            rows = [
                (4, "A full turn is 360°."),
                (14, "Minute hand: 360° in 60 min = 6° per minute"),
                (28, "Hour hand: 30° per hour = 0.5° per minute"),
                (42, "Angles are measured from the 12."),
            ]
            for i, (start, text) in enumerate(rows):
                if t >= start:
                    label(draw, (50, 90 + 50 * i), text, 22)
            return image
        header(draw, SIZE[0], "Angle between the hands")
        minutes = min(60.0, (t - clock_start) / seconds_per_minute)
        draw.ellipse(
            (center[0] - radius, center[1] - radius, center[0] + radius, center[1] + radius),
            fill=(255, 255, 255),
            outline=INK,
            width=3,
        )
        for number in range(1, 13):
            angle = math.radians(30 * number)
            p = (center[0] + (radius - 22) * math.sin(angle), center[1] - (radius - 22) * math.cos(angle))
            label(draw, p, str(number), 18, align="center")
        hand(draw, 30 * start_hour + 0.5 * minutes, radius * 0.5, 6, INK)
        hand(draw, 6 * minutes, radius * 0.8, 3, BLUE)
        dot(draw, center, 5, INK)
        return image

    clip = Clip(
        "demo_vmq_11",
        180,
        2,
        SIZE,
        render,
        script("""
        1.0   12.0   Before the puzzle, how fast does each hand of a clock turn?
        14.0  26.0   The minute hand goes all the way round in an hour: six degrees a minute.
        28.0  40.0   The hour hand is slower: half a degree every minute.
        61.0  72.0   Now the clock starts at three o'clock and runs.
        100.0 114.0  Stop the clock in your mind when the minute hand points at the 8.
        116.0 130.0  What is the angle between the two hands at that moment?
    """),
    )
    naive = abs(minute_angle - 30 * start_hour)
    question = Ask(
        "q011",
        "hard",
        "Deep Instructional Comprehension",
        "At the moment the narrator picks, what is the angle between the hour hand and the minute hand?",
        f"{fmt(between)}°",
        "B",
        ("140°", "120°", f"{fmt(naive)}°", "100°"),
        slip=(2, f"I leave the hour hand on the 3: {minute_angle}° - {30 * start_hour}° = {fmt(naive)}°."),
        steps=(
            "The first part states the minute hand turns 6° per minute and the hour hand 0.5° per minute.",
            f"The clock starts at {start_hour}:00.",
            f"The narrator stops it when the minute hand points at the 8, that is {stop_minute} minutes later: "
            f"{start_hour}:{stop_minute}.",
            f"The minute hand is at 6 x {stop_minute} = {minute_angle}° from the 12.",
            f"The hour hand is at {30 * start_hour}° + 0.5 x {stop_minute} = {fmt(hour_angle)}°.",
            f"The angle between them is {minute_angle}° - {fmt(hour_angle)}° = {fmt(between)}°.",
        ),
    )
    return _lesson(clip, "Geometry Angle", "long", question)


BUILDERS: tuple[Callable[[], tuple[Clip, list[MathQuestion]]], ...] = (
    _video_exterior_angle,
    _video_composite_area,
    _video_garden_diagonal,
    _video_bar_chart,
    _video_mean,
    _video_equation,
    _video_handshake,
    _video_triangles,
    _video_holes,
    _video_sequence,
    _video_clock,
)


def build() -> tuple[list[Clip], list[MathQuestion]]:
    """All VideoMathQA demo clips and their questions, questions sorted by id."""
    clips, questions = [], []
    for builder in BUILDERS:
        clip, qs = builder()
        clips.append(clip)
        questions.extend(qs)
    questions.sort(key=lambda q: q.question_id)
    for q in questions:
        if len(set(q.option_texts)) != 5:
            raise ValueError(f"{q.question_id}: options are not distinct: {q.option_texts}")
    return clips, questions
