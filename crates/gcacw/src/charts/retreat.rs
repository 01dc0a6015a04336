//! Retreat charts: the Cavalry Retreat Table (GCACW 7.7) and Retreat Charts 1 and 2
//! (GCACW 7.6).

use crate::data::DataDir;
use std::collections::BTreeSet;

use caisson_hexmap::Terrain;
use caisson_kernel::data::DataError;
use serde::Deserialize;
use toml::Spanned;

use super::{note, signed, terrain_key, Charts, FileCtx, TerrainName};

// ---------------------------------------------------------------------------------------------
// Cavalry Retreat Table

/// When a Cavalry Retreat Table modifier applies (GCACW 7.7).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CavalryRetreatCondition {
    /// The retreating cavalry's hex is one of these terrains (provisional swamp as the
    /// weather makes it).
    Terrain(Vec<Terrain>),
    /// The retreating cavalry's combined Manpower is in `from..=to` (`to` `None` = and more).
    Manpower {
        /// Lowest Manpower.
        from: u8,
        /// Highest Manpower, if any.
        to: Option<u8>,
    },
    /// The cavalry is out of ammunition (an optional rule of other GCACW games).
    OutOfAmmunition,
}

/// One modifier of the Cavalry Retreat Table (GCACW 7.7).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CavalryRetreatModifier {
    /// What it is, in a few words.
    pub label: String,
    /// When it applies.
    pub condition: CavalryRetreatCondition,
    /// Added to the cavalry retreat die.
    pub value: i8,
    /// Whether it exists in Hood Strikes North.
    pub in_hsn: bool,
    /// Where the value comes from ("reconstructed: …" when rebuilt).
    pub source: String,
}

/// The Cavalry Retreat Table (GCACW 7.7).
#[derive(Clone, Debug)]
pub(crate) struct CavalryRetreatTable {
    divide_by: u8,
    loss_on_roll: u8,
    loss: u8,
    modifiers: Vec<CavalryRetreatModifier>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CavFile {
    source: String,
    divide_by: u8,
    loss_on_roll: u8,
    loss: u8,
    modifier: Vec<Spanned<CavRow>>,
}

#[derive(Deserialize, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
enum CavWhen {
    CavalryTerrain,
    CavalryManpower,
    OutOfAmmunition,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CavRow {
    label: String,
    when: CavWhen,
    #[serde(default)]
    terrains: Vec<TerrainName>,
    from: Option<u8>,
    to: Option<u8>,
    value: i8,
    #[serde(default = "yes")]
    in_hsn: bool,
    source: Option<String>,
}

fn yes() -> bool {
    true
}

impl CavalryRetreatTable {
    pub(crate) fn load(dir: &DataDir, notes: &mut Vec<String>) -> Result<CavalryRetreatTable, DataError> {
        let (f, cx): (CavFile, _) = FileCtx::load(dir, "cavalry-retreat.toml")?;
        cx.check_source(&(0..0), &f.source)?;
        if f.divide_by == 0 {
            return Err(cx.whole("`divide_by` must be at least 1"));
        }
        let mut modifiers = Vec::new();
        let mut terrains = BTreeSet::new();
        let mut bands: Vec<(u8, Option<u8>, std::ops::Range<usize>)> = Vec::new();
        for row in &f.modifier {
            let span = row.span();
            let r = row.get_ref();
            let source = r.source.as_deref().unwrap_or(&f.source);
            cx.check_source(&span, source)?;
            let condition = match (r.when, r.terrains.is_empty(), r.from, r.to) {
                (CavWhen::CavalryTerrain, false, None, None) => {
                    for t in &r.terrains {
                        if t.0 == Terrain::ProvisionalSwamp || !terrains.insert(t.0) {
                            return Err(cx.err(
                                &span,
                                format!("terrain `{}` is repeated or not allowed here", terrain_key(t.0)),
                            ));
                        }
                    }
                    CavalryRetreatCondition::Terrain(r.terrains.iter().map(|t| t.0).collect())
                }
                (CavWhen::CavalryManpower, true, Some(from), to) => {
                    bands.push((from, to, span.clone()));
                    CavalryRetreatCondition::Manpower { from, to }
                }
                (CavWhen::OutOfAmmunition, true, None, None) => CavalryRetreatCondition::OutOfAmmunition,
                _ => {
                    return Err(cx.err(
                        &span,
                        "cavalry-terrain takes `terrains`; cavalry-manpower takes `from` (and `to`); \
                         out-of-ammunition takes neither",
                    ))
                }
            };
            note(notes, "Cavalry Retreat Table", &format!("{} {}", r.label, signed(i32::from(r.value))), source);
            modifiers.push(CavalryRetreatModifier {
                label: r.label.clone(),
                condition,
                value: r.value,
                in_hsn: r.in_hsn,
                source: source.trim().to_string(),
            });
        }
        for t in Terrain::ALL {
            if !matches!(t, Terrain::Water | Terrain::ProvisionalSwamp)
                && !terrains.contains(&t)
                && !terrains.is_empty()
            {
                return Err(cx.whole(format!("terrain `{}` has no terrain modifier row", terrain_key(t))));
            }
        }
        let mut next = Some(1u8);
        for (i, (from, to, span)) in bands.iter().enumerate() {
            if next != Some(*from) {
                return Err(cx.err(span, "Manpower bands must start at 1 and follow each other without gap"));
            }
            next = to.map(|t| t.saturating_add(1));
            if next.is_none() && i + 1 != bands.len() {
                return Err(cx.err(span, "only the last Manpower band may be open-ended"));
            }
        }
        if !bands.is_empty() && next.is_some() {
            return Err(cx.whole("the last Manpower band must be open-ended (no `to`)"));
        }
        Ok(CavalryRetreatTable { divide_by: f.divide_by, loss_on_roll: f.loss_on_roll, loss: f.loss, modifiers })
    }
}

// ---------------------------------------------------------------------------------------------
// Retreat Charts

/// Distance test of a retreat description (GCACW 7.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RetreatDistance {
    /// One hex more distant from the active enemy unit than the hex left.
    Farther,
    /// Not more distant (the same distance; closer is never legal).
    NotFarther,
    /// Either.
    Any,
}

/// Hexside test of a retreat description (GCACW 7.6; a city hex counts as a road).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RetreatHexside {
    /// Across a road, pike, trail or railroad hexside, or into or out of a city hex.
    Route,
    /// Across a hexside without a route.
    NoRoute,
    /// Either.
    Any,
}

