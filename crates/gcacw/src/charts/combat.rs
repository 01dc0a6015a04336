//! Combat charts: the Combat Chart (GCACW 7.5), the Ratio Chart and the Artillery Modifier
//! Summary (GCACW 7.4), and the Maximum Values (GCACW 7.2).

use crate::data::DataDir;
use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use caisson_hexmap::Terrain;
use caisson_kernel::data::DataError;
use serde::Deserialize;
use toml::Spanned;

use super::{note, signed, terrain_key, Charts, FileCtx, Half, TerrainName};

// ---------------------------------------------------------------------------------------------
// Combat Chart

/// One side's result on the Combat Chart (GCACW 7.5): a Manpower loss and letters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct CombatResult {
    /// Manpower lost by the force as a whole (the owner divides it), GCACW 7.5.
    pub loss: u8,
    /// "D" Disorganize/Fatigue: disorganized, Fatigue +3, an active unit's march ends.
    pub disorganize: bool,
    /// "F" Fatigue-2: Fatigue +2, an active unit's march ends.
    pub fatigue_2: bool,
    /// "f" Fatigue-1: Fatigue +1, an active unit's march ends.
    pub fatigue_1: bool,
    /// "E" End Action: an active unit's march ends.
    pub end_action: bool,
    /// "r" Retreat 2–4 hexes (GCACW 7.6).
    pub retreat: bool,
    /// "R" Rout 4–6 hexes and Demoralize-1 (GCACW 7.6).
    pub rout: bool,
    /// "a" Advance after combat (GCACW 7.6).
    pub advance: bool,
    /// "*" after R: Rout/Demoralize-2 instead of Demoralize-1.
    pub demoralize_2: bool,
}

impl CombatResult {
    /// Whether the result does nothing ("-").
    #[must_use]
    pub fn is_no_effect(&self) -> bool {
        *self == CombatResult::default()
    }

    /// Whether an active marching unit must stop (D, F, f or E; GCACW 7.5).
    #[must_use]
    pub fn ends_march(&self) -> bool {
        self.disorganize || self.fatigue_2 || self.fatigue_1 || self.end_action
    }

    /// Fatigue Levels gained: D 3, F 2, f 1 (GCACW 7.5).
    #[must_use]
    pub fn fatigue(&self) -> u8 {
        if self.disorganize {
            3
        } else if self.fatigue_2 {
            2
        } else {
            u8::from(self.fatigue_1)
        }
    }
}

/// A Combat Chart code that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad Combat Chart code `{code}`: {reason}")]
pub struct ParseResultError {
    /// The text.
    pub code: String,
    /// What is wrong.
    pub reason: String,
}

impl FromStr for CombatResult {
    type Err = ParseResultError;

    /// Reads a chart code: "-", "1", "2Dr", "fa", "3DR*".
    fn from_str(s: &str) -> Result<CombatResult, ParseResultError> {
        let bad = |reason: &str| ParseResultError { code: s.to_string(), reason: reason.to_string() };
        let mut r = CombatResult::default();
        if s == "-" || s == "—" {
            return Ok(r);
        }
        let digits = s.chars().take_while(char::is_ascii_digit).count();
        if digits > 0 {
            r.loss = s[..digits].parse().map_err(|_| bad("loss too large"))?;
        }
        let mut letters = 0;
        for c in s[digits..].chars() {
            let flag = match c {
                'D' => &mut r.disorganize,
                'F' => &mut r.fatigue_2,
                'f' => &mut r.fatigue_1,
                'E' => &mut r.end_action,
                'r' => &mut r.retreat,
                'R' => &mut r.rout,
                'a' => &mut r.advance,
                '*' => &mut r.demoralize_2,
                _ => return Err(bad("unknown letter (expected D F f E r R a *)")),
            };
            if *flag {
                return Err(bad("a letter is repeated"));
            }
            *flag = true;
            if c != '*' {
                letters += 1;
            }
        }
        if r.demoralize_2 && !r.rout {
            return Err(bad("`*` only follows R"));
        }
        if letters > 2 {
            return Err(bad("more than two letters"));
        }
        if r.is_no_effect() {
            return Err(bad("empty"));
        }
        Ok(r)
    }
}

