//! What is refused, and how: every error names its line (and column for syntax).

use std::process::Command;

use csp_fzn::{Error, Instance, Pos};

fn error(fzn: &str) -> Error {
    Instance::from_str(fzn).expect_err("the model should be refused")
}

fn at(line: u32, column: u32) -> Option<Pos> {
    Some(Pos { line, column })
}

#[test]
fn syntax_errors_give_line_and_column() {
    let cases = [
        (
            "var 1..3: x;\nconstraint int_le(x, 3)\nsolve satisfy;",
            at(3, 1),
            "expected `;`, found `solve`",
        ),
        (
            "var 1..3: x;\n  constraint int_le(x,, 3);\nsolve satisfy;",
            at(2, 23),
            "expected an expression",
        ),
        (
            "var 1..3: x;\nsolve satisfy;\nsolve satisfy;",
            at(3, 1),
            "a second solve item",
        ),
        ("var 1..3: x;\n", at(2, 1), "no solve item"),
        (
            "var 1..99999999999999999999: x;\nsolve satisfy;",
            at(1, 8),
            "does not fit in 64 bits",
        ),
        (
            "var 1..3: x @;\nsolve satisfy;",
            at(1, 13),
            "unexpected character `@`",
        ),
        (
            "var 1..3: x :: foo(\"a);\nsolve satisfy;",
            at(1, 20),
            "unterminated string",
        ),
        (
            "array [1..2] var int: a = [1, 2];\nsolve satisfy;",
            at(1, 14),
            "expected `of`",
        ),
        (
            "include \"globals.mzn\";\nsolve satisfy;",
            at(1, 1),
            "MiniZinc, not FlatZinc",
        ),
    ];
    for (fzn, pos, message) in cases {
        let e = error(fzn);
        assert!(matches!(e, Error::Syntax { .. }), "{fzn}: {e}");
        assert_eq!(e.pos(), pos, "{fzn}: {e}");
        assert!(e.to_string().contains(message), "{fzn}: {e}");
    }
}

#[test]
fn names_and_arguments() {
    let e = error("var 1..3: x;\nconstraint int_le(x, y);\nsolve satisfy;");
    assert_eq!(e.pos().map(|p| p.line), Some(2));
    assert!(e.to_string().contains("unknown name `y`"), "{e}");
    let e = error("var 1..3: x;\nconstraint int_lin_le([1, 2], [x], 3);\nsolve satisfy;");
    assert!(e.to_string().contains("2 coefficients for 1 variables"), "{e}");
    let e = error("var 1..3: x;\nconstraint int_le(x);\nsolve satisfy;");
    assert!(e.to_string().contains("takes 2 arguments, got 1"), "{e}");
    let e = error("var 1..3: x;\nvar 1..2: x;\nsolve satisfy;");
    assert!(
        e.to_string()
            .starts_with("line 2, column 1: `x` is declared twice"),
        "{e}"
    );
}

#[test]
fn unknown_builtins_are_named() {
    let e = error("var 1..3: x;\nvar 1..3: y;\n\nconstraint fancy_global([x, y]);\nsolve satisfy;");
    assert!(matches!(e, Error::Unsupported { .. }));
    assert_eq!(e.pos(), at(4, 1));
    assert!(e.to_string().contains("unknown constraint `fancy_global`"), "{e}");
    let e = error("var 1..3: x;\nconstraint int_times_reif(x, x, x, true);\nsolve satisfy;");
    assert!(e.to_string().contains("`int_times_reif`"), "{e}");
}

#[test]
fn float_and_set_variables_are_refused() {
    let e = error("var 1..3: x;\nvar 0.0..1.0: f :: output_var;\nsolve satisfy;");
    assert!(matches!(e, Error::Unsupported { .. }));
    assert_eq!(e.pos().map(|p| p.line), Some(2));
    assert!(e.to_string().contains("`f` is a float variable"), "{e}");
    let e = error("var set of 1..3: s :: output_var;\nsolve satisfy;");
    assert!(e.to_string().contains("`s` is a set variable"), "{e}");
    let e = error("array [1..2] of var float: fs = [1.0, 2.0];\nsolve satisfy;");
    assert!(e.to_string().contains("`fs` is a float variable"), "{e}");
    let e = error("float: p = 1.5;\nvar 1..3: x;\nconstraint int_le(x, p);\nsolve satisfy;");
    assert!(e.to_string().contains("float"), "{e}");
}

#[test]
fn unbounded_variables_without_bounds_are_refused() {
    let e = error("var int: x :: output_var;\nvar int: y;\nconstraint int_le(x, y);\nsolve satisfy;");
    assert!(e.to_string().contains("`x` has no bounds"), "{e}");
    // Bounds from the constraints that define them are inferred.
    let fzn = "var 0..3: a;\nvar 0..3: b;\nvar int: s :: output_var;\nvar int: p;\n\
               constraint int_lin_eq([1, 1, -1], [a, b, s], 0);\nconstraint int_times(a, s, p);\n\
               constraint int_le(10, p);\nsolve satisfy;";
    let instance = Instance::from_str(fzn).expect("bounds inferred");
    assert_eq!(instance.model.num_vars(), 4);
    // a * (a + b) >= 10: (2, 3), (3, 1), (3, 2), (3, 3).
    assert_eq!(crate::count(fzn), 4);
}

