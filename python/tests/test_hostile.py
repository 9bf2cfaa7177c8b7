"""Hostile and unusual values from Python: NUL characters, NumPy scalars, 16-bit frames, huge
unknown values, very wide frames with auto white balance, and renderer handles that are never leaked."""

from __future__ import annotations

import gc
import json
from pathlib import Path

import numpy as np
import pytest

import framedial
from framedial import _frames, _native
from conftest import run


def test_a_nul_in_a_path_is_refused_not_cut(tmp_path: Path, sample: str) -> None:
    cut = tmp_path / "a.jpg"
    with pytest.raises(ValueError, match=r"output_path .*a\.jpg.*NUL"):
        framedial.apply(sample, str(cut) + "\0.png")
    assert not cut.exists() and list(tmp_path.iterdir()) == []
    with pytest.raises(ValueError, match="input_path .*NUL"):
        framedial.apply(sample + "\0.txt", tmp_path / "out.png")
    with pytest.raises(ValueError, match="output_path .*NUL"):
        framedial.apply(sample, (str(cut) + "\0.png").encode())  # type: ignore[arg-type]
    assert list(tmp_path.iterdir()) == []
    with pytest.raises(ValueError, match="pixel_format .*NUL"):
        framedial.FrameRenderer(4, 2, "rgb24\0junk")


def test_a_nul_in_a_key_is_shown_in_the_message(sample: str, tmp_path: Path) -> None:
    with pytest.raises(framedial.FrameDialError) as raised:
        framedial.apply(sample, tmp_path / "out.png", {"exposure\0Bias": 1})
    assert 'Unknown control key "exposure\\0Bias"' in str(raised.value)
    assert "known keys are" in str(raised.value)


def test_numpy_scalars_are_numbers(tmp_path: Path, sample: str) -> None:
    plain = {"exposureBias": 0.5, "tint": 20, "zoomCenter": [0.25, 0.75], "zoom": 2, "grid": True}
    numpy_values = {
        "exposureBias": np.float32(0.5),
        "tint": np.int64(20),
        "zoomCenter": [np.float64(0.25), np.float32(0.75)],
        "zoom": np.int32(2),
        "grid": np.bool_(True),
    }
    framedial.apply(sample, tmp_path / "plain.png", plain, size=np.int64(64))
    framedial.apply(sample, tmp_path / "numpy.png", numpy_values, size=np.int64(64))
    assert (tmp_path / "plain.png").read_bytes() == (tmp_path / "numpy.png").read_bytes()
    renderer = framedial.FrameRenderer(8, 4)
    renderer.set_state({"contrast": np.float32(1.25), "whiteBalance": np.uint16(3200)})
    # Booleans are still not numbers, and NaN is still refused, whatever their type.
    for bad in (True, np.bool_(True), float("nan"), np.float32("nan")):
        with pytest.raises(framedial.FrameDialError, match="exposureBias|NaN"):
            renderer.set_state({"exposureBias": bad})


@pytest.mark.parametrize(("pixel_format", "channels"), [("rgb48le", 3), ("rgba64le", 4)])
def test_sixteen_bit_frames_match_framedial_frames(
    tmp_path: Path, framedial_binary: str, pixel_format: str, channels: int
) -> None:
    width, height = 48, 20
    frames = np.random.default_rng(5).integers(0, 65536, (3, height, width, channels), np.uint16)
    renderer = framedial.FrameRenderer(width, height, pixel_format)
    state = {"exposureBias": 0.4, "filter": "vivid", "zoom": 1.3}
    renderer.set_state(state)
    ours = np.stack([renderer.render(frame) for frame in frames])
    assert ours.dtype == np.uint16 and ours.shape == frames.shape
    # A frame in a wider buffer renders the same.
    wide = np.zeros((height, width + 5, channels), np.uint16)
    wide[:, :width] = frames[0]
    assert np.array_equal(renderer.render(wide[:, :width]), ours[0])
    state_file = tmp_path / "state.json"
    state_file.write_text(json.dumps(state))
    theirs = run(
        [
            framedial_binary, "frames", "--size", f"{width}x{height}", "--pix-fmt", pixel_format,
            "--state", str(state_file),
        ],
        stdin=frames.astype("<u2").tobytes(),
    )
    assert ours.astype("<u2").tobytes() == theirs
    with pytest.raises(TypeError, match="uint16"):
        renderer.render(frames[0].astype(np.uint8))