/// Enemy test of a retreat description (GCACW 7.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RetreatEnemy {
    /// Neither enemy-occupied nor in an enemy ZOC.
    Free,
    /// In an enemy ZOC but not enemy-occupied.
    Zoc,
    /// Enemy-occupied (never the active enemy unit's hex).
    Occupied,
}

/// What a retreating stack would meet in one candidate hex (GCACW 7.6).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct RetreatHex {
    /// One hex more distant from the active enemy unit than the hex left.
    pub farther: bool,
    /// Entered across a road, pike, trail or railroad hexside, or into or out of a city hex.
    pub across_route: bool,
    /// In an enemy ZOC (restricted ZOC included).
    pub enemy_zoc: bool,
    /// Holds enemy units.
    pub enemy_occupied: bool,
    /// Holds friendly units.
    pub friendly_occupied: bool,
}

/// One Retreat Description of a Retreat Chart (GCACW 7.6).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RetreatRow {
    /// Priority Number: the lowest available must be taken (ties are a free choice).
    pub priority: u8,
    /// The description, in this project's words.
    pub description: String,
    /// Distance test.
    pub distance: RetreatDistance,
    /// Hexside test.
    pub hexside: RetreatHexside,
    /// Enemy test.
    pub enemy: RetreatEnemy,
    /// Manpower each retreating unit loses (GCACW 7.6).
    pub loss: u8,
    /// The loss instead when the hex is entered across a route (or city hexside).
    pub loss_across_route: Option<u8>,
    /// The loss instead when the hex is friendly-occupied.
    pub loss_friendly_occupied: Option<u8>,
    /// Where the row comes from ("reconstructed: …" when rebuilt).
    pub source: String,
}

