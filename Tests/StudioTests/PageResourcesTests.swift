import Foundation
import Testing

@testable import Studio

/// The page's files are found without SwiftPM's `Bundle.module`, which would stop the process when the
/// resource bundle is missing.
@Suite struct PageResourcesTests {
  @Test func thePageFilesAreFoundAndRead() throws {
    let page = try PageResources.bundled()
    #expect(String(decoding: page.page.body, as: UTF8.self).contains("<html"))
    #expect(String(decoding: page.script.body, as: UTF8.self).contains("WebSocket"))
    #expect(!page.styleSheet.body.isEmpty)
    #expect(page.page.contentType.hasPrefix("text/html"))
  }

  @Test func theBundleBesideTheExecutableIsSearchedFirstThenTheSources() {
    let folders = PageResources.pageFolders().map(\.path)
    #expect(folders.first?.hasSuffix("FrameDial_Studio.resources/Page") == true)
    #expect(folders.last?.hasSuffix("Sources/Studio/Page") == true)
    #expect(Set(folders).count == folders.count)
  }
}
