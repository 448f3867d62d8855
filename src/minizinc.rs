//! `csp minizinc install`: makes `minizinc --solver csp` work, by writing csp's solver
//! configuration and its library of native globals where MiniZinc looks
//! (csp-fzn's [`csp_fzn::install`]).

use std::path::{Path, PathBuf};

use clap::{Args, Subcommand};

use crate::error::CliError;

/// `csp minizinc`'s commands.
#[derive(Args, Debug)]
pub struct MinizincArgs {
    #[command(subcommand)]
    command: MinizincCommand,
}

#[derive(Subcommand, Debug)]
enum MinizincCommand {
    /// Write csp's solver configuration (DIR/solvers/csp.msc) and library (DIR/csp/) so
    /// that `minizinc --solvers` lists csp and `minizinc --solver csp model.mzn` runs
    /// fzn-csp.
    Install(InstallArgs),
}

#[derive(Args, Debug)]
struct InstallArgs {
    /// Where to write: DIR/solvers/csp.msc and DIR/csp/*.mzn. Default: ~/.minizinc, which
    /// MiniZinc searches; for another DIR, set MZN_SOLVER_PATH=DIR/solvers.
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
    /// The fzn-csp program MiniZinc runs. Default: the one beside this csp, else the one on
    /// the PATH.
    #[arg(long, value_name = "PATH")]
    executable: Option<PathBuf>,
}

/// Runs `csp minizinc`.
pub fn run(args: MinizincArgs) -> Result<u8, CliError> {
    let MinizincCommand::Install(args) = args.command;
    let dir = match args.dir {
        Some(dir) => dir,
        None => std::env::var_os("HOME")
            .map(|home| Path::new(&home).join(".minizinc"))
            .ok_or_else(|| CliError::Failed("HOME is not set: give --dir".into()))?,
    };
    let executable = match args.executable {
        Some(exe) if exe.is_file() => exe,
        Some(exe) => return Err(CliError::Failed(format!("{}: no such program", exe.display()))),
        None => fzn_csp().ok_or_else(|| {
            CliError::Failed(
                "fzn-csp is neither beside csp nor on the PATH: build it (`cargo build --release -p csp-fzn`) \
                 or install it (`cargo install --path csp-fzn`), or give --executable"
                    .into(),
            )
        })?,
    };
    let installed = csp_fzn::install::install(&dir, &executable).map_err(|source| CliError::Io {
        context: format!("cannot write into {}", dir.display()),
        source,
    })?;
    println!("solver configuration: {}", installed.config.display());
    println!("library: {}", installed.library.display());
    println!("program: {}", executable.display());
    let solvers = installed.config.parent().unwrap_or(Path::new("."));
    if args_dir_is_default(&dir) {
        println!("check: minizinc --solvers   (lists csp, org.csp.csp)");
    } else {
        println!(
            "check: MZN_SOLVER_PATH={} minizinc --solvers   (lists csp, org.csp.csp)",
            solvers.display()
        );
    }
    Ok(0)
}

/// Whether `dir` is `~/.minizinc`, which MiniZinc searches without being told.
fn args_dir_is_default(dir: &Path) -> bool {
    std::env::var_os("HOME").is_some_and(|home| Path::new(&home).join(".minizinc") == dir)
}

/// `fzn-csp` beside the running program, else on the `PATH`.
fn fzn_csp() -> Option<PathBuf> {
    let name = format!("fzn-csp{}", std::env::consts::EXE_SUFFIX);
    let beside = std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(|d| d.join(&name)));
    beside.filter(|p| p.is_file()).or_else(|| {
        std::env::var_os("PATH").and_then(|path| {
            std::env::split_paths(&path)
                .map(|d| d.join(&name))
                .find(|p| p.is_file())
        })
    })
}
