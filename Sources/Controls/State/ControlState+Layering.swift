import Foundation

extension ControlState {
  /// Layers JSON state files in order over `base`, then applies `--set` style assignments in order.
  ///
  /// Each state file sets only the keys it contains; later files and then assignments win.
  /// - Parameters:
  ///   - base: the state the files and assignments are layered over.
  ///   - stateFiles: pairs of a name for error messages (such as the path) and the file's bytes.
  ///   - assignments: `KEY=VALUE` texts, as `--set` takes them.
  /// - Throws: `ControlStateError.inSource` naming the file or assignment and the key, value and range.
  public static func layered(
    base: ControlState = .identity, stateFiles: [(name: String, data: Data)], assignments: [String]
  ) throws(ControlStateError) -> ControlState {
    var state = base
    for file in stateFiles {
      do {
        state = try state.applying(json: file.data)
      } catch {
        throw .inSource(file.name, error)
      }
    }
    for assignment in assignments {
      do {
        state = try state.applying(assignment: assignment)
      } catch {
        // The message names the value again: the setting is shown only as far as its start.
        throw .inSource("--set \(EchoText.readable(assignment, limit: 20))", error)
      }
    }
    return state
  }

  /// Reads JSON state files from disk and layers them as `layered(base:stateFiles:assignments:)` does.
  ///
  /// - Throws: `ControlStateError.inSource` naming the file that cannot be read or holds a bad value.
  public static func layered(
    base: ControlState = .identity, stateFileURLs: [URL], assignments: [String]
  ) throws(ControlStateError) -> ControlState {
    var files: [(name: String, data: Data)] = []
    for url in stateFileURLs {
      do {
        files.append((url.path, try SmallTextFile.read(url.path)))
      } catch {
        throw .inSource(url.path, .unreadable(error.description))
      }
    }
    return try layered(base: base, stateFiles: files, assignments: assignments)
  }

  /// This state with the value of `key` taken from `other` (the rest kept).
  package func taking(_ key: ControlKey, from other: ControlState) -> ControlState {
    var state = self
    switch key.descriptor.kind {
    case .number(_, _, let value): state[keyPath: value] = other[keyPath: value]
    case .point: state.zoomCenter = other.zoomCenter
    case .whiteBalance: state.whiteBalance = other.whiteBalance
    case .filter: state.filter = other.filter
    case .toggle(let value): state[keyPath: value] = other[keyPath: value]
    }
    return state
  }
}
