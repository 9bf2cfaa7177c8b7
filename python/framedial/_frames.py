"""The frame renderer: NumPy frames in, NumPy frames out."""

from __future__ import annotations

import ctypes
import threading
import weakref
from typing import Any, Dict, Mapping, Optional, Tuple

import numpy as np

from ._native import FrameDialError, State, c_string, call, library
from ._still import state_json

# Channels per pixel and the NumPy type of a channel, for each pixel format the C API takes: 8 bits a
# channel, or 16 bits in little-endian order (ffmpeg's rgb48le and rgba64le).
_LAYOUTS: Dict[str, Tuple[int, np.dtype]] = {
    "rgb24": (3, np.dtype(np.uint8)),
    "rgba": (4, np.dtype(np.uint8)),
    "bgra": (4, np.dtype(np.uint8)),
    "rgb48le": (3, np.dtype("<u2")),
    "rgba64le": (4, np.dtype("<u2")),
}


def _free_all(handles: Dict[int, ctypes.c_void_p]) -> None:
    free = library().framedial_frame_renderer_free
    for handle in handles.values():
        free(handle)
    handles.clear()


class FrameRenderer:
    """Renders video frames held in NumPy arrays with FrameDial's controls.

    A frame is an array of shape ``(height, width, channels)``: ``uint8`` with 3 channels for
    ``"rgb24"``, 4 for ``"rgba"`` and ``"bgra"`` (alpha passes through unchanged); little-endian
    ``uint16`` with 3 channels for ``"rgb48le"`` and 4 for ``"rgba64le"``. Rows may be padded (a slice of
    a wider array, a stride such as OpenCV's); pixels within a row must be packed, or the frame is
    copied first. The output is bit-identical to ``framedial frames`` for the same state and frames.

    The GIL is released while a frame renders, so several threads, each with its own renderer, render
    at once; :meth:`set_state` may be called from any thread, also while a frame renders. One thread
    at a time renders with one renderer (a second gets ``FrameDialError``).

    Args:
        width: frame width in pixels (1 … 32768).
        height: frame height in pixels (1 … 32768; at most 100 million pixels).
        pixel_format: ``"rgb24"`` (default), ``"rgba"``, ``"bgra"``, ``"rgb48le"`` or
            ``"rgba64le"``.

    Raises:
        FrameDialError: for a size or pixel format FrameDial does not take.
        ValueError: for a pixel format with a NUL character in it.
    """

    def __init__(self, width: int, height: int, pixel_format: str = "rgb24") -> None:
        if not all(isinstance(side, (int, np.integer)) for side in (width, height)):
            raise TypeError("width and height must be whole numbers of pixels")
        self.width = int(width)
        self.height = int(height)
        self.pixel_format = str(pixel_format).lower()
        self._format_name = c_string(self.pixel_format, "pixel_format")
        self._lock = threading.Lock()
        # One C renderer per row stride in use, all following the same state; freed with this object.
        self._handles: Dict[int, ctypes.c_void_p] = {}
        self._finalizer = weakref.finalize(self, _free_all, self._handles)
        self._state: Optional[State] = None
        if not -(2**31) <= self.width < 2**31 or not -(2**31) <= self.height < 2**31:
            raise FrameDialError(f"frame size {self.width}×{self.height} is not allowed", 1)
        self.channels, self.dtype = _LAYOUTS.get(self.pixel_format, (0, np.dtype(np.uint8)))
        self._handle(0)  # checks the size and the format now
        if self.channels == 0:  # a format the C library takes that this package cannot lay out
            self._finalizer()
            known = ", ".join(_LAYOUTS)
            raise ValueError(f"pixel format {self.pixel_format!r} is not one of {known}")
        #: Bytes per pixel.
        self.pixel_bytes = self.channels * self.dtype.itemsize

    def _handle(self, row_stride: int) -> ctypes.c_void_p:
        """The C renderer for rows `row_stride` bytes apart (0: packed), made on first use."""
        key = 0 if row_stride == self.width * self.channels * self.dtype.itemsize else row_stride
        with self._lock:
            handle = self._handles.get(key)
            if handle is None:
                handle = ctypes.c_void_p()
                call(
                    "framedial_frame_renderer_new",
                    self.width,
                    self.height,
                    self._format_name,
                    key,
                    ctypes.byref(handle),
                )
                if self._state is not None:
                    call("framedial_frame_renderer_set_state", handle, self._state.handle)
                self._handles[key] = handle
            return handle

    def set_state(self, state: Optional[Mapping[str, Any]]) -> None:
        """Sets the control values the next frames render with: a dict of the README's JSON keys
        (``{"exposureBias": 0.5, "whiteBalance": "tungsten"}``), keys left out at their defaults;
        None is the identity state. Callable from any thread, also during :meth:`render`: a frame
        reads the latest state when it starts (a change in its first half restarts it).

        Raises:
            FrameDialError: naming the key, the value and the allowed range.
        """
        parsed = State(state_json(state))
        with self._lock:
            for handle in self._handles.values():
                call("framedial_frame_renderer_set_state", handle, parsed.handle)
            self._state = parsed

    def _check(self, array: Any, name: str) -> np.ndarray:
        if not isinstance(array, np.ndarray):
            raise TypeError(f"{name} must be a numpy.ndarray, not {type(array).__name__}")
        if array.dtype != self.dtype:
            kind = "uint8" if self.dtype.itemsize == 1 else "little-endian uint16"
            raise TypeError(
                f"{name} must have dtype {kind} for {self.pixel_format}, not {array.dtype}"
            )
        expected = (self.height, self.width, self.channels)
        if array.shape != expected:
            raise ValueError(
                f"{name} has shape {array.shape}; a {self.width}×{self.height} {self.pixel_format} "
                f"frame has shape {expected}"
            )
        return array

    def _row_stride(self, array: np.ndarray) -> Optional[int]:
        """The array's row stride when its rows are evenly spaced and its pixels packed, else None."""
        rows, pixels, channels = array.strides
        packed = self.width * self.pixel_bytes
        item = self.dtype.itemsize
        if channels == item and pixels == self.pixel_bytes and rows >= packed and rows % item == 0:
            return rows
        if self.height == 1 and channels == item and pixels == self.pixel_bytes:
            return packed
        return None

    def render(self, frame: np.ndarray, out: Optional[np.ndarray] = None) -> np.ndarray:
        """Renders `frame` and returns the result: `out` when given (filled in place), else a new
        C-contiguous array of the same shape.

        Args:
            frame: array of shape ``(height, width, channels)`` of the pixel format's dtype;
                C-contiguous or with padded rows. Only read.
            out: optional array of the same shape and dtype to write into (writable, not overlapping
                `frame`); C-contiguous or with padded rows.

        Raises:
            TypeError: `frame` or `out` is not a numpy array of the pixel format's dtype.
            ValueError: a shape that is not ``(height, width, channels)``, or `out` not writable.
            FrameDialError: the frame cannot be rendered, or another thread is rendering with this
                renderer.
        """
        frame = self._check(frame, "frame")
        if out is None:
            out = np.empty((self.height, self.width, self.channels), dtype=self.dtype)
        else:
            self._check(out, "out")
            if not out.flags.writeable:
                raise ValueError("out is read-only")
        out_stride = self._row_stride(out)
        target = out
        if out_stride is None:  # an unusual layout: render into a packed array, then copy
            target = np.empty_like(out, order="C")
            out_stride = self.width * self.pixel_bytes
        source = frame
        if self._row_stride(frame) != out_stride:
            # Both buffers share one layout: copy the frame into the output's.
            item = self.dtype.itemsize
            rows = np.empty((self.height, out_stride // item), dtype=self.dtype)
            source = rows[:, : self.width * self.channels].reshape(
                self.height, self.width, self.channels
            )
            source[...] = frame
        handle = self._handle(out_stride)
        size = out_stride * (self.height - 1) + self.width * self.pixel_bytes
        call(
            "framedial_frame_renderer_render",
            handle,
            ctypes.c_void_p(source.ctypes.data),
            size,
            ctypes.c_void_p(target.ctypes.data),
            size,
            None,
        )
        if target is not out:
            out[...] = target
        return out
