import Foundation
import Hummingbird

/// Bench only (`chirp serve --bench-static-file PATH`, hidden): `GET /bench/static` serves the
/// file as it is and `PUT /bench/static` writes the body to a file beside it, with no database
/// and no checks, as the baseline `chirp bench media` compares the media routes with.
struct BenchFileRoutes {
    let file: URL

    func register(on router: Router<ChirpRequestContext>) {
        let fileIO = FileIO()
        let path = file.path
        router.get("/bench/static") { _, context in
            Response(status: .ok, body: try await fileIO.loadFile(path: path, context: context))
        }
        router.put("/bench/static") { request, context in
            try await fileIO.writeFile(contents: request.body, path: path + ".upload", context: context)
            return Response(status: .created)
        }
    }
}
