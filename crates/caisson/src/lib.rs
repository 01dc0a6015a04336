//! The front ends of Caisson: the JSON-lines engine, the terminal game loop, the random-game
//! runner and the HTTP server, written against a [`Registry`] of rule systems so they can be tested with any game
//! (the kernel's toy "Race" in the tests, the GCACW rules in the binary).
//!
//! Architecture invariant: only this crate defines wire formats (the engine protocol of
//! `docs/protocol.md`); the kernel and the rules know no JSON lines and do no I/O.

#![warn(missing_docs)]

pub mod blindswords;
pub mod bot_compare;
pub mod bot_match;
pub mod charts;
pub mod engine;
pub mod fuzz;
pub mod gcacw;
pub mod lines;
pub mod random;
pub mod serve;
pub mod systems;
pub mod terminal;

use caisson_kernel::{DynGame, Save, SaveError, Setup};
use serde::Serialize;

/// One scenario a registry offers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ScenarioRow {
    /// Scenario id, e.g. `hsn-1`.
    pub id: String,
    /// Scenario name.
    pub name: String,
    /// Date of the first turn.
    pub first_date: String,
    /// Date of the last turn.
    pub last_date: String,
    /// Number of turns.
    pub turns: u16,
    /// Which game it belongs to: `basic` or `advanced`.
    pub game: String,
}

/// Where the front ends get their games: scenarios, new games, saved games, notices and maps.
///
/// The binary wires this to the GCACW registry; tests wire it to the toy rules.
pub trait Registry {
    /// The rule system id written into every [`Setup`], e.g. `gcacw`.
    fn system(&self) -> &str;

    /// The scenarios on offer.
    ///
    /// # Errors
    /// The scenario data cannot be read.
    fn scenarios(&self) -> Result<Vec<ScenarioRow>, String>;

    /// A new game.
    ///
    /// # Errors
    /// Unknown scenario, bad option, or data that cannot be read.
    fn new_game(&self, setup: &Setup) -> Result<Box<dyn DynGame>, String>;

    /// A game rebuilt from a save.
    ///
    /// # Errors
    /// The save is refused (altered, another version, unknown scenario...).
    fn load_game(&self, save: &Save) -> Result<Box<dyn DynGame>, SaveError>;

    /// Lines to show when a game of `scenario` starts (reconstructed data, rules not enforced).
    ///
    /// # Errors
    /// Unknown scenario.
    fn notices(&self, scenario: &str) -> Result<Vec<String>, String>;

    /// Every reconstructed value a scenario uses, one line each with its reason.
    ///
    /// # Errors
    /// Unknown scenario.
    fn reconstructed(&self, scenario: &str) -> Result<Vec<String>, String>;

    /// A map as SVG.
    ///
    /// # Errors
    /// Unknown map, or map data that cannot be read.
    fn render_map_svg(&self, map: &str) -> Result<String, String>;

    /// The reference charts of the rule system, in the order `caisson chart` lists them.
    ///
    /// # Errors
    /// The chart data cannot be read.
    fn charts(&self) -> Result<Vec<charts::ChartInfo>, String>;

    /// One chart (named as in [`Registry::charts`]) laid out as tables, each reconstructed
    /// value marked and explained.
    ///
    /// # Errors
    /// Unknown chart, or chart data that cannot be read.
    fn chart(&self, name: &str) -> Result<charts::Chart, String>;

    /// One reading of the Combat Chart, each side's result explained.
    ///
    /// # Errors
    /// The rule system has no Combat Chart, or its data cannot be read.
    fn combat_reading(&self, query: &charts::CombatQuery) -> Result<charts::CombatReading, String>;

    /// How a game stands by its victory conditions (for finished games: how it ended), or `None`
    /// for a rule system or scenario without victory points.
    fn outcome(&self, game: &dyn DynGame) -> Option<Outcome> {
        let _ = game;
        None
    }
}

/// How a game stands by its scenario's victory conditions.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct Outcome {
    /// The side whose victory points are counted.
    pub vp_side: String,
    /// Its victory points.
    pub vp: f64,
    /// The victory level of that total.
    pub level: String,
    /// The side the level names as winner, if any.
    pub winner: Option<String>,
    /// Manpower lost so far, by side id (every cause of loss; not the Manpower of units a
    /// scenario rule removed from the game, which the rules say lost none).
    pub losses: std::collections::BTreeMap<String, u32>,
    /// Victory points where the levels change hands (each level's lowest total), for plots.
    pub thresholds: Vec<(f64, String)>,
}

/// The message of a caught panic.
#[must_use]
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic with no message".to_string()
    }
}
