import ChirpModels
import NIOCore

/// Events as API.md's Event objects, written by splicing each event's stored JSON data, so
/// serving events never decodes and re-encodes them.
enum EventJSON {
    /// `{"events": [...], "lastSeq": N}`; live-only events have `"seq": null`.
    static func encode(_ batch: EventBatch) -> ByteBuffer {
        var buffer = ByteBuffer()
        buffer.writeString(#"{"events":["#)
        let all =
            (batch.pruned.map { [($0, true)] } ?? []) + batch.events.map { ($0, false) } + batch.live.map { ($0, true) }
        for (index, (event, isLive)) in all.enumerated() {
            if index > 0 { buffer.writeString(",") }
            write(event, live: isLive, into: &buffer)
        }
        buffer.writeString(#"],"lastSeq":"#)
        buffer.writeString(String(batch.lastSeq))
        buffer.writeString("}")
        return buffer
    }

    /// One event as API.md's Event object, written straight into `buffer` (a stream's frame,
    /// a page of events): no string of its own, so the message's JSON is copied once.
    static func write(_ event: StoredEvent, live: Bool, into buffer: inout ByteBuffer) {
        buffer.writeString(#"{"seq":"#)
        buffer.writeString(live ? "null" : String(event.seq))
        buffer.writeString(#","type":""#)
        buffer.writeString(event.type)
        buffer.writeString(#"","createdAt":""#)
        buffer.writeString(event.createdAt.rfc3339)
        buffer.writeString(#"","data":"#)
        buffer.writeString(event.json)
        buffer.writeString("}")
    }

    /// The most `write` adds besides the event's type and JSON: its keys, seq and time (85 bytes).
    static let framing = 96
}
