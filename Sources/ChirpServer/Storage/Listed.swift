/// One row of a newest-first list with the position it sorts by.
struct Listed<Item: Sendable>: Sendable {
    var cursor: Int64
    var item: Item
}
