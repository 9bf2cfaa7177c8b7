import FrameDialCLI
import RowKernels
import Video
import Vips

/// FrameDial's own YUV 4:2:0 conversion (`RowKernels`' `YUV420Converter`) offered to the `video` command's
/// pipeline in place of libswscale, which costs most of a frame's time at accurate settings.
package final class VideoPlanarConversion: PlanarConversion {
  private let converter: YUV420Converter

  /// The conversion for `format`, or nil when FrameDial's converter cannot take it.
  package static func make(_ format: PlanarFormat) -> PlanarConversion? {
    return (try? YUV420Converter(layout(of: format), threads: Vips.configuration?.threads)).map(
      VideoPlanarConversion.init)
  }

  /// The layout of frames of `format`.
  package static func layout(of format: PlanarFormat) -> YUV420Layout {
    let matrix: YUVMatrix =
      switch format.matrix {
      case .bt601: .bt601
      case .bt709: .bt709
      case .bt2020: .bt2020
      }
    return YUV420Layout(
      width: format.width, height: format.height, depth: format.depth, matrix: matrix,
      range: format.fullRange ? .pc : .tv)
  }

  private init(_ converter: YUV420Converter) { self.converter = converter }

  package func toRGB(
    planes: [UnsafeRawPointer], strides: [Int], into rgb: UnsafeMutableRawPointer, rgbStride: Int
  ) {
    converter.toRGB(
      zip(planes, strides).map { YUVPlane($0, stride: $1) }, into: rgb, rgbStride: rgbStride)
  }

  package func fromRGB(
    _ rgb: UnsafeRawPointer, rgbStride: Int, into planes: [UnsafeMutableRawPointer],
    strides: [Int]
  ) {
    converter.fromRGB(rgb, rgbStride: rgbStride, into: planes, strides: strides)
  }
}
