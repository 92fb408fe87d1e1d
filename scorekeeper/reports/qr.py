"""QR codes as inline SVG (segno), for join links on a phone screen and on paper."""

from __future__ import annotations

from functools import lru_cache

import segno
from markupsafe import Markup


@lru_cache(maxsize=1024)
def qr_svg(url: str, scale: int = 5) -> Markup:
    """An SVG QR code for ``url``, dark on light whatever the page's colour scheme. Kept: a
    table's links never change, and a round's 75 cards spent a quarter of their time on codes."""
    code = segno.make(url, error="m")
    svg = code.svg_inline(scale=scale, dark="#000000", light="#ffffff", border=3, omitsize=True)
    return Markup(svg)


def qr_terminal(url: str) -> None:
    """Print a QR code in the terminal (for `make run`)."""
    segno.make(url, error="l").terminal(compact=True)
