#!/usr/bin/env python3
"""Draws the web client's icons (Sources/ChirpWebClient/web/icon-*.png) with no imaging library:
a white speech bubble with three dots on Chirp's blue, anti-aliased by sampling each pixel 4x4
times, written as 8-bit RGBA PNGs with zlib. `icon-192.png` and `icon-512.png` are a rounded
square (purpose "any"); `icon-maskable-512.png` fills the square, with the bubble inside the
safe zone (the middle 80 % circle) that a launcher's mask keeps. Run once after a change:
    python3 scripts/make-web-icons.py
"""
import os
import struct
import zlib

WEB = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Sources", "ChirpWebClient", "web")
BLUE = (11, 99, 197)
WHITE = (255, 255, 255)
SAMPLES = 4


def rounded_rect(x, y, left, top, right, bottom, radius):
    cx = min(max(x, left + radius), right - radius)
    cy = min(max(y, top + radius), bottom - radius)
    return (x - cx) ** 2 + (y - cy) ** 2 <= radius ** 2 and left <= x <= right and top <= y <= bottom


def triangle(x, y, a, b, c):
    def side(p, q):
        return (x - q[0]) * (p[1] - q[1]) - (p[0] - q[0]) * (y - q[1])
    d1, d2, d3 = side(a, b), side(b, c), side(c, a)
    return not ((d1 < 0 or d2 < 0 or d3 < 0) and (d1 > 0 or d2 > 0 or d3 > 0))


def bubble(x, y):
    """The colour at (x, y) of the bubble drawn in the unit square, or None outside it."""
    if any((x - dx) ** 2 + (y - 0.45) ** 2 <= 0.05 ** 2 for dx in (0.35, 0.5, 0.65)):
        return BLUE
    if rounded_rect(x, y, 0.18, 0.22, 0.82, 0.68, 0.14) or triangle(x, y, (0.3, 0.6), (0.48, 0.66), (0.26, 0.84)):
        return WHITE
    return None


def pixel(x, y, maskable):
    """The RGBA at (x, y) of the unit square."""
    if maskable:  # the bubble at 75 %, centred: inside the safe circle
        inner = bubble(0.5 + (x - 0.5) / 0.75, 0.5 + (y - 0.5) / 0.75)
        return (*(inner or BLUE), 255)
    if not rounded_rect(x, y, 0.02, 0.02, 0.98, 0.98, 0.2):
        return (0, 0, 0, 0)
    return (*(bubble(x, y) or BLUE), 255)


def draw(size, maskable):
    rows = []
    for py in range(size):
        row = bytearray([0])  # filter: none
        for px in range(size):
            total = [0, 0, 0, 0]
            for sy in range(SAMPLES):
                for sx in range(SAMPLES):
                    r, g, b, a = pixel((px + (sx + 0.5) / SAMPLES) / size, (py + (sy + 0.5) / SAMPLES) / size, maskable)
                    total = [total[0] + r * a, total[1] + g * a, total[2] + b * a, total[3] + a]
            alpha = total[3]
            row += bytes([round(c / alpha) if alpha else 0 for c in total[:3]] + [round(alpha / SAMPLES ** 2)])
        rows.append(bytes(row))
    return b"".join(rows)


def png(size, pixels):
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)  # 8-bit RGBA
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(pixels, 9)) + chunk(b"IEND", b"")


if __name__ == "__main__":
    for name, size, maskable in (("icon-192.png", 192, False), ("icon-512.png", 512, False),
                                 ("icon-maskable-512.png", 512, True)):
        with open(os.path.join(WEB, name), "wb") as out:
            out.write(png(size, draw(size, maskable)))
        print(f"wrote {name}")
