//! The batch frame: how the events of one append are laid out in one stored record.
//!
//! One append is one JetStream message (or one redb row), so it is atomic by construction. Its
//! body is:
//!
//! ```text
//! u8  version (1)
//! u32 event count
//! per event:
//!   u16 type length, type (UTF-8)
//!   u16 header count, per header: u16 name length, name, u32 value length, value
//!   u32 payload length, payload
//! ```
//!
//! All integers little-endian. Decoding slices payloads out of the body without copying.

use bytes::{BufMut, Bytes, BytesMut};

use crate::{Corrupt, Headers, InvalidAppend, MAX_BATCH_EVENTS, NewEvent};

const VERSION: u8 = 1;

/// One event as framed: everything the caller gave, nothing the log adds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct FramedEvent {
    pub event_type: String,
    pub headers: Headers,
    pub payload: Bytes,
}

/// Frames a batch, refusing empty, too long or too large ones (`max_bytes` is the limit of
/// the encoded frame).
pub(crate) fn encode(events: &[NewEvent], max_bytes: usize) -> Result<Bytes, InvalidAppend> {
    if events.is_empty() {
        return Err(InvalidAppend::Empty);
    }
    if events.len() > MAX_BATCH_EVENTS {
        return Err(InvalidAppend::TooManyEvents(events.len()));
    }
    let size = encoded_len(events);
    if size > max_bytes {
        return Err(InvalidAppend::TooLarge { bytes: size, max: max_bytes });
    }
    let mut out = BytesMut::with_capacity(size);
    out.put_u8(VERSION);
    out.put_u32_le(events.len() as u32);
    for event in events {
        put_u16_str(&mut out, &event.event_type)?;
        let count = u16::try_from(event.headers.len()).map_err(|_| InvalidAppend::FieldTooLong)?;
        out.put_u16_le(count);
        for (name, value) in event.headers.iter() {
            put_u16_str(&mut out, name)?;
            let len = u32::try_from(value.len()).map_err(|_| InvalidAppend::FieldTooLong)?;
            out.put_u32_le(len);
            out.put_slice(value.as_bytes());
        }
        out.put_u32_le(event.payload.len() as u32);
        out.put_slice(&event.payload);
    }
    Ok(out.freeze())
}

fn encoded_len(events: &[NewEvent]) -> usize {
    5 + events
        .iter()
        .map(|e| {
            2 + e.event_type.len()
                + 2
                + e.headers.iter().map(|(n, v)| 2 + n.len() + 4 + v.len()).sum::<usize>()
                + 4
                + e.payload.len()
        })
        .sum::<usize>()
}

fn put_u16_str(out: &mut BytesMut, text: &str) -> Result<(), InvalidAppend> {
    let len = u16::try_from(text.len()).map_err(|_| InvalidAppend::FieldTooLong)?;
    out.put_u16_le(len);
    out.put_slice(text.as_bytes());
    Ok(())
}

/// Unframes a batch.
/// Where a stored batch sits: what both backends know of a frame besides its bytes.
pub(crate) struct Batch<'a> {
    pub(crate) kind: crate::AggregateKind,
    pub(crate) id: &'a crate::AggregateId,
    pub(crate) command: &'a crate::CommandId,
    /// The sequence of its first event in the aggregate.
    pub(crate) first: u64,
    /// How many events the batch says it holds.
    pub(crate) count: u64,
    /// The batch's position in the log (its events are at `Position::of(batch, index)`).
    pub(crate) position: u64,
    pub(crate) timestamp_ms: i64,
}

/// The recorded events of a stored batch: its frame decoded, checked against the count it was
/// stored with, and each event placed at its sequence and position.
pub(crate) fn expand(batch: &Batch<'_>, body: &Bytes) -> Result<Vec<crate::RecordedEvent>, Corrupt> {
    let framed = decode(body)?;
    if framed.len() as u64 != batch.count {
        return Err(Corrupt("event count disagrees with the frame"));
    }
    Ok(framed
        .into_iter()
        .enumerate()
        .map(|(index, event)| crate::RecordedEvent {
            kind: batch.kind,
            aggregate_id: batch.id.clone(),
            sequence: batch.first + index as u64,
            position: crate::Position::of(batch.position, index),
            timestamp_ms: batch.timestamp_ms,
            command_id: batch.command.clone(),
            event_type: event.event_type,
            payload: event.payload,
            headers: event.headers,
        })
        .collect())
}

