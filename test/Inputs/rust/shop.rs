// A small Rust program for the Rust path tests: a function in a module
// probed as `shop::cart::add`, a struct behind `&mut`, and a String.
mod cart {
    pub struct Cart {
        pub total: i64,
        pub count: i32,
        pub owner: String,
    }

    #[inline(never)]
    pub fn add(cart: &mut Cart, n: i64) -> i64 {
        cart.total += n;
        cart.count += 1;
        println!("add n={} total={} count={}", n, cart.total, cart.count);
        cart.total
    }
}

fn main() {
    let n: i64 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(2);
    let mut c = cart::Cart { total: 0, count: 0, owner: String::from("bob") };
    for i in 0..n {
        cart::add(&mut c, 10 * (i + 1));
    }
    println!("owner={}", c.owner);
}
