import ChirpTestSupport

extension ServerProcess {
    /// An API harness for this process.
    var api: APIHarness { APIHarness(port: port) }
}
