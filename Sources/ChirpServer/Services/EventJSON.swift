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
    /// Appended into one string of the right size: a chain of `+` copied the growing text
    /// (the message's JSON) once per part, for every event delivered.
    static func json(_ event: StoredEvent, live: Bool) -> String {
        var out = #"{"seq":"#
        out.reserveCapacity(event.json.utf8.count + event.type.utf8.count + 80)
        out += live ? "null" : String(event.seq)
        out += #","type":""#
        out += event.type
        out += #"","createdAt":""#
        out += event.createdAt.rfc3339
        out += #"","data":"#
        out += event.json
        out += "}"
        return out
    }
}
