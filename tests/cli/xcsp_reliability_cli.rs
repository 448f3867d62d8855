//! `csp solve`, `count` and `compare` on XCSP3 and DIMACS files under careless or hostile
//! use: numbers at the edges of 32 and 64 bits, deep nesting, endless enumerations, bombs and
//! malformed files. Each test names the finding of the second reliability report
//! (`reliability-findings-xcsp.md`) it holds to. Counts are checked against a brute force in
//! exact integers written here, never against numbers written down.

use std::io::Write;

use crate::common::{TempDir, code, json_lines, run, stderr, stdout};

const HEAD: &str = "<instance format=\"XCSP3\" type=\"CSP\">\n<variables>\n";

/// An instance of these variables and constraints.
fn instance(variables: &str, constraints: &str) -> String {
    format!("{HEAD}{variables}\n</variables>\n<constraints>\n{constraints}\n</constraints>\n</instance>\n")
}

/// The number of assignments of `domains` that `holds` accepts.
fn brute(domains: &[Vec<i128>], holds: &dyn Fn(&[i128]) -> bool) -> u64 {
    let mut count = 0;
    let mut at = vec![0usize; domains.len()];
    let mut values: Vec<i128> = domains.iter().map(|d| d[0]).collect();
    'all: loop {
        count += u64::from(holds(&values));
        for k in (0..domains.len()).rev() {
            at[k] += 1;
            if at[k] < domains[k].len() {
                values[k] = domains[k][at[k]];
                continue 'all;
            }
            at[k] = 0;
            values[k] = domains[k][0];
        }
        return count;
    }
}

/// `csp count FILE` as a number (the line format), with its exit code 0.
fn count(dir: &TempDir, name: &str, text: &str) -> u64 {
    let path = dir.file(name, text);
    let out = run(&["count", &path], None);
    assert_eq!(code(&out), 0, "{name}: {}", stderr(&out));
    stdout(&out)
        .trim()
        .parse()
        .unwrap_or_else(|_| panic!("{name}: {}", stdout(&out)))
}

/// `csp count FILE`: exit code 1 with an error that gives a line and a column.
fn refused(dir: &TempDir, name: &str, text: &str) -> String {
    let path = dir.file(name, text);
    let out = run(&["count", &path], None);
    assert_eq!(code(&out), 1, "{name}: {}", stdout(&out));
    let err = stderr(&out);
    assert!(err.contains("line ") && err.contains("column "), "{name}: {err}");
    assert!(!err.contains("panicked"), "{name}: {err}");
    err
}

// ---------------------------------------------------------------------------------------------
// W1, W2, C2: every count exact at the edges of 32 and 64 bits

#[test]
fn products_of_32_bit_values_are_exact() {
    let dir = TempDir::new("w1");
    let big: Vec<i128> = vec![2_147_483_646, 2_147_483_647];
    let text = instance(
        "<array id=\"x\" size=\"[3]\"> 2147483646..2147483647 </array>",
        "<intension> gt(add(mul(x[0],x[1]),mul(x[1],x[2]),mul(x[0],x[2])),0) </intension>",
    );
    let expected = brute(&[big.clone(), big.clone(), big.clone()], &|v| {
        v[0] * v[1] + v[1] * v[2] + v[0] * v[2] > 0
    });
    assert_eq!(count(&dir, "w1.xml", &text), expected);
    let text = instance(
        "<var id=\"x\"> 2147483647 </var><var id=\"y\"> 2147483647 </var><var id=\"z\"> 2147483647 </var>",
        "<intension> gt(mul(x,y,z),0) </intension>",
    );
    assert_eq!(count(&dir, "mul3.xml", &text), 1);
    // 2^63 and beyond, exactly: pow(x, y) over x in 2..3, y in 60..70.
    let text = instance(
        "<var id=\"x\"> 2..3 </var><var id=\"y\"> 60..70 </var>",
        "<intension> gt(pow(x,y),9223372036854775807) </intension>",
    );
    let expected = brute(&[(2..=3).collect(), (60..=70).collect()], &|v| {
        v[0].pow(v[1] as u32) > i128::from(i64::MAX)
    });
    assert_eq!(count(&dir, "pow.xml", &text), expected);
}

#[test]
fn sums_with_64_bit_coefficients_are_exact() {
    let dir = TempDir::new("w2");
    let c = 4_611_686_018_427_387_904i128;
    let text = instance(
        "<var id=\"x\"> 0..3 </var><var id=\"y\"> 0..3 </var>",
        "<sum><list> x y </list><coeffs> 4611686018427387904 4611686018427387904 </coeffs><condition> (ge,0) </condition></sum>",
    );
    let d: Vec<i128> = (0..=3).collect();
    assert_eq!(
        count(&dir, "w2.xml", &text),
        brute(&[d.clone(), d.clone()], &|v| c * v[0] + c * v[1] >= 0)
    );
    // C2: the propagator and the final check agree.
    let m = i128::from(i32::MAX);
    let text = instance(
        "<array id=\"x\" size=\"[3]\"> 2147483646..2147483647 </array>",
        "<sum><list> x[] </list><coeffs> 2147483647 2147483647 2147483647 </coeffs><condition> (gt,0) </condition></sum>",
    );
    let big: Vec<i128> = vec![m - 1, m];
    assert_eq!(
        count(&dir, "c2.xml", &text),
        brute(&[big.clone(), big.clone(), big], &|v| m * (v[0] + v[1] + v[2])
            > 0)
    );
    let max = i128::from(i64::MAX);
    let text = instance(
        "<array id=\"x\" size=\"[4]\"> 0..1 </array>",
        "<sum><list> x[] </list><coeffs> 9223372036854775807 9223372036854775807 1 1 </coeffs><condition> (ge,0) </condition></sum>",
    );
    let bit: Vec<i128> = vec![0, 1];
    let four = [bit.clone(), bit.clone(), bit.clone(), bit.clone()];
    assert_eq!(
        count(&dir, "c2b.xml", &text),
        brute(&four, &|v| max * v[0] + max * v[1] + v[2] + v[3] >= 0)
    );
    let text = instance(
        "<var id=\"x\"> 0..1 </var><var id=\"y\"> 0..1 </var><var id=\"z\"> 0..1 </var><var id=\"w\"> 0..1 </var>",
        "<intension> eq(add(mul(x,9223372036854775807),mul(y,9223372036854775807),z,w),18446744073709551615) </intension>",
    );
    // The constant is past 64 bits: refused where it is written, not miscounted.
    refused(&dir, "c2c.xml", &text);
    let text = instance(
        "<var id=\"x\"> 0..1 </var><var id=\"y\"> 0..1 </var><var id=\"z\"> 0..1 </var><var id=\"w\"> 0..1 </var>",
        "<intension> gt(add(mul(x,9223372036854775807),mul(y,9223372036854775807),z,w),9223372036854775807) </intension>",
    );
    assert_eq!(
        count(&dir, "c2d.xml", &text),
        brute(&four, &|v| max * v[0] + max * v[1] + v[2] + v[3] > max)
    );
}

