//! A registry of toy games for testing the front ends without any real rule system.

#![allow(dead_code)] // Each test crate uses part of this.

use caisson::charts::{Block, Cell, Chart, ChartInfo, Column, CombatQuery, CombatReading, Footnote};
use caisson::{Registry, ScenarioRow};
use caisson_kernel::toy::{toy_game, toy_load, Race};
use caisson_kernel::{Decision, DynGame, Game, GameError, LogEntry, Save, SaveError, Setup};

/// Offers the toy `race`; `boom`, a race whose rules panic when a side passes; and `boom-after`,
/// whose rules panic after a pass has changed the game (as a panic in a seeded roll would).
pub struct ToyRegistry;

impl Registry for ToyRegistry {
    fn system(&self) -> &str {
        "toy"
    }
    fn scenarios(&self) -> Result<Vec<ScenarioRow>, String> {
        Ok(vec![ScenarioRow {
            id: "race".into(),
            name: "The Race".into(),
            first_date: "1864-11-21".into(),
            last_date: "1864-12-20".into(),
            turns: 30,
            game: "basic".into(),
        }])
    }
    fn new_game(&self, setup: &Setup) -> Result<Box<dyn DynGame>, String> {
        match setup.scenario.as_str() {
            "race" => Ok(Box::new(toy_game(setup))),
            "boom" => Ok(Box::new(Boom { game: toy_game(setup), after: false })),
            "boom-after" => Ok(Box::new(Boom { game: toy_game(setup), after: true })),
            other => Err(format!("no scenario `{other}`")),
        }
    }
    fn load_game(&self, save: &Save) -> Result<Box<dyn DynGame>, SaveError> {
        match save.setup.scenario.as_str() {
            "race" => Ok(Box::new(toy_load(save)?)),
            other => Err(SaveError::Setup(format!("no scenario `{other}`"))),
        }
    }
    fn notices(&self, scenario: &str) -> Result<Vec<String>, String> {
        Ok(vec![format!("{scenario} is a toy: nothing here is history.")])
    }
    fn reconstructed(&self, scenario: &str) -> Result<Vec<String>, String> {
        Ok(vec![format!("{scenario}: every number is made up")])
    }
    fn render_map_svg(&self, map: &str) -> Result<String, String> {
        match map {
            "toy" => Ok("<svg xmlns=\"http://www.w3.org/2000/svg\"/>".into()),
            other => Err(format!("no map `{other}`")),
        }
    }
    /// One chart, `speed`: how far a racer moves per die, one value reconstructed.
    fn charts(&self) -> Result<Vec<ChartInfo>, String> {
        Ok(vec![ChartInfo {
            name: "speed".into(),
            title: "Speed Table".into(),
            purpose: "how far a racer moves".into(),
            rules: "Race 1.0".into(),
            source: "rulebook section".into(),
        }])
    }
    fn chart(&self, name: &str) -> Result<Chart, String> {
        if name != "speed" {
            return Err(format!("no chart `{name}`"));
        }
        Ok(Chart {
            title: "Speed Table".into(),
            rules: "Race 1.0".into(),
            source: "Race 1.0".into(),
            blocks: vec![Block {
                columns: vec![Column::label("Die"), Column::value("hexes")],
                rows: vec![vec![Cell::new("1-5"), Cell::new("1")], vec![Cell::new("6"), Cell::marked("2", true)]],
                ..Block::default()
            }],
            mark: '†',
            footnotes: vec![Footnote {
                items: vec!["6 → 2".into()],
                reason: "reconstructed: a guess".into(),
                placed: true,
            }],
            ..Chart::default()
        })
    }
    fn combat_reading(&self, _query: &CombatQuery) -> Result<CombatReading, String> {
        Err("the race has no Combat Chart".into())
    }
}

/// A race with a bug: passing panics, before or after the pass is applied.
pub struct Boom {
    /// The race.
    pub game: Game<Race>,
    /// Whether the panic comes after the pass changed the game.
    pub after: bool,
}

impl DynGame for Boom {
    fn setup(&self) -> &Setup {
        DynGame::setup(&self.game)
    }
    fn pending(&self) -> Option<Decision> {
        DynGame::pending(&self.game)
    }
    fn choose(&mut self, option: &str) -> Result<(), GameError> {
        if option == "pass" {
            if self.after {
                let _ = DynGame::choose(&mut self.game, option);
            }
            panic!("boom: the rules cannot pass");
        }
        DynGame::choose(&mut self.game, option)
    }
    fn undo(&mut self) -> Result<(), GameError> {
        DynGame::undo(&mut self.game)
    }
    fn can_undo(&self) -> bool {
        DynGame::can_undo(&self.game)
    }
    fn state_json(&self) -> serde_json::Value {
        self.game.state_json()
    }
    fn state_hash(&self) -> String {
        DynGame::state_hash(&self.game)
    }
    fn view(&self, side: Option<&str>) -> serde_json::Value {
        DynGame::view(&self.game, side)
    }
    fn log(&self) -> &[LogEntry] {
        DynGame::log(&self.game)
    }
    fn summary(&self) -> String {
        self.game.summary()
    }
    fn actions(&self) -> &[String] {
        DynGame::actions(&self.game)
    }
    fn save(&self) -> Save {
        DynGame::save(&self.game)
    }
    fn check(&self) -> Result<(), String> {
        DynGame::check(&self.game)
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// A new folder in the temporary directory, removed with everything in it when dropped.
pub fn temp_dir() -> tempfile::TempDir {
    tempfile::Builder::new().prefix("caisson-test-").tempdir().expect("a temporary folder")
}
