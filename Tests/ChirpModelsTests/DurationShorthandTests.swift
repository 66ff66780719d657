import ChirpModels
import Testing

@Suite("Durations typed on the command line")
struct DurationShorthandTests {
    @Test func secondsOrACountWithAUnit() {
        #expect(DurationShorthand.seconds("90") == 90)
        #expect(DurationShorthand.seconds("30s") == 30)
        #expect(DurationShorthand.seconds("15m") == 900)
        #expect(DurationShorthand.seconds("3h") == 10_800)
        #expect(DurationShorthand.seconds("7d") == 604_800)
    }

    @Test func anythingElseIsRefused() {
        for text in ["", "h", "-5m", "1.5h", "2w", "m5", "99999999999999999d"] {
            #expect(DurationShorthand.seconds(text) == nil, "\(text)")
        }
    }
}
