"""Draw the web app's PNG icons (``ludoteca/server/static/icons/icon-192.png`` and
``icon-512.png``, named in ``manifest.webmanifest``) from the favicon's design: a white and a red
stone on the page header's dark blue, the whole square filled (launchers cut their own shape,
and the stones stay inside the central safe zone of a maskable icon).  Pure Python (zlib and a
hand-written PNG), so the icons can be remade anywhere: ``python scripts/app_icons.py``."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

ICONS = Path(__file__).resolve().parent.parent / "ludoteca" / "server" / "static" / "icons"
BACKGROUND = (0x1D, 0x23, 0x30)
#: the stones on the favicon's 64-unit square: centre x, centre y, radius, colour
STONES = ((22.0, 32.0, 12.0, (0xFD, 0xFD, 0xFB)), (42.0, 32.0, 12.0, (0xD9, 0x41, 0x3A)))


def pixel(x: float, y: float, unit: float) -> tuple[int, int, int]:
    """The colour at pixel centre (x, y) of an icon of `unit` pixels per design unit: a stone's
    edge is blended over one pixel, so the circles are smooth."""
    colour = BACKGROUND
    for cx, cy, r, fill in STONES:
        distance = ((x / unit - cx) ** 2 + (y / unit - cy) ** 2) ** 0.5
        cover = min(1.0, max(0.0, (r - distance) * unit + 0.5))
        colour = (
            round(colour[0] + (fill[0] - colour[0]) * cover),
            round(colour[1] + (fill[1] - colour[1]) * cover),
            round(colour[2] + (fill[2] - colour[2]) * cover),
        )
    return colour


def png(size: int) -> bytes:
    """An opaque RGB PNG of the icon, `size` pixels square."""
    unit = size / 64
    rows = bytearray()
    for j in range(size):
        rows.append(0)  # filter: none
        for i in range(size):
            rows.extend(pixel(i + 0.5, j + 0.5, unit))

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(bytes(rows), 9))
        + chunk(b"IEND", b"")
    )


def main() -> None:
    ICONS.mkdir(parents=True, exist_ok=True)
    for size in (192, 512):
        (ICONS / f"icon-{size}.png").write_bytes(png(size))


if __name__ == "__main__":
    main()
