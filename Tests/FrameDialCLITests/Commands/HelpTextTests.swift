import TestSupport
import Testing

@testable import FrameDialCLI
@testable import FrameDialFullCLI

/// Every command's `--help`, as the binary prints it: the usage line, the summary and the options, each
/// option generated from its declaration (a change to a declaration shows here, line by line).
@Suite struct HelpTextTests {
  @Test(arguments: HelpTextTests.expected.keys.sorted())
  func helpIsPrintedAsPinned(command: String) throws {
    let run = try CLIRunner.run([command, "--help"])
    #expect(run.status == 0)
    #expect(run.standardError.isEmpty)
    let expected = try #require(Self.expected[command])
    #expect(run.standardOutput == expected + "\n")
    // The usage line a usage error prints is the help's.
    let mistake = try CLIRunner.run([command, "--no-such-option"])
    #expect(mistake.status == 2)
    let usage = try #require(expected.split(separator: "\n").first)
    #expect(mistake.standardError.split(separator: "\n").dropFirst().first == usage)
  }

  @Test func everyCommandIsPinned() {
    #expect(Set(FullCLI.commands.map { $0.name }) == Set(Self.expected.keys))
  }

  /// The help of the still options `apply` and `batch` share, which both list last.
  static let stillOptionsHelp = #"""
          --fit DEVICE[:ORIENTATION]              size the output for a device screen (see framedial devices), turned to match each picture (auto, the default) or held :portrait or :landscape
          --fit-mode MODE                         cover (default: fill the screen, centre-crop) or contain (fit inside, no padding)
          --size N|WxH                            fit the output inside N×N or W×H pixels, aspect kept, after the zoom; never enlarges (files are decoded smaller where the format allows)
          --enlarge                               with --size, also scale pictures smaller than the box up to it
          --profile keep|srgb|p3|FILE.icc         colour space written: keep (default) leaves Display P3, Adobe RGB… in their own space with the controls in its linear light; srgb or p3 converts; FILE.icc converts to that RGB profile
          --strip                                 drop EXIF, XMP and IPTC (the ICC profile stays)
          --strip-location                        drop only where the photo was taken: EXIF GPS, XMP GPS/city/state/country/location, IPTC city/state/country/location
          --preset NAME                           start from a built-in preset (see framedial presets)
          --state FILE.json                       control values from a JSON state file (several layer in order)
          --set KEY=VALUE                         set one control, e.g. ev=0.5, wb=tungsten, zoom=1.5 (wins over --state)
      -h, --help                                  show this help
    """#

  /// The help of the options `preview` and `sweep` share, which both list last.
  static let pictureOptionsHelp = #"""
          --pixel-limit PIXELS  refuse larger images (default 100000000)
      -y, --overwrite           replace OUT when it exists (without it, an existing OUT is left as it is)
          --preset NAME         start from a built-in preset (see framedial presets)
          --state FILE.json     control values from a JSON state file (several layer in order)
          --set KEY=VALUE       set one control, e.g. ev=0.5, wb=tungsten, zoom=1.5 (wins over --state)
      -h, --help                show this help
    """#

  static let expected: [String: String] = [
    "apply": #"""
    usage: framedial apply IN|- -o OUT|- [--preset NAME] [--state FILE.json]… [--set KEY=VALUE]… [--quality Q] [--effort E] [--format F] [--fit DEVICE[:O] [--fit-mode MODE] | --size N|WxH [--enlarge]] [--profile P] [--strip | --strip-location] [--fail-on LEVEL] [--pixel-limit PIXELS] [--background COLOUR] [--hdr-photo keep|drop] [--unoptimized] [--overwrite]

    Render one image with the control values and write it (in its own colour space unless --profile; EXIF with orientation 1, XMP and IPTC kept unless --strip).

