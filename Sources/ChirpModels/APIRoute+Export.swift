/// The data export (issue 39): a user prepares an archive of their data, then downloads it.
extension APIRoute {
    public static let prepareExport = APIRoute(.post, "/v1/me/export")
    public static let downloadExport = APIRoute(.get, "/v1/me/export")

    /// The export's routes, in `all`.
    public static let export: [APIRoute] = [prepareExport, downloadExport]
}
