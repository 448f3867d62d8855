//! `csp random model-b|rb ...`: random CSPs as XCSP3, on standard output or as files.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;

use super::models::Generator;
use crate::error::{CliError, EXIT_OK, usage, written};

/// Arguments of `csp random`.
#[derive(Args)]
pub struct RandomArgs {
    #[command(subcommand)]
    model: Generator,
    /// Seed of the (first) instance; with --count C the files are the instances of seeds
    /// S, S+1, ..., S+C-1.
    #[arg(long, global = true, default_value_t = 0, value_name = "S", value_parser = crate::args::parse_whole, allow_hyphen_values = true)]
    seed: u64,
    /// How many instances (needs --out when more than 1).
    #[arg(long, global = true, default_value_t = 1, value_name = "C", value_parser = crate::args::parse_whole, allow_hyphen_values = true)]
    count: u64,
    /// Write the instances as files into this directory (created if needed), named by
    /// their model, parameters and seed; their paths are printed, one per line.
    #[arg(long, global = true, value_name = "DIR", allow_negative_numbers = true)]
    out: Option<PathBuf>,
}

/// Runs `csp random`.
pub fn run(args: RandomArgs) -> Result<u8, CliError> {
    let params = args.model.params(None)?;
    let Some(dir) = &args.out else {
        if args.count != 1 {
            return Err(usage("--count C with C other than 1 needs --out DIR"));
        }
        let csp = params.generate(args.seed)?;
        let mut out = std::io::BufWriter::new(std::io::stdout().lock());
        let done = csp_xcsp::write::random_csp(&csp, &mut out).and_then(|()| out.flush());
        written(done, "cannot write the instance")?;
        return Ok(EXIT_OK);
    };
    if args.seed.checked_add(args.count).is_none() {
        return Err(usage("--seed plus --count is too large"));
    }
    let io = |path: &std::path::Path, source| CliError::Io {
        context: format!("cannot write {}", path.display()),
        source,
    };
    std::fs::create_dir_all(dir).map_err(|e| io(dir, e))?;
    let mut stdout = std::io::stdout().lock();
    for seed in args.seed..args.seed + args.count {
        if crate::interrupt::requested() {
            break;
        }
        let csp = params.generate(seed)?;
        let path = dir.join(params.file_name(seed));
        let mut file = std::io::BufWriter::new(std::fs::File::create(&path).map_err(|e| io(&path, e))?);
        csp_xcsp::write::random_csp(&csp, &mut file)
            .and_then(|()| file.flush())
            .map_err(|e| io(&path, e))?;
        if !written(
            writeln!(stdout, "{}", path.display()),
            "cannot write the file names",
        )? {
            break;
        }
    }
    Ok(EXIT_OK)
}
