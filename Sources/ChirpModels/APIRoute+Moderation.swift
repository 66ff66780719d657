/// The operators' routes (issue 39): every one answers 403 `not_operator` to anyone else.
extension APIRoute {
    public static let adminReports = APIRoute(.get, "/v1/admin/reports")
    public static let adminResolveReport = APIRoute(.post, "/v1/admin/reports/{id}/resolve")
    public static let adminSuspend = APIRoute(.put, "/v1/admin/users/{username}/suspension")
    public static let adminUnsuspend = APIRoute(.delete, "/v1/admin/users/{username}/suspension")
    public static let adminRemoveMessage = APIRoute(.delete, "/v1/admin/messages/{messageId}")
    public static let adminStats = APIRoute(.get, "/v1/admin/stats")
    public static let adminAudit = APIRoute(.get, "/v1/admin/audit")

    /// The operators' routes, in `all`.
    public static let moderation: [APIRoute] = [
        adminReports, adminResolveReport, adminSuspend, adminUnsuspend, adminRemoveMessage, adminStats, adminAudit,
    ]
}
