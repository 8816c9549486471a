"""Video-MME-v2 demo: four generated scenes, one group of four questions each, one group of every kind and chain
structure (relevance, `[1,2,3,4]`, `[1,[2,3],4]`, `[[1,2],3,4]`), eight options (A-H), word-level JSONL subtitles,
in the columns of the dataset's test.parquet.

As in the real data, a logic group carries its level and heads on its last question only, a relevance group on
every question. The head labels are made up for the demo (the real label sets are not in the sources MathReel
read). Narrations have pauses of three kinds so the subtitle segmentation shows each rule: over 0.5 s (a new
segment), 0.3 s after a sentence end (a new segment), 0.3 s inside a sentence (the same segment).
"""

from __future__ import annotations

from dataclasses import dataclass

from demo_generator.clip import Clip, Cue, script
from demo_generator.draw import BLUE, GREEN, INK, MUTED, ORANGE, PURPLE, RED, dot, header, label, new_image, ramp

SIZE = (320, 180)
FPS = 2
LETTERS = "ABCDEFGH"
COLUMNS = (
    "video_id",
    "url",
    "group_type",
    "group_structure",
    "question_id",
    "question",
    "options",
    "answer",
    "level",
    "second_head",
    "third_head",
)
YELLOW = (234, 179, 8)


@dataclass(frozen=True)
class GroupQuestion:
    """One question of a group: its options (eight, the answer among them) and a distractor a careless viewer
    picks."""

    question: str
    options: tuple[str, ...]
    answer: str
    slip: str


@dataclass(frozen=True)
class Group:
    """One video and its group of four questions."""

    video_id: str
    kind: str
    structure: str
    level: int
    second_head: str
    third_head: str
    clip: Clip
    questions: tuple[GroupQuestion, ...]

    def records(self) -> list[dict]:
        """The four parquet rows; the taxonomy on every row of a relevance group, on the last of a logic group."""
        rows = []
        for number, q in enumerate(self.questions, start=1):
            tagged = self.kind == "relevance" or number == len(self.questions)
            rows.append(
                {
                    "video_id": self.video_id,
                    "url": f"https://example.invalid/mathreel-demo/v2/{self.video_id}",
                    "group_type": self.kind,
                    "group_structure": self.structure,
                    "question_id": f"{self.video_id}-{number}",
                    "question": q.question,
                    "options": "\n".join(f"{letter}. {text}" for letter, text in zip(LETTERS, q.options, strict=True)),
                    "answer": q.answer,
                    "level": self.level if tagged else None,
                    "second_head": self.second_head if tagged else None,
                    "third_head": self.third_head if tagged else None,
                }
            )
        return rows


def words(cues: tuple[Cue, ...]) -> list[dict]:
    """The narration as word-level subtitles: each cue's words spread evenly over the cue, each word lasting 80% of
    its slot; times in seconds, rounded to centiseconds."""
    result = []
    for cue in cues:
        parts = cue.text.split()
        slot = (cue.end - cue.start) / len(parts)
        for i, word in enumerate(parts):
            start = cue.start + i * slot
            result.append({"text": word, "start_time": round(start, 2), "end_time": round(start + 0.8 * slot, 2)})
    return result


def _shapes() -> Group:
    shapes = ((2.0, "circle", RED), (6.0, "square", BLUE), (10.0, "triangle", GREEN), (14.0, "diamond", ORANGE))

    def render(t: float):
        image, draw = new_image(*SIZE)
        header(draw, SIZE[0], "The shape parade")
        for i, (start, kind, color) in enumerate(shapes):
            if t < start:
                continue
            x, y, r = 45 + 75 * i, 105, 22
            if kind == "circle":
                dot(draw, (x, y), r, color)
            elif kind == "square":
                draw.rectangle((x - r, y - r, x + r, y + r), fill=color)
            elif kind == "triangle":
                draw.polygon(((x, y - r), (x + r, y + r), (x - r, y + r)), fill=color)
            else:
                draw.polygon(((x, y - r), (x + r, y), (x, y + r), (x - r, y)), fill=color)
        return image

    clip = Clip(
        "001",
        20,
        FPS,
        SIZE,
        render,
        script("""
        0.2   1.8    Welcome to the shape parade.
        2.1   5.0    Here comes the first one.
        6.0   8.0    Another shape joins the line
        8.3   9.6    and waits.
        10.2  13.0   The parade celebrates the birthday of our school.
        14.0  17.5   The last shape closes the parade.
    """),
    )
    return Group(
        "001",
        "relevance",
        "[1,2,3,4]",
        1,
        "Perception (demo)",
        "Object attributes (demo)",
        clip,
        (
            GroupQuestion(
                "What colour is the first shape to appear?",
                ("Blue.", "Green.", "Red.", "Orange.", "Purple.", "Black.", "Yellow.", "Cannot be determined."),
                "C",
                "A",
            ),
            GroupQuestion(
                "How many shapes appear in the parade?",
                ("2.", "3.", "5.", "4.", "6.", "1.", "7.", "Cannot be determined."),
                "D",
                "B",
            ),
            GroupQuestion(
                "Which shape appears last?",
                ("Circle.", "Square.", "Triangle.", "Star.", "Diamond.", "Hexagon.", "Heart.", "Cannot be determined."),
                "E",
                "C",
            ),
            GroupQuestion(
                "According to the narrator, what does the parade celebrate?",
                (
                    "A national holiday.",
                    "The birthday of the school.",
                    "A sports victory.",
                    "The new year.",
                    "A wedding.",
                    "A graduation.",
                    "A harvest.",
                    "Cannot be determined.",
                ),
                "B",
                "D",
            ),
        ),
    )