/// The program: exit code 1 and a message naming the line, nothing on standard output.
#[test]
fn the_program_refuses_with_exit_code_1() {
    let dir = std::env::temp_dir().join(format!("csp-fzn-errors-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let path = dir.join("float.fzn");
    std::fs::write(&path, "var 1..3: x;\nvar float: f;\nsolve satisfy;\n").expect("writing");
    let out = Command::new(env!("CARGO_BIN_EXE_fzn-csp"))
        .arg(&path)
        .output()
        .expect("running fzn-csp");
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("line 2, column 1") && stderr.contains("`f` is a float variable"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Cut anywhere, or with a character changed, a model is read or refused: never a panic.
#[test]
fn mangled_input_never_panics() {
    let fzn = "predicate csp_table_int(array [int] of var int: xs, array [int] of int: tuples);\n\
               array [1..3] of int: c = [1, -2, 3];\nset of int: s = {1, 3, 5};\n\
               var 0..5: x :: output_var;\nvar -2..2: y;\nvar bool: b :: output_var;\nvar int: z :: is_defined_var;\n\
               array [1..2] of var int: a :: output_array([1..2]) = [x, y];\n\
               constraint int_lin_eq([1, 1, -1], [x, y, z], 0) :: defines_var(z);\n\
               constraint int_le_reif(x, 3, b);\nconstraint set_in(y, s);\n\
               constraint array_var_int_element(x, [y, z, 4], 1);\nconstraint csp_table_int(a, [0, 1, 2, 2]);\n\
               constraint csp_regular(a, 2, 2, [1, 2, 2, 0], 1, {2});\nconstraint int_times(x, y, z);\n\
               solve :: int_search(a, first_fail, indomain_max, complete) maximize z;\n";
    let chars: Vec<char> = fzn.chars().collect();
    for cut in 0..chars.len() {
        let text: String = chars[..cut].iter().collect();
        let _ = Instance::from_str(&text);
        for replacement in ['9', '-', ']', ';', 'x', '{', '.', ':', '"'] {
            let mut mangled = chars.clone();
            mangled[cut] = replacement;
            let text: String = mangled.into_iter().collect();
            if let Ok(instance) = Instance::from_str(&text) {
                // What reads also runs.
                let options = csp_fzn::RunOptions {
                    solutions: Some(3),
                    ..csp_fzn::RunOptions::default()
                };
                let _ = csp_fzn::run(&instance, &options, &mut Vec::new());
            }
        }
    }
}

#[test]
fn reading_holds_the_limits() {
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;
    use std::time::Instant;

    use csp_core::LimitKind;
    use csp_fzn::ReadLimits;

    // Many tokens, so that the limits are checked while the file is parsed.
    let mut fzn = String::new();
    for i in 0..5000 {
        fzn.push_str(&format!("var 1..3: x{i};\n"));
    }
    fzn.push_str("solve satisfy;\n");
    let limits = |deadline, cancel| ReadLimits {
        deadline,
        cancel,
        ..ReadLimits::default()
    };
    let past = limits(Some(Instant::now()), None);
    let err = Instance::from_str_within(&fzn, &past).expect_err("the deadline has passed");
    assert_eq!(err.limit(), Some(LimitKind::Time), "{err}");
    let cancelled = limits(None, Some(Arc::new(AtomicBool::new(true))));
    let err = Instance::from_str_within(&fzn, &cancelled).expect_err("cancelled");
    assert_eq!(err.limit(), Some(LimitKind::Cancelled), "{err}");
    assert!(Instance::from_str_within(&fzn, &limits(None, None)).is_ok());

    // A file larger than the input limit is refused, by its size, before it is read whole.
    let dir = std::env::temp_dir().join(format!("csp-fzn-limits-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let path = dir.join("big.fzn");
    std::fs::write(&path, &fzn).expect("writing");
    let small = ReadLimits {
        max_input: 1000,
        ..ReadLimits::default()
    };
    let err = Instance::from_path_within(&path, &small).expect_err("too large");
    assert!(matches!(err, Error::TooLarge(_)), "{err}");
    assert!(err.to_string().contains("1000 bytes"), "{err}");
    let fits = ReadLimits {
        max_input: fzn.len() as u64,
        ..ReadLimits::default()
    };
    assert!(Instance::from_path_within(&path, &fits).is_ok());

    // A time limit that ends while the file is read: the program answers UNKNOWN at
    // once, exit code 0. (`-t 0` has passed before the first token.)
    let out = Command::new(env!("CARGO_BIN_EXE_fzn-csp"))
        .args(["-t", "0"])
        .arg(&path)
        .output()
        .expect("running fzn-csp");
    assert!(out.status.success(), "{out:?}");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "=====UNKNOWN=====\n");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn columns_count_characters() {
    // A character of several bytes is one column, in comments and strings alike.
    let err = error("% é, ü\nvar 1..3: x; % ß\n  é\nsolve satisfy;");
    assert_eq!(err.pos(), at(3, 3), "{err}");
    assert!(err.to_string().contains("unexpected character `é`"), "{err}");
    let err = error("var 1..3: x :: name(\"é\"); var 1..3: y $;\nsolve satisfy;");
    assert_eq!(err.pos(), at(1, 39), "{err}");
}
