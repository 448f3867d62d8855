//! The text of an instance: read from a file (or standard input), decompressed when it is xz
//! or lzma, within the size and time limits, and refused at once when its first bytes
//! cannot start an XML document.

use std::io::{self, Read, Write};
use std::ops::Range;
use std::path::Path;

use crate::error::{Error, Position, Result};
use crate::limits::{Budget, ReadLimits};

const XZ_MAGIC: &[u8] = &[0xFD, b'7', b'z', b'X', b'Z', 0x00];

/// The bytes of an XCSP3 file (`-`: standard input), decompressed when they are xz or
/// lzma-alone; refused at once when they cannot start an XML document.
pub fn read_bytes(path: &Path, limits: &ReadLimits) -> Result<Vec<u8>> {
    read_source(path, limits, true)
}

/// The text of a file that is not XML (DIMACS), decompressed when it is xz or lzma-alone.
pub(crate) fn read_plain_text(path: &Path, limits: &ReadLimits) -> Result<String> {
    into_text(read_source(path, limits, false)?)
}

fn read_source(path: &Path, limits: &ReadLimits, xml: bool) -> Result<Vec<u8>> {
    let display = path.display().to_string();
    let raw = if path.as_os_str() == "-" {
        read_capped(&mut io::stdin().lock(), &display, limits)?
    } else {
        let mut file = std::fs::File::open(path).map_err(|source| Error::Io {
            path: display.clone(),
            source,
        })?;
        if file.metadata().is_ok_and(|m| m.is_dir()) {
            return Err(Error::Io {
                path: display,
                source: io::Error::new(io::ErrorKind::IsADirectory, "it is a directory"),
            });
        }
        read_capped(&mut file, &display, limits)?
    };
    decompress(raw, &display, limits, xml)
}

/// The text of a file (decompressed when it is xz or lzma-alone).
pub fn read_text(path: &Path, limits: &ReadLimits) -> Result<String> {
    into_text(read_bytes(path, limits)?)
}

/// The bytes as UTF-8 text; an error names the line and column of the first bad byte.
pub(crate) fn into_text(bytes: Vec<u8>) -> Result<String> {
    String::from_utf8(bytes).map_err(|e| {
        let offset = e.utf8_error().valid_up_to();
        let bytes = e.as_bytes();
        let line_start = bytes[..offset]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        let line = bytes[..offset].iter().filter(|&&b| b == b'\n').count() + 1;
        // The prefix is valid UTF-8: count its characters for the column.
        let column = std::str::from_utf8(&bytes[line_start..offset]).map_or(1, |s| s.chars().count() + 1);
        Error::Encoding {
            position: Position {
                line: u32::try_from(line).unwrap_or(u32::MAX),
                column: u32::try_from(column).unwrap_or(u32::MAX),
            },
            offset,
        }
    })
}

/// Reads everything from `input`, at most `limits.max_input` bytes, checking the time
/// limit between chunks.
fn read_capped(input: &mut impl Read, path: &str, limits: &ReadLimits) -> Result<Vec<u8>> {
    let mut sink = Sink::new(path, limits, false);
    let mut chunk = vec![0u8; 1 << 20];
    loop {
        let n = match input.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(source) => {
                return Err(Error::Io {
                    path: path.to_string(),
                    source,
                });
            }
        };
        if sink.write_all(&chunk[..n]).is_err() {
            return Err(sink.failure());
        }
    }
    Ok(sink.out)
}

/// Where decompressed bytes go: capped at the input limit, checking the time limit as it
/// fills, and checking that the first bytes can start XML.
struct Sink<'l> {
    out: Vec<u8>,
    path: String,
    budget: Budget<'l>,
    /// Whether to look at the first bytes (decompressed output; a raw file is looked at
    /// after its format is known).
    sniff: bool,
    failure: Option<Error>,
}

