//! The one place that knows how Muster turns values into bytes.
//!
//! Everything on the wire, in the match log and in the database goes through
//! [`encode`] and [`decode`], so swapping bincode for another format is a
//! change to this file only. bincode is pinned to `=2.0.1`: 3.0.0 on the
//! registry is a deliberate `compile_error!`.
//!
//! Decoding is always bounded. Input longer than the caller's limit is
//! refused outright. Inside a message, byte payloads (`serde_bytes`) and
//! strings have their claimed length checked by bincode against a budget
//! *before* anything is allocated; sequences of structs go through serde,
//! whose "cautious" size hint caps the up-front reservation at 1 MiB, and
//! fail as soon as the input runs out. `shared/tests/decode_alloc.rs`
//! measures both. [`read_frame`] refuses an oversized length prefix from
//! the header alone.

use serde::{Serialize, de::DeserializeOwned};
use std::io::{self, Read, Write};

/// Largest message a client may send (actions, chat, sign-in).
pub const MAX_CLIENT_MSG: usize = 64 * 1024;
/// Largest message the server may send (snapshots carry whole states).
pub const MAX_SERVER_MSG: usize = 8 * 1024 * 1024;
/// Largest match log file the verifier will read.
pub const MAX_LOG_FILE: usize = 256 * 1024 * 1024;

/// Why a byte string could not be decoded.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum DecodeError {
    #[error("message of {len} bytes exceeds the {limit}-byte limit")]
    TooLarge { len: usize, limit: usize },
    #[error("malformed message: {0}")]
    Malformed(String),
    #[error("{0} unread bytes after the message")]
    TrailingBytes(usize),
}

/// Why a value could not be encoded (only possible for values with
/// serde impls that refuse, e.g. maps with non-string keys in some formats).
#[derive(Debug, thiserror::Error)]
#[error("cannot encode: {0}")]
pub struct EncodeError(String);

fn config() -> bincode::config::Configuration {
    bincode::config::standard()
}

/// Encode a value with Muster's codec.
pub fn encode<T: Serialize + ?Sized>(value: &T) -> Result<Vec<u8>, EncodeError> {
    // Most messages are small; one up-front allocation beats growing.
    let mut out = Vec::with_capacity(256);
    bincode::serde::encode_into_std_write(value, &mut out, config())
        .map_err(|e| EncodeError(e.to_string()))?;
    Ok(out)
}

/// Encode a value whose serde impl is derived and therefore cannot fail.
///
/// Every Muster type is a plain derive (no maps keyed by structs, no
/// `deserialize_any`), for which bincode's encoder has no failure path.
pub fn encode_infallible<T: Serialize + ?Sized>(value: &T) -> Vec<u8> {
    encode(value).expect("derived serde types always encode with bincode")
}

/// Decode a value, refusing input longer than `limit` and any trailing bytes.
pub fn decode<T: DeserializeOwned>(bytes: &[u8], limit: usize) -> Result<T, DecodeError> {
    if bytes.len() > limit {
        return Err(DecodeError::TooLarge {
            len: bytes.len(),
            limit,
        });
    }
    // bincode counts bytes read plus the length of every string and byte
    // string it is told to allocate (serde sequences are not claimed: serde
    // caps their reservation at 1 MiB), and refuses before allocating once
    // the total would pass its (compile-time) limit. The limit follows the
    // size of the input, not the caller's ceiling: a string can be no
    // longer than the input holding it, so an 8-byte message claiming a
    // 24 MB name is refused before the 24 MB are reserved (it used to pass
    // under a server message's 128 MiB budget; found by the `server_msg`
    // fuzz target). Small inputs keep the client tier's 1 MiB; larger ones
    // get twice their tier, tiers a factor of 4 apart.
    let (value, used) = decode_counted(bytes)?;
    if used != bytes.len() {
        return Err(DecodeError::TrailingBytes(bytes.len() - used));
    }
    Ok(value)
}

/// Decode a value from the start of `bytes` (bounded as [`decode`]), and
/// how many bytes it took: for reading one field of an older stored
/// layout and keeping the rest as it is (the club schema's steps).
pub fn decode_prefix<T: DeserializeOwned>(
    bytes: &[u8],
    limit: usize,
) -> Result<(T, usize), DecodeError> {
    if bytes.len() > limit {
        return Err(DecodeError::TooLarge {
            len: bytes.len(),
            limit,
        });
    }
    decode_counted(bytes)
}

