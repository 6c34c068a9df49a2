import Foundation

/// The Markdown report: the introduction, a table, the summary (the geometric means), then the
/// correctness notes: `allMatch` when no file has a note, else `othersMatch` and every note.
public func printReport<Decoder, Info>(
    intro: [String], columns: [String], rows: [[String]], summary: String,
    results: [FileResult<Decoder, Info>], allMatch: String, othersMatch: String
) {
    for line in intro { print(line) }
    print()
    printTable(columns: columns, rows: rows)
    print()
    print(summary)
    print()
    printNotes(results, allMatch: allMatch, othersMatch: othersMatch)
}

/// A Markdown table; the first two columns (file and kind) are text, the rest numbers.
public func printTable(columns: [String], rows: [[String]]) {
    print("| " + columns.joined(separator: " | ") + " |")
    print("|" + columns.indices.map { $0 < 2 ? "---" : "---:" }.joined(separator: "|") + "|")
    for cells in rows {
        print("| " + cells.joined(separator: " | ") + " |")
    }
}

/// The correctness notes: `allMatch` when no file has a note, else `othersMatch` and every note.
public func printNotes<Decoder, Info>(_ results: [FileResult<Decoder, Info>], allMatch: String, othersMatch: String) {
    let noted = results.filter { !$0.notes.isEmpty }
    if noted.isEmpty {
        print(allMatch)
    } else {
        print(othersMatch)
        for r in noted {
            for note in r.notes { print("- \(r.name): \(note)") }
        }
    }
}

public func geometricMean(_ values: [Double]) -> Double? {
    guard !values.isEmpty else { return nil }
    return exp(values.map { log($0) }.reduce(0, +) / Double(values.count))
}

/// Table cells.
public enum Cell {
    public static func fixed(_ value: Double, _ digits: Int) -> String { String(format: "%.\(digits)f", value) }
    public static func rate(_ value: Double?) -> String { value.map { fixed($0, 1) } ?? "error" }
    public static func times(_ value: Double?) -> String { value.map { fixed($0, 2) + "×" } ?? "n/a" }
}
