//! Bad input: every error says where it is, and nothing panics.

use csp_core::{SearchConfig, Solver};
use csp_xcsp::{Error, Instance};

fn err(xml: &str) -> Error {
    Instance::from_str(xml).expect_err("the instance must be refused")
}

const HEAD: &str = "<instance format=\"XCSP3\" type=\"CSP\">\n<variables>\n<var id=\"x\"> 0..3 </var>\n<array id=\"a\" size=\"[3]\"> 1..5 </array>\n</variables>\n<constraints>\n";

#[test]
fn malformed_xml_has_line_and_column() {
    let e = err(&format!(
        "{HEAD}<intension> ne(x,a[0]) </intension>\n<sum>\n</constraints></instance>"
    ));
    assert!(matches!(e, Error::Xml { .. }), "{e}");
    let p = e.position().unwrap();
    assert_eq!(p.line, 9, "{e}");
    assert!(e.to_string().starts_with("line 9, column "), "{e}");
}

#[test]
fn unknown_variable() {
    let e = err(&format!(
        "{HEAD}<intension> ne(x,y) </intension>\n</constraints></instance>"
    ));
    assert!(matches!(e, Error::UnknownVariable { .. }), "{e}");
    assert_eq!(e.to_string(), "line 7, column 18: unknown variable `y`");
    let e = err(&format!(
        "{HEAD}<allDifferent> x a[3] </allDifferent>\n</constraints></instance>"
    ));
    assert_eq!(e.to_string(), "line 7, column 18: unknown variable `a[3]`");
    let e = err(&format!(
        "{HEAD}<extension> <list> x b[] </list> <supports> (1,2) </supports> </extension>\n</constraints></instance>"
    ));
    assert!(
        e.to_string()
            .starts_with("line 7, column 22: unknown variable `b[]`"),
        "{e}"
    );
}

#[test]
fn value_out_of_range() {
    let e = err(&format!(
        "{HEAD}<instantiation> <list> x </list> <values> 7 </values> </instantiation>\n</constraints></instance>"
    ));
    assert!(matches!(e, Error::ValueOutOfRange { .. }), "{e}");
    assert_eq!(
        e.to_string(),
        "line 7, column 43: value out of range: 7 is not in the domain of x"
    );
    let e = err(
        "<instance type=\"CSP\">\n<variables>\n<var id=\"x\"> 0..99999999999 </var>\n</variables></instance>",
    );
    assert!(matches!(e, Error::ValueOutOfRange { .. }), "{e}");
    assert!(e.to_string().starts_with("line 3"), "{e}");
    let e = err(&format!(
        "{HEAD}<intension> eq(x,999999999999999999999999) </intension>\n</constraints></instance>"
    ));
    assert!(matches!(e, Error::ValueOutOfRange { .. }), "{e}");
}

#[test]
fn unsupported_constraint_names_element_and_line() {
    let e = err(&format!(
        "{HEAD}<intension> ne(x,a[0]) </intension>\n<stretch> <list> a[] </list> </stretch>\n</constraints></instance>"
    ));
    assert!(matches!(e, Error::Unsupported { .. }), "{e}");
    assert_eq!(
        e.to_string(),
        "line 8, column 1: unsupported constraint <stretch> (outside XCSP3-core)"
    );
    let e = err(&format!(
        "{HEAD}</constraints>\n<objectives> <minimize> x </minimize> <maximize> x </maximize> </objectives>\n</instance>"
    ));
    assert!(matches!(e, Error::Unsupported { .. }), "{e}");
    assert!(
        e.to_string().contains("several objectives") && e.to_string().starts_with("line 8"),
        "{e}"
    );
    // A lex objective is optimised as one rank variable: one that would span more values
    // than a domain may is refused, where it is.
    let e = err(
        "<instance format=\"XCSP3\" type=\"COP\">\n<variables> <array id=\"b\" size=\"[4]\"> 0..999 </array> </variables>\n<objectives>\n  <minimize type=\"lex\"> b[] </minimize> </objectives>\n</instance>",
    );
    assert!(matches!(e, Error::Unsupported { .. }), "{e}");
    assert!(
        e.to_string()
            .starts_with("line 4, column 3: unsupported lex objective whose rank spans more than"),
        "{e}"
    );
    let e = err("<instance format=\"XCSP3\" type=\"WCSP\">\n</instance>");
    assert!(e.to_string().contains("WCSP"), "{e}");
    let e = err(
        "<instance format=\"XCSP3\" type=\"CSP\">\n<variables> <var id=\"s\" type=\"symbolic\"> a b </var> </variables>\n</instance>",
    );
    assert!(matches!(e, Error::Unsupported { .. }), "{e}");
    let e = err(&format!(
        "{HEAD}<intension> ne(x,foo(a[0])) </intension>\n</constraints></instance>"
    ));
    assert_eq!(e.to_string(), "line 7, column 18: unsupported operator `foo`");
}

