import Foundation
import FrameDial
import FrameDialCLI
import JSON
import Raw
import Video
import Vips

/// `framedial info FILE…`: one line of header facts per file, read without decoding pixels; for a camera
/// raw, what LibRaw reads of it (camera, mosaic, bits, levels, as-shot white balance); for a video, its
/// video stream (size, codec, pixel format, rate, duration, rotation, colour tags; for HDR its transfer,
/// primaries, mastering display, content light level and Dolby Vision configuration), every stream, and
/// whether `framedial video` processes it.
enum InfoCommand: Command {
  static let name = "info"
  static let reportsEachInput = true
  static let summary =
    "Print each image's header (size, bands, format, orientation, ICC, loader) or each video's "
    + "streams (size, codec, rate, duration, rotation, colour tags)."
  /// `--pixel-limit`, which `info` only compares with.
  static let pixelLimit = PixelLimitOption.option.help(
    "the limit of the commands that decode images: a larger image is still described, and said "
      + "to be over it (default \(LoadOptions.defaultPixelLimit))")
  /// `--json`.
  static let json = JSONOption.flag("one JSON object per file on standard output")
  static let synopsis = Usage([.words("FILE…")])
  static let parser = ArgumentParser(options: [pixelLimit, json])

  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    guard !arguments.positionals.isEmpty else { throw UsageError("no files given") }
    let limit = try PixelLimitOption.limit(from: arguments)
    let json = arguments[Self.json]
    FFmpegLog.route(prefix: "framedial \(name)")
    var failed = 0
    for path in arguments.positionals {
      do {
        if let problem = ArgumentBytes.problem(path) { throw RenderError("\(path): \(problem)") }
        if let raw = RawStill.identify(path) {
          let facts = try RawStill.facts(path, raw)
          if json {
            console.outJSON(try JSONText.string(jsonValue(path: path, facts), .line))
          } else {
            console.out("\(path): \(describe(facts))")
          }
          continue
        }
        if let video = try videoFacts(path) {
          if json {
            console.outJSON(try JSONText.string(jsonValue(path: path, video), .line))
          } else {
            console.out("\(path): \(describe(video))")
          }
          continue
        }
        // Headers only: an image over the limit is described, and said to be over it.
        let header = try Image.probe(path, pixelLimit: nil)
        let gainMap = header.loader == "heifload" ? try HDRGainMap.read(heifAt: path) : nil
        if json {
          var value = jsonValue(path: path, header)
          if case .object(let members) = value {
            value = .object(
              members + [
                ("overPixelLimit", JSONText.Value(header.pixelCount > limit)),
                ("hdrGainMap", gainMap.map(jsonValue) ?? nil),
              ])
          }
          console.outJSON(try JSONText.string(value, .line))
        } else {
          let described = ([describe(header)] + [gainMap?.summary].compactMap { $0 })
            .joined(separator: ", ")
          console.out("\(path): \(described)\(overLimitNote(header, limit: limit))")
        }
      } catch {
        failed += 1
        let message = ErrorMessage.plain(error)
        console.err("framedial info: \(message)")
        if json {
          console.outJSON(
            try JSONText.string(
              ["path": JSONText.Value(path), "error": JSONText.Value(message)], .line))
        }
      }
    }
    return failed == 0 ? ExitCode.success : ExitCode.failure
  }

  /// What a line of header facts ends with for an image over the pixel limit `limit`: that the
  /// commands that decode it refuse it; nothing for an image within it.
  static func overLimitNote(_ header: ImageHeader, limit: Int) -> String {
    guard header.pixelCount > limit else { return "" }
    return "; \(header.pixelCount) pixels, over the pixel limit of \(limit): apply, batch and the "
      + "other commands that decode it refuse it (unless given a larger \(PixelLimitOption.option))"
  }

  /// The facts of `path` when it is a video: its extension names one, or no image loader recognises it
  /// and FFmpeg opens it as more than a still; nil otherwise.
  static func videoFacts(_ path: String) throws -> VideoFacts? {
    if VideoFiles.hasVideoExtension(path) {
      return try VideoTranscoder.facts(of: path)
    }
    // Otherwise the image reader says what is wrong with the file.
    guard VideoFiles.mayBeVideoByContent(path, orOnlyABlockedOne: true) else { return nil }
    guard let facts = try? VideoTranscoder.facts(of: path), !facts.source.isStillImage(path: path)
    else { return nil }
    return facts
  }

  /// A video's facts as one JSON object.
  static func jsonValue(path: String, _ video: VideoFacts) -> JSONText.Value {
    let source = video.source
    return [
      "path": JSONText.Value(path), "kind": "video", "width": JSONText.Value(source.width),
      "height": JSONText.Value(source.height), "codec": JSONText.Value(source.codecName),
      "pixelFormat": JSONText.Value(source.pixelFormatName),
      "bitDepth": JSONText.Value(source.bitDepth), "frameRate": JSONText.Value(source.frameRate),
      "duration": JSONText.Value(source.duration),
      "frames": JSONText.Value(source.expectedFrames),
      "cutShort": source.cutShort.map {
        [
          "at": JSONText.Value($0.endsAt), "framesInFile": JSONText.Value($0.framesInFile),
          "framesListed": JSONText.Value($0.framesListed),
        ]
      } ?? nil,
      "rotation": JSONText.Value(source.rotation),
      "sampleAspect": JSONText.Value(source.sampleAspect),
      "colourTags": JSONText.Value(source.colourTags),
      "conversionMatrix": JSONText.Value(source.conversionMatrix),
      "container": JSONText.Value(source.containerName), "streams": JSONText.Value(video.streams),
      "processed": JSONText.Value(video.refusal == nil), "refusal": JSONText.Value(video.refusal),
      "dynamicRange": JSONText.Value(source.dynamicRange.rawValue),
      "transfer": JSONText.Value(source.transferName),
      "primaries": JSONText.Value(source.primariesName),
      "masteringDisplay": source.hdrMetadata.masteringDisplay.map(jsonValue) ?? nil,
      "contentLightLevel": source.hdrMetadata.contentLightLevel.map {
        [
          "maxCLL": JSONText.Value($0.maxContentLight),
          "maxFALL": JSONText.Value($0.maxFrameAverageLight),
        ]
      } ?? nil,
      "dolbyVision": source.hdrMetadata.dolbyVision.map {
        [
          "profile": JSONText.Value($0.profile), "level": JSONText.Value($0.level),
          "compatibilityId": JSONText.Value($0.compatibilityID), "rpu": JSONText.Value($0.hasRPU),
        ]
      } ?? nil,
    ]
  }

  /// A mastering display as JSON: primaries and white point as [x, y], luminance in cd/m².
  static func jsonValue(_ display: MasteringDisplay) -> JSONText.Value {
    [
      "red": JSONText.Value(display.red), "green": JSONText.Value(display.green),
      "blue": JSONText.Value(display.blue), "whitePoint": JSONText.Value(display.whitePoint),
      "minLuminance": JSONText.Value(display.minLuminance),
      "maxLuminance": JSONText.Value(display.maxLuminance),
    ]
  }

  /// An HDR video's dynamic range and metadata as text: `HDR HLG (arib-std-b67, bt2020)`, then the
  /// mastering display's luminance and primaries, the content light level and the Dolby Vision
  /// configuration when present; nil for SDR video.
  static func describeHDR(_ source: VideoSource) -> String? {
    guard source.dynamicRange.isHDR else { return nil }
    var parts = [
      "HDR \(source.dynamicRange.rawValue.uppercased()) (\(source.transferName), "
        + "\(source.primariesName))"
    ]
    let metadata = source.hdrMetadata
    if let display = metadata.masteringDisplay {
      func xy(_ pair: [Double]) -> String {
        pair.map { String(format: "%.4f", $0) }.joined(separator: ",")
      }
      parts.append(
        String(format: "mastering display %g–%g cd/m²", display.minLuminance, display.maxLuminance)
          + " R(\(xy(display.red))) G(\(xy(display.green))) B(\(xy(display.blue))) "
          + "WP(\(xy(display.whitePoint)))")
    }
    if let level = metadata.contentLightLevel {
      parts.append(
        "MaxCLL \(level.maxContentLight) cd/m², MaxFALL \(level.maxFrameAverageLight) cd/m²")
    }
    if let vision = metadata.dolbyVision {
      parts.append(
        "Dolby Vision profile \(vision.profile) level \(vision.level), compatibility id "
          + "\(vision.compatibilityID)\(vision.hasRPU ? ", RPU" : "")")
    }
    return parts.joined(separator: ", ")
  }

  /// One line of a video's facts, e.g. `video 1920×1080, h264 yuv420p 8-bit, 25 fps, 5.00 s, 125
  /// frames, colour bt709/tv/bt709/bt709 (converted as bt709), mov,mp4,m4a,3gp,3g2,mj2; streams: video
  /// h264, audio aac`, then why `video` would not process it, if it would not.
  static func describe(_ video: VideoFacts) -> String {
    let source = video.source
    var parts = [
      "video \(source.width)×\(source.height)",
      "\(source.codecName) \(source.pixelFormatName) \(source.bitDepth)-bit",
      source.frameRate > 0 ? String(format: "%g fps", source.frameRate) : "frame rate unknown",
    ]
    if let duration = source.duration { parts.append(String(format: "%.2f s", duration)) }
    if let frames = source.expectedFrames { parts.append("\(frames) frames") }
    if let cut = source.cutShort {
      parts.append(
        String(format: "cut short at %.2f s", cut.endsAt)
          + " (the file holds \(cut.framesInFile) of the \(cut.framesListed) frames its index lists)"
      )
    }
    if let rotation = source.rotation, rotation != 0 {
      parts.append("rotated \(VideoOptions.degreesText(rotation))")
    }
    if source.sampleAspect != 1 {
      parts.append(String(format: "pixel aspect %.4g", source.sampleAspect))
    }
    parts.append("colour \(source.colourTags) (converted as \(source.conversionMatrix))")
    if let hdr = describeHDR(source) { parts.append(hdr) }
    parts.append(source.containerName)
    var line = parts.joined(separator: ", ") + "; streams: " + video.streams.joined(separator: ", ")
    if let refusal = video.refusal { line += "; not processed by framedial video: \(refusal)" }
    return line
  }

  /// The header facts as one JSON object, under the same names as the text line.
  static func jsonValue(path: String, _ header: ImageHeader) -> JSONText.Value {
    [
      "path": JSONText.Value(path), "kind": "image", "width": JSONText.Value(header.width),
      "height": JSONText.Value(header.height), "bands": JSONText.Value(header.bands),
      "format": JSONText.Value(header.format.rawValue),
      "interpretation": JSONText.Value(header.interpretation),
      "orientation": JSONText.Value(header.orientation), "alpha": JSONText.Value(header.hasAlpha),
      "icc": JSONText.Value(header.hasICCProfile), "pages": JSONText.Value(header.pages),
      "loader": JSONText.Value(header.loader),
    ]
  }

  /// An HDR photo's gain map as JSON: its kind, size, bits and headroom (in stops and as a factor).
  static func jsonValue(_ map: HDRGainMap) -> JSONText.Value {
    [
      "kind": JSONText.Value(map.kind.rawValue), "width": JSONText.Value(map.width),
      "height": JSONText.Value(map.height), "bitDepth": JSONText.Value(map.bitDepth),
      "headroomStops": JSONText.Value(map.headroomStops),
      "headroom": JSONText.Value(map.headroom),
    ]
  }

  /// One line of header facts, e.g. `640×427, 3 bands, uchar, srgb, orientation 1, ICC no, jpegload`.
  static func describe(_ header: ImageHeader) -> String {
    var parts = [
      "\(header.width)×\(header.height)", "\(header.bands) band\(header.bands == 1 ? "" : "s")",
      header.format.rawValue, header.interpretation, "orientation \(header.orientation)",
      "ICC \(header.hasICCProfile ? "yes" : "no")",
    ]
    if header.hasAlpha { parts.insert("alpha", at: 2) }
    if header.pages > 1 { parts.append("\(header.pages) pages") }
    parts.append(header.loader ?? "unknown loader")
    return parts.joined(separator: ", ")
  }
}
