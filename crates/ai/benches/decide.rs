//! How long the computer opponent takes per decision, by level: positions of HSN scenarios met
//! in play (AI against AI), each decided afresh. Criterion reports the time per decision over a
//! cycle of positions; `caisson bot-match` prints each side's median and 95th percentile over
//! whole games.
//!
//! Run with `cargo bench -p caisson-ai`.

use caisson_ai::{bot_seed, decide, gcacw::GcacwHeuristics, Bot, Level};
use caisson_gcacw::{registry, Gcacw};
use caisson_kernel::{Decision, DiceMode, Game};
use criterion::{criterion_group, criterion_main, Criterion};

/// Every 7th position of an easy-AI game of `scenario`, up to `n`.
fn positions(scenario: &str, n: usize) -> Vec<(Game<Gcacw>, Decision)> {
    let setup = registry::setup(scenario, 3, DiceMode::Seeded, Vec::new());
    let mut game = registry::new_game(&setup).expect("game");
    let mut out = Vec::new();
    let mut step = 0u64;
    while out.len() < n {
        let Some(d) = game.pending() else { break };
        if step.is_multiple_of(7) && d.options.len() > 1 {
            let g = game.as_any().downcast_ref::<Game<Gcacw>>().expect("gcacw").clone();
            out.push((g, d.clone()));
        }
        let id = Bot::Ai(Level::Easy).choose(game.as_ref(), bot_seed(3, step)).expect("choice");
        game.choose(&id).expect("offered");
        step += 1;
    }
    out
}

fn levels(c: &mut Criterion) {
    for scenario in ["hsn-1", "hsn-2", "hsn-5"] {
        let ps = positions(scenario, 40);
        let mut group = c.benchmark_group(format!("decision, {scenario}"));
        group.sample_size(20);
        for level in Level::ALL {
            let mut i = 0;
            group.bench_function(level.name(), |b| {
                b.iter(|| {
                    let (g, d) = &ps[i % ps.len()];
                    i += 1;
                    let h = GcacwHeuristics::new(g.rules());
                    decide(g.rules(), g.state(), d, &h, level, i as u64)
                })
            });
        }
        group.finish();
    }
}

criterion_group!(benches, levels);
criterion_main!(benches);
