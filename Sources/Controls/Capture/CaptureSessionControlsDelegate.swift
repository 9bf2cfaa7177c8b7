import Foundation

/// Receives the overlay's lifecycle (Apple's `AVCaptureSessionControlsDelegate`).
///
/// The four events arrive in this order on the queue given to `CaptureSession.setControlsDelegate(_:queue:)`:
/// did become active, will enter fullscreen, will exit fullscreen, did become inactive.
public protocol CaptureSessionControlsDelegate: AnyObject, Sendable {
  /// The overlay became visible and interactive (a light press on the Camera Control).
  func sessionControlsDidBecomeActive(_ session: CaptureSession)
  /// The overlay takes over: the app should hide or dim its own controls.
  func sessionControlsWillEnterFullscreenAppearance(_ session: CaptureSession)
  /// The overlay gives the screen back; always sent before `sessionControlsDidBecomeInactive(_:)`.
  func sessionControlsWillExitFullscreenAppearance(_ session: CaptureSession)
  /// The overlay was dismissed.
  func sessionControlsDidBecomeInactive(_ session: CaptureSession)
}
