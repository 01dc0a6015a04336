//! Random play of scenario 16.1 (the historical battle, pv-16-1): decisions per second, each a
//! random legal choice applied through the engine with its dice rolled inside (seeded). The
//! baseline, in the same run, is listing the pending decision of the opening position, so a
//! decision's cost can be read as a multiple of building one decision's options.
//!
//! Run with `nice -n 19 cargo bench -p caisson-blindswords --bench play`.

use std::hint::black_box;

use caisson_blindswords::registry::SYSTEM;
use caisson_blindswords::setup::Data;
use caisson_blindswords::BlindSwords;
use caisson_kernel::{random_choice, Dice, DiceMode, Game, Setup};
use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};

const SCENARIO: &str = "pv-16-1";
const DECISIONS: u64 = 500;

fn game(seed: u64) -> Game<BlindSwords> {
    let (rules, state) = BlindSwords::new(Data::builtin().expect("built-in data"), SCENARIO).expect("pv-16-1");
    let setup =
        Setup { system: SYSTEM.into(), scenario: SCENARIO.into(), seed, dice: DiceMode::Seeded, options: vec![] };
    Game::new(rules, state, setup)
}

fn random_play(c: &mut Criterion) {
    let mut group = c.benchmark_group("random play, pv-16-1");
    group.sample_size(20);
    let opening = game(0);
    group.throughput(Throughput::Elements(1));
    group.bench_function("baseline: the opening decision listed", |b| b.iter(|| black_box(&opening).pending()));
    group.throughput(Throughput::Elements(DECISIONS));
    group.bench_function("decisions applied", |b| {
        let seed = std::cell::Cell::new(0);
        b.iter_batched(
            || {
                seed.set(seed.get() + 1);
                game(seed.get())
            },
            |mut g| {
                let mut dice = Dice::new(seed.get());
                for _ in 0..DECISIONS {
                    let Some(d) = g.pending() else { break };
                    let pick = random_choice(&d, &mut dice).to_string();
                    g.choose(&pick).expect("legal");
                }
                g
            },
            BatchSize::SmallInput,
        );
    });
    group.finish();
}

criterion_group!(benches, random_play);
criterion_main!(benches);
