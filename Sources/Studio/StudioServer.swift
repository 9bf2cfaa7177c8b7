import CSoup
import Foundation
import JSON
import Synchronization

/// The studio's local web server, on libsoup 3: the page and its files, the HTTP API (`/state`,
/// `/frame.jpg`, `/stats`) and the `/live` WebSocket (see ``StudioRoute``).
///
/// Threads: libsoup's server and connections live on one event-loop thread of the server's own (a GLib
/// main loop); every request handler runs there and asks the ``StudioBackend`` only for quick answers.
/// Frames are rendered elsewhere and handed in with
/// ``publish(frame:generation:renderMilliseconds:frameMilliseconds:)`` from any thread; the loop takes
/// the newest one (latest wins) and sends it on: raw RGBA to pages on this machine that take it (no
/// JPEG to encode and decode), a JPEG to the others and to `GET /frame.jpg`. A bad request is answered
/// with an error status and never stops the server.
public final class StudioServer: @unchecked Sendable {
  // `@unchecked Sendable`: the mutable state below is touched on the event-loop thread only, except
  // `incoming` (a mutex) and `startResult` (written before `started` is signalled, read after).

  /// Where the server listens.
  public struct Configuration: Sendable, Equatable {
    /// An IP address (`127.0.0.1`, `0.0.0.0`, `::1` …).
    public var address: String
    /// The port; 0 picks a free one.
    public var port: Int
    /// Whether a server listening beyond this machine asks for an ``AccessToken``.
    public var access: Access

    /// Creates a configuration.
    public init(address: String = "127.0.0.1", port: Int = 8080, access: Access = .tokenOffLoopback)
    {
      self.address = address
      self.port = port
      self.access = access
    }
  }

  /// Who may use a server listening beyond this machine (on loopback, the `Host` check of
  /// ``OriginPolicy`` keeps other sites' pages out and no token is asked).
  public enum Access: Sendable, Equatable {
    /// Every request must carry a random ``AccessToken``, printed in the URL.
    case tokenOffLoopback
    /// No token: anyone who reaches the address may read the picture and change the state.
    case open
  }

  /// The largest `POST` body and `/live` message taken, in bytes: larger ones are refused (413, or the
  /// WebSocket closed with code 1009 and a reason) and the server goes on.
  public static let messageLimit = 64 * 1024

  private let configuration: Configuration
  let backend: any StudioBackend
  private let resources: PageResources
  let loop = EventLoop()
  private let started = DispatchSemaphore(value: 0)
  private let finished = DispatchSemaphore(value: 0)
  private var startResult: Result<String, StudioError> = .failure(StudioError("not started"))
  /// The token every request must carry (nil on loopback, or with ``Access/open``); set before
  /// ``start()`` returns.
  public private(set) var token: AccessToken?
  /// True when the server listens on an address other machines may reach; set before ``start()``
  /// returns.
  public private(set) var listensBeyondLoopback = false

  // Event-loop thread only.
  private var server: UnsafeMutablePointer<SoupServer>?
  private var policy = OriginPolicy(port: 0, loopbackOnly: true)
  var connections: [Int: LiveConnection] = [:]
  /// Requests whose headers and body are still to arrive, and when their wait began
  /// (``watchRequests(_:)``).
  var reading: [Int: (message: OpaquePointer, started: ContinuousClock.Instant)] = [:]
  /// The once-a-second check of the deadlines.
  var sweeper: UnsafeMutablePointer<GSource>?
  private var waitingForFrame: [(message: OpaquePointer, generation: UInt64)] = []
  private var latestFrame: (frame: StudioFrame, generation: UInt64)?
  /// The formats last asked of the backend (``StudioBackend/framesWanted(rgba:jpeg:)``).
  private var formatsAsked = (rgba: false, jpeg: false)
  private var samples = LatencySamples()
  /// Frame render times handed in with the frames (render thread), read by `/stats` (loop thread):
  /// the pixels, and the whole frame (the pixels and the formats made for the pages).
  private let renderTimes = Mutex(LatencySamples())
  private let frameTimes = Mutex(LatencySamples())

