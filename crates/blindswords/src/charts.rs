//! The Blind Swords charts and tables (Series Rules v1.2) with Grand Havoc: Perryville's own
//! (exclusive rules), loaded from `data/blind-swords/*.toml`.
//!
//! The player aids that print these tables are not public (EX 2.11 lists them; only the Fog of
//! War table is printed in the rulebook, as errata). Each file therefore says where its numbers
//! come from: a top-level `source` naming rule sections, and a `reconstructed` reason when the
//! table had to be rebuilt from what the text reveals. [`Charts::reconstructed`] lists those
//! reasons, one line per table, for the notice shown at the start of a game; a player who owns
//! the game replaces a reconstructed table by editing its file.
//!
//! | File | Table | Rules |
//! |---|---|---|
//! | `crt.toml` | Combat Results Table | SR 9.3, 11.3 |
//! | `cohesion.toml` | Fire and Close Combat Cohesion Test Tables | SR 12.1, 12.2 |
//! | `break-test.toml` | Break Test Table | SR 12.6 |
//! | `weapons.toml` | Weapon Ranges Table | SR 9.1c, EX 2.1a |
//! | `terrain.toml` | Terrain Effects Chart | SR 10.3, EX 2.10 |
//! | `orders.toml` | Brigade Order Details | SR 8.2–8.5, 10.2, EX 6.0 |
//! | `artillery-stacking.toml` | Artillery Stacking Table | SR 3.1a |
//! | `activation.toml` | activation roll | SR 7.3, EX 7.3 (ruling A-01) |
//! | `general-casualty.toml` | General Casualty Table | EX 7.3b |
//! | `fog-of-war.toml` | Fog of War Chit Table | EX 7.3b errata |
//! | `events.toml` | Unique Event Descriptions, Command Confusion | SR 7.3, EX 11.3c |
//! | `buell-track.toml` | Buell Alert Track and Buell roll | EX 2.12, 7.5, 14.2 |

use std::collections::HashSet;
use std::ops::Range;

use caisson_kernel::data::{self, DataDir, DataError};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use toml::Spanned;

/// The folder of these files under `data/`.
pub const DIR: &str = "blind-swords";

/// The highest modified Cohesion Rating (SR 2.1: modified CR is kept within 0–6).
pub const MAX_CR: u8 = 6;

// ---------------------------------------------------------------------------------------------
// Loading helpers

/// One file being loaded: its name and text, for errors with lines.
struct FileCtx {
    file: String,
    text: String,
}

impl FileCtx {
    fn load<T: DeserializeOwned>(dir: &DataDir, name: &str) -> Result<(T, FileCtx), DataError> {
        let path = dir.join(name);
        let text = path.read()?;
        let file = path.display();
        let value = data::parse_toml(&text, &file)?;
        Ok((value, FileCtx { file, text }))
    }

    fn err(&self, span: &Range<usize>, message: impl Into<String>) -> DataError {
        DataError::at(&self.file, &self.text, span.start, message)
    }

    fn whole(&self, message: impl Into<String>) -> DataError {
        DataError::invalid(&self.file, message)
    }
}

/// Checks the `source` and `reconstructed` fields every file starts with, and adds the notice
/// line of a reconstructed table.
fn check_provenance(
    cx: &FileCtx,
    table: &str,
    source: &Spanned<String>,
    reconstructed: Option<&Spanned<String>>,
    notes: &mut Vec<String>,
) -> Result<(), DataError> {
    if source.get_ref().trim().is_empty() {
        return Err(cx.err(&source.span(), "field `source` is empty: name the rule sections"));
    }
    if let Some(r) = reconstructed {
        if r.get_ref().trim().is_empty() {
            return Err(cx.err(&r.span(), "field `reconstructed` is empty: give the one-line reason"));
        }
        notes.push(format!("{table}: {}", r.get_ref().trim()));
    }
    Ok(())
}

/// A roll of two dice read as d66 (SR 9.3a): coloured die tens, white die units, 11–66.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct D66(u8);

impl D66 {
    /// The roll of a coloured and a white die, each 1–6.
    #[must_use]
    pub fn new(coloured: u8, white: u8) -> Option<D66> {
        ((1..=6).contains(&coloured) && (1..=6).contains(&white)).then_some(D66(coloured * 10 + white))
    }

    /// A d66 number as printed ("62"), if both digits are die faces.
    #[must_use]
    pub fn from_value(value: u8) -> Option<D66> {
        D66::new(value / 10, value % 10)
    }

    /// The two-digit number, 11–66.
    #[must_use]
    pub fn value(self) -> u8 {
        self.0
    }

    /// The next d66 number (16 → 21), none after 66.
    fn next(self) -> Option<D66> {
        if self.0 % 10 < 6 {
            Some(D66(self.0 + 1))
        } else {
            D66::new(self.0 / 10 + 1, 1)
        }
    }
}

/// A band of d66 rolls as printed: "51-53" or "65".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct D66Band {
    lo: D66,
    hi: D66,
}

impl D66Band {
    fn parse(s: &str) -> Option<D66Band> {
        let (a, b) = s.split_once('-').unwrap_or((s, s));
        let lo = D66::from_value(a.trim().parse().ok()?)?;
        let hi = D66::from_value(b.trim().parse().ok()?)?;
        (lo <= hi).then_some(D66Band { lo, hi })
    }

    fn contains(self, roll: D66) -> bool {
        self.lo <= roll && roll <= self.hi
    }
}

/// Parses bands and checks that they cover 11–66 in order with no gap or overlap.
fn d66_bands(cx: &FileCtx, field: &str, raw: &[(&str, Range<usize>)]) -> Result<Vec<D66Band>, DataError> {
    let mut out = Vec::new();
    let mut next = Some(D66(11));
    for (text, span) in raw {
        let band = D66Band::parse(text).ok_or_else(|| {
            cx.err(span, format!("field `{field}`: `{text}` is not a d66 band (\"11-16\", \"65\"; digits 1-6)"))
        })?;
        match next {
            Some(n) if n == band.lo => {}
            Some(n) => {
                return Err(cx.err(span, format!("field `{field}`: band `{text}` should start at {}", n.value())))
            }
            None => return Err(cx.err(span, format!("field `{field}`: band `{text}` lies beyond 66"))),
        }
        next = band.hi.next();
        out.push(band);
    }
    if next.is_some() {
        let at = raw.last().map_or(0..0, |(_, s)| s.clone());
        return Err(cx.err(&at, format!("field `{field}`: the bands stop before 66")));
    }
    Ok(out)
}

/// Checks a value is a whole or half number, at least zero.
fn check_half(cx: &FileCtx, span: &Range<usize>, field: &str, v: f64) -> Result<(), DataError> {
    if v < 0.0 || (v * 2.0).fract() != 0.0 {
        return Err(cx.err(span, format!("field `{field}`: {v} is not a whole or half number of at least 0")));
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Combat Results Table

/// The Cohesion Test a combat result calls for (SR 9.3b, 12.1, 12.2). A "-" on the CRT is no
/// effect in Fire Combat and a Close Fight in Close Combat (SR 11.0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Section {
    /// Close Combat only: the CRT gave "-" (SR 11.0).
    CloseFight,
    /// Green box.
    Routine,
    /// Yellow box.
    Tough,
    /// Red box.
    Severe,
}

impl Section {
    fn key(self) -> &'static str {
        match self {
            Section::CloseFight => "close-fight",
            Section::Routine => "routine",
            Section::Tough => "tough",
            Section::Severe => "severe",
        }
    }
}

/// One CRT cell: the Cohesion Rating range of each coloured box, Severe, Tough, Routine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CrtCell {
    boxes: [Option<(u8, u8)>; 3],
}

impl CrtCell {
    const ORDER: [Section; 3] = [Section::Severe, Section::Tough, Section::Routine];

    fn parse(s: &str) -> Result<CrtCell, String> {
        let s = s.trim();
        if s == "-" {
            return Ok(CrtCell { boxes: [None; 3] });
        }
        let parts: Vec<&str> = s.split('|').map(str::trim).collect();
        if parts.len() != 3 {
            return Err(format!("`{s}` is neither \"-\" nor three boxes \"severe | tough | routine\""));
        }
        let mut boxes = [None; 3];
        let mut floor = 0u8;
        for (i, p) in parts.iter().enumerate() {
            if *p == "-" {
                continue;
            }
            let (a, b) = p.split_once('-').unwrap_or((p, p));
            let (Ok(lo), Ok(hi)) = (a.trim().parse::<u8>(), b.trim().parse::<u8>()) else {
                return Err(format!("box `{p}` of `{s}` is not a Cohesion Rating range"));
            };
            if lo > hi || hi > MAX_CR {
                return Err(format!("box `{p}` of `{s}` is not a range within 0-{MAX_CR}"));
            }
            if lo < floor {
                return Err(format!("the boxes of `{s}` are not ascending and disjoint (Severe < Tough < Routine)"));
            }
            floor = hi + 1;
            boxes[i] = Some((lo, hi));
        }
        if boxes.iter().all(Option::is_none) {
            return Err(format!("`{s}` has three empty boxes: write \"-\""));
        }
        Ok(CrtCell { boxes })
    }

