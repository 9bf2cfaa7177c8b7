import Foundation

/// Runs the built `framedial` binary and captures what it prints.
package struct CLIRunner {
  /// How a run ended and what it printed.
  package struct Result {
    package var status: Int32
    package var standardOutput: String
    package var standardError: String
    /// Standard output's bytes as written (an image for `apply -o -`).
    package var outputBytes = Data()

    package init(
      status: Int32, standardOutput: String, standardError: String, outputBytes: Data = Data()
    ) {
      self.status = status
      self.standardOutput = standardOutput
      self.standardError = standardError
      self.outputBytes = outputBytes
    }
  }

  /// The folder that holds the test bundle and the built products.
  package static let productsFolder = URL(fileURLWithPath: CommandLine.arguments[0])
    .deletingLastPathComponent()

  /// The built `framedial` executable.
  package static let binary = productsFolder.appendingPathComponent("framedial")

  /// The repository's folder (this file is in its `Tests/TestSupport`).
  package static let repository = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// A new empty folder in the temporary directory, named after `label`; the caller removes it.
  package static func scratchFolder(_ label: String) throws -> URL {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("framedial-\(label)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  /// The path of the sample image `name` (in `SampleImages/`).
  package static func sample(_ name: String) -> String {
    repository.appendingPathComponent("SampleImages").appendingPathComponent(name).path
  }

  /// Runs `framedial arguments…` (or another `executable`), feeding `input` to its standard input, in
  /// `directory` (default: this process's working folder).
  package static func run(
    _ arguments: [String], input: Data = Data(), executable: URL? = nil, in directory: URL? = nil
  ) throws -> Result {
    let process = Process()
    process.executableURL = executable ?? binary
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = directory }
    let output = Pipe()
    let error = Pipe()
    let stdin = Pipe()
    process.standardOutput = output
    process.standardError = error
    process.standardInput = stdin
    try process.run()
    stdin.fileHandleForWriting.write(input)
    try stdin.fileHandleForWriting.close()
    let outData = output.fileHandleForReading.readDataToEndOfFile()
    let errData = error.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Result(
      status: process.terminationStatus,
      standardOutput: String(decoding: outData, as: UTF8.self),
      standardError: String(decoding: errData, as: UTF8.self), outputBytes: outData)
  }

  /// Starts `framedial arguments…`, sends it `signal` after `seconds`, and returns how it ended.
  package static func runSignalled(_ arguments: [String], after seconds: Double, signal: Int32)
    throws
    -> Result
  {
    let process = Process()
    process.executableURL = binary
    process.arguments = arguments
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    Thread.sleep(forTimeInterval: seconds)
    kill(process.processIdentifier, signal)
    let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return Result(status: process.terminationStatus, standardOutput: "", standardError: message)
  }
}