  /// A frame or failure handed in from the render thread, not yet taken by the loop.
  private enum Incoming {
    case frame(StudioFrame, generation: UInt64)
    case failure(String, generation: UInt64)
  }
  private let incoming = Mutex<Incoming?>(nil)

  /// Creates a server; nothing listens until ``start()``.
  public init(
    configuration: Configuration, backend: any StudioBackend, resources: PageResources
  ) {
    self.configuration = configuration
    self.backend = backend
    self.resources = resources
  }

  /// Starts the event-loop thread and listens; returns the page's URL (`http://127.0.0.1:8080/`, with
  /// `?token=…` when the server asks for a token).
  ///
  /// - Throws: ``StudioError`` when the address is not an IP address or cannot be listened on.
  public func start() throws(StudioError) -> String {
    let thread = Thread { [self] in
      loop.run(setUp: { listen() }, tearDown: { tearDown() })
      finished.signal()
    }
    thread.name = "framedial-studio-loop"
    thread.start()
    started.wait()
    return try startResult.get()
  }

  /// Blocks until the server has stopped (after ``stop()``, or at once when it never started).
  public func waitUntilStopped() {
    finished.wait()
    finished.signal()
  }

  /// Closes the pages' connections and the listening socket and ends the loop; safe from any thread.
  public func stop() {
    loop.invoke { [self] in
      for connection in connections.values { connection.close() }
      if let server { soup_server_disconnect(server) }
      loop.quit()
    }
  }

  /// Hands in the newest rendered frame and the state generation it shows; safe from any thread. A
  /// frame not yet taken by the loop is replaced (or, with the same number, completed). When given,
  /// `renderMilliseconds` is how long rendering the frame's pixels took and `frameMilliseconds` how
  /// long the whole frame took (the pixels and the formats made with them): `/stats` reports the
  /// percentiles of both, counting every frame rendered, replaced ones included.
  public func publish(
    frame: StudioFrame, generation: UInt64, renderMilliseconds: Double? = nil,
    frameMilliseconds: Double? = nil
  ) {
    if let renderMilliseconds { _ = renderTimes.withLock { $0.add(renderMilliseconds) } }
    if let frameMilliseconds { _ = frameTimes.withLock { $0.add(frameMilliseconds) } }
    hand(.frame(frame, generation: generation))
  }

  /// Tells the pages the overlay changed by itself (a press recognised late, the idle timeout); safe
  /// from any thread.
  public func overlayChanged() {
    loop.invoke { [self] in broadcastState() }
  }

  /// Reports that rendering `generation` failed with `message`: requests waiting for that frame get a
  /// 500 with the message, pages get it as an error message.
  public func publishFailure(_ message: String, generation: UInt64) {
    hand(.failure(message, generation: generation))
  }

  private func hand(_ item: Incoming) {
    let wasEmpty = incoming.withLock { slot in
      defer {
        // The same frame handed in again keeps what the first hand-in brought.
        if case .frame(let waiting, _)? = slot, case .frame(let frame, let generation) = item,
          waiting.number == frame.number
        {
          slot = .frame(waiting.merging(frame), generation: generation)
        } else {
          slot = item
        }
      }
      return slot == nil
    }
    guard wasEmpty else { return }  // a delivery is already scheduled: it will take this one
    loop.invoke { [self] in
      guard
        let item = incoming.withLock({ slot in
          defer { slot = nil }
          return slot
        })
      else {
        return
      }
      switch item {
      case .frame(let frame, let generation): deliver(frame, generation: generation)
      case .failure(let message, let generation): deliverFailure(message, generation: generation)
      }
    }
  }

  // MARK: - On the event-loop thread

