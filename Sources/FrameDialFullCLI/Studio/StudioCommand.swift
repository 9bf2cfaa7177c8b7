import Controls
import Foundation
import FrameDial
import FrameDialCLI
import Studio
import Vips

/// `framedial studio [IMAGE|VIDEO] [--device NAME] [--port N] [--listen ADDRESS] [--no-token]`: a local web page with
/// the device screen, the live processed picture (a still, or a video playing in a loop) and the Camera
/// Control overlay, and an HTTP API beside it.
enum StudioCommand: SignalTrappingCommand {
  static let name = "studio"
  static let summary =
    "Serve a local page to slide the Camera Control and watch the processed picture follow live."
  /// The device drawn when `--device` is not given.
  static let defaultDevice = "iphone-16-pro"
  /// The port used when `--port` is not given.
  static let defaultPort = 8080
  /// The address listened on when `--listen` is not given.
  static let defaultAddress = "127.0.0.1"
  /// `--device`: the screen drawn.
  static let device = DeviceOption.screen(
    "a screen from framedial devices (default \(defaultDevice))")
  /// `--port`.
  static let port = ValueOption.wholeNumber(
    "port", "N", "the port to listen on; 0 picks a free one (default \(defaultPort))",
    in: 0...65535)
  /// `--listen`: the address listened on.
  static let listen = ValueOption<String>(
    "listen", "ADDRESS",
    "the IP address to listen on (default \(defaultAddress), this machine only; "
      + "0.0.0.0 for every interface, which asks for a token printed in the URL)")
  /// `--no-token`.
  static let noToken = FlagOption(
    "no-token",
    "with \(listen) beyond this machine: ask for no token (anyone who reaches the address may "
      + "read the picture and change the state)")
  static let synopsis = Usage(
    [
      .words("[IMAGE|VIDEO]"), .optional(device), .optional(port), .optional(listen),
      .optional(noToken),
    ] + StateOptions.usage)
  static let parser = ArgumentParser(
    options: [device, port, listen, noToken, PixelLimitOption.option] + StateOptions.options)

  /// The repository's sample photo, found from this source file's location (as the benchmark finds it).
  static var samplePhoto: String {
    URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("SampleImages/rocket.jpg").path
  }

  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    // The trap comes before any thread is started (libvips's, the server's): a thread started earlier
    // would not block the signals and could take one and drop it.
    let stop = StudioStop()
    // SIGINT is caught even when the studio was started with it ignored (`framedial studio &` in a
    // script): a server that runs until it is stopped must stop on `kill -INT`.
    let trap = SignalTrap(
      .finishRunningWork, catchingIgnored: [SIGINT], onSignal: { _ in stop.request() })
    defer { trap.cancel() }
    guard arguments.positionals.count <= 1 else {
      throw UsageError(
        "studio takes at most one IMAGE or VIDEO, not \(arguments.positionals.count)")
    }
    let input = try inputPath(arguments.positionals.first)
    let device = try arguments[Self.device] ?? DeviceOption.screen(named: defaultDevice)
    let port = try arguments[Self.port] ?? defaultPort
    let listen = try arguments[Self.listen] ?? defaultAddress
    let address = listen.lowercased() == "localhost" ? "127.0.0.1" : listen
    let state = try StateOptions.controlState(from: arguments)
    let load = LoadOptions(pixelLimit: try PixelLimitOption.limit(from: arguments))

    let model = device.capture ?? .iPhone16Pro
    let player = try videoPlayer(input, device: device)
    let source = try player?.source ?? ViewfinderSource(input: input, device: device, load: load)
    let configuration = try StudioPageConfiguration(source: source, screen: device, model: model)
      .jsonData()
    let live = LiveControlState(state)
    let frames = try StudioFrameLoop(source: source, live: live, toneMapper: player?.toneMapper)
    let link = StudioServerLink()
    let session = try StudioSession(
      live: live, model: model, configuration: configuration,
      downloads: StudioDownloads(
        input: input, load: load, warn: { console.err("framedial \(name): warning: \($0)") }),
      changed: { frames.wake() },
      overlayChanged: { link.overlayChanged() },
      viewfinderShown: { frames.show(width: $0, height: $1) },
      framesWanted: {
        frames.want(rgba: $0, jpeg: $1)
        player?.watch($0 || $1)
      })
    let server = StudioServer(
      configuration: .init(
        address: address, port: port, access: arguments[Self.noToken] ? .open : .tokenOffLoopback
      ),
      backend: session,
      resources: try PageResources.bundled())
    let url: String
    do {
      url = try server.start()
    } catch {
      switch error.problem {
      case .notAnIPAddress: throw UsageError(error.message)
      case .addressInUse:
        throw RenderError(
          "\(error.message); choose another port with \(Self.port) N, or \(Self.port) 0 for any "
            + "free one")
      case nil: throw RenderError(error.message)
      }
    }
    stop.attach(server)
    link.attach(server)
    frames.start(
      publish: { frame, generation, render, whole in
        server.publish(
          frame: frame, generation: generation, renderMilliseconds: render,
          frameMilliseconds: whole)
      },
      fail: { message, generation in server.publishFailure(message, generation: generation) })
    player?.start(
      show: { frames.show($0) },
      fail: { console.err("framedial \(name): \($0); the video stopped at its last frame") })
    // A signal sent by a reader of the URL line must reach the trap, not the ignoring disposition.
    trap.waitUntilInstalled()
    console.out(url)
    if server.listensBeyondLoopback && server.token == nil {
      console.err(
        "framedial \(name): warning: listening on \(listen) with no token (\(Self.noToken)): any page or "
          + "program that reaches this address can read the picture and change the state")
    } else if !server.listensBeyondLoopback && arguments[Self.noToken] {
      console.err(
        "framedial \(name): \(Self.noToken) has no effect on \(listen), which asks for none")
    }
    if !device.hasCameraControl {
      console.err(
        "\(device.name) has no Camera Control: the page shows the viewfinder and the control list.")
    }
    server.waitUntilStopped()
    player?.stop()
    frames.stop()
    if let signal = trap.signal {
      console.err("framedial studio: stopped by \(SignalTrap.name(of: signal))")
    }
    return ExitCode.success
  }

  /// The image or video to serve: `given`, or the sample photo.
  static func inputPath(_ given: String?) throws(UsageError) -> String {
    guard let given else {
      guard FileManager.default.fileExists(atPath: samplePhoto) else {
        throw UsageError("give an IMAGE (the sample photo \(samplePhoto) is not there)")
      }
      return samplePhoto
    }
    return given
  }

  /// The player of `path` when it is a video (decoded in process, looping): its extension names one
  /// (``VideoFiles/extensions``), or no image loader recognises its content and FFmpeg opens it (a video
  /// under another name: `.flv`, `.mxf`); nil for an image.
  static func videoPlayer(_ path: String, device: ScreenDevice) throws -> StudioVideoPlayer? {
    if VideoFiles.hasVideoExtension(path) {
      return try StudioVideoPlayer(path: path, device: device)
    }
    guard VideoFiles.mayBeVideoByContent(path) else { return nil }
    do {
      return try StudioVideoPlayer(path: path, device: device)
    } catch {
      throw RenderError(
        "\(path): not a known image format, nor a video FFmpeg reads "
          + "(\(ErrorMessage.plain(error)))")
    }
  }
}
