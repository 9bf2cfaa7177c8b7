import Foundation

extension BatchLayout {
  /// The end of the message of an item whose output collides with another's: a `--name` template that
  /// gives every file of the batch its own output, checked on all of `items` (no two outputs the same,
  /// none an input file; told apart by letter case only when `ignoringCase` is false), or why none can.
  func collisionHint(
    _ items: [BatchItem], collisions: [Int], inputFiles: Set<FileIdentity>, ignoringCase: Bool
  ) -> String {
    // {name} keeps the input's extension, which is what tells apart IMG.png and IMG.tif → IMG.jpg.
    let candidates = [
      naming.template.replacingOccurrences(of: "{stem}", with: "{name}"), "{name}.{ext}",
    ]
    for template in candidates where template != naming.template {
      guard let naming = try? OutputNaming(template: template),
        separates(items, naming: naming, inputFiles: inputFiles, ignoringCase: ignoringCase)
      else { continue }
      return "; --name '\(template)' gives every file its own output"
    }
    if ignoringCase {
      return "; no --name template tells the two apart in an output folder that ignores letter "
        + "case: rename one of them, or write to a file system that tells case apart"
    }
    return "; both files have the same name (given from different folders): rename one of them, or "
      + "process them in separate runs"
  }

  /// True when `naming` gives every item that has (or would have had) an output its own output, and
  /// none the path of an input file.
  private func separates(
    _ items: [BatchItem], naming: OutputNaming, inputFiles: Set<FileIdentity>, ignoringCase: Bool
  ) -> Bool {
    var claimed = Set<String>()
    for item in items where !item.isIgnored && !item.outputRelativePath.isEmpty {
      let folder = (item.outputRelativePath as NSString).deletingLastPathComponent
      let name = naming.name(
        for: URL(fileURLWithPath: item.input).lastPathComponent, format: item.format)
      let target = ((outputFolder as NSString).appendingPathComponent(folder) as NSString)
        .appendingPathComponent(name)
      if let existing = FileStatus(target), inputFiles.contains(existing.identity) { return false }
      let key = LetterCase.claimKey(Self.absolute(target), ignoringCase: ignoringCase)
      guard claimed.insert(key).inserted else { return false }
    }
    return true
  }
}