  /// Creates the server, installs the handlers and listens; records the URL or the error.
  private func listen() -> Bool {
    defer { started.signal() }
    guard let address = g_inet_address_new_from_string(configuration.address) else {
      startResult = .failure(
        StudioError(
          "cannot listen on '\(configuration.address)': not an IP address "
            + "(for example 127.0.0.1, 0.0.0.0 or ::1)", problem: .notAnIPAddress))
      return false
    }
    defer { g_object_unref(UnsafeMutableRawPointer(address)) }
    guard let server = fd_soup_server_new() else {
      startResult = .failure(StudioError("libsoup could not create a server"))
      return false
    }
    self.server = server
    soup_server_remove_websocket_extension(server, fd_websocket_deflate_type())
    let me = Unmanaged.passUnretained(self).toOpaque()
    let handler: SoupServerCallback = { _, message, path, _, data in
      guard let message, let path, let data else { return }
      Unmanaged<StudioServer>.fromOpaque(data).takeUnretainedValue()
        .handle(ServerMessage(pointer: message), path: String(cString: path))
    }
    soup_server_add_handler(server, nil, handler, me, nil)
    soup_server_add_handler(server, StudioRoute.live.rawValue, handler, me, nil)
    // Runs once the headers are read, before the body: a body too large is refused before it is kept.
    soup_server_add_early_handler(
      server, nil, { _, message, _, _, _ in message.map { StudioServer.refuseLargeBody($0) } },
      nil, nil)
    watchRequests(server)
    let socketAddress = g_inet_socket_address_new(address, UInt16(clamping: configuration.port))
    defer { g_object_unref(UnsafeMutableRawPointer(socketAddress)) }
    var error: UnsafeMutablePointer<GError>?
    guard soup_server_listen(server, socketAddress, SoupServerListenOptions(0), &error) != 0 else {
      let reason = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
      let inUse =
        error.map {
          $0.pointee.domain == g_io_error_quark()
            && $0.pointee.code == Int32(G_IO_ERROR_ADDRESS_IN_USE.rawValue)
        } ?? false
      if let error { g_error_free(error) }
      startResult = .failure(
        StudioError(
          "cannot listen on \(hostPart):\(configuration.port): "
            + (inUse ? "another program listens there" : reason),
          problem: inUse ? .addressInUse : nil))
      return false
    }
    let port = boundPort(server) ?? configuration.port
    let loopback = g_inet_address_get_is_loopback(address) != 0
    policy = OriginPolicy(port: port, loopbackOnly: loopback)
    listensBeyondLoopback = !loopback
    if !loopback && configuration.access == .tokenOffLoopback {
      do {
        token = try AccessToken.random()
      } catch {
        soup_server_disconnect(server)
        startResult = .failure(error)
        return false
      }
    }
    startResult = .success(
      "http://\(hostPart)\(port == 80 ? "" : ":\(port)")/" + (token.map { "?token=\($0)" } ?? ""))
    return true
  }

  /// The address as it goes in a URL (IPv6 in brackets).
  private var hostPart: String {
    configuration.address.contains(":") ? "[\(configuration.address)]" : configuration.address
  }

  /// The port the server is bound to (the one picked when 0 was asked for).
  private func boundPort(_ server: UnsafeMutablePointer<SoupServer>) -> Int? {
    guard let uris = soup_server_get_uris(server) else { return nil }
    defer { g_slist_free_full(uris, { g_uri_unref(OpaquePointer($0)) }) }
    guard let first = uris.pointee.data else { return nil }
    let port = Int(g_uri_get_port(OpaquePointer(first)))
    return port > 0 ? port : nil
  }

  private func tearDown() {
    stopWatchingRequests()
    connections.removeAll()
    for waiting in waitingForFrame { g_object_unref(UnsafeMutableRawPointer(waiting.message)) }
    waitingForFrame.removeAll()
    if let server {
      soup_server_disconnect(server)
      g_object_unref(UnsafeMutableRawPointer(server))
    }
    server = nil
  }

