"""framedial.FrameRenderer against `framedial frames`, strides, errors and a slider on another thread."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import numpy as np
import pytest

import framedial
from conftest import run

WIDTH, HEIGHT = 160, 90


def frames(count: int, channels: int, seed: int = 1) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, 256, (count, HEIGHT, WIDTH, channels), np.uint8)


@pytest.mark.parametrize(
    ("pixel_format", "channels", "state"),
    [
        ("rgb24", 3, {"exposureBias": 0.5, "whiteBalance": "tungsten", "contrast": 1.2}),
        ("rgba", 4, {"filter": "vivid", "zoom": 1.5}),
        ("bgra", 4, {"whiteBalance": 3200, "tint": 20, "saturation": 0.7}),
    ],
)
def test_frames_are_bit_identical_to_framedial_frames(
    tmp_path: Path, framedial_binary: str, pixel_format: str, channels: int, state: dict
) -> None:
    inputs = frames(5, channels)
    renderer = framedial.FrameRenderer(WIDTH, HEIGHT, pixel_format)
    renderer.set_state(state)
    ours = np.stack([renderer.render(frame) for frame in inputs])
    state_file = tmp_path / "state.json"
    state_file.write_text(json.dumps(state))
    theirs = run(
        [
            framedial_binary, "frames", "--size", f"{WIDTH}x{HEIGHT}", "--pix-fmt", pixel_format,
            "--state", str(state_file),
        ],
        stdin=inputs.tobytes(),
    )
    assert ours.tobytes() == theirs
    assert not np.array_equal(ours, inputs)


def test_padded_rows_other_layouts_and_out() -> None:
    frame = frames(1, 3, seed=7)[0]
    renderer = framedial.FrameRenderer(WIDTH, HEIGHT)
    renderer.set_state({"filter": "chrome", "zoom": 2})
    expected = renderer.render(frame)
    assert expected.flags.c_contiguous and expected.shape == (HEIGHT, WIDTH, 3)
    # A frame inside a wider buffer (rows padded), as OpenCV and cropped views give them.
    wide = np.zeros((HEIGHT, WIDTH + 8, 3), np.uint8)
    wide[:, :WIDTH] = frame
    padded = wide[:, :WIDTH]
    assert not padded.flags.c_contiguous
    assert np.array_equal(renderer.render(padded), expected)
    # An output with padded rows is filled in place, padding untouched.
    wide_out = np.full((HEIGHT, WIDTH + 8, 3), 0xAB, np.uint8)
    returned = renderer.render(padded, out=wide_out[:, :WIDTH])
    assert np.array_equal(wide_out[:, :WIDTH], expected)
    assert np.all(wide_out[:, WIDTH:] == 0xAB)
    assert returned.base is wide_out
    # A packed frame into a padded output, and a Fortran-ordered frame (copied first).
    assert np.array_equal(renderer.render(frame, out=np.zeros((HEIGHT, WIDTH + 5, 3), np.uint8)[:, :WIDTH]), expected)
    assert np.array_equal(renderer.render(np.asfortranarray(frame)), expected)
    out = np.zeros_like(frame)
    assert renderer.render(frame, out=out) is out and np.array_equal(out, expected)
    # None is the identity state: a copy.
    renderer.set_state(None)
    assert np.array_equal(renderer.render(frame), frame)


def test_wrong_shapes_dtypes_and_values_raise() -> None:
    renderer = framedial.FrameRenderer(WIDTH, HEIGHT, "rgba")
    good = frames(1, 4)[0]
    with pytest.raises(ValueError, match=r"shape \(90, 160, 3\)"):
        renderer.render(frames(1, 3)[0])
    with pytest.raises(ValueError, match="shape"):
        renderer.render(good[:, :100])
    with pytest.raises(ValueError, match="shape"):
        renderer.render(good.reshape(-1))
    with pytest.raises(TypeError, match="uint8"):
        renderer.render(good.astype(np.float32))
    with pytest.raises(TypeError, match="uint8"):
        renderer.render(good, out=np.zeros(good.shape, np.uint16))
    with pytest.raises(TypeError, match="ndarray"):
        renderer.render(good.tolist())  # type: ignore[arg-type]
    read_only = np.zeros_like(good)
    read_only.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        renderer.render(good, out=read_only)
    with pytest.raises(framedial.FrameDialError, match="overlap"):
        renderer.set_state({"contrast": 1.5})
        renderer.render(good, out=good)
    with pytest.raises(framedial.FrameDialError, match="out of range"):
        renderer.set_state({"zoom": 20})
    with pytest.raises(framedial.FrameDialError, match="rgb24"):
        framedial.FrameRenderer(WIDTH, HEIGHT, "yuv420p")
    with pytest.raises(framedial.FrameDialError, match="0×90"):
        framedial.FrameRenderer(0, HEIGHT)
    with pytest.raises(framedial.FrameDialError, match="pixels"):
        framedial.FrameRenderer(32768, 32768)
    with pytest.raises(framedial.FrameDialError):
        framedial.FrameRenderer(2**40, 1)
    with pytest.raises(TypeError):
        framedial.FrameRenderer(1.5, 2)  # type: ignore[arg-type]


def test_a_slider_moving_on_another_thread_during_1000_frames() -> None:
    positions = [{"exposureBias": round(-1 + 2 * k / 49, 4), "whiteBalance": "cloudy"} for k in range(50)]
    inputs = frames(4, 3, seed=3)
    # What each input gives at each slider position (and at the identity state, before the first move).
    reference = framedial.FrameRenderer(WIDTH, HEIGHT)
    allowed = []
    for frame in inputs:
        results = {frame.tobytes()}
        for position in positions:
            reference.set_state(position)
            results.add(reference.render(frame).tobytes())
        allowed.append(results)
        reference.set_state(None)
    renderer = framedial.FrameRenderer(WIDTH, HEIGHT)
    stop = threading.Event()
    moves = 0

    def move_slider() -> None:
        nonlocal moves
        while not stop.is_set():
            renderer.set_state(positions[moves % len(positions)])
            moves += 1
            stop.wait(0.0003)

    thread = threading.Thread(target=move_slider)
    thread.start()
    seen = set()
    mismatches = 0
    try:
        # Frames start once the slider has moved, and go on for at least 1,000 frames and until it has
        # moved 20 times more (at most 100,000 frames): on a shared machine the slider's thread may wait
        # for a core longer than 1,000 frames take.
        deadline = time.monotonic() + 30
        while moves == 0 and thread.is_alive() and time.monotonic() < deadline:
            time.sleep(0.0001)
        assert moves > 0, "the slider's thread never moved it"
        first = moves
        k = 0
        while k < 1000 or (moves < first + 20 and k < 100_000):
            result = renderer.render(inputs[k % 4]).tobytes()
            mismatches += result not in allowed[k % 4]
            seen.add(result)
            k += 1
    finally:
        stop.set()
        thread.join()
    assert mismatches == 0
    assert moves > 10
    assert len(seen) > 10  # frames followed the slider
