//! The scenario TOML: any text is a scenario or an error naming file and line; a scenario that
//! parses starts, or is refused with an error, and plays 60 random decisions without a panic.
#![no_main]

use std::sync::{Arc, OnceLock};

use caisson_gcacw::data::GameData;
use caisson_gcacw::scenario::Scenario;
use caisson_gcacw::{Gcacw, Settings};
use caisson_kernel::{random_choice, Dice, DiceMode, Game, Setup};
use libfuzzer_sys::fuzz_target;

fn hsn() -> &'static GameData {
    static DATA: OnceLock<GameData> = OnceLock::new();
    DATA.get_or_init(|| (*caisson_gcacw::registry::hsn().expect("HSN data")).clone())
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let base = hsn();
    let Ok(scenario) = Scenario::parse(text, "fuzz.toml", &base.catalog, &base.map) else { return };
    let id = scenario.id.clone();
    let mut game_data = base.clone();
    game_data.scenarios = vec![scenario];
    let Ok((rules, state)) = Gcacw::new(Arc::new(game_data), &id, Settings::default()) else { return };
    let setup = Setup { system: "gcacw".into(), scenario: id, seed: 1, dice: DiceMode::Seeded, options: vec![] };
    let mut game = Game::new(rules, state, setup);
    let mut dice = Dice::new(7);
    for _ in 0..60 {
        let Some(d) = game.pending() else { break };
        let pick = random_choice(&d, &mut dice).to_string();
        game.choose(&pick).expect("an offered option is accepted");
    }
});
