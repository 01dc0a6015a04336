//! The Great Campaigns of the American Civil War as the front ends see them: [`Gcacw`], the
//! [`Registry`] the binary, the server and the fuzz targets serve, and its reference charts.

pub mod charts;

use std::collections::BTreeMap;

use caisson_gcacw::registry;
use caisson_kernel::{DynGame, Save, SaveError, Setup};

use crate::charts::{Chart, ChartInfo, CombatQuery, CombatReading};
use crate::{Outcome, Registry, ScenarioRow};

/// The GCACW rule system's registry.
pub struct Gcacw;

impl Registry for Gcacw {
    fn system(&self) -> &str {
        "gcacw"
    }
    fn scenarios(&self) -> Result<Vec<ScenarioRow>, String> {
        let list = registry::scenarios().map_err(|e| e.to_string())?;
        Ok(list
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
    fn render_map_svg(&self, map: &str) -> Result<String, String> {
        registry::render_map_svg(map)
    }
    fn charts(&self) -> Result<Vec<ChartInfo>, String> {
        charts::list()
    }
    fn chart(&self, name: &str) -> Result<Chart, String> {
        charts::chart(name)
    }
    fn combat_reading(&self, query: &CombatQuery) -> Result<CombatReading, String> {
        charts::combat_reading(query)
    }
    fn outcome(&self, game: &dyn DynGame) -> Option<Outcome> {
        let game = game.as_any().downcast_ref::<caisson_kernel::Game<caisson_gcacw::Gcacw>>()?;
        let (rules, state) = (game.rules(), game.state());
        let score = caisson_gcacw::victory::score(rules, state);
        let winner = caisson_gcacw::Side::BOTH.into_iter().find(|s| score.level.starts_with(&s.to_string()));
        let mut losses = BTreeMap::new();
        for side in caisson_gcacw::Side::BOTH {
            losses.insert(side.id().to_string(), 0);
        }
        for loss in state.losses.iter().filter(|l| l.cause != caisson_gcacw::state::LossCause::RemovedFromPlay) {
            *losses.entry(rules.unit_side(state, loss.unit).id().to_string()).or_insert(0) += u32::from(loss.amount);
        }
        let thresholds =
            rules.scenario().victory.level.iter().filter_map(|l| l.min.map(|m| (m, l.result.clone()))).collect();
        Some(Outcome {
            vp_side: score.side.id().to_string(),
            vp: score.total,
            level: score.level,
            winner: winner.map(|s| s.id().to_string()),
            losses,
            thresholds,
        })
    }
}
