//! Everything static a GCACW game reads: map, charts, counters, commands and scenarios, loaded
//! and validated once at start-up. The files are built into the binary; `load_dir` reads an
//! edited copy instead.

use std::path::Path;

use caisson_hexmap::Map;
use caisson_kernel::data::{read, DataError};

use crate::catalog::Catalog;
use crate::charts::Charts;
use crate::scenario::Scenario;

/// The static data of one game (e.g. Hood Strikes North).
#[derive(Debug)]
pub struct GameData {
    /// Game id, e.g. `hsn`.
    pub id: String,
    /// The map.
    pub map: Map,
    /// The series charts.
    pub charts: Charts,
    /// Counters and commands.
    pub catalog: Catalog,
    /// Scenarios in order.
    pub scenarios: Vec<Scenario>,
}

/// The Hood Strikes North scenario files, in order.
pub const HSN_SCENARIOS: [&str; 9] = ["hsn-1", "hsn-2", "hsn-3", "hsn-4", "hsn-5", "hsn-6", "hsn-7", "hsn-8", "hsn-9"];

impl GameData {
    /// Loads a game's data from a data directory laid out like the repository's `data/`
    /// (`gcacw/charts/`, `<game>/map.txt`, `<game>/counters.csv`, `<game>/commands.toml`,
    /// `<game>/scenarios/*.toml`).
    ///
    /// # Errors
    /// Any file missing or invalid, naming file, line and field.
    pub fn load_dir(root: &Path, game: &str) -> Result<GameData, DataError> {
        let charts = Charts::load(&root.join("gcacw/charts"))?;
        let dir = root.join(game);
        let map = caisson_hexmap::format::load(&dir.join("map.txt"))
            .map_err(|e| DataError::invalid(&dir.join("map.txt").display().to_string(), e.to_string()))?;
        let cpath = dir.join("counters.csv");
        let kpath = dir.join("commands.toml");
        let catalog =
            Catalog::parse(&read(&cpath)?, &cpath.display().to_string(), &read(&kpath)?, &kpath.display().to_string())?;
        let mut scenarios = Vec::new();
        for id in HSN_SCENARIOS {
            let p = dir.join("scenarios").join(format!("{id}.toml"));
            scenarios.push(Scenario::parse(&read(&p)?, &p.display().to_string(), &catalog, &map)?);
        }
        Ok(GameData { id: game.to_string(), map, charts, catalog, scenarios })
    }

    /// The data directory built into this program's source tree.
    #[must_use]
    pub fn builtin_dir() -> std::path::PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data")
    }

    /// A scenario by id.
    #[must_use]
    pub fn scenario(&self, id: &str) -> Option<usize> {
        self.scenarios.iter().position(|s| s.id == id)
    }
}
