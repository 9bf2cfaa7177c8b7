import Foundation
import JSON

extension Timeline {
  /// Reads JSON Lines: one event object a line (ending in LF or CRLF), blank lines ignored.
  ///
  /// `{"time":0.5,"type":"slide","control":"zoom","value":2}`,
  /// `{"time":0,"type":"slide","control":"exposure-bias","value":1,"duration":3,"curve":"linear"}` (a
  /// keyframed slide: `"duration"` in seconds, `"curve"` `linear` (the default) or `ease-in-out`),
  /// `{"time":0,"type":"slide","control":"zoom-center","value":[0.3,0.5],"duration":2}` (a pan),
  /// `{"time":1,"type":"select","control":"filter","option":"mono"}`,
  /// `{"time":2,"type":"press","phase":"ended","kind":"primary"}`.
  /// - Throws: `TimelineError.malformedLine` naming the line number and the problem (bad JSON, a missing
  ///   or unknown field, an unknown control or curve, a negative duration, or a value outside the
  ///   control's range).
  public init(jsonLines text: String) throws(TimelineError) {
    var events: [TimelineEvent] = []
    // "\r\n" is one Character in Swift: splitting on "\n" alone would leave a CRLF file one long line.
    let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
    for (offset, line) in lines.enumerated() {
      let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
      guard !trimmed.isEmpty else { continue }
      do {
        events.append(try Self.event(from: trimmed))
      } catch {
        throw .malformedLine(line: offset + 1, problem: Self.describe(error))
      }
    }
    try self.init(events: events)
  }

  /// Reads a JSON Lines file.
  ///
  /// - Throws: `TimelineError` naming the file, or the line and problem.
  public init(contentsOf url: URL) throws(TimelineError) {
    let data: Data
    do {
      data = try SmallTextFile.read(url.path)
    } catch {
      throw .fileError(path: url.path, reason: error.description)
    }
    guard let text = String(data: data, encoding: .utf8) else {
      throw .fileError(path: url.path, reason: "not UTF-8 text")
    }
    try self.init(jsonLines: text)
  }

  /// The timeline as JSON Lines (one event a line, keys sorted, ending with a newline when not empty).
  public func jsonLines() -> String {
    events.map(Self.line(for:)).map { $0 + "\n" }.joined()
  }

  /// Writes the timeline as JSON Lines, replacing the file atomically.
  ///
  /// - Throws: `TimelineError.fileError` naming the file.
  public func write(to url: URL) throws(TimelineError) {
    do {
      try Data(jsonLines().utf8).write(to: url, options: .atomic)
    } catch {
      throw .fileError(path: url.path, reason: error.localizedDescription)
    }
  }

  /// One event's line: its fields in a fixed order, shortest numbers, `/` escaped.
  private static func line(for event: TimelineEvent) -> String {
    var fields: [(String, JSONText.Value)] = [("time", .number(event.time))]
    switch event.action {
    case .slide(let control, let value):
      fields += [
        ("type", .string("slide")), ("control", .string(control.rawValue)),
        ("value", .number(value)),
      ]
    case .slideCenter(let center):
      fields += [
        ("type", .string("slide")), ("control", .string(ControlKey.zoomCenter.rawValue)),
        ("value", .array([.number(center.x), .number(center.y)])),
      ]
    case .select(let control, let option):
      fields += [
        ("type", .string("select")), ("control", .string(control.rawValue)),
        ("option", .string(option)),
      ]
    case .press(let press):
      fields += [
        ("type", .string("press")), ("phase", .string(press.phase.rawValue)),
        ("kind", .string(press.kind.rawValue)),
      ]
    }
    if let transition = event.transition {
      fields += [
        ("duration", .number(transition.duration)),
        ("curve", .string(transition.curve.rawValue)),
      ]
    }
    // Times, values and durations are finite: a timeline holds no other.
    return (try? JSONText.string(.object(fields), .timeline)) ?? "{}"
  }

  private static func describe(_ error: any Error) -> String {
    switch error {
    case let error as ControlStateError: error.description
    case let error as TimelineError: error.description
    default: String(describing: error)
    }
  }

