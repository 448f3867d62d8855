//! Loads every file given and prints its size, variable and constraint counts and time.
fn main() {
    for path in std::env::args().skip(1) {
        let t = std::time::Instant::now();
        match csp_xcsp::Instance::from_path(&path) {
            Ok(i) => println!(
                "{path}: {} vars, {} constraints, {:.3}s",
                i.model.num_vars(),
                i.constraints.len(),
                t.elapsed().as_secs_f64()
            ),
            Err(e) => println!("{path}: ERROR {e}"),
        }
    }
}
