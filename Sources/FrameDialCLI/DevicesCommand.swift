import FrameDial

/// `framedial devices`: the screen catalog (HIG Layout) that `--fit` and `preview` use.
enum DevicesCommand: Command {
  static let name = "devices"
  static let summary =
    "List the device screens for --fit and preview: points, scale, pixels, size classes, Camera Control."
  static let usage = "devices"
  static let parser = ArgumentParser(options: [])

  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    guard arguments.positionals.isEmpty else { throw UsageError("devices takes no arguments") }
    let rows = ScreenCatalog.all.map { device in
      [
        device.id, device.name, "\(device.points.width)×\(device.points.height)",
        "@\(device.scale)x", "\(device.pixels.width)×\(device.pixels.height)",
        sizeClasses(device.portraitSizeClasses) + (device.sizeClassesListed ? "" : "*"),
        sizeClasses(device.landscapeSizeClasses) + (device.sizeClassesListed ? "" : "*"),
        device.hasCameraControl ? "yes" : "-",
      ]
    }
    let table = TextTable(
      header: [
        "DEVICE", "NAME", "POINTS", "SCALE", "PIXELS", "PORTRAIT", "LANDSCAPE", "CAMERA CONTROL",
      ], rows: rows)
    for line in table.lines { console.out(line) }
    console.out("")
    console.out(
      "Points and pixels are portrait; size classes are width×height (C compact, R regular) for a "
        + "full-screen app; * not in the HIG's size-class table, taken from the same screen's row.")
    console.out("Source: \(ScreenCatalog.source).")
    return ExitCode.success
  }

  private static func sizeClasses(_ classes: SizeClasses) -> String {
    "\(classes.width == .compact ? "C" : "R")×\(classes.height == .compact ? "C" : "R")"
  }
}