#[test]
fn values_beyond_128_bits_are_refused_where_they_are_written() {
    let dir = TempDir::new("w128");
    let text = instance(
        "<var id=\"x\"> 2..3 </var><var id=\"y\"> 0..200 </var>",
        "<intension> gt(pow(x,y),0) </intension>",
    );
    let err = refused(&dir, "pow200.xml", &text);
    assert!(err.contains("128-bit"), "{err}");
    let text = instance(
        "<array id=\"x\" size=\"[5]\"> 2147483646..2147483647 </array>",
        "<intension> gt(mul(x[0],x[1],x[2],x[3],x[4]),0) </intension>",
    );
    refused(&dir, "mul5.xml", &text);
}

/// Cases the differential test (`tests/cli/xcsp_differential_cli.rs`) found, minimised: a
/// coefficient that leaves 64 bits once a variable's terms are merged, or once the
/// condition's variable is moved to the left side, and an element whose first index is at
/// the edge of 64 bits.
#[test]
fn coefficients_and_start_indices_at_the_edges_of_64_bits() {
    let dir = TempDir::new("edges");
    let max = i128::from(i64::MAX);
    let min = i128::from(i64::MIN);
    let bit: Vec<i128> = vec![0, 1];
    let three = [bit.clone(), bit.clone(), bit.clone()];
    let vars = "<var id=\"x\"> 0..1 </var><var id=\"y\"> 0..1 </var><var id=\"z\"> 0..1 </var>";
    // x + (2^63 - 1) x merges into a coefficient of 2^63: the general path, not an error.
    let text = instance(
        vars,
        "<intension> ge(add(x,mul(9223372036854775807,x),y,z),0) </intension>",
    );
    assert_eq!(
        count(&dir, "merged.xml", &text),
        brute(&three, &|v| v[0] + max * v[0] + v[1] + v[2] >= 0)
    );
    let text = instance(
        vars,
        "<sum><list> x x y </list><coeffs> 1 9223372036854775807 1 </coeffs><condition> (ge,z) </condition></sum>",
    );
    assert_eq!(
        count(&dir, "merged_sum.xml", &text),
        brute(&three, &|v| v[0] + max * v[0] + v[1] >= v[2])
    );
    // x - 2^63 y + z <= y: y's coefficient becomes -2^63 - 1 (it wrapped to 2^63 - 1 in
    // release builds, a count of 1).
    let text = instance(
        vars,
        "<sum><list> x y z </list><coeffs> 1 -9223372036854775808 1 </coeffs><condition> (le,y) </condition></sum>",
    );
    assert_eq!(
        count(&dir, "operand.xml", &text),
        brute(&three, &|v| v[0] + min * v[1] + v[2] <= v[1])
    );
    // index - start past 64 bits: no index value selects an item (it panicked on overflow).
    for start in [
        "-9223372036854775808",
        "-9223372036854775807",
        "9223372036854775807",
    ] {
        let text = instance(
            "<var id=\"i\"> -2..1 </var><var id=\"x\"> 0..1 </var>",
            &format!(
                "<element><list startIndex=\"{start}\"> x 0 </list><index> i </index><value> 0 </value></element>"
            ),
        );
        let start: i128 = start.parse().unwrap();
        let expected = brute(&[(-2..=1).collect(), bit.clone()], &|v| match v[0] - start {
            0 => v[1] == 0,
            1 => true,
            _ => false,
        });
        assert_eq!(count(&dir, "element.xml", &text), expected, "start {start}");
    }
}

/// Found by the differential test: a sum of functions of one variable each, one of whose
/// functions takes values too far apart for a domain, was refused ("a domain may span at
/// most 67108864 values") instead of taking the general path.
#[test]
fn a_function_with_values_far_apart_is_summed_all_the_same() {
    let dir = TempDir::new("far");
    let bit: Vec<i128> = vec![0, 1];
    let three = [bit.clone(), bit.clone(), bit];
    let vars = "<var id=\"x\"> 0..1 </var><var id=\"y\"> 0..1 </var><var id=\"z\"> 0..1 </var>";
    let text = instance(vars, "<intension> eq(add(if(x,2147483647,0),y,z),2) </intension>");
    let f = |x: i128| if x != 0 { 2_147_483_647 } else { 0 };
    assert_eq!(
        count(&dir, "if.xml", &text),
        brute(&three, &|v| f(v[0]) + v[1] + v[2] == 2)
    );
    let text = instance(
        vars,
        "<intension> ge(add(if(x,-2147483648,2),y,z),2) </intension>",
    );
    let f = |x: i128| if x != 0 { -2_147_483_648 } else { 2 };
    assert_eq!(
        count(&dir, "if2.xml", &text),
        brute(&three, &|v| f(v[0]) + v[1] + v[2] >= 2)
    );
}

