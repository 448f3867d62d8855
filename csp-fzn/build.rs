//! Embeds the MiniZinc library (`share/minizinc/csp/*.mzn`) and the solver configuration,
//! so that `csp minizinc install` can write them from the installed program alone.

use std::fmt::Write;
use std::path::Path;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let library = root.join("share/minizinc/csp");
    println!("cargo:rerun-if-changed={}", library.display());
    let mut names: Vec<String> = std::fs::read_dir(&library)
        .expect("share/minizinc/csp")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".mzn"))
        .collect();
    names.sort();
    let mut code = String::from(
        "/// The files of csp's MiniZinc library: name and text.\npub const LIBRARY: &[(&str, &str)] = &[\n",
    );
    for name in &names {
        let path = library.join(name);
        println!("cargo:rerun-if-changed={}", path.display());
        let _ = writeln!(
            code,
            "    ({name:?}, include_str!({:?})),",
            path.display().to_string()
        );
    }
    code.push_str("];\n");
    let out = Path::new(&std::env::var("OUT_DIR").expect("OUT_DIR")).join("library.rs");
    std::fs::write(out, code).expect("writing library.rs");
}