fn decode_counted<T: DeserializeOwned>(bytes: &[u8]) -> Result<(T, usize), DecodeError> {
    Ok(match bytes.len() {
        n if n <= MAX_CLIENT_MSG => decode_with::<T, { 16 * MAX_CLIENT_MSG }>(bytes)?,
        n if n <= 256 << 10 => decode_with::<T, { 2 * (256 << 10) }>(bytes)?,
        n if n <= 1 << 20 => decode_with::<T, { 2 * (1 << 20) }>(bytes)?,
        n if n <= 4 << 20 => decode_with::<T, { 2 * (4 << 20) }>(bytes)?,
        n if n <= 16 << 20 => decode_with::<T, { 2 * (16 << 20) }>(bytes)?,
        n if n <= 64 << 20 => decode_with::<T, { 2 * (64 << 20) }>(bytes)?,
        _ => decode_with::<T, { 2 * MAX_LOG_FILE }>(bytes)?,
    })
}

fn decode_with<T: DeserializeOwned, const ALLOC: usize>(
    bytes: &[u8],
) -> Result<(T, usize), DecodeError> {
    // The borrowing decoder hands byte strings and strings to serde as
    // slices of the input: no temporary buffer per field, and nothing can
    // be longer than the input itself.
    bincode::serde::borrow_decode_from_slice::<T, _>(bytes, config().with_limit::<ALLOC>())
        .map_err(|e| DecodeError::Malformed(e.to_string()))
}

/// Length-prefixed framing for byte streams (QUIC streams, log files):
/// a 4-byte big-endian length, then that many bytes of one encoded message.
pub const FRAME_HEADER: usize = 4;

/// Write one frame: the length prefix then the payload.
pub fn write_frame(out: &mut impl Write, payload: &[u8]) -> io::Result<()> {
    let len = u32::try_from(payload.len())
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "frame over 4 GiB"))?;
    out.write_all(&len.to_be_bytes())?;
    out.write_all(payload)
}

/// Prefix a payload with its frame header, for async writers that want one buffer.
pub fn frame(payload: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(FRAME_HEADER + payload.len());
    write_frame(&mut out, payload).expect("writing to a Vec cannot fail");
    out
}

/// Parse a frame header and refuse lengths above `limit` before any allocation.
pub fn frame_len(header: [u8; FRAME_HEADER], limit: usize) -> Result<usize, DecodeError> {
    let len = u32::from_be_bytes(header) as usize;
    if len > limit {
        return Err(DecodeError::TooLarge { len, limit });
    }
    Ok(len)
}

/// Read one frame. `Ok(None)` at a clean end of stream (no bytes of a new frame).
pub fn read_frame(input: &mut impl Read, limit: usize) -> io::Result<Option<Vec<u8>>> {
    let mut header = [0u8; FRAME_HEADER];
    let mut got = 0;
    while got < FRAME_HEADER {
        match input.read(&mut header[got..])? {
            0 if got == 0 => return Ok(None),
            0 => return Err(io::ErrorKind::UnexpectedEof.into()),
            n => got += n,
        }
    }
    let len =
        frame_len(header, limit).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))?;
    let mut payload = vec![0u8; len];
    input.read_exact(&mut payload)?;
    Ok(Some(payload))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn oversized_frame_prefix_is_refused_before_allocation() {
        // Claims 4 GiB - 1; the reader must refuse from the header alone.
        let mut input: &[u8] = &[0xff, 0xff, 0xff, 0xff, 1, 2, 3];
        let err = read_frame(&mut input, MAX_CLIENT_MSG).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::InvalidData);
    }

    #[test]
    fn oversized_vec_length_is_an_error() {
        // A Vec<u64> claiming u32::MAX elements in 5 bytes of input: bincode's
        // varint for u32::MAX is 0xfc followed by 4 bytes.
        let bytes = [0xfc, 0xff, 0xff, 0xff, 0xff];
        let err = decode::<Vec<u64>>(&bytes, MAX_CLIENT_MSG).unwrap_err();
        assert!(matches!(err, DecodeError::Malformed(_)), "{err:?}");
    }

    #[test]
    fn trailing_bytes_are_an_error() {
        let mut bytes = encode_infallible(&7u32);
        bytes.push(0);
        assert_eq!(
            decode::<u32>(&bytes, 16),
            Err(DecodeError::TrailingBytes(1))
        );
    }

    #[test]
    fn frames_round_trip() {
        let mut buf = Vec::new();
        write_frame(&mut buf, b"hello").unwrap();
        write_frame(&mut buf, b"").unwrap();
        let mut input: &[u8] = &buf;
        assert_eq!(read_frame(&mut input, 16).unwrap().unwrap(), b"hello");
        assert_eq!(read_frame(&mut input, 16).unwrap().unwrap(), b"");
        assert_eq!(read_frame(&mut input, 16).unwrap(), None);
    }
}
