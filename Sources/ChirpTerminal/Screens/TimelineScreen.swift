/// The timeline: newest tweets first, with a notice when new ones arrived.
enum TimelineScreen {
    static func draw(_ state: AppState, in rows: Range<Int>, on canvas: inout Canvas) {
        let theme = canvas.theme
        canvas.text("Timeline", x: 1, y: rows.lowerBound, style: theme.title)
        if state.newTweets > 0 {
            let notice = " \(state.newTweets) new tweet\(state.newTweets == 1 ? "" : "s") · press r "
            canvas.text(notice, x: canvas.width - TextWidth.of(notice) - 1, y: rows.lowerBound, style: theme.notice)
        }
        guard !state.tweets.isEmpty else {
            canvas.text(
                state.busySince == nil
                    ? "Nothing here yet: follow someone (chirp follow USER), or press c to tweet." : "Loading…",
                x: 1, y: rows.lowerBound + 2, style: theme.muted)
            return
        }
        var y = rows.lowerBound + 2
        for tweet in state.tweets.dropFirst(state.timelineScroll) {
            guard y < rows.upperBound else { break }
            var x = canvas.frame.draw("@" + tweet.author, x: 1, y: y, style: theme.accent)
            x = canvas.frame.draw(" · " + Canvas.clock(tweet.createdAt), x: x, y: y, style: theme.muted)
            y += 1
            for line in Canvas.wrap(tweet.text, width: canvas.width - 4) {
                guard y < rows.upperBound else { break }
                canvas.text(line, x: 3, y: y)
                y += 1
            }
            y += 1
        }
    }
}
