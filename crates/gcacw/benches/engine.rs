//! Benchmarks: (a) the reachable-hexes query of one marching unit on the full HSN map, against a
//! generic Dijkstra (the `pathfinding` crate) over the same map and the same step rules, in the
//! same run; (b) decisions per second of random play in hsn-2; (c) one combat resolution; (d) whole
//! random games of hsn-4 and of the hsn-9 campaign.
//!
//! Run with `cargo bench -p caisson-gcacw`.

use caisson_gcacw::charts::{AttackType, Half};
use caisson_gcacw::combat::{self, Attack};
use caisson_gcacw::movement::{self, MoveContext};
use caisson_gcacw::registry::{self, hsn};
use caisson_gcacw::state::March;
use caisson_gcacw::{Gcacw, Settings};
use caisson_hexmap::Hex;
use caisson_kernel::{random_choice, Dice, DiceMode};
use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};

fn reachable(c: &mut Criterion) {
    let (rules, state) = Gcacw::new(hsn().expect("data"), "hsn-2", Settings::default()).expect("hsn-2");
    // Rucker, a Confederate cavalry brigade at 0111, with a long allowance: 13 MP (2d6 + 1 at most).
    let unit = rules.unit_by_id("rucker").expect("rucker");
    let march = March {
        unit,
        ma: 13,
        left: Half::whole(13),
        moved: false,
        started_in_zoc: false,
        wagon_paid: true,
        stopped: false,
        declined: Vec::new(),
        blockhouse_tried: false,
        path: Vec::new(),
    };
    let start = state.units[unit].hex.expect("on map");
    let mut group = c.benchmark_group("reachable hexes, cavalry with 13 MP, full HSN map");
    group.bench_function("caisson movement::reachable", |b| b.iter(|| movement::reachable(&rules, &state, &march)));
    group.bench_function("pathfinding::dijkstra_reach, same step rules", |b| {
        b.iter(|| {
            let ctx = MoveContext::new(&rules, &state, unit);
            let budget = u32::from(march.left.halves());
            // A hex in an enemy zone of control is reached but not left, as in the engine.
            pathfinding::prelude::dijkstra_reach(&start, |&from: &Hex| {
                let (ctx, rules) = (&ctx, &rules);
                let stopped = from != start && movement::in_enemy_zoc(rules, ctx, from);
                rules.map().neighbors(from).filter(move |_| !stopped).filter_map(move |(_, to)| {
                    let s = movement::step(rules, ctx, from, to, from == start, false, true)?;
                    Some((to, u32::from(s.cost.halves())))
                })
            })
            .take_while(|item| item.total_cost <= budget)
            .count()
        })
    });
    group.finish();
}

fn random_play(c: &mut Criterion) {
    const DECISIONS: u64 = 500;
    let mut group = c.benchmark_group("random play, hsn-2");
    group.throughput(Throughput::Elements(DECISIONS));
    group.sample_size(20);
    group.bench_function("decisions", |b| {
        let seed = std::cell::Cell::new(0);
        b.iter_batched(
            || {
                seed.set(seed.get() + 1);
                registry::new_game(&registry::setup("hsn-2", seed.get(), DiceMode::Seeded, vec![])).expect("new")
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

/// The rulebook's Combat Example (Brown with Cheatham against Wagner, Armstrong on the flank):
/// the whole assessment — values, ratio, artillery, tactical, terrain, the flank procedure and the
/// odds of every row — and the outcome of one pair of dice.
fn combat(c: &mut Criterion) {
    let (rules, mut state) = Gcacw::new(hsn().expect("data"), "hsn-4", Settings::default()).expect("hsn-4");
    for u in &mut state.units {
        u.hex = None;
    }
    for l in &mut state.leaders {
        l.with = None;
    }
    let mut place = |id: &str, hex: &str, mp: u8| {
        let u = rules.unit_by_id(id).expect(id);
        state.units[u].hex = Some(hex.parse().expect("hex"));
        state.units[u].manpower = mp;
        state.units[u].fatigue = 1;
        u
    };
    place("wagner", "4610", 7);
    let brown = place("brown", "4611", 8);
    place("armstrong", "4510", 2);
    let cheatham = rules.leader_by_id("cheatham").expect("cheatham");
    state.leaders[cheatham].with = Some(brown);
    let target: Hex = "4610".parse().expect("hex");
    c.bench_function("combat resolution with the flank bonus (Combat Example)", |b| {
        b.iter(|| {
            let a = combat::assess(&rules, &state, &Attack::march(&rules, &state, brown, target, AttackType::Hasty));
            combat::outcome(&a, 4, 2, Some(3)).expect("dice")
        })
    });
}

/// Whole games with random players on both sides: hsn-4 (two turns) and hsn-9, the 32-turn
/// Advanced Game campaign.
fn random_game(c: &mut Criterion) {
    let mut group = c.benchmark_group("random play, whole game");
    group.sample_size(10);
    for (id, label) in [("hsn-4", "hsn-4 to the end"), ("hsn-9", "hsn-9 campaign, 32 turns, to the end")] {
        group.bench_function(label, |b| {
            let seed = std::cell::Cell::new(0);
            b.iter(|| {
                seed.set(seed.get() + 1);
                let mut g =
                    registry::new_game(&registry::setup(id, seed.get(), DiceMode::Seeded, vec![])).expect("new");
                let mut dice = Dice::new(seed.get());
                let mut n = 0u32;
                while let Some(d) = g.pending() {
                    let pick = random_choice(&d, &mut dice).to_string();
                    g.choose(&pick).expect("legal");
                    n += 1;
                }
                n
            })
        });
    }
    group.finish();
}

criterion_group!(benches, reachable, random_play, combat, random_game);
criterion_main!(benches);
