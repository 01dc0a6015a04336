//! The GCACW charts and tables (Standard Rules v1.4, with the Hood Strikes North values), loaded
//! from `data/gcacw/charts/*.toml`.
//!
//! Every number in those files names where it comes from: a rule section ("GCACW 6.2",
//! "HSN-B 2.2"), a shared research file, or a reason starting "reconstructed: " where the
//! official chart card is not available and the value had to be rebuilt from what the rules
//! and public sources reveal. [`Charts::reconstructed`] lists the rebuilt values for the notice
//! shown at the start of a game.
//!
//! | File | Chart | Rules |
//! |---|---|---|
//! | `terrain.toml` | Terrain Chart: MP per terrain and route, ridge | GCACW 6.1, 6.2, 12.0 |
//! | `occupied.toml` | Entering a friendly-occupied hex | GCACW 6.2 |
//! | `attack-types.toml` | Column of route, hasty, normal, prepared | GCACW 6.1, 7.4 |
//! | `movement-allowance.toml` | Movement Allowance dice | GCACW 5.1, 5.2; HSN-B 2.2 |
//! | `strength.toml` | Disorganized Combat value per Manpower | GCACW 2.2, 7.2 |
//! | `extended-march.toml` | Extended March Table | GCACW 5.1 |
//! | `combat.toml` | Combat Chart | GCACW 7.5 |
//! | `ratio.toml` | Ratio Chart | GCACW 7.4 |
//! | `artillery.toml` | Artillery Modifier Summary | GCACW 7.4 |
//! | `maximum-values.toml` | Maximum Combat values | GCACW 7.2 |
//! | `cavalry-retreat.toml` | Cavalry Retreat Table | GCACW 7.7 |
//! | `retreat.toml` | Retreat Charts 1 and 2 | GCACW 7.6 |

use crate::data::DataDir;
use std::ops::Range;

use caisson_hexmap::Terrain;
use caisson_kernel::data::{self, DataError};
use serde::de::DeserializeOwned;

mod combat;
mod half;
mod march;
mod movement;
mod retreat;

pub use combat::{ArtilleryModifier, CombatCells, CombatResult, MaxSituation, Parity, ParseResultError};
pub use half::Half;
pub use march::EmtResult;
pub use movement::{AttackType, AttackTypeRow, Dice, Mover, Route, RouteNeed};
pub use retreat::{
    CavalryRetreatCondition, CavalryRetreatModifier, RetreatDistance, RetreatEnemy, RetreatHex, RetreatHexside,
    RetreatRow,
};

/// Every GCACW chart the rules consult, as loaded by [`Charts::load`].
#[derive(Clone, Debug)]
pub struct Charts {
    terrain: movement::TerrainChart,
    occupied: movement::OccupiedChart,
    attacks: movement::AttackTypes,
    movement: movement::MovementAllowances,
    strength: march::StrengthChart,
    emt: march::ExtendedMarchTable,
    combat: combat::CombatChart,
    ratio: combat::RatioChart,
    artillery: combat::ArtilleryChart,
    maximum: combat::MaximumValues,
    cavalry: retreat::CavalryRetreatTable,
    retreat: retreat::RetreatCharts,
    reconstructed: Vec<String>,
}

impl Charts {
    /// Loads and checks every chart file in `dir` (normally `data/gcacw/charts`).
    ///
    /// The checks make each chart complete: every terrain has a Terrain Chart entry and an
    /// artillery line, every Manpower 1–11 a disorganized Combat value and an Extended March
    /// column, every Combat Chart row and column a cell, every side and mover a Movement
    /// Allowance, and every kind of retreat hex a description on both Retreat Charts.
    ///
    /// # Errors
    /// A file that cannot be read, does not parse (unknown keys included), or breaks one of
    /// those checks; the error names the file and, where there is one, the line.
    pub fn load(dir: &DataDir) -> Result<Charts, DataError> {
        let mut notes = Vec::new();
        let terrain = movement::TerrainChart::load(dir, &mut notes)?;
        let occupied = movement::OccupiedChart::load(dir, &mut notes)?;
        let attacks = movement::AttackTypes::load(dir, &mut notes)?;
        let movement = movement::MovementAllowances::load(dir, &mut notes)?;
        let strength = march::StrengthChart::load(dir, &mut notes)?;
        let emt = march::ExtendedMarchTable::load(dir, &mut notes)?;
        let combat = combat::CombatChart::load(dir, &mut notes)?;
        let ratio = combat::RatioChart::load(dir, &mut notes)?;
        let artillery = combat::ArtilleryChart::load(dir, &mut notes)?;
        let maximum = combat::MaximumValues::load(dir, &mut notes)?;
        let cavalry = retreat::CavalryRetreatTable::load(dir, &mut notes)?;
        let retreat = retreat::RetreatCharts::load(dir, &mut notes)?;
        Ok(Charts {
            terrain,
            occupied,
            attacks,
            movement,
            strength,
            emt,
            combat,
            ratio,
            artillery,
            maximum,
            cavalry,
            retreat,
            reconstructed: notes,
        })
    }

