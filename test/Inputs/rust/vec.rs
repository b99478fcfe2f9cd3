// A small Rust program for the Rust length tests: a Vec behind a reference
// and a slice passed by value (a pointer and a length in two registers),
// whose lengths a probe reads as `items->len()` and `window.len()`.
#[inline(never)]
pub fn sum(items: &Vec<i64>, window: &[i64]) -> i64 {
    let s: i64 = items.iter().sum::<i64>() + window.iter().sum::<i64>();
    println!("sum items={} window={} s={}", items.len(), window.len(), s);
    s
}

fn main() {
    let n: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(4);
    let mut v: Vec<i64> = Vec::new();
    let mut total = 0;
    for i in 0..n {
        v.push(10 * i as i64);
        total += sum(&v, &v[i / 2..]);
    }
    println!("total={}", total);
}
