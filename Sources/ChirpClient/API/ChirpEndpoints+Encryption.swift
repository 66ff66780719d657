import ChirpModels
import ChirpNetworking

extension ChirpEndpoints {
    /// `PUT /v1/me/devices/{deviceId}`: registers this installation's device, or rotates its
    /// encryption key (idempotent).
    public struct PutDevice: Endpoint {
        public typealias Response = Device
        public var deviceId: String
        public var request: DeviceRequest
        public var method: HTTPMethod { .put }
        public var path: String { APIRoute.putDevice.path(["deviceId": deviceId]) }
        public var body: DeviceRequest? { request }
        public var retryPolicy: RetryPolicy = .default
        /// Creates the call.
        public init(_ deviceId: String, _ request: DeviceRequest) {
            self.deviceId = deviceId
            self.request = request
        }
    }

    /// `DELETE /v1/me/devices/{deviceId}` (idempotent).
    public struct DeleteDevice: Endpoint {
        public typealias Response = EmptyResponse
        public var deviceId: String
        public var method: HTTPMethod { .delete }
        public var path: String { APIRoute.deleteDevice.path(["deviceId": deviceId]) }
        /// Creates the call.
        public init(_ deviceId: String) { self.deviceId = deviceId }
    }

    /// `GET /v1/users/{username}/devices`: a user's devices and their public keys.
    public struct UserDevices: Endpoint {
        public typealias Response = [Device]
        public var username: String
        public var path: String { APIRoute.userDevices.path(["username": username]) }
        /// Always asked again: a device list must be current to seal to it.
        public var allowsConditionalCaching: Bool { false }
        /// Creates the call.
        public init(of username: String) { self.username = username }
    }

    /// `PUT /v1/conversations/{username}/encryption` or `PUT /v1/groups/{id}/encryption`:
    /// turns a conversation's encryption on, for good (idempotent).
    public struct TurnOnEncryption: Endpoint {
        public typealias Response = EmptyResponse
        /// The other person of the conversation, or a group's key (`ConversationKey`).
        public var peer: String
        public var method: HTTPMethod { .put }
        public var path: String { APIRoute.path(.encryptConversation, or: .encryptGroup, for: peer) }
        /// Creates the call.
        public init(with peer: String) { self.peer = peer }
    }
}
