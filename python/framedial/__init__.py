"""FrameDial from Python: Camera Control values (exposure bias, white balance, contrast, saturation,
tint, filter, zoom) applied to still files and to NumPy video frames, through FrameDial's C API.

- :func:`apply` renders a still file to a file, as ``framedial apply``.
- :func:`batch` renders a folder tree of photos, as ``framedial batch``: on this machine, or on a Dask
  cluster's workers with ``client=``.
- :class:`FrameRenderer` renders NumPy frames, as ``framedial frames``; its state may change from any
  thread, and the GIL is released while a frame renders.
- :func:`version` is FrameDial's version.
- :class:`FrameDialError` carries FrameDial's message for every failure, and
  :class:`FrameDialWarning` what an output could not carry over.
"""

from ._batch import batch
from ._frames import FrameRenderer
from ._native import FrameDialError, FrameDialWarning
from ._still import apply, version

__all__ = ["apply", "batch", "FrameRenderer", "version", "FrameDialError", "FrameDialWarning"]
