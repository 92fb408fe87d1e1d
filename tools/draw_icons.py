"""Draw the home-screen icons (PNG, which Android's and iOS's home screens want) from the same
design as static/icon.svg: a card outlined in blue with a red 8. Run once when the design
changes: `python tools/draw_icons.py`; the PNGs are committed."""

from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

STATIC = Path(__file__).resolve().parent.parent / "scorekeeper" / "static"
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"


def draw(size: int, name: str) -> None:
    image = Image.new("RGB", (size, size), "#0a58a8")
    pen = ImageDraw.Draw(image)
    unit = size / 32
    pen.rounded_rectangle([7 * unit, 3 * unit, 25 * unit, 29 * unit], radius=3 * unit, fill="#ffffff")
    font = ImageFont.truetype(FONT, int(17 * unit))
    pen.text((16 * unit, 16.5 * unit), "8", font=font, fill="#b3261e", anchor="mm")
    image.save(STATIC / name, optimize=True)


if __name__ == "__main__":
    draw(192, "icon-192.png")
    draw(512, "icon-512.png")
    draw(180, "apple-touch-icon.png")
