import ChirpStore
import ChirpStoreTesting
import Testing

struct SearchError: Error, CustomStringConvertible { var description: String { "offline" } }

@MainActor
@Suite("Store")
struct StoreTests {
    @Test func sendReducesAtOnceRunsEffectsAndNotifiesObservers() async {
        let gate = Gate()
        let store = Store(
            initialState: SearchFeature.State(), reducer: SearchFeature(client: .init(search: gate.search)))
        var seen: [SearchFeature.State] = []
        let token = store.observe { seen.append($0) }
        let task = store.send(.queryChanged("chirp"))
        #expect(store.state.isSearching)
        while gate.pending.isEmpty { await Task.yield() }
        gate.answer("chirp", with: ["#chirp"])
        await task.finish()
        #expect(store.state.results == ["#chirp"])
        #expect(!store.state.isSearching)
        #expect(seen.map(\.isSearching) == [false, true, false])
        token.cancel()
        store.send(.counter(.increment))
        #expect(seen.count == 3, "a cancelled observation hears nothing more")
    }

    @Test func aNewSearchCancelsTheOneInFlight() async {
        let gate = Gate()
        let store = Store(
            initialState: SearchFeature.State(), reducer: SearchFeature(client: .init(search: gate.search)))
        store.send(.queryChanged("c"))
        while gate.pending != ["c"] { await Task.yield() }
        let second = store.send(.queryChanged("ch"))
        while gate.pending != ["ch"] { await Task.yield() }
        gate.answer("ch", with: ["chirp"])
        await second.finish()
        #expect(store.state.results == ["chirp"])
        #expect(store.state.error == nil, "the cancelled search reported nothing")
        #expect(store.runningEffects == 0)
    }

    @Test func scopedStoresReadTheParentsStateAndSendThroughIt() async {
        let store = Store(
            initialState: SearchFeature.State(), reducer: SearchFeature(client: .init(search: { _ in [] })))
        let counter = store.scope(state: \.counter, action: SearchFeature.Action.counter)
        var counts: [Int] = []
        let token = counter.observe { counts.append($0.count) }
        counter.send(.increment)
        await counter.send(.incrementTwiceLater).finish()
        #expect(store.state.counter.count == 3)
        #expect(counter.state.count == 3)
        #expect(counts.last == 3)
        _ = token
    }
}

@MainActor
@Suite("TestStore")
struct TestStoreTests {
    @Test func exhaustiveSearchFlowWithFailureAndCancellation() async {
        let gate = Gate()
        let store = TestStore(
            initialState: SearchFeature.State(), reducer: SearchFeature(client: .init(search: gate.search)))
        await store.send(.queryChanged("sw")) {
            $0.query = "sw"
            $0.isSearching = true
        }
        while gate.pending.isEmpty { await Task.yield() }
        gate.answer("sw", with: ["swift"])
        await store.receive(.searchResponse(["swift"])) {
            $0.isSearching = false
            $0.results = ["swift"]
        }
        await store.send(.queryChanged("swx")) {
            $0.query = "swx"
            $0.isSearching = true
        }
        while gate.pending.isEmpty { await Task.yield() }
        gate.fail("swx", SearchError())
        await store.receive(.searchFailed("offline")) {
            $0.isSearching = false
            $0.error = "offline"
        }
        await store.send(.queryChanged("a")) {
            $0.query = "a"
            $0.isSearching = true
        }
        await store.send(.cancelTapped) { $0.isSearching = false }
        await store.finish()
    }

    @Test func childActionsFromMergedEffectsAreReceivedInOrder() async {
        let store = TestStore(
            initialState: SearchFeature.State(), reducer: SearchFeature(client: .init(search: { _ in [] })))
        await store.send(.counter(.incrementTwiceLater))
        await store.receive(.counter(.increment)) { $0.counter.count = 1 }
        await store.receive(.counter(.increment)) { $0.counter.count = 2 }
        await store.finish()
    }

    @Test func aWrongOrMissingStateChangeIsReported() async {
        let store = TestStore(
            initialState: SearchFeature.State(), reducer: SearchFeature(client: .init(search: { _ in [] })))
        await withKnownIssue("the state change is not described") {
            await store.send(.counter(.increment))
        }
        await withKnownIssue("a wrong value") {
            await store.send(.counter(.increment)) { $0.counter.count = 5 }
        }
        #expect(store.state.counter.count == 2, "the test store keeps the real state")
    }

    @Test func unreceivedActionsAndRunningEffectsFailFinish() async {
        let gate = Gate()
        let store = TestStore(
            initialState: SearchFeature.State(), reducer: SearchFeature(client: .init(search: gate.search)),
            timeout: .milliseconds(50))
        await store.send(.counter(.incrementTwiceLater))
        await withKnownIssue("two actions were never received") {
            await store.finish()
        }
        let running = TestStore(
            initialState: SearchFeature.State(), reducer: SearchFeature(client: .init(search: gate.search)),
            timeout: .milliseconds(50))
        await running.send(.queryChanged("q")) {
            $0.query = "q"
            $0.isSearching = true
        }
        await withKnownIssue("the search is still running") {
            await running.finish()
        }
    }
}
