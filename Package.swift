// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "FrameDial",
  products: [
    .library(
      name: "FrameDial",
      targets: [
        "FrameDial", "PlanCompiler", "Controls", "Vips", "JPEG", "RowKernels", "ColourTransfer",
      ]),
    .library(name: "FrameDialC", type: .dynamic, targets: ["FrameDialC"]),
    .executable(name: "framedial", targets: ["framedial"]),
    .executable(name: "framedial-full", targets: ["framedial-full"]),
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
    // The tone mapping of HDR video to SDR in plain C, scalar, AVX2 and AVX-512 under CRowKernels' one
    // CPU dispatch (video frames row by row, the studio's and stills' pictures whole).
    .target(name: "CToneMap", dependencies: ["CRowKernels"]),
    // Video files on FFmpeg; its HEVC decoder also decodes HEIC pictures for libheif (HEVCStillDecoder,
    // an HEIF.HEVCPictureDecoder: the protocol comes from HEIF, no libheif call is made here).
    .target(
      name: "Video", dependencies: ["CFFmpeg", "HEIF", "ColourTransfer", "CToneMap", "RowKernels"]),
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
      name: "Studio", dependencies: ["CSoup", "Measurement", "JSON"],
      resources: [.copy("Page")]),
    // Summary statistics, percentiles and clock helpers: the CLI's --stats, the studio, the benchmark.
    .target(name: "Measurement"),
    // FrameDial's one JSON reader (strict: a key given twice, nesting, numbers and surrogates refused by
    // name, line and column) and its one writer (every output in the format it has always had).
    .target(name: "JSON"),
    // A TIFF's directory chain read by libtiff (which page is a reduced-resolution preview), free of
    // libvips: the loader in Vips asks it which page to decode.
    .target(name: "TIFF", dependencies: ["CTIFF"]),
    // The only code that calls libjpeg (through CJPEGHeader's C): a JPEG's header and quality
    // estimate, its scaled decoding and its data read to its end, free of libvips.
    .target(name: "JPEG", dependencies: ["CJPEGHeader"]),
    .target(
      name: "Vips", dependencies: ["CVips", "CFrameKernels", "RowKernels", "JPEG", "TIFF"]),
    .target(name: "Controls", dependencies: ["Measurement", "JSON"]),
    // The compiler from a control state to a plan (Recipe, Plan, PlanCache and the colour maths) in
    // plain Swift, free of libvips: FrameDial lowers its plans to libvips graphs and re-exports it.
    .target(name: "PlanCompiler", dependencies: ["Controls", "ColourTransfer"]),
    .target(
      name: "FrameDial",
      dependencies: [
        "PlanCompiler", "Vips", "Controls", "HEIF", "Raw", "ColourTransfer", "JSON", "RowKernels",
      ]),
    // The C API (include/framedial.h) over FrameDial, for libFrameDialC.so; its HEIC pictures are
    // decoded by FFmpeg's HEVC decoder (Video's HEVCStillDecoder), which reports damage, as the command's
    // are.
    .target(name: "FrameDialC", dependencies: ["FrameDial", "Controls", "Vips", "Video", "JSON"]),
    // The command line without FFmpeg or libsoup: the parser, the options, the console and the
    // commands that need neither; the light `framedial` program, which starts without loading their
    // libraries and hands every other run to `framedial-full`.
    .target(
      name: "FrameDialCLI",
      dependencies: [
        "FrameDial", "Controls", "Vips", "Measurement", "JSON", "Raw", "HEIF", "RowKernels",
      ]),
    .executableTarget(name: "framedial", dependencies: ["FrameDialCLI"]),
    // The commands that need FFmpeg or libsoup (info, studio, video) and FFmpeg's HEVC decoder for
    // HEIC: the `framedial-full` program, with every command.
    .target(
      name: "FrameDialFullCLI",
      dependencies: [
        "FrameDialCLI", "FrameDial", "Controls", "Vips", "Video", "Studio", "Measurement", "JSON",
        "Raw", "HEIF", "RowKernels",
      ]),
    .executableTarget(name: "framedial-full", dependencies: ["FrameDialFullCLI"]),
    .executableTarget(
      name: "framedial-bench",
      dependencies: [
        "FrameDial", "Controls", "Vips", "Video", "FrameDialCLI", "FrameDialFullCLI", "Measurement",
        "HEIF", "RowKernels", "TestSupport",
      ],
      path: "Benchmarks/framedial-bench"
    ),
    // What several test targets share: scratch folders, the sample images and the `framedial` command
    // run; clips, pictures and HEIC grids made with the ffmpeg, vips and heif-enc commands; seeded
    // damaged copies of a file and the strict reference's verdict on HEIC pictures. Test targets only.
    .target(
      name: "TestSupport", dependencies: ["Vips", "HEIF", "Video"], path: "Tests/TestSupport"),
    .testTarget(
      name: "VipsTests",
      dependencies: ["Vips", "JPEG", "RowKernels", "TestSupport", "SeededRandom"]),
    .testTarget(name: "JPEGTests", dependencies: ["JPEG"]),
    .testTarget(name: "RawTests", dependencies: ["Raw", "Vips", "RowKernels"]),
    // A seeded SplitMix64 generator for the test targets' random sweeps and fuzzed texts.
    .target(name: "SeededRandom", path: "Tests/SeededRandom"),
    .testTarget(name: "ControlsTests", dependencies: ["Controls", "SeededRandom"]),
    // The image-math contract's formulas (docs/image-math.md), written out independently of the code
    // under test, for the compiler's and the renderers' tests.
    .target(name: "ImageMathContract", path: "Tests/ImageMathContract"),
    .testTarget(
      name: "PlanCompilerTests",
      dependencies: [
        "PlanCompiler", "Controls", "ColourTransfer", "ImageMathContract", "SeededRandom",
      ]),
    .testTarget(
      name: "FrameDialTests",
      dependencies: [
        "FrameDial", "PlanCompiler", "Controls", "Vips", "HEIF", "ColourTransfer",
        "ImageMathContract", "JPEG", "RowKernels", "TestSupport",
      ]),
    .testTarget(
      name: "FrameDialCLITests",
      dependencies: [
        "FrameDialCLI", "FrameDialFullCLI", "framedial", "framedial-full", "FrameDial", "Controls",
        "Vips", "Video", "Studio", "Raw", "HEIF", "TIFF", "FrameDialC", "TestSupport", "JPEG",
        "RowKernels", "SeededRandom", "ImageMathContract",
      ]),
    // Video's decoders in process: HEIC pictures through FFmpeg's HEVC decoder (as libheif's plugin,
    // against libde265), its damage verdicts, and playback.
    .testTarget(name: "VideoTests", dependencies: ["Video", "HEIF", "Vips", "TestSupport"]),
    .testTarget(name: "HEIFTests", dependencies: ["HEIF", "TestSupport"]),
    // CToneMap's kernels, run by Video's tone mapper that builds the tables they read, against the
    // libavfilter chain of the same maths (the only code that links libavfilter).
    .testTarget(
      name: "CToneMapTests", dependencies: ["CToneMap", "Video", "CFFmpeg", "RowKernels"],
      linkerSettings: [.linkedLibrary("avfilter")]),
    .testTarget(name: "StudioTests", dependencies: ["Studio", "JSON"]),
    .testTarget(name: "JSONTests", dependencies: ["JSON", "SeededRandom"]),
    .testTarget(name: "MeasurementTests", dependencies: ["Measurement"]),
    // The benchmark executable's own logic (the benchmark document it writes).
    .testTarget(name: "BenchmarkTests", dependencies: ["framedial-bench"]),
    .testTarget(
      name: "FrameDialCTests", dependencies: ["FrameDialC", "framedial", "framedial-full"]),
  ],
  swiftLanguageModes: [.v6]
)