  /// Answers one request (every path but a WebSocket handshake's last step comes here).
  private func handle(_ message: ServerMessage, path: String) {
    switch StudioRoute.resolve(method: message.method, path: path) {
    case .notFound:
      message.respondError(404, "no such path: \(path)")
    case .methodNotAllowed(let allowed):
      message.setHeader("Allow", allowed)
      message.respondError(405, "\(path) takes \(allowed) only")
    case .route(let route, let isPost):
      if let refusal = policy.refusal(
        host: message.header("Host"), origin: message.header("Origin"),
        fetchSite: message.header("Sec-Fetch-Site"), guarded: !route.isPageFile)
      {
        message.respondError(403, "refused: \(refusal)")
        return
      }
      if let token {
        guard token.admits(query: message.query, cookie: message.header("Cookie")) else {
          message.respondError(
            403,
            "refused: this studio listens beyond this machine and asks for its token: open the URL "
              + "it printed (…/?token=…)")
          return
        }
        // The page keeps it for its fetches, downloads and WebSocket.
        if route == .page { message.setHeader("Set-Cookie", token.cookie) }
      }
      respond(to: message, route: route, isPost: isPost)
    }
  }

  private func respond(to message: ServerMessage, route: StudioRoute, isPost: Bool) {
    switch route {
    case .page: serve(resources.page, to: message)
    case .script: serve(resources.script, to: message)
    case .styleSheet: serve(resources.styleSheet, to: message)
    case .pageConfiguration: message.respondJSON(200, backend.pageConfiguration())
    case .state:
      guard isPost else { return message.respondJSON(200, backend.stateJSON()) }
      let body = message.body
      if let refusal = JSONNesting.refusal(body) { return message.respondError(400, refusal) }
      switch backend.applyState(json: body) {
      case .applied:
        message.respondJSON(200, backend.stateJSON())
        broadcastState()
      case .rejected(let reason):
        message.respondError(400, reason)
      }
    case .frame:
      let wanted = backend.generation
      if let latestFrame, latestFrame.generation >= wanted, let jpeg = latestFrame.frame.jpeg {
        message.respond(200, contentType: "image/jpeg", body: jpeg)
        return
      }
      // Answered when a JPEG of this generation (or a newer one) is made.
      g_object_ref(UnsafeMutableRawPointer(message.pointer))
      soup_server_message_pause(message.pointer)
      waitingForFrame.append((message.pointer, wanted))
      askForFormats()
    case .stats:
      message.respondJSON(
        200,
        Self.statsJSON(
          latency: samples, render: renderTimes.withLock { $0 }, frame: frameTimes.withLock { $0 }))
    case .live:
      upgrade(message)
    case .capture, .look, .record, .timeline:
      respondExport(to: message, route: route, isPost: isPost)
    }
  }

  private func serve(_ file: PageResources.File, to message: ServerMessage) {
    message.respond(200, contentType: file.contentType, body: file.body)
  }

  /// `{"p50Ms": …, "p99Ms": …, "samples": …, "renderP50Ms": …, "renderP99Ms": …,
  /// "renderSamples": …, "frameP50Ms": …, "frameP99Ms": …, "frameSamples": …}`: the page's latencies,
  /// the frames' render times (pixels only) and frame times (pixels and JPEG encoding); null
  /// percentiles before the first sample.
  static func statsJSON(latency: LatencySamples, render: LatencySamples, frame: LatencySamples)
    -> Data
  {
    func value(_ number: Double?) -> JSONText.Value { number.map { .number($0) } ?? .null }
    return JSONText.object([
      "p50Ms": value(latency.percentile(50)), "p99Ms": value(latency.percentile(99)),
      "samples": .integer(Int64(latency.count)),
      "renderP50Ms": value(render.percentile(50)), "renderP99Ms": value(render.percentile(99)),
      "renderSamples": .integer(Int64(render.count)),
      "frameP50Ms": value(frame.percentile(50)), "frameP99Ms": value(frame.percentile(99)),
      "frameSamples": .integer(Int64(frame.count)),
    ])
  }

  /// The state message every page gets after a change: state, generation and the overlay's labels.
  func stateMessage() -> Data {
    let labels = backend.labels().sorted { $0.key < $1.key }.map {
      ($0.key, JSONText.Value.string($0.value))
    }
    return JSONText.object([
      "type": .string("state"), "generation": .integer(Int64(backend.generation)),
      "state": .raw(backend.stateJSON()), "labels": .object(labels),
      "overlay": .raw(backend.overlayJSON()),
    ])
  }

