import ChirpClient
import Foundation
import Testing

/// The stretches of a conversation held whole: pages and the event stream join them, and
/// nothing else does.
@Suite("History stretches")
struct HistoryStretchesTests {
    typealias Stretch = HistoryStretches.Stretch

    @Test func aShortNewestPageReachesTheFirstMessageAndAFullOneDoesNot() {
        var short = HistoryStretches()
        short.add(page: [3, 7, 9], at: .newest, limit: 50)
        #expect(short.stretches == [Stretch(low: 0, high: 9)])
        var full = HistoryStretches()
        full.add(page: [3, 7, 9], at: .newest, limit: 3)
        #expect(full.stretches == [Stretch(low: 3, high: 9)])
        #expect(full.newest?.reachesFirst == false)
    }

    @Test func aNewestPageAfterTimeAwayLeavesAGapThatPagesBeforeItFill() {
        var history = HistoryStretches()
        history.add(page: [1, 2, 3, 4, 5], at: .newest, limit: 30)  // the early history, whole
        history.add(page: Array(1901...2005), at: .newest, limit: 105)  // back after 2,000 more
        #expect(history.stretches == [Stretch(low: 0, high: 5), Stretch(low: 1901, high: 2005)])
        // Scrolling back: each page read before the oldest of the newest stretch joins it …
        history.add(page: Array(1801...1900), at: .before(1901), limit: 100)
        #expect(history.stretches == [Stretch(low: 0, high: 5), Stretch(low: 1801, high: 2005)])
        // … until one reaches what was stored: one stretch from the first message.
        history.add(page: Array(3...102), at: .before(103), limit: 100)
        history.add(page: Array(103...1800), at: .before(1801), limit: 1698)
        #expect(history.stretches == [Stretch(low: 0, high: 2005)])
    }

    @Test func aShortPageBeforeAMessageReachesTheFirstOne() {
        var history = HistoryStretches()
        history.add(page: [40, 41], at: .newest, limit: 2)
        history.add(page: [], at: .before(40), limit: 100)
        #expect(history.stretches == [Stretch(low: 0, high: 41)])
    }

    @Test func aPageAfterAMessageJoinsWhenItMeetsTheStretchAbove() {
        var history = HistoryStretches()
        history.add(page: [10, 20], at: .newest, limit: 2)
        history.add(page: [1, 2, 3], at: .before(4), limit: 3)
        #expect(history.stretches.count == 2)
        history.add(page: [5, 6], at: .after(3), limit: 2)  // full: the gap above 6 stays
        #expect(history.stretches == [Stretch(low: 1, high: 6), Stretch(low: 10, high: 20)])
        history.add(page: [8, 10], at: .after(6), limit: 2)  // meets 10: one stretch
        #expect(history.stretches == [Stretch(low: 1, high: 20)])
    }

    @Test func streamedMessagesJoinTheOneBeforeThemOnly() {
        var history = HistoryStretches()
        history.add(streamed: 5)
        #expect(history.stretches == [Stretch(low: 5, high: 5)])
        history.add(streamed: 9)
        history.add(streamed: 30)
        #expect(history.stretches == [Stretch(low: 5, high: 30)])
        #expect(history.eventEdge == 30)
        // A newest page read meanwhile (its messages came on the stream too) joins by overlap.
        history.add(page: [28, 30, 31], at: .newest, limit: 3)
        #expect(history.stretches == [Stretch(low: 5, high: 31)])
        #expect(history.stretch(holding: 17) == Stretch(low: 5, high: 31))
        #expect(history.stretch(holding: 4) == nil)
    }

    @Test func aStoredFormReadsBackTheSame() throws {
        var history = HistoryStretches()
        history.add(page: [2, 3], at: .newest, limit: 2)
        history.add(streamed: 8)
        let data = try JSONEncoder().encode(history)
        #expect(try JSONDecoder().decode(HistoryStretches.self, from: data) == history)
    }
}
