"""Printed pages read back word by word with ``pdftotext -bbox``: where each word sits on its page."""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

#: The margin print.css gives every page (8 mm), in points; and what a glyph's box may stray into it.
MARGIN = 8 / 25.4 * 72
SLACK = 1.0

_PAGE = re.compile(r'<page width="([\d.]+)" height="([\d.]+)">(.*?)</page>', re.S)
_WORD = re.compile(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>')


@dataclass(frozen=True)
class Word:
    text: str
    x_min: float
    y_min: float
    x_max: float
    y_max: float

    @property
    def height(self) -> float:
        return self.y_max - self.y_min


@dataclass(frozen=True)
class Page:
    width: float
    height: float
    words: list[Word]

    def overflowing(self, margin: float = MARGIN) -> list[Word]:
        """The words that run into the page's right or bottom margin (``margin`` points), or past its edge."""
        return [
            word
            for word in self.words
            if word.x_max > self.width - margin + SLACK or word.y_max > self.height - margin + SLACK
        ]

    def text(self) -> str:
        return " ".join(word.text for word in self.words)

    def reads(self, value: str) -> bool:
        """Whether ``value`` is printed whole in one box: its words (white space aside) one after the
        other on a line, or wrapped onto the next line under where it began (left or right aligned)."""
        return self.times_read(value) > 0

    def times_read(self, value: str) -> int:
        """How many times ``value`` is printed whole (as ``reads`` finds it)."""
        wanted = squeezed(value)
        return sum(1 for word in self.words if wanted.startswith(word.text) and self._follows(word, word, wanted))

    def overlapping(self, slack: float = 0.5) -> list[tuple[Word, Word]]:
        """The pairs of words printed one over the other (their boxes overlap by more than ``slack`` points)."""
        return [
            (first, second)
            for index, first in enumerate(self.words)
            for second in self.words[index + 1 :]
            if min(first.x_max, second.x_max) - max(first.x_min, second.x_min) > slack
            and min(first.y_max, second.y_max) - max(first.y_min, second.y_min) > slack
        ]

    def _follows(self, start: Word, last: Word, wanted: str) -> bool:
        rest = wanted[len(last.text) :]
        if not rest:
            return True
        same_line = [
            word
            for word in self.words
            if abs(word.y_min - last.y_min) < 0.5 and 0 <= word.x_min - last.x_max < last.height
        ]
        next_line = [
            word
            for word in self.words
            if 0.5 < word.y_min - last.y_min < 2 * last.height
            and (abs(word.x_min - start.x_min) < 1 or abs(word.x_max - last.x_max) < 1)
        ]
        return any(self._follows(start, word, rest) for word in same_line if rest.startswith(word.text)) or any(
            self._follows(word, word, rest) for word in next_line if rest.startswith(word.text)
        )


def pages(body: bytes, tmp_path: Path, name: str = "bbox.pdf") -> list[Page]:
    """Every page of the PDF ``body``, each word with its box in points."""
    path = tmp_path / name
    path.write_bytes(body)
    out = subprocess.run(["pdftotext", "-bbox", str(path), "-"], capture_output=True, text=True, check=True).stdout
    return [
        Page(
            float(width),
            float(height),
            [Word(_unescape(t), float(a), float(b), float(c), float(d)) for a, b, c, d, t in _WORD.findall(inside)],
        )
        for width, height, inside in _PAGE.findall(out)
    ]


def _unescape(text: str) -> str:
    return (
        text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", '"')
        .replace("&#39;", "'")
        .replace("&amp;", "&")
    )


def squeezed(text: str) -> str:
    """``text`` without its white space: a name wrapped inside its cell reads whole again."""
    return "".join(text.split())
