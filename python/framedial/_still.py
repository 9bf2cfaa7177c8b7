"""Stills and versions."""

from __future__ import annotations

import ctypes
import functools
import json
import numbers
import os
import re
import warnings
from typing import Any, Dict, List, Mapping, Optional, Sequence, Union

from ._native import FrameDialError, FrameDialWarning, State, c_path, call, call_for_text

PathLike = Union[str, "os.PathLike[str]"]


@functools.lru_cache(maxsize=None)
def option_keys() -> Dict[str, str]:
    """Python's keyword for each key of the C API's still options, in the order FrameDial's messages
    list them: the keys come from the library (framedial_still_option_keys, the declarations the
    command line's options come from too), each keyword the key in snake case (``pixelLimit`` is
    ``pixel_limit``)."""
    text = ctypes.c_char_p()
    call("framedial_still_option_keys", ctypes.byref(text))
    keys: List[str] = json.loads((text.value or b"[]").decode("utf-8"))
    return {re.sub("[A-Z]", lambda letter: "_" + letter.group(0).lower(), key): key for key in keys}


# How the C API's message for an existing output ends.
_C_OVERWRITE_HINT = 'set "overwrite": true to replace it'


def plain_value(value: Any) -> Any:
    """A value json cannot write as it is, made plain: NumPy scalars (``numpy.int64(2)``,
    ``numpy.float32(0.5)``, ``numpy.bool_(True)``) become the Python numbers and booleans they hold,
    other real numbers (``fractions.Fraction``) floats. FrameDial then checks them as it checks Python
    values (a boolean is not a number, NaN is refused)."""
    item = getattr(value, "item", None)
    if getattr(value, "shape", None) == () and callable(item):
        plain = item()
        if isinstance(plain, (bool, int, float)):
            return plain
    if isinstance(value, numbers.Real):
        return float(value)
    raise TypeError(f"Object of type {type(value).__name__} is not a number, string or list")


def state_json(state: Optional[Mapping[str, Any]]) -> str:
    """The JSON text of a state dict (the README's JSON keys); None is the identity state."""
    if state is None:
        return "{}"
    if not isinstance(state, Mapping):
        raise TypeError(f"state must be a dict of control values or None, not {type(state).__name__}")
    try:
        return json.dumps(dict(state), default=plain_value)
    except (TypeError, ValueError) as error:
        raise FrameDialError(f"the state cannot be written as JSON: {error}", 2) from None


def still_options(options: Mapping[str, Any], also_known: Sequence[str] = ()) -> Dict[str, Any]:
    """The C API's still options object for Python's keyword `options`; an unknown keyword is a
    FrameDialError listing the known ones (and `also_known`, the caller's own)."""
    keys = option_keys()
    chosen: Dict[str, Any] = {}
    for key, value in options.items():
        if key not in keys:
            known = ", ".join([*keys, *also_known])
            raise FrameDialError(f'unknown option "{key}"; known options are {known}', 3)
        if key == "background":
            value = list(value)
        elif key == "profile" and isinstance(value, os.PathLike):
            value = os.fspath(value)
        chosen[keys[key]] = value
    return chosen


def apply(
    input_path: PathLike,
    output_path: PathLike,
    state: Optional[Mapping[str, Any]] = None,
    *,
    overwrite: bool = False,
    **options: Any,
) -> None:
    """Renders the image at `input_path` with `state` and writes it to `output_path`, exactly as
    `framedial apply` does (bit-identical): upright, in the picture's own colour space (Display P3
    stays P3) unless ``profile`` says otherwise, EXIF kept with orientation 1 unless stripped, written
    to a temporary file and renamed, so a failure leaves nothing behind. An existing `output_path` is
    replaced only with ``overwrite=True`` (as ``framedial apply`` needs ``--overwrite``).

    Args:
        input_path: a JPEG, PNG, WebP, TIFF, HEIC, AVIF or GIF file.
        output_path: the file to write; its extension picks the format, its folder is created.
        state: control values with the README's JSON keys, e.g.
            ``{"exposureBias": 0.5, "whiteBalance": "tungsten"}``; None is the identity state.
        overwrite: replace `output_path` when it exists (without it, an existing file is left as it
            is and FrameDialError says so, before any work).
        **options: ``quality`` (1 … 100), ``format`` ("jpeg", "png", "webp", "tiff", "heic",
            "avif"), ``fit`` ("iphone-16-pro", "ipad-pro-11:landscape"), ``fit_mode`` ("cover",
            "contain"), ``size`` (2048 or "1920x1080"), ``enlarge`` (bool, with size),
            ``pixel_limit`` (int), ``background`` ((r, g, b) for transparency in a JPEG),
            ``profile`` ("keep", "srgb", "p3" or the path of an RGB .icc file; ``os.PathLike``
            accepted), ``strip`` (bool: no EXIF, XMP or IPTC), ``strip_location`` (bool: no GPS or
            location fields),
            ``effort`` ("fast", "balanced", "small": HEIC encoding time against file size),
            ``fail_on`` ("none", "truncated", "error", "warning": how much damage a decoder may
            report before the input is refused; default "warning", any damage it notices),
            ``hdr_photo`` ("keep", "drop": an HDR photo's gain map kept in a HEIC output, edited
            with the photo, the default, or left out of every output without a warning).

    Warns:
        FrameDialWarning: once for each thing the output could not carry over, with the sentence
            ``framedial apply`` prints (an HDR photo's gain map left out of a JPEG, transparency
            flattened onto a JPEG's background, metadata the format cannot hold).

    Raises:
        FrameDialError: with FrameDial's message, for bad control values or options, an input that
            cannot be read or decoded, an output that exists (without ``overwrite=True``) or cannot be
            written.
        ValueError: for a path with a NUL character in it (C would read a shorter path).

    The GIL is released while the image renders.
    """
    input_bytes = c_path(input_path, "input_path")
    output_bytes = c_path(output_path, "output_path")
    handle = State(state_json(state))
    chosen = still_options(options, also_known=["overwrite"])
    if overwrite is not False:
        chosen["overwrite"] = overwrite
    try:
        options_json = json.dumps(chosen, default=plain_value)
    except (TypeError, ValueError) as error:
        raise FrameDialError(f"the options cannot be written as JSON: {error}", 3) from None
    try:
        report = call_for_text(
            "framedial_apply_report",
            input_bytes,
            output_bytes,
            handle.handle,
            options_json.encode("utf-8"),
        )
    except FrameDialError as error:
        # The C API names its own option; Python's is a keyword argument.
        message = str(error)
        if message.endswith(_C_OVERWRITE_HINT):
            message = message[: -len(_C_OVERWRITE_HINT)] + "pass overwrite=True to replace it"
            raise FrameDialError(message, error.status) from None
        raise
    for warning in json.loads(report).get("warnings", []):
        warnings.warn(warning, FrameDialWarning, stacklevel=2)


def version() -> str:
    """FrameDial's version, e.g. "0.1.0" (the one `framedial --version` prints)."""
    text = ctypes.c_char_p()
    call("framedial_version", ctypes.byref(text), None)
    return (text.value or b"").decode("utf-8")
