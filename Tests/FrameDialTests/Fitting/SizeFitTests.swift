import Testing

@testable import FrameDial

@Suite struct SizeFitTests {
  @Test func readsOneSideOrBoth() throws {
    #expect(try SizeFit(parsing: "2048") == SizeFit(width: 2048, height: 2048))
    #expect(try SizeFit(parsing: "1920x1080") == SizeFit(width: 1920, height: 1080))
    #expect(
      try SizeFit(parsing: "640X480", enlarge: true)
        == SizeFit(width: 640, height: 480, enlarge: true))
    #expect(try SizeFit(parsing: "300×200") == SizeFit(width: 300, height: 200))
  }

  @Test(arguments: ["0", "10x", "x10", "axb", "", "-5", "10x0", "1x2x3", "100001", "１０", " 10"])
  func refusesWhatIsNotAWholeSize(text: String) {
    let error = #expect(throws: RenderError.self) { try SizeFit(parsing: text) }
    #expect(error?.message.contains("'\(text)'") == true)
  }

  @Test func fitsInsideKeepingTheAspectRatio() {
    let box = SizeFit(width: 1000, height: 1000)
    #expect(box.outputSize(inputWidth: 4000, inputHeight: 3000) == (1000, 750))
    #expect(box.outputSize(inputWidth: 3000, inputHeight: 4000) == (750, 1000))
    let wide = SizeFit(width: 400, height: 100)
    #expect(wide.outputSize(inputWidth: 4000, inputHeight: 3000) == (133, 100))
    #expect(wide.outputSize(inputWidth: 4000, inputHeight: 1) == (400, 1))
  }

  @Test func neverEnlargesUnlessAsked() {
    #expect(
      SizeFit(width: 1000, height: 1000).outputSize(inputWidth: 600, inputHeight: 400)
        == (600, 400))
    #expect(
      SizeFit(width: 600, height: 400).outputSize(inputWidth: 600, inputHeight: 400)
        == (600, 400))
    let enlarging = SizeFit(width: 1000, height: 1000, enlarge: true)
    #expect(enlarging.outputSize(inputWidth: 600, inputHeight: 400) == (1000, 667))
  }

  @Test func loadShrinkLeavesTheZoomWindowTwiceTheOutput() {
    let box = SizeFit(width: 1000, height: 1000)
    // 4000 × 3000 to 1000 × 750 is a 4× reduction: decode at half size, leave 2× to Lanczos.
    #expect(box.loadShrink(imageWidth: 4000, imageHeight: 3000) == 2)
    #expect(SizeFit(width: 256, height: 256).loadShrink(imageWidth: 4000, imageHeight: 3000) == 4)
    #expect(SizeFit(width: 200, height: 200).loadShrink(imageWidth: 4000, imageHeight: 3000) == 8)
    #expect(SizeFit(width: 2048, height: 2048).loadShrink(imageWidth: 4000, imageHeight: 3000) == 1)
    // A 2× zoom window is 2000 × 1500 for the same 1000 × 750 output: no room left to shrink.
    #expect(box.loadShrink(imageWidth: 4000, imageHeight: 3000, zoom: 2) == 1)
    #expect(
      SizeFit(width: 500, height: 500).loadShrink(
        imageWidth: 4000, imageHeight: 3000, zoom: 2) == 2)
    // Nothing is shrunk when the picture is kept or enlarged.
    #expect(
      SizeFit(width: 500, height: 500, enlarge: true).loadShrink(
        imageWidth: 300, imageHeight: 200) == 1)
  }

  @Test func jpegEighthsLeavesTheZoomWindowAFifthLargerThanTheOutput() {
    // 4000 × 3000 to 2048 × 1536: 5/8 decodes 2500 × 1875 (4/8, 2000 × 1500, is below the output).
    #expect(
      SizeFit(width: 2048, height: 2048).jpegEighths(imageWidth: 4000, imageHeight: 3000) == 5)
    #expect(
      SizeFit(width: 1000, height: 1000).jpegEighths(imageWidth: 4000, imageHeight: 3000) == 3)
    #expect(SizeFit(width: 200, height: 200).jpegEighths(imageWidth: 4000, imageHeight: 3000) == 1)
    // Portrait: the height decides.
    #expect(
      SizeFit(width: 2048, height: 2048).jpegEighths(imageWidth: 3024, imageHeight: 4032) == 5)
    // A 2× zoom window is 2000 × 1500: 5/8 of it, 1250 × 938, is at least 1.2 × 1000 × 750.
    #expect(
      SizeFit(width: 1000, height: 1000).jpegEighths(imageWidth: 4000, imageHeight: 3000, zoom: 2)
        == 5)
    // Nothing smaller than the picture when the output is close to it, kept or enlarged.
    #expect(
      SizeFit(width: 3500, height: 3500).jpegEighths(imageWidth: 4000, imageHeight: 3000) == 8)
    // 7/8 would do for 2800 × 2100, 6/8 for 2400 × 1800, but both decode slower than the full size.
    #expect(
      SizeFit(width: 2800, height: 2800).jpegEighths(imageWidth: 4000, imageHeight: 3000) == 8)
    #expect(
      SizeFit(width: 2400, height: 2400).jpegEighths(imageWidth: 4000, imageHeight: 3000) == 8)
    #expect(
      SizeFit(width: 2000, height: 2000).jpegEighths(imageWidth: 4000, imageHeight: 3000) == 5)
    #expect(
      SizeFit(width: 500, height: 500, enlarge: true).jpegEighths(imageWidth: 300, imageHeight: 200)
        == 8)
  }
}
