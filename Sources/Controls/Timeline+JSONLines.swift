import Foundation

extension Timeline {
  /// Reads JSON Lines: one event object a line (ending in LF or CRLF), blank lines ignored.
  ///
  /// `{"time":0.5,"type":"slide","control":"zoom","value":2}`,
  /// `{"time":1,"type":"select","control":"filter","option":"mono"}`,
  /// `{"time":2,"type":"press","phase":"ended","kind":"primary"}`.
  /// - Throws: `TimelineError.malformedLine` naming the line number and the problem (bad JSON, a missing
  ///   or unknown field, an unknown control, or a value outside the control's range).
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

  private static func line(for event: TimelineEvent) -> String {
    var fields: [(String, String)] = [("time", NumberText.shortest(event.time))]
    switch event.action {
    case .slide(let control, let value):
      fields += [
        ("type", quoted("slide")), ("control", quoted(control.rawValue)),
        ("value", NumberText.shortest(value)),
      ]
    case .select(let control, let option):
      fields += [
        ("type", quoted("select")), ("control", quoted(control.rawValue)),
        ("option", quoted(option)),
      ]
    case .press(let press):
      fields += [
        ("type", quoted("press")), ("phase", quoted(press.phase.rawValue)),
        ("kind", quoted(press.kind.rawValue)),
      ]
    }
    return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
  }

  private static func quoted(_ text: String) -> String {
    let data = (try? JSONEncoder().encode(text)) ?? Data()
    return String(data: data, encoding: .utf8) ?? "\"\""
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
    switch type {
    case "slide":
      let control = try control(in: &fields)
      guard case .number(let value)? = fields.removeValue(forKey: "value") else {
        throw LineProblem("a slide needs a number \"value\".")
      }
      action = .slide(control, value: value)
    case "select":
      let control = try control(in: &fields)
      action = .select(
        control, option: try string("option", in: &fields, allowed: "an option name"))
    case "press":
      let phaseName = try string("phase", in: &fields, allowed: "began, ended or cancelled")
      let kindName = try string("kind", in: &fields, allowed: "primary or secondary")
      guard let phase = CaptureEvent.Phase(rawValue: phaseName) else {
        throw LineProblem("unknown phase \"\(phaseName)\"; allowed: began, ended, cancelled.")
      }
      guard let kind = CaptureEvent.Kind(rawValue: kindName) else {
        throw LineProblem("unknown kind \"\(kindName)\"; allowed: primary, secondary.")
      }
      action = .press(CaptureEvent(phase: phase, kind: kind))
    default:
      throw LineProblem("unknown type \"\(type)\"; allowed: slide, select, press.")
    }
    if let extra = fields.keys.sorted().first {
      throw LineProblem("unknown field \"\(extra)\" for a \(type) event.")
    }
    _ = try ControlState.identity.applying(action)
    return TimelineEvent(time: time, action: action)
  }

  private static func string(_ name: String, in fields: inout [String: JSONValue], allowed: String)
    throws -> String
  {
    guard case .string(let text)? = fields.removeValue(forKey: name) else {
      throw LineProblem("\"\(name)\" must be a string (\(allowed)).")
    }
    return text
  }

  private static func control(in fields: inout [String: JSONValue]) throws -> TimelineControl {
    let allowed = TimelineControl.allCases.map(\.rawValue).joined(separator: ", ")
    let name = try string("control", in: &fields, allowed: allowed)
    guard let control = TimelineControl(timelineName: name) else {
      throw LineProblem("unknown control \"\(name)\"; allowed: \(allowed).")
    }
    return control
  }
}

/// A problem with one timeline line, reported through `TimelineError.malformedLine`.
private struct LineProblem: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
