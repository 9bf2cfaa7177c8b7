"""Camera raws through framedial.apply (the C API): developed on LibRaw exactly as `framedial apply`
develops them, and refused with FrameDial's message when LibRaw cannot."""

from __future__ import annotations

import struct
from pathlib import Path

import pytest

import framedial
from conftest import run


def bayer_dng(width: int = 32, height: int = 24, compression: int = 1) -> bytes:
    """A little-endian Bayer DNG (RGGB, 12-bit codes in 16-bit samples, black 256): a horizontal ramp,
    with an as-shot neutral of (0.5, 1, 0.7) and sRGB's own matrix as the camera's."""
    neutral = (0.5, 1.0, 0.7)
    codes = bytearray()
    for y in range(height):
        for x in range(width):
            channel = (0, 1, 1, 2)[(y % 2) * 2 + x % 2]
            value = min(1.0, (0.05 + 0.5 * x / width) * neutral[channel])
            codes += struct.pack("<H", round(256 + value * (4095 - 256)))
    matrix = [3.2409699, -1.5373832, -0.4986108, -0.9692436, 1.8759675, 0.0415551,
              0.0556301, -0.2039770, 1.0569715]
    entries = [  # tag, type, count, value bytes
        (256, 4, 1, struct.pack("<I", width)), (257, 4, 1, struct.pack("<I", height)),
        (258, 3, 1, struct.pack("<H", 16)), (259, 3, 1, struct.pack("<H", compression)),
        (262, 3, 1, struct.pack("<H", 32803)), (271, 2, 7, b"Pentax\0"), (272, 2, 4, b"K-3\0"),
        (273, 4, 1, b"PIXL"), (277, 3, 1, struct.pack("<H", 1)),
        (278, 4, 1, struct.pack("<I", height)), (279, 4, 1, struct.pack("<I", len(codes))),
        (33421, 3, 2, struct.pack("<HH", 2, 2)), (33422, 1, 4, bytes([0, 1, 1, 2])),
        (50706, 1, 4, bytes([1, 4, 0, 0])), (50714, 4, 1, struct.pack("<I", 256)),
        (50717, 4, 1, struct.pack("<I", 4095)),
        (50721, 10, 9, b"".join(struct.pack("<ii", round(v * 10000), 10000) for v in matrix)),
        (50728, 5, 3, b"".join(struct.pack("<II", round(v * 10000), 10000) for v in neutral)),
    ]
    table_end = 8 + 2 + 12 * len(entries) + 4
    extra = bytearray()
    table = struct.pack("<H", len(entries))
    pixels_at = table_end + sum(len(v) + len(v) % 2 for _, _, _, v in entries if len(v) > 4)
    for tag, kind, count, value in entries:
        if value == b"PIXL":
            value = struct.pack("<I", pixels_at)
        if len(value) <= 4:
            table += struct.pack("<HHI", tag, kind, count) + value.ljust(4, b"\0")
        else:
            table += struct.pack("<HHII", tag, kind, count, table_end + len(extra))
            extra += value + (b"\0" if len(value) % 2 else b"")
    return b"II*\0" + struct.pack("<I", 8) + table + struct.pack("<I", 0) + extra + codes


def test_a_dng_is_developed_as_framedial_apply_develops_it(
    tmp_path: Path, framedial_binary: str
) -> None:
    raw = tmp_path / "IMG_0001.DNG"
    raw.write_bytes(bayer_dng())
    ours = tmp_path / "api.tif"
    theirs = tmp_path / "cli.tif"
    framedial.apply(raw, ours, {"exposureBias": 1})
    run([framedial_binary, "apply", str(raw), "-o", str(theirs), "--set", "ev=1"])
    assert ours.read_bytes() == theirs.read_bytes()
    # Developed: three 16-bit bands of 32×24, not the one-band mosaic libvips's TIFF loader would give.
    header = run([framedial_binary, "info", str(ours)]).decode()
    assert "32×24, 3 bands, ushort" in header


def test_a_jpeg_xl_dng_raises_naming_the_compression(tmp_path: Path) -> None:
    raw = tmp_path / "IMG_0002.DNG"
    raw.write_bytes(bayer_dng(compression=52546))
    output = tmp_path / "never.jpg"
    with pytest.raises(framedial.FrameDialError, match="JPEG XL–compressed: LibRaw 0.20"):
        framedial.apply(raw, output)
    assert not output.exists()
