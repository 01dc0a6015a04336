//! Everything static a GCACW game reads: map, charts, counters, commands and scenarios, loaded
//! and validated once at start-up. The files of the repository's `data/` are built into the
//! binary (`build.rs`), so the program needs nothing beside itself.

use caisson_hexmap::{Hex, Map};
pub use caisson_kernel::data::DataDir;
use caisson_kernel::data::DataError;

use crate::catalog::Catalog;
use crate::charts::Charts;
use crate::scenario::Scenario;

/// The static data of one game (e.g. Hood Strikes North).
#[derive(Clone, Debug)]
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
    /// Map regions the rules ask about often, computed once.
    pub regions: Regions,
}

/// Map regions bounded by rivers, by map index, computed once when the data loads (a flood fill
/// over the whole map is too slow for every view and every new game).
#[derive(Clone, Debug, Default)]
pub struct Regions {
    /// Hexes south of the Duck River (HSN-B 2.2 wagons; victory conditions).
    pub south_of_duck: Vec<bool>,
    /// Hexes south of the Harpeth River (HSN Sc 7; ruling R41).
    pub south_of_harpeth: Vec<bool>,
}

impl Regions {
    /// A hex on the south edge, south of both rivers.
    const SOUTH_EDGE: Hex = Hex::new(1, 11);

    /// The regions of a map.
    #[must_use]
    pub fn of(map: &Map) -> Regions {
        Regions { south_of_duck: map.side_of("Duck River", Self::SOUTH_EDGE), south_of_harpeth: south_of_harpeth(map) }
    }
}

/// The hexes south of the Harpeth River (HSN Sc 7 movement restrictions): those joined to the
/// south edge without crossing it. The river rises inside the map (4126), so east of its source
/// the boundary goes on along the line between hexrows 41XX and 42XX to the east edge (ruling R41
/// in docs/rulings.md).
fn south_of_harpeth(map: &Map) -> Vec<bool> {
    const SOURCE_ROW: i16 = 26;
    const LAST_SOUTH_COL: i16 = 41;
    map.side_of_within("Harpeth River", Regions::SOUTH_EDGE, |a, b| {
        !(a.row >= SOURCE_ROW && b.row >= SOURCE_ROW && (a.col <= LAST_SOUTH_COL) != (b.col <= LAST_SOUTH_COL))
    })
}

/// The Hood Strikes North scenario files, in order.
pub const HSN_SCENARIOS: [&str; 9] = ["hsn-1", "hsn-2", "hsn-3", "hsn-4", "hsn-5", "hsn-6", "hsn-7", "hsn-8", "hsn-9"];

impl GameData {
    /// Loads a game's data from a folder laid out like the repository's `data/`
    /// (`gcacw/charts/`, `<game>/map.txt`, `<game>/counters.csv`, `<game>/commands.toml`,
    /// `<game>/scenarios/*.toml`).
    ///
    /// # Errors
    /// Any file missing or invalid, naming file, line and field.
    pub fn load(root: &DataDir, game: &str) -> Result<GameData, DataError> {
        let charts = Charts::load(&root.join("gcacw/charts"))?;
        let dir = root.join(game);
        let mpath = dir.join("map.txt");
        let map = caisson_hexmap::format::parse(&mpath.read()?, &mpath.display())
            .map_err(|e| DataError::invalid(&mpath.display(), e.to_string()))?;
        let (cpath, kpath) = (dir.join("counters.csv"), dir.join("commands.toml"));
        let catalog = Catalog::parse(&cpath.read()?, &cpath.display(), &kpath.read()?, &kpath.display())?;
        let mut scenarios = Vec::new();
        for id in HSN_SCENARIOS {
            let p = dir.join("scenarios").join(&format!("{id}.toml"));
            scenarios.push(Scenario::parse(&p.read()?, &p.display(), &catalog, &map)?);
        }
        let regions = Regions::of(&map);
        Ok(GameData { id: game.to_string(), map, charts, catalog, scenarios, regions })
    }

    /// A scenario by id.
    #[must_use]
    pub fn scenario(&self, id: &str) -> Option<usize> {
        self.scenarios.iter().position(|s| s.id == id)
    }
}
