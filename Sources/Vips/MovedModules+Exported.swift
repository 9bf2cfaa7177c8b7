// A JPEG's header and quality estimate (the JPEG module) and the row kernels with their code path and
// the YUV conversions (RowKernels) were once Vips's own types: code that imports Vips still sees them.
@_exported import JPEG
@_exported import RowKernels
