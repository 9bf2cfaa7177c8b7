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
    .systemLibrary(
      name: "CTIFF",
      pkgConfig: "libtiff-4",
      providers: [.apt(["libtiff-dev"])]
    ),
    // FrameDial's kernels that need no libvips (colour rows, the raw colour pass and demosaicing, the
    // YUV conversions) and the one CPU dispatch of every kernel.
    .target(name: "CRowKernels"),
    // FrameDial's kernels as nodes of the libvips graph, on CRowKernels' row functions and dispatch.
    .target(name: "CFrameKernels", dependencies: ["CVips", "CRowKernels"]),
    // The Swift face of CRowKernels, free of libvips: the one CPU dispatch (KernelPath), the colour rows
    // on the caller's buffers and the YUV 4:2:0 conversions.
    .target(name: "RowKernels", dependencies: ["CRowKernels"]),
    .target(name: "CJPEGHeader", dependencies: ["CJPEG"]),
    // BT.2100's transfer formulas, shared by the controls' maths (FrameDial) and the tone mapping
    // (Video), which depend on nothing else in common.
    .target(name: "ColourTransfer"),
    // The tone mapping of HDR video to SDR in plain C (Video's DisplayLight step, and its RGB frames
    // mapped whole for the studio and stills).
    .target(name: "CToneMap"),
    // Video files on FFmpeg; its HEVC decoder also decodes HEIC pictures for libheif (HEVCStillDecoder,
    // an HEIF.HEVCPictureDecoder: the protocol comes from HEIF, no libheif call is made here).
    .target(name: "Video", dependencies: ["CFFmpeg", "HEIF", "ColourTransfer", "CToneMap"]),
    // HEIC written (x265 at a chosen preset) and read (metadata libvips 8.14 does not show) by libheif,
    // and the decoder plugin through which libheif decodes HEVC with a decoder from outside (FFmpeg's).
    .target(name: "HEIF", dependencies: ["CHeif"]),
    // What LibRaw keeps to itself after opening a raw (where its decoder reads, the raw directory's
    // strips and tiles, tags it parses but does not keep), read in C++ for Raw; part of Raw's layer.
    .target(name: "CRawLayout", dependencies: ["CLibRaw"]),
    // Camera raws and DNGs: told apart from images, developed on LibRaw (with FrameDial's AHD and
    // colour pass from CRowKernels) into libvips images with their EXIF; free of FrameDial's types.
    .target(name: "Raw", dependencies: ["CLibRaw", "CRawLayout", "CRowKernels", "TIFF", "Vips"]),
    // The `framedial studio` web server (libsoup 3) and its page, free of FrameDial's types.
    .target(
      name: "Studio", dependencies: ["CSoup", "Measurement", "JSONOutput"],
      resources: [.copy("Page")]),
    // Summary statistics, percentiles and clock helpers: the CLI's --stats, the studio, the benchmark.
    .target(name: "Measurement"),
    // The JSON documents the studio server and the CLI's --json outputs write.
    .target(name: "JSONOutput"),
    // A TIFF's directory chain read by libtiff (which page is a reduced-resolution preview), free of
    // libvips: the loader in Vips asks it which page to decode.
    .target(name: "TIFF", dependencies: ["CTIFF"]),
    // The only code that calls libjpeg (through CJPEGHeader's C): a JPEG's header and quality
    // estimate, its scaled decoding and its data read to its end, free of libvips.
    .target(name: "JPEG", dependencies: ["CJPEGHeader"]),
    .target(
      name: "Vips", dependencies: ["CVips", "CFrameKernels", "RowKernels", "JPEG", "TIFF"]),
    .target(name: "Controls", dependencies: ["Measurement"]),
    .target(
      name: "FrameDial",
      dependencies: ["Vips", "Controls", "HEIF", "Raw", "ColourTransfer", "RowKernels"]),
    // The C API (include/framedial.h) over FrameDial, for libFrameDialC.so; its HEIC pictures are
    // decoded by FFmpeg's HEVC decoder (Video's HEVCStillDecoder), which reports damage, as the command's
    // are.
    .target(name: "FrameDialC", dependencies: ["FrameDial", "Controls", "Vips", "Video"]),
    .target(
      name: "FrameDialCLI",
      dependencies: [
        "FrameDial", "Controls", "Vips", "Video", "Studio", "Measurement", "JSONOutput", "Raw",
        "HEIF", "RowKernels",
      ]),
    .executableTarget(name: "framedial", dependencies: ["FrameDialCLI"]),
    .executableTarget(
      name: "framedial-bench",
      dependencies: [
        "FrameDial", "Controls", "Vips", "Video", "FrameDialCLI", "Measurement", "HEIF",
        "RowKernels",
      ],
      path: "Benchmarks/framedial-bench"
    ),
    .testTarget(name: "VipsTests", dependencies: ["Vips", "JPEG", "RowKernels"]),
    .testTarget(name: "JPEGTests", dependencies: ["JPEG"]),
    .testTarget(name: "RawTests", dependencies: ["Raw", "Vips", "RowKernels"]),
    .testTarget(name: "ControlsTests", dependencies: ["Controls"]),
    .testTarget(
      name: "FrameDialTests",
      dependencies: [
        "FrameDial", "Controls", "Vips", "HEIF", "ColourTransfer", "JPEG", "RowKernels",
      ]),
    .testTarget(
      name: "FrameDialCLITests",
      dependencies: [
        "FrameDialCLI", "framedial", "FrameDial", "Controls", "Vips", "Video", "Studio", "Raw",
        "HEIF", "TIFF", "FrameDialC", "JPEG", "RowKernels",
      ]),
    .testTarget(name: "StudioTests", dependencies: ["Studio", "JSONOutput"]),
    .testTarget(name: "MeasurementTests", dependencies: ["Measurement"]),
    // The benchmark executable's own logic (the benchmark document it writes).
    .testTarget(name: "BenchmarkTests", dependencies: ["framedial-bench"]),
    .testTarget(name: "FrameDialCTests", dependencies: ["FrameDialC", "framedial"]),
  ],
  swiftLanguageModes: [.v6]
)
