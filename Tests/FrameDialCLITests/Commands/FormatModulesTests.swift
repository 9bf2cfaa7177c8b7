import Foundation
import TestSupport
import Testing

/// libvips's format modules (HEIF, JPEG XL, ImageMagick, PDF, OpenSlide) are loaded when a run needs
/// one, not at start-up: a JPEG's run loads none of them, a HEIC's loads them and still reads and writes
/// HEIC. The dynamic loader's own record (`LD_DEBUG=files`) says which shared objects the process opened.
@Suite struct FormatModulesTests {
  /// How a run ended, and the format modules its processes opened (by file name: `vips-heif.so`, …),
  /// sorted; `openedLibvips` shows that the record was kept at all.
  struct Run {
    var result: CLIRunner.Result
    var modules: [String]
    var openedLibvips: Bool
  }

  /// `framedial arguments…` in `folder`, with the dynamic loader's record written to files there
  /// (one a process: `framedial` hands some commands to `framedial-full`) and `VIPSHOME` as given
  /// (unset when nil).
  func run(_ arguments: [String], in folder: URL, vipsHome: String? = nil) throws -> Run {
    let record = folder.appendingPathComponent("loader-record")
    let home = vipsHome.map { ["VIPSHOME=\($0)"] } ?? ["-u", "VIPSHOME"]
    let result = try CLIRunner.run(
      home + ["LD_DEBUG=files", "LD_DEBUG_OUTPUT=\(record.path)", CLIRunner.binary.path]
        + arguments,
      executable: URL(fileURLWithPath: "/usr/bin/env"))
    var modules = Set<String>()
    var openedLibvips = false
    for name in try FileManager.default.contentsOfDirectory(atPath: folder.path)
    where name.hasPrefix("loader-record") {
      let text = try String(
        contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
      openedLibvips = openedLibvips || text.contains("libvips.so")
      for line in text.split(separator: "\n") where line.contains("vips-modules-") {
        guard let start = line.range(of: "file=") else { continue }
        let path = line[start.upperBound...].prefix { $0 != " " && $0 != "[" }
        modules.insert(URL(fileURLWithPath: String(path)).lastPathComponent)
      }
      try FileManager.default.removeItem(at: folder.appendingPathComponent(name))
    }
    return Run(result: result, modules: modules.sorted(), openedLibvips: openedLibvips)
  }

  @Test func aJPEGsRunOpensNoModule() throws {
    let folder = try CLIRunner.scratchFolder("format-modules-jpeg")
    defer { try? FileManager.default.removeItem(at: folder) }
    let output = folder.appendingPathComponent("out.jpg").path
    let run = try run(
      ["apply", CLIRunner.sample("rocket.jpg"), "-o", output, "--size", "256"], in: folder)
    #expect(run.result.status == 0, "\(run.result.standardError)")
    #expect(run.openedLibvips)
    #expect(run.modules == [])
    #expect(FileManager.default.fileExists(atPath: output))
  }

  @Test func aHEICsRunOpensTheModulesAndReadsAndWritesHEIC() throws {
    let folder = try CLIRunner.scratchFolder("format-modules-heic")
    defer { try? FileManager.default.removeItem(at: folder) }
    let output = folder.appendingPathComponent("out.heic").path
    let run = try run(
      ["apply", CLIRunner.sample("coffee.heic"), "-o", output, "--set", "ev=0.3"], in: folder)
    #expect(run.result.status == 0, "\(run.result.standardError)")
    #expect(run.modules.contains("vips-heif.so"))
    let info = try CLIRunner.run(["info", output])
    #expect(info.status == 0)
    #expect(info.standardOutput.contains("heifload"), "\(info.standardOutput)")
  }

  /// AVIF, like HEIC, is written through libheif itself: a JPEG made into an AVIF needs no module.
  @Test func anAVIFOutputIsWrittenWithoutTheModules() throws {
    let folder = try CLIRunner.scratchFolder("format-modules-avif")
    defer { try? FileManager.default.removeItem(at: folder) }
    let output = folder.appendingPathComponent("out.avif").path
    let run = try run(
      ["apply", CLIRunner.sample("rocket.jpg"), "-o", output, "--size", "256"], in: folder)
    #expect(run.result.status == 0, "\(run.result.standardError)")
    #expect(run.modules == [], "\(run.modules)")
    let info = try CLIRunner.run(["info", output])
    #expect(info.standardOutput.contains("256×"), "\(info.standardOutput)")
    #expect(info.standardOutput.contains("heifload"), "\(info.standardOutput)")
  }

  @Test func anUntrustedFormatIsStillNamedAndRefused() throws {
    let folder = try CLIRunner.scratchFolder("format-modules-pdf")
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = folder.appendingPathComponent("page.pdf")
    try Data("%PDF-1.4\n1 0 obj << >> endobj\n".utf8).write(to: input)
    let run = try run(
      ["apply", input.path, "-o", folder.appendingPathComponent("x.jpg").path], in: folder)
    #expect(run.result.status == 1)
    #expect(run.modules.contains("vips-poppler.so"))
    #expect(run.result.standardError.contains("pdfload is one of libvips's untrusted loaders"))
  }

  /// libvips writes its guessed prefix into the environment of a process that runs it, so a program
  /// that embeds libvips hands `VIPSHOME` to the `framedial` it starts: the modules still wait.
  @Test func anInheritedVIPSHOMEStillDefersTheModules() throws {
    let folder = try CLIRunner.scratchFolder("format-modules-home")
    defer { try? FileManager.default.removeItem(at: folder) }
    let output = folder.appendingPathComponent("out.jpg").path
    let run = try run(
      ["apply", CLIRunner.sample("rocket.jpg"), "-o", output, "--size", "256"], in: folder,
      vipsHome: "/usr")
    #expect(run.result.status == 0, "\(run.result.standardError)")
    #expect(run.openedLibvips)
    #expect(run.modules == [])
  }
}
