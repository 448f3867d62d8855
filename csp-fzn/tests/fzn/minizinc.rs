//! Whole MiniZinc models through `minizinc --solver csp.msc`, against Gecode on MiniZinc's
//! own decompositions (a solver configuration with no library of its own, so that the
//! reference shares nothing with csp's library): the number of solutions with `-a`, and
//! the optimum. Skipped, with the reason printed, when `minizinc` or `fzn-gecode` is not
//! installed (Debian: `apt-get install minizinc`).

use std::path::{Path, PathBuf};
use std::process::Command;

const MODELS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fzn/models");

/// A directory of the test `name`'s own with the two solver configurations, or why the
/// comparison cannot run.
fn setup(name: &str) -> Result<PathBuf, String> {
    let version = Command::new("minizinc").arg("--version").output();
    if !version.is_ok_and(|o| o.status.success()) {
        return Err("minizinc is not installed".into());
    }
    let gecode = which("fzn-gecode").ok_or("fzn-gecode is not installed")?;
    let dir = std::env::temp_dir().join(format!("csp-fzn-minizinc-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let lib = concat!(env!("CARGO_MANIFEST_DIR"), "/share/minizinc/csp");
    let exe = env!("CARGO_BIN_EXE_fzn-csp");
    let shipped = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/share/minizinc/solvers/csp.msc"
    ))
    .map_err(|e| e.to_string())?;
    // The shipped configuration, with absolute paths to this build.
    let csp = shipped
        .replace("\"mznlib\": \"../csp\"", &format!("\"mznlib\": \"{lib}\""))
        .replace(
            "\"executable\": \"fzn-csp\"",
            &format!("\"executable\": \"{exe}\""),
        );
    assert!(
        csp.contains(exe) && csp.contains(lib),
        "csp.msc changed: update this test"
    );
    std::fs::write(dir.join("csp.msc"), csp).map_err(|e| e.to_string())?;
    let reference = format!(
        "{{ \"id\": \"org.csp.test.gecode-std\", \"name\": \"gecode-std\", \"version\": \"1\", \"mznlib\": \"\", \
         \"executable\": \"{}\", \"stdFlags\": [\"-a\", \"-n\", \"-s\", \"-t\"], \"supportsFzn\": true }}",
        gecode.display()
    );
    std::fs::write(dir.join("reference.msc"), reference).map_err(|e| e.to_string())?;
    Ok(dir)
}

fn which(program: &str) -> Option<PathBuf> {
    std::env::var_os("PATH")?
        .to_str()?
        .split(':')
        .map(|d| Path::new(d).join(program))
        .find(|p| p.is_file())
}

/// `minizinc --solver <msc> [flags] model`'s standard output.
fn solve(msc: &Path, model: &str, flags: &[&str]) -> String {
    let out = Command::new("minizinc")
        .arg("--solver")
        .arg(msc)
        .args(flags)
        .arg(Path::new(MODELS).join(model))
        .current_dir(std::env::temp_dir())
        .output()
        .expect("running minizinc");
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        out.status.success(),
        "{model} with {}: {}\n{stdout}",
        msc.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

#[test]
fn models_against_gecode() {
    let dir = match setup("models") {
        Ok(dir) => dir,
        Err(why) => {
            println!("skipped: {why}");
            return;
        }
    };
    let (csp, reference) = (dir.join("csp.msc"), dir.join("reference.msc"));
    let satisfaction = [
        "australia.mzn",
        "queens.mzn",
        "cardinality.mzn",
        "table_regular.mzn",
        "circuits.mzn",
        "boxes.mzn",
        "ordering.mzn",
        "arith.mzn",
        "sets.mzn",
        "diagram.mzn",
        "counts.mzn",
        "library.mzn",
        "send.mzn",
        "magic.mzn",
        "bools.mzn",
        "setmodel.mzn",
        "twod.mzn",
    ];
    for model in satisfaction {
        let ours = solve(&csp, model, &["-a"]);
        let theirs = solve(&reference, model, &["-a"]);
        let count = |s: &str| s.lines().filter(|l| *l == "----------").count();
        assert_eq!(
            count(&ours),
            count(&theirs),
            "{model}: csp {ours}\ngecode {theirs}"
        );
        assert!(ours.trim_end().ends_with("=========="), "{model}: {ours}");
    }
    for model in [
        "knap.mzn",
        "packing.mzn",
        "scheduling.mzn",
        "element_minmax.mzn",
        "golomb.mzn",
        "jobshop.mzn",
    ] {
        let ours = solve(&csp, model, &[]);
        let theirs = solve(&reference, model, &[]);
        let objective = |s: &str| s.lines().find(|l| l.starts_with("obj = ")).map(str::to_string);
        assert!(objective(&ours).is_some(), "{model}: {ours}");
        assert_eq!(objective(&ours), objective(&theirs), "{model}");
        assert!(ours.trim_end().ends_with("=========="), "{model}: {ours}");
    }
    // The globals reach fzn-csp as csp's constraints, not decompositions.
    let fzn = dir.join("queens.fzn");
    let status = Command::new("minizinc")
        .arg("--solver")
        .arg(&csp)
        .args(["-c", "-o"])
        .arg(&fzn)
        .arg(Path::new(MODELS).join("queens.mzn"))
        .status()
        .expect("minizinc -c");
    assert!(status.success());
    let text = std::fs::read_to_string(&fzn).expect("the FlatZinc");
    assert_eq!(
        text.matches("constraint csp_all_different_int(").count(),
        3,
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn textbook_nodes_through_minizinc() {
    // 8-queens written in MiniZinc with pairwise disequalities and no annotation, run as
    // `minizinc --solver csp -s --fzn-flags "--var V --val L --inference I"`: the first
    // solution's nodes are those of `csp queens solve 8 --model pairwise`, for each of the
    // 18 textbook strategies.
    let dir = match setup("textbook") {
        Ok(dir) => dir,
        Err(why) => {
            println!("skipped: {why}");
            return;
        }
    };
    let csp = dir.join("csp.msc");
    for strategy in csp_core::Strategy::textbook() {
        let flags = format!(
            "--var {} --val {} --inference {}",
            strategy.var_order, strategy.value_order, strategy.inference
        );
        let text = solve(&csp, "queens_pairwise.mzn", &["-s", "--fzn-flags", &flags]);
        let queens = csp_queens::solve(
            8,
            csp_queens::Encoding::Pairwise,
            csp_core::SearchConfig::with_strategy(strategy),
        )
        .expect("queens");
        assert_eq!(
            crate::output::nodes_statistic(&text),
            queens.stats.nodes,
            "{strategy}: {text}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