    options:
      -o, --output OUT                            the file to write (its folder is created if missing; its extension picks the format), or - for standard output with --format
      -q, --quality Q                             quality 1 … 100 for JPEG, WebP, HEIC, AVIF, TIFF (default: a JPEG from a JPEG keeps the input's quality and chroma subsampling; otherwise JPEG 90 4:4:4, WebP 90, HEIC 60, AVIF 80; with --quality, JPEG chroma is 4:2:0 below 90, 4:4:4 from 90)
          --effort EFFORT                         HEIC encoding time against file size, each compared with small at the same luma SSIM: fast (default: x265 ultrafast with adaptive quantisation; about 5 CPU-s for 12 MP; 20–24 % more bytes), balanced (also 8×8 coding units, sign hiding and SAO: about 3× fast's time, 2–5 % more bytes) or small (x265 slow, as libvips's heifsave: about 8× fast's time)
          --format FORMAT                         jpeg, png, webp, tiff, heic or avif (default: from OUT's extension)
          --pixel-limit PIXELS                    refuse larger images (default 100000000)
          --fail-on none|truncated|error|warning  refuse a file whose decoder reports this or worse (default warning: any damage it notices; none writes what could be decoded)
          --background COLOUR                     what transparency is flattened onto for JPEG output: white (default), black, #RRGGBB, R,G,B
          --hdr-photo keep|drop                   an HDR photo's gain map: keep (default: in a HEIC output, edited with the photo; other outputs say it was not kept) or drop (every output its SDR picture, without a warning)
          --unoptimized                           render through the unoptimized graph (for comparisons)
      -y, --overwrite                             replace OUT when it exists (without it, an existing OUT is left as it is)
    \#(Self.stillOptionsHelp)
    """#,
    "batch": #"""
    usage: framedial batch IN_DIR|FILE… -o OUT_DIR [--preset NAME] [--state FILE.json]… [--set KEY=VALUE]… [--format F] [--quality Q] [--effort E] [--fit DEVICE[:O] [--fit-mode MODE] | --size N|WxH [--enlarge]] [--profile P] [--strip | --strip-location] [--name TEMPLATE] [--jobs N] [--shard I/N] [--pixel-limit PIXELS] [--fail-on LEVEL] [--background COLOUR] [--hdr-photo keep|drop] [--no-recursive] [--follow-symlinks] [--include-hidden] [--overwrite] [--allow-output-inside] [--dry-run] [--keep-time] [--pairs both|raw|jpeg] [--json] [--verbose]

    Render every image under the input folders into OUT_DIR, mirroring the tree; bad files are reported and skipped.

    options:
      -o, --output OUT_DIR                        the folder that receives the outputs (created if missing)
          --format FORMAT                         jpeg, png, webp, tiff, heic or avif (default: each input's own; GIF → PNG)
      -q, --quality Q                             quality 1 … 100 for JPEG, WebP, HEIC, AVIF, TIFF (default: a JPEG from a JPEG keeps the input's quality and chroma subsampling; otherwise JPEG 90 4:4:4, WebP 90, HEIC 60, AVIF 80; with --quality, JPEG chroma is 4:2:0 below 90, 4:4:4 from 90)
          --effort EFFORT                         HEIC encoding time against file size, each compared with small at the same luma SSIM: fast (default: x265 ultrafast with adaptive quantisation; about 5 CPU-s for 12 MP; 20–24 % more bytes), balanced (also 8×8 coding units, sign hiding and SAO: about 3× fast's time, 2–5 % more bytes) or small (x265 slow, as libvips's heifsave: about 8× fast's time)
          --name TEMPLATE                         output names from {stem} {ext} {name} {format} (default {stem}.{ext}; {ext} keeps the input's spelling)
      -j, --jobs N                                images processed at once (default: the number of cores); each gets cores / N libvips threads, or VIPS_CONCURRENCY when that is set
          --shard I/N                             process only part I of N (1 ≤ I ≤ N), split deterministically by path
          --pixel-limit PIXELS                    refuse larger images (default 100000000)
          --fail-on none|truncated|error|warning  refuse a file whose decoder reports this or worse (default warning: any damage it notices; none writes what could be decoded)
          --background COLOUR                     what transparency is flattened onto for JPEG output: white (default), black, #RRGGBB, R,G,B
          --hdr-photo keep|drop                   an HDR photo's gain map: keep (default: in a HEIC output, edited with the photo; other outputs say it was not kept) or drop (every output its SDR picture, without a warning)
          --no-recursive                          do not walk sub-folders
          --follow-symlinks                       walk into symbolically linked folders
          --include-hidden                        include files and folders whose names start with a dot
      -y, --overwrite                             replace outputs that exist (default: skip those made with the same settings, so a rerun resumes, and redo those made with other settings)
          --allow-output-inside                   accept an output folder inside (it is not walked) or equal to an input folder (the outputs its records describe are never inputs)
      -n, --dry-run                               list what would be written; write nothing
          --keep-time                             give each output its input's modification time
          --pairs both|raw|jpeg                   a camera raw beside an image of the same name (IMG_1.DNG, IMG_1.JPG): both (default; the raw's output is IMG_1-raw.jpg), the raw only, or the image only
          --json                                  one JSON object per file and a summary, on standard output
      -v, --verbose                               also list the files passed over as not images (videos, sidecars)
    \#(Self.stillOptionsHelp)
    """#,
    "controls": #"""
    usage: framedial controls [--device NAME] [--json] [--list-devices]

    List a device's controls in overlay order: kind, title, symbol, values, step, prominent values, labels.

    options:
          --device NAME   a device of framedial devices with camera figures (--list-devices) (default iphone-16-pro)
          --json          print one JSON array of objects (every key present, null when not applicable)
          --list-devices  list the devices with camera figures and whether they have a Camera Control
      -h, --help          show this help
    """#,
    "devices": #"""
    usage: framedial devices [--json]

    List the devices: screens for --fit and preview, and camera figures for controls, preview and sweep.

    options:
          --json  one JSON array of the devices on standard output
      -h, --help  show this help
    """#,
    "explain": #"""
    usage: framedial explain [--preset NAME] [--state FILE.json]… [--set KEY=VALUE]… [--dot] [--unoptimized]

    Print the plan the control values compile to (optimized, or the unoptimized recipe).

    options:
          --dot              print Graphviz DOT instead of text
          --unoptimized      print the recipe before optimization
          --preset NAME      start from a built-in preset (see framedial presets)
          --state FILE.json  control values from a JSON state file (several layer in order)
          --set KEY=VALUE    set one control, e.g. ev=0.5, wb=tungsten, zoom=1.5 (wins over --state)
      -h, --help             show this help
    """#,
    "frames": #"""
    usage: framedial frames (--size WxH [--pix-fmt rgb24|rgba|bgra|rgb48le|rgba64le|yuv420p|yuv420p10le] | --y4m) [--colour-matrix bt709|bt601|bt2020] [--range tv|pc] [--transfer bt709|hlg|pq] [--primaries bt709|bt2020] [--preset NAME] [--state FILE.json]… [--set KEY=VALUE]… [--timeline FILE.jsonl --fps R] [--stats] [--threads N]

    Render raw video frames (rgb24, rgba, bgra, rgb48le, rgba64le, yuv420p, yuv420p10le, or a YUV4MPEG2 stream) from standard input to standard output, for ffmpeg pipes.

    options:
      -s, --size WxH                          frame width and height in pixels, e.g. 1920x1080 (required)
          --pix-fmt FORMAT                    rgb24 (default), rgba or bgra (8-bit); rgb48le or rgba64le (16-bit): packed; yuv420p or yuv420p10le: planar 4:2:0 (ffmpeg's names)
          --y4m                               read and write a YUV4MPEG2 stream (ffmpeg -f yuv4mpegpipe): size, 4:2:0 depth, range and rate from its header
          --colour-matrix bt709|bt601|bt2020  YUV frames: the matrix (default: BT.2020 with --primaries bt2020, else BT.601 below 720 lines, BT.709 at or above)
          --range tv|pc                       YUV frames: the code range (default: tv, or the y4m header's)
          --transfer bt709|hlg|pq             the frames' transfer (default: bt709, rendered as sRGB); hlg and pq need 10 bits or more
          --primaries bt709|bt2020            the frames' primaries (default: bt709; HDR video is bt2020)
          --timeline FILE.jsonl               control events (JSON Lines); frame k takes the events at or before k / fps
          --fps R                             frame rate placing frames on the timeline: 25, 29.97 or 30000/1001
          --stats                             print frames, frames per second and p50/p99 render ms to standard error
          --threads N                         libvips worker threads per frame (default: one per core)
          --preset NAME                       start from a built-in preset (see framedial presets)
          --state FILE.json                   control values from a JSON state file (several layer in order)
          --set KEY=VALUE                     set one control, e.g. ev=0.5, wb=tungsten, zoom=1.5 (wins over --state)
      -h, --help                              show this help
    """#,
    "info": #"""
    usage: framedial info FILE… [--pixel-limit PIXELS] [--json]

    Print each image's header (size, bands, format, orientation, ICC, loader) or each video's streams (size, codec, rate, duration, rotation, colour tags).

    options:
          --pixel-limit PIXELS  the limit of the commands that decode images: a larger image is still described, and said to be over it (default 100000000)
          --json                one JSON object per file on standard output
      -h, --help                show this help
    """#,
    "lut": #"""
    usage: framedial lut (-o LOOK.cube [--size N] | -o LOOK.png --hald [--level L]) [--preset NAME] [--state FILE.json]… [--set KEY=VALUE]… [--overwrite]

    Write the colour of the control values as a .cube 3D LUT or a Hald CLUT image for other tools.

    options:
      -o, --output FILE      the LUT to write: .cube (Resolve, ffmpeg lut3d, OBS, darktable) or, with --hald, .png/.tif
          --size N           nodes per axis of the .cube (default 33; 65 for the smallest error)
          --hald             write a 16-bit Hald CLUT image instead (ffmpeg haldclut, ImageMagick, G'MIC)
          --level L          Hald CLUT level: L² nodes per axis in an L³×L³ image (default 8: 64 nodes)
      -y, --overwrite        replace OUT when it exists (without it, an existing OUT is left as it is)
          --preset NAME      start from a built-in preset (see framedial presets)
          --state FILE.json  control values from a JSON state file (several layer in order)
          --set KEY=VALUE    set one control, e.g. ev=0.5, wb=tungsten, zoom=1.5 (wins over --state)
      -h, --help             show this help
    """#,
    "presets": #"""
    usage: framedial presets [--json]

    List the built-in presets (use with --preset NAME).

    options:
          --json  print the presets as JSON
      -h, --help  show this help
    """#,
    "preview": #"""
    usage: framedial preview IN -o OUT.png [--device NAME] [--orientation portrait|landscape] [--control NAME] [--grid] [--no-overlay] [--effort E] [--preset NAME] [--state FILE.json]… [--set KEY=VALUE]… [--pixel-limit PIXELS] [--overwrite]

    Draw a device screen showing the processed image as the viewfinder, with the Camera Control overlay.

    options:
      -o, --output OUT          the picture to write (.png recommended)
          --effort EFFORT       HEIC encoding time against file size, each compared with small at the same luma SSIM: fast (default: x265 ultrafast with adaptive quantisation; about 5 CPU-s for 12 MP; 20–24 % more bytes), balanced (also 8×8 coding units, sign hiding and SAO: about 3× fast's time, 2–5 % more bytes) or small (x265 slow, as libvips's heifsave: about 8× fast's time)
          --device NAME         a screen from framedial devices (default iphone-16-pro)
          --orientation O       portrait (default) or landscape (Camera Control on the top edge)
          --control NAME        the control the overlay shows (default exposure-bias): exposure-bias, zoom, contrast, saturation, white-balance, temperature, tint, filter, grid (aliases ev, wb)
          --grid                draw the rule-of-thirds grid over the viewfinder (as --set grid=on)
          --no-overlay          draw the viewfinder without the Camera Control overlay
    \#(Self.pictureOptionsHelp)
    """#,
    "studio": #"""
    usage: framedial studio [IMAGE|VIDEO] [--device NAME] [--port N] [--listen ADDRESS] [--no-token] [--preset NAME] [--state FILE.json]… [--set KEY=VALUE]… [--pixel-limit PIXELS]

    Serve a local page to slide the Camera Control and watch the processed picture follow live.

    options:
          --device NAME         a screen from framedial devices (default iphone-16-pro)
          --port N              the port to listen on; 0 picks a free one (default 8080)
          --listen ADDRESS      the IP address to listen on (default 127.0.0.1, this machine only; 0.0.0.0 for every interface, which asks for a token printed in the URL)
          --no-token            with --listen beyond this machine: ask for no token (anyone who reaches the address may read the picture and change the state)
          --pixel-limit PIXELS  refuse larger images (default 100000000)
          --preset NAME         start from a built-in preset (see framedial presets)
          --state FILE.json     control values from a JSON state file (several layer in order)
          --set KEY=VALUE       set one control, e.g. ev=0.5, wb=tungsten, zoom=1.5 (wins over --state)
      -h, --help                show this help
    """#,
    "sweep": #"""
    usage: framedial sweep IN -o OUT.png --control KEY [--values A,B,C | --prominent] [--device NAME] [--effort E] [--preset NAME] [--state FILE.json]… [--set KEY=VALUE]… [--pixel-limit PIXELS] [--overwrite]

    Render a contact sheet of the image at several values of one control, each tile labelled.

    options:
      -o, --output OUT          the contact sheet to write (.png recommended)
          --effort EFFORT       HEIC encoding time against file size, each compared with small at the same luma SSIM: fast (default: x265 ultrafast with adaptive quantisation; about 5 CPU-s for 12 MP; 20–24 % more bytes), balanced (also 8×8 coding units, sign hiding and SAO: about 3× fast's time, 2–5 % more bytes) or small (x265 slow, as libvips's heifsave: about 8× fast's time)
          --control KEY         the control to sweep: exposure-bias, zoom, contrast, saturation, white-balance, temperature, tint, filter, grid (aliases ev, wb)
          --values A,B,C        the values, in order: numbers for a slider (as --set takes them), option names for a picker
          --prominent           the slider's prominent values and range ends, at least 5 values, or every picker option (default)
          --device NAME         the capture device whose figures label zoom and exposure: a device of framedial devices with camera figures (default iphone-16-pro)
    \#(Self.pictureOptionsHelp)
    """#,
    "video": #"""
    usage: framedial video IN -o OUT [--preset NAME] [--state FILE.json]… [--set KEY=VALUE]… [--timeline FILE.jsonl] [--crf N] [--encoder-preset P] [--codec h264|hevc] [--hdr keep|sdr] [--start T] [--duration D] [--fail-on LEVEL] [--json] [--pixel-limit PIXELS] [--overwrite] | video IN --frame-at T -o STILL.png [--effort E] [--fail-on LEVEL] [--preset NAME] [--state FILE.json]… [--set KEY=VALUE]… [--pixel-limit PIXELS] [--overwrite]

    Render a video file with the control values (frame times, colour tags, rotation and audio kept).

    options:
      -o, --output OUT                            the video to write: .mp4, .mov, .mkv … (its folder is created if missing)
          --timeline FILE.jsonl                   control events (JSON Lines); each frame takes the events at or before its own time
          --crf N                                 constant rate factor 0 … 51, lower is better (default 18)
          --encoder-preset P                      x264/x265 speed preset: ultrafast … medium (default) … veryslow
          --codec CODEC                           h264 (libx264, 8-bit 4:2:0) or hevc (libx265, 4:2:0, 10-bit Main 10 for input deeper than 8 bits, tagged hvc1); default: hevc for HEVC or 10-bit (and deeper) input, else h264
          --hdr keep|sdr                          HDR (HLG, PQ) input: keep it HDR, HEVC Main 10 tagged in stream and container (default), or tone-map it to SDR BT.709 8-bit; --frame-at stills of HDR are always sdr
          --start T                               start at T (seconds, or HH:MM:SS.ms); the output's times start at 0; audio and subtitles are cut at packet boundaries
          --duration D                            keep D (seconds, or HH:MM:SS.ms) from the start
          --frame-at T                            write only the frame shown at T, processed, as a still (-o still.png, .jpg …), upright and with square pixels
          --effort EFFORT                         HEIC encoding time against file size, each compared with small at the same luma SSIM: fast (default: x265 ultrafast with adaptive quantisation; about 5 CPU-s for 12 MP; 20–24 % more bytes), balanced (also 8×8 coding units, sign hiding and SAO: about 3× fast's time, 2–5 % more bytes) or small (x265 slow, as libvips's heifsave: about 8× fast's time)
          --pixel-limit PIXELS                    refuse larger frames, as decoded or, for --frame-at, as shown (default 100000000)
          --fail-on none|truncated|error|warning  refuse a file whose decoder reports this or worse (default warning: any damage it notices; none writes what could be decoded)
          --json                                  progress as JSON objects on standard output, one per line, and a done event
      -y, --overwrite                             replace OUT when it exists (without it, an existing OUT is left as it is)
          --preset NAME                           start from a built-in preset (see framedial presets)
          --state FILE.json                       control values from a JSON state file (several layer in order)
          --set KEY=VALUE                         set one control, e.g. ev=0.5, wb=tungsten, zoom=1.5 (wins over --state)
      -h, --help                                  show this help
    """#,
  ]
}