def _tower() -> Group:
    def render(t: float):
        image, draw = new_image(*SIZE)
        header(draw, SIZE[0], "Ball and tower")
        draw.line((0, 150, SIZE[0], 150), fill=INK, width=2)
        x = 30 + 170 * ramp(t, 3, 6)
        dot(draw, (x, 138), 12, MUTED)
        fallen = ramp(t, 9, 3)
        for level in range(3):
            if fallen < 1:
                top = 150 - 22 * (level + 1) + 0
                left = 214 + 30 * fallen * (level + 1)
                draw.rectangle((left, top, left + 26, top + 20), fill=(ORANGE, GREEN, PURPLE)[level])
            else:
                draw.rectangle((240 + 28 * level, 128, 266 + 28 * level, 148), fill=(ORANGE, GREEN, PURPLE)[level])
        return image

    clip = Clip(
        "002",
        20,
        FPS,
        SIZE,
        render,
        script("""
        0.4   2.6    A tower of three blocks stands on the right.
        3.0   8.5    A heavy steel ball starts to roll towards it.
        9.0   11.5   It hits the bottom block.
        12.2  16.0   The tower topples over to the right.
        16.6  19.5   The weight of the ball did it.
    """),
    )
    return Group(
        "002",
        "logic",
        "[1,2,3,4]",
        2,
        "Reasoning (demo)",
        "Causal chains (demo)",
        clip,
        (
            GroupQuestion(
                "Which object starts moving first?",
                (
                    "The top block.",
                    "A steel ball.",
                    "The table.",
                    "A cat.",
                    "The camera.",
                    "A car.",
                    "A rope.",
                    "Cannot be determined.",
                ),
                "B",
                "A",
            ),
            GroupQuestion(
                "What does that object hit?",
                (
                    "A wall.",
                    "Another ball.",
                    "Nothing.",
                    "The bottom block of the tower.",
                    "A person.",
                    "A door.",
                    "The floor edge.",
                    "Cannot be determined.",
                ),
                "D",
                "A",
            ),
            GroupQuestion(
                "What happens to the tower right after it is hit?",
                (
                    "It stays standing.",
                    "It bounces up.",
                    "It falls over to the right.",
                    "It spins.",
                    "It falls to the left.",
                    "It breaks in half.",
                    "It changes colour.",
                    "Cannot be determined.",
                ),
                "C",
                "E",
            ),
            GroupQuestion(
                "Why does the tower fall?",
                (
                    "The wind blows it.",
                    "Someone pushes it.",
                    "The table tilts.",
                    "An earthquake.",
                    "The blocks melt.",
                    "A heavy ball strikes its base.",
                    "It was never stable.",
                    "Cannot be determined.",
                ),
                "F",
                "G",
            ),
        ),
    )