impl<'l> Sink<'l> {
    fn new(path: &str, limits: &'l ReadLimits, sniff: bool) -> Sink<'l> {
        Sink {
            out: Vec::new(),
            path: path.to_string(),
            budget: Budget::new(limits),
            sniff,
            failure: None,
        }
    }

    fn failure(&mut self) -> Error {
        self.failure.take().unwrap_or_else(|| Error::Io {
            path: self.path.clone(),
            source: io::Error::other("the input could not be stored"),
        })
    }

    fn fail(&mut self, error: Error) -> io::Error {
        self.failure = Some(error);
        io::Error::other("stopped")
    }
}

impl Write for Sink<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let max = self.budget.limits().max_input;
        if self.out.len() as u64 + buf.len() as u64 > max {
            let error = Error::TooLarge {
                path: self.path.clone(),
                limit: max,
            };
            return Err(self.fail(error));
        }
        if let Err(e) = self.budget.steps(buf.len() / 1024 + 1) {
            return Err(self.fail(e));
        }
        let needed = self.out.len() + buf.len();
        if needed > self.out.capacity() {
            // Doubling, but never past the limit: memory stays within it.
            let want = (self.out.capacity() * 2).max(needed).min(max as usize);
            self.out.reserve_exact(want - self.out.len());
        }
        self.out.extend_from_slice(buf);
        if self.sniff && first_content(&self.out).is_some() {
            self.sniff = false;
            if let Err(e) = check_xml_start(&self.out, &self.path) {
                return Err(self.fail(e));
            }
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The first byte that is not a byte-order mark or whitespace, if there is one yet.
fn first_content(bytes: &[u8]) -> Option<u8> {
    let bytes = bytes.strip_prefix(&[0xEF, 0xBB, 0xBF]).unwrap_or(bytes);
    bytes.iter().copied().find(|b| !b.is_ascii_whitespace())
}

/// Refuses text whose first content cannot start an XML document.
fn check_xml_start(bytes: &[u8], path: &str) -> Result<()> {
    match first_content(bytes) {
        None | Some(b'<') => Ok(()),
        Some(b) => {
            let what = if b.is_ascii_graphic() {
                let start = bytes.iter().position(|&c| c == b).unwrap_or(0);
                let shown: String = bytes[start..]
                    .iter()
                    .take(16)
                    .take_while(|c| c.is_ascii_graphic() || **c == b' ')
                    .map(|&c| c as char)
                    .collect();
                format!("it starts with `{shown}`, where an XML document starts with `<`")
            } else {
                format!("it starts with the byte 0x{b:02x}, where an XML document starts with `<`")
            };
            Err(Error::NotXml {
                path: path.to_string(),
                what,
            })
        }
    }
}

/// Decompresses xz (recognised by its magic bytes; concatenated streams too) and
/// lzma-alone (by the `.lzma` name, or by a plausible header when the text does not start
/// like XML); refuses other compressions by name.
fn decompress(raw: Vec<u8>, path: &str, limits: &ReadLimits, xml: bool) -> Result<Vec<u8>> {
    let fail = |format: &'static str, e: lzma_rs::error::Error| Error::Decompress {
        path: path.to_string(),
        format,
        message: e.to_string(),
    };
    if raw.starts_with(XZ_MAGIC) {
        let mut sink = Sink::new(path, limits, xml);
        let whole = std::iter::once(0..raw.len()).collect();
        let streams = xz_streams(&raw).unwrap_or(whole);
        for range in streams {
            let result = lzma_rs::xz_decompress(&mut &raw[range], &mut sink);
            if let Some(e) = sink.failure.take() {
                return Err(e);
            }
            result.map_err(|e| fail("xz", e))?;
        }
        if xml {
            check_xml_start(&sink.out, path)?;
        }
        return Ok(sink.out);
    }
    for (magic, name, tool) in [
        (&[0x1F, 0x8B][..], "gzip", "gunzip"),
        (b"BZh", "bzip2", "bunzip2"),
        (&[0x28, 0xB5, 0x2F, 0xFD], "zstd", "unzstd"),
        (b"PK\x03\x04", "zip", "unzip"),
    ] {
        if raw.starts_with(magic) {
            return Err(Error::NotXml {
                path: path.to_string(),
                what: format!(
                    "it is {name}-compressed; csp reads plain XML, xz and lzma (decompress it with {tool})"
                ),
            });
        }
    }
    let looks_text = raw
        .iter()
        .take(64)
        .all(|&b| b >= 0x80 || b.is_ascii_graphic() || b.is_ascii_whitespace());
    if path.ends_with(".lzma") || (!looks_text && raw.len() > 13 && raw[0] < 225) {
        let mut sink = Sink::new(path, limits, xml);
        let result = lzma_rs::lzma_decompress(&mut raw.as_slice(), &mut sink);
        if let Some(e) = sink.failure.take() {
            return Err(e);
        }
        result.map_err(|e| fail("lzma", e))?;
        if xml {
            check_xml_start(&sink.out, path)?;
        }
        return Ok(sink.out);
    }
    if xml {
        check_xml_start(&raw, path)?;
    }
    Ok(raw)
}

/// The byte ranges of the streams of an xz file, in order, found from its end (as `xz
/// --list` does): each stream ends with a footer that gives the size of its index, and the
/// index gives the size of each block. `None` when the structure does not parse (the
/// decoder then reports what is wrong).
fn xz_streams(raw: &[u8]) -> Option<Vec<Range<usize>>> {
    let mut streams = Vec::new();
    let mut end = raw.len();
    loop {
        // Stream padding: zero bytes, four at a time.
        while end >= 4 && raw[end - 4..end] == [0; 4] {
            end -= 4;
        }
        if end == 0 {
            break;
        }
        let footer = raw.get(end.checked_sub(12)?..end)?;
        if &footer[10..12] != b"YZ" {
            return None;
        }
        let backward = u32::from_le_bytes(footer[4..8].try_into().ok()?);
        let index_size = (usize::try_from(backward).ok()? + 1) * 4;
        let index_start = end.checked_sub(12 + index_size)?;
        let mut at = index_start;
        if *raw.get(at)? != 0 {
            return None;
        }
        at += 1;
        let records = varint(raw, &mut at)?;
        let mut blocks = 0usize;
        for _ in 0..records {
            let unpadded = usize::try_from(varint(raw, &mut at)?).ok()?;
            varint(raw, &mut at)?;
            blocks = blocks.checked_add(unpadded.checked_add(3)? & !3)?;
        }
        let start = index_start.checked_sub(blocks)?.checked_sub(12)?;
        if !raw[start..].starts_with(XZ_MAGIC) {
            return None;
        }
        streams.push(start..end);
        end = start;
    }
    streams.reverse();
    (!streams.is_empty()).then_some(streams)
}

/// An xz variable-length integer (seven bits a byte, low first).
fn varint(raw: &[u8], at: &mut usize) -> Option<u64> {
    let mut value = 0u64;
    for i in 0..9 {
        let b = *raw.get(*at)?;
        *at += 1;
        value |= u64::from(b & 0x7F) << (7 * i);
        if b & 0x80 == 0 {
            return Some(value);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn xz(text: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        lzma_rs::xz_compress(&mut &text[..], &mut out).unwrap();
        out
    }

    #[test]
    fn concatenated_xz_streams_read_as_one_text() {
        let mut raw = xz(b"<instance>");
        raw.extend_from_slice(&[0; 8]);
        raw.extend(xz(b"</instance>"));
        let streams = xz_streams(&raw).unwrap();
        assert_eq!(streams.len(), 2);
        let text = decompress(raw, "m.xml.xz", &ReadLimits::default(), true).unwrap();
        assert_eq!(text, b"<instance></instance>");
    }

    #[test]
    fn the_decompressed_size_is_capped() {
        let raw = xz(&[b' '; 10_000]);
        let limits = ReadLimits {
            max_input: 1000,
            ..ReadLimits::default()
        };
        let err = decompress(raw, "b.xml.xz", &limits, true).unwrap_err();
        assert!(matches!(err, Error::TooLarge { limit: 1000, .. }), "{err}");
    }

    #[test]
    fn first_bytes_that_cannot_start_xml_are_refused() {
        let raw = xz(&[0u8; 100_000]);
        let err = decompress(raw, "z.xml.xz", &ReadLimits::default(), true).unwrap_err();
        assert!(err.to_string().contains("0x00"), "{err}");
        let err = decompress(vec![0x1F, 0x8B, 8, 0], "g.xml.gz", &ReadLimits::default(), true).unwrap_err();
        assert!(err.to_string().contains("gzip"), "{err}");
    }

    #[test]
    fn a_bad_byte_is_placed_by_line_and_column() {
        let err = into_text(b"<a>\n  x\xff</a>".to_vec()).unwrap_err();
        assert_eq!(err.position(), Some(Position { line: 2, column: 4 }));
    }
}
