"""framedial.apply and framedial.version against the framedial command."""

from __future__ import annotations

import json
import subprocess
import warnings
from pathlib import Path

import pytest

import framedial
from conftest import run


def test_version_is_the_commands(framedial_binary: str) -> None:
    printed = run([framedial_binary, "--version"]).decode().split()
    assert printed[0] == "framedial"
    assert framedial.version() == printed[1]


@pytest.mark.parametrize(
    ("state", "options", "arguments", "name"),
    [
        ({"exposureBias": 0.5, "whiteBalance": "tungsten", "contrast": 1.2}, {}, [], "out.png"),
        (
            {"filter": "vivid", "zoom": 1.5, "zoomCenter": [0.4, 0.5]},
            {"size": "96x64", "quality": 80},
            ["--size", "96x64", "--quality", "80"],
            "out.jpg",
        ),
        (
            {"saturation": 1.3},
            {"fit": "iphone-16-pro:landscape", "fit_mode": "contain", "format": "webp"},
            ["--fit", "iphone-16-pro:landscape", "--fit-mode", "contain"],
            "out.webp",
        ),
        (None, {"size": 50, "enlarge": True}, ["--size", "50", "--enlarge"], "out.png"),
        (
            {"exposureBias": 0.3},
            {"profile": "p3", "strip": True},
            ["--profile", "p3", "--strip"],
            "out.jpg",
        ),
        ({"contrast": 1.1}, {"strip_location": True}, ["--strip-location"], "out.jpg"),
        (
            {"contrast": 1.2},
            {"effort": "balanced", "quality": 70},
            ["--effort", "balanced", "--quality", "70"],
            "out.heic",
        ),
    ],
)
def test_apply_is_bit_identical_to_framedial_apply(
    tmp_path: Path, sample: str, framedial_binary: str, state, options, arguments, name
) -> None:
    ours = tmp_path / ("api-" + name)
    theirs = tmp_path / ("cli-" + name)
    framedial.apply(sample, ours, state, **options)
    state_file = tmp_path / "state.json"
    state_file.write_text(json.dumps(state or {}))
    run([framedial_binary, "apply", sample, "-o", str(theirs), "--state", str(state_file)] + arguments)
    assert ours.read_bytes() == theirs.read_bytes()
    assert len(ours.read_bytes()) > 1000


def test_bad_state_raises_with_frameDials_message(tmp_path: Path, sample: str) -> None:
    output = tmp_path / "never.png"
    with pytest.raises(framedial.FrameDialError) as raised:
        framedial.apply(sample, output, {"exposureBias": 9})
    # The message `framedial apply --state` gives for the same file, at its line and column.
    assert str(raised.value) == (
        'state JSON:1:2: The value 9 for "exposure-bias" is out of range; allowed: -8 … 8 EV.'
    )
    assert raised.value.status == 2
    with pytest.raises(framedial.FrameDialError, match="Unknown control key"):
        framedial.apply(sample, output, {"exposureBais": 1})
    with pytest.raises(framedial.FrameDialError, match="not a finite number|not a valid JSON"):
        framedial.apply(sample, output, {"contrast": float("nan")})
    with pytest.raises(TypeError):
        framedial.apply(sample, output, "ev=1")  # type: ignore[arg-type]
    assert not output.exists()


def test_keywords_are_the_libraries_option_keys_in_snake_case(tmp_path: Path, sample: str) -> None:
    # The keywords come from the library's declarations (framedial_still_option_keys), in its order.
    with pytest.raises(framedial.FrameDialError) as raised:
        framedial.apply(sample, tmp_path / "never.png", qualty=90)
    assert raised.value.status == 3
    assert str(raised.value) == (
        'unknown option "qualty"; known options are quality, format, fit, fit_mode, size, enlarge, '
        "pixel_limit, background, profile, strip, strip_location, effort, fail_on, hdr_photo, "
        "overwrite"
    )
    # Each keyword reaches its key: a wrong value is refused naming the key.
    for keyword, key, value in [
        ("fit_mode", "fitMode", "sideways"),
        ("pixel_limit", "pixelLimit", 0),
        ("fail_on", "failOn", "never"),
        ("strip_location", "stripLocation", "yes"),
        ("hdr_photo", "hdrPhoto", "maybe"),
    ]:
        with pytest.raises(framedial.FrameDialError, match=f'"{key}" must be'):
            framedial.apply(sample, tmp_path / "never.png", **{keyword: value})


