import CHeif
import Foundation

/// The libheif image a decoder plugin returns for a decoded ``HEVCPicture``, as libheif's own libde265
/// plugin makes it: Y′CbCr planes (Y′ alone for a monochrome picture) at the picture's chroma sampling
/// and bit depth, copied row by row, and the stream's colour description as the image's nclx profile
/// (libheif puts the file's own `colr` box over it when the file has one).
enum HEVCImage {
  /// A new libheif image (owned by the caller) holding `picture`'s samples. `strict` turns a colour code
  /// point libheif does not know, a warning on the image otherwise, into an error; `refusesDamage` does
  /// the same for a picture the decoder found damaged.
  static func make(from picture: HEVCPicture, strict: Bool, refusesDamage: Bool) throws
    -> OpaquePointer
  {
    let (chroma, shift) = layout(picture.chroma)
    let monochrome = picture.chroma == .monochrome
    guard picture.width > 0, picture.height > 0, picture.width <= Int(Int32.max),
      picture.height <= Int(Int32.max)
    else {
      throw HEIFError("the HEVC decoder returned a \(picture.width)×\(picture.height) picture")
    }
    guard (1...16).contains(picture.bitDepth) else {
      throw HEIFError("the HEVC decoder returned \(picture.bitDepth)-bit samples")
    }
    guard picture.planes.count == (monochrome ? 1 : 3) else {
      throw HEIFError(
        "the HEVC decoder returned \(picture.planes.count) planes for \(picture.chroma)")
    }
    var created: OpaquePointer?
    try HEIFError.check(
      heif_image_create(
        Int32(picture.width), Int32(picture.height),
        monochrome ? heif_colorspace_monochrome : heif_colorspace_YCbCr, chroma, &created),
      "cannot create a \(picture.width)×\(picture.height) picture")
    guard let image = created else {
      throw HEIFError("cannot create a \(picture.width)×\(picture.height) picture")
    }
    do {
      let channels = [heif_channel_Y, heif_channel_Cb, heif_channel_Cr]
      for (index, (plane, channel)) in zip(picture.planes, channels).enumerated() {
        let expected =
          index == 0
          ? (picture.width, picture.height)
          : ((picture.width + shift.x) >> shift.x, (picture.height + shift.y) >> shift.y)
        try copy(
          plane, expected: expected, into: image, channel: channel, bitDepth: picture.bitDepth)
      }
      try describe(picture.colour, on: image, strict: strict)
      if let damage = picture.damage {
        if refusesDamage { throw HEIFError(damage) }
        heif_image_add_decoding_warning(image, HEVCDecoderPlugin.failure(damage))
      }
      return image
    } catch {
      heif_image_release(image)
      throw error
    }
  }

  /// libheif's chroma for `chroma`, and the chroma planes' sizes against luma as right shifts.
  private static func layout(_ chroma: HEVCPicture.Chroma) -> (heif_chroma, (x: Int, y: Int)) {
    switch chroma {
    case .monochrome: (heif_chroma_monochrome, (0, 0))
    case .yuv420: (heif_chroma_420, (1, 1))
    case .yuv422: (heif_chroma_422, (1, 0))
    case .yuv444: (heif_chroma_444, (0, 0))
    }
  }

  /// Adds `channel` to `image` and copies `plane` into it, which must be `expected` (width, height).
  private static func copy(
    _ plane: HEVCPicture.Plane, expected: (Int, Int), into image: OpaquePointer,
    channel: heif_channel, bitDepth: Int
  ) throws {
    guard (plane.width, plane.height) == expected else {
      throw HEIFError(
        "the HEVC decoder returned a \(plane.width)×\(plane.height) plane where "
          + "\(expected.0)×\(expected.1) was due")
    }
    let rowBytes = plane.width * (bitDepth > 8 ? 2 : 1)
    guard plane.rowStride >= rowBytes else {
      throw HEIFError("the HEVC decoder returned rows of \(plane.rowStride) bytes for \(rowBytes)")
    }
    try HEIFError.check(
      heif_image_add_plane(
        image, channel, Int32(plane.width), Int32(plane.height), Int32(bitDepth)),
      "cannot allocate a \(plane.width)×\(plane.height) plane")
    var stride: Int32 = 0
    guard let target = heif_image_get_plane(image, channel, &stride), Int(stride) >= rowBytes else {
      throw HEIFError("libheif gave no memory for a \(plane.width)×\(plane.height) plane")
    }
    for row in 0..<plane.height {
      memcpy(target + row * Int(stride), plane.base + row * plane.rowStride, rowBytes)
    }
  }

  /// Sets `colour` as `image`'s nclx profile. A code point libheif refuses is a warning on the image
  /// (the code point is left unspecified), or an error when `strict`.
  private static func describe(_ colour: HEVCColour, on image: OpaquePointer, strict: Bool) throws {
    guard let nclx = heif_nclx_color_profile_alloc() else {
      throw HEIFError("libheif is out of memory")
    }
    defer { heif_nclx_color_profile_free(nclx) }
    let settings = [
      heif_nclx_color_profile_set_color_primaries(nclx, colour.primaries),
      heif_nclx_color_profile_set_transfer_characteristics(nclx, colour.transfer),
      heif_nclx_color_profile_set_matrix_coefficients(nclx, colour.matrix),
    ]
    for setting in settings where setting.code != heif_error_Ok {
      if strict { try HEIFError.check(setting, "the HEVC stream's colour description") }
      heif_image_add_decoding_warning(image, setting)
    }
    nclx.pointee.full_range_flag = colour.fullRange ? 1 : 0
    try HEIFError.check(
      heif_image_set_nclx_color_profile(image, nclx), "cannot set the picture's colour description")
  }
}
