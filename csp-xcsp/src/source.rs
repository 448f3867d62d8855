//! The text of an instance: read from a file (or standard input), decompressed when it is xz
//! or lzma, within the size and time limits, and refused at once when its first bytes
//! cannot start an XML document.

use std::io::{self, Read, Write};
use std::path::Path;
use std::sync::mpsc;
use std::time::Duration;

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
    let io_error = |source| Error::Io {
        path: display.clone(),
        source,
    };
    let raw = if path.as_os_str() == "-" {
        read_waiting(|| Ok(io::stdin()), &display, limits)?
    } else {
        match std::fs::metadata(path).map_err(io_error)? {
            m if m.is_dir() => {
                return Err(io_error(io::Error::new(
                    io::ErrorKind::IsADirectory,
                    "it is a directory",
                )));
            }
            m if m.is_file() => read_capped(
                &mut std::fs::File::open(path).map_err(io_error)?,
                &display,
                limits,
            )?,
            // A FIFO or a device can keep its opening, or a read, waiting for ever.
            _ => {
                let path = path.to_path_buf();
                read_waiting(move || std::fs::File::open(path), &display, limits)?
            }
        }
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
    pump(input, &mut sink, |source| Error::Io {
        path: path.to_string(),
        source,
    })?;
    Ok(sink.out)
}

/// [`read_capped`] for an input whose opening or reads can wait for ever (standard input,
/// a FIFO): a thread of its own opens and reads it and hands the chunks over, so that the time limit and the
/// cancel flag act while nothing arrives. A thread still waiting when a limit is reached is
/// left to end with its input or the process.
fn read_waiting<R: Read>(
    open: impl FnOnce() -> io::Result<R> + Send + 'static,
    path: &str,
    limits: &ReadLimits,
) -> Result<Vec<u8>> {
    let io_error = |source| Error::Io {
        path: path.to_string(),
        source,
    };
    // Two chunks in flight at most: the reader runs ahead by no more than that.
    let (chunks, arrivals) = mpsc::sync_channel::<io::Result<Vec<u8>>>(2);
    std::thread::Builder::new()
        .name("csp-input".into())
        .spawn(move || match open() {
            Ok(input) => forward_chunks(input, &chunks),
            Err(e) => {
                let _ = chunks.send(Err(e));
            }
        })
        .map_err(io_error)?;
    let mut sink = Sink::new(path, limits, false);
    loop {
        limits.check()?;
        match arrivals.recv_timeout(WAIT_SLICE) {
            Ok(Ok(chunk)) if chunk.is_empty() => return Ok(sink.out),
            Ok(Ok(chunk)) => {
                if sink.write_all(&chunk).is_err() {
                    return Err(sink.failure());
                }
            }
            Ok(Err(e)) => return Err(io_error(e)),
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err(io_error(io::Error::other("the reading thread stopped")));
            }
        }
    }
}

/// How long [`read_waiting`] waits for a chunk before it looks at the limits again.
const WAIT_SLICE: Duration = Duration::from_millis(50);

/// Sends `input`'s chunks to `chunks`, then an empty chunk at its end (or the error that
/// ended it); stops when the receiver is gone.
fn forward_chunks(mut input: impl Read, chunks: &mpsc::SyncSender<io::Result<Vec<u8>>>) {
    loop {
        let mut chunk = vec![0u8; 1 << 16];
        match input.read(&mut chunk) {
            Ok(n) => {
                chunk.truncate(n);
                if chunks.send(Ok(chunk)).is_err() || n == 0 {
                    return;
                }
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => {
                let _ = chunks.send(Err(e));
                return;
            }
        }
    }
}

/// Moves everything from `input` into `sink` a chunk at a time, so that the sink's limits
/// act while the bytes arrive (a decompressor is pulled from, not left to fill memory);
/// `read_error` says what a failure to read means.
fn pump(input: &mut impl Read, sink: &mut Sink<'_>, read_error: impl Fn(io::Error) -> Error) -> Result<()> {
    let mut chunk = vec![0u8; 1 << 16];
    loop {
        let n = match input.read(&mut chunk) {
            Ok(0) => return Ok(()),
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(read_error(e)),
        };
        if sink.write_all(&chunk[..n]).is_err() {
            return Err(sink.failure());
        }
    }
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
    let fail = |format: &'static str| {
        move |e: io::Error| Error::Decompress {
            path: path.to_string(),
            format,
            message: e.to_string(),
        }
    };
    // A dictionary larger than the text allowed out is of no use; the floor lets small
    // caps still read files made with xz's usual presets.
    let dictionary_kib = (limits.max_input.max(1 << 26) >> 10).min(u64::from(u32::MAX)) as u32;
    let mut sink = Sink::new(path, limits, xml);
    if raw.starts_with(XZ_MAGIC) {
        let mut reader = lzma_rust2::XzReader::new_mem_limit(raw.as_slice(), true, dictionary_kib);
        pump(&mut reader, &mut sink, fail("xz"))?;
    } else if let Some((name, tool)) = other_compression(&raw) {
        return Err(Error::NotXml {
            path: path.to_string(),
            what: format!(
                "it is {name}-compressed; csp reads plain XML, xz and lzma (decompress it with {tool})"
            ),
        });
    } else if path.ends_with(".lzma") || (!looks_like_text(&raw) && plausible_lzma_header(&raw)) {
        let mut reader = lzma_rust2::LzmaReader::new_mem_limit(raw.as_slice(), dictionary_kib, None)
            .map_err(fail("lzma"))?;
        pump(&mut reader, &mut sink, fail("lzma"))?;
    } else {
        if xml {
            check_xml_start(&raw, path)?;
        }
        return Ok(raw);
    }
    if xml {
        check_xml_start(&sink.out, path)?;
    }
    Ok(sink.out)
}

