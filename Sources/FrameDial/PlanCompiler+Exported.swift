// The compiler's public names (Recipe, Plan, PlanCache, ColourEncoding and the colour maths) are
// FrameDial's too: code that imports FrameDial sees them without importing PlanCompiler.
@_exported import PlanCompiler