impl RetreatRow {
    /// Whether this description fits the hex.
    #[must_use]
    pub fn matches(&self, hex: &RetreatHex) -> bool {
        let distance = match self.distance {
            RetreatDistance::Farther => hex.farther,
            RetreatDistance::NotFarther => !hex.farther,
            RetreatDistance::Any => true,
        };
        let hexside = match self.hexside {
            RetreatHexside::Route => hex.across_route,
            RetreatHexside::NoRoute => !hex.across_route,
            RetreatHexside::Any => true,
        };
        let enemy = match self.enemy {
            RetreatEnemy::Free => !hex.enemy_occupied && !hex.enemy_zoc,
            RetreatEnemy::Zoc => hex.enemy_zoc && !hex.enemy_occupied,
            RetreatEnemy::Occupied => hex.enemy_occupied,
        };
        distance && hexside && enemy
    }

    /// Manpower each unit loses entering the hex by this description (GCACW 7.6): the
    /// route or friendly-occupied variation when it applies, the smaller if both do.
    #[must_use]
    pub fn loss_for(&self, across_route: bool, friendly_occupied: bool) -> u8 {
        let mut loss = self.loss;
        if across_route {
            loss = loss.min(self.loss_across_route.unwrap_or(loss));
        }
        if friendly_occupied {
            loss = loss.min(self.loss_friendly_occupied.unwrap_or(loss));
        }
        loss
    }

    fn loss_text(&self) -> String {
        let mut s = format!("loses {}", self.loss);
        if let Some(r) = self.loss_across_route {
            s.push_str(&format!(", {r} along a route"));
        }
        if let Some(f) = self.loss_friendly_occupied {
            s.push_str(&format!(", {f} into a friendly-occupied hex"));
        }
        s
    }
}

