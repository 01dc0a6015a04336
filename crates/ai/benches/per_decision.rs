//! The default level's time per decision, as a distribution: positions met in AI-against-AI
//! games of every HSN scenario 1–8, each decided once on this thread, timed one by one. Prints
//! the median, 95th percentile and maximum (the bar is 2 s at both), and the same for
//! the heuristic layer alone (ai-easy) in the same run as the baseline.
//!
//! Run on a quiet machine with `cargo bench -p caisson-ai --bench per_decision`.

use std::time::Instant;

use caisson_ai::{bot_seed, decide, gcacw::GcacwHeuristics, Bot, Level};
use caisson_gcacw::{registry, Gcacw};
use caisson_kernel::{Decision, DiceMode, Game};

/// Positions per scenario: every 5th decision with a choice, of one default-level game.
const PER_SCENARIO: usize = 30;

fn positions(scenario: &str) -> Vec<(Game<Gcacw>, Decision)> {
    let setup = registry::setup(scenario, 11, DiceMode::Seeded, Vec::new());
    let mut game = registry::new_game(&setup).expect("game");
    let mut out = Vec::new();
    let mut step = 0u64;
    while out.len() < PER_SCENARIO {
        let Some(d) = game.pending() else { break };
        if step.is_multiple_of(5) && d.options.len() > 1 {
            let g = game.as_any().downcast_ref::<Game<Gcacw>>().expect("gcacw").clone();
            out.push((g, d.clone()));
        }
        let id = Bot::Ai(Level::default()).choose(game.as_ref(), bot_seed(11, step)).expect("choice");
        game.choose(&id).expect("offered");
        step += 1;
    }
    out
}

/// Milliseconds for each position's decision at `level`, sorted.
fn times(all: &[(Game<Gcacw>, Decision)], level: Level) -> Vec<f64> {
    let mut ms: Vec<f64> = all
        .iter()
        .enumerate()
        .map(|(i, (g, d))| {
            let start = Instant::now();
            let h = GcacwHeuristics::new(g.rules());
            std::hint::black_box(decide(g.rules(), g.state(), d, &h, level, i as u64));
            start.elapsed().as_secs_f64() * 1000.0
        })
        .collect();
    ms.sort_by(f64::total_cmp);
    ms
}

fn at(sorted: &[f64], q: f64) -> f64 {
    sorted.get(((sorted.len() - 1) as f64 * q).round() as usize).copied().unwrap_or(f64::NAN)
}

fn main() {
    let all: Vec<_> = (1..=8).flat_map(|n| positions(&format!("hsn-{n}"))).collect();
    println!("{} positions from HSN scenarios 1-8, one thread", all.len());
    let easy = times(&all, Level::Easy);
    let normal = times(&all, Level::default());
    for (name, t) in [("ai-easy (baseline)", &easy), ("ai-normal (default)", &normal)] {
        println!("{name:<20} median {:>9.3} ms   p95 {:>9.3} ms   max {:>9.3} ms", at(t, 0.5), at(t, 0.95), at(t, 1.0));
    }
    println!(
        "default / baseline: median x{:.0}, p95 x{:.0}",
        at(&normal, 0.5) / at(&easy, 0.5),
        at(&normal, 0.95) / at(&easy, 0.95)
    );
}
