import ChirpTestSupport
import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import NIOTLS
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The TLS a `chirp serve --tls-cert` speaks (issue 36): TLS 1.2 or newer with forward-secret
/// AEAD suites only, and 1.3 only with `--tls-min 1.3`; a client offering less gets no
/// handshake. Checked with swift-nio-ssl's client against a child process.
@Suite("TLS versions and suites", .serialized)
struct TLSVersionTests {
    /// Whether a TLS handshake with `adjust`ed client settings (swift-nio-ssl's client, trusting
    /// the test CA) completes; a refused one fails at once, with no connection pool retrying it.
    static func connects(_ certificates: TestCertificates, port: Int, _ adjust: (inout TLSConfiguration) -> Void) async
        -> Bool
    {
        var tls = TLSTests.trusting(certificates)
        adjust(&tls)
        do {
            let context = try NIOSSLContext(configuration: tls)
            let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(
                            NIOSSLClientHandler(context: context, serverHostname: nil))
                        try channel.pipeline.syncOperations.addHandler(
                            HandshakeWatcher(promise: channel.eventLoop.makePromise()))
                    }
                }
                .connect(host: "127.0.0.1", port: port).get()
            defer { channel.close(promise: nil) }
            let watcher = try await channel.pipeline.handler(type: HandshakeWatcher.self).get()
            return try await watcher.promise.futureResult.get()
        } catch {
            return false
        }
    }

    /// Completes its promise with true at the end of the handshake, false on an error or close.
    final class HandshakeWatcher: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = NIOAny
        let promise: EventLoopPromise<Bool>
        private var done = false  // touched on the channel's event loop only

        init(promise: EventLoopPromise<Bool>) { self.promise = promise }

        private func finish(_ value: Bool) {
            guard !done else { return }
            done = true
            promise.succeed(value)
        }

        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            if case TLSUserEvent.handshakeCompleted = event { finish(true) }
            context.fireUserInboundEventTriggered(event)
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) { finish(false) }

        func channelInactive(context: ChannelHandlerContext) { finish(false) }
    }

    @Test func tls10And11AndSuitesWithoutForwardSecrecyAreRefused() async throws {
        let certificates = try await TestCertificates.make()
        defer { certificates.remove() }
        let server = try await ServerProcess(arguments: [
            "--tls-cert", certificates.certificateFile, "--tls-key", certificates.keyFile,
        ])
        #expect(await Self.connects(certificates, port: server.port) { _ in }, "a default client")
        #expect(await Self.connects(certificates, port: server.port) { $0.maximumTLSVersion = .tlsv12 }, "TLS 1.2")
        #expect(
            await Self.connects(certificates, port: server.port) {
                $0.maximumTLSVersion = .tlsv12
                $0.cipherSuiteValues = [
                    .TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256, .TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256,
                ]
            }, "TLS 1.2 with ChaCha20-Poly1305")
        for old in [TLSVersion.tlsv1, .tlsv11] {
            #expect(
                await !Self.connects(certificates, port: server.port) {
                    $0.minimumTLSVersion = .tlsv1
                    $0.maximumTLSVersion = old
                    $0.cipherSuiteValues = [
                        .TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA, .TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA,
                        .TLS_RSA_WITH_AES_128_CBC_SHA,
                    ]
                }, "\(old) is refused")
        }
        #expect(
            await !Self.connects(certificates, port: server.port) {
                $0.maximumTLSVersion = .tlsv12
                $0.cipherSuiteValues = [.TLS_RSA_WITH_AES_128_GCM_SHA256, .TLS_RSA_WITH_AES_256_GCM_SHA384]
            }, "RSA key exchange (no forward secrecy)")
        #expect(
            await !Self.connects(certificates, port: server.port) {
                $0.maximumTLSVersion = .tlsv12
                $0.cipherSuiteValues = [.TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA, .TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA]
            }, "CBC (not AEAD)")
        #expect(try await server.stop(signal: SIGINT) == 0)
    }

    @Test func tlsMin13RefusesTLS12() async throws {
        let certificates = try await TestCertificates.make()
        defer { certificates.remove() }
        let server = try await ServerProcess(arguments: [
            "--tls-cert", certificates.certificateFile, "--tls-key", certificates.keyFile, "--tls-min", "1.3",
        ])
        #expect(await Self.connects(certificates, port: server.port) { $0.minimumTLSVersion = .tlsv13 })
        #expect(await !Self.connects(certificates, port: server.port) { $0.maximumTLSVersion = .tlsv12 })
        #expect(try await server.stop(signal: SIGINT) == 0)
        let wrong = try await runChirp(["serve", "--port", "0", "--tls-min", "1.1"])
        #expect(wrong.status != 0 && wrong.output.contains("--tls-min takes 1.2 or 1.3"))
    }
}