/// Found by the differential test: every subexpression's bounds fitted 64 bits, so the
/// expression was evaluated in i64, but a partial sum (or product) of an n-ary `add` (`mul`)
/// did not, and the tuples that passed through it were lost.
#[test]
fn partial_sums_and_products_past_64_bits_lose_no_tuple() {
    let dir = TempDir::new("partial");
    let max = i128::from(i64::MAX);
    let bit: Vec<i128> = vec![0, 1];
    let low: Vec<i128> = vec![-11, -10];
    let text = instance(
        "<var id=\"x\"> 0..1 </var><var id=\"y\"> -11..-10 </var><var id=\"z\"> -11..-10 </var>",
        "<intension> gt(add(if(x,-9223372036854775807,0),y,neg(z)),-9223372036854775807) </intension>",
    );
    assert_eq!(
        count(&dir, "add.xml", &text),
        brute(&[bit.clone(), low.clone(), low], &|v| {
            (if v[0] != 0 { -max } else { 0 }) + v[1] - v[2] > -max
        })
    );
    let text = instance(
        "<var id=\"x\"> 0..1 </var><var id=\"y\"> 0 </var><var id=\"z\"> 0..1 </var>",
        "<intension> eq(mul(9223372036854775807,2,y),mul(x,z)) </intension>",
    );
    assert_eq!(
        count(&dir, "mul.xml", &text),
        brute(&[bit.clone(), vec![0], bit], &|v| max * 2 * v[1] == v[0] * v[2])
    );
}

/// Found by the differential test once the XCSP3-core globals were merged: an element whose
/// condition is not `(eq, ...)` saw the selected item through a variable that left out the
/// integers past 32 bits (a wrong count) and could not hold values far apart (a refusal); a sum
/// with variables as coefficients was refused when a product passed 32 bits.
#[test]
fn element_items_and_sum_products_past_32_bits() {
    let dir = TempDir::new("globals");
    let bit: Vec<i128> = vec![0, 1];
    let text = instance(
        "<var id=\"i\"> 0..1 </var><var id=\"x\"> 0..1 </var>",
        "<element><list> x 2147483648 </list><index> i </index><condition> (gt,0) </condition></element>",
    );
    let item = |v: &[i128]| [v[1], 2_147_483_648][v[0] as usize];
    assert_eq!(
        count(&dir, "element.xml", &text),
        brute(&[bit.clone(), bit.clone()], &|v| item(v) > 0)
    );
    let text = instance(
        "<var id=\"i\"> 0..2 </var><var id=\"x\"> -65537 -65535 </var>",
        "<element><list> x 2147483647 </list><index> i </index><condition> (gt,-65536) </condition></element>",
    );
    let item = |v: &[i128]| [Some(v[1]), Some(2_147_483_647), None][v[0] as usize];
    assert_eq!(
        count(&dir, "far.xml", &text),
        brute(&[(0..=2).collect(), vec![-65537, -65535]], &|v| {
            item(v).is_some_and(|a| a > -65536)
        })
    );
    let big: Vec<i128> = vec![2_147_483_646, 2_147_483_647];
    let k = 2_147_483_646i128 * 2_147_483_647;
    let text = instance(
        "<var id=\"x\"> 2147483646..2147483647 </var><var id=\"y\"> 2147483646..2147483647 </var><var id=\"z\"> 0..1 </var>",
        &format!("<sum><list> x z </list><coeffs> y y </coeffs><condition> (gt,{k}) </condition></sum>"),
    );
    assert_eq!(
        count(&dir, "products.xml", &text),
        brute(&[big.clone(), big, bit], &|v| v[0] * v[1] + v[2] * v[1] > k)
    );
}

