//! csp as a solver MiniZinc finds: the solver configuration (`csp.msc`) and the library of
//! native globals, written where MiniZinc looks (`~/.minizinc/solvers/`, or a directory of
//! `MZN_SOLVER_PATH`), with absolute paths to the library and to `fzn-csp`.
//!
//! Both are built into the program (`build.rs`), so an installed `csp` needs no source tree.

use std::io;
use std::path::{Path, PathBuf};

include!(concat!(env!("OUT_DIR"), "/library.rs"));

/// The solver configuration as shipped: the library next to it (`"mznlib": "../csp"`) and
/// `fzn-csp` on the `PATH`.
pub const SOLVER_CONFIG: &str = include_str!("../share/minizinc/solvers/csp.msc");

/// What [`install`] wrote.
#[derive(Clone, Debug)]
pub struct Installed {
    /// The solver configuration, `DIR/solvers/csp.msc`.
    pub config: PathBuf,
    /// The library's directory, `DIR/csp`.
    pub library: PathBuf,
}

/// Writes the library into `dir/csp/` and the solver configuration into
/// `dir/solvers/csp.msc`, naming the library and `executable` (the `fzn-csp` program) by
/// absolute paths. `dir` is `~/.minizinc` for MiniZinc to list csp with no more setting;
/// any other needs `MZN_SOLVER_PATH=dir/solvers`.
pub fn install(dir: &Path, executable: &Path) -> io::Result<Installed> {
    let absolute = |p: &Path| -> io::Result<PathBuf> {
        if p.is_absolute() {
            Ok(p.to_path_buf())
        } else {
            Ok(std::env::current_dir()?.join(p))
        }
    };
    let dir = absolute(dir)?;
    let library = dir.join("csp");
    let solvers = dir.join("solvers");
    std::fs::create_dir_all(&library)?;
    std::fs::create_dir_all(&solvers)?;
    for (name, text) in LIBRARY {
        std::fs::write(library.join(name), text)?;
    }
    let executable = absolute(executable)?;
    let config = configured(&library, &executable)
        .ok_or_else(|| io::Error::other("the shipped csp.msc does not name `../csp` and `fzn-csp`"))?;
    let path = solvers.join("csp.msc");
    std::fs::write(&path, config)?;
    Ok(Installed {
        config: path,
        library,
    })
}

/// The shipped configuration with `library` and `executable` in place of its relative
/// paths; `None` if it no longer holds them.
fn configured(library: &Path, executable: &Path) -> Option<String> {
    let (lib_from, exe_from) = ("\"mznlib\": \"../csp\"", "\"executable\": \"fzn-csp\"");
    if !SOLVER_CONFIG.contains(lib_from) || !SOLVER_CONFIG.contains(exe_from) {
        return None;
    }
    Some(
        SOLVER_CONFIG
            .replace(lib_from, &format!("\"mznlib\": {}", json_string(library)))
            .replace(exe_from, &format!("\"executable\": {}", json_string(executable))),
    )
}

/// A path as a JSON string.
fn json_string(path: &Path) -> String {
    let mut s = String::from("\"");
    for c in path.to_string_lossy().chars() {
        match c {
            '"' => s.push_str("\\\""),
            '\\' => s.push_str("\\\\"),
            c if (c as u32) < 0x20 => s.push_str(&format!("\\u{:04x}", c as u32)),
            c => s.push(c),
        }
    }
    s.push('"');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_library_is_the_shipped_directory() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("share/minizinc/csp");
        let mut shipped: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        shipped.sort();
        let built: Vec<String> = LIBRARY.iter().map(|(n, _)| n.to_string()).collect();
        assert_eq!(built, shipped);
        assert!(
            LIBRARY
                .iter()
                .any(|(n, t)| *n == "redefinitions.mzn" && !t.is_empty())
        );
    }

    #[test]
    fn paths_become_json_strings() {
        let config = configured(Path::new("/a \"b\"/csp"), Path::new("/bin/fzn-csp")).unwrap();
        assert!(config.contains(r#""mznlib": "/a \"b\"/csp""#), "{config}");
        assert!(config.contains(r#""executable": "/bin/fzn-csp""#), "{config}");
    }
}
