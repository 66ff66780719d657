// swift-tools-version:6.2
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny")
]

let package = Package(
    name: "Chirp",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "chirp", targets: ["chirp"]),
        .library(name: "ChirpNetworking", targets: ["ChirpNetworking"]),
        .library(name: "ChirpPersistence", targets: ["ChirpPersistence"]),
        .library(name: "ChirpDataCenter", targets: ["ChirpDataCenter"]),
        .library(name: "ChirpPush", targets: ["ChirpPush"]),
        .library(name: "ChirpEncryption", targets: ["ChirpEncryption"]),
        .library(name: "ChirpLogging", targets: ["ChirpLogging"]),
        .library(name: "ChirpModules", targets: ["ChirpModules"]),
        .library(name: "ChirpStore", targets: ["ChirpStore"]),
        .library(name: "ChirpStoreTesting", targets: ["ChirpStoreTesting"]),
        .library(name: "ChirpModels", targets: ["ChirpModels"]),
        .library(name: "ChirpServer", targets: ["ChirpServer"]),
        .library(name: "ChirpClient", targets: ["ChirpClient"]),
        .library(name: "ChirpTerminal", targets: ["ChirpTerminal"]),
    ],
    dependencies: [
        // No traits: hummingbird-auth and hummingbird-websocket ask for none, and with the default
        // traits here the build of the tests and the build of the app enabled different sets, so
        // `swift build` and `swift test` recompiled Hummingbird for each other (a minute each run).
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1", traits: []),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.8.1"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        // 4.x: jwt-kit 5 (below) asks for swift-crypto 4.1.0 or later.
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.1.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift.git", from: "0.2.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        // TLS: the server's HTTPS/WSS (through HummingbirdTLS) and the clients' extra trusted CA
        // (the tests' certificates come from the openssl command).
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        // Web Push: the VAPID JWT (ES256), signed and verified.
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.7.1"),
        // The web client's files, gzip-compressed once at start-up (WebAssets).
        .package(url: "https://github.com/adam-fowler/compress-nio.git", from: "1.5.0"),
    ],
    targets: [
        // MARK: kit
        // App-agnostic: no kit module depends on a shared, server, client or app module.
        // (ChirpStore arrives with the terminal-app issue.)
        .target(
            name: "ChirpNetworking",
            dependencies: [
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "ChirpPersistence",
            dependencies: [
                .product(name: "GRDB", package: "GRDB.swift")
            ],
            swiftSettings: strict
        ),
        .target(
            name: "ChirpLogging",
            dependencies: [
                .product(name: "Logging", package: "swift-log")
            ],
            swiftSettings: strict
        ),
        .target(
            name: "ChirpModules",
            swiftSettings: strict
        ),
        // One-way data flow: Store, reducers, effects; and the exhaustive TestStore.
        .target(
            name: "ChirpStore",
            swiftSettings: strict
        ),
        .target(
            name: "ChirpStoreTesting",
            dependencies: ["ChirpStore"],
            swiftSettings: strict
        ),
        // The data center sits above networking and persistence within the kit.
        .target(
            name: "ChirpDataCenter",
            dependencies: ["ChirpNetworking", "ChirpPersistence"],
            swiftSettings: strict
        ),
        // Web Push (RFC 8030, 8291, 8292): the VAPID key and token, the aes128gcm payload, one
        // delivery and its outcome, the retry policy. App-agnostic; the server uses it.
        .target(
            name: "ChirpPush",
            dependencies: [
                "ChirpNetworking",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),

        // MARK: shared
        .target(
            name: "ChirpModels",
            swiftSettings: strict
        ),
        // Encrypted conversations (issue 55, docs/encryption.md): device keys and their file,
        // envelopes sealed, opened and reported, attachments, safety numbers. The server (key
        // signatures, reports) and the client kit both use it, so it imports neither.
        .target(
            name: "ChirpEncryption",
            dependencies: [
                "ChirpModels",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strict
        ),

        // MARK: server
        // A VFS shim, in C because SQLite's VFS is a C table of function pointers: one write
        // per transaction to the write-ahead log instead of two per page.
        .target(
            name: "CSQLiteWALBuffer",
            linkerSettings: [.linkedLibrary("sqlite3")]
        ),
        // The browser client's files (`web/`: ES modules, no build step), which ChirpServer serves.
        .target(
            name: "ChirpWebClient",
            resources: [.copy("web")],
            swiftSettings: strict
        ),
        .target(
            name: "ChirpServer",
            dependencies: [
                "ChirpModels",
                "CSQLiteWALBuffer",
                "ChirpWebClient",
                "ChirpPush",
                "ChirpEncryption",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "GRDB", package: "GRDB.swift"),
                // SQLite's C API, for `ColumnCursor`'s reads by position (the module GRDB links).
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "CompressNIO", package: "compress-nio"),
            ],
            resources: [.copy("Resources/openapi.yaml")],
            swiftSettings: strict
        ),

        // MARK: client
        // (ChirpClient holds the API layer for now; its local store, outbox and sync engine,
        // and ChirpTerminal, arrive with the client and terminal-app issues.)
        .target(
            name: "ChirpClient",
            dependencies: [
                "ChirpModels", "ChirpNetworking", "ChirpPersistence", "ChirpDataCenter", "ChirpLogging", "ChirpModules",
                "ChirpEncryption",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
            ],
            swiftSettings: strict
        ),

        .target(
            name: "ChirpTerminal",
            dependencies: ["ChirpClient", "ChirpModels", "ChirpNetworking", "ChirpModules", "ChirpStore"],
            swiftSettings: strict
        ),

        // MARK: app
        // What the commands and the bench share: their output, their failure, a server in this
        // process (`package` access: for the targets below only).
        .target(
            name: "ChirpCommandSupport",
            dependencies: [
                "ChirpServer",
                "ChirpModels",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // `chirp bench`: measurements that report figures. Only `chirp` depends on it.
        .target(
            name: "ChirpBench",
            dependencies: [
                "ChirpCommandSupport",
                "ChirpServer",
                "ChirpClient",
                "ChirpTerminal",
                "ChirpModels",
                "ChirpNetworking",
                "ChirpPersistence",
                "ChirpLogging",
                "ChirpModules",
                "ChirpStore",
                "ChirpPushTesting",
                "ChirpEncryption",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "chirp",
            dependencies: [
                "ChirpBench",
                "ChirpCommandSupport",
                "ChirpServer",
                "ChirpClient",
                "ChirpTerminal",
                "ChirpModels",
                "ChirpNetworking",
                "ChirpLogging",
                "ChirpModules",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
            ],
            swiftSettings: strict
        ),

        // MARK: tests
        // Before any test runs and between fork and exec, in C: the run's own temporary
        // directory (TMPDIR, removed at exit) and a spawner whose children die with the tests.
        .target(name: "CChirpTestRun"),
        .target(
            name: "ChirpTestSupport",
            dependencies: [
                "CChirpTestRun"
            ],
            path: "Sources/ChirpTestSupport"
        ),
        // A push service for tests (RFC 8030 on 127.0.0.1): apart from ChirpTestSupport, which
        // the client and terminal tests use and which depends on nothing but the C runner.
        .target(
            name: "ChirpPushTesting",
            dependencies: [
                "ChirpPush",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "ChirpPushTests",
            dependencies: [
                "ChirpNetworking",
                "ChirpPush",
                "ChirpPushTesting",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "JWTKit", package: "jwt-kit"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "ChirpEncryptionTests",
            dependencies: [
                "ChirpEncryption",
                "ChirpModels",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            resources: [.copy("Fixtures")],
            swiftSettings: strict
        ),
        .testTarget(
            name: "ChirpNetworkingTests",
            dependencies: ["ChirpNetworking"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "ChirpPersistenceTests",
            dependencies: ["ChirpPersistence"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "ChirpDataCenterTests",
            dependencies: ["ChirpDataCenter", "ChirpNetworking", "ChirpPersistence"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "ChirpClientTests",
            dependencies: [
                "ChirpClient", "ChirpModels", "ChirpNetworking", "ChirpPersistence", "ChirpLogging", "ChirpModules",
                "ChirpTestSupport",
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "ChirpLoggingTests",
            dependencies: ["ChirpLogging", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),
        .testTarget(
            name: "ChirpTerminalTests",
            dependencies: [
                "ChirpTerminal", "ChirpStore", "ChirpStoreTesting", "ChirpClient", "ChirpModels", "ChirpTestSupport",
            ],
            exclude: ["Frames"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "ChirpStoreTests",
            dependencies: ["ChirpStore", "ChirpStoreTesting"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "ChirpModulesTests",
            dependencies: ["ChirpModules"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "ChirpModelsTests",
            dependencies: ["ChirpModels"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "ChirpBenchTests",
            dependencies: [
                "ChirpBench",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "ChirpServerTests",
            dependencies: [
                "ChirpServer",
                "ChirpModels",
                "ChirpTestSupport",
                "CChirpTestRun",
                "ChirpPush",
                "ChirpPushTesting",
                "ChirpEncryption",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
    ]
)
