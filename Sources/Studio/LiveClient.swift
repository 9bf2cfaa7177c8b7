import Foundation
import JSON
import Synchronization

/// A client of a studio's `/live` socket, for scripts and tests: libsoup's WebSocket client
/// (`SoupSession` and `SoupWebsocketConnection`) on a GLib main loop run by a thread of its own (the
/// server's `EventLoop`), behind calls that block the caller.
///
/// Messages the server sends are queued as they arrive and taken in order with ``receive(timeout:)``;
/// once the server closed the connection, ``closed`` holds its close code and reason.
///
/// ```swift
/// let live = try LiveClient(url: "ws://127.0.0.1:8080/live", origin: "http://127.0.0.1:8080")
/// try live.send(#"{"type":"state","state":{"exposureBias":1}}"#)
/// let next = try live.receive()
/// ```
public final class LiveClient: @unchecked Sendable {
  // `@unchecked Sendable`: `channel` is shared with the loop thread, which alone touches its libsoup
  // objects; its queue and close status are guarded by its condition.

  /// One message from the server.
  public enum Message: Sendable, Equatable {
    /// A text message (the studio's JSON).
    case text(String)
    /// A binary message (the studio's JPEG frames).
    case binary(Data)
  }

  /// How the connection ended: the close code and reason the server sent (1009 and a sentence for a
  /// message too large, 1001 when the server stops; 1005 when the close frame had no code).
  public struct Closed: Sendable, Equatable {
    /// The WebSocket close code.
    public var code: UInt16
    /// The reason sent with it (empty when none).
    public var reason: String
  }

  /// The largest message taken from the server, in bytes: libsoup's default, 128 KiB, would drop the
  /// connection on a viewfinder frame (a JPEG up to 1920 px wide).
  public static let incomingLimit = 256 * 1024 * 1024

  /// The URL connected to.
  public let url: String
  private let loop = EventLoop()
  private let channel: LiveClientChannel
  private let finished = DispatchSemaphore(value: 0)

  /// Opens the WebSocket at `url` (`ws://HOST:PORT/live`) and returns once the server accepted it.
  ///
  /// - Parameters:
  ///   - url: the socket's URL (`ws://` or `http://`).
  ///   - origin: the `Origin` header sent with the handshake (the studio checks it against its own
  ///     page's, `http://HOST:PORT`), or nil to send none, as scripts may.
  ///   - timeout: how long to wait for the connection and the server's answer, in seconds.
  /// - Throws: ``StudioError`` when the URL is not one, the server cannot be reached, or it refuses
  ///   the handshake (with the HTTP status it answered).
  public init(url: String, origin: String?, timeout: TimeInterval = 20) throws(StudioError) {
    self.url = url
    let channel = LiveClientChannel()
    self.channel = channel
    let (loop, finished) = (loop, finished)
    let seconds = UInt32(max(1, timeout.rounded(.up)))
    let thread = Thread {
      loop.run(
        setUp: { channel.connect(url: url, origin: origin, timeout: seconds) },
        tearDown: { channel.tearDown() })
      finished.signal()
    }
    thread.name = "framedial-live-client"
    thread.start()
    let outcome = channel.withLock { () -> Result<Void, StudioError>? in
      let deadline = Date(timeIntervalSinceNow: timeout)
      while channel.connected == nil, channel.condition.wait(until: deadline) {}
      return channel.connected
    }
    switch outcome {
    case .success: return
    case .failure(let error):
      stop()
      throw error
    case nil:
      stop()
      throw StudioError("no answer from \(url) within \(Int(seconds)) s")
    }
  }

  deinit {
    stop()
  }

  /// How the connection ended, nil while it is open.
  public var closed: Closed? {
    channel.withLock { channel.closed }
  }

  /// Sends one text message.
  ///
  /// - Throws: ``StudioError`` when the connection is closed (or closing).
  public func send(_ text: String) throws(StudioError) {
    let channel = channel
    guard onLoop({ channel.sendText(text) }) else {
      let why = closed.map { ": the server closed it with code \($0.code) \($0.reason)" } ?? ""
      throw StudioError("cannot send on \(url): the connection is closed\(why)")
    }
  }

  /// The next message from the server, waiting for it up to `timeout` seconds; nil once the
  /// connection is closed and every message that came before the close was taken.
  ///
  /// - Throws: ``StudioError`` when no message came and the connection stayed open.
  public func receive(timeout: TimeInterval = 20) throws(StudioError) -> Message? {
    try receive(before: Date(timeIntervalSinceNow: timeout), timeout: timeout)
  }

  /// Text messages read as JSON objects until one satisfies `wanted`, which is returned; binary
  /// messages and text messages that do not satisfy it are skipped.
  ///
  /// - Throws: ``StudioError`` when a text message is not a JSON object, when the connection closes
  ///   first, or when no such message came within `timeout` seconds.
  public func receiveJSON(
    timeout: TimeInterval = 20, until wanted: (JSONValue) -> Bool
  ) throws(StudioError) -> JSONValue {
    let deadline = Date(timeIntervalSinceNow: timeout)
    while true {
      guard let message = try receive(before: deadline, timeout: timeout) else {
        let why = closed.map { "code \($0.code) \($0.reason)" } ?? ""
        throw StudioError("\(url) closed before the message wanted came: \(why)")
      }
      guard case .text(let text) = message else { continue }
      guard let object = try? JSONValue.read(Data(text.utf8)), object.members != nil else {
        throw StudioError("a text message from \(url) is not a JSON object: \(text.prefix(200))")
      }
      if wanted(object) { return object }
    }
  }

  /// Starts closing the connection with code 1000 (normal); ``closed`` is set once the server
  /// answered.
  public func close() {
    let channel = channel
    loop.invoke { channel.close() }
  }

  /// The next message, nil once closed; `timeout` is the wait `deadline` ends, for the error.
  private func receive(before deadline: Date, timeout: TimeInterval) throws(StudioError) -> Message?
  {
    let next = channel.withLock { () -> Message?? in
      while channel.messages.isEmpty, channel.closed == nil {
        guard channel.condition.wait(until: deadline) else { break }
      }
      if !channel.messages.isEmpty { return .some(channel.messages.removeFirst()) }
      return channel.closed == nil ? nil : .some(nil)
    }
    guard let next else { throw StudioError("no message from \(url) within \(timeout) s") }
    return next
  }

  /// Runs `work` on the loop's thread and returns its result.
  private func onLoop(_ work: @escaping @Sendable () -> Bool) -> Bool {
    let done = DispatchSemaphore(value: 0)
    let result = Mutex(false)
    loop.invoke {
      let value = work()
      result.withLock { $0 = value }
      done.signal()
    }
    done.wait()
    return result.withLock { $0 }
  }

  /// Ends the loop (closing the connection when still open) and waits for its thread; the first call
  /// only.
  private func stop() {
    let (channel, loop) = (channel, loop)
    let first = channel.withLock {
      defer { channel.stopping = true }
      return !channel.stopping
    }
    guard first else { return }
    loop.invoke {
      channel.close()
      loop.quit()
    }
    finished.wait()
  }
}