pub(crate) fn decode(body: &Bytes) -> Result<Vec<FramedEvent>, Corrupt> {
    let mut reader = Reader { body, at: 0 };
    if reader.u8()? != VERSION {
        return Err(Corrupt("unknown frame version"));
    }
    let count = reader.u32()? as usize;
    if count == 0 || count > MAX_BATCH_EVENTS {
        return Err(Corrupt("bad event count"));
    }
    let mut events = Vec::with_capacity(count);
    for _ in 0..count {
        let len = reader.u16()? as usize;
        let event_type = reader.string(len)?;
        let header_count = reader.u16()?;
        let mut headers = Headers::new();
        for _ in 0..header_count {
            let len = reader.u16()? as usize;
            let name = reader.string(len)?;
            let len = reader.u32()? as usize;
            let value = reader.string(len)?;
            headers.insert(name, value);
        }
        let len = reader.u32()? as usize;
        let payload = reader.bytes(len)?;
        events.push(FramedEvent { event_type, headers, payload });
    }
    if reader.at != body.len() {
        return Err(Corrupt("trailing bytes after the last event"));
    }
    Ok(events)
}

struct Reader<'a> {
    body: &'a Bytes,
    at: usize,
}

impl Reader<'_> {
    fn take(&mut self, len: usize) -> Result<&[u8], Corrupt> {
        let end = self.at.checked_add(len).filter(|end| *end <= self.body.len()).ok_or(Corrupt("frame truncated"))?;
        let slice = &self.body[self.at..end];
        self.at = end;
        Ok(slice)
    }

    fn u8(&mut self) -> Result<u8, Corrupt> {
        Ok(self.take(1)?[0])
    }

    fn u16(&mut self) -> Result<u16, Corrupt> {
        Ok(u16::from_le_bytes(self.take(2)?.try_into().expect("2 bytes")))
    }

    fn u32(&mut self) -> Result<u32, Corrupt> {
        Ok(u32::from_le_bytes(self.take(4)?.try_into().expect("4 bytes")))
    }

    fn string(&mut self, len: usize) -> Result<String, Corrupt> {
        String::from_utf8(self.take(len)?.to_vec()).map_err(|_| Corrupt("text is not UTF-8"))
    }

    fn bytes(&mut self, len: usize) -> Result<Bytes, Corrupt> {
        let start = self.at;
        self.take(len)?;
        Ok(self.body.slice(start..start + len))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn event() -> impl Strategy<Value = NewEvent> {
        (
            "[a-zA-Z.]{0,40}",
            proptest::collection::vec(("[a-z-]{1,12}", ".{0,30}"), 0..3),
            proptest::collection::vec(any::<u8>(), 0..200),
        )
            .prop_map(|(event_type, headers, payload)| NewEvent {
                event_type,
                headers: headers.into_iter().collect(),
                payload: payload.into(),
            })
    }

    proptest! {
        #[test]
        fn frames_round_trip(events in proptest::collection::vec(event(), 1..8)) {
            let body = encode(&events, usize::MAX).unwrap();
            let decoded = decode(&body).unwrap();
            prop_assert_eq!(decoded.len(), events.len());
            for (framed, original) in decoded.iter().zip(&events) {
                prop_assert_eq!(&framed.event_type, &original.event_type);
                prop_assert_eq!(&framed.headers, &original.headers);
                prop_assert_eq!(&framed.payload, &original.payload);
            }
        }

        #[test]
        fn every_truncation_is_corrupt_not_a_panic(events in proptest::collection::vec(event(), 1..4), cut in 0usize..1000) {
            let body = encode(&events, usize::MAX).unwrap();
            let cut = cut % body.len();
            prop_assert!(decode(&body.slice(..cut)).is_err());
        }
    }

    #[test]
    fn invalid_batches_are_refused() {
        let one = NewEvent::new("t", vec![0u8; 100]);
        assert_eq!(encode(&[], 1000), Err(InvalidAppend::Empty));
        assert!(matches!(encode(std::slice::from_ref(&one), 50), Err(InvalidAppend::TooLarge { max: 50, .. })));
        let many = vec![NewEvent::new("t", Bytes::new()); MAX_BATCH_EVENTS + 1];
        assert_eq!(encode(&many, usize::MAX), Err(InvalidAppend::TooManyEvents(MAX_BATCH_EVENTS + 1)));
        let long_type = NewEvent::new("x".repeat(70_000), Bytes::new());
        assert_eq!(encode(&[long_type], usize::MAX), Err(InvalidAppend::FieldTooLong));
    }

    #[test]
    fn the_encoded_length_is_exact() {
        let events = vec![
            NewEvent::new("weiqi.v1.StonePlayed", vec![1u8, 2, 3]).with_header("traceparent", "00-ab"),
            NewEvent::new("weiqi.v1.Passed", Bytes::new()),
        ];
        assert_eq!(encode(&events, usize::MAX).unwrap().len(), encoded_len(&events));
    }
}
