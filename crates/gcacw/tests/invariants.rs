//! Property tests: whatever legal choices are made, the state keeps the invariants the rules
//! promise (GCACW 2.1, 6.3, 6.4, 6.5).

use caisson_gcacw::catalog::Kind;
use caisson_gcacw::registry::{hsn, HSN_IDS};
use caisson_gcacw::{Gcacw, Settings};
use caisson_kernel::{random_choice, Dice, DiceMode, Game, Setup};
use proptest::prelude::*;

fn check(g: &Game<Gcacw>) -> Result<(), String> {
    let (rules, s) = (g.rules(), g.state());
    for (i, u) in s.units.iter().enumerate() {
        let name = rules.unit_name(s, i);
        if u.fatigue > 4 {
            return Err(format!("{name} at fatigue {}", u.fatigue));
        }
        if u.hex.is_some() && (u.manpower == 0 || u.eliminated) {
            return Err(format!("{name} on the map with no manpower"));
        }
        if let Some(h) = u.hex {
            if !rules.map().contains(h) {
                return Err(format!("{name} off the map at {h}"));
            }
            if let Some((j, _)) =
                rules.on_map(s).find(|&(j, hj)| hj == h && rules.unit_side(s, j) != rules.unit_side(s, i))
            {
                return Err(format!("{name} shares {h} with the enemy {}", rules.unit_name(s, j)));
            }
        }
    }
    for (l, leader) in s.leaders.iter().enumerate() {
        let c = rules.leader_counter(s, l);
        assert_eq!(c.kind, Kind::Leader);
        if let Some(u) = leader.with {
            if s.units[u].hex.is_none() {
                return Err(format!("{} is attached to {}, who is not on the map", c.name, rules.unit_name(s, u)));
            }
        }
    }
    if let Some(d) = g.pending() {
        if d.options.is_empty() {
            return Err(format!("a decision with no option: {}", d.prompt));
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: if cfg!(debug_assertions) { 12 } else { 96 }, ..ProptestConfig::default() })]

    /// Random legal play keeps fatigue in 0–4, units on playable hexes and never stacked with the
    /// enemy, leaders with a unit on the map, and always offers at least one option.
    #[test]
    fn random_play_keeps_the_invariants(scenario in 0..HSN_IDS.len(), seed in any::<u64>(), steps in 1usize..400) {
        let id = HSN_IDS[scenario];
        let (rules, state) = Gcacw::new(hsn().expect("data"), id, Settings::default()).expect("scenario");
        let setup = Setup { system: "gcacw".into(), scenario: id.into(), seed, dice: DiceMode::Seeded, options: vec![] };
        let mut g = Game::new(rules, state, setup);
        let mut dice = Dice::new(seed.rotate_left(17));
        for _ in 0..steps {
            prop_assert_eq!(check(&g), Ok(()));
            let Some(d) = g.pending() else { break };
            let pick = random_choice(&d, &mut dice).to_string();
            prop_assert!(g.choose(&pick).is_ok());
        }
        prop_assert_eq!(check(&g), Ok(()));
    }
}
