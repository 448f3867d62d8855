//! Running the `csp` binary from the integration tests, and the files they read and write.
//! Each test file uses a part of these helpers.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use serde_json::Value;

/// Runs `csp` with `args`, feeding `stdin` (or nothing) on standard input. The input must
/// be read whole, unless the command stopped on its arguments first (exit code 2).
pub fn run(args: &[&str], stdin: Option<&str>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_csp"))
        .args(args)
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the csp binary runs");
    // Write from another thread so that a large input cannot block on a full output pipe.
    let writer = stdin.map(|text| {
        let mut pipe = child.stdin.take().unwrap();
        let text = text.to_string();
        std::thread::spawn(move || pipe.write_all(text.as_bytes()))
    });
    let output = child.wait_with_output().unwrap();
    if let Some(writer) = writer {
        let written = writer.join().unwrap();
        if output.status.code() != Some(2) {
            written.expect("csp reads all its input");
        }
    }
    output
}

/// Runs `csp` with `args` and nothing on standard input.
pub fn csp(args: &[&str]) -> Output {
    run(args, None)
}

/// Standard output, which must be UTF-8.
pub fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).expect("UTF-8 output")
}

/// Standard error.
pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The exit code (the process must have exited, not died on a signal).
pub fn code(out: &Output) -> i32 {
    out.status.code().expect("exited normally")
}

/// One JSON object per output line.
pub fn json_lines(out: &Output) -> Vec<Value> {
    stdout(out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

/// The path of a file of `data/sudoku/`.
pub fn data(name: &str) -> String {
    format!("{}/data/sudoku/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// A fresh directory for the files of one test, removed when dropped.
pub struct TempDir(pub PathBuf);

impl TempDir {
    /// A new directory whose name holds `name`, the process id and the time.
    pub fn new(name: &str) -> TempDir {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos();
        let dir = std::env::temp_dir().join(format!("csp-cli-{name}-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    /// Writes `contents` to the file `name` of this directory; its path.
    pub fn file(&self, name: &str, contents: &str) -> String {
        let file = self.0.join(name);
        std::fs::write(&file, contents).unwrap();
        file.to_string_lossy().into_owned()
    }

    /// The path of `name` in this directory.
    pub fn path(&self, name: &str) -> String {
        self.0.join(name).to_string_lossy().into_owned()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
