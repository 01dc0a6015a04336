//! The engine's JSON-lines protocol: any input gets one reply line per non-blank request line,
//! each a JSON object with `ok`, and never a panic.
#![no_main]

use caisson::charts::{Chart, ChartInfo, CombatQuery, CombatReading};
use caisson::engine::Engine;
use caisson::{Registry, ScenarioRow};
use caisson_gcacw::registry;
use caisson_kernel::{DynGame, Save, SaveError, Setup};
use libfuzzer_sys::fuzz_target;

/// The GCACW games, without the charts (the engine does not use them).
struct Gcacw;

impl Registry for Gcacw {
    fn system(&self) -> &str {
        registry::SYSTEM
    }
    fn scenarios(&self) -> Result<Vec<ScenarioRow>, String> {
        Ok(registry::scenarios()
            .map_err(|e| e.to_string())?
            .into_iter()
            .map(|s| ScenarioRow {
                id: s.id,
                name: s.name,
                first_date: s.first_date,
                last_date: s.last_date,
                turns: s.turns,
                game: s.game,
            })
            .collect())
    }
    fn new_game(&self, setup: &Setup) -> Result<Box<dyn DynGame>, String> {
        registry::new_game(setup)
    }
    fn load_game(&self, save: &Save) -> Result<Box<dyn DynGame>, SaveError> {
        registry::load_game(save)
    }
    fn notices(&self, scenario: &str) -> Result<Vec<String>, String> {
        registry::notices(scenario)
    }
    fn reconstructed(&self, scenario: &str) -> Result<Vec<String>, String> {
        registry::reconstructed(scenario)
    }
    fn render_map_svg(&self, _map: &str) -> Result<String, String> {
        Err("no maps in the fuzz target".into())
    }
    fn charts(&self) -> Result<Vec<ChartInfo>, String> {
        Err("no charts in the fuzz target".into())
    }
    fn chart(&self, _name: &str) -> Result<Chart, String> {
        Err("no charts in the fuzz target".into())
    }
    fn combat_reading(&self, _query: &CombatQuery) -> Result<CombatReading, String> {
        Err("no charts in the fuzz target".into())
    }
}

fuzz_target!(|data: &[u8]| {
    let mut engine = Engine::new(&Gcacw);
    let mut out = Vec::new();
    engine.run(&mut &data[..], &mut out).expect("writing to a Vec never fails");
    let text = String::from_utf8(out).expect("replies are UTF-8");
    for line in text.lines() {
        let reply: serde_json::Value = serde_json::from_str(line).expect("each reply is JSON");
        assert!(reply.get("ok").is_some_and(serde_json::Value::is_boolean), "{line}");
        if let Some(error) = reply.get("error").and_then(serde_json::Value::as_str) {
            assert!(!error.starts_with("internal error"), "{line}");
        }
    }
});