def _paint() -> Group:
    def render(t: float):
        image, draw = new_image(*SIZE)
        header(draw, SIZE[0], "Mixing paint")
        level = 0.0
        color = (230, 230, 230)
        if t >= 4:
            level, color = 0.4 * ramp(t, 4, 4), YELLOW
        if t >= 10:
            level = 0.4 + 0.4 * ramp(t, 10, 4)
        if t >= 16:
            color = GREEN
        draw.rectangle((110, 60, 210, 160), outline=INK, width=3)
        if level:
            draw.rectangle((113, 157 - 94 * level, 207, 157), fill=color)
        if 4 <= t < 8:
            label(draw, (160, 48), "yellow", 12, MUTED, align="center")
        if 10 <= t < 14:
            label(draw, (160, 48), "blue", 12, BLUE, align="center")
        return image

    clip = Clip(
        "003",
        20,
        FPS,
        SIZE,
        render,
        script("""
        0.3   3.5    Today we mix our own paint in this bucket.
        4.0   8.0    First the yellow paint goes in.
        10.0  14.0   Then the blue paint.
        14.3  15.5   Now we stir.
        16.0  19.0   And the colour changes completely.
    """),
    )
    return Group(
        "003",
        "logic",
        "[1,[2,3],4]",
        3,
        "Reasoning (demo)",
        "Temporal order (demo)",
        clip,
        (
            GroupQuestion(
                "What is the bucket used for in the video?",
                (
                    "Washing brushes.",
                    "Catching rain.",
                    "Storing toys.",
                    "Mixing paint.",
                    "Cooling drinks.",
                    "Watering plants.",
                    "Holding sand.",
                    "Cannot be determined.",
                ),
                "D",
                "A",
            ),
            GroupQuestion(
                "Which colour is poured in first?",
                ("Red.", "Blue.", "White.", "Black.", "Green.", "Yellow.", "Purple.", "Cannot be determined."),
                "F",
                "B",
            ),
            GroupQuestion(
                "Which colour is poured in second?",
                ("Blue.", "Yellow.", "Red.", "White.", "Orange.", "Black.", "Pink.", "Cannot be determined."),
                "A",
                "B",
            ),
            GroupQuestion(
                "What colour is the paint after stirring?",
                ("Orange.", "Purple.", "Brown.", "Grey.", "Yellow.", "Blue.", "Green.", "Cannot be determined."),
                "G",
                "E",
            ),
        ),
    )


def _runners() -> Group:
    def render(t: float):
        image, draw = new_image(*SIZE)
        header(draw, SIZE[0], "Race to the flag")
        draw.line((290, 60, 290, 160), fill=INK, width=2)
        draw.polygon(((290, 60), (310, 67), (290, 74)), fill=RED)
        red_x = 20 + 270 * ramp(t, 4, 9)
        blue_x = 120 + 170 * ramp(t, 4, 12)
        dot(draw, (red_x, 100), 10, RED)
        dot(draw, (blue_x, 140), 10, BLUE)
        if t < 4:
            label(draw, (20, 80), "start", 11, MUTED)
            label(draw, (120, 120), "start", 11, MUTED)
        return image

    clip = Clip(
        "004",
        20,
        FPS,
        SIZE,
        render,
        script("""
        0.3   3.5    Two runners wait at their marks.
        4.0   7.0    Go! The red runner sprints.
        7.3   9.5    The blue one had a head start
        9.8   12.5   but runs slowly.
        13.0  15.0   Red touches the flag first.
        16.0  19.0   What a finish.
    """),
    )
    return Group(
        "004",
        "logic",
        "[[1,2],3,4]",
        2,
        "Perception (demo)",
        "Spatial position (demo)",
        clip,
        (
            GroupQuestion(
                "Where does the red runner start?",
                (
                    "At the flag.",
                    "In the middle.",
                    "At the far left.",
                    "Off screen.",
                    "Behind the flag.",
                    "On the top edge.",
                    "Next to the blue runner.",
                    "Cannot be determined.",
                ),
                "C",
                "B",
            ),
            GroupQuestion(
                "Where does the blue runner start?",
                (
                    "At the far left.",
                    "At the flag.",
                    "Behind the red runner.",
                    "Off screen.",
                    "Ahead of the red runner, nearer the flag.",
                    "On the top edge.",
                    "At the finish.",
                    "Cannot be determined.",
                ),
                "E",
                "A",
            ),
            GroupQuestion(
                "Which runner moves faster?",
                (
                    "The blue runner.",
                    "Neither moves.",
                    "They move equally fast.",
                    "Only the flag moves.",
                    "The red runner.",
                    "Cannot be seen.",
                    "Both stop.",
                    "Cannot be determined.",
                ),
                "E",
                "A",
            ),
            GroupQuestion(
                "Who reaches the flag first?",
                (
                    "The blue runner.",
                    "Nobody.",
                    "The red runner.",
                    "Both at once.",
                    "A third runner.",
                    "The referee.",
                    "The camera operator.",
                    "Cannot be determined.",
                ),
                "C",
                "A",
            ),
        ),
    )


def build() -> list[Group]:
    """The four groups, in video order."""
    return [_shapes(), _tower(), _paint(), _runners()]