  private static func event(from line: String) throws -> TimelineEvent {
    guard case .object(var fields) = try JSONValue.parse(Data(line.utf8)) else {
      throw LineProblem("expected a JSON object such as {\"time\":0,\"type\":\"slide\",…}.")
    }
    guard case .number(let time)? = fields.removeValue(forKey: "time"), time.isFinite, time >= 0
    else {
      throw LineProblem("\"time\" must be a finite number of seconds, 0 or more.")
    }
    let type = try string("type", in: &fields, allowed: "slide, select or press")
    let action: TimelineAction
    var transition: TimelineTransition?
    switch type {
    case "slide":
      let control = try control(in: &fields)
      action = try slide(control, in: &fields)
      transition = try Self.transition(in: &fields)
    case "select":
      let control = try control(in: &fields)
      action = .select(
        control, option: try string("option", in: &fields, allowed: "an option name"))
    case "press":
      let phaseName = try string("phase", in: &fields, allowed: "began, ended or cancelled")
      let kindName = try string("kind", in: &fields, allowed: "primary or secondary")
      guard let phase = CaptureEvent.Phase(rawValue: phaseName) else {
        throw LineProblem(
          "unknown phase \"\(EchoText.readable(phaseName))\"; allowed: began, ended, cancelled.")
      }
      guard let kind = CaptureEvent.Kind(rawValue: kindName) else {
        throw LineProblem(
          "unknown kind \"\(EchoText.readable(kindName))\"; allowed: primary, secondary.")
      }
      action = .press(CaptureEvent(phase: phase, kind: kind))
    default:
      throw LineProblem(
        "unknown type \"\(EchoText.readable(type))\"; allowed: slide, select, press.")
    }
    if let extra = fields.keys.min() {
      throw LineProblem("unknown field \"\(EchoText.readable(extra))\" for a \(type) event.")
    }
    _ = try ControlState.identity.applying(action)
    return TimelineEvent(time: time, action: action, transition: transition)
  }

  private static func slide(_ control: ControlKey, in fields: inout [String: JSONValue])
    throws -> TimelineAction
  {
    let value = fields.removeValue(forKey: "value")
    if control == .zoomCenter {
      guard case .array(let items)? = value, items.count == 2,
        case .number(let x) = items[0], case .number(let y) = items[1]
      else {
        throw LineProblem("a zoom-center slide needs a \"value\" of two numbers [x, y].")
      }
      return .slideCenter(ZoomCenter(x: x, y: y))
    }
    guard case .number(let number)? = value else {
      throw LineProblem("a slide needs a number \"value\".")
    }
    return .slide(control, value: number)
  }

  private static func transition(in fields: inout [String: JSONValue]) throws
    -> TimelineTransition?
  {
    let duration = fields.removeValue(forKey: "duration")
    let curveValue = fields.removeValue(forKey: "curve")
    guard let duration else {
      if curveValue != nil { throw LineProblem("a \"curve\" needs a \"duration\".") }
      return nil
    }
    guard case .number(let seconds) = duration, seconds.isFinite, seconds >= 0 else {
      throw LineProblem("\"duration\" must be a finite number of seconds, 0 or more.")
    }
    var curve = TimelineCurve.linear
    if let curveValue {
      let allowed = TimelineCurve.allCases.map(\.rawValue).joined(separator: ", ")
      guard case .string(let name) = curveValue, let named = TimelineCurve(rawValue: name) else {
        throw LineProblem(
          "unknown curve \(EchoText.readable(curveValue.description)); allowed: \(allowed).")
      }
      curve = named
    }
    return TimelineTransition(duration: seconds, curve: curve)
  }

  private static func string(_ name: String, in fields: inout [String: JSONValue], allowed: String)
    throws -> String
  {
    guard case .string(let text)? = fields.removeValue(forKey: name) else {
      throw LineProblem("\"\(name)\" must be a string (\(allowed)).")
    }
    return text
  }

  private static func control(in fields: inout [String: JSONValue]) throws -> ControlKey {
    let allowed = ControlKey.allCases.map(\.rawValue).joined(separator: ", ")
    let name = try string("control", in: &fields, allowed: allowed)
    guard let control = ControlKey(timelineName: name) else {
      throw LineProblem("unknown control \"\(EchoText.readable(name))\"; allowed: \(allowed).")
    }
    return control
  }
}

/// A problem with one timeline line, reported through `TimelineError.malformedLine`.
private struct LineProblem: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

extension JSONText.Format {
  /// A timeline's JSON Lines: fields in their fixed order, ``JSONText/shortest(_:)`` numbers, `/`
  /// escaped (as they have always been written).
  static let timeline = JSONText.Format(
    keys: .given, numbers: .shortest, strings: .escapingSlash)
}
