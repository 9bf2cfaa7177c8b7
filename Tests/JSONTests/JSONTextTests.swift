import Foundation
import Testing

@testable import JSON