    /// One line per reconstructed value, naming the chart, the value and the reason, e.g.
    /// "Terrain Chart: woods costs 4 MP (rain 5) — reconstructed: …". For the notice shown at
    /// the start of a game: these values are not from the official chart card.
    #[must_use]
    pub fn reconstructed(&self) -> Vec<String> {
        self.reconstructed.clone()
    }
}

/// The maximum Manpower of any HSN unit (GCACW 2.2, Maximum Manpower Value table).
pub const HSN_MAX_MANPOWER: u8 = 11;

/// One chart file being loaded: its name and text, for errors with lines.
pub(crate) struct FileCtx {
    file: String,
    text: String,
}

impl FileCtx {
    /// Reads and parses `dir/name`.
    pub(crate) fn load<T: DeserializeOwned>(dir: &DataDir, name: &str) -> Result<(T, FileCtx), DataError> {
        let path = dir.join(name);
        let text = path.read()?;
        let file = path.display();
        let value = data::parse_toml(&text, &file)?;
        Ok((value, FileCtx { file, text }))
    }

    /// A validation error at a span of the file.
    pub(crate) fn err(&self, span: &Range<usize>, message: impl Into<String>) -> DataError {
        DataError::at(&self.file, &self.text, span.start, message)
    }

    /// A validation error for the file as a whole.
    pub(crate) fn whole(&self, message: impl Into<String>) -> DataError {
        DataError::invalid(&self.file, message)
    }

    /// Checks a `source` string: not empty, and a reconstruction gives its reason.
    pub(crate) fn check_source(&self, span: &Range<usize>, source: &str) -> Result<(), DataError> {
        let trimmed = source.trim();
        if trimmed.is_empty() {
            return Err(self.err(span, "`source` is empty: name the rule section or shared file"));
        }
        if trimmed.to_ascii_lowercase().starts_with("reconstructed")
            && trimmed.strip_prefix("reconstructed: ").is_none_or(|r| r.trim().is_empty())
        {
            return Err(self.err(span, "a reconstructed `source` must read \"reconstructed: <one-line reason>\""));
        }
        Ok(())
    }
}

/// Whether a source string marks a reconstructed value.
pub(crate) fn is_reconstructed(source: &str) -> bool {
    source.trim_start().starts_with("reconstructed: ")
}

/// Adds a notice line for a reconstructed value.
pub(crate) fn note(notes: &mut Vec<String>, chart: &str, item: &str, source: &str) {
    if is_reconstructed(source) {
        notes.push(format!("{chart}: {item} — {}", source.trim()));
    }
}

/// A terrain named in a data file by its kebab-case name ("provisional-swamp").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TerrainName(pub(crate) Terrain);

/// The kebab-case data-file name of a terrain.
pub(crate) fn terrain_key(t: Terrain) -> String {
    t.name().replace(' ', "-")
}

impl<'de> serde::Deserialize<'de> for TerrainName {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<TerrainName, D::Error> {
        let s = String::deserialize(d)?;
        Terrain::ALL.into_iter().find(|t| terrain_key(*t) == s).map(TerrainName).ok_or_else(|| {
            let names: Vec<String> = Terrain::ALL.into_iter().map(terrain_key).collect();
            serde::de::Error::custom(format!("unknown terrain `{s}`, expected one of: {}", names.join(", ")))
        })
    }
}

/// Formats a signed modifier as the charts print it: "+2", "0", "−3" (ASCII minus).
pub(crate) fn signed(n: i32) -> String {
    if n > 0 {
        format!("+{n}")
    } else {
        n.to_string()
    }
}
