//! March charts: the disorganized side of the Strength markers (GCACW 2.2, 7.2) and the
//! Extended March Table (GCACW 5.1).

use crate::data::DataDir;
use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use caisson_kernel::data::DataError;
use serde::Deserialize;
use toml::Spanned;

use super::{note, Charts, FileCtx, Half, HSN_MAX_MANPOWER};

/// Disorganized Combat value by Manpower, index 0 = Manpower 1.
#[derive(Clone, Debug)]
pub(crate) struct StrengthChart(Vec<Half>);

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StrengthFile {
    source: String,
    row: Vec<Spanned<StrengthRow>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StrengthRow {
    manpower: u8,
    disorganized_cv: Half,
    source: Option<String>,
}

impl StrengthChart {
    pub(crate) fn load(dir: &DataDir, notes: &mut Vec<String>) -> Result<StrengthChart, DataError> {
        let (f, cx): (StrengthFile, _) = FileCtx::load(dir, "strength.toml")?;
        cx.check_source(&(0..0), &f.source)?;
        let mut values: Vec<Half> = Vec::new();
        for row in &f.row {
            let span = row.span();
            let r = row.get_ref();
            let expected = u8::try_from(values.len() + 1).unwrap_or(u8::MAX);
            if r.manpower != expected {
                let msg = if r.manpower > expected {
                    format!("manpower {expected} is missing (this row is manpower {})", r.manpower)
                } else {
                    format!("manpower {} is out of order or repeated; expected manpower {expected}", r.manpower)
                };
                return Err(cx.err(&span, msg));
            }
            if r.manpower > HSN_MAX_MANPOWER {
                return Err(cx.err(&span, format!("manpower above {HSN_MAX_MANPOWER}, the HSN maximum")));
            }
            let source = r.source.as_deref().unwrap_or(&f.source);
            cx.check_source(&span, source)?;
            let cv = r.disorganized_cv;
            if cv == Half::ZERO || cv >= Half::whole(u16::from(r.manpower)) {
                return Err(cx.err(&span, "`disorganized_cv` must be at least ½ and below the Manpower"));
            }
            if values.last().is_some_and(|prev| *prev > cv) {
                return Err(cx.err(&span, "`disorganized_cv` must not fall as Manpower rises"));
            }
            note(notes, "Strength markers", &format!("disorganized Manpower {} has Combat {cv}", r.manpower), source);
            values.push(cv);
        }
        if values.len() != usize::from(HSN_MAX_MANPOWER) {
            let next = values.len() + 1;
            return match f.row.last() {
                Some(last) => Err(cx.err(&last.span(), format!("manpower {next} to {HSN_MAX_MANPOWER} are missing"))),
                None => Err(cx.whole(format!("manpower 1 to {HSN_MAX_MANPOWER} are missing"))),
            };
        }
        Ok(StrengthChart(values))
    }
}

/// A result of the Extended March Table (GCACW 5.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EmtResult {
    /// NE: no effect.
    NoEffect,
    /// D: the Strength marker flips to its disorganized side.
    Disorganize,
    /// 1, 2 or 3: that much Manpower is lost; the new marker is disorganized.
    Loss(u8),
}

impl fmt::Display for EmtResult {
    /// The chart's text: "NE", "D", "2".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EmtResult::NoEffect => f.write_str("NE"),
            EmtResult::Disorganize => f.write_str("D"),
            EmtResult::Loss(n) => write!(f, "{n}"),
        }
    }
}

impl FromStr for EmtResult {
    type Err = String;
    fn from_str(s: &str) -> Result<EmtResult, String> {
        match s {
            "NE" => Ok(EmtResult::NoEffect),
            "D" => Ok(EmtResult::Disorganize),
            "1" => Ok(EmtResult::Loss(1)),
            "2" => Ok(EmtResult::Loss(2)),
            "3" => Ok(EmtResult::Loss(3)),
            _ => Err(format!("unknown Extended March result `{s}` (expected NE, D, 1, 2 or 3)")),
        }
    }
}

/// Column of the Extended March Table: `None` = Organized, `Some(m)` = Disorganized at
/// Manpower `m`.
type EmtColumn = Option<u8>;