    /// The test a Lead Unit of this modified Cohesion Rating takes (SR 9.3b), if any. Ratings
    /// are clamped to 0–6 first (SR 2.1).
    #[must_use]
    pub fn test(&self, cr: i32) -> Option<Section> {
        let cr = u8::try_from(cr.clamp(0, i32::from(MAX_CR))).unwrap_or(0);
        CrtCell::ORDER
            .into_iter()
            .zip(self.boxes)
            .find_map(|(section, b)| b.filter(|(lo, hi)| (*lo..=*hi).contains(&cr)).map(|_| section))
    }
}

impl std::fmt::Display for CrtCell {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.boxes.iter().all(Option::is_none) {
            return f.write_str("-");
        }
        let parts: Vec<String> = self
            .boxes
            .iter()
            .map(|b| match b {
                None => "-".to_string(),
                Some((lo, hi)) if lo == hi => lo.to_string(),
                Some((lo, hi)) => format!("{lo}-{hi}"),
            })
            .collect();
        f.write_str(&parts.join(" | "))
    }
}

/// A CRT column: the SP totals it takes. "C" is ½ SP (SR 2.8, 9.3).
#[derive(Clone, Debug)]
struct CrtColumn {
    label: String,
    /// Whole SP from, to (None = and more); "C" is (0, Some(0)).
    from: u32,
    to: Option<u32>,
    cells: Vec<CrtCell>,
}

/// The Combat Results Table (SR 9.3, 11.3), used for Fire and Close Combat.
#[derive(Clone, Debug)]
pub struct Crt {
    columns: Vec<CrtColumn>,
    rows: Vec<D66Band>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CrtFile {
    source: Spanned<String>,
    reconstructed: Option<Spanned<String>>,
    columns: Spanned<Vec<Spanned<String>>>,
    rows: Vec<Spanned<String>>,
    column: Vec<Spanned<CrtColumnRaw>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CrtColumnRaw {
    label: Spanned<String>,
    cells: Vec<Spanned<String>>,
}

/// Parses a column label: "C", "5", "6-7", "23+"; returns (from, to).
fn column_bounds(label: &str) -> Option<(u32, Option<u32>)> {
    if label == "C" {
        return Some((0, Some(0)));
    }
    if let Some(n) = label.strip_suffix('+') {
        return Some((n.parse().ok()?, None));
    }
    let (a, b) = label.split_once('-').unwrap_or((label, label));
    let (a, b) = (a.parse().ok()?, b.parse().ok()?);
    (a <= b && a > 0).then_some((a, Some(b)))
}

impl Crt {
    fn load(dir: &DataDir, notes: &mut Vec<String>) -> Result<Crt, DataError> {
        let (raw, cx): (CrtFile, _) = FileCtx::load(dir, "crt.toml")?;
        check_provenance(&cx, "Combat Results Table (crt.toml)", &raw.source, raw.reconstructed.as_ref(), notes)?;
        let rows_raw: Vec<(&str, Range<usize>)> = raw.rows.iter().map(|r| (r.get_ref().as_str(), r.span())).collect();
        let rows = d66_bands(&cx, "rows", &rows_raw)?;
        // The column set: "C", then whole SP from 1 with no gap, ending in "N+" (SR 9.3).
        let mut columns: Vec<CrtColumn> = Vec::new();
        let mut next = 0u32;
        let labels = raw.columns.get_ref();
        for (i, l) in labels.iter().enumerate() {
            let text = l.get_ref();
            let Some((from, to)) = column_bounds(text) else {
                return Err(cx.err(
                    &l.span(),
                    format!("field `columns`: `{text}` is not a column (\"C\", \"5\", \"6-7\", \"23+\")"),
                ));
            };
            if from != next {
                let want = if next == 0 { "\"C\"".to_string() } else { format!("SP {next}") };
                return Err(cx.err(&l.span(), format!("field `columns`: column `{text}` should start at {want}")));
            }
            let last = i + 1 == labels.len();
            if to.is_none() != last {
                let why =
                    if last { "the last column must read \"N+\"" } else { "only the last column may read \"N+\"" };
                return Err(cx.err(&l.span(), format!("field `columns`: {why} (`{text}`)")));
            }
            next = to.map_or(0, |t| t + 1);
            columns.push(CrtColumn { label: text.clone(), from, to, cells: Vec::new() });
        }
        if columns.len() < 2 {
            return Err(
                cx.err(&raw.columns.span(), "field `columns`: the CRT needs \"C\" and at least one more column")
            );
        }
        let mut seen = HashSet::new();
        for c in &raw.column {
            let label = c.get_ref().label.get_ref();
            let Some(col) = columns.iter_mut().find(|k| &k.label == label) else {
                return Err(cx.err(&c.get_ref().label.span(), format!("field `label`: `{label}` is not in `columns`")));
            };
            if !seen.insert(label.clone()) {
                return Err(cx.err(&c.get_ref().label.span(), format!("field `label`: column `{label}` given twice")));
            }
            if c.get_ref().cells.len() != rows.len() {
                return Err(cx.err(
                    &c.span(),
                    format!(
                        "field `cells`: column `{label}` has {} cells for {} rows",
                        c.get_ref().cells.len(),
                        rows.len()
                    ),
                ));
            }
            for cell in &c.get_ref().cells {
                let parsed =
                    CrtCell::parse(cell.get_ref()).map_err(|m| cx.err(&cell.span(), format!("field `cells`: {m}")))?;
                col.cells.push(parsed);
            }
        }
        if let Some(missing) = columns.iter().find(|c| c.cells.is_empty()) {
            return Err(cx.whole(format!("column `{}` has no [[column]] entry", missing.label)));
        }
        Ok(Crt { columns, rows })
    }

    /// The number of columns.
    #[must_use]
    pub fn column_count(&self) -> usize {
        self.columns.len()
    }

    /// The printed label of a column ("C", "6-7", "23+").
    #[must_use]
    pub fn label(&self, column: usize) -> Option<&str> {
        self.columns.get(column).map(|c| c.label.as_str())
    }

    /// The column with this printed label.
    #[must_use]
    pub fn column_index(&self, label: &str) -> Option<usize> {
        self.columns.iter().position(|c| c.label == label)
    }

    /// The initial column of a total of modified SP (SR 9.3, with the rounding of SR 2.8: keep
    /// fractions to the end, then drop them, except that ½ reads "C"). `None`: less than ½ SP,
    /// the unit cannot fire.
    #[must_use]
    pub fn column_for(&self, sp: f64) -> Option<usize> {
        if sp < 0.5 {
            return None;
        }
        if sp < 1.0 {
            return Some(0);
        }
        // Whole SP after the rounding rule; totals are small, the cast cannot truncate.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let whole = sp.floor() as u32;
        self.columns.iter().position(|c| c.from <= whole && c.to.is_none_or(|t| whole <= t))
    }

    /// The column after a net shift (positive = right) (SR 9.3): beyond "23+" reads "23+";
    /// beyond the left of "C" the fire is ignored (`None`), except that Defensive Fire is
    /// resolved on "C" (`defensive`).
    #[must_use]
    pub fn shifted(&self, column: usize, shift: i32, defensive: bool) -> Option<usize> {
        let last = i64::try_from(self.columns.len()).ok()? - 1;
        let to = i64::try_from(column).ok()? + i64::from(shift);
        if to < 0 {
            return defensive.then_some(0);
        }
        usize::try_from(to.min(last)).ok()
    }

    /// The cell of a column and a d66 roll (SR 9.3a).
    #[must_use]
    pub fn cell(&self, column: usize, roll: D66) -> Option<&CrtCell> {
        let row = self.rows.iter().position(|r| r.contains(roll))?;
        self.columns.get(column)?.cells.get(row)
    }

    /// The Cohesion Test the Lead Unit of modified Cohesion Rating `cr` takes (SR 9.3b), if any:
    /// `None` is no effect in Fire Combat and a Close Fight in Close Combat (SR 11.0).
    #[must_use]
    pub fn result(&self, column: usize, roll: D66, cr: i32) -> Option<Section> {
        self.cell(column, roll)?.test(cr)
    }

    /// The Close Combat Cohesion Test of a combat (SR 11.0, 11.3e): the box the defending Lead
    /// Unit's modified rating falls in, or a Close Fight when it falls in none or the cell is
    /// "-". `None` only if the column does not exist.
    #[must_use]
    pub fn close_result(&self, column: usize, roll: D66, cr: i32) -> Option<Section> {
        Some(self.cell(column, roll)?.test(cr).unwrap_or(Section::CloseFight))
    }
}

// ---------------------------------------------------------------------------------------------
// Cohesion Test Tables

/// A Depletion result, read on the coloured die (SR 12.1a, 12.2a).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Depletion {
    /// "-".
    None,
    /// "D": the Lead Unit is depleted.
    Deplete,
    /// "D2": the Lead Unit and the next largest unit.
    DepleteTwo,
    /// "D all": every unit in the hex.
    DepleteAll,
    /// "AD" (Close Combat): the largest attacker.
    AttackerDeplete,
    /// "BD*" (Close Combat): the Lead Unit and the largest attacker, unless one side triples the other.
    BothDeplete,
}

/// One Skedaddle result, read on the white die (SR 12.1b, 12.2c); a row may list several.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Skedaddle {
    /// "MH", "2MH": Morale Hits on the Lead Unit.
    MoraleHits(u8),
    /// "BT": the Lead Unit takes a Break Test.
    BreakTest,
    /// "R#": the Lead Unit retreats # hexes (in the fire table, also printed "RA#").
    Retreat(u8),
    /// "RA#" (Close Combat): every unit in the defending hex retreats # hexes.
    RetreatAll(u8),
    /// "P#": # units panic (fire: always 1).
    Panic(u8),
    /// "AMH" (Close Combat): the largest attacker takes a Morale Hit.
    AttackerMoraleHit,
    /// "AR#" (Close Combat): the largest attacker retreats # hexes.
    AttackerRetreat(u8),
}

