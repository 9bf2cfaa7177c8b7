import Foundation
import Synchronization

@testable import Controls

/// Collects values from actions and delegates running on other threads.
final class Collected<Value: Sendable>: Sendable {
  private let values = Mutex<[Value]>([])

  func append(_ value: Value) { values.withLock { $0.append(value) } }

  var all: [Value] { values.withLock { $0 } }
}

/// A delegate that records the names of the events it receives.
final class RecordingDelegate: CaptureSessionControlsDelegate {
  let events = Collected<String>()

  func sessionControlsDidBecomeActive(_ session: CaptureSession) { events.append("active") }
  func sessionControlsWillEnterFullscreenAppearance(_ session: CaptureSession) {
    events.append("enter")
  }
  func sessionControlsWillExitFullscreenAppearance(_ session: CaptureSession) {
    events.append("exit")
  }
  func sessionControlsDidBecomeInactive(_ session: CaptureSession) { events.append("inactive") }
}

/// Catalog devices by identifier; a missing one fails the test that asks for it.
func device(_ identifier: String) throws -> CaptureDevice {
  CaptureDevice(model: try CaptureDeviceModel.named(identifier))
}

/// The error `body` throws, as `E`, or `nil` when it throws nothing or something else.
func caught<E: Error>(_ type: E.Type, _ body: () throws -> Void) -> E? {
  do {
    try body()
    return nil
  } catch {
    return error as? E
  }
}

/// A fresh empty temporary folder.
func temporaryDirectory() throws -> URL {
  let url = FileManager.default.temporaryDirectory.appendingPathComponent(
    "controls-tests-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
}