def test_renderer_handles_are_freed_on_every_path(monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[int] = []
    freed: list[int] = []
    original_call = _native.call
    library = _native.library()
    original_free = library.framedial_frame_renderer_free

    def counting_call(name: str, *arguments: object) -> None:
        original_call(name, *arguments)
        if name == "framedial_frame_renderer_new":
            made.append(arguments[-1]._obj.value)  # type: ignore[attr-defined]

    def counting_free(handle) -> None:  # type: ignore[no-untyped-def]
        freed.append(handle.value)
        original_free(handle)

    monkeypatch.setattr(_frames, "call", counting_call)
    monkeypatch.setattr(library, "framedial_frame_renderer_free", counting_free)
    for pixel_format in ("rgb24", "rgb48le", "rgba64le"):
        renderer = framedial.FrameRenderer(4, 2, pixel_format)
        del renderer
    # A format the C library takes but this package could not lay out is a ValueError, and its
    # renderer is freed at once.
    monkeypatch.delitem(_frames._LAYOUTS, "rgb48le")
    with pytest.raises(ValueError, match="rgb48le"):
        framedial.FrameRenderer(4, 2, "rgb48le")
    with pytest.raises(framedial.FrameDialError, match="rgb24"):
        framedial.FrameRenderer(4, 2, "yuv420p")
    gc.collect()
    assert len(made) == 4
    assert sorted(made) == sorted(freed)


def test_a_huge_unknown_value_gives_a_short_message(sample: str, tmp_path: Path) -> None:
    with pytest.raises(framedial.FrameDialError) as raised:
        framedial.apply(sample, tmp_path / "out.png", {"whiteBalance": "x" * 2_000_000})
    message = str(raised.value)
    assert len(message) < 300 and "2000000 characters" in message, message
    with pytest.raises(framedial.FrameDialError) as raised:
        framedial.apply(sample, tmp_path / "out.png", {f"key{k}": 1 for k in range(20_000)})
    assert 'Unknown control key "key0"' in str(raised.value)
    assert "key1" not in str(raised.value)


def test_auto_white_balance_on_a_1920_by_29_frame() -> None:
    renderer = framedial.FrameRenderer(1920, 29)
    renderer.set_state({"whiteBalance": "auto"})
    levels = (60 + (np.arange(1920 * 29) % 25) * 6).reshape(29, 1920)
    frame = np.stack([levels + 40, levels, levels - 40], axis=-1).astype(np.uint8)
    out = renderer.render(frame)
    red, blue = out[..., 0].astype(float).mean(), out[..., 2].astype(float).mean()
    assert abs(red - blue) < 40, (red, blue)


def test_fail_on_chooses_how_much_damage_refuses_an_input(sample: str, tmp_path: Path) -> None:
    data = Path(sample).read_bytes()
    cut = tmp_path / "cut.jpg"
    cut.write_bytes(data[: len(data) // 2])  # the compressed data ends half way
    out = tmp_path / "out.jpg"
    for level in (None, "warning", "error", "truncated"):
        options = {} if level is None else {"fail_on": level}
        with pytest.raises(framedial.FrameDialError, match=r"cut\.jpg: cannot decode the image: "):
            framedial.apply(cut, out, **options)
        assert not out.exists()
    framedial.apply(cut, out, fail_on="none")
    assert out.stat().st_size > 0
    with pytest.raises(framedial.FrameDialError, match=r'"failOn" must be one of none, truncated, error, warning'):
        framedial.apply(sample, tmp_path / "other.jpg", fail_on="warnings")


def test_a_damaged_heic_is_refused_with_the_decoders_reason(tmp_path: Path) -> None:
    data = bytearray((Path(__file__).resolve().parents[2] / "SampleImages" / "coffee.heic").read_bytes())
    mdat = data.find(b"mdat")
    middle = mdat + 4 + (int.from_bytes(data[mdat - 4 : mdat], "big") - 8) // 2
    data[middle : middle + 64] = bytes(64)  # bytes no NAL unit may hold
    damaged = tmp_path / "zeroed.heic"
    damaged.write_bytes(bytes(data))
    out = tmp_path / "out.jpg"
    with pytest.raises(framedial.FrameDialError, match=r"zeroed\.heic: cannot decode the image: damaged HEIF: "):
        framedial.apply(damaged, out)
    assert not out.exists()
