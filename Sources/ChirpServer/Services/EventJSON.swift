import ChirpModels
import NIOCore

/// Events as API.md's Event objects, written by splicing each event's stored JSON data, so
/// serving events never decodes and re-encodes them.
enum EventJSON {
    /// `{"events": [...], "lastSeq": N}`; live-only events have `"seq": null`.
    static func encode(_ batch: EventBatch) -> ByteBuffer {
        var buffer = ByteBuffer()
        buffer.writeString(#"{"events":["#)
        let all = batch.events.map { ($0, false) } + batch.live.map { ($0, true) }
        for (index, (event, isLive)) in all.enumerated() {
            if index > 0 { buffer.writeString(",") }
            buffer.writeString(json(event, live: isLive))
        }
        buffer.writeString(#"],"lastSeq":"#)
        buffer.writeString(String(batch.lastSeq))
        buffer.writeString("}")
        return buffer
    }

    /// One event as API.md's Event object; live-only events have `"seq": null`.
    static func json(_ event: StoredEvent, live: Bool) -> String {
        #"{"seq":"# + (live ? "null" : String(event.seq)) + #","type":""# + event.type
            + #"","createdAt":""# + event.createdAt.rfc3339 + #"","data":"# + event.json + "}"
    }
}
