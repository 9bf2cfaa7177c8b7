import CFFmpeg
import Foundation

/// The first stage of a transcode, on a thread of its own: reads packets, decodes the video, keeps the
/// frames of the span, converts each to RGB in a free ``FrameSlot``, and queues frames and the packets
/// of copied streams, in file order, for the stage that renders, encodes and writes them. A trimmed
/// span's start is settled beforehand (``VideoTranscoder/settleStart(of:seconds:)``), so no packet waits
/// for the first frame: what is in memory is bounded by the queues, however the file is laid out.
final class DecodeStage: @unchecked Sendable {
  /// What the stage hands on.
  enum Item {
    /// A frame converted to RGB, to render and encode; give the slot back with ``recycle(_:)``.
    case frame(FrameSlot)
    /// A packet of a copied stream (owned: free it), for output stream `target`, timed in `timeBase`.
    case packet(UnsafeMutablePointer<AVPacket>, target: Int, timeBase: AVRational)
    /// Reading or decoding failed.
    case failed(any Error)
    /// Every frame and packet of the span has been queued.
    case end
  }

  /// Frames and packets ready, in order.
  let ready = BoundedQueue<Item>(capacity: 16)
  /// Slots free for the next frames: as many frames as can be ahead of the render.
  private let free: BoundedQueue<FrameSlot>
  private let input: InputFile
  private let decoder: VideoDecoder
  private let watch: DamageWatch
  private let pipeline: FramePipeline
  private let cut: SpanBounds
  private let outputIndex: [Int: Int]
  private let finished = DispatchSemaphore(value: 0)
  private var started = false
  private var videoEnded = false
  private var streamsEnded: Set<Int> = []

  /// A stage reading `input` (positioned at the span's start) through `watch` (which refuses damage
  /// as its level says), `decoder` and `pipeline`, keeping `cut` (settled on its first frame);
  /// `outputIndex` maps the input streams written to their output streams.
  init(
    input: InputFile, decoder: VideoDecoder, watch: DamageWatch, pipeline: FramePipeline,
    cut: SpanBounds, outputIndex: [Int: Int], slots: Int = 3
  ) throws(VideoError) {
    self.input = input
    self.decoder = decoder
    self.watch = watch
    self.pipeline = pipeline
    self.cut = cut
    self.outputIndex = outputIndex
    free = BoundedQueue(capacity: slots)
    for _ in 0..<slots { free.push(try FrameSlot(bytes: pipeline.rgbBytes)) }
  }

  /// Starts reading on a new thread.
  func start() {
    started = true
    let thread = Thread { [self] in
      do {
        try run()
        ready.push(.end)
      } catch {
        ready.push(.failed(error))
      }
      finished.signal()
    }
    thread.name = "framedial decode"
    thread.start()
  }

  /// Gives a slot back once its frame is encoded.
  func recycle(_ slot: FrameSlot) { free.push(slot) }

  /// Stops the thread (when the consumer ends early) and waits for it; frees what is still queued.
  func stop() {
    free.close()
    ready.close()
    if started { finished.wait() }
    for item in ready.drain() {
      if case .packet(let packet, _, _) = item {
        var owned: UnsafeMutablePointer<AVPacket>? = packet
        av_packet_free(&owned)
      }
    }
  }

  /// The reading loop; returns at the end of the span or when the consumer has stopped.
  private func run() throws {
    guard let packet = av_packet_alloc() else { throw VideoError("out of memory for a packet") }
    var owned: UnsafeMutablePointer<AVPacket>? = packet
    defer { av_packet_free(&owned) }
    watch.begin()
    defer { watch.end() }
    let videoIndex = input.videoIndex
    let copiedCount = outputIndex.count - 1
    while !(videoEnded && streamsEnded.count == copiedCount), try watch.read(input, into: packet) {
      let index = Int(packet.pointee.stream_index)
      if index == videoIndex {
        guard !videoEnded else { continue }
        try decoder.send(packet)
        guard try drainDecoder() else { return }
      } else if outputIndex[index] != nil {
        guard let moved = av_packet_alloc() else { throw VideoError("out of memory for a packet") }
        av_packet_move_ref(moved, packet)
        guard queueCopied(moved, from: index) else { return }
      }
    }
    if !videoEnded {
      try decoder.send(nil)
      _ = try drainDecoder()
    }
  }

  /// Takes every frame the decoder has ready; false when the consumer has stopped.
  private func drainDecoder() throws -> Bool {
    while let frame = try pipeline.next(from: decoder) {
      let timestamp = pipeline.timestamp(of: frame)
      if let lower = cut.lower, timestamp < lower { continue }
      if let upper = cut.upper, timestamp >= upper {
        videoEnded = true
        continue
      }
      guard let slot = free.pop() else { return false }
      try pipeline.load(frame, timestamp: timestamp, into: slot)
      guard ready.push(.frame(slot)) else { return false }
    }
    return true
  }

  /// Queues `packet` of input stream `index` when it falls in the span (shifted), else frees it;
  /// false when the consumer has stopped.
  private func queueCopied(_ packet: UnsafeMutablePointer<AVPacket>, from index: Int) -> Bool {
    var owned: UnsafeMutablePointer<AVPacket>? = packet
    guard let target = outputIndex[index] else {
      av_packet_free(&owned)
      return true
    }
    let timeBase = input.streams[index].pointee.time_base
    switch cut.place(packet, timeBase: timeBase, videoTimeBase: input.videoStream.pointee.time_base)
    {
    case .before:
      av_packet_free(&owned)
    case .after:
      streamsEnded.insert(index)
      av_packet_free(&owned)
    case .inside:
      guard ready.push(.packet(packet, target: target, timeBase: timeBase)) else {
        av_packet_free(&owned)
        return false
      }
    }
    return true
  }
}