  /// Sends the state to every page; a page whose socket is full gets the newest state once it drains.
  func broadcastState() {
    let text = stateMessage()
    for connection in connections.values {
      if connection.canSend {
        connection.stateOwed = false
        connection.sendText(text)
      } else if !connection.stateOwed {
        connection.stateOwed = true
        waitToSend(to: connection)
      }
    }
  }

  /// Once `connection`'s socket drains: the state it is owed, then the latest frame.
  private func waitToSend(to connection: LiveConnection) {
    connection.whenWritable { [weak self, weak connection] in
      guard let self, let connection, self.connections[connection.key] === connection else {
        return
      }
      if connection.stateOwed {
        connection.stateOwed = false
        connection.sendText(self.stateMessage())
      }
      self.offerFrame(to: connection)
    }
  }

  private func deliver(_ frame: StudioFrame, generation: UInt64) {
    if let latestFrame, latestFrame.frame.number == frame.number {
      self.latestFrame = (latestFrame.frame.merging(frame), generation)
    } else {
      latestFrame = (frame, generation)
    }
    if let jpeg = latestFrame?.frame.jpeg {
      let ready = waitingForFrame.filter { $0.generation <= generation }
      waitingForFrame.removeAll { $0.generation <= generation }
      for waiting in ready {
        ServerMessage(pointer: waiting.message).respond(200, contentType: "image/jpeg", body: jpeg)
        soup_server_message_unpause(waiting.message)
        g_object_unref(UnsafeMutableRawPointer(waiting.message))
      }
    }
    for connection in connections.values { offerFrame(to: connection) }
    askForFormats()
  }

  /// Tells the backend which formats the frames need now: RGBA while a page takes raw frames, JPEG
  /// while a page takes JPEG frames or a `GET /frame.jpg` waits (only when that changed).
  func askForFormats() {
    let wanted = (
      rgba: connections.values.contains { $0.rawFrames },
      jpeg: !waitingForFrame.isEmpty || connections.values.contains { !$0.rawFrames }
    )
    guard wanted != formatsAsked else { return }
    formatsAsked = wanted
    backend.framesWanted(rgba: wanted.rgba, jpeg: wanted.jpeg)
  }

  private func deliverFailure(_ reason: String, generation: UInt64) {
    let failed = waitingForFrame.filter { $0.generation <= generation }
    waitingForFrame.removeAll { $0.generation <= generation }
    for waiting in failed {
      ServerMessage(pointer: waiting.message).respondError(
        500, "cannot render the frame: \(reason)")
      soup_server_message_unpause(waiting.message)
      g_object_unref(UnsafeMutableRawPointer(waiting.message))
    }
    let text = JSONText.object([
      "type": .string("error"), "message": .string("cannot render the frame: \(reason)"),
    ])
    // A page that does not read misses the error rather than having it queued.
    for connection in connections.values where connection.canSend { connection.sendText(text) }
  }

  /// Sends the latest frame to a page that has decoded the previous one and has not seen this one, in
  /// the page's format (once the frame has it: it is handed in again with it when it lacks it).
  func offerFrame(to connection: LiveConnection) {
    guard let latestFrame, !connection.awaitingDecoded,
      connection.sentFrame != latestFrame.frame.number
    else { return }
    // Nothing more for libsoup to queue while the page's socket is full: the latest frame goes once
    // it drains (one pending frame per page, the newest).
    guard connection.canSend else { return waitToSend(to: connection) }
    let frame = latestFrame.frame
    guard let pixels = connection.rawFrames ? frame.rgba : frame.jpeg else { return }
    let seq = connection.takeChanges(shownBy: latestFrame.generation)
    connection.sendText(
      JSONText.object([
        "type": .string("frame"), "generation": .integer(Int64(latestFrame.generation)),
        "seq": seq.map { .integer(Int64($0)) } ?? .null,
        "format": .string(connection.rawFrames ? "rgba" : "jpeg"),
        "width": .integer(Int64(frame.width)), "height": .integer(Int64(frame.height)),
      ]))
    connection.sendBinary(pixels)
    connection.awaitingDecoded = true
    connection.sentGeneration = latestFrame.generation
    connection.sentFrame = frame.number
  }