#[test]
fn syntax_errors_are_located() {
    for (bad, line) in [
        ("<intension> ne(x,a[0] </intension>", 7),
        (
            "<extension> <list> x a[0] </list> <supports> (1,2)(3) </supports> </extension>",
            7,
        ),
        (
            "<sum> <list> a[] </list> <coeffs> 1 2 </coeffs> <condition> (le,3) </condition> </sum>",
            7,
        ),
        (
            "<sum> <list> a[] </list> <condition> (foo,3) </condition> </sum>",
            7,
        ),
        (
            "<group> <intension> ne(%0,%1) </intension> <args> x </args> </group>",
            7,
        ),
        ("<slide> <list> a[] </list> </slide>", 7),
    ] {
        let e = err(&format!("{HEAD}{bad}\n</constraints></instance>"));
        assert_eq!(e.position().map(|p| p.line), Some(line), "{bad}: {e}");
    }
}

#[test]
fn compressed_garbage_is_an_error() {
    let dir = std::env::temp_dir().join(format!("csp-xcsp-errors-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bad.xml.lzma");
    std::fs::write(&path, b"\x5d\x00\x00\x80\x00garbage").unwrap();
    assert!(matches!(
        Instance::from_path(&path),
        Err(Error::Decompress { .. })
    ));
    assert!(matches!(
        Instance::from_path(dir.join("missing.xml")),
        Err(Error::Io { .. })
    ));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn instantiation_with_repeats_and_stars() {
    let xml = "<instance type=\"CSP\"><variables><array id=\"a\" size=\"[5]\"> 0..3 </array></variables>\n<constraints><instantiation><list> a[] </list><values> 1x3 * 2 </values></instantiation></constraints></instance>";
    let instance = Instance::from_str(xml).unwrap();
    assert!(instance.check(&[1, 1, 1, 0, 2]).is_ok());
    assert!(instance.check(&[1, 1, 1, 3, 2]).is_ok());
    assert!(instance.check(&[1, 1, 2, 3, 2]).is_err());
}

/// Malformed forms of the XCSP3-core globals and objectives: each refused with its place,
/// never a panic.
#[test]
fn malformed_globals_and_objectives_are_located() {
    for (bad, line, needle) in [
        (
            "<regular> <list> a[] </list> <transitions> (q0,1,q1) </transitions> <start> q-1 </start> <final> q1 </final> </regular>",
            7,
            "`q-1` is not a state name",
        ),
        (
            "<regular> <list> a[] </list> <transitions> (q0,1) </transitions> <start> q0 </start> <final> q0 </final> </regular>",
            7,
            "(from,value,to)",
        ),
        (
            "<cumulative> <origins> a[] </origins> <lengths> 1 1 1 </lengths> <condition> (le,2) </condition> </cumulative>",
            7,
            "needs a <heights>",
        ),
        (
            "<mdd> <list> a[] </list> <transitions> (r,1,n)(n,2,t)(u,3,t) </transitions> </mdd>",
            7,
            "one root",
        ),
        (
            "<cardinality> <list> a[] </list> <values> 1 2 </values> <occurs> 1 </occurs> </cardinality>",
            7,
            "occurrence bounds",
        ),
        (
            "<lex> <list> a[0] a[1] </list> <list> x </list> <operator> lt </operator> </lex>",
            7,
            "different lengths",
        ),
        (
            "<ordered> <list> a[] </list> <operator> lq </operator> </ordered>",
            7,
            "expected lt, le, ge or gt",
        ),
        (
            "<element> <matrix> (1,2)(3,4) </matrix> <index> x </index> <value> a[0] </value> </element>",
            7,
            "a row and a column",
        ),
        (
            "<knapsack> <list> a[] </list> <weights> 1 2 3 </weights> <profits> 1 2 3 </profits> <condition> (le,3) </condition> </knapsack>",
            7,
            "two <condition>s",
        ),
    ] {
        let e = err(&format!("{HEAD}{bad}\n</constraints></instance>"));
        assert!(e.to_string().contains(needle), "{bad}: {e}");
        assert_eq!(e.position().map(|p| p.line), Some(line), "{bad}: {e}");
    }
    let e = err(&format!(
        "{HEAD}</constraints>\n<objectives> <minimize> add(x,zz) </minimize> </objectives>\n</instance>"
    ));
    assert!(matches!(e, Error::UnknownVariable { .. }), "{e}");
    assert_eq!(e.position().map(|p| p.line), Some(8), "{e}");
}

/// A start or final state that no transition names is a state all the same (pycsp3 writes
/// such automata): a final state without a transition is unreachable, a start state
/// without one accepts only the empty word.
#[test]
fn states_named_only_as_start_or_final_are_states() {
    let count = |automaton: &str| {
        let text =
            format!("{HEAD}<regular> <list> a[] </list> {automaton} </regular>\n</constraints></instance>");
        let instance = Instance::from_str(&text).unwrap_or_else(|e| panic!("{automaton}: {e}"));
        let mut solver = Solver::new(&instance.model, SearchConfig::default()).unwrap();
        solver.count().solutions
    };
    let cycle = "<transitions> (q0,1,q1)(q1,2,q0)(q1,3,q1) </transitions>";
    // Words of a[] over 1..5 from q0 ending in q1: 1 then 3 3, or 1 2 1.
    assert_eq!(
        count(&format!("{cycle} <start> q0 </start> <final> q1 </final>")),
        2
    );
    assert_eq!(
        count(&format!("{cycle} <start> q0 </start> <final> q1 dead </final>")),
        2
    );
    assert_eq!(
        count(&format!("{cycle} <start> q0 </start> <final> dead </final>")),
        0
    );
    assert_eq!(
        count(&format!("{cycle} <start> q7 </start> <final> q1 q7 </final>")),
        0
    );
}

#[test]
fn models_past_the_memory_cap_are_refused_before_their_variables_are_made() {
    let array = |size: &str, domain: &str| {
        format!(
            "<instance format=\"XCSP3\" type=\"CSP\">\n<variables>\n<var id=\"y\"> 0..1 </var>\n\
             <array id=\"x\" size=\"{size}\"> {domain} </array>\n</variables>\n\
             <constraints><intension> eq(x[0],1) </intension></constraints></instance>"
        )
    };
    // 2^25 variables of one word (finding H1 of issue 30), 2^22 of 32 words, and 2^24
    // domains over 2^26 values, whose declaration alone would take gigabytes.
    for (size, domain, vars, words) in [
        ("[33554432]", "0..1", 33554433, 33554433_u64),
        ("[2048][2048]", "0..2047", 4194305, 134217729),
        ("[16777216]", "0..67108863", 16777217, 17_592_186_044_417_u64),
    ] {
        let e = err(&array(size, domain));
        assert!(matches!(e, Error::ValueOutOfRange { .. }), "{e}");
        let message = e.to_string();
        assert!(message.starts_with("line 4, column 1: "), "{message}");
        // The first check counts a word a cell; the second, the domains' words.
        for part in [
            format!("array `x` of {} cells: with it, ", vars - 1),
            format!("{vars} variables with {words} words of 64 bits"),
            "2147483648 bytes".to_string(),
        ] {
            assert!(message.contains(&part), "{message}");
        }
    }
    // Just under the cap (about 1.9 GB by the estimate), the check lets the array through:
    // checked on the numbers, not by building it.
    let size = csp_core::ModelSize {
        variables: 1 << 24,
        words: 1 << 24,
        ..csp_core::ModelSize::default()
    };
    assert!(size.check().is_ok());
}

#[test]
fn constraints_past_the_cap_are_refused_where_they_are_stated() {
    // A slide of 9 windows and a group of 3: with a cap of 10, the 11th constraint (the
    // group's second) is refused, at the group's template.
    let text = r#"<instance format="XCSP3" type="CSP">
<variables><array id="x" size="[10]"> 0..3 </array></variables>
<constraints>
<slide><list> x[] </list><intension> ne(%0,%1) </intension></slide>
<group><intension> ne(%0,%1) </intension>
<args> x[0] x[2] </args>
<args> x[1] x[3] </args>
<args> x[2] x[4] </args>
</group>
</constraints>
</instance>"#;
    let options = |max_constraints| csp_xcsp::ReadOptions {
        limits: csp_xcsp::ReadLimits {
            max_constraints,
            ..csp_xcsp::ReadLimits::default()
        },
        ..csp_xcsp::ReadOptions::default()
    };
    let Err(refused) = csp_xcsp::Instance::from_str_with(text, &options(10)) else {
        panic!("read past the cap");
    };
    let message = refused.to_string();
    assert!(
        message.starts_with("line 5, column 8: ") && message.contains("more than 10 constraints"),
        "{message}"
    );
    let read = csp_xcsp::Instance::from_str_with(text, &options(12)).expect("read");
    assert_eq!(read.constraints.len(), 12);
}

/// Values at the edges of 32 bits that no variable could span: `minimum` with an index over
/// -2^31 and 0, and `cumulative` under `(lt, k)` with k down to -2^31 (k - 1 leaves 32 bits).
/// Both are answered (they were refused), and the answers are the definitions'.
#[test]
fn extremes_of_32_bits_are_answered_without_a_variable_that_spans_them() {
    for (vars, constraint) in [
        (
            "<var id=\"x\"> -2147483648 </var><var id=\"y\"> 0 1 </var><var id=\"i\"> 0 1 </var>",
            "<minimum><list> x y </list><index> i </index><condition> (le,0) </condition></minimum>",
        ),
        (
            "<var id=\"x\"> -2147483648 </var><var id=\"y\"> 2147483646 2147483647 </var><var id=\"i\"> 0 1 2 </var>",
            "<maximum><list> x y </list><index rank=\"first\"> i </index></maximum>",
        ),
        (
            "<var id=\"o\"> 0 1 </var><var id=\"p\"> 0 1 </var><var id=\"k\"> -2147483648 -2147483647 </var>",
            "<cumulative><origins> o p </origins><lengths> 1 1 </lengths><heights> 1 1 </heights>\
             <condition> (lt,k) </condition></cumulative>",
        ),
    ] {
        let text = format!(
            "<instance format=\"XCSP3\" type=\"CSP\"><variables>{vars}</variables>\
             <constraints>{constraint}</constraints></instance>"
        );
        let instance = Instance::from_str(&text).unwrap_or_else(|e| panic!("{constraint}: {e}"));
        // Brute force over the declared domains, by the definitions as read.
        let domains: Vec<Vec<i32>> = instance
            .model
            .vars()
            .take(instance.declared)
            .map(|v| instance.model.domain(v).values().collect())
            .collect();
        let mut expected = 0;
        for a in &domains[0] {
            for b in &domains[1] {
                for c in &domains[2] {
                    expected += u64::from(instance.satisfies(&[*a, *b, *c]));
                }
            }
        }
        let mut solver = Solver::new(&instance.model, SearchConfig::default()).unwrap();
        assert_eq!(solver.count().solutions, expected, "{constraint}");
    }
}
