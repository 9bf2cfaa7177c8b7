import JPEG
import RowKernels

// Types that lived in this module and moved to the module of their subject; these names keep code that
// finds them through `import Vips` building.

/// Moved to the `JPEG` module.
@available(*, deprecated, message: "JPEGHeader is in the JPEG module: import JPEG")
public typealias JPEGHeader = JPEG.JPEGHeader

/// Moved to the `JPEG` module.
@available(*, deprecated, message: "JPEGQuality is in the JPEG module: import JPEG")
public typealias JPEGQuality = JPEG.JPEGQuality

/// Moved to the `RowKernels` module.
@available(*, deprecated, message: "KernelPath is in the RowKernels module: import RowKernels")
public typealias KernelPath = RowKernels.KernelPath

/// Moved to the `RowKernels` module.
@available(*, deprecated, message: "ColourRows is in the RowKernels module: import RowKernels")
public typealias ColourRows = RowKernels.ColourRows

/// Moved to the `RowKernels` module.
@available(
  *, deprecated, message: "YUV420Converter is in the RowKernels module: import RowKernels"
)
public typealias YUV420Converter = RowKernels.YUV420Converter

/// Moved to the `RowKernels` module.
@available(*, deprecated, message: "YUV420Layout is in the RowKernels module: import RowKernels")
public typealias YUV420Layout = RowKernels.YUV420Layout

/// Moved to the `RowKernels` module.
@available(*, deprecated, message: "YUVMatrix is in the RowKernels module: import RowKernels")
public typealias YUVMatrix = RowKernels.YUVMatrix

/// Moved to the `RowKernels` module.
@available(*, deprecated, message: "YUVRange is in the RowKernels module: import RowKernels")
public typealias YUVRange = RowKernels.YUVRange

/// Moved to the `RowKernels` module.
@available(*, deprecated, message: "YUVPlane is in the RowKernels module: import RowKernels")
public typealias YUVPlane = RowKernels.YUVPlane