/// Which Cohesion Test Table: results differ in vocabulary (SR 12.1, 12.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CombatKind {
    Fire,
    Close,
}

fn parse_depletion(s: &str, kind: CombatKind) -> Result<Depletion, String> {
    let d = match s.trim() {
        "-" => Depletion::None,
        "D" => Depletion::Deplete,
        "D2" => Depletion::DepleteTwo,
        "D all" => Depletion::DepleteAll,
        "AD" if kind == CombatKind::Close => Depletion::AttackerDeplete,
        "BD*" if kind == CombatKind::Close => Depletion::BothDeplete,
        other => {
            let known = if kind == CombatKind::Fire { "-, D, D2, D all" } else { "-, AD, D, D2, D all, BD*" };
            return Err(format!("unknown Depletion result `{other}` (expected one of: {known})"));
        }
    };
    Ok(d)
}

fn parse_skedaddle(s: &str, kind: CombatKind) -> Result<Vec<Skedaddle>, String> {
    let s = s.trim();
    if s == "-" {
        return Ok(Vec::new());
    }
    let number = |rest: &str, code: &str| -> Result<u8, String> {
        rest.parse::<u8>().ok().filter(|n| (1..=3).contains(n)).ok_or_else(|| format!("`{code}` needs a number of 1-3"))
    };
    let mut out = Vec::new();
    for word in s.split_whitespace() {
        let code = word.strip_prefix('(').and_then(|w| w.strip_suffix(')')).unwrap_or(word);
        let fire = kind == CombatKind::Fire;
        let r = match code {
            "MH" => Skedaddle::MoraleHits(1),
            "2MH" => Skedaddle::MoraleHits(2),
            "BT" => Skedaddle::BreakTest,
            "AMH" if !fire => Skedaddle::AttackerMoraleHit,
            c if c.starts_with("AR") && !fire => Skedaddle::AttackerRetreat(number(&c[2..], c)?),
            // Fire Skedaddle results touch only the Lead Unit (SR 12.1 note): "RA#" reads "R#".
            c if c.starts_with("RA") && fire => Skedaddle::Retreat(number(&c[2..], c)?),
            c if c.starts_with("RA") => Skedaddle::RetreatAll(number(&c[2..], c)?),
            c if c.starts_with('R') && fire => Skedaddle::Retreat(number(&c[1..], c)?),
            "P1" => Skedaddle::Panic(1),
            c if c.starts_with('P') && !fire => Skedaddle::Panic(number(&c[1..], c)?),
            other => {
                let known =
                    if fire { "-, MH, 2MH, BT, R#, RA# (= R#), P1" } else { "-, AMH, AR#, MH, 2MH, BT, RA#, P#" };
                return Err(format!("unknown Skedaddle result `{other}` (expected: {known})"));
            }
        };
        out.push(r);
    }
    Ok(out)
}

/// One die face of a section: both results as printed and as read.
#[derive(Clone, Debug)]
struct CohesionRow {
    depletion: Depletion,
    depletion_text: String,
    skedaddle: Vec<Skedaddle>,
    skedaddle_text: String,
}

/// A Cohesion Test Table: the Fire Combat one (SR 12.1) or the Close Combat one (SR 12.2).
#[derive(Clone, Debug)]
pub struct CohesionTable {
    sections: Vec<(Section, Vec<CohesionRow>)>,
}

/// The result of one Cohesion Test (SR 12.0): Depletion on the coloured die, then Skedaddle
/// on the white, applied in that order.
#[derive(Clone, Copy, Debug)]
pub struct CohesionResult<'a> {
    /// The coloured die's result.
    pub depletion: Depletion,
    /// The white die's results, in the order they apply.
    pub skedaddle: &'a [Skedaddle],
    /// The coloured die's result as printed.
    pub depletion_text: &'a str,
    /// The white die's result as printed.
    pub skedaddle_text: &'a str,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SectionRaw {
    depletion: Spanned<Vec<Spanned<String>>>,
    skedaddle: Spanned<Vec<Spanned<String>>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct FireSections {
    routine: Spanned<SectionRaw>,
    tough: Spanned<SectionRaw>,
    severe: Spanned<SectionRaw>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct CloseSections {
    close_fight: Spanned<SectionRaw>,
    routine: Spanned<SectionRaw>,
    tough: Spanned<SectionRaw>,
    severe: Spanned<SectionRaw>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CohesionFile {
    source: Spanned<String>,
    reconstructed: Option<Spanned<String>>,
    fire: FireSections,
    close: CloseSections,
}

fn section_rows(
    cx: &FileCtx,
    table: &str,
    section: Section,
    raw: &Spanned<SectionRaw>,
    kind: CombatKind,
) -> Result<Vec<CohesionRow>, DataError> {
    let r = raw.get_ref();
    for (field, list) in [("depletion", &r.depletion), ("skedaddle", &r.skedaddle)] {
        if list.get_ref().len() != 6 {
            return Err(cx.err(
                &list.span(),
                format!(
                    "[{table}.{}] field `{field}`: {} rows, one per die face 1-6 needed",
                    section.key(),
                    list.get_ref().len()
                ),
            ));
        }
    }
    let mut rows = Vec::new();
    for (d, s) in r.depletion.get_ref().iter().zip(r.skedaddle.get_ref()) {
        let depletion = parse_depletion(d.get_ref(), kind)
            .map_err(|m| cx.err(&d.span(), format!("[{table}.{}] field `depletion`: {m}", section.key())))?;
        let skedaddle = parse_skedaddle(s.get_ref(), kind)
            .map_err(|m| cx.err(&s.span(), format!("[{table}.{}] field `skedaddle`: {m}", section.key())))?;
        rows.push(CohesionRow {
            depletion,
            depletion_text: d.get_ref().trim().to_string(),
            skedaddle,
            skedaddle_text: s.get_ref().trim().to_string(),
        });
    }
    Ok(rows)
}

impl CohesionTable {
    fn load(dir: &DataDir, notes: &mut Vec<String>) -> Result<(CohesionTable, CohesionTable), DataError> {
        let (raw, cx): (CohesionFile, _) = FileCtx::load(dir, "cohesion.toml")?;
        check_provenance(&cx, "Cohesion Test Tables (cohesion.toml)", &raw.source, raw.reconstructed.as_ref(), notes)?;
        let f = &raw.fire;
        let fire = CohesionTable {
            sections: vec![
                (Section::Routine, section_rows(&cx, "fire", Section::Routine, &f.routine, CombatKind::Fire)?),
                (Section::Tough, section_rows(&cx, "fire", Section::Tough, &f.tough, CombatKind::Fire)?),
                (Section::Severe, section_rows(&cx, "fire", Section::Severe, &f.severe, CombatKind::Fire)?),
            ],
        };
        let c = &raw.close;
        let close = CohesionTable {
            sections: vec![
                (
                    Section::CloseFight,
                    section_rows(&cx, "close", Section::CloseFight, &c.close_fight, CombatKind::Close)?,
                ),
                (Section::Routine, section_rows(&cx, "close", Section::Routine, &c.routine, CombatKind::Close)?),
                (Section::Tough, section_rows(&cx, "close", Section::Tough, &c.tough, CombatKind::Close)?),
                (Section::Severe, section_rows(&cx, "close", Section::Severe, &c.severe, CombatKind::Close)?),
            ],
        };
        Ok((fire, close))
    }

    /// The result of a test in `section` with these dice (SR 12.0): `None` if the table has no
    /// such section (Close Fight in the fire table) or a die is not 1–6.
    #[must_use]
    pub fn result(&self, section: Section, coloured: u8, white: u8) -> Option<CohesionResult<'_>> {
        let rows = &self.sections.iter().find(|(s, _)| *s == section)?.1;
        let d = rows.get(usize::from(coloured).checked_sub(1)?)?;
        let s = rows.get(usize::from(white).checked_sub(1)?)?;
        Some(CohesionResult {
            depletion: d.depletion,
            skedaddle: &s.skedaddle,
            depletion_text: &d.depletion_text,
            skedaddle_text: &s.skedaddle_text,
        })
    }
}

// ---------------------------------------------------------------------------------------------
// Break Test Table

/// A Break Test result (SR 12.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BreakResult {
    /// The unit holds: Shaken, Shaken → Disrupted, Disrupted stays.
    Hold,
    /// Broken: to this box of the Broken Track (artillery and Fragile units are eliminated).
    Broken(u8),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BreakFile {
    source: Spanned<String>,
    reconstructed: Option<Spanned<String>>,
    row: Vec<Spanned<BreakRowRaw>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BreakRowRaw {
    over: OverRaw,
    result: Spanned<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct OverRaw {
    min: Option<i32>,
    max: Option<i32>,
}

/// The Break Test Table (SR 12.6): rows by how far the die exceeds the modified Cohesion Rating.
#[derive(Clone, Debug)]
pub struct BreakTable {
    rows: Vec<(Option<i32>, Option<i32>, BreakResult)>,
}

impl BreakTable {
    fn load(dir: &DataDir, notes: &mut Vec<String>) -> Result<BreakTable, DataError> {
        let (raw, cx): (BreakFile, _) = FileCtx::load(dir, "break-test.toml")?;
        check_provenance(&cx, "Break Test Table (break-test.toml)", &raw.source, raw.reconstructed.as_ref(), notes)?;
        let mut rows = Vec::new();
        let mut next: Option<i32> = None;
        for (i, r) in raw.row.iter().enumerate() {
            let row = r.get_ref();
            let first = i == 0;
            let last = i + 1 == raw.row.len();
            if first != row.over.min.is_none() || last != row.over.max.is_none() {
                return Err(cx.err(
                    &r.span(),
                    "field `over`: only the first row may lack `min` and only the last may lack `max`",
                ));
            }
            if let (Some(n), Some(min)) = (next, row.over.min) {
                if n != min {
                    return Err(cx.err(&r.span(), format!("field `over`: this row should start at {n}")));
                }
            }
            if let (Some(min), Some(max)) = (row.over.min, row.over.max) {
                if min > max {
                    return Err(cx.err(&r.span(), "field `over`: `min` is above `max`"));
                }
            }
            next = row.over.max.map(|m| m + 1);
            let text = row.result.get_ref();
            let result = match text.as_str() {
                "hold" => BreakResult::Hold,
                "broken-1" => BreakResult::Broken(1),
                "broken-2" => BreakResult::Broken(2),
                "broken-3" => BreakResult::Broken(3),
                other => {
                    return Err(cx.err(
                        &row.result.span(),
                        format!("field `result`: unknown `{other}` (expected hold, broken-1, broken-2, broken-3)"),
                    ))
                }
            };
            rows.push((row.over.min, row.over.max, result));
        }
        if rows.is_empty() {
            return Err(cx.whole("no [[row]]"));
        }
        Ok(BreakTable { rows })
    }

    /// The result of a Break Test die `roll` against modified Cohesion Rating `cr` (SR 12.6).
    #[must_use]
    pub fn result(&self, roll: u8, cr: i32) -> BreakResult {
        let over = i32::from(roll) - cr.clamp(0, i32::from(MAX_CR));
        self.rows
            .iter()
            .find(|(min, max, _)| min.is_none_or(|m| m <= over) && max.is_none_or(|m| over <= m))
            .map_or(BreakResult::Hold, |r| r.2)
    }
}

// ---------------------------------------------------------------------------------------------
// Weapon Ranges Table

/// Who carries a weapon: the table has separate lines for small arms and guns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Arm {
    /// Infantry and cavalry.
    SmallArms,
    /// Artillery.
    Artillery,
}

/// A range band (SR 9.1c).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RangeBand {
    /// Artillery only: SP ×1.5.
    Canister,
    /// Full SP.
    Effective,
    /// SP ×½.
    Long,
    /// SP ×¼.
    Extreme,
}

/// One Weapon Type's line on the Weapon Ranges Table.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Weapon {
    /// Small arms or artillery.
    pub arm: Arm,
    /// The code printed on the counter ("R", "S", "A", "CC").
    pub code: String,
    /// What the code stands for.
    pub name: String,
    /// Last hex of each band; absent = no such band.
    pub canister: Option<u32>,
    /// Last hex at Effective range.
    pub effective: Option<u32>,
    /// Last hex at Long range.
    pub long: Option<u32>,
    /// Last hex at Extreme range.
    pub extreme: Option<u32>,
}

