//! # csp-xcsp: XCSP3 instances (and DIMACS graph colouring) as csp-core models
//!
//! Reads a constraint-satisfaction instance in [XCSP3](https://xcsp.org) (`type="CSP"`,
//! the constraints of the *mini* track: `intension`, `extension`, `allDifferent`, `sum`,
//! `element`, `instantiation`, with `group`, `slide`, `block` and compact lists) into a
//! [`csp_core::Model`] whose variables keep their XCSP3 names (`x`, `q[3]`, `m[0][1]`), in
//! declaration order. Files may be plain (`.xml`), xz (`.xml.xz`) or legacy lzma
//! (`.xml.lzma`). Anything outside the subset is refused with an [`Error`] that names the
//! element and its line.
//!
//! ```
//! use csp_core::{SearchConfig, Solver};
//!
//! let xml = r#"<instance format="XCSP3" type="CSP">
//!   <variables> <array id="q" size="[4]"> 0..3 </array> </variables>
//!   <constraints>
//!     <allDifferent> q[] </allDifferent>
//!     <group>
//!       <intension> ne(dist(%0,%1),%2) </intension>
//!       <args> q[0] q[1] 1 </args> <args> q[0] q[2] 2 </args> <args> q[0] q[3] 3 </args>
//!       <args> q[1] q[2] 1 </args> <args> q[1] q[3] 2 </args> <args> q[2] q[3] 1 </args>
//!     </group>
//!   </constraints>
//! </instance>"#;
//! let instance = csp_xcsp::Instance::from_str(xml).unwrap();
//! assert_eq!(instance.model.name(instance.model.var(2).unwrap()), "q[2]");
//! let mut solver = Solver::new(&instance.model, SearchConfig::default()).unwrap();
//! assert_eq!(solver.count().solutions, 2); // four queens
//!
//! let err = csp_xcsp::Instance::from_str("<instance type=\"CSP\">\n<variables> <var id=\"x\"> 0..2 </var> </variables>\n<constraints> <cumulative/> </constraints></instance>").unwrap_err();
//! assert_eq!(err.to_string(), "line 3, column 15: unsupported constraint <cumulative>");
//! ```

pub mod dimacs;
mod error;
pub mod ir;
mod parse;
mod post;
pub mod write;

use std::path::Path;

use csp_core::Model;

pub use error::{Error, Position, Result};
pub use parse::Array;
pub use post::{PAIR_TABLE_LIMIT, PostOptions};

/// An instance read from a file: the model, and what is needed to report solutions.
pub struct Instance {
    /// The variables (named as in the file, in declaration order) and the constraints.
    /// Auxiliary variables the posting adds (named `aux#0`, ...) come after the declared
    /// ones: see [`Instance::declared`].
    pub model: Model,
    /// How many of the model's variables the file declares (the first ones); the others
    /// are auxiliary, determined by them, and left out of solutions.
    pub declared: usize,
    /// The arrays as declared, with their cells' variables.
    pub arrays: Vec<Array>,
    /// The constraints as read, with their places in the file (to check a solution
    /// independently of the propagators).
    pub constraints: Vec<ir::Located>,
}

impl std::fmt::Debug for Instance {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Instance")
            .field("variables", &self.model.num_vars())
            .field("arrays", &self.arrays.len())
            .field("constraints", &self.constraints.len())
            .finish()
    }
}

impl Instance {
    /// Reads an instance from a file: `.xml`, `.xml.xz` or `.xml.lzma` (the compression is
    /// recognised from the content and the name); DIMACS files are read by
    /// [`dimacs::read`].
    pub fn from_path(path: impl AsRef<Path>) -> Result<Instance> {
        Instance::from_path_with(path, PostOptions::default())
    }

    /// [`Instance::from_path`] with posting options.
    pub fn from_path_with(path: impl AsRef<Path>, options: PostOptions) -> Result<Instance> {
        let text = read_text(path.as_ref())?;
        Instance::from_str_with(&text, options)
    }

    /// Reads an instance from XCSP3 text.
    #[allow(clippy::should_implement_trait)]
    pub fn from_str(text: &str) -> Result<Instance> {
        Instance::from_str_with(text, PostOptions::default())
    }

    /// [`Instance::from_str`] with posting options.
    pub fn from_str_with(text: &str, options: PostOptions) -> Result<Instance> {
        let opts = roxmltree::ParsingOptions {
            allow_dtd: true,
            ..Default::default()
        };
        let doc = roxmltree::Document::parse_with_options(text, opts)?;
        let parsed = parse::Reader::new(&doc, text).read()?;
        drop(doc);
        let mut model = parsed.model;
        let declared = model.num_vars();
        post::post_all(&mut model, &parsed.constraints, options)?;
        Ok(Instance {
            model,
            declared,
            arrays: parsed.arrays,
            constraints: parsed.constraints,
        })
    }

    /// Whether a complete assignment (one value per variable, in model order) satisfies
    /// every constraint as read from the file.
    pub fn check(&self, values: &[i32]) -> Result<(), &ir::Located> {
        if values.len() != self.model.num_vars() {
            return self.constraints.first().map_or(Ok(()), Err);
        }
        for (var, v) in self.model.vars().zip(values) {
            if !self.model.domain(var).contains(*v) {
                return self.constraints.first().map_or(Ok(()), Err);
            }
        }
        match self.constraints.iter().find(|c| !c.constraint.holds(values)) {
            Some(c) => Err(c),
            None => Ok(()),
        }
    }
}

/// The bytes of a file, decompressed when they are xz or lzma-alone.
pub fn read_bytes(path: &Path) -> Result<Vec<u8>> {
    let display = path.display().to_string();
    let raw = std::fs::read(path).map_err(|source| Error::Io {
        path: display.clone(),
        source,
    })?;
    decompress(raw, &display)
}

/// The text of a file (decompressed when it is xz or lzma-alone).
pub fn read_text(path: &Path) -> Result<String> {
    let bytes = read_bytes(path)?;
    String::from_utf8(bytes).map_err(|e| Error::Encoding {
        offset: e.utf8_error().valid_up_to(),
    })
}

/// Decompresses xz (recognised by its magic bytes) and lzma-alone (by the `.lzma` name, or
/// by a plausible header when the text does not start like XML).
fn decompress(raw: Vec<u8>, path: &str) -> Result<Vec<u8>> {
    const XZ_MAGIC: &[u8] = &[0xFD, b'7', b'z', b'X', b'Z', 0x00];
    let lzma_name = path.ends_with(".lzma");
    let fail = |format: &'static str, e: lzma_rs::error::Error| Error::Decompress {
        path: path.to_string(),
        format,
        message: e.to_string(),
    };
    if raw.starts_with(XZ_MAGIC) {
        let mut out = Vec::with_capacity(raw.len() * 8);
        lzma_rs::xz_decompress(&mut raw.as_slice(), &mut out).map_err(|e| fail("xz", e))?;
        return Ok(out);
    }
    let looks_text = raw
        .iter()
        .take(64)
        .all(|&b| b >= 0x80 || b.is_ascii_graphic() || b.is_ascii_whitespace());
    if lzma_name || (!looks_text && raw.len() > 13 && raw[0] < 225) {
        let mut out = Vec::with_capacity(raw.len() * 8);
        lzma_rs::lzma_decompress(&mut raw.as_slice(), &mut out).map_err(|e| fail("lzma", e))?;
        return Ok(out);
    }
    Ok(raw)
}
