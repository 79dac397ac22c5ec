"""A palette picture as a PNG, written for speed: every scanline unfiltered, compressed by zlib-ng.

Pillow's PNG writer tries every PNG filter on every scanline of an 8-bit image and keeps the best;
for flat artwork on a fixed palette the filters gain little, and choosing them costs several times
what compressing takes. A PNG is four chunks around the compressed scanlines (ISO/IEC 15948:
signature, IHDR, PLTE, IDAT, IEND, each with its CRC-32), so the picture is written here with filter
type 0 ("None") on every line: the scanlines are the image's own bytes, each after a 0 byte, which a
canvas one column wider whose first column is index 0 gives as they are. zlib-ng (the maintained,
faster implementation of zlib's format) compresses them; every PNG decoder reads the result.
"""

from __future__ import annotations

import struct
import zlib

from PIL import Image
from zlib_ng import zlib_ng

LEVEL = 1
"""zlib's compression level: 1 is the fastest, and the pictures' flat colours leave 2–9 little to gain
(docs/performance.md)."""
SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def encode(image: Image.Image, palette: bytes) -> bytes:
    """The PNG of a palette (`P`) image whose pixels use only the colours of `palette` (its first
    entries, three bytes each: given, as the image's own palette is read back as a list of ints)."""
    if image.mode != "P":
        raise ValueError(f"a palette image is encoded here, not mode {image.mode}")
    width, height = image.size
    lines = Image.new("P", (width + 1, height), 0)
    lines.paste(image, (1, 0))
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)  # 8 bits a pixel, palette colour
    return b"".join(
        (
            SIGNATURE,
            _chunk(b"IHDR", header),
            _chunk(b"PLTE", palette),
            _chunk(b"IDAT", zlib_ng.compress(lines.tobytes(), LEVEL)),
            _chunk(b"IEND", b""),
        )
    )