impl Weapon {
    /// Whether the weapon has any range: "CC" has none and fires only Defensive Fire, as at
    /// Effective range (SR 9.1c, 11.3a).
    #[must_use]
    pub fn has_ranges(&self) -> bool {
        self.effective.is_some() || self.long.is_some() || self.extreme.is_some()
    }

    /// The band a target `distance` hexes away falls in (SR 9.1c), `None` beyond range.
    #[must_use]
    pub fn band(&self, distance: u32) -> Option<RangeBand> {
        if distance == 0 {
            return None;
        }
        [
            (RangeBand::Canister, self.canister),
            (RangeBand::Effective, self.effective),
            (RangeBand::Long, self.long),
            (RangeBand::Extreme, self.extreme),
        ]
        .into_iter()
        .find_map(|(band, last)| last.filter(|l| distance <= *l).map(|_| band))
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Factors {
    canister: f64,
    effective: f64,
    long: f64,
    extreme: f64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WeaponFile {
    source: Spanned<String>,
    reconstructed: Option<Spanned<String>>,
    factors: Spanned<Factors>,
    weapon: Vec<Spanned<Weapon>>,
}

/// The Weapon Ranges Table (SR 9.1c; EX 2.1a).
#[derive(Clone, Debug)]
pub struct WeaponRanges {
    factors: [f64; 4],
    weapons: Vec<Weapon>,
}

impl WeaponRanges {
    fn load(dir: &DataDir, notes: &mut Vec<String>) -> Result<WeaponRanges, DataError> {
        let (raw, cx): (WeaponFile, _) = FileCtx::load(dir, "weapons.toml")?;
        check_provenance(&cx, "Weapon Ranges Table (weapons.toml)", &raw.source, raw.reconstructed.as_ref(), notes)?;
        let f = raw.factors.get_ref();
        let factors = [f.canister, f.effective, f.long, f.extreme];
        if factors.iter().any(|x| *x <= 0.0) {
            return Err(cx.err(&raw.factors.span(), "[factors]: every factor must be above 0"));
        }
        let mut seen = HashSet::new();
        let mut weapons = Vec::new();
        for w in &raw.weapon {
            let weapon = w.get_ref();
            if !seen.insert((weapon.arm, weapon.code.clone())) {
                return Err(cx.err(&w.span(), format!("field `code`: `{}` given twice for the same arm", weapon.code)));
            }
            if weapon.canister.is_some() && weapon.arm != Arm::Artillery {
                return Err(
                    cx.err(&w.span(), format!("field `canister`: `{}` is not artillery (SR 9.1c)", weapon.code))
                );
            }
            let mut last = 0;
            for (field, v) in [
                ("canister", weapon.canister),
                ("effective", weapon.effective),
                ("long", weapon.long),
                ("extreme", weapon.extreme),
            ] {
                if let Some(v) = v {
                    if v <= last {
                        return Err(cx.err(
                            &w.span(),
                            format!(
                                "field `{field}`: {v} hexes for `{}` does not lie beyond the band before it",
                                weapon.code
                            ),
                        ));
                    }
                    last = v;
                }
            }
            weapons.push(weapon.clone());
        }
        Ok(WeaponRanges { factors, weapons })
    }

    /// The line of a Weapon Type.
    #[must_use]
    pub fn weapon(&self, arm: Arm, code: &str) -> Option<&Weapon> {
        self.weapons.iter().find(|w| w.arm == arm && w.code == code)
    }

    /// The band of a target `distance` hexes away for this weapon (SR 9.1c); `None` if out of
    /// range or the weapon is unknown.
    #[must_use]
    pub fn band(&self, arm: Arm, code: &str, distance: u32) -> Option<RangeBand> {
        self.weapon(arm, code)?.band(distance)
    }

    /// The SP factor of a band (SR 9.1c).
    #[must_use]
    pub fn factor(&self, band: RangeBand) -> f64 {
        match band {
            RangeBand::Canister => self.factors[0],
            RangeBand::Effective => self.factors[1],
            RangeBand::Long => self.factors[2],
            RangeBand::Extreme => self.factors[3],
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Terrain Effects Chart

/// A unit type's column on the Terrain Effects Chart. Perryville cavalry has no mounted and
/// dismounted modes (EX 10.9); horse artillery moves as artillery.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mover {
    /// Infantry.
    Infantry,
    /// Cavalry.
    Cavalry,
    /// Foot or horse artillery.
    Artillery,
}

/// A movement cost: MP, or prohibited.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Mp {
    /// This many MP (whole or half).
    Cost(f64),
    /// "P": the unit may not enter or cross.
    Prohibited,
}

/// Costs as written: each a number of MP or "P".
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CostRaw {
    infantry: toml::Value,
    cavalry: toml::Value,
    artillery: toml::Value,
}

/// MP costs by unit type.
#[derive(Clone, Copy, Debug)]
struct Costs([Mp; 3]);

impl Costs {
    fn from_raw(cx: &FileCtx, span: &Range<usize>, raw: &CostRaw) -> Result<Costs, DataError> {
        let mut out = [Mp::Prohibited; 3];
        for (i, (field, v)) in [("infantry", &raw.infantry), ("cavalry", &raw.cavalry), ("artillery", &raw.artillery)]
            .into_iter()
            .enumerate()
        {
            let n = match v {
                toml::Value::String(p) if p == "P" => continue,
                toml::Value::Integer(n) => i32::try_from(*n).map(f64::from).unwrap_or(-1.0),
                toml::Value::Float(n) => *n,
                other => {
                    return Err(cx.err(span, format!("field `{field}`: `{other}` is neither a number of MP nor \"P\"")))
                }
            };
            check_half(cx, span, field, n)?;
            out[i] = Mp::Cost(n);
        }
        Ok(Costs(out))
    }

    fn get(self, mover: Mover) -> Mp {
        self.0[match mover {
            Mover::Infantry => 0,
            Mover::Cavalry => 1,
            Mover::Artillery => 2,
        }]
    }
}

/// What a hex terrain or hexside feature does besides movement (EX 9.3, 11.3c, 12.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct TerrainEffects {
    /// Fire Combat column shift against a target in the hex or behind the hexside (negative = left).
    pub fire: i32,
    /// Close Combat column shift for a defender in the hex or across the hexside.
    pub close_combat: i32,
    /// Whether units in the hex may give and receive Unit Support (EX 12.4 iv).
    pub support: bool,
    /// Whether retreating across the hexside costs a Morale Hit (EX 2.10k).
    pub retreat_morale_hit: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct HexRaw {
    name: String,
    cost: CostRaw,
    #[serde(default)]
    fire: i32,
    #[serde(default)]
    close_combat: i32,
    support: Option<bool>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct HexsideRaw {
    name: String,
    cost: Option<CostRaw>,
    uphill: Option<CostRaw>,
    downhill: Option<CostRaw>,
    #[serde(default)]
    fire: i32,
    #[serde(default)]
    close_combat: i32,
    #[serde(default)]
    retreat_morale_hit: bool,
}

/// The movement numbers the text gives outside the per-terrain costs.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MovementRules {
    /// Trail/Road hex to Trail/Road hex along the road graphic (EX 2.10h).
    pub road: f64,
    /// March Column along Road hexes under Maneuver (EX 2.10h).
    pub march_column: f64,
    /// Artillery along Road hexes (EX 2.10h).
    pub artillery_road: f64,
    /// Artillery on a road in Woods or Steep Slope entering a hex it would over-stack (EX 6.5c).
    pub congested_road: f64,
    /// Entering Skirmish Order (EX 15.1).
    pub skirmish_entry: f64,
    /// Skirmishers pay this much less a hex (EX 15.2)…
    pub skirmish_discount: f64,
    /// …but never below this (EX 15.2).
    pub skirmish_minimum: f64,
    /// Extra MP for an enemy moving adjacent to a skirmisher (EX 15.3).
    pub skirmish_screen: f64,
    /// Moving off the map from an edge hex (SR 10.12).
    pub off_map: f64,
    /// Night turns multiply terrain costs, except Road movement (EX 16.1g).
    pub night_factor: f64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TerrainFile {
    source: Spanned<String>,
    reconstructed: Option<Spanned<String>>,
    movement: Spanned<MovementRules>,
    hex: Vec<Spanned<HexRaw>>,
    hexside: Vec<Spanned<HexsideRaw>>,
}

#[derive(Clone, Debug)]
struct HexsideEntry {
    name: String,
    uphill: Costs,
    downhill: Costs,
    effects: TerrainEffects,
}

/// The Terrain Effects Chart (SR 10.3; EX 2.10).
#[derive(Clone, Debug)]
pub struct TerrainChart {
    movement: MovementRules,
    hexes: Vec<(String, Costs, TerrainEffects)>,
    hexsides: Vec<HexsideEntry>,
}

fn check_name(cx: &FileCtx, span: &Range<usize>, seen: &mut HashSet<String>, name: &str) -> Result<(), DataError> {
    let kebab = !name.is_empty() && name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
    if !kebab {
        return Err(cx.err(span, format!("field `name`: `{name}` is not a kebab-case name")));
    }
    if !seen.insert(name.to_string()) {
        return Err(cx.err(span, format!("field `name`: `{name}` given twice")));
    }
    Ok(())
}

impl TerrainChart {
    fn load(dir: &DataDir, notes: &mut Vec<String>) -> Result<TerrainChart, DataError> {
        let (raw, cx): (TerrainFile, _) = FileCtx::load(dir, "terrain.toml")?;
        check_provenance(&cx, "Terrain Effects Chart (terrain.toml)", &raw.source, raw.reconstructed.as_ref(), notes)?;
        let m = *raw.movement.get_ref();
        let span = raw.movement.span();
        for (field, v) in [
            ("road", m.road),
            ("march_column", m.march_column),
            ("artillery_road", m.artillery_road),
            ("congested_road", m.congested_road),
            ("skirmish_entry", m.skirmish_entry),
            ("skirmish_discount", m.skirmish_discount),
            ("skirmish_minimum", m.skirmish_minimum),
            ("skirmish_screen", m.skirmish_screen),
            ("off_map", m.off_map),
            ("night_factor", m.night_factor),
        ] {
            check_half(&cx, &span, field, v)?;
        }
        let mut seen = HashSet::new();
        let mut hexes = Vec::new();
        for h in &raw.hex {
            let r = h.get_ref();
            check_name(&cx, &h.span(), &mut seen, &r.name)?;
            let costs = Costs::from_raw(&cx, &h.span(), &r.cost)?;
            let effects = TerrainEffects {
                fire: r.fire,
                close_combat: r.close_combat,
                support: r.support.unwrap_or(true),
                retreat_morale_hit: false,
            };
            hexes.push((r.name.clone(), costs, effects));
        }
        let mut hexsides = Vec::new();
        for h in &raw.hexside {
            let r = h.get_ref();
            check_name(&cx, &h.span(), &mut seen, &r.name)?;
            let (up, down) = match (&r.cost, &r.uphill, &r.downhill) {
                (Some(c), None, None) => (c, c),
                (None, Some(u), Some(d)) => (u, d),
                _ => {
                    return Err(cx.err(
                        &h.span(),
                        format!("hexside `{}`: give either `cost` or both `uphill` and `downhill`", r.name),
                    ))
                }
            };
            hexsides.push(HexsideEntry {
                name: r.name.clone(),
                uphill: Costs::from_raw(&cx, &h.span(), up)?,
                downhill: Costs::from_raw(&cx, &h.span(), down)?,
                effects: TerrainEffects {
                    fire: r.fire,
                    close_combat: r.close_combat,
                    support: true,
                    retreat_morale_hit: r.retreat_morale_hit,
                },
            });
        }
        Ok(TerrainChart { movement: m, hexes, hexsides })
    }

    /// The movement numbers outside the per-terrain costs (roads, skirmishers, night…).
    #[must_use]
    pub fn movement(&self) -> &MovementRules {
        &self.movement
    }

    /// The MP to enter a hex of this terrain (SR 10.3); `None` if the chart has no such terrain.
    #[must_use]
    pub fn hex_cost(&self, terrain: &str, mover: Mover) -> Option<Mp> {
        self.hexes.iter().find(|(n, ..)| n == terrain).map(|(_, c, _)| c.get(mover))
    }

    /// The MP added for crossing a hexside feature (SR 10.3), going up or down a slope; `None`
    /// if the chart has no such feature.
    #[must_use]
    pub fn hexside_cost(&self, feature: &str, mover: Mover, uphill: bool) -> Option<Mp> {
        let h = self.hexsides.iter().find(|h| h.name == feature)?;
        Some(if uphill { h.uphill.get(mover) } else { h.downhill.get(mover) })
    }

    /// The combat and support effects of a hex terrain.
    #[must_use]
    pub fn hex_effects(&self, terrain: &str) -> Option<TerrainEffects> {
        self.hexes.iter().find(|(n, ..)| n == terrain).map(|(.., e)| *e)
    }

    /// The combat and retreat effects of a hexside feature.
    #[must_use]
    pub fn hexside_effects(&self, feature: &str) -> Option<TerrainEffects> {
        self.hexsides.iter().find(|h| h.name == feature).map(|h| h.effects)
    }
}

// ---------------------------------------------------------------------------------------------
// Brigade Order Details

/// A brigade order (SR 8.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Order {
    /// SR 8.2.
    Attack,
    /// SR 8.3.
    Defend,
    /// SR 8.4.
    Maneuver,
    /// SR 8.5.
    Regroup,
}

impl Order {
    /// Every order, in the book's order.
    pub const ALL: [Order; 4] = [Order::Attack, Order::Defend, Order::Maneuver, Order::Regroup];
}

/// How much a brigade may rally (SR 8.3, 8.5, 13.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Rally {
    /// No rally.
    None,
    /// Recovery of one Morale Hit; no Rebuild.
    One,
    /// Recovery of every Morale Hit, or Rebuild.
    Full,
}

/// One order's line of Brigade Order Details.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OrderDetails {
    /// The order.
    pub name: Order,
    /// Infantry Movement Allowance (SR 10.2).
    pub infantry: u32,
    /// Cavalry Movement Allowance.
    pub cavalry: u32,
    /// May move adjacent to the enemy (SR 10.6).
    pub engage: bool,
    /// May conduct Fire Combat.
    pub fire: bool,
    /// May initiate Close Combat.
    pub close_combat: bool,
    /// Rally allowed in the Rally Step.
    pub rally: Rally,
    /// May use the March Column rate (EX 2.10h).
    pub march_column: bool,
}

#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ArtilleryMa {
    foot: u32,
    horse: u32,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct OrdersFile {
    source: Spanned<String>,
    reconstructed: Option<Spanned<String>>,
    artillery: ArtilleryMa,
    order: Vec<Spanned<OrderDetails>>,
}

/// Brigade Order Details (SR 8.2–8.5, 10.2) and the artillery allowances (EX 6.0).
#[derive(Clone, Debug)]
pub struct OrderTable {
    /// In the order of [`Order::ALL`].
    orders: [OrderDetails; 4],
    artillery: ArtilleryMa,
}

impl OrderTable {
    fn load(dir: &DataDir, notes: &mut Vec<String>) -> Result<OrderTable, DataError> {
        let (raw, cx): (OrdersFile, _) = FileCtx::load(dir, "orders.toml")?;
        check_provenance(&cx, "Brigade Order Details (orders.toml)", &raw.source, raw.reconstructed.as_ref(), notes)?;
        let mut orders: Vec<OrderDetails> = Vec::new();
        for o in &raw.order {
            let d = *o.get_ref();
            if orders.iter().any(|x| x.name == d.name) {
                return Err(cx.err(&o.span(), format!("field `name`: order `{:?}` given twice", d.name)));
            }
            if d.name == Order::Regroup && (d.infantry > 0 || d.cavalry > 0) {
                return Err(cx.err(&o.span(), "order regroup: Regroup allows no movement (SR 8.5)"));
            }
            orders.push(d);
        }
        let mut table = Vec::new();
        for name in Order::ALL {
            let Some(o) = orders.iter().find(|o| o.name == name) else {
                return Err(cx.whole(format!("no [[order]] for `{name:?}`")));
            };
            table.push(*o);
        }
        let orders = table.try_into().map_err(|_| cx.whole("four orders expected"))?;
        Ok(OrderTable { orders, artillery: raw.artillery })
    }

    /// The line of an order.
    #[must_use]
    pub fn details(&self, order: Order) -> &OrderDetails {
        &self.orders[order as usize]
    }

    /// Foot artillery Movement Allowance (EX 6.0).
    #[must_use]
    pub fn foot_artillery(&self) -> u32 {
        self.artillery.foot
    }

    /// Horse artillery Movement Allowance (EX 6.0, 2.1).
    #[must_use]
    pub fn horse_artillery(&self) -> u32 {
        self.artillery.horse
    }
}

// ---------------------------------------------------------------------------------------------
// Artillery Stacking Table

#[derive(Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
struct StackRow {
    guns: u32,
    stacking: f64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StackFile {
    source: Spanned<String>,
    reconstructed: Option<Spanned<String>>,
    rows: Vec<Spanned<StackRow>>,
    extra_per_sp: Spanned<f64>,
}

/// The Artillery Stacking Table (SR 3.1a).
#[derive(Clone, Debug)]
pub struct ArtilleryStacking {
    rows: Vec<f64>,
    extra_per_sp: f64,
}

impl ArtilleryStacking {
    fn load(dir: &DataDir, notes: &mut Vec<String>) -> Result<ArtilleryStacking, DataError> {
        let (raw, cx): (StackFile, _) = FileCtx::load(dir, "artillery-stacking.toml")?;
        check_provenance(
            &cx,
            "Artillery Stacking Table (artillery-stacking.toml)",
            &raw.source,
            raw.reconstructed.as_ref(),
            notes,
        )?;
        let mut rows = Vec::new();
        let mut prev = 0.0;
        for (i, r) in raw.rows.iter().enumerate() {
            let row = r.get_ref();
            let want = u32::try_from(i + 1).unwrap_or(u32::MAX);
            if row.guns != want {
                return Err(cx.err(
                    &r.span(),
                    format!("field `guns`: {} where {want} was expected (rows go 1, 2, 3…)", row.guns),
                ));
            }
            if row.stacking < prev || row.stacking > f64::from(row.guns) {
                return Err(cx.err(
                    &r.span(),
                    format!(
                        "field `stacking`: {} must not fall below the row before nor exceed the guns",
                        row.stacking
                    ),
                ));
            }
            prev = row.stacking;
            rows.push(row.stacking);
        }
        if rows.is_empty() {
            return Err(cx.whole("field `rows` is empty"));
        }
        let extra = *raw.extra_per_sp.get_ref();
        if !(0.0..=1.0).contains(&extra) {
            return Err(cx.err(&raw.extra_per_sp.span(), "field `extra_per_sp`: must be 0 to 1"));
        }
        Ok(ArtilleryStacking { rows, extra_per_sp: extra })
    }

    /// The stacking SP of a hex's artillery with `guns` printed SP in all (SR 3.1a).
    #[must_use]
    pub fn stacking_sp(&self, guns: u32) -> f64 {
        let n = self.rows.len();
        match usize::try_from(guns).ok().filter(|g| *g <= n) {
            Some(0) => 0.0,
            Some(g) => self.rows[g - 1],
            None => self.rows[n - 1] + f64::from(guns - u32::try_from(n).unwrap_or(u32::MAX)) * self.extra_per_sp,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Activation roll (ruling A-01)

/// An activation's outcome (SR 7.3; ruling A-01).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Activation {
    /// Any order (SR 8.1).
    Full,
    /// No order: see [`ActivationTable::limited`].
    Limited,
}

/// What a brigade may do on a Limited Activation.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LimitedActivation {
    /// Its units may fire as in the Fire Combat Step.
    pub fire: bool,
    /// Its units may move.
    pub movement: bool,
    /// It may initiate Close Combat.
    pub close_combat: bool,
    /// Rally allowed.
    pub rally: Rally,
    /// Its reinforcements may enter (SR 10.11 says no).
    pub reinforcements: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ActivationFile {
    source: Spanned<String>,
    reconstructed: Option<Spanned<String>>,
    die: Spanned<String>,
    always_full: Spanned<u8>,
    always_limited: Spanned<u8>,
    limited: LimitedActivation,
}

/// The activation roll (ruling A-01).
#[derive(Clone, Copy, Debug)]
pub struct ActivationTable {
    always_full: u8,
    always_limited: u8,
    limited: LimitedActivation,
}

impl ActivationTable {
    fn load(dir: &DataDir, notes: &mut Vec<String>) -> Result<ActivationTable, DataError> {
        let (raw, cx): (ActivationFile, _) = FileCtx::load(dir, "activation.toml")?;
        check_provenance(&cx, "activation roll (activation.toml)", &raw.source, raw.reconstructed.as_ref(), notes)?;
        if raw.die.get_ref() != "1d6" {
            return Err(cx.err(&raw.die.span(), format!("field `die`: `{}` is not supported (1d6)", raw.die.get_ref())));
        }
        for f in [&raw.always_full, &raw.always_limited] {
            if !(1..=6).contains(f.get_ref()) {
                return Err(cx.err(&f.span(), "fields `always_full`, `always_limited`: a die face 1-6"));
            }
        }
        if raw.always_full.get_ref() >= raw.always_limited.get_ref() {
            return Err(cx.err(&raw.always_full.span(), "field `always_full`: must be below `always_limited`"));
        }
        let l = raw.limited;
        if l.reinforcements {
            return Err(cx.whole("[limited] `reinforcements`: a Limited Activation brings in none (SR 10.11)"));
        }
        Ok(ActivationTable {
            always_full: *raw.always_full.get_ref(),
            always_limited: *raw.always_limited.get_ref(),
            limited: l,
        })
    }

    /// The activation of a die `roll` with net `modifier` against a chit's Command Rating (or a
    /// cavalry chit's circled number, EX 7.3e) (ruling A-01).
    #[must_use]
    pub fn roll(&self, roll: u8, modifier: i32, rating: u8) -> Activation {
        if roll <= self.always_full {
            return Activation::Full;
        }
        if roll >= self.always_limited {
            return Activation::Limited;
        }
        if i32::from(roll) + modifier <= i32::from(rating) {
            Activation::Full
        } else {
            Activation::Limited
        }
    }

    /// What a Limited Activation allows.
    #[must_use]
    pub fn limited(&self) -> &LimitedActivation {
        &self.limited
    }
}

// ---------------------------------------------------------------------------------------------
// General Casualty Table

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CasualtyRow {
    d66: String,
    general: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CasualtyFile {
    source: Spanned<String>,
    reconstructed: Option<Spanned<String>>,
    rows: Vec<Spanned<CasualtyRow>>,
}

/// The General Casualty Table (EX 7.3b).
#[derive(Clone, Debug)]
pub struct GeneralCasualtyTable {
    rows: Vec<(D66Band, Option<String>)>,
}

impl GeneralCasualtyTable {
    fn load(dir: &DataDir, notes: &mut Vec<String>) -> Result<GeneralCasualtyTable, DataError> {
        let (raw, cx): (CasualtyFile, _) = FileCtx::load(dir, "general-casualty.toml")?;
        check_provenance(
            &cx,
            "General Casualty Table (general-casualty.toml)",
            &raw.source,
            raw.reconstructed.as_ref(),
            notes,
        )?;
        let bands_raw: Vec<(&str, Range<usize>)> =
            raw.rows.iter().map(|r| (r.get_ref().d66.as_str(), r.span())).collect();
        let bands = d66_bands(&cx, "d66", &bands_raw)?;
        let mut rows = Vec::new();
        for (band, r) in bands.into_iter().zip(&raw.rows) {
            let g = r.get_ref().general.trim();
            if g.is_empty() {
                return Err(cx.err(&r.span(), "field `general` is empty (write \"none\" for no casualty)"));
            }
            rows.push((band, (g != "none").then(|| g.to_string())));
        }
        Ok(GeneralCasualtyTable { rows })
    }

    /// The general a d66 roll names (EX 7.3b), by his activation chit's id, `None` for no casualty. If his Casualty chit is
    /// already in play, the roll restores his normal chit instead.
    #[must_use]
    pub fn general(&self, roll: D66) -> Option<&str> {
        self.rows.iter().find(|(b, _)| b.contains(roll)).and_then(|(_, g)| g.as_deref())
    }

    /// The d66 rolls that name a general: the rolls that wound him and, once wounded, restore him.
    #[must_use]
    pub fn rolls_for(&self, general: &str) -> Vec<u8> {
        let mut out = Vec::new();
        for (band, g) in &self.rows {
            if g.as_deref() == Some(general) {
                let mut r = Some(band.lo);
                while let Some(x) = r.filter(|x| *x <= band.hi) {
                    out.push(x.value());
                    r = x.next();
                }
            }
        }
        out
    }
}

// ---------------------------------------------------------------------------------------------
// Fog of War Chit Table

/// A Fog of War Chit Table result (EX 7.3b errata; EX 16.0a, 16.4e).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FogOfWar {
    /// 1: the Confederate player marks a Union hex.
    UnionBattlefieldChaos,
    /// 2: the Union player marks a Confederate hex.
    ConfederateBattlefieldChaos,
    /// 3: a Union unit is moved one hex by the Confederate player.
    WaywardUnionMove,
    /// 4: a Confederate unit is moved one hex by the Union player.
    WaywardConfederateMove,
    /// 5: roll on the General Casualty Table.
    PossibleGeneralCasualty,
    /// 6: +2 to this turn's Buell roll ("Courier Finds Buell", EX 14.2a).
    CourierToBuell,
    /// 16.0: nothing happens.
    NoEffect,
    /// 16.4: the Union fully activates any brigade at once.
    BuellCommands,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FogOverride {
    scenario: String,
    roll: u8,
    result: FogOfWar,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FogFile {
    source: Spanned<String>,
    reconstructed: Option<Spanned<String>>,
    rolls: Spanned<Vec<FogOfWar>>,
    #[serde(rename = "override", default)]
    overrides: Vec<Spanned<FogOverride>>,
}

/// The Fog of War Chit Table with its scenario overrides.
#[derive(Clone, Debug)]
pub struct FogOfWarTable {
    rolls: Vec<FogOfWar>,
    overrides: Vec<(String, u8, FogOfWar)>,
}

impl FogOfWarTable {
    fn load(dir: &DataDir, notes: &mut Vec<String>) -> Result<FogOfWarTable, DataError> {
        let (raw, cx): (FogFile, _) = FileCtx::load(dir, "fog-of-war.toml")?;
        check_provenance(
            &cx,
            "Fog of War Chit Table (fog-of-war.toml)",
            &raw.source,
            raw.reconstructed.as_ref(),
            notes,
        )?;
        if raw.rolls.get_ref().len() != 6 {
            return Err(cx.err(&raw.rolls.span(), "field `rolls`: one result per die face 1-6 needed"));
        }
        let mut overrides = Vec::new();
        for o in &raw.overrides {
            let r = o.get_ref();
            if !(1..=6).contains(&r.roll) {
                return Err(cx.err(&o.span(), format!("field `roll`: {} is not a die face 1-6", r.roll)));
            }
            overrides.push((r.scenario.clone(), r.roll, r.result));
        }
        Ok(FogOfWarTable { rolls: raw.rolls.get_ref().clone(), overrides })
    }

    /// The result of a die `roll` (1–6) in a scenario (its section number, "16.0"…).
    #[must_use]
    pub fn result(&self, roll: u8, scenario: &str) -> Option<FogOfWar> {
        self.overrides
            .iter()
            .find(|(s, r, _)| s == scenario && *r == roll)
            .map(|o| o.2)
            .or_else(|| self.rolls.get(usize::from(roll).checked_sub(1)?).copied())
    }
}

// ---------------------------------------------------------------------------------------------
// Unique Event Descriptions and Command Confusion

/// Who owns an event chit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EventSide {
    /// Union only.
    Union,
    /// Confederate only.
    Confederate,
    /// Each side has its own copy.
    Both,
}

/// When an event chit is played (SR 7.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Timing {
    /// As soon as it is drawn.
    Immediate,
    /// Kept and played at a fitting moment (SR 7.3, 14.1).
    Held,
}

/// One event chit's description.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Event {
    /// Stable id ("rebel-yell").
    pub id: String,
    /// Printed name.
    pub name: String,
    /// Owner.
    pub side: EventSide,
    /// When it is played.
    pub timing: Timing,
    /// Removed from play after use (EX 5.2).
    #[serde(default)]
    pub once: bool,
    /// What it does, in our words.
    pub effect: String,
    /// Why this description is estimated, when it is.
    pub reconstructed: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EventFile {
    source: Spanned<String>,
    reconstructed: Option<Spanned<String>>,
    command_confusion: Spanned<Vec<Order>>,
    event: Vec<Spanned<Event>>,
}

/// The Unique Event Descriptions and the Command Confusion table.
#[derive(Clone, Debug)]
pub struct EventTable {
    events: Vec<Event>,
    command_confusion: Vec<Order>,
}

impl EventTable {
    fn load(dir: &DataDir, notes: &mut Vec<String>) -> Result<EventTable, DataError> {
        let (raw, cx): (EventFile, _) = FileCtx::load(dir, "events.toml")?;
        check_provenance(
            &cx,
            "Unique Event Descriptions (events.toml)",
            &raw.source,
            raw.reconstructed.as_ref(),
            notes,
        )?;
        if raw.command_confusion.get_ref().len() != 6 {
            return Err(cx.err(&raw.command_confusion.span(), "field `command_confusion`: one order per die face 1-6"));
        }
        let mut seen = HashSet::new();
        let mut events = Vec::new();
        for e in &raw.event {
            let ev = e.get_ref();
            check_name(&cx, &e.span(), &mut seen, &ev.id)
                .map_err(|_| cx.err(&e.span(), format!("field `id`: `{}` is not a new kebab-case id", ev.id)))?;
            if ev.effect.trim().is_empty() || ev.reconstructed.as_ref().is_some_and(|r| r.trim().is_empty()) {
                return Err(
                    cx.err(&e.span(), format!("event `{}`: `effect` and `reconstructed` may not be empty", ev.id))
                );
            }
            events.push(ev.clone());
        }
        Ok(EventTable { events, command_confusion: raw.command_confusion.get_ref().clone() })
    }

    /// An event by id.
    #[must_use]
    pub fn event(&self, id: &str) -> Option<&Event> {
        self.events.iter().find(|e| e.id == id)
    }

    /// An event by its printed name, as the chits of `data/perryville/chits.toml` carry it.
    #[must_use]
    pub fn by_name(&self, name: &str) -> Option<&Event> {
        self.events.iter().find(|e| e.name == name)
    }

    /// The event chits of one side (those marked `both` included).
    #[must_use]
    pub fn of_side(&self, side: EventSide) -> Vec<&Event> {
        self.events.iter().filter(|e| e.side == side || e.side == EventSide::Both).collect()
    }

    /// The new order of a brigade hit by Command Confusion on a die `roll` (SR 7.3).
    #[must_use]
    pub fn command_confusion(&self, roll: u8) -> Option<Order> {
        self.command_confusion.get(usize::from(roll).checked_sub(1)?).copied()
    }
}

// ---------------------------------------------------------------------------------------------
// Buell Alert Track

/// A Buell roll modifier (EX 14.2a).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BuellModifier {
    /// The Union has more units broken and eliminated than the Confederates.
    UnionMoreBrokenAndEliminated,
    /// A. McCook's chit is on the track (EX 7.3c).
    MccookChitOnTrack,
    /// An On Hold unit was fired on with small arms or attacked.
    OnHoldUnitTargeted,
    /// The turn is 5:30 PM or later.
    #[serde(rename = "turn-at-or-after-5-30-pm")]
    TurnAtOrAfter530Pm,
    /// No units are engaged.
    NoUnitsEngaged,
    /// Fog of War "Courier Finds Buell".
    CourierFindsBuell,
}

/// How many brigades a box releases.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReleaseCount {
    /// This many, chosen by the Union player.
    Some(u8),
    /// Every On Hold brigade left.
    All,
}

/// One box of the Buell Alert Track.
#[derive(Clone, Debug)]
pub struct BuellBox {
    /// Printed name.
    pub name: String,
    /// Brigades released on entering it.
    pub count: ReleaseCount,
    /// The corps ("i-corps", "ii-corps", "iii-corps") whose On Hold brigades may be chosen.
    pub corps: Vec<String>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum CountRaw {
    Number(u8),
    Text(String),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BoxRaw {
    name: String,
    count: CountRaw,
    #[serde(default)]
    corps: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ModifierRaw {
    id: BuellModifier,
    value: i32,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BuellFile {
    source: Spanned<String>,
    reconstructed: Option<Spanned<String>>,
    die: Spanned<String>,
    threshold: i32,
    #[serde(rename = "box")]
    boxes: Vec<Spanned<BoxRaw>>,
    modifier: Vec<Spanned<ModifierRaw>>,
}

/// The Union corps a Buell box may release brigades of (ids of `data/perryville/commands.toml`).
const CORPS: [&str; 3] = ["i-corps", "ii-corps", "iii-corps"];

/// The Buell Alert Track and the Buell roll (EX 2.12, 7.5, 14.2).
#[derive(Clone, Debug)]
pub struct BuellTrack {
    threshold: i32,
    boxes: Vec<BuellBox>,
    modifiers: Vec<(BuellModifier, i32)>,
}

impl BuellTrack {
    fn load(dir: &DataDir, notes: &mut Vec<String>) -> Result<BuellTrack, DataError> {
        let (raw, cx): (BuellFile, _) = FileCtx::load(dir, "buell-track.toml")?;
        check_provenance(&cx, "Buell Alert Track (buell-track.toml)", &raw.source, raw.reconstructed.as_ref(), notes)?;
        if raw.die.get_ref() != "1d6" {
            return Err(cx.err(&raw.die.span(), format!("field `die`: `{}` is not supported (1d6)", raw.die.get_ref())));
        }
        let mut boxes: Vec<BuellBox> = Vec::new();
        for (i, b) in raw.boxes.iter().enumerate() {
            let r = b.get_ref();
            if r.name.trim().is_empty() || boxes.iter().any(|x| x.name == r.name) {
                return Err(cx.err(&b.span(), format!("field `name`: `{}` is empty or given twice", r.name)));
            }
            let count = match &r.count {
                CountRaw::Number(n) => ReleaseCount::Some(*n),
                CountRaw::Text(t) if t == "all" => ReleaseCount::All,
                CountRaw::Text(t) => {
                    return Err(cx.err(&b.span(), format!("field `count`: `{t}` is neither a number nor \"all\"")))
                }
            };
            if count == ReleaseCount::All && i + 1 != raw.boxes.len() {
                return Err(cx.err(&b.span(), "field `count`: only the last box may release \"all\""));
            }
            if count != ReleaseCount::Some(0) && r.corps.is_empty() {
                return Err(cx.err(&b.span(), "field `corps`: a box that releases brigades names their corps"));
            }
            if let Some(bad) = r.corps.iter().find(|c| !CORPS.contains(&c.as_str())) {
                return Err(cx.err(&b.span(), format!("field `corps`: `{bad}` is not one of {}", CORPS.join(", "))));
            }
            boxes.push(BuellBox { name: r.name.clone(), count, corps: r.corps.clone() });
        }
        if boxes.len() < 2 {
            return Err(cx.whole("the track needs at least two boxes"));
        }
        let mut modifiers: Vec<(BuellModifier, i32)> = Vec::new();
        for m in &raw.modifier {
            let r = m.get_ref();
            if modifiers.iter().any(|(id, _)| *id == r.id) {
                return Err(cx.err(&m.span(), format!("field `id`: `{:?}` given twice", r.id)));
            }
            modifiers.push((r.id, r.value));
        }
        Ok(BuellTrack { threshold: raw.threshold, boxes, modifiers })
    }

    /// The boxes, leftmost first ("Buell is unaware").
    #[must_use]
    pub fn boxes(&self) -> &[BuellBox] {
        &self.boxes
    }

    /// The box with this name, by position.
    #[must_use]
    pub fn box_index(&self, name: &str) -> Option<usize> {
        self.boxes.iter().position(|b| b.name == name)
    }

    /// The value of a Buell roll modifier (EX 14.2a); 0 if the file does not list it.
    #[must_use]
    pub fn modifier(&self, id: BuellModifier) -> i32 {
        self.modifiers.iter().find(|(m, _)| *m == id).map_or(0, |m| m.1)
    }

    /// Whether a Buell roll moves the marker one box right (EX 14.2a): the die plus the
    /// modifiers that apply reaches the threshold.
    #[must_use]
    pub fn moves(&self, roll: u8, applying: &[BuellModifier]) -> bool {
        i32::from(roll) + applying.iter().map(|m| self.modifier(*m)).sum::<i32>() >= self.threshold
    }
}

// ---------------------------------------------------------------------------------------------
// All the charts

/// Every Blind Swords and Perryville table the rules consult, as loaded by [`Charts::load`].
#[derive(Clone, Debug)]
pub struct Charts {
    /// Combat Results Table.
    pub crt: Crt,
    /// Fire Combat Cohesion Test Table.
    pub fire_tests: CohesionTable,
    /// Close Combat Cohesion Test Table.
    pub close_tests: CohesionTable,
    /// Break Test Table.
    pub break_test: BreakTable,
    /// Weapon Ranges Table.
    pub weapons: WeaponRanges,
    /// Terrain Effects Chart.
    pub terrain: TerrainChart,
    /// Brigade Order Details.
    pub orders: OrderTable,
    /// Artillery Stacking Table.
    pub artillery_stacking: ArtilleryStacking,
    /// The activation roll.
    pub activation: ActivationTable,
    /// General Casualty Table.
    pub general_casualty: GeneralCasualtyTable,
    /// Fog of War Chit Table.
    pub fog_of_war: FogOfWarTable,
    /// Unique Event Descriptions and Command Confusion.
    pub events: EventTable,
    /// Buell Alert Track.
    pub buell: BuellTrack,
    reconstructed: Vec<String>,
}

impl Charts {
    /// Loads and checks every table in `dir`, a folder laid out like `data/` (the built-in
    /// data is `DataDir::builtin()`): the files are read from its `blind-swords/` folder.
    ///
    /// # Errors
    /// A file that cannot be read, does not parse (unknown keys included), or breaks a check:
    /// CRT columns from "C" without a gap to "N+", d66 bands covering 11–66 with no gap or
    /// overlap, CR boxes ascending and disjoint within 0–6, results from each table's
    /// vocabulary, six rows for each die table, range bands that lie beyond each other, unique
    /// names. The error names the file, the line and the field.
    pub fn load(dir: &DataDir) -> Result<Charts, DataError> {
        let dir = dir.join(DIR);
        let mut notes = Vec::new();
        let crt = Crt::load(&dir, &mut notes)?;
        let (fire_tests, close_tests) = CohesionTable::load(&dir, &mut notes)?;
        let break_test = BreakTable::load(&dir, &mut notes)?;
        let weapons = WeaponRanges::load(&dir, &mut notes)?;
        let terrain = TerrainChart::load(&dir, &mut notes)?;
        let orders = OrderTable::load(&dir, &mut notes)?;
        let artillery_stacking = ArtilleryStacking::load(&dir, &mut notes)?;
        let activation = ActivationTable::load(&dir, &mut notes)?;
        let general_casualty = GeneralCasualtyTable::load(&dir, &mut notes)?;
        let fog_of_war = FogOfWarTable::load(&dir, &mut notes)?;
        let events = EventTable::load(&dir, &mut notes)?;
        let buell = BuellTrack::load(&dir, &mut notes)?;
        Ok(Charts {
            crt,
            fire_tests,
            close_tests,
            break_test,
            weapons,
            terrain,
            orders,
            artillery_stacking,
            activation,
            general_casualty,
            fog_of_war,
            events,
            buell,
            reconstructed: notes,
        })
    }

    /// One line per reconstructed table, naming it and the reason, for the notice shown at the
    /// start of a game (each event description says for itself whether it is estimated:
    /// [`Event::reconstructed`]).
    #[must_use]
    pub fn reconstructed(&self) -> &[String] {
        &self.reconstructed
    }
}
