//! Blind Swords (Grand Havoc: Perryville) as the front ends see it: [`BlindSwords`], the
//! [`Registry`] of the five Perryville scenarios.

use std::collections::BTreeMap;

use caisson_blindswords::registry;
use caisson_kernel::{DynGame, Save, SaveError, Setup};

use crate::charts::{Chart, ChartInfo, CombatQuery, CombatReading};
use crate::{Outcome, Registry, ScenarioRow};

mod charts;

/// The Blind Swords rule system's registry.
pub struct BlindSwords;

impl Registry for BlindSwords {
    fn system(&self) -> &str {
        registry::SYSTEM
    }
    fn scenarios(&self) -> Result<Vec<ScenarioRow>, String> {
        Ok(registry::scenarios()?
            .into_iter()
            .map(|s| ScenarioRow {
                id: s.id,
                name: s.name,
                first_date: s.first,
                last_date: s.last,
                turns: s.turns,
                game: "blind-swords".into(),
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
    fn render_map_svg(&self, map: &str) -> Result<String, String> {
        caisson_blindswords::map::render_map_svg(map)
    }
    fn charts(&self) -> Result<Vec<ChartInfo>, String> {
        charts::infos()
    }
    fn chart(&self, name: &str) -> Result<Chart, String> {
        charts::chart(name)
    }
    /// The query reads GCACW's Combat Chart (a die-roll differential and two Combat values);
    /// the Blind Swords CRT is read by a strength column and a d66 roll instead.
    fn combat_reading(&self, _query: &CombatQuery) -> Result<CombatReading, String> {
        Err("Blind Swords has no Combat Chart read by a differential and Combat values: its CRT is read by \
             the firing strength's column and a d66 roll; print it with `caisson chart blind-swords crt`"
            .into())
    }
    fn outcome(&self, game: &dyn DynGame) -> Option<Outcome> {
        let game = game.as_any().downcast_ref::<caisson_kernel::Game<caisson_blindswords::BlindSwords>>()?;
        let (rules, state) = (game.rules(), game.state());
        let score = caisson_blindswords::victory::score(rules, state);
        let mut losses = BTreeMap::from([("union".to_string(), 0), ("confederate".to_string(), 0)]);
        for i in state.broken_units() {
            *losses.entry(caisson_blindswords::state::side_id(state.units[i].side).to_string()).or_insert(0) += 1;
        }
        Some(Outcome {
            vp_side: "union".into(),
            vp: f64::from(score.vp[0]) - f64::from(score.vp[1]),
            level: score.result,
            winner: score.winner.map(|s| caisson_blindswords::state::side_id(s).to_string()),
            losses,
            thresholds: Vec::new(),
        })
    }
}
