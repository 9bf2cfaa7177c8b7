import Controls
import Testing

@testable import PlanCompiler

@Suite struct ZoomWindowTests {
  @Test func centredWindowOnOddSizes() {
    // Real-valued (integer snapping was the old contract): 1001 / 3 = 333.667, left = (1001 − 333.667) / 2.
    let window = ZoomWindow(imageWidth: 1001, imageHeight: 667, zoom: 3)
    #expect(window == ZoomWindow(imageWidth: 1001, imageHeight: 667, zoom: 3, center: .center))
    #expect(window.width == 1001.0 / 3 && window.left == 1001.0 / 2 - 1001.0 / 6)
    #expect(window.height == 667.0 / 3 && window.top == 667.0 / 2 - 667.0 / 6)
  }

  @Test func zoomOneIsTheWholeImage() {
    let window = ZoomWindow(imageWidth: 7, imageHeight: 5, zoom: 1)
    #expect(window == ZoomWindow(imageWidth: 7, imageHeight: 5, zoom: 0.5))
    #expect(window.left == 0 && window.top == 0 && window.width == 7 && window.height == 5)
    #expect(window.pixelBounds(margin: 3) == PixelRect(x: 0, y: 0, width: 7, height: 5))
  }

  @Test func tinyImagesKeepAtLeastOnePixel() {
    let window = ZoomWindow(imageWidth: 3, imageHeight: 1, zoom: 16)
    #expect(window.width == 1 && window.height == 1)
    // Centred: 1.5 − 0.5.
    #expect(window.left == 1 && window.top == 0)
  }

  @Test func offCentreMovesTheWindow() {
    // 1000 / 4 = 250; centre 0.3 × 1000 = 300 → left = 300 − 125 = 175.
    let window = ZoomWindow(
      imageWidth: 1000, imageHeight: 500, zoom: 4, center: ZoomCenter(x: 0.3, y: 0.6))
    #expect(window.left == 175 && window.width == 250)
    // 500 / 4 = 125; 0.6 × 500 = 300 → top = 300 − 62.5 = 237.5 (was floored to 237).
    #expect(window.top == 237.5 && window.height == 125)
  }

  @Test func centresNearTheEdgesAreClampedInside() {
    let corner = ZoomWindow(
      imageWidth: 1000, imageHeight: 501, zoom: 2, center: ZoomCenter(x: 0, y: 1))
    #expect(corner.left == 0)
    #expect(corner.height == 250.5 && corner.top == 501 - 250.5)
    let outside = ZoomWindow(
      imageWidth: 1000, imageHeight: 501, zoom: 2, center: ZoomCenter(x: 5, y: -3))
    #expect(outside.left == 500 && outside.top == 0)
  }

  @Test func pixelBoundsHoldTheWindowAndItsNeighboursInsideTheImage() {
    let window = ZoomWindow(
      imageWidth: 1000, imageHeight: 500, zoom: 4, center: ZoomCenter(x: 0.3, y: 0.6))
    // 175 … 425 × 237.5 … 362.5, plus 2 on each side.
    let bounds = window.pixelBounds(margin: 2)
    #expect(bounds == PixelRect(x: 173, y: 235, width: 254, height: 130))
    let relative = window.relative(to: bounds)
    #expect(relative.left == 2 && relative.top == 2.5 && relative.width == 250)
    #expect(relative.imageWidth == 254 && relative.imageHeight == 130)
    // At the corner the margin is cut by the image.
    let corner = ZoomWindow(
      imageWidth: 1000, imageHeight: 501, zoom: 2, center: ZoomCenter(x: 0, y: 1))
    #expect(corner.pixelBounds(margin: 3) == PixelRect(x: 0, y: 247, width: 503, height: 254))
  }

  @Test func aSlowZoomMovesTheWindowEveryFrame() {
    // 1.00 → 1.05 over 150 frames of 1920 × 1080: whole-pixel windows stood still on 65 of 149 steps.
    let windows = (0..<150).map { frame in
      ZoomWindow(imageWidth: 1920, imageHeight: 1080, zoom: 1 + 0.05 * Double(frame) / 149)
    }
    for (before, after) in zip(windows, windows.dropFirst()) {
      #expect(after.left > before.left && after.top > before.top)
      #expect(after.width < before.width && after.height < before.height)
      // Each step is a small fraction of a pixel, never a jump.
      #expect(after.left - before.left < 0.5)
    }
  }
}
