"""Video-MME demo: four simple generated scenes (a race, a recipe, orbiting planets, a short cartoon) and eight
questions over the three durations, four domains and seven task types, in the lmms-lab/Video-MME columns."""

from __future__ import annotations

import math
from dataclasses import dataclass

from demo_generator.clip import Clip, script
from demo_generator.draw import (
    BLUE,
    GREEN,
    INK,
    MUTED,
    ORANGE,
    RED,
    dot,
    header,
    label,
    new_image,
    ramp,
)

SIZE = (480, 270)
LETTERS = "ABCD"
BROWN = (146, 96, 52)
GREY = (150, 150, 150)


@dataclass(frozen=True)
class SceneQuestion:
    """One Video-MME question; `slip` is the letter a careless viewer picks."""

    number: int
    task_type: str
    question: str
    options: tuple[str, str, str, str]
    answer: str
    slip: str


@dataclass(frozen=True)
class SceneVideo:
    """One Video-MME video entry: ids, taxonomy labels, the clip and its questions."""

    video_id: str
    duration: str
    domain: str
    sub_category: str
    clip: Clip
    questions: tuple[SceneQuestion, ...]

    def question_id(self, question: SceneQuestion) -> str:
        return f"{self.video_id}-{question.number}"

    def records(self) -> list[dict]:
        """Rows in the order and spelling of the lmms-lab/Video-MME parquet."""
        return [
            {
                "video_id": self.video_id,
                "duration": self.duration,
                "domain": self.domain,
                "sub_category": self.sub_category,
                "url": f"https://example.invalid/mathreel-demo/{self.clip.video_id}",
                "videoID": self.clip.video_id,
                "question_id": self.question_id(q),
                "task_type": q.task_type,
                "question": q.question,
                "options": [f"{letter}. {text}" for letter, text in zip(LETTERS, q.options, strict=True)],
                "answer": q.answer,
            }
            for q in self.questions
        ]


def _race() -> SceneVideo:
    lanes = (("Red", RED, 18.5), ("Blue", BLUE, 16.0), ("Green", GREEN, 20.5))
    start_x, finish_x, go = 40.0, 430.0, 3.0

    def render(t: float):
        image, draw = new_image(*SIZE)
        header(draw, SIZE[0], "Final: 100 m, lane view")
        draw.line((finish_x + 12, 50, finish_x + 12, 250), fill=INK, width=3)
        label(draw, (finish_x + 12, 44), "FINISH", 12, MUTED, align="center")
        for i, (_name, color, finish_time) in enumerate(lanes):
            y = 90 + 65 * i
            draw.line((20, y + 30, 460, y + 30), fill=(210, 210, 210), width=1)
            x = start_x + (finish_x - start_x) * ramp(t, go, finish_time - go)
            dot(draw, (x, y), 16, color)
        return image

    clip = Clip(
        "demo_vme_001",
        24,
        4,
        SIZE,
        render,
        script("""
        0.5   3.0    Three runners line up at the start.
        3.0   6.0    And they're off!
        9.0   12.0   Halfway there, and it's very close.
        14.5  19.0   Here comes the finish line!
        20.5  23.5   What a race!
    """),
    )
    winner = min(lanes, key=lambda lane: lane[2])[0]
    return SceneVideo(
        "001",
        "short",
        "Sports Competition",
        "Athletics",
        clip,
        (
            SceneQuestion(
                1,
                "Temporal Reasoning",
                "Which runner crosses the finish line first?",
                ("Red.", "Green.", f"{winner}.", "They finish at the same time."),
                "C",
                "A",
            ),
            SceneQuestion(
                2,
                "Counting Problem",
                "How many runners take part in the race?",
                ("2.", f"{len(lanes)}.", "4.", "5."),
                "B",
                "C",
            ),
        ),
    )


