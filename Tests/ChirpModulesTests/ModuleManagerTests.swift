import ChirpModules
import Foundation
import Testing

protocol GreetingService: Sendable { func greet(_ name: String) -> String }
protocol CounterService: Sendable { func next() -> Int }

extension ModuleIdentifier {
    static let greeter: ModuleIdentifier = "greeter"
    static let counter: ModuleIdentifier = "counter"
    static let echo: ModuleIdentifier = "echo"
}

final class GreeterModule: Module, GreetingService {
    static let identifier: ModuleIdentifier = .greeter
    func greet(_ name: String) -> String { "hello, \(name)" }
    func moduleDidLoad(_ context: ModuleContext) {
        try? context.router.register("app://greet/:name") { match in
            // Resolved through the manager, never imported: modules stay side by side.
            let counter = try context.manager.resolve(.counter, as: (any CounterService).self)
            return "\(self.greet(match["name"]!)) #\(counter.next())"
        }
    }
}

final class CounterModule: Module, CounterService {
    static let identifier: ModuleIdentifier = .counter
    private let value = NSLock()
    nonisolated(unsafe) private var current = 0
    func next() -> Int {
        value.withLock {
            current += 1
            return current
        }
    }
}

final class EchoModule: Module {
    static let identifier: ModuleIdentifier = .echo
}

@Suite("Module manager")
struct ModuleManagerTests {
    func manager() throws -> ModuleManager {
        let manager = ModuleManager()
        try manager.register(GreeterModule.self)
        try manager.register(CounterModule.self)
        try manager.register(EchoModule.self)
        return manager
    }

    @Test func modulesLoadResolveAndRegisterRoutes() async throws {
        let manager = try manager()
        #expect(throws: ModuleError.notLoaded) { try manager.resolve(.greeter, as: (any GreetingService).self) }
        let router = Router()
        #expect(try manager.loadModules(router: router) == [.greeter, .counter, .echo])
        #expect(try manager.resolve(.greeter, as: (any GreetingService).self).greet("bob") == "hello, bob")
        #expect(try await router.open(URL(string: "app://greet/alice")!) as? String == "hello, alice #1")
        #expect(throws: ModuleError.typeMismatch(.echo, expected: "GreetingService")) {
            try manager.resolve(.echo, as: (any GreetingService).self)
        }
        #expect(throws: ModuleError.unknownModule("nope")) {
            try manager.resolve("nope", as: (any GreetingService).self)
        }
        #expect(throws: ModuleError.duplicateIdentifier(.echo)) { try manager.register(EchoModule.self) }
        #expect(manager.loadedModules == [.greeter, .counter, .echo])
    }

    @Test func aJSONConfigurationOrdersAndDisables() throws {
        let manager = try manager()
        let json =
            #"{"modules": [{"id": "echo"}, {"id": "counter", "enabled": false}, {"id": "greeter", "enabled": true}]}"#
        let configuration = try ModuleConfiguration(json: Data(json.utf8))
        #expect(try manager.loadModules(configuration: configuration, router: Router()) == [.echo, .greeter])
        #expect(throws: ModuleError.disabled(.counter)) { try manager.resolve(.counter, as: (any CounterService).self) }
        let partial = try self.manager()
        #expect(
            try partial.loadModules(
                configuration: ModuleConfiguration(modules: [.init(id: .counter)]), router: Router()) == [
                    .counter, .greeter, .echo,
                ])
    }

    @Test func badConfigurationsAreClearErrors() throws {
        #expect(throws: ModuleError.self) { try ModuleConfiguration(json: Data("{".utf8)) }
        #expect(throws: ModuleError.self) {
            try ModuleConfiguration(contentsOf: URL(fileURLWithPath: "/nonexistent/modules.json"))
        }
        let unknown = try ModuleConfiguration(json: Data(#"{"modules": [{"id": "ghost"}]}"#.utf8))
        #expect(throws: ModuleError.unknownInConfiguration("ghost")) {
            try manager().loadModules(configuration: unknown, router: Router())
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("modules-\(UUID().uuidString).json")
        try Data(#"{"modules": [{"id": "echo", "enabled": false}]}"#.utf8).write(to: file)
        #expect(try ModuleConfiguration(contentsOf: file).modules == [.init(id: .echo, enabled: false)])
        let errors: [ModuleError] = [
            .unknownModule("a"), .disabled("a"), .typeMismatch("a", expected: "P"), .duplicateIdentifier("a"),
            .unknownInConfiguration("a"), .invalidConfiguration("x"), .notLoaded, .missingEnvironment("T"),
        ]
        var environment = ModuleEnvironment()
        #expect(throws: ModuleError.missingEnvironment("Int")) { try environment.require(Int.self) }
        environment.set(42)
        #expect(try environment.require(Int.self) == 42 && environment.get(String.self) == nil)
        #expect(Set(errors.map(\.description)).count == errors.count)
        let id: ModuleIdentifier = "abc"
        #expect(id.description == "abc" && ModuleIdentifier(rawValue: "abc") == id)
        #expect(try JSONDecoder().decode(ModuleIdentifier.self, from: JSONEncoder().encode(id)) == id)
    }
}