impl fmt::Display for CombatResult {
    /// The chart's text: "1DR", "fa", "3DR*", "-".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_no_effect() {
            return f.write_str("-");
        }
        if self.loss > 0 {
            write!(f, "{}", self.loss)?;
        }
        for (on, c) in [
            (self.disorganize, 'D'),
            (self.fatigue_2, 'F'),
            (self.fatigue_1, 'f'),
            (self.end_action, 'E'),
            (self.retreat, 'r'),
            (self.rout, 'R'),
            (self.demoralize_2, '*'),
            (self.advance, 'a'),
        ] {
            if on {
                write!(f, "{c}")?;
            }
        }
        Ok(())
    }
}

/// Both results of one combat (GCACW 7.5), with the columns and row used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CombatCells {
    /// The defender's result (applied first).
    pub defender: CombatResult,
    /// The attacker's result.
    pub attacker: CombatResult,
    /// The defender's column label, e.g. "7–11".
    pub defender_column: String,
    /// The attacker's column label.
    pub attacker_column: String,
    /// The row read: the differential held to the chart's first and last rows.
    pub row: i32,
}

#[derive(Clone, Debug)]
struct Column {
    label: String,
    /// Lowest whole value of the column after rounding up (the first column also takes ½).
    from: u16,
}

/// The Combat Chart (GCACW 7.5).
#[derive(Clone, Debug)]
pub(crate) struct CombatChart {
    defender_columns: Vec<Column>,
    attacker_columns: Vec<Column>,
    lowest: i32,
    highest: i32,
    rows: BTreeMap<i32, (Vec<CombatResult>, Vec<CombatResult>)>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CombatFile {
    source: String,
    defender_columns: Vec<Spanned<ColumnRaw>>,
    attacker_columns: Vec<Spanned<ColumnRaw>>,
    row: Vec<Spanned<CombatRow>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ColumnRaw {
    label: String,
    from: Half,
    to: Option<Half>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CombatRow {
    diff: i32,
    defender: Vec<String>,
    attacker: Vec<String>,
    source: Option<String>,
}

fn columns(cx: &FileCtx, raw: &[Spanned<ColumnRaw>]) -> Result<Vec<Column>, DataError> {
    let mut out = Vec::new();
    let mut next: Option<Half> = Some(Half::from_halves(1));
    for c in raw {
        let span = c.span();
        let col = c.get_ref();
        match next {
            Some(n) if n == col.from => {}
            Some(n) => return Err(cx.err(&span, format!("column `{}` should start at {n}", col.label))),
            None => return Err(cx.err(&span, "a column follows the open-ended one")),
        }
        if !(col.from == Half::from_halves(1) || col.from.is_whole()) || col.to.is_some_and(|t| !t.is_whole()) {
            return Err(cx.err(&span, "column bounds are whole numbers (the first may start at ½)"));
        }
        if col.to.is_some_and(|t| t < col.from) {
            return Err(cx.err(&span, "`to` is below `from`"));
        }
        out.push(Column { label: col.label.clone(), from: col.from.ceil() });
        next = col.to.map(|t| t + Half::whole(1));
    }
    if next.is_some() || out.is_empty() {
        return Err(cx.whole("the last column must be open-ended (no `to`)"));
    }
    Ok(out)
}

fn pick(columns: &[Column], cv: Half) -> usize {
    let v = cv.ceil();
    columns.iter().rposition(|c| c.from <= v).unwrap_or(0)
}

impl CombatChart {
    pub(crate) fn load(dir: &DataDir, notes: &mut Vec<String>) -> Result<CombatChart, DataError> {
        let (f, cx): (CombatFile, _) = FileCtx::load(dir, "combat.toml")?;
        cx.check_source(&(0..0), &f.source)?;
        note(notes, "Combat Chart", "whole chart", &f.source);
        let defender_columns = columns(&cx, &f.defender_columns)?;
        let attacker_columns = columns(&cx, &f.attacker_columns)?;
        let mut rows = BTreeMap::new();
        for row in &f.row {
            let span = row.span();
            let r = row.get_ref();
            if let Some(s) = &r.source {
                cx.check_source(&span, s)?;
                note(notes, "Combat Chart", &format!("row {}", signed(r.diff)), s);
            }
            if r.defender.len() != defender_columns.len() || r.attacker.len() != attacker_columns.len() {
                return Err(cx.err(
                    &span,
                    format!(
                        "row {}: needs {} defender and {} attacker cells",
                        r.diff,
                        defender_columns.len(),
                        attacker_columns.len()
                    ),
                ));
            }
            let parse = |cells: &[String]| -> Result<Vec<CombatResult>, DataError> {
                cells
                    .iter()
                    .map(|c| {
                        let res: CombatResult =
                            c.parse().map_err(|e: ParseResultError| cx.err(&span, e.to_string()))?;
                        if res.to_string() != c.as_str() && c != "—" {
                            return Err(cx.err(&span, format!("write `{c}` as `{res}`")));
                        }
                        Ok(res)
                    })
                    .collect()
            };
            let cells = (parse(&r.defender)?, parse(&r.attacker)?);
            if rows.insert(r.diff, cells).is_some() {
                return Err(cx.err(&span, format!("row {} is given twice", r.diff)));
            }
        }
        let (Some(lowest), Some(highest)) = (rows.keys().next().copied(), rows.keys().last().copied()) else {
            return Err(cx.whole("no rows"));
        };
        for d in lowest..=highest {
            if !rows.contains_key(&d) {
                return Err(cx.whole(format!("row {d} is missing")));
            }
        }
        Ok(CombatChart { defender_columns, attacker_columns, lowest, highest, rows })
    }
}

// ---------------------------------------------------------------------------------------------
// Ratio Chart

#[derive(Clone, Debug)]
struct Ratio {
    attacker: u16,
    defender: u16,
    modifier: i8,
}

/// The Ratio Chart (GCACW 7.4), lowest ratio first.
#[derive(Clone, Debug)]
pub(crate) struct RatioChart(Vec<Ratio>);

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RatioFile {
    source: String,
    ratio: Vec<Spanned<RatioRow>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RatioRow {
    attacker: u16,
    defender: u16,
    modifier: i8,
    source: Option<String>,
}

impl RatioChart {
    pub(crate) fn load(dir: &DataDir, notes: &mut Vec<String>) -> Result<RatioChart, DataError> {
        let (f, cx): (RatioFile, _) = FileCtx::load(dir, "ratio.toml")?;
        cx.check_source(&(0..0), &f.source)?;
        let mut out: Vec<Ratio> = Vec::new();
        for row in &f.ratio {
            let span = row.span();
            let r = row.get_ref();
            let source = r.source.as_deref().unwrap_or(&f.source);
            cx.check_source(&span, source)?;
            if r.attacker == 0 || r.defender == 0 {
                return Err(cx.err(&span, "ratio terms must be at least 1"));
            }
            if let Some(prev) = out.last() {
                // Strictly rising ratios and modifiers: a/d > pa/pd.
                if u32::from(r.attacker) * u32::from(prev.defender) <= u32::from(prev.attacker) * u32::from(r.defender)
                {
                    return Err(cx.err(&span, "ratios must be listed from lowest to highest"));
                }
                if r.modifier <= prev.modifier {
                    return Err(cx.err(&span, "modifiers must rise with the ratio"));
                }
            }
            note(
                notes,
                "Ratio Chart",
                &format!("{}-{} → {}", r.attacker, r.defender, signed(i32::from(r.modifier))),
                source,
            );
            out.push(Ratio { attacker: r.attacker, defender: r.defender, modifier: r.modifier });
        }
        if !out.iter().any(|r| r.attacker == 1 && r.defender == 1) {
            return Err(cx.whole("the 1-1 ratio is missing"));
        }
        Ok(RatioChart(out))
    }
}

// ---------------------------------------------------------------------------------------------
// Artillery Modifier Summary

/// A die parity (GCACW 7.4 artillery footnotes: "*" and "†" depend on an even or odd roll).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Parity {
    /// 2, 4 or 6.
    Even,
    /// 1, 3 or 5.
    Odd,
}

impl Parity {
    /// Whether a die shows this parity.
    #[must_use]
    pub fn matches(self, die: u8) -> bool {
        (die & 1 == 0) == (self == Parity::Even)
    }
}

/// An artillery modifier to the attacker's die roll (GCACW 7.4, Artillery Modifier Summary).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ArtilleryModifier {
    /// The modifier (0 = NE).
    pub value: i8,
    /// If set, a die is rolled just before combat and `value` applies only on this parity;
    /// otherwise `otherwise` applies. "*" cells: value on an even roll, else 0. "†" cells:
    /// +2 on an even roll, else +1.
    pub only_on: Option<Parity>,
    /// The modifier when the parity roll fails (0 for "*", +1 for "†").
    pub otherwise: i8,
}

impl ArtilleryModifier {
    /// No effect.
    pub const NE: ArtilleryModifier = ArtilleryModifier { value: 0, only_on: None, otherwise: 0 };

    /// Whether a die must be rolled to settle the modifier.
    #[must_use]
    pub fn needs_roll(&self) -> bool {
        self.only_on.is_some()
    }

    /// The modifier that applies given the parity die (ignored if no roll is needed).
    #[must_use]
    pub fn resolve(&self, die: u8) -> i8 {
        match self.only_on {
            Some(p) if !p.matches(die) => self.otherwise,
            _ => self.value,
        }
    }
}

impl fmt::Display for ArtilleryModifier {
    /// The summary's text: "NE", "-1", "-1*", "+2†".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if *self == ArtilleryModifier::NE {
            return f.write_str("NE");
        }
        write!(f, "{}", signed(i32::from(self.value)))?;
        match (self.only_on, self.otherwise) {
            (Some(Parity::Even), 0) => f.write_str("*"),
            (Some(Parity::Even), _) => f.write_str("†"),
            _ => Ok(()),
        }
    }
}

