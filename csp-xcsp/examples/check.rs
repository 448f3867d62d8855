//! Checks an assignment (values in declaration order after the file) against the constraints as read.
fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().unwrap();
    let values: Vec<i32> = args.map(|a| a.parse().unwrap()).collect();
    let instance = csp_xcsp::Instance::from_path(&path).unwrap();
    match instance.check(&values) {
        Ok(()) => println!("ok"),
        Err(c) => println!("violates {:?} at {}", c.constraint, c.position),
    }
    let model = &instance.model;
    println!("model says: {:?}", model.violation(&values));
}