  /// A page's WebSocket is open.
  func connected(_ connection: LiveConnection) {
    let pointer = connection.pointer
    // libsoup's own cap, behind the frame guard's (which refuses a larger message with a reason).
    soup_websocket_connection_set_max_incoming_payload_size(
      pointer, guint64(4 * Self.messageLimit))
    connections[connection.key] = connection
    let me = Unmanaged.passUnretained(self).toOpaque()
    _ = fd_websocket_on_message(
      pointer,
      { connection, type, bytes, data in
        guard let connection, let bytes, let data else { return }
        var size: gsize = 0
        let body =
          g_bytes_get_data(bytes, &size).map { Data(bytes: $0, count: Int(size)) } ?? Data()
        Unmanaged<StudioServer>.fromOpaque(data).takeUnretainedValue()
          .received(body, isText: type == Int32(SOUP_WEBSOCKET_DATA_TEXT.rawValue), on: connection)
      }, me)
    _ = fd_websocket_on_closed(
      pointer,
      { connection, data in
        guard let connection, let data else { return }
        let server = Unmanaged<StudioServer>.fromOpaque(data).takeUnretainedValue()
        server.connections[Int(bitPattern: UnsafeRawPointer(connection))] = nil
        server.askForFormats()
      }, me)
    // The formats first: a page that hears from the server may count on them being asked for.
    askForFormats()
    connection.sendText(stateMessage())
    offerFrame(to: connection)
  }

  /// After a page's change: the page learns which frame shows it, every page gets the new state, and
  /// the frame follows; or the page gets why it was refused.
  private func changed(_ change: StateChange, seq: Int?, on connection: LiveConnection) {
    switch change {
    case .applied(let generation):
      // A frame of this generation is still to come (a change to values already set makes none).
      if let seq, connection.sentGeneration.map({ generation > $0 }) ?? true {
        connection.changes.append((seq, generation))
      }
      broadcastState()
      offerFrame(to: connection)
    case .rejected(let reason):
      connection.sendText(JSONText.object(["type": .string("error"), "message": .string(reason)]))
    }
  }

  private func received(_ body: Data, isText: Bool, on pointer: OpaquePointer) {
    guard let connection = connections[Int(bitPattern: UnsafeRawPointer(pointer))] else { return }
    func fail(_ message: String) {
      // A page that does not read misses the error rather than having it queued.
      guard connection.canSend else { return }
      connection.sendText(JSONText.object(["type": .string("error"), "message": .string(message)]))
    }
    guard body.count <= Self.messageLimit else {
      let reason =
        "a /live message may be at most \(Self.messageLimit / 1024) KiB, not \(body.count) bytes"
      fail(reason)
      return connection.close(code: .tooBig, reason: reason)
    }
    guard isText else { return fail("/live takes text messages (JSON) only") }
    if let refusal = JSONNesting.refusal(body) { return fail(refusal) }
    let message: LiveMessage
    do {
      message = try LiveMessage(text: body)
    } catch {
      return fail(error.message)
    }
    switch message {
    case .state(let members, let seq):
      changed(backend.applyState(members: members), seq: seq, on: connection)
    case .slide(let control, let value, let seq):
      changed(backend.slide(control: control, to: value), seq: seq, on: connection)
    case .decoded:
      connection.awaitingDecoded = false
      offerFrame(to: connection)
    case .shown(let latency):
      if let latency { samples.add(latency) }
    case .press(let phase, let kind):
      switch backend.press(phase: phase, kind: kind) {
      case .accepted(let capture):
        broadcastState()
        if capture {
          connection.sendText(
            JSONText.object([
              "type": .string("capture"), "url": .string(StudioRoute.capture.rawValue),
            ]))
        }
      case .rejected(let reason):
        fail(reason)
      }
    case .choose(let control):
      if let refusal = backend.chooseControl(control) { return fail(refusal) }
      broadcastState()
    case .view(let width, let height, let rawFrames):
      // Raw frames are ten times a JPEG's size: only for a page on this machine.
      connection.rawFrames = rawFrames && connection.loopback
      backend.viewfinderShown(width: width, height: height)
      askForFormats()
      offerFrame(to: connection)
    }
  }
}
