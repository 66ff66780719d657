import Foundation
import Testing

@testable import ChirpPersistence

@Suite("Stored values and column coding")
struct StoredValueTests {
    @Test func orderingFollowsSQLite() {
        let sorted: [StoredValue] = [.blob(Data([1])), "b", "B", .real(2.5), 2, nil, .integer(-1)].sorted()
        #expect(sorted == [nil, -1, 2, .real(2.5), "B", "b", .blob(Data([1]))])
        #expect(StoredValue.integer(1).sqlEquals(.real(1.0)) && !StoredValue.text("1").sqlEquals(.integer(1)))
        #expect(!(StoredValue.null < .null) && StoredValue.blob(Data([1])) < .blob(Data([2])))
        #expect(
            [StoredValue.null, 1, .real(1.5), "t", .blob(Data([0, 1]))].map(\.description) == [
                "NULL", "1", "1.5", "'t'", "<2 bytes>",
            ])
    }

    @Test func scalarsWrappersAndNestedValues() throws {
        struct Wrapper: Codable, Equatable { var value: Int }
        struct AllTypes: Codable, Equatable {
            var int8: Int8, int16: Int16, int32: Int32, uint8: UInt8, uint16: UInt16, uint32: UInt32
            var float: Float, uuid: UUID, url: URL, nested: Wrapper, list: [Int], kind: Kind, flag: Bool, none: String?
        }
        let value = AllTypes(
            int8: -8, int16: 16, int32: 32, uint8: 8, uint16: 16, uint32: 32, float: 1.5,
            uuid: UUID(), url: URL(string: "https://example.com/a?b")!, nested: Wrapper(value: 3),
            list: [1, 2], kind: .published, flag: true, none: nil)
        let columns = try ColumnEncoder.encode(value)
        #expect(columns["nested"] == .text(#"{"value":3}"#) && columns["list"] == .text("[1,2]"))
        #expect(columns["kind"] == "published" && columns["flag"] == 1 && columns["url"] == "https://example.com/a?b")
        #expect(try ColumnDecoder.decode(AllTypes.self, from: columns) == value)
        #expect(throws: PersistenceError.self) { try ColumnDecoder.decode(AllTypes.self, from: [:]) }
        var broken = columns
        broken["uuid"] = "not a uuid"
        #expect(throws: PersistenceError.self) { try ColumnDecoder.decode(AllTypes.self, from: broken) }
        broken = columns
        broken["int8"] = .real(1.5)
        #expect(throws: PersistenceError.self) { try ColumnDecoder.decode(AllTypes.self, from: broken) }
        broken = columns
        broken["float"] = "x"
        #expect(throws: PersistenceError.self) { try ColumnDecoder.decode(AllTypes.self, from: broken) }
        broken = columns
        broken["url"] = .integer(3)
        #expect(throws: PersistenceError.self) { try ColumnDecoder.decode(AllTypes.self, from: broken) }
    }
}