/// Found by the differential test's `globals` mode: `minimum` and `maximum` over items too far
/// apart for a result variable over their whole range were refused ("a domain may span at
/// most 67108864 values").
#[test]
fn extrema_of_items_far_apart_are_counted() {
    let dir = TempDir::new("extrema");
    let vars = "<var id=\"x\"> 0..1 </var><var id=\"y\"> 2147483646..2147483647 </var>";
    let domains = [vec![0, 1], vec![2_147_483_646, 2_147_483_647]];
    for (name, c, holds) in [
        (
            "maximum",
            "<maximum><list> x y </list><condition> (eq,2147483647) </condition></maximum>",
            &(|v: &[i128]| v[0].max(v[1]) == 2_147_483_647) as &dyn Fn(&[i128]) -> bool,
        ),
        (
            "minimum",
            "<minimum><list> x y </list><condition> (ge,1) </condition></minimum>",
            &|v: &[i128]| v[0].min(v[1]) >= 1,
        ),
    ] {
        let text = instance(vars, c);
        assert_eq!(
            count(&dir, &format!("{name}.xml"), &text),
            brute(&domains, holds),
            "{name}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// B2: `imp`, `and`, `or` are decided by a defined operand

#[test]
fn a_guarded_division_counts_as_brute_force_with_lazy_connectives() {
    let dir = TempDir::new("b2");
    let vars = "<var id=\"x\"> -3..3 </var><var id=\"y\"> -3..3 </var>";
    let d: Vec<i128> = (-3..=3).collect();
    let text = instance(vars, "<intension> imp(ne(y,0),eq(div(x,y),0)) </intension>");
    assert_eq!(
        count(&dir, "imp.xml", &text),
        brute(&[d.clone(), d.clone()], &|v| v[1] == 0 || v[0] / v[1] == 0)
    );
    let text = instance(vars, "<intension> or(eq(y,0),gt(mod(x,y),0)) </intension>");
    assert_eq!(
        count(&dir, "or.xml", &text),
        brute(&[d.clone(), d], &|v| v[1] == 0 || v[0] % v[1] > 0)
    );
}

// ---------------------------------------------------------------------------------------------
// C1: deep nesting is refused with its place, the same on every thread, and the batch goes on

#[test]
fn deep_nesting_is_refused_and_the_batch_goes_on() {
    let dir = TempDir::new("c1");
    let vars = "<var id=\"x\"> 0..3 </var><var id=\"y\"> 0..3 </var>";
    let ok = dir.file("ok.xml", &instance(vars, "<intension> eq(x,y) </intension>"));
    let deep = format!("{}eq(x,y){}", "not(".repeat(40_000), ")".repeat(40_000));
    let deep = dir.file(
        "deep.xml",
        &instance(vars, &format!("<intension> {deep} </intension>")),
    );
    let blocks = format!(
        "{}<intension> eq(x,y) </intension>{}",
        "<block>".repeat(10_000),
        "</block>".repeat(10_000)
    );
    let blocks = dir.file("blocks.xml", &instance(vars, &blocks));
    let add = format!("{}x{}", "add(1,".repeat(50_000), ")".repeat(50_000));
    let add = dir.file(
        "add.xml",
        &instance(vars, &format!("<intension> gt({add},y) </intension>")),
    );
    for jobs in ["1", "2"] {
        let out = run(&["count", &ok, &deep, &blocks, &add, &ok, "-j", jobs], None);
        assert_eq!(code(&out), 1, "{}", stderr(&out));
        let lines: Vec<String> = stdout(&out).lines().map(String::from).collect();
        assert_eq!(lines.len(), 5, "{lines:?}");
        assert!(
            lines[0].ends_with(": 4") && lines[4].ends_with(": 4"),
            "{lines:?}"
        );
        for l in &lines[1..4] {
            assert!(l.ends_with("# error"), "{lines:?}");
        }
        let err = stderr(&out);
        assert_eq!(err.matches("nested deeper than").count(), 3, "{err}");
    }
}

// ---------------------------------------------------------------------------------------------
// D1, D2, H1: `solve --all` streams

/// Ten variables over 0..9 and a sum that always holds: 10^10 solutions, more than any test
/// waits for.
fn endless(dir: &TempDir) -> String {
    dir.file(
        "long.xml",
        &instance(
            "<array id=\"x\" size=\"[10]\"> 0..9 </array>",
            "<sum><list> x[] </list><condition> (ge,0) </condition></sum>",
        ),
    )
}

#[test]
fn json_gives_every_solution_as_a_line_then_the_count() {
    let dir = TempDir::new("d1");
    let small = dir.file(
        "small.xml",
        &instance(
            "<array id=\"x\" size=\"[3]\"> 0..1 </array>",
            "<sum><list> x[] </list><condition> (ge,2) </condition></sum>",
        ),
    );
    let out = run(&["solve", &small, "--all", "--format", "json"], None);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let lines = json_lines(&out);
    let (last, solutions) = lines.split_last().unwrap();
    let expected = brute(&[vec![0, 1], vec![0, 1], vec![0, 1]], &|v| {
        v.iter().sum::<i128>() >= 2
    });
    assert_eq!(solutions.len() as u64, expected);
    for s in solutions {
        let sum: i64 = s["solution"]
            .as_object()
            .unwrap()
            .values()
            .map(|v| v.as_i64().unwrap())
            .sum();
        assert!(sum >= 2, "{s}");
    }
    assert_eq!(last["count"], expected);
    assert_eq!(last["status"], "solved");
}

#[cfg(unix)]
#[test]
fn a_closed_pipe_ends_an_endless_enumeration_at_once() {
    use std::process::{Command, Stdio};
    let dir = TempDir::new("h1");
    let long = endless(&dir);
    for format in ["line", "json", "xcsp"] {
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let out = Command::new(env!("CARGO_BIN_EXE_csp"))
            .args(["solve", &long, "--all", "--format", format])
            .stdout(Stdio::from(writer))
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{format}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// SIGINT during `solve --all`: every solution found is written, and the closing line counts
/// exactly the lines before it.
#[cfg(unix)]
#[test]
fn an_interrupted_enumeration_writes_every_solution_and_their_count() {
    use std::io::{BufRead, BufReader};
    use std::process::{Command, Stdio};
    let dir = TempDir::new("d2");
    let long = endless(&dir);
    let mut child = Command::new(env!("CARGO_BIN_EXE_csp"))
        .args(["solve", &long, "--all"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut seen = 0u64;
    // Signal once solutions are flowing: the count does not depend on when.
    for line in lines.by_ref() {
        let line = line.unwrap();
        assert!(line.starts_with("x[0]="), "{line}");
        seen += 1;
        if seen == 1000 {
            let pid = child.id().to_string();
            assert!(
                Command::new("kill")
                    .args(["-INT", &pid])
                    .status()
                    .unwrap()
                    .success()
            );
            break;
        }
    }
    let mut closing = None;
    for line in lines {
        let line = line.unwrap();
        if line.starts_with('#') {
            closing = Some(line);
        } else {
            assert!(closing.is_none(), "a solution after the closing line");
            seen += 1;
        }
    }
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130));
    let closing = closing.expect("a closing line");
    assert_eq!(closing, format!("# cancelled after {seen} solutions"));
}

// ---------------------------------------------------------------------------------------------
// H2, H3: bombs and the limits on reading

fn xz(bytes: &[u8]) -> Vec<u8> {
    let mut child = std::process::Command::new("xz")
        .args(["-c", "-1"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("xz is installed");
    let mut input = child.stdin.take().unwrap();
    let data = bytes.to_vec();
    let writer = std::thread::spawn(move || input.write_all(&data));
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    out.stdout
}

#[test]
fn a_bomb_is_refused_at_the_input_limit_and_binary_data_at_once() {
    let dir = TempDir::new("h2");
    let mut text = format!("{HEAD}<var id=\"x\"> 0..3 </var>");
    text.push_str(&" ".repeat(4 << 20));
    text.push_str("</variables><constraints><intension> lt(x,2) </intension></constraints></instance>\n");
    let bomb = dir.path("bomb.xml.xz");
    std::fs::write(&bomb, xz(text.as_bytes())).unwrap();
    let out = run(&["count", &bomb, "--max-input", "1M"], None);
    assert_eq!(code(&out), 1);
    assert!(
        stderr(&out).contains("larger than 1048576 bytes"),
        "{}",
        stderr(&out)
    );
    // Under the limit, the same file is read.
    let out = run(&["count", &bomb, "--max-input", "8M"], None);
    assert_eq!((code(&out), stdout(&out).trim()), (0, "2"), "{}", stderr(&out));
    let zeros = dir.path("zeros.xml.xz");
    std::fs::write(&zeros, xz(&vec![0u8; 8 << 20])).unwrap();
    let out = run(&["count", &zeros], None);
    assert_eq!(code(&out), 1);
    assert!(stderr(&out).contains("0x00"), "{}", stderr(&out));
    let gz = dir.path("g.xml.gz");
    std::fs::write(&gz, [0x1f, 0x8b, 8, 0, 0, 0]).unwrap();
    let out = run(&["count", &gz], None);
    assert!(stderr(&out).contains("gzip"), "{}", stderr(&out));
}

#[test]
fn the_time_limit_covers_reading_and_posting() {
    let dir = TempDir::new("h3");
    // A million tuples: reading them takes far longer than a microsecond on any machine.
    let mut text = String::from(HEAD);
    text.push_str("<array id=\"x\" size=\"[3]\"> 0..99 </array></variables><constraints><extension><list> x[] </list><supports>");
    for i in 0..1_000_000u32 {
        text.push_str(&format!(
            "({},{},{})",
            i % 100,
            (i / 100) % 100,
            (i / 10_000) % 100
        ));
    }
    text.push_str("</supports></extension></constraints></instance>\n");
    let path = dir.file("table.xml", &text);
    let out = run(
        &["count", &path, "--timeout", "0.000001", "--format", "json"],
        None,
    );
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let answer = &json_lines(&out)[0];
    assert_eq!(answer["status"], "limit", "{answer}");
    assert_eq!(answer["limit"], "time limit reached", "{answer}");
}

#[test]
fn sparse_domains_are_refused_with_the_reason() {
    let dir = TempDir::new("h4");
    let text = instance(
        "<array id=\"x\" size=\"[8]\"> -33554432 0 33554431 </array>",
        "<sum><list> x[] </list><condition> (eq,0) </condition></sum>",
    );
    let err = refused(&dir, "wide.xml", &text);
    assert!(err.contains("64 times its number of values"), "{err}");
    // A domain of a few values over a span csp stores cheaply is read.
    let text = instance(
        "<array id=\"x\" size=\"[4]\"> -65536 0 65535 </array>",
        "<sum><list> x[] </list><condition> (eq,0) </condition></sum>",
    );
    let d: Vec<i128> = vec![-65536, 0, 65535];
    assert_eq!(
        count(&dir, "narrow.xml", &text),
        brute(&[d.clone(), d.clone(), d.clone(), d], &|v| v.iter().sum::<i128>()
            == 0)
    );
}

// ---------------------------------------------------------------------------------------------
// B-findings: malformed forms are refused with their place; legal compact forms are read

#[test]
fn malformed_forms_are_refused_with_their_place() {
    let dir = TempDir::new("b8");
    let vars =
        "<var id=\"x\"> 0..3 </var><var id=\"y\"> 0..3 </var><array id=\"m\" size=\"[2][2]\"> 0..1 </array>";
    let cases = [
        ("set", "<intension> eq(x,set(1,2)) </intension>"),
        ("integer", "<intension> add(x,y) </intension>"),
        (
            "args",
            "<group><intension> lt(%0,%1) </intension><args> x y m[0][0] </args></group>",
        ),
        ("noargs", "<group><intension> lt(%0,%1) </intension></group>"),
        (
            "percent",
            "<group><intension> lt(%00,%1) </intension><args> x y </args></group>",
        ),
        (
            "ragged",
            "<allDifferent><matrix> (x,y)(m[0][0]) </matrix></allDifferent>",
        ),
        (
            "window",
            "<slide><list> x y </list><intension> lt(%0,%1,%2) </intension></slide>",
        ),
        (
            "interval",
            "<sum><list> x y </list><condition> (in,5..2) </condition></sum>",
        ),
    ];
    for (name, c) in cases {
        refused(&dir, &format!("{name}.xml"), &instance(vars, c));
    }
    for id in ["x[0]", "1x", "a b", "x\u{e9}"] {
        let text = instance(&format!("<var id=\"{id}\"> 0..3 </var>"), "");
        let err = refused(&dir, "id.xml", &text);
        assert!(err.contains("identifier"), "{id}: {err}");
    }
    let path = dir.path("bytes.xml");
    let mut bytes = instance("<var id=\"x\"> 0..3 </var>", "<intension> lt(x,2) </intension>").into_bytes();
    let at = bytes.len() - 40;
    bytes[at] = 0xff;
    std::fs::write(&path, bytes).unwrap();
    let out = run(&["count", &path], None);
    assert_eq!(code(&out), 1);
    assert!(
        stderr(&out).contains("not UTF-8") && stderr(&out).contains("line 6"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn repetitions_in_integer_lists_are_read_negative_values_included() {
    let dir = TempDir::new("vxk");
    let text = instance(
        "<array id=\"x\" size=\"[5]\"> -2..2 </array>",
        "<sum><list> x[] </list><coeffs> -1x2 3 2x2 </coeffs><condition> (eq,1) </condition></sum>",
    );
    let d: Vec<i128> = (-2..=2).collect();
    let five = [d.clone(), d.clone(), d.clone(), d.clone(), d];
    let expected = brute(&five, &|v| -v[0] - v[1] + 3 * v[2] + 2 * v[3] + 2 * v[4] == 1);
    assert_eq!(count(&dir, "vxk.xml", &text), expected);
}

#[test]
fn concatenated_xz_streams_are_one_instance() {
    let dir = TempDir::new("b9");
    let text = instance("<var id=\"x\"> 0..3 </var>", "<intension> lt(x,3) </intension>");
    let mut bytes = xz(text.as_bytes());
    bytes.extend(xz(b""));
    let path = dir.path("m.xml.xz");
    std::fs::write(&path, bytes).unwrap();
    let out = run(&["count", &path], None);
    assert_eq!((code(&out), stdout(&out).trim()), (0, "3"), "{}", stderr(&out));
}

#[test]
fn exit_codes_for_missing_files_limits_and_stdin() {
    let dir = TempDir::new("b3");
    let path = dir.file(
        "x.xml",
        &instance("<var id=\"x\"> 0..3 </var>", "<intension> lt(x,3) </intension>"),
    );
    // B3: a cap of 0 caps nothing.
    assert_eq!(code(&run(&["count", &path, "--limit", "0"], None)), 2);
    // B4: a missing file or a directory is an argument error, before anything runs.
    assert_eq!(code(&run(&["count", "no-such-file.xml"], None)), 2);
    assert_eq!(code(&run(&["count", &dir.0.display().to_string()], None)), 2);
    // `-` reads standard input.
    let text = instance("<var id=\"x\"> 0..3 </var>", "<intension> lt(x,2) </intension>");
    let out = run(&["count", "-"], Some(&text));
    assert_eq!((code(&out), stdout(&out).trim()), (0, "2"), "{}", stderr(&out));
}

#[test]
fn dimacs_lines_with_extra_fields_are_errors() {
    let dir = TempDir::new("b10");
    for (name, text) in [
        ("three.col", "p edge 3 1\ne 1 2 3\n"),
        ("x.col", "p edge 3 1\ne 1 2\nx 1 2\n"),
    ] {
        let path = dir.file(name, text);
        let out = run(&["count", &path, "--colors", "2"], None);
        assert_eq!(code(&out), 1, "{name}");
        assert!(stderr(&out).contains("line "), "{name}: {}", stderr(&out));
    }
}

/// Runs `csp args` with a standard input that stays open and says nothing, and returns its
/// output once it ends (within 60 s, or the test fails: a read that no limit stops). With
/// `signal`, SIGTERM comes once csp runs: a signal before its handler is in place ends it
/// at once, which is tried again later (a loaded machine starts programs slowly).
#[cfg(unix)]
fn with_silent_stdin(args: &[&str], signal: bool) -> std::process::Output {
    if !signal {
        return silent_stdin_run(args, None);
    }
    for ms in [300, 1_000, 3_000, 10_000] {
        let out = silent_stdin_run(args, Some(std::time::Duration::from_millis(ms)));
        if out.status.code().is_some() {
            return out;
        }
    }
    panic!("{args:?}: killed by SIGTERM before its handler was in place, four times");
}

#[cfg(unix)]
fn silent_stdin_run(args: &[&str], signal_after: Option<std::time::Duration>) -> std::process::Output {
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_csp"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let held = child.stdin.take();
    if let Some(after) = signal_after {
        std::thread::sleep(after);
        let killed = std::process::Command::new("kill")
            .args(["-TERM", &child.id().to_string()])
            .status()
            .unwrap();
        assert!(killed.success());
    }
    let end = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while child.try_wait().unwrap().is_none() {
        assert!(
            std::time::Instant::now() < end,
            "{args:?} still waits for its input"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    drop(held);
    child.wait_with_output().unwrap()
}

/// L2 of the second adversarial run: the time limit and signals act while csp waits for
/// standard input (or a FIFO) that sends nothing, and `-` gets its answer line as any file.
#[cfg(unix)]
#[test]
fn the_time_limit_and_signals_act_while_input_waits() {
    let out = with_silent_stdin(&["count", "-", "--timeout", "0.5"], false);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    assert_eq!(stdout(&out).trim(), "0+ (time limit reached)");
    let out = with_silent_stdin(&["count", "-"], true);
    assert_eq!(code(&out), 143, "{}", stderr(&out));
    assert_eq!(stdout(&out).trim(), "0+ (cancelled)");
    // A FIFO that no one opens for writing: its opening waits as well.
    let dir = TempDir::new("fifo-wait");
    let fifo = dir.path("silent.xml");
    assert!(
        std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let out = with_silent_stdin(&["count", &fifo, "--timeout", "0.5"], false);
    assert_eq!(stdout(&out).trim(), "0+ (time limit reached)", "{}", stderr(&out));
}

/// L1 and D1 of the second adversarial run: `compare` reads each file under `--timeout`
/// (a file not read in time gives its runs at the time limit), and a signal during the
/// reading writes no record, so that `--resume` runs them later.
#[cfg(unix)]
#[test]
fn compare_reads_under_its_timeout_and_a_signal_writes_no_record() {
    let out = with_silent_stdin(
        &[
            "compare",
            "-",
            "--strategies",
            "static/asc/fc,mrv/asc/fc",
            "--timeout",
            "0.5",
            "--format",
            "jsonl",
        ],
        false,
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let records = json_lines(&out);
    assert_eq!(records.len(), 2, "{}", stdout(&out));
    for r in &records {
        assert_eq!(
            (r["status"].as_str(), r["limit"].as_str()),
            (Some("limit"), Some("time")),
            "{r}"
        );
    }
    let dir = TempDir::new("d1");
    let log = dir.path("runs.jsonl");
    let out = with_silent_stdin(
        &[
            "compare",
            "-",
            "--strategies",
            "static/asc/fc",
            "--format",
            "jsonl",
            "--resume",
            &log,
        ],
        true,
    );
    assert_eq!(code(&out), 143, "{}", stderr(&out));
    let written = std::fs::read_to_string(&log).unwrap_or_default();
    assert_eq!(written, "", "a cancelled reading leaves no record");
}

// ----- Issue 30: the adversarial run of 2026-11-27 (findings W1, B1..B8) -----

/// B4: `count` and `solve --all` ignore the objective, so an objective one variable cannot
/// hold does not stop them; `solve` refuses it as unsupported, with its place and why.
#[test]
fn an_objective_wider_than_a_variable_stops_only_solve() {
    let dir = TempDir::new("i30-b4");
    let lo = 2_147_483_645_i128;
    let domains = vec![(lo..=lo + 2).collect::<Vec<_>>(); 2];
    let text = format!(
        "<instance format=\"XCSP3\" type=\"COP\">\n<variables>\n<var id=\"x\"> {lo}..{} </var>\n<var id=\"y\"> {lo}..{} </var>\n</variables>\n<constraints>\n<intension> lt(x,y) </intension>\n</constraints>\n<objectives> <minimize type=\"sum\"> x y </minimize> </objectives>\n</instance>\n",
        lo + 2,
        lo + 2
    );
    let expected = brute(&domains, &|v| v[0] < v[1]);
    assert_eq!(count(&dir, "wide.xml", &text), expected);
    let path = dir.file("wide.xml", &text);
    let all = run(&["solve", &path, "--all"], None);
    assert_eq!(code(&all), 0, "{}", stderr(&all));
    assert_eq!(
        stdout(&all).lines().filter(|l| l.starts_with("x=")).count() as u64,
        expected
    );
    let out = run(&["solve", &path, "--format", "xcsp"], None);
    assert_eq!(code(&out), 1);
    assert!(stdout(&out).contains("s UNSUPPORTED"), "{}", stdout(&out));
    let err = stderr(&out);
    assert!(
        err.contains("line 9, column") && err.contains("objective"),
        "{err}"
    );
}

/// B2: the bounds of `mod` follow the divisor (and those of `div` and `if` what the operands
/// allow), so expressions whose values stay small are counted, not refused as too wide.
#[test]
fn a_remainder_is_bounded_by_its_divisor() {
    let dir = TempDir::new("i30-b2");
    let y: Vec<i128> = (0..=200).collect();
    let text = instance(
        "<var id=\"y\"> 0..200 </var>",
        "<intension> eq(pow(3,mod(y,2)),3) </intension>",
    );
    let expected = brute(std::slice::from_ref(&y), &|v| 3i128.pow((v[0] % 2) as u32) == 3);
    assert_eq!(count(&dir, "pow-mod.xml", &text), expected);
    // A quotient by a constant of the same sign bounds the exponent too.
    let text = instance(
        "<var id=\"y\"> 0..200 </var>",
        "<intension> lt(pow(2,div(y,50)),20) </intension>",
    );
    let expected = brute(&[y], &|v| 2i128.pow((v[0] / 50) as u32) < 20);
    assert_eq!(count(&dir, "pow-div.xml", &text), expected);
}

/// B1: a comparison of sums of functions of one variable whose coefficients, merged per
/// variable, leave 64 bits falls back to the general expression, as the plain linear path does.
#[test]
fn merged_coefficients_past_64_bits_in_a_sum_of_functions_are_exact() {
    let dir = TempDir::new("i30-b1");
    let bit: Vec<i128> = vec![0, 1];
    let max = i128::from(i64::MAX);
    for (name, expr, holds) in [
        (
            "abs.xml",
            "ge(add(mul(9223372036854775807,x),y,abs(z)),neg(x))",
            &(|v: &[i128]| max * v[0] + v[1] + v[2].abs() >= -v[0]) as &dyn Fn(&[i128]) -> bool,
        ),
        (
            "twice.xml",
            "eq(add(mul(9223372036854775807,abs(z)),mul(9223372036854775807,abs(z)),x),y)",
            &(|v: &[i128]| 2 * max * v[2].abs() + v[0] == v[1]),
        ),
    ] {
        let text = instance(
            "<var id=\"x\"> 0..1 </var>\n<var id=\"y\"> 0..1 </var>\n<var id=\"z\"> 0..1 </var>",
            &format!("<intension> {expr} </intension>"),
        );
        let expected = brute(&[bit.clone(), bit.clone(), bit.clone()], holds);
        assert_eq!(count(&dir, name, &text), expected, "{expr}");
    }
}

/// B3: messages name the file's variables and show its expressions as written, even when the
/// file declares variables named like csp's internal ones (`x0`, `x1`).
#[test]
fn messages_name_the_files_variables() {
    let dir = TempDir::new("i30-b3");
    let vars = "<var id=\"x0\"> 0..1 </var>\n<var id=\"x1\"> 0..1 </var>\n<var id=\"y\"> 2..100 </var>\n<var id=\"big\"> 2147483000..2147483647 </var>\n<var id=\"w\"> 2147483000..2147483647 </var>";
    let err = refused(
        &dir,
        "pow.xml",
        &instance(
            vars,
            "<intension> eq(add(x0,x1,pow(y,add(x0,30))),3) </intension>",
        ),
    );
    assert!(err.contains("pow(y,add(x0,30))") && !err.contains("x2"), "{err}");
    let err = refused(
        &dir,
        "element.xml",
        &instance(
            vars,
            "<element><list> mul(big,w) x0 </list><index> x1 </index><value> 1 </value></element>",
        ),
    );
    assert!(err.contains("mul(big,w)") && !err.contains("x3"), "{err}");
    let text = format!(
        "<instance format=\"XCSP3\" type=\"COP\">\n<variables>\n{vars}\n</variables>\n<constraints>\n<intension> lt(x0,x1) </intension>\n</constraints>\n<objectives> <minimize type=\"sum\"> <list> big w </list> <coeffs> 4294967296 1 </coeffs> </minimize> </objectives>\n</instance>\n"
    );
    let path = dir.file("objective.xml", &text);
    let out = run(&["solve", &path], None);
    assert_eq!(code(&out), 1);
    let err = stderr(&out);
    assert!(
        err.contains("add(mul(4294967296,big),w)") && err.contains("line 12, column"),
        "{err}"
    );
}

/// B6: the cap on a list's repetitions is on the whole list, and the message says so.
#[test]
fn a_repeat_count_past_the_list_cap_names_the_total() {
    let dir = TempDir::new("i30-b6");
    let text = instance(
        "<var id=\"x\"> 0..1 </var>\n<var id=\"y\"> 0..1 </var>",
        "<sum> <list> x y </list> <coeffs> 1x33554432 1x1 </coeffs> <condition> (le,1) </condition> </sum>",
    );
    let err = refused(&dir, "vxk.xml", &text);
    assert!(err.contains("33554433 items") && err.contains("`1x1`"), "{err}");
    let text = instance(
        "<var id=\"x\"> 0..1 </var>\n<var id=\"y\"> 0..1 </var>",
        "<sum> <list> x y </list> <coeffs> 1x-1 </coeffs> <condition> (le,1) </condition> </sum>",
    );
    assert!(refused(&dir, "neg.xml", &text).contains("negative"));
}

/// B8: a NUL byte (or another control character) in a `.col` file is named with its line
/// and column, not taken for a broken lzma stream; a byte-order mark is accepted.
#[test]
fn control_characters_and_a_bom_in_dimacs_files() {
    let dir = TempDir::new("i30-b8");
    let path = dir.file("nul.col", "p edge 3 1\ne 1 2\n\0\n");
    let out = run(&["count", &path, "--colors", "2"], None);
    assert_eq!(code(&out), 1);
    assert!(
        stderr(&out).contains("line 3, column 1") && stderr(&out).contains("U+0000"),
        "{}",
        stderr(&out)
    );
    let path = dir.file("bom.col", "\u{feff}p edge 3 1\ne 1 2\n");
    let out = run(&["count", &path, "--colors", "2"], None);
    let colours: Vec<i128> = vec![0, 1];
    let expected = brute(&[colours.clone(), colours.clone(), colours], &|v| v[0] != v[1]);
    assert_eq!(
        (code(&out), stdout(&out).trim().to_string()),
        (0, expected.to_string()),
        "{}",
        stderr(&out)
    );
}

/// B5: a `cumulative` limit past 32 bits is checked exactly on complete assignments (the
/// loads can add up past 32 bits); a `binPacking` whose loads cannot be 32-bit variables is
/// refused as unsupported with the sum of its sizes, a number that says why.
#[test]
fn scheduling_limits_past_32_bits() {
    let dir = TempDir::new("i30-b5");
    let top = i128::from(i32::MAX);
    let limit = 2 * top - 1;
    let text = instance(
        "<var id=\"s\"> 0..2 </var>\n<var id=\"t\"> 0..2 </var>\n<var id=\"h\"> 2147483646 2147483647 </var>",
        &format!(
            "<cumulative><origins> s t </origins><lengths> 2 1 </lengths><heights> h {top} </heights><condition> (le,{limit}) </condition></cumulative>"
        ),
    );
    let domains = [vec![0, 1, 2], vec![0, 1, 2], vec![top - 1, top]];
    let expected = brute(&domains, &|v| {
        let tasks = [(v[0], 2, v[2]), (v[1], 1, top)];
        tasks.iter().all(|&(at, _, _)| {
            let load: i128 = tasks
                .iter()
                .filter(|&&(o, l, _)| o <= at && at < o + l)
                .map(|t| t.2)
                .sum();
            load <= limit
        })
    });
    assert_eq!(count(&dir, "cumulative.xml", &text), expected);
    let text = instance(
        "<var id=\"a\"> 0 1 </var>\n<var id=\"b\"> 0 1 </var>\n<var id=\"c\"> 0 1 </var>",
        &format!(
            "<binPacking><list> a b c </list><sizes> {top} {top} 1 </sizes><condition> (le,{}) </condition></binPacking>",
            2 * top
        ),
    );
    let err = refused(&dir, "bins.xml", &text);
    assert!(
        err.contains("unsupported") && err.contains(&(2 * top + 1).to_string()),
        "{err}"
    );
}

/// B7: one rule for negative lengths, constants and variables alike: refused as unsupported
/// (the specification does not say what they mean), never a count that drops them silently.
#[test]
fn negative_lengths_are_refused_alike() {
    let dir = TempDir::new("i30-b7");
    let vars = "<var id=\"x\"> -3..3 </var>\n<var id=\"y\"> -3..3 </var>\n<var id=\"v\"> -2..-1 </var>";
    for (name, lengths) in [("var.xml", "v 2"), ("const.xml", "-1 2")] {
        let text = instance(
            vars,
            &format!("<noOverlap><origins> x y </origins><lengths> {lengths} </lengths></noOverlap>"),
        );
        let err = refused(&dir, name, &text);
        assert!(
            err.contains("unsupported") && err.contains("negative"),
            "{name}: {err}"
        );
    }
}