/// The name of a compression csp does not read and the tool that undoes it, when `raw`
/// starts with its magic bytes.
fn other_compression(raw: &[u8]) -> Option<(&'static str, &'static str)> {
    [
        (&[0x1F, 0x8B][..], "gzip", "gunzip"),
        (b"BZh", "bzip2", "bunzip2"),
        (&[0x28, 0xB5, 0x2F, 0xFD], "zstd", "unzstd"),
        (b"PK\x03\x04", "zip", "unzip"),
    ]
    .into_iter()
    .find(|(magic, _, _)| raw.starts_with(magic))
    .map(|(_, name, tool)| (name, tool))
}

/// Whether `raw` starts like an lzma-alone header: a properties byte below 225 and a
/// dictionary below 128 MiB (xz's presets use at most 64 MiB). Four bytes of text as the
/// dictionary size make at least 150 MB, so a text file with a stray NUL byte is not taken
/// for lzma.
fn plausible_lzma_header(raw: &[u8]) -> bool {
    raw.len() > 13 && raw[0] < 225 && raw[4] < 0x08
}

/// Whether the first bytes are all text (so not an lzma header).
fn looks_like_text(raw: &[u8]) -> bool {
    raw.iter()
        .take(64)
        .all(|&b| b >= 0x80 || b.is_ascii_graphic() || b.is_ascii_whitespace())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn xz(text: &[u8]) -> Vec<u8> {
        let options = lzma_rust2::XzOptions::with_preset(1);
        let mut writer = lzma_rust2::XzWriter::new(Vec::new(), options).unwrap();
        writer.write_all(text).unwrap();
        writer.finish().unwrap()
    }

    #[test]
    fn concatenated_xz_streams_read_as_one_text() {
        let mut raw = xz(b"<instance>");
        raw.extend_from_slice(&[0; 8]);
        raw.extend(xz(b"</instance>"));
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

    /// A reader that counts the bytes taken from it.
    struct Counted<'a> {
        inner: &'a [u8],
        taken: usize,
    }

    impl Read for Counted<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = self.inner.read(buf)?;
            self.taken += n;
            Ok(n)
        }
    }

    #[test]
    fn a_large_block_is_refused_before_it_is_decompressed_whole() {
        // One xz block of 32 MiB of spaces: a decoder that buffers a block would hold it
        // all before the cap is looked at. Pulled a chunk at a time, it stops early.
        let text = vec![b' '; 32 << 20];
        let raw = xz(&text);
        let limits = ReadLimits {
            max_input: 1 << 16,
            ..ReadLimits::default()
        };
        let mut input = Counted {
            inner: &raw,
            taken: 0,
        };
        let mut reader = lzma_rust2::XzReader::new(&mut input, true);
        let mut sink = Sink::new("big.xml.xz", &limits, true);
        let err = pump(&mut reader, &mut sink, |e| panic!("{e}")).unwrap_err();
        assert!(matches!(err, Error::TooLarge { .. }), "{err}");
        assert!(sink.out.len() <= 1 << 16);
        drop(reader);
        assert!(
            input.taken < raw.len() / 2,
            "{} of {} bytes read",
            input.taken,
            raw.len()
        );
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
