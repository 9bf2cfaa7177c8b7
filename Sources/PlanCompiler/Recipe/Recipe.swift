/// FrameDial's intermediate representation: the ordered stages a control state applies to an image.
///
/// A recipe is the unoptimized plan. It lists every non-identity stage in the order of the image-math
/// contract, prints one line per stage, renders to Graphviz, and evaluates exactly in double precision
/// (`evaluate`), which is the ground truth the optimized `Plan` is tested against.
public struct Recipe: Sendable, Hashable, CustomStringConvertible {
  /// The stages in application order; empty for the identity.
  public var stages: [RecipeStage]

  /// A recipe of the given stages.
  public init(stages: [RecipeStage]) {
    self.stages = stages
  }

  /// True when the recipe changes nothing (no stages at all).
  public var isIdentity: Bool { stages.isEmpty }

  /// The stages that change pixel values, in order (everything but `zoom`).
  public var colorStages: [RecipeStage] { stages.filter { !$0.isGeometric } }

  /// One line per stage, numbered; `identity` when there are none.
  public var description: String {
    if stages.isEmpty { return "identity" }
    return stages.enumerated().map { "\($0.offset + 1). \($0.element)" }.joined(separator: "\n")
  }
}
