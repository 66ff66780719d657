import ChirpModels
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// Health, Prometheus metrics and the OpenAPI document.
struct OperationsRoutes {
    let services: ServerServices

    /// The OpenAPI document shipped with the server, loaded once.
    static let openAPIDocument: ByteBuffer = {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "yaml"),
            let data = try? Data(contentsOf: url)
        else { return ByteBuffer(string: "openapi: 3.1.0\n") }
        return ByteBuffer(bytes: data)
    }()

    func register(on router: Router<ChirpRequestContext>) {
        router.add(.health) { _, _ in
            try JSONResponse.make(HealthStatus(status: "ok"))
        }
        router.add(.metrics) { _, _ in
            var headers = HTTPFields()
            headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
            return Response(
                status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: services.metrics.exposition()))
            )
        }
        router.add(.openAPI) { _, _ in
            var headers = HTTPFields()
            headers[.contentType] = "application/yaml; charset=utf-8"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: Self.openAPIDocument))
        }
    }
}