def _recipe() -> SceneVideo:
    items = ((6, "2 eggs"), (12, "250 ml milk"), (18, "120 g flour"), (24, "a pinch of salt"))

    def render(t: float):
        image, draw = new_image(*SIZE)
        header(draw, SIZE[0], "Grandma's Pancakes")
        if t < 6:
            draw.rounded_rectangle((90, 80, 390, 200), 14, fill=(255, 237, 213), outline=ORANGE, width=3)
            label(draw, (240, 125), "Grandma's Pancakes", 24, align="center")
            label(draw, (240, 160), "serves 4", 16, MUTED, align="center")
            return image
        label(draw, (40, 60), "Ingredients", 20, ORANGE)
        for i, (start, text) in enumerate(items):
            if t >= start:
                draw.rounded_rectangle((40, 80 + 40 * i, 300, 112 + 40 * i), 8, fill=(255, 255, 255), outline=INK)
                label(draw, (56, 96 + 40 * i), text, 18)
        if t >= 6:
            for k in range(2):
                draw.ellipse((340 + 45 * k, 90, 372 + 45 * k, 130), fill=(255, 251, 235), outline=INK, width=2)
        if t >= 30:
            label(draw, (240, 250), "Mix, rest 10 minutes, then fry!", 18, GREEN, align="center")
        return image

    clip = Clip(
        "demo_vme_002",
        36,
        4,
        SIZE,
        render,
        script("""
        0.5   5.5    Today: my grandmother's pancakes.
        6.0   11.5   Start by cracking the eggs into a bowl.
        12.0  17.5   Then pour in the milk and whisk.
        18.0  23.5   Sift in the flour a little at a time.
        24.0  29.5   And a pinch of salt. That's her secret.
        30.0  35.5   Let the batter rest before frying.
    """),
    )
    return SceneVideo(
        "002",
        "short",
        "Life Record",
        "Food",
        clip,
        (
            SceneQuestion(
                1,
                "OCR Problems",
                "How much milk does the ingredient list on screen call for?",
                ("120 ml.", "200 ml.", "250 ml.", "2 cups."),
                "C",
                "A",
            ),
            SceneQuestion(
                2,
                "Temporal Perception",
                "Which ingredient is added to the list last?",
                ("Eggs.", "Salt.", "Flour.", "Milk."),
                "B",
                "C",
            ),
        ),
    )


def _orbits() -> SceneVideo:
    planets = (("grey", GREY, 40, 12.0, 6), ("blue", BLUE, 72, 30.0, 8), ("red", RED, 105, 60.0, 10))
    star = (240.0, 150.0)

    def render(t: float):
        image, draw = new_image(*SIZE, color=(15, 23, 42))
        header(draw, SIZE[0], "A tiny planetary system", note="synthetic demo")
        dot(draw, star, 16, (250, 204, 21))
        for _name, color, radius, period, size in planets:
            draw.ellipse(
                (star[0] - radius, star[1] - radius, star[0] + radius, star[1] + radius), outline=(71, 85, 105), width=1
            )
            angle = 2 * math.pi * t / period
            dot(draw, (star[0] + radius * math.cos(angle), star[1] + radius * math.sin(angle)), size, color)
        return image

    clip = Clip(
        "demo_vme_003",
        96,
        2,
        SIZE,
        render,
        script("""
        1.0   10.0   Here is a small star with three planets going around it.
        12.0  24.0   Each planet stays on its own circular path.
        30.0  44.0   Planets closer to the star complete their orbits faster.
        50.0  64.0   Watch how long the slowest one takes to go all the way round.
        70.0  86.0   That's one full year for the outermost planet.
    """),
    )
    return SceneVideo(
        "003",
        "medium",
        "Knowledge",
        "Astronomy",
        clip,
        (
            SceneQuestion(
                1,
                "Spatial Perception",
                "Which planet orbits closest to the star?",
                ("The red planet.", "The blue planet.", "The grey planet.", "All three orbit at the same distance."),
                "C",
                "B",
            ),
            SceneQuestion(
                2,
                "Attribute Perception",
                "What colour is the outermost planet?",
                ("Red.", "Blue.", "Grey.", "Yellow."),
                "A",
                "D",
            ),
        ),
    )


