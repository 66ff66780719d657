/// The follow graph's writes, in SQL both storages run (SQLite reads `$N` as `?N`): a follow's
/// two counters move together whoever makes or ends it (a follow, an unfollow, a block, an
/// account's deletion).
enum FollowSQL {
    /// Moves the counters of user `$1`'s follow of user `$2` by `$3` (1: made; -1: ended).
    static let count = [
        "UPDATE users SET following_count = following_count + $3 WHERE id = $1",
        "UPDATE users SET followers_count = followers_count + $3 WHERE id = $2",
    ]

    /// Account deletion's part in follows, for user `$1`: those it followed lose a follower,
    /// those following it lose a followee, then its follows both ways go.
    static let deleteAccount = [
        "UPDATE users SET followers_count = followers_count - 1 WHERE id IN (SELECT followee_id FROM follows WHERE follower_id = $1)",
        "UPDATE users SET following_count = following_count - 1 WHERE id IN (SELECT follower_id FROM follows WHERE followee_id = $1)",
        "DELETE FROM follows WHERE follower_id = $1 OR followee_id = $1",
    ]
}
