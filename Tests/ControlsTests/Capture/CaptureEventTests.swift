import Dispatch
import Foundation
import Testing

@testable import Controls

@Suite struct CaptureEventTests {
  @Test func deliversOnlyWhenAttachedAndEnabled() {
    let received = Collected<CaptureEvent>()
    let interaction = CaptureEventInteraction { received.append($0) }
    let press = CaptureEvent(phase: .ended, kind: .primary)
    #expect(!interaction.deliver(press))
    interaction.attach()
    #expect(interaction.deliver(CaptureEvent(phase: .began, kind: .secondary)))
    #expect(interaction.deliver(press))
    interaction.isEnabled = false
    #expect(!interaction.deliver(press))
    interaction.isEnabled = true
    interaction.detach()
    #expect(!interaction.deliver(press))
    #expect(received.all == [CaptureEvent(phase: .began, kind: .secondary), press])
    #expect(
      press.isPrimaryPressCompletion
        && !CaptureEvent(phase: .cancelled, kind: .primary).isPrimaryPressCompletion)
  }
}
