import Controls
import Testing

@testable import FrameDial

@Suite struct ZoomWindowTests {
  @Test func centredWindowOnOddSizes() {
    // 1001 / 3 = 333.67 → 334; left = floor((1001 − 334) / 2) = 333.
    let window = ZoomWindow(imageWidth: 1001, imageHeight: 667, zoom: 3)
    #expect(window == ZoomWindow(imageWidth: 1001, imageHeight: 667, zoom: 3, center: .center))
    #expect(window.width == 334 && window.left == 333)
    // 667 / 3 = 222.33 → 222; top = floor(445 / 2) = 222.
    #expect(window.height == 222 && window.top == 222)
  }

  @Test func zoomOneIsTheWholeImage() {
    let window = ZoomWindow(imageWidth: 7, imageHeight: 5, zoom: 1)
    #expect(window == ZoomWindow(imageWidth: 7, imageHeight: 5, zoom: 0.5))
    #expect(window.left == 0 && window.top == 0 && window.width == 7 && window.height == 5)
  }

  @Test func tinyImagesKeepAtLeastOnePixel() {
    let window = ZoomWindow(imageWidth: 3, imageHeight: 1, zoom: 16)
    #expect(window.width == 1 && window.height == 1)
    #expect(window.left == 1 && window.top == 0)
  }

  @Test func offCentreMovesTheWindow() {
    // cw = 250; centre 0.3 × 1000 = 300 → left = 300 − 125 = 175.
    let window = ZoomWindow(
      imageWidth: 1000, imageHeight: 500, zoom: 4, center: ZoomCenter(x: 0.3, y: 0.6))
    #expect(window.left == 175 && window.width == 250)
    // ch = 125; 0.6 × 500 = 300 → top = floor(300 − 62.5) = 237.
    #expect(window.top == 237 && window.height == 125)
  }

  @Test func centresNearTheEdgesAreClampedInside() {
    let corner = ZoomWindow(
      imageWidth: 1000, imageHeight: 501, zoom: 2, center: ZoomCenter(x: 0, y: 1))
    #expect(corner.left == 0)
    #expect(corner.height == 251 && corner.top == 501 - 251)
    let outside = ZoomWindow(
      imageWidth: 1000, imageHeight: 501, zoom: 2, center: ZoomCenter(x: 5, y: -3))
    #expect(outside.left == 500 && outside.top == 0)
  }
}