def _cartoon() -> SceneVideo:
    chapters = (
        (0, "Chapter 1: Pip wakes up"),
        (50, "Chapter 2: The locked door"),
        (100, "Chapter 3: Finding the key"),
        (150, "Chapter 4: Outside at last"),
    )
    door = (400, 120, 440, 220)
    key_spot = (70.0, 205.0)

    def pip_x(t: float) -> float:
        if t < 50:
            return 120 + 60 * ramp(t, 20, 20)
        if t < 100:
            return 180 + 190 * ramp(t, 55, 25)
        if t < 150:
            return 370 - 290 * ramp(t, 105, 25) + 290 * ramp(t, 135, 12)
        return 370 + 90 * ramp(t, 160, 20)

    def render(t: float):
        image, draw = new_image(*SIZE)
        start, title = next(c for c in reversed(chapters) if t >= c[0])
        header(draw, SIZE[0], title)
        if t - start < 5:
            label(draw, (240, 140), title, 22, align="center")
            return image
        outside = t >= 150
        draw.rectangle((0, 220, 480, 270), fill=(134, 239, 172) if outside else (214, 211, 209))
        opened = t >= 155
        if opened:
            draw.rectangle(door, fill=(254, 249, 195), outline=BROWN, width=3)
        else:
            draw.rectangle(door, fill=BROWN)
            dot(draw, (430, 172), 3, (250, 204, 21))
        if 60 <= t < 100 and pip_x(t) >= 368:
            label(draw, (300, 80), "Locked!", 20, RED, align="center")
        has_key = 100 <= t < 160 and t >= 130
        if 100 <= t < 130:
            draw.line((key_spot[0], key_spot[1], key_spot[0] + 18, key_spot[1]), fill=(202, 138, 4), width=4)
            dot(draw, key_spot, 6, (202, 138, 4))
        x = pip_x(t)
        draw.rectangle((x - 14, 192, x + 14, 220), fill=ORANGE)
        if t < 20:
            label(draw, (x, 178), "z z z", 14, MUTED, align="center")
        if has_key:
            dot(draw, (x, 184), 5, (202, 138, 4))
        if outside:
            dot(draw, (420, 60), 20, (250, 204, 21))
        return image

    clip = Clip(
        "demo_vme_004",
        200,
        2,
        SIZE,
        render,
        script("""
        6.0   18.0   This is Pip, a small orange square, fast asleep.
        20.0  40.0   Pip wakes up and stretches.
        56.0  78.0   Pip walks to the door and tries to open it.
        80.0  95.0   But the door is locked.
        106.0 128.0  Pip searches the room and finds a key on the floor.
        135.0 148.0  Key in hand, Pip heads back to the door.
        156.0 178.0  The key turns, the door opens, and Pip steps outside into the sun.
        182.0 196.0  The end.
    """),
    )
    return SceneVideo(
        "004",
        "long",
        "Film & Television",
        "Animation",
        clip,
        (
            SceneQuestion(
                1,
                "Action Reasoning",
                "What does the square do right after it finds the key?",
                (
                    "It goes back to sleep.",
                    "It returns to the door, opens it and goes outside.",
                    "It hides the key under the bed.",
                    "It paints the door.",
                ),
                "B",
                "A",
            ),
            SceneQuestion(
                2,
                "Information Synopsis",
                "What is the video mainly about?",
                (
                    "A square escaping from a locked room.",
                    "A cooking lesson.",
                    "A race between shapes.",
                    "A lecture about planets.",
                ),
                "A",
                "C",
            ),
        ),
    )


def build() -> list[SceneVideo]:
    """The four Video-MME demo videos, in video_id order."""
    return [_race(), _recipe(), _orbits(), _cartoon()]