impl FromStr for ArtilleryModifier {
    type Err = String;
    fn from_str(s: &str) -> Result<ArtilleryModifier, String> {
        if s == "NE" {
            return Ok(ArtilleryModifier::NE);
        }
        let (num, mark) = match s.char_indices().last() {
            Some((i, c)) if c == '*' || c == '†' => (&s[..i], Some(c)),
            _ => (s, None),
        };
        let value: i8 = num
            .replace('−', "-")
            .trim_start_matches('+')
            .parse()
            .map_err(|_| format!("bad artillery cell `{s}` (expected NE, -2, +1*, +2† ...)"))?;
        Ok(match mark {
            None => ArtilleryModifier { value, only_on: None, otherwise: 0 },
            Some('*') => ArtilleryModifier { value, only_on: Some(Parity::Even), otherwise: 0 },
            // "†": the printed value on an even roll, one less on an odd roll (GCACW 7.4).
            Some(_) => ArtilleryModifier { value, only_on: Some(Parity::Even), otherwise: value - value.signum() },
        })
    }
}

/// A differential band; bounds absent = unbounded.
#[derive(Deserialize, Clone)]
#[serde(deny_unknown_fields)]
struct DiffBand {
    label: String,
    from: Option<i32>,
    to: Option<i32>,
}

