import Controls

/// The geometric part of a plan: a zoom factor above 1 and the window's centre.
public struct PlanZoom: Sendable, Hashable {
  /// The zoom factor, 1 < factor ≤ 16.
  public let factor: Double
  /// The centre of the window, each coordinate 0 … 1.
  public let center: ZoomCenter

  /// The real-valued zoom window for an image of the given size (see ``ZoomWindow``).
  public func window(imageWidth: Int, imageHeight: Int) -> ZoomWindow {
    ZoomWindow(imageWidth: imageWidth, imageHeight: imageHeight, zoom: factor, center: center)
  }
}

extension PlanZoom {
  /// The zoom of a recipe's `zoom` stage; nil for any other stage.
  init?(stage: RecipeStage) {
    guard case .zoom(let factor, let center) = stage else { return nil }
    self.init(factor: factor, center: center)
  }
}
