/// A plain-text table whose columns are aligned by character count, two spaces apart, with no trailing
/// spaces.
struct TextTable {
  /// The column titles.
  var header: [String]
  /// The rows, each with one cell per column.
  var rows: [[String]]

  /// The table as lines: the header, then each row.
  var lines: [String] {
    let all = [header] + rows
    let widths = header.indices.map { column in
      all.map { $0.indices.contains(column) ? $0[column].count : 0 }.max() ?? 0
    }
    return all.map { row in
      var line = ""
      for (column, cell) in row.enumerated() {
        line += cell
        if column < row.count - 1 {
          line += String(repeating: " ", count: widths[column] - cell.count + 2)
        }
      }
      return line
    }
  }
}