#[derive(Clone, Debug)]
struct ArtilleryLine {
    cells: Vec<ArtilleryModifier>,
}

/// The Artillery Modifier Summary (GCACW 7.4).
#[derive(Clone, Debug)]
pub(crate) struct ArtilleryChart {
    /// Upper bound of each band but the last.
    uppers: Vec<i32>,
    lines: Vec<ArtilleryLine>,
    by_terrain: BTreeMap<Terrain, usize>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ArtilleryFile {
    source: String,
    columns: Vec<Spanned<DiffBand>>,
    row: Vec<Spanned<ArtilleryRow>>,
}

#[derive(Deserialize, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
#[serde(rename_all = "kebab-case")]
enum Weather {
    Dry,
    Rain,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ArtilleryRow {
    label: String,
    terrains: Vec<TerrainName>,
    provisional_swamp: Option<Weather>,
    cells: Vec<String>,
    source: Option<String>,
}

impl ArtilleryChart {
    pub(crate) fn load(dir: &DataDir, notes: &mut Vec<String>) -> Result<ArtilleryChart, DataError> {
        let (f, cx): (ArtilleryFile, _) = FileCtx::load(dir, "artillery.toml")?;
        cx.check_source(&(0..0), &f.source)?;
        note(notes, "Artillery Modifier Summary", "whole table", &f.source);
        let mut uppers = Vec::new();
        let mut expect_from: Option<i32> = None;
        for (i, b) in f.columns.iter().enumerate() {
            let span = b.span();
            let band = b.get_ref();
            let last = i + 1 == f.columns.len();
            match (i, band.from, expect_from) {
                (0, None, _) => {}
                (0, Some(_), _) => return Err(cx.err(&span, format!("`{}`: the first band has no `from`", band.label))),
                (_, Some(from), Some(e)) if from == e => {}
                _ => return Err(cx.err(&span, format!("`{}` must start right after the band before", band.label))),
            }
            match (last, band.to) {
                (true, None) => {}
                (false, Some(to)) => {
                    uppers.push(to);
                    expect_from = Some(to + 1);
                }
                _ => return Err(cx.err(&span, "every band but the last has a `to`; the last has none")),
            }
        }
        if f.columns.is_empty() {
            return Err(cx.whole("no columns"));
        }
        let mut lines = Vec::new();
        let mut by_terrain = BTreeMap::new();
        let mut prov: BTreeMap<Weather, usize> = BTreeMap::new();
        for (i, row) in f.row.iter().enumerate() {
            let span = row.span();
            let r = row.get_ref();
            if let Some(s) = &r.source {
                cx.check_source(&span, s)?;
                note(notes, "Artillery Modifier Summary", &r.label, s);
            }
            if r.cells.len() != f.columns.len() {
                return Err(cx.err(&span, format!("`{}` needs {} cells", r.label, f.columns.len())));
            }
            let cells = r
                .cells
                .iter()
                .map(|c| c.parse::<ArtilleryModifier>().map_err(|e| cx.err(&span, e)))
                .collect::<Result<Vec<_>, _>>()?;
            for t in &r.terrains {
                if t.0 == Terrain::ProvisionalSwamp {
                    return Err(cx.err(&span, "provisional swamp goes in `provisional_swamp`, not `terrains`"));
                }
                if by_terrain.insert(t.0, i).is_some() {
                    return Err(cx.err(&span, format!("terrain `{}` is on two lines", terrain_key(t.0))));
                }
            }
            if let Some(w) = r.provisional_swamp {
                if prov.insert(w, i).is_some() {
                    return Err(cx.err(&span, "two lines claim provisional swamp in the same weather"));
                }
            }
            lines.push(ArtilleryLine { cells });
        }
        for t in Terrain::ALL {
            if !matches!(t, Terrain::Water | Terrain::ProvisionalSwamp) && !by_terrain.contains_key(&t) {
                return Err(cx.whole(format!("terrain `{}` is on no line", terrain_key(t))));
            }
        }
        match (prov.get(&Weather::Dry), prov.get(&Weather::Rain)) {
            (Some(dry), Some(_)) => {
                by_terrain.insert(Terrain::ProvisionalSwamp, *dry);
            }
            _ => return Err(cx.whole("mark the provisional-swamp lines for both `dry` and `rain`")),
        }
        Ok(ArtilleryChart { uppers, lines, by_terrain })
    }
}

// ---------------------------------------------------------------------------------------------
// Maximum Values

/// Which cap of the Maximum Values table applies (GCACW 7.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MaxSituation {
    /// An attacking force (in a grand assault: each attacking hex separately).
    Attacking,
    /// A defending force with fewer than half its units entrenched.
    Defending,
    /// At least half the defending units entrenched.
    HalfEntrenched,
    /// All defending units entrenched.
    AllEntrenched,
}

impl MaxSituation {
    /// The defending situation for `entrenched` of `units` defending units (GCACW 7.2).
    #[must_use]
    pub fn defending(entrenched: usize, units: usize) -> MaxSituation {
        if units > 0 && entrenched >= units {
            MaxSituation::AllEntrenched
        } else if units > 0 && entrenched * 2 >= units {
            MaxSituation::HalfEntrenched
        } else {
            MaxSituation::Defending
        }
    }
}

/// The Maximum Values table (GCACW 7.2).
#[derive(Clone, Debug)]
pub(crate) struct MaximumValues {
    caps: BTreeMap<MaxSituation, Half>,
    /// (lowest whole Combat value, extra loss), rising.
    extra: Vec<(u16, u8)>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MaxFile {
    source: String,
    attacking: Half,
    defending: Half,
    half_entrenched: Half,
    all_entrenched: Half,
    grand_assault_extra_loss: Vec<Spanned<ExtraBand>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ExtraBand {
    from: u16,
    to: Option<u16>,
    extra: u8,
}

impl MaximumValues {
    pub(crate) fn load(dir: &DataDir, notes: &mut Vec<String>) -> Result<MaximumValues, DataError> {
        let (f, cx): (MaxFile, _) = FileCtx::load(dir, "maximum-values.toml")?;
        cx.check_source(&(0..0), &f.source)?;
        note(notes, "Maximum Values", "whole table", &f.source);
        let mut caps = BTreeMap::new();
        caps.insert(MaxSituation::Attacking, f.attacking);
        caps.insert(MaxSituation::Defending, f.defending);
        caps.insert(MaxSituation::HalfEntrenched, f.half_entrenched);
        caps.insert(MaxSituation::AllEntrenched, f.all_entrenched);
        if !(f.defending <= f.half_entrenched && f.half_entrenched <= f.all_entrenched) {
            return Err(cx.whole("defending caps must rise with entrenchment"));
        }
        let mut extra = Vec::new();
        let mut next: Option<u16> = None;
        for (i, b) in f.grand_assault_extra_loss.iter().enumerate() {
            let span = b.span();
            let band = b.get_ref();
            if i > 0 && next != Some(band.from) {
                return Err(cx.err(&span, "bands must follow each other without gap, the last open-ended"));
            }
            extra.push((band.from, band.extra));
            next = band.to.map(|t| t + 1);
            if next.is_none() && i + 1 != f.grand_assault_extra_loss.len() {
                return Err(cx.err(&span, "only the last band may be open-ended"));
            }
        }
        Ok(MaximumValues { caps, extra })
    }
}

// ---------------------------------------------------------------------------------------------
// Lookups

impl Charts {
    /// Reads the Combat Chart (GCACW 7.5). `differential` = attacker's modified roll −
    /// defender's modified roll, held to the first and last rows. `defender_cv` is the
    /// defender's combined Combat value *before* entrenchment (and without fort values);
    /// `attacker_cv` the attacker's. A value between two columns (3½) is rounded up by ½.
    #[must_use]
    pub fn combat(&self, differential: i32, defender_cv: Half, attacker_cv: Half) -> CombatCells {
        let c = &self.combat;
        let row = self.combat_row(differential);
        let d = pick(&c.defender_columns, defender_cv);
        let a = pick(&c.attacker_columns, attacker_cv);
        let (def, att) = c.rows.get(&row).map_or((CombatResult::default(), CombatResult::default()), |(dr, ar)| {
            (dr.get(d).copied().unwrap_or_default(), ar.get(a).copied().unwrap_or_default())
        });
        CombatCells {
            defender: def,
            attacker: att,
            defender_column: c.defender_columns.get(d).map(|x| x.label.clone()).unwrap_or_default(),
            attacker_column: c.attacker_columns.get(a).map(|x| x.label.clone()).unwrap_or_default(),
            row,
        }
    }

    /// The Combat Chart row a differential reads (GCACW 7.5): beyond the printed rows, the
    /// nearest one.
    #[must_use]
    pub fn combat_row(&self, differential: i32) -> i32 {
        differential.clamp(self.combat.lowest, self.combat.highest)
    }

    /// The Ratio Chart (GCACW 7.4): attacker's Combat total to defender's (entrenchment
    /// included), rounded down in the defender's favour to the nearest listed ratio; returns
    /// its label ("1-2", "3-1") and modifier. A ratio below the lowest listed one reads the
    /// lowest; a zero defender reads the highest.
    #[must_use]
    pub fn ratio(&self, attacker: Half, defender: Half) -> (String, i8) {
        let rows = &self.ratio.0;
        let (a, d) = (u32::from(attacker.halves()), u32::from(defender.halves()));
        let best =
            rows.iter().rev().find(|r| u32::from(r.attacker) * d <= a * u32::from(r.defender)).or_else(|| rows.first());
        best.map_or_else(|| ("1-1".to_string(), 0), |r| (format!("{}-{}", r.attacker, r.defender), r.modifier))
    }

    /// The Artillery Modifier Summary (GCACW 7.4): `differential` = attacker's Artillery total
    /// − defender's (entrenched sum rounded up), on the line of the defender's terrain.
    /// Provisional swamp reads the line marked for non-rain turns; in rain pass
    /// `self.effective_terrain(t, true)` (swamp). Water gives NE. The special cases (no
    /// artillery on either side, defender with 0 or small printed totals, HSN-B 7.4 forts) are
    /// the caller's.
    #[must_use]
    pub fn artillery(&self, differential: i32, defender_terrain: Terrain) -> ArtilleryModifier {
        let a = &self.artillery;
        let Some(line) = a.by_terrain.get(&defender_terrain).and_then(|i| a.lines.get(*i)) else {
            return ArtilleryModifier::NE;
        };
        let col = a.uppers.iter().position(|up| differential <= *up).unwrap_or(a.uppers.len());
        line.cells.get(col).copied().unwrap_or(ArtilleryModifier::NE)
    }

    /// The Maximum Values table (GCACW 7.2, "Other Games" column, which is HSN's): the most
    /// combined Combat value that counts for a force in `situation`. Use
    /// [`MaxSituation::defending`] to pick the defending row from entrenched units.
    #[must_use]
    pub fn maximum_values(&self, situation: MaxSituation) -> Half {
        self.maximum.caps.get(&situation).copied().unwrap_or(Half::ZERO)
    }

    /// Extra Manpower loss for a grand assault whose attacking total is 80 or more
    /// (GCACW 7.2): +1 at 80–89, +2 at 90–99, +3 at 100 or more. A ½ is rounded up.
    #[must_use]
    pub fn grand_assault_extra_loss(&self, attacker_cv: Half) -> u8 {
        let v = attacker_cv.ceil();
        self.maximum.extra.iter().rev().find(|(from, _)| *from <= v).map_or(0, |(_, e)| *e)
    }
}
