import ChirpModules
import Foundation
import Synchronization
import Testing

protocol Listener: AnyObject { func changed(_ value: Int) }

final class RecordingListener: Listener, @unchecked Sendable {
    var values: [Int] = []
    func changed(_ value: Int) { values.append(value) }
}

@Suite("Multicast delegate and contexts")
struct MulticastAndContextTests {
    @Test func delegatesAreWeakDedupedAndRemovable() {
        let delegates = MulticastDelegate<any Listener>()
        let kept = RecordingListener()
        var released: RecordingListener? = RecordingListener()
        delegates.add(kept)
        delegates.add(kept)
        delegates.add(released!)
        #expect(delegates.count == 2)
        delegates.invoke { $0.changed(1) }
        released = nil
        #expect(delegates.count == 1, "a released delegate is dropped")
        delegates.invoke { $0.changed(2) }
        #expect(kept.values == [1, 2])
        delegates.remove(kept)
        #expect(delegates.isEmpty)
    }

    @Test func concurrentAddRemoveInvokeIsSafe() {
        let delegates = MulticastDelegate<any Listener>()
        let listeners = (0..<50).map { _ in RecordingListener() }
        let calls = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 50) { index in
            delegates.add(listeners[index])
            delegates.invoke { _ in calls.add(1, ordering: .relaxed) }
            if index % 2 == 0 { delegates.remove(listeners[index]) }
        }
        #expect(delegates.count == 25 && calls.load(ordering: .relaxed) > 0)
        _ = listeners
    }

    @Test func userContextsAreSeparateAndLogoutWipes() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("appctx-\(UUID().uuidString)")
        let app = try AppContext(root: root)
        #expect(app.currentUser == nil)
        let alice = try app.switchUser(to: "Alice")
        try alice.saveToken("secret-token")
        try alice.setSetting("theme", to: "dark")
        let attributes = try FileManager.default.attributesOfItem(
            atPath: alice.directory.appendingPathComponent("token").path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let bob = try app.switchUser(to: "bob")
        #expect(bob.token() == nil && bob.settings().isEmpty && bob.databaseURL != alice.databaseURL)
        // A new launch restores the current user.
        #expect(try AppContext(root: root).currentUser?.username == "bob")
        try app.switchUser(to: "alice")
        #expect(app.currentUser?.token() == "secret-token" && app.currentUser?.setting("theme") == "dark")
        try alice.setSetting("theme", to: nil)
        #expect(alice.setting("theme") == nil)
        try app.logout()
        #expect(app.currentUser == nil && !FileManager.default.fileExists(atPath: alice.directory.path))
        #expect(try AppContext(root: root).currentUser == nil)
        #expect(app.knownUsers == ["bob"])
        try app.logout()  // nobody logged in: nothing to do
    }
}