def test_bad_files_and_options_raise(tmp_path: Path, sample: str) -> None:
    output = tmp_path / "never.png"
    with pytest.raises(framedial.FrameDialError, match="no-such.jpg") as raised:
        framedial.apply(tmp_path / "no-such.jpg", output)
    assert raised.value.status == 4
    broken = tmp_path / "broken.jpg"
    broken.write_bytes(b"not an image")
    with pytest.raises(framedial.FrameDialError, match="broken.jpg"):
        framedial.apply(broken, output)
    with pytest.raises(framedial.FrameDialError, match="quality"):
        framedial.apply(sample, output, quality=0)
    with pytest.raises(framedial.FrameDialError, match='unknown option "qualty"'):
        framedial.apply(sample, output, qualty=90)
    with pytest.raises(framedial.FrameDialError, match="disagrees"):
        framedial.apply(sample, output, format="jpeg")
    with pytest.raises(framedial.FrameDialError, match='"effort" must be one of fast, balanced, small'):
        framedial.apply(sample, output, effort="slowest")
    with pytest.raises(framedial.FrameDialError, match="give one"):
        framedial.apply(sample, output, size=100, fit="iphone-16")
    with pytest.raises(framedial.FrameDialError, match="iphone-16-pro"):
        framedial.apply(sample, output, fit="iphone16pro")
    with pytest.raises(framedial.FrameDialError, match="input"):
        framedial.apply(sample, sample)
    with pytest.raises(framedial.FrameDialError, match="not a profile"):
        framedial.apply(sample, output, profile="wide")
    with pytest.raises(framedial.FrameDialError, match="no-such.icc: cannot read"):
        framedial.apply(sample, output, profile=tmp_path / "no-such.icc")
    with pytest.raises(framedial.FrameDialError, match="already drops the location"):
        framedial.apply(sample, output, strip=True, strip_location=True)
    with pytest.raises(framedial.FrameDialError, match='"strip" must be true or false'):
        framedial.apply(sample, output, strip="yes")
    assert not output.exists()


def test_an_existing_output_is_replaced_only_with_overwrite(tmp_path: Path, sample: str, framedial_binary: str) -> None:
    output = tmp_path / "kept.png"
    output.write_bytes(b"mine")
    with pytest.raises(framedial.FrameDialError) as raised:
        framedial.apply(sample, output, {"exposureBias": 0.5})
    assert str(raised.value) == f"{output} exists; pass overwrite=True to replace it"
    assert raised.value.status == 4
    assert output.read_bytes() == b"mine"
    # Writing onto the input is refused as such, with or without overwrite.
    with pytest.raises(framedial.FrameDialError, match="refusing to write onto the input file"):
        framedial.apply(sample, sample, overwrite=True)
    with pytest.raises(framedial.FrameDialError, match='"overwrite" must be true or false'):
        framedial.apply(sample, output, overwrite="yes")  # type: ignore[arg-type]
    framedial.apply(sample, output, {"exposureBias": 0.5}, overwrite=True)
    theirs = tmp_path / "cli.png"
    state_file = tmp_path / "state.json"
    state_file.write_text(json.dumps({"exposureBias": 0.5}))
    run([framedial_binary, "apply", sample, "-o", str(theirs), "--state", str(state_file)])
    assert output.read_bytes() == theirs.read_bytes()


def transparent_png(path: Path) -> None:
    """Writes an 8 x 8 RGBA PNG, half transparent."""
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    rows = b"".join(b"\x00" + bytes([200, 40, 40, 128]) * 8 for _ in range(8))
    path.write_bytes(
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", 8, 8, 8, 6, 0, 0, 0))
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


def test_what_an_output_cannot_carry_is_a_warning_as_on_the_command_line(
    tmp_path: Path, sample: str, framedial_binary: str
) -> None:
    png = tmp_path / "transparent.png"
    transparent_png(png)
    with pytest.warns(framedial.FrameDialWarning) as caught:
        framedial.apply(png, tmp_path / "flat.jpg")
    said = [str(warning.message) for warning in caught]
    assert said == [f"{png}: its transparency was flattened onto white (jpeg has no alpha; --background sets the colour)"]
    result = subprocess.run(
        [framedial_binary, "apply", str(png), "-o", str(tmp_path / "cli.jpg")], capture_output=True, check=True
    )
    assert f"framedial apply: warning: {said[0]}" in result.stderr.decode()
    # An output that carries everything warns of nothing.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        framedial.apply(sample, tmp_path / "plain.png")
