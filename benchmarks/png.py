"""A small line-plot writer: PNG files from numpy arrays, no plotting library needed.

Only what the benchmark report uses: one or more series of points, linear or log-scale y,
a frame with ticks labelled by a 3x5 pixel font (digits, '.', '-', 'e', 'k', 'M').

>>> import tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "t.png")
>>> line_plot([([0, 1, 2], [1, 10, 100])], path, logy=True)
>>> open(path, "rb").read(8) == b"\\x89PNG\\r\\n\\x1a\\n"
True
"""
from __future__ import annotations

import math
import struct
import zlib

import numpy as np

COLORS = [(31, 119, 180), (214, 39, 40), (44, 160, 44), (148, 103, 189), (255, 127, 14),
          (23, 190, 207), (127, 127, 127), (0, 0, 0), (188, 189, 34)]
FONT = {  # 3x5 glyphs, rows top to bottom, 3 bits each
    "0": "111101101101111", "1": "010110010010111", "2": "111001111100111",
    "3": "111001111001111", "4": "101101111001001", "5": "111100111001111",
    "6": "111100111101111", "7": "111001001001001", "8": "111101111101111",
    "9": "111101111001111", ".": "000000000000010", "-": "000000111000000",
    "e": "000111101110111", "k": "100101110101101", "M": "101111111101101", " ": "0" * 15,
}


def _png(img: np.ndarray) -> bytes:
    h, w, _ = img.shape
    raw = b"".join(b"\x00" + img[y].tobytes() for y in range(h))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def _text(img, x: int, y: int, s: str, scale: int = 2, color=(0, 0, 0)) -> None:
    for ch in s:
        glyph = FONT.get(ch, FONT[" "])
        for i, bit in enumerate(glyph):
            if bit == "1":
                gy, gx = divmod(i, 3)
                img[y + gy * scale:y + (gy + 1) * scale, x + gx * scale:x + (gx + 1) * scale] = color
        x += 4 * scale


def _line(img, x0, y0, x1, y1, color, width: int = 2) -> None:
    n = int(max(abs(x1 - x0), abs(y1 - y0))) + 1
    for t in np.linspace(0.0, 1.0, n):
        x = int(round(x0 + (x1 - x0) * t))
        y = int(round(y0 + (y1 - y0) * t))
        img[max(0, y - width // 2):y + (width + 1) // 2, max(0, x - width // 2):x + (width + 1) // 2] = color


def _fmt(v: float) -> str:
    if v >= 1e6:
        return f"{v / 1e6:g}M"
    if v >= 1e3:
        return f"{v / 1e3:g}k"
    return f"{v:g}"


def line_plot(series, path: str, logy: bool = False, width: int = 640, height: int = 400) -> None:
    """Write a PNG with each (xs, ys) series as a coloured line with point markers."""
    img = np.full((height, width, 3), 255, dtype=np.uint8)
    left, right, top, bottom = 70, 20, 20, 40
    xs_all = [x for xs, _ in series for x in xs]
    ys_all = [y for _, ys in series for y in ys if (y > 0 or not logy)]
    if not xs_all or not ys_all:
        raise ValueError("nothing to plot")
    fy = (lambda v: math.log10(v)) if logy else (lambda v: v)
    x0, x1 = min(xs_all), max(xs_all)
    y0, y1 = fy(min(ys_all)), fy(max(ys_all))
    if logy:
        y0, y1 = math.floor(y0), math.ceil(y1)
    if x1 == x0:
        x1 += 1
    if y1 == y0:
        y1 += 1
    px = lambda x: left + (x - x0) / (x1 - x0) * (width - left - right)
    py = lambda y: height - bottom - (fy(y) - y0) / (y1 - y0) * (height - top - bottom)
    # frame and ticks
    _line(img, left, top, left, height - bottom, (0, 0, 0), 1)
    _line(img, left, height - bottom, width - right, height - bottom, (0, 0, 0), 1)
    for x in sorted(set(xs_all)):
        _line(img, px(x), height - bottom, px(x), height - bottom + 5, (0, 0, 0), 1)
        _text(img, int(px(x)) - 4, height - bottom + 10, _fmt(x))
    ticks = range(int(y0), int(y1) + 1) if logy else np.linspace(y0, y1, 5)
    for t in ticks:
        v = 10 ** t if logy else t
        yy = py(v)
        _line(img, left - 5, yy, left, yy, (0, 0, 0), 1)
        _line(img, left + 1, yy, width - right, yy, (225, 225, 225), 1)
        _text(img, 5, int(yy) - 5, _fmt(v))
    for i, (xs, ys) in enumerate(series):
        color = COLORS[i % len(COLORS)]
        pts = [(px(x), py(y)) for x, y in zip(xs, ys) if y > 0 or not logy]
        for (a, b), (c, d) in zip(pts, pts[1:]):
            _line(img, a, b, c, d, color, 2)
        for a, b in pts:
            img[int(b) - 3:int(b) + 4, int(a) - 3:int(a) + 4] = color
    with open(path, "wb") as f:
        f.write(_png(img))


__all__ = ["COLORS", "line_plot"]