/// The Extended March Table (GCACW 5.1).
#[derive(Clone, Debug)]
pub(crate) struct ExtendedMarchTable {
    lowest: i32,
    highest: i32,
    cells: BTreeMap<(EmtColumn, i32), EmtResult>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EmtFile {
    source: String,
    lowest: i32,
    highest: i32,
    group: Vec<Spanned<EmtGroup>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EmtGroup {
    #[serde(default)]
    organized: bool,
    #[serde(default)]
    manpower: Vec<u8>,
    rolls: Vec<i32>,
    result: String,
    source: Option<String>,
}

impl ExtendedMarchTable {
    fn roll_label(&self, roll: i32) -> String {
        if roll == self.lowest {
            format!("{roll} or less")
        } else if roll == self.highest {
            format!("{roll} or more")
        } else {
            roll.to_string()
        }
    }

    pub(crate) fn load(dir: &DataDir, notes: &mut Vec<String>) -> Result<ExtendedMarchTable, DataError> {
        let (f, cx): (EmtFile, _) = FileCtx::load(dir, "extended-march.toml")?;
        cx.check_source(&(0..0), &f.source)?;
        if f.lowest > f.highest {
            return Err(cx.whole("`lowest` is above `highest`"));
        }
        let mut table = ExtendedMarchTable { lowest: f.lowest, highest: f.highest, cells: BTreeMap::new() };
        for g in &f.group {
            let span = g.span();
            let group = g.get_ref();
            let source = group.source.as_deref().unwrap_or(&f.source);
            cx.check_source(&span, source)?;
            let result: EmtResult = group.result.parse().map_err(|e: String| cx.err(&span, e))?;
            let columns: Vec<EmtColumn> = match (group.organized, group.manpower.is_empty()) {
                (true, true) => vec![None],
                (false, false) => group.manpower.iter().map(|m| Some(*m)).collect(),
                _ => return Err(cx.err(&span, "give either `organized = true` or a `manpower` list")),
            };
            if group.rolls.is_empty() {
                return Err(cx.err(&span, "`rolls` is empty"));
            }
            for col in &columns {
                if let Some(m) = col {
                    if !(1..=HSN_MAX_MANPOWER).contains(m) {
                        return Err(cx.err(&span, format!("manpower {m} is outside 1 to {HSN_MAX_MANPOWER}")));
                    }
                }
                for roll in &group.rolls {
                    if !(f.lowest..=f.highest).contains(roll) {
                        return Err(cx.err(&span, format!("roll {roll} is outside {} to {}", f.lowest, f.highest)));
                    }
                    if table.cells.insert((*col, *roll), result).is_some() {
                        return Err(cx.err(&span, format!("cell {} / roll {roll} is given twice", column_name(*col))));
                    }
                }
            }
            let rolls: Vec<String> = group.rolls.iter().map(|r| table.roll_label(*r)).collect();
            let who = if group.organized {
                "Organized".to_string()
            } else {
                format!("Disorganized, Manpower {}", manpower_list(&group.manpower))
            };
            note(
                notes,
                "Extended March Table",
                &format!("{who}, modified roll {} → {result}", rolls.join(", ")),
                source,
            );
        }
        let columns = std::iter::once(None).chain((1..=HSN_MAX_MANPOWER).map(Some));
        for col in columns {
            for roll in f.lowest..=f.highest {
                if !table.cells.contains_key(&(col, roll)) {
                    return Err(cx.whole(format!("no result for {} at roll {roll}", column_name(col))));
                }
            }
        }
        Ok(table)
    }
}

fn column_name(col: EmtColumn) -> String {
    match col {
        None => "the Organized column".to_string(),
        Some(m) => format!("Disorganized Manpower {m}"),
    }
}

/// "1–5" for a run of numbers, else "1, 3".
fn manpower_list(m: &[u8]) -> String {
    let run = m.windows(2).all(|w| w[1] == w[0] + 1);
    match (m.first(), m.last()) {
        (Some(a), Some(b)) if run && a != b => format!("{a}–{b}"),
        _ => m.iter().map(ToString::to_string).collect::<Vec<_>>().join(", "),
    }
}

impl Charts {
    /// The Combat value on the disorganized side of the Strength marker for `manpower`
    /// (GCACW 2.2, 7.2). Manpower 0 gives 0; Manpower above HSN's 11 reads the Manpower 11
    /// row.
    #[must_use]
    pub fn disorganized_cv(&self, manpower: u8) -> Half {
        match manpower {
            0 => Half::ZERO,
            m => {
                let i = usize::from(m.min(HSN_MAX_MANPOWER)) - 1;
                self.strength.0.get(i).copied().unwrap_or(Half::ZERO)
            }
        }
    }

    /// Reads the Extended March Table (GCACW 5.1) for a modified roll: the Organized column
    /// when `organized`, otherwise the Disorganized column of the unit's current `manpower`.
    /// Rolls beyond the first and last rows read those rows; Manpower is held to 1–11.
    #[must_use]
    pub fn extended_march(&self, modified_roll: i32, organized: bool, manpower: u8) -> EmtResult {
        let t = &self.emt;
        let roll = modified_roll.clamp(t.lowest, t.highest);
        let col = if organized { None } else { Some(manpower.clamp(1, HSN_MAX_MANPOWER)) };
        t.cells.get(&(col, roll)).copied().unwrap_or(EmtResult::NoEffect)
    }
}