/// Retreat Charts 1 and 2 (GCACW 7.6), rows sorted by priority.
#[derive(Clone, Debug)]
pub(crate) struct RetreatCharts {
    chart1: Vec<RetreatRow>,
    chart2: Vec<RetreatRow>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RetreatFile {
    source: String,
    chart: Vec<Spanned<ChartRaw>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ChartRaw {
    number: u8,
    source: Option<String>,
    row: Vec<Spanned<RowRaw>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RowRaw {
    priority: u8,
    description: String,
    distance: RetreatDistance,
    hexside: RetreatHexside,
    enemy: RetreatEnemy,
    loss: u8,
    loss_across_route: Option<u8>,
    loss_friendly_occupied: Option<u8>,
    source: Option<String>,
}

impl RetreatCharts {
    pub(crate) fn load(dir: &DataDir, notes: &mut Vec<String>) -> Result<RetreatCharts, DataError> {
        let (f, cx): (RetreatFile, _) = FileCtx::load(dir, "retreat.toml")?;
        cx.check_source(&(0..0), &f.source)?;
        let mut chart1 = None;
        let mut chart2 = None;
        for chart in &f.chart {
            let cspan = chart.span();
            let c = chart.get_ref();
            let chart_source = c.source.as_deref().unwrap_or(&f.source);
            cx.check_source(&cspan, chart_source)?;
            let mut rows = Vec::new();
            for row in &c.row {
                let span = row.span();
                let r = row.get_ref();
                let source = r.source.as_deref().unwrap_or(chart_source);
                cx.check_source(&span, source)?;
                if r.description.trim().is_empty() {
                    return Err(cx.err(&span, "`description` is empty"));
                }
                if r.loss_across_route.is_some_and(|l| l > r.loss)
                    || r.loss_friendly_occupied.is_some_and(|l| l > r.loss)
                {
                    return Err(cx.err(&span, "a loss variation may only lower the loss"));
                }
                let row = RetreatRow {
                    priority: r.priority,
                    description: r.description.trim().to_string(),
                    distance: r.distance,
                    hexside: r.hexside,
                    enemy: r.enemy,
                    loss: r.loss,
                    loss_across_route: r.loss_across_route,
                    loss_friendly_occupied: r.loss_friendly_occupied,
                    source: source.trim().to_string(),
                };
                note(
                    notes,
                    &format!("Retreat Chart {}", c.number),
                    &format!("priority {} ({}) {}", row.priority, row.description, row.loss_text()),
                    source,
                );
                rows.push(row);
            }
            rows.sort_by_key(|r| r.priority);
            // Every kind of candidate hex must have a description.
            for bits in 0u8..8 {
                let hex = RetreatHex {
                    farther: bits & 1 != 0,
                    across_route: bits & 2 != 0,
                    enemy_zoc: bits & 4 != 0,
                    enemy_occupied: false,
                    friendly_occupied: false,
                };
                let occupied = RetreatHex { enemy_occupied: true, ..hex };
                for h in [hex, occupied] {
                    if !rows.iter().any(|r| r.matches(&h)) {
                        return Err(cx.err(&cspan, format!("Retreat Chart {}: no description fits {h:?}", c.number)));
                    }
                }
            }
            let slot = match c.number {
                1 => &mut chart1,
                2 => &mut chart2,
                n => return Err(cx.err(&cspan, format!("there is no Retreat Chart {n}"))),
            };
            if slot.replace(rows).is_some() {
                return Err(cx.err(&cspan, format!("Retreat Chart {} is given twice", c.number)));
            }
        }
        match (chart1, chart2) {
            (Some(chart1), Some(chart2)) => Ok(RetreatCharts { chart1, chart2 }),
            _ => Err(cx.whole("both Retreat Chart 1 and Retreat Chart 2 are needed")),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Lookups

impl Charts {
    /// Every modifier of the Cavalry Retreat Table (GCACW 7.7), including those that do not
    /// exist in HSN (`in_hsn == false`).
    #[must_use]
    pub fn cavalry_retreat_modifiers(&self) -> &[CavalryRetreatModifier] {
        &self.cavalry.modifiers
    }

    /// The sum of the Cavalry Retreat Table modifiers (GCACW 7.7) for cavalry in a hex of
    /// `terrain` (provisional swamp resolved by `rain`) with `combined_manpower` in the
    /// retreating stack. Modifiers not in HSN apply only if their condition is asked for
    /// (`out_of_ammunition`).
    #[must_use]
    pub fn cavalry_retreat_modifier(
        &self,
        terrain: Terrain,
        rain: bool,
        combined_manpower: u8,
        out_of_ammunition: bool,
    ) -> i32 {
        let t = self.effective_terrain(terrain, rain);
        self.cavalry
            .modifiers
            .iter()
            .filter(|m| match &m.condition {
                CavalryRetreatCondition::Terrain(ts) => m.in_hsn && ts.contains(&t),
                CavalryRetreatCondition::Manpower { from, to } => {
                    m.in_hsn && combined_manpower >= *from && to.is_none_or(|to| combined_manpower <= to)
                }
                CavalryRetreatCondition::OutOfAmmunition => out_of_ammunition,
            })
            .map(|m| i32::from(m.value))
            .sum()
    }

    /// How much the active enemy unit's Movement Allowance drops (GCACW 7.7): the die plus
    /// `modifier`, halved and rounded down, never below 0.
    #[must_use]
    pub fn cavalry_retreat_reduction(&self, unmodified_roll: u8, modifier: i32) -> u8 {
        let total = (i32::from(unmodified_roll) + modifier).max(0);
        u8::try_from(total / i32::from(self.cavalry.divide_by)).unwrap_or(u8::MAX)
    }

    /// Manpower one retreating cavalry unit loses for the unmodified die (GCACW 7.7: a 1
    /// costs 1).
    #[must_use]
    pub fn cavalry_retreat_loss(&self, unmodified_roll: u8) -> u8 {
        if unmodified_roll == self.cavalry.loss_on_roll {
            self.cavalry.loss
        } else {
            0
        }
    }

    /// The rows of Retreat Chart 1 or 2 (GCACW 7.6), lowest priority first; any other
    /// number gives an empty slice.
    #[must_use]
    pub fn retreat_chart(&self, chart: u8) -> &[RetreatRow] {
        match chart {
            1 => &self.retreat.chart1,
            2 => &self.retreat.chart2,
            _ => &[],
        }
    }

    /// The description a candidate hex has on Retreat Chart `chart` (GCACW 7.6): the
    /// matching row with the lowest priority number.
    #[must_use]
    pub fn retreat_description(&self, chart: u8, hex: &RetreatHex) -> Option<&RetreatRow> {
        self.retreat_chart(chart).iter().find(|r| r.matches(hex))
    }
}
