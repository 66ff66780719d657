import ChirpModules
import Foundation
import Synchronization

/// The app's current `UserSession`, always obtained through the `AccountManager`: a token
/// given from outside (`--token`) is adopted by it, otherwise it reopens the stored one.
final class SessionStore: Sendable {
    let accounts: AccountManager
    private let state: Mutex<(session: UserSession?, token: String?)>

    init(accounts: AccountManager, token: String?) {
        self.accounts = accounts
        state = Mutex((nil, token))
    }

    /// The current session, if one was opened.
    var current: UserSession? { state.withLock { $0.session } }

    /// Makes `session` current (nil: nobody).
    func set(_ session: UserSession?) {
        state.withLock { $0.session = session }
    }

    /// The current session; else adopts the pending token, else reopens the stored session.
    func session() async throws -> UserSession {
        let (session, token) = state.withLock { ($0.session, $0.token) }
        if let session { return session }
        let opened: UserSession
        if let token {
            opened = try await accounts.adopt(token: token)
        } else {
            opened = try accounts.currentSession()
        }
        state.withLock { state in
            state.session = opened
            state.token = nil
        }
        return opened
    }
}

extension ModuleEnvironment {
    /// The session store the accounts module serves from.
    var sessions: SessionStore? { self.get(SessionStore.self) }
}
