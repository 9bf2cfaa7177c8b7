// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "FrameDial",
  products: [
    .library(name: "FrameDial", targets: ["FrameDial", "Controls", "Vips", "ColourTransfer"]),
    .library(name: "FrameDialC", type: .dynamic, targets: ["FrameDialC"]),
    .executable(name: "framedial", targets: ["framedial"]),
    .executable(name: "framedial-bench", targets: ["framedial-bench"]),
  ],
  targets: [
    .systemLibrary(
      name: "CVips",
      pkgConfig: "vips",
      providers: [.apt(["libvips-dev"])]
    ),
    .systemLibrary(
      name: "CJPEG",
      pkgConfig: "libjpeg",
      providers: [.apt(["libjpeg-dev"])]
    ),
    .systemLibrary(
      name: "CFFmpeg",
      pkgConfig: "libavformat",
      providers: [
        .apt([
          "libavformat-dev", "libavcodec-dev", "libswscale-dev", "libavfilter-dev", "libavutil-dev",
        ])
      ]
    ),
    .systemLibrary(
      name: "CHeif",
      pkgConfig: "libheif",
      providers: [.apt(["libheif-dev"])]
    ),
    .systemLibrary(
      name: "CSoup",
      pkgConfig: "libsoup-3.0",
      providers: [.apt(["libsoup-3.0-dev"])]
    ),
    .systemLibrary(
      name: "CLibRaw",
      pkgConfig: "libraw_r",
      providers: [.apt(["libraw-dev"])]
    ),
    .target(name: "CFrameKernels", dependencies: ["CVips"]),
    .target(name: "CJPEGHeader", dependencies: ["CJPEG"]),
    // BT.2100's transfer formulas, shared by the controls' maths (FrameDial) and the tone mapping
    // (Video), which depend on nothing else in common.
    .target(name: "ColourTransfer"),
    .target(name: "Video", dependencies: ["CFFmpeg", "ColourTransfer"]),
    // HEIC written (x265 at a chosen preset) and read (metadata libvips 8.14 does not show) by libheif.
    .target(name: "HEIF", dependencies: ["CHeif"]),
    // Camera raw and DNG development (LibRaw), free of FrameDial's types.
    .target(name: "Raw", dependencies: ["CLibRaw"]),
    // The `framedial studio` web server (libsoup 3) and its page, free of FrameDial's types.
    .target(name: "Studio", dependencies: ["CSoup"], resources: [.copy("Page")]),
    .target(name: "Vips", dependencies: ["CVips", "CFrameKernels", "CJPEGHeader"]),
    .target(name: "Controls"),
    .target(
      name: "FrameDial", dependencies: ["Vips", "Controls", "HEIF", "Raw", "ColourTransfer"]),
    // The C API (include/framedial.h) over FrameDial, for libFrameDialC.so.
    .target(name: "FrameDialC", dependencies: ["FrameDial", "Controls", "Vips"]),
    .target(
      name: "FrameDialCLI",
      dependencies: [
        "FrameDial", "Controls", "Vips", "Video", "Studio", "BenchmarkSupport", "Raw",
      ]),
    .executableTarget(name: "framedial", dependencies: ["FrameDialCLI"]),
    .executableTarget(
      name: "framedial-bench",
      dependencies: ["FrameDial", "Controls", "Vips", "Video", "FrameDialCLI", "BenchmarkSupport"],
      path: "Benchmarks/framedial-bench"
    ),
    .target(name: "BenchmarkSupport", path: "Benchmarks/BenchmarkSupport"),
    .testTarget(name: "VipsTests", dependencies: ["Vips"]),
    .testTarget(name: "ControlsTests", dependencies: ["Controls"]),
    .testTarget(
      name: "FrameDialTests",
      dependencies: ["FrameDial", "Controls", "Vips", "HEIF", "ColourTransfer"]),
    .testTarget(
      name: "FrameDialCLITests",
      dependencies: [
        "FrameDialCLI", "framedial", "FrameDial", "Controls", "Vips", "Video", "Studio", "Raw",
      ]),
    .testTarget(name: "StudioTests", dependencies: ["Studio"]),
    .testTarget(name: "BenchmarkSupportTests", dependencies: ["BenchmarkSupport"]),
    .testTarget(name: "FrameDialCTests", dependencies: ["FrameDialC", "framedial"]),
  ],
  swiftLanguageModes: [.v6]
)
