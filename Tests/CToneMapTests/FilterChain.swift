import CFFmpeg

@testable import Video

/// A libavfilter chain with one video input and one output, run in process: frames of one size and
/// pixel format in, one filtered frame out per frame in (the chains used here neither drop nor delay
/// frames).
final class FilterChain {
  private var graph: UnsafeMutablePointer<AVFilterGraph>?
  private let source: UnsafeMutablePointer<AVFilterContext>
  private let sink: UnsafeMutablePointer<AVFilterContext>
  private let filtered: UnsafeMutablePointer<AVFrame>
  private let description: String

  /// A chain of `description` (libavfilter's syntax, e.g. `zscale=t=linear,format=gbrpf32le`) over
  /// `width × height` frames of `format`.
  ///
  /// - Throws: ``VideoError`` naming the chain when libavfilter cannot build it (a filter missing from
  ///   this FFmpeg, options it refuses).
  init(width: Int, height: Int, format: AVPixelFormat, description: String) throws(VideoError) {
    self.description = description
    var graph = avfilter_graph_alloc()
    var filtered = av_frame_alloc()
    let failure = "libavfilter cannot build \(description)"
    var source: UnsafeMutablePointer<AVFilterContext>?
    var sink: UnsafeMutablePointer<AVFilterContext>?
    let arguments =
      "video_size=\(width)x\(height):pix_fmt=\(format.rawValue):time_base=1/1:pixel_aspect=1/1"
    do throws(VideoError) {
      guard let graph, filtered != nil else { throw VideoError("out of memory for a filter graph") }
      try VideoError.check(
        avfilter_graph_create_filter(
          &source, avfilter_get_by_name("buffer"), "in", arguments, nil, graph), failure)
      try VideoError.check(
        avfilter_graph_create_filter(
          &sink, avfilter_get_by_name("buffersink"), "out", nil, nil, graph), failure)
      guard let source, let sink else { throw VideoError(failure) }
      // The chain's open ends: parsing takes what it links and leaves the rest to free.
      var outputs = avfilter_inout_alloc()
      var inputs = avfilter_inout_alloc()
      defer {
        avfilter_inout_free(&outputs)
        avfilter_inout_free(&inputs)
      }
      guard let output = outputs, let input = inputs else {
        throw VideoError("out of memory for a filter graph")
      }
      output.pointee.name = av_strdup("in")
      output.pointee.filter_ctx = source
      input.pointee.name = av_strdup("out")
      input.pointee.filter_ctx = sink
      try VideoError.check(
        avfilter_graph_parse_ptr(graph, description, &inputs, &outputs, nil), failure)
      try VideoError.check(avfilter_graph_config(graph, nil), failure)
      (self.source, self.sink) = (source, sink)
    } catch {
      avfilter_graph_free(&graph)
      av_frame_free(&filtered)
      throw error
    }
    self.graph = graph
    guard let filtered else { throw VideoError("out of memory for a filter graph") }
    self.filtered = filtered
  }

  deinit {
    avfilter_graph_free(&graph)
    var owned: UnsafeMutablePointer<AVFrame>? = filtered
    av_frame_free(&owned)
  }

  /// `frame` filtered (it is not consumed), with `frame`'s timestamp; valid until the next call.
  ///
  /// - Throws: ``VideoError`` when a filter fails on the frame or gives no frame back.
  func filter(_ frame: UnsafePointer<AVFrame>) throws(VideoError) -> UnsafeMutablePointer<AVFrame> {
    let failure = "libavfilter (\(description)) fails on a frame"
    try VideoError.check(
      av_buffersrc_add_frame_flags(
        source, UnsafeMutablePointer(mutating: frame), Int32(AV_BUFFERSRC_FLAG_KEEP_REF)),
      failure)
    av_frame_unref(filtered)
    try VideoError.check(av_buffersink_get_frame(sink, filtered), failure)
    filtered.pointee.pts = frame.pointee.pts
    return filtered
  }
}
