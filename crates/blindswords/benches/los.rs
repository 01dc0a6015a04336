//! Line of sight (SR 9.1a, EX 9.1a) on the full reconstructed Perryville map: every pair of hexes
//! within 10 hexes of twelve fixed sources spread over the map, with a unit in every seventh hex.
//! The baseline, in the same run, is plain hex distance over the same pairs, so the cost of a LOS
//! query can be read as a multiple of a distance.
//!
//! Run with `nice -n 19 cargo bench -p caisson-blindswords --bench los`.

use std::hint::black_box;

use caisson_blindswords::los::{line_of_sight, Sight};
use caisson_blindswords::map::builtin;
use caisson_hexmap::Hex;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

fn pairs(c: &mut Criterion) {
    let map = builtin("perryville").expect("the Perryville map");
    let sources = ["1215", "1530", "1812", "2012", "2216", "2419", "2620", "2929", "3117", "3324", "3612", "3832"];
    let mut pairs: Vec<(Hex, Hex)> = Vec::new();
    for s in sources {
        let from: Hex = s.parse().expect("hex");
        for to in map.hexes() {
            let d = map.distance(from, to);
            if (1..=10).contains(&d) {
                pairs.push((from, to));
            }
        }
    }
    let occupied = |h: Hex| (h.col * 41 + h.row) % 7 == 0;
    let mut group = c.benchmark_group(format!("{} hex pairs within 10 hexes, Perryville", pairs.len()));
    group.throughput(Throughput::Elements(pairs.len() as u64));
    group.bench_function("baseline: hex distance", |b| {
        b.iter(|| pairs.iter().map(|&(a, z)| u32::from(map.distance(black_box(a), black_box(z)))).sum::<u32>())
    });
    group.bench_function("line of sight", |b| {
        b.iter(|| {
            pairs
                .iter()
                .filter(|&&(a, z)| {
                    line_of_sight(&map, black_box(a), black_box(z), occupied).map(|l| l.sight) == Ok(Sight::Clear)
                })
                .count()
        })
    });
    group.finish();
}

criterion_group!(benches, pairs);
criterion_main!(benches);
