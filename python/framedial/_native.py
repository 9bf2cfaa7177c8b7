"""The C API of libFrameDialC.so through ctypes: loading, signatures, errors."""

from __future__ import annotations

import ctypes
import os
import threading
from pathlib import Path
from typing import Optional


class FrameDialError(Exception):
    """An error FrameDial reported: bad control values or options, a file that cannot be read or
    written, a frame buffer that does not fit. The message is FrameDial's own."""

    def __init__(self, message: str, status: int = 0) -> None:
        super().__init__(message)
        #: The C API's status code (see framedial.h): 1 argument, 2 state, 3 options, 4 render, 5 busy.
        self.status = status


class FrameDialWarning(UserWarning):
    """What FrameDial could not carry into an output it wrote, one sentence naming the input (as
    ``framedial apply`` prints it): an HDR photo's gain map left out of a JPEG, transparency flattened
    onto a JPEG's background, metadata the output's format cannot hold."""


_LIBRARY_NAME = "libFrameDialC.so"
_lock = threading.Lock()
_library: Optional[ctypes.CDLL] = None


def _candidates() -> list[str]:
    """Where the library is looked for, in order: $FRAMEDIAL_LIBRARY, the package's own lib/ folder
    (scripts/python-install.sh copies it there), then the dynamic loader's paths (scripts/install.sh
    PREFIX with PREFIX/lib known to the loader)."""
    found = []
    override = os.environ.get("FRAMEDIAL_LIBRARY")
    if override:
        found.append(override)
    found.append(str(Path(__file__).resolve().parent / "lib" / _LIBRARY_NAME))
    found.append(_LIBRARY_NAME)
    return found


_char_pp = ctypes.POINTER(ctypes.c_char_p)
_void_pp = ctypes.POINTER(ctypes.c_void_p)


def _declare(library: ctypes.CDLL) -> None:
    """Gives every function its C signature (pointers as c_void_p, so nothing is converted twice)."""
    signatures = {
        "framedial_version": ([_char_pp, _char_pp, _void_pp], ctypes.c_int),
        "framedial_still_option_keys": ([_char_pp, _void_pp], ctypes.c_int),
        "framedial_state_from_json": ([ctypes.c_char_p, _void_pp, _void_pp], ctypes.c_int),
        "framedial_state_to_json": ([ctypes.c_void_p, _void_pp, _void_pp], ctypes.c_int),
        "framedial_state_free": ([ctypes.c_void_p], None),
        "framedial_string_free": ([ctypes.c_void_p], None),
        "framedial_apply": (
            [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_void_p, ctypes.c_char_p, _void_pp],
            ctypes.c_int,
        ),
        "framedial_apply_report": (
            [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_void_p, ctypes.c_char_p, _void_pp, _void_pp],
            ctypes.c_int,
        ),
        "framedial_batch_plan": ([ctypes.c_char_p, _void_pp, _void_pp], ctypes.c_int),
        "framedial_batch_render": (
            [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_int32, _void_pp, _void_pp],
            ctypes.c_int,
        ),
        "framedial_batch_finish": ([ctypes.c_char_p, _void_pp, _void_pp], ctypes.c_int),
        "framedial_frame_renderer_new": (
            [ctypes.c_int32, ctypes.c_int32, ctypes.c_char_p, ctypes.c_size_t, _void_pp, _void_pp],
            ctypes.c_int,
        ),
        "framedial_frame_renderer_set_state": (
            [ctypes.c_void_p, ctypes.c_void_p, _void_pp],
            ctypes.c_int,
        ),
        "framedial_frame_renderer_render": (
            [
                ctypes.c_void_p,
                ctypes.c_void_p,
                ctypes.c_size_t,
                ctypes.c_void_p,
                ctypes.c_size_t,
                ctypes.POINTER(ctypes.c_uint64),
                _void_pp,
            ],
            ctypes.c_int,
        ),
        "framedial_frame_renderer_free": ([ctypes.c_void_p], None),
    }
    for name, (arguments, result) in signatures.items():
        function = getattr(library, name)
        function.argtypes = arguments
        function.restype = result


def library() -> ctypes.CDLL:
    """The loaded C library (loaded once). ctypes.CDLL releases the GIL during every call, so frames
    render while other Python threads run."""
    global _library
    if _library is not None:
        return _library
    with _lock:
        if _library is None:
            problems = []
            for candidate in _candidates():
                if os.sep in candidate and not os.path.exists(candidate):
                    problems.append(f"{candidate}: no such file")
                    continue
                try:
                    loaded = ctypes.CDLL(candidate)
                except OSError as error:
                    problems.append(str(error))
                    continue
                _declare(loaded)
                _library = loaded
                break
            else:
                raise FrameDialError(
                    f"cannot load {_LIBRARY_NAME} (run scripts/python-install.sh in the FrameDial "
                    "checkout, or set FRAMEDIAL_LIBRARY to its path): " + "; ".join(problems)
                )
        return _library


def c_string(text: str, name: str) -> bytes:
    """`text` as the NUL-terminated UTF-8 the C API reads; a NUL inside it, which C would take for
    the end of the string, is a ValueError naming `name`."""
    encoded = text.encode("utf-8")
    _refuse_nul(encoded, text, name)
    return encoded


def c_path(path: "os.PathLike[str] | str | bytes", name: str) -> bytes:
    """A file path as the C API reads it (the file system's encoding); a path with a NUL in it is a
    ValueError naming `name`, not a shorter path."""
    encoded = os.fsencode(path)
    _refuse_nul(encoded, path, name)
    return encoded


def _refuse_nul(encoded: bytes, original: object, name: str) -> None:
    if b"\0" in encoded:
        raise ValueError(
            f"{name} {original!r} contains a NUL character (\\0), which cannot be passed to "
            "FrameDial; remove it"
        )


def check(status: int, error: ctypes.c_void_p) -> None:
    """Raises FrameDialError with the C API's message when `status` is not 0, freeing the message."""
    if status == 0:
        return
    message = "FrameDial failed without a message"
    if error.value:
        message = ctypes.string_at(error.value).decode("utf-8", "replace")
        library().framedial_string_free(error)
    raise FrameDialError(message, status)


def call(name: str, *arguments: object) -> None:
    """Calls the C function `name` with `arguments` and a trailing error pointer; raises on failure."""
    error = ctypes.c_void_p()
    status = getattr(library(), name)(*arguments, ctypes.byref(error))
    check(status, error)


def call_for_text(name: str, *arguments: object) -> str:
    """Calls the C function `name` with `arguments`, a string out-pointer and an error pointer; returns
    the string (freed here) or raises on failure."""
    text = ctypes.c_void_p()
    call(name, *arguments, ctypes.byref(text))
    try:
        return ctypes.string_at(text.value).decode("utf-8") if text.value else ""
    finally:
        if text.value:
            library().framedial_string_free(text)


class State:
    """A control state handle (framedial_state *), freed when garbage-collected."""

    def __init__(self, json_text: str) -> None:
        handle = ctypes.c_void_p()
        call("framedial_state_from_json", json_text.encode("utf-8"), ctypes.byref(handle))
        self.handle = handle
        self._free = library().framedial_state_free

    def __del__(self) -> None:
        handle = getattr(self, "handle", None)
        if handle is not None and handle.value:
            self._free(handle)
            handle.value = None
