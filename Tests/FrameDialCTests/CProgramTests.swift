import Foundation
import Testing

/// The C API from C: `Tests/CAPI/capi_test.c` compiled with the address sanitizer against the built
/// `libFrameDialC.so` and `include/framedial.h`, then run against the built `framedial` binary.
@Suite struct CProgramTests {
  /// The folder that holds the test bundle and the built products (`libFrameDialC.so`, `framedial`).
  static let productsFolder = URL(fileURLWithPath: CommandLine.arguments[0])
    .deletingLastPathComponent()
  static let repository = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  static let header = repository.appendingPathComponent("include/framedial.h")
  static let program = repository.appendingPathComponent("Tests/CAPI/capi_test.c")

  /// Runs `executable arguments…` and returns its exit status and everything it printed.
  static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:])
    throws -> (status: Int32, output: String)
  {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [executable] + arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }

  /// The names of the functions `text` declares or calls, `framedial_…(`.
  static func functionNames(in text: String, declaredOnly: Bool) -> Set<String> {
    let pattern = declaredOnly ? #"^\S.*?\b(framedial_[a-z_]+)\("# : #"\b(framedial_[a-z_]+)\("#
    guard let regex = try? NSRegularExpression(pattern: pattern, options: [.anchorsMatchLines])
    else { return [] }
    let range = NSRange(text.startIndex..., in: text)
    return Set(
      regex.matches(in: text, range: range).compactMap { match in
        Range(match.range(at: 1), in: text).map { String(text[$0]) }
      })
  }

  @Test func theHeaderDeclaresExactlyTheExportedFunctionsAndTheProgramCallsEachOne() throws {
    let library = Self.productsFolder.appendingPathComponent("libFrameDialC.so").path
    let symbols = try Self.run("nm", ["-D", "--defined-only", library])
    #expect(symbols.status == 0, "\(symbols.output)")
    let exported = Set(
      symbols.output.split(separator: "\n").compactMap { line -> String? in
        let parts = line.split(separator: " ")
        guard parts.count == 3, parts[1] == "T", parts[2].hasPrefix("framedial_") else {
          return nil
        }
        return String(parts[2])
      })
    let declared = Self.functionNames(
      in: try String(contentsOf: Self.header, encoding: .utf8), declaredOnly: true)
    #expect(declared.count == 15)
    #expect(exported == declared)
    let called = Self.functionNames(
      in: try String(contentsOf: Self.program, encoding: .utf8), declaredOnly: false)
    #expect(declared.subtracting(called).isEmpty, "not exercised: \(declared.subtracting(called))")
  }

  @Test func theCProgramPassesUnderTheAddressSanitizer() throws {
    let scratch = FileManager.default.temporaryDirectory
      .appendingPathComponent("framedial-capi-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    let executable = scratch.appendingPathComponent("capi_test").path
    let products = Self.productsFolder.path
    let compiler = try Self.run("sh", ["-c", "command -v cc || command -v clang"]).output
      .trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(!compiler.isEmpty, "no C compiler (cc or clang) on PATH")
    let build = try Self.run(
      compiler,
      [
        "-std=c11", "-D_POSIX_C_SOURCE=200809L", "-Wall", "-Wextra", "-Werror",
        "-fsanitize=address", "-fno-omit-frame-pointer", "-g",
        "-I", Self.header.deletingLastPathComponent().path, Self.program.path,
        "-L", products, "-lFrameDialC", "-Wl,-rpath,\(products)", "-lpthread", "-o", executable,
      ])
    try #require(build.status == 0, "\(build.output)")
    // libvips and Swift's globals (the plan caches) keep allocations until exit: leak detection off,
    // every other check of the C side on.
    let result = try Self.run(
      executable,
      [
        Self.productsFolder.appendingPathComponent("framedial").path,
        Self.repository.appendingPathComponent("SampleImages/rocket.jpg").path, scratch.path,
      ],
      environment: ["ASAN_OPTIONS": "detect_leaks=0:halt_on_error=1"])
    #expect(result.status == 0, "\(result.output)")
    #expect(result.output.contains(" checks, 0 failed"), "\(result.output)")
    #expect(result.output.contains("slider: 1000 frames"), "\(result.output)")
    #expect(!result.output.contains("AddressSanitizer"), "\(result.output)")
  }
}
