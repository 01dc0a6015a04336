//! [SR 9, EX 9] Fire Combat: who may fire (SR 9.0, 9.1, EX 6.5, 9.1f), each firer's modified SP
//! (range bands SR 9.1c, halvings SR 9.1d, Morale Hits SR 2.1, rounding SR 2.8), combining fire
//! (SR 9.1e), the Lead Unit (SR 9.2), the column shifts (EX 9.3 i–x), the CRT look-up and what it
//! calls for (SR 9.3a–b).
//!
//! [`assess`] works out everything known before the dice, with each step itemised and cited, and
//! the [`RollRequest`] for the d66; [`resolve`] reads the CRT for the roll and the Lead Unit's
//! modified Cohesion Rating. Neither touches any state: the caller builds a [`FireInput`] from its
//! own (line of sight from [`crate::los::line_of_sight`], ratings from [`crate::cohesion::Stack`])
//! and applies the [`crate::cohesion::fire_test`] the result names.
//!
//! # Example
//!
//! The 41st Georgia fires at the 123rd Illinois, two hexes away across clear ground; the roll is
//! made through the kernel and handed in.
//!
//! ```
//! use caisson_blindswords::catalog::Catalog;
//! use caisson_blindswords::charts::{Charts, Order, D66};
//! use caisson_blindswords::cohesion::{fire_test, CombatUnit, FireTest, Stack};
//! use caisson_blindswords::fire::{assess, resolve, FireInput, FireKind, Firer, Target};
//! use caisson_blindswords::los::Sight;
//! use caisson_hexmap::{Hex, Parity};
//! use caisson_kernel::data::DataDir;
//!
//! let charts = Charts::load(&DataDir::builtin()).unwrap();
//! let catalog = Catalog::load(&DataDir::builtin().join("perryville")).unwrap();
//! let ga = CombatUnit::from_catalog(catalog.unit("c-41ga").unwrap());
//! let il = CombatUnit::from_catalog(catalog.unit("u-123il").unwrap());
//! let firer = Firer {
//!     id: ga.id.clone(), side: ga.side, ty: ga.ty, brigade: ga.brigade.clone(), hex: Hex::new(20, 20),
//!     sp: ga.printed_sp(), morale: ga.morale, weapon: ga.weapon, range: 1, sight: Sight::Clear,
//!     over: Vec::new(), skirmish: false, in_woods: false, on_hold: false, chaos: false,
//!     attacked_by_cavalry: false, supporting: false,
//! };
//! let target = Target { hex: Hex::new(20, 21), terrain: "clear".into(), fence: None,
//!                       lead_cavalry: false, lead_skirmish: false };
//! let input = FireInput {
//!     kind: FireKind::Brigade(Order::Attack), firers: vec![firer], target, flanking: false, grid: Parity::OddQ,
//!     extra: Vec::new(),
//! };
//! let a = assess(&charts, &input).unwrap();
//! assert_eq!(charts.crt.label(a.final_column.unwrap()), Some("6-7")); // 7 SP, no shift
//!
//! let stack = Stack { units: vec![il], allows_support: true };
//! let (cr, _) = stack.modified_cr(0); // CR 1, unsupported: 0
//! let result = resolve(&charts, &a, D66::new(6, 6).unwrap(), cr);
//! let test = FireTest { section: result.test.unwrap(), target: stack, lead: 0, opportunity: false, second: None };
//! let outcome = fire_test(&charts, &test, 3, 2, &[]).unwrap();
//! println!("{result:?} {:?}", outcome.steps);
//! ```

use std::fmt;

use caisson_hexmap::{Hex, Parity};
use caisson_kernel::protocol::{Modifier, RollRequest};

use crate::catalog::{Side, Sp, UnitType, Weapon};
use crate::charts::{Arm, Charts, Order, RangeBand, Section, D66};
use crate::cohesion::Morale;
use crate::los::Sight;

/// Why the fire happens, which sets who may fire and the SP halvings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum FireKind {
    /// The Fire Combat Step of an activated brigade under this order (SR 9.0, 8.2–8.5).
    Brigade(Order),
    /// The Artillery Phase (SR 6.0; SR 9.0: artillery fires only there or when allowed).
    Artillery,
    /// Opportunity Fire at a unit leaving an adjacent hex (SR 10.7): SP halved.
    Opportunity,
    /// Defensive Fire by the defending hex of a Close Combat (SR 11.3a): resolved on "C" however
    /// far the shifts go.
    Defensive,
    /// Supporting Defensive Fire by other units adjacent to an attacker (SR 11.3a): SP halved,
    /// resolved on "C" like Defensive Fire.
    SupportingDefensive,
}

impl FireKind {
    const fn defensive(self) -> bool {
        matches!(self, FireKind::Defensive | FireKind::SupportingDefensive)
    }
}

/// A unit the line of fire passes over (SR 9.1b; [`crate::los::Los::over_units`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Over {
    /// Whether it is a friendly unit (firing over enemy units is always allowed).
    pub friendly: bool,
    /// Whether that friendly unit is adjacent to the target.
    pub adjacent_to_target: bool,
}

/// One firing unit.
#[derive(Clone, Debug, PartialEq)]
pub struct Firer {
    /// Unit id.
    pub id: String,
    /// Owner.
    pub side: Side,
    /// Unit type.
    pub ty: UnitType,
    /// Brigade id (SR 9.1e: adjacent hexes combine only within one brigade).
    pub brigade: Option<String>,
    /// The firer's hex.
    pub hex: Hex,
    /// Printed SP of the face up.
    pub sp: Sp,
    /// Morale Hit marker.
    pub morale: Morale,
    /// Weapon type.
    pub weapon: Weapon,
    /// Hexes to the target (firing hex excluded, target included, SR 9.1c).
    pub range: u32,
    /// Line of sight to the target (Blocked prohibits; not needed for an adjacent target,
    /// SR 9.1a, but a target in Woods is always Obscured, EX 9.1a).
    pub sight: Sight,
    /// Units the line of fire passes over.
    pub over: Vec<Over>,
    /// In Skirmish Order (EX 9.3 viii).
    pub skirmish: bool,
    /// In a Woods hex (artillery there may not fire, EX 9.1f, 6.5).
    pub in_woods: bool,
    /// On Hold (EX 7.5; artillery may fire only within Effective range, EX 6.5e).
    pub on_hold: bool,
    /// Under a Battlefield Chaos chit: Defensive Fire at half SP (EX 7.3b).
    pub chaos: bool,
    /// Mounted cavalry attacked by cavalry (Defensive Fire only): may not fire (SR 11.3a,
    /// ruling A-19: Perryville cavalry counts as mounted).
    pub attacked_by_cavalry: bool,
    /// Fires as Supporting Defensive Fire, at half SP (SR 9.1d, 11.3a), within a Defensive Fire
    /// it combines with (ruling PC36); every firer of a [`FireKind::SupportingDefensive`] fire
    /// is halved whatever this says.
    pub supporting: bool,
}

/// The target hex's Lead Unit and terrain.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    /// The target hex.
    pub hex: Hex,
    /// Its terrain as the TEC names it ("clear", "woods", "town", "cornfield", …).
    pub terrain: String,
    /// The fence hexside the fire crosses into the hex, if any ("stone-fence", "wood-fence"):
    /// the target is directly behind it (EX 9.3 iv, ruling A-16).
    pub fence: Option<String>,
    /// The Lead Unit is cavalry (EX 9.3 v, ruling A-14d).
    pub lead_cavalry: bool,
    /// The Lead Unit is in Skirmish Order (EX 9.3 viii).
    pub lead_skirmish: bool,
}

/// A Fire Combat to assess.
#[derive(Clone, Debug, PartialEq)]
pub struct FireInput {
    /// Why the units fire.
    pub kind: FireKind,
    /// The units firing together (one, or a legal combination, SR 9.1e).
    pub firers: Vec<Firer>,
    /// The target.
    pub target: Target,
    /// Part of an announced Flanking Fire (SR 9.3c, EX 9.3 x): the caller checks the geometry.
    pub flanking: bool,
    /// The map's grid, which says which hexes are adjacent (Perryville's is odd-q).
    pub grid: Parity,
    /// Column shifts an event played on this fire adds (Sharpshooters, `events.toml`).
    pub extra: Vec<Modifier>,
}

/// Why a fire may not happen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FireError {
    /// The unit at fault, or empty for the whole fire.
    pub unit: String,
    /// Why.
    pub reason: String,
    /// The rule.
    pub rule: &'static str,
}

impl fmt::Display for FireError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.unit.is_empty() {
            write!(f, "{} [{}]", self.reason, self.rule)
        } else {
            write!(f, "{}: {} [{}]", self.unit, self.reason, self.rule)
        }
    }
}

impl std::error::Error for FireError {}

fn err(unit: &str, reason: impl Into<String>, rule: &'static str) -> FireError {
    FireError { unit: unit.to_string(), reason: reason.into(), rule }
}

/// One change to a firer's SP, in order.
#[derive(Clone, Debug, PartialEq)]
pub struct SpStep {
    /// What, e.g. "Long range (3 hexes)".
    pub label: String,
    /// SP after the step.
    pub sp: f64,
    /// The rule.
    pub rule: &'static str,
}

/// One firer's share of the fire.
#[derive(Clone, Debug, PartialEq)]
pub struct Contribution {
    /// Unit id.
    pub unit: String,
    /// The band it fires at.
    pub band: RangeBand,
    /// From printed SP to modified SP.
    pub steps: Vec<SpStep>,
    /// Its modified SP, fractions kept (SR 2.8).
    pub sp: f64,
}

/// Everything known about a fire before the dice.
#[derive(Clone, Debug, PartialEq)]
pub struct FireAssessment {
    /// Each firer's modified SP.
    pub contributions: Vec<Contribution>,
    /// Their sum, fractions kept until here (SR 2.8, 9.1e).
    pub total_sp: f64,
    /// The column of the total (SR 9.3).
    pub initial_column: usize,
    /// Every column shift that applies, each with its rule (negative = left).
    pub shifts: Vec<Modifier>,
    /// Their sum.
    pub net_shift: i32,
    /// The column after the shifts; `None`: shifted past "C", the fire is ignored (SR 9.3).
    pub final_column: Option<usize>,
    /// The d66 the firing player rolls (SR 9.3a), when there is a column to roll on.
    pub roll: Option<RollRequest>,
}

/// What the CRT said.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FireResult {
    /// The cell as printed.
    pub cell: String,
    /// The Cohesion Test the Lead Unit takes; `None`: no effect (SR 9.3a–b).
    pub test: Option<Section>,
    /// In words.
    pub explanation: String,
}

fn combination_error(input: &FireInput) -> Option<FireError> {
    let f = &input.firers;
    if f.len() < 2 {
        return None;
    }
    if let Some(c) = f.iter().find(|u| u.ty == UnitType::Cavalry) {
        return Some(err(&c.id, "cavalry always fires alone", "SR 9.1e"));
    }
    let hexes: Vec<Hex> = f.iter().fold(Vec::new(), |mut v, u| {
        if !v.contains(&u.hex) {
            v.push(u.hex);
        }
        v
    });
    let guns = f.iter().filter(|u| u.ty.is_artillery()).count();
    let foot = f.len() - guns;
    if guns > 0 && foot > 0 && !input.kind.defensive() {
        return Some(err("", "artillery and infantry add their SP only in Defensive Fire", "SR 9.1e"));
    }
    if guns > 0 && hexes.len() > 1 {
        return Some(err("", "artillery combines only within one hex", "SR 9.1e"));
    }
    if hexes.len() > 2 {
        return Some(err("", "infantry combines from one hex or two adjacent hexes", "SR 9.1e"));
    }
    if hexes.len() == 2 {
        if input.grid.distance(hexes[0], hexes[1]) != 1 {
            return Some(err("", "the two firing hexes are not adjacent", "SR 9.1e"));
        }
        let brigade = &f[0].brigade;
        if brigade.is_none() || f.iter().any(|u| &u.brigade != brigade) {
            return Some(err("", "infantry in two hexes combines only within one brigade", "SR 9.1e"));
        }
    }
    None
}

/// May this unit fire at all in this kind of fire (SR 9.0, 9.1c, 11.3a, EX 6.5, 7.5, 9.1f)?
fn may_fire(charts: &Charts, kind: FireKind, u: &Firer) -> Result<(), FireError> {
    let arty = u.ty.is_artillery();
    match kind {
        FireKind::Brigade(_) if arty => {
            return Err(err(&u.id, "artillery does not fire in a brigade's Fire Combat Step", "SR 9.0"));
        }
        FireKind::Artillery if !arty => {
            return Err(err(&u.id, "only artillery fires in the Artillery Phase", "SR 6.0"))
        }
        FireKind::Brigade(order) if !charts.orders.details(order).fire => {
            return Err(err(&u.id, format!("a brigade under {order:?} orders may not fire"), "SR 8.2-8.5"));
        }
        _ => {}
    }
    if arty && u.in_woods {
        return Err(err(&u.id, "artillery in a Woods hex may not fire", "EX 9.1f"));
    }
    if u.on_hold && !arty {
        return Err(err(&u.id, "On Hold units do not engage in combat", "EX 7.5 (ruling A-57b)"));
    }
    if u.weapon == Weapon::CC {
        let defensive_infantry = kind == FireKind::Defensive && u.ty == UnitType::Infantry;
        if !defensive_infantry {
            return Err(err(&u.id, "CC weapons fire only in Defensive Fire, and never from cavalry", "SR 9.1c, 11.3a"));
        }
    }
    if kind.defensive() && u.attacked_by_cavalry && u.ty == UnitType::Cavalry {
        return Err(err(&u.id, "cavalry attacked by cavalry may not fire Defensive Fire", "SR 11.3a (ruling A-19)"));
    }
    Ok(())
}

/// One firer's band and modified SP (SR 9.1b–d, 2.1, EX 2.1a, 6.5e, 7.3b).
fn contribution(charts: &Charts, kind: FireKind, u: &Firer, alone: bool) -> Result<Contribution, FireError> {
    may_fire(charts, kind, u)?;
    if u.range >= 2 && u.sight == Sight::Blocked {
        return Err(err(&u.id, "the line of sight is Blocked", "SR 9.1a, EX 9.1a"));
    }
    let arty = u.ty.is_artillery();
    let friendly: Vec<&Over> = u.over.iter().filter(|o| o.friendly).collect();
    if !friendly.is_empty() && !arty {
        return Err(err(&u.id, "infantry and cavalry may not fire over friendly units", "SR 9.1b"));
    }
    if friendly.iter().any(|o| o.adjacent_to_target) {
        return Err(err(&u.id, "a friendly unit over which it fires is adjacent to the target", "SR 9.1b"));
    }
    let arm = if arty { Arm::Artillery } else { Arm::SmallArms };
    let code = weapon_code(u.weapon);
    let mut band = if u.weapon == Weapon::CC {
        RangeBand::Effective
    } else {
        charts
            .weapons
            .band(arm, code, u.range)
            .ok_or_else(|| err(&u.id, format!("{} hexes is beyond the range of weapon {code}", u.range), "SR 9.1c"))?
    };
    let mut steps = Vec::new();
    let printed = f64::from(u.sp.halves()) / 2.0;
    steps.push(SpStep { label: format!("printed SP {}", u.sp), sp: printed, rule: "SR 2.1" });
    let mut sp = printed;
    if u.morale != Morale::Steady {
        sp = (sp - f64::from(u.morale.penalty())).max(0.0);
        steps.push(SpStep { label: u.morale.to_string(), sp, rule: "SR 12.5" });
    }
    if band == RangeBand::Canister && !friendly.is_empty() {
        band = RangeBand::Effective;
        steps.push(SpStep { label: "no canister over friendly units".into(), sp, rule: "SR 9.1b" });
    }
    if u.on_hold && arty && !matches!(band, RangeBand::Canister | RangeBand::Effective) {
        return Err(err(&u.id, "On Hold artillery fires only within Effective range", "EX 6.5e"));
    }
    let (label, rule) = match band {
        RangeBand::Canister => ("Canister range", "SR 9.1c iv"),
        RangeBand::Effective => ("Effective range", "SR 9.1c i"),
        RangeBand::Long => ("Long range", "SR 9.1c ii"),
        RangeBand::Extreme => ("Extreme range", "SR 9.1c iii"),
    };
    sp *= charts.weapons.factor(band);
    steps.push(SpStep { label: format!("{label} ({} hexes)", u.range), sp, rule });
    if matches!(kind, FireKind::Opportunity | FireKind::SupportingDefensive) || (kind.defensive() && u.supporting) {
        sp *= 0.5;
        let what = if kind == FireKind::Opportunity { "Opportunity Fire" } else { "Supporting Defensive Fire" };
        steps.push(SpStep { label: what.into(), sp, rule: "SR 9.1d" });
    }
    if kind.defensive() && u.chaos {
        sp *= 0.5;
        steps.push(SpStep { label: "Battlefield Chaos".into(), sp, rule: "EX 7.3b (ruling A-56)" });
    }
    // SR 9.3: a unit firing alone needs ½ SP; in a combination every unit adds what it has
    // and the total must reach ½ (SR 9.1e, 2.8; ruling PC1).
    if (alone && sp < 0.5) || sp <= 0.0 {
        return Err(err(&u.id, format!("{sp} SP after adjustments is less than ½ SP"), "SR 9.3"));
    }
    Ok(Contribution { unit: u.id.clone(), band, steps, sp })
}

/// The code of a weapon on the Weapon Ranges Table.
#[must_use]
pub const fn weapon_code(w: Weapon) -> &'static str {
    match w {
        Weapon::R => "R",
        Weapon::S => "S",
        Weapon::A => "A",
        Weapon::CC => "CC",
    }
}

/// The EX 9.3 column shifts of a fire, each itemised with its rule.
fn shifts(charts: &Charts, input: &FireInput, contributions: &[Contribution]) -> Vec<Modifier> {
    let t = &input.target;
    let mut out = Vec::new();
    if let Some(fx) = charts.terrain.hex_effects(&t.terrain).filter(|fx| fx.fire != 0) {
        let rule = match t.terrain.as_str() {
            "woods" => "EX 9.3 i",
            "town" => "EX 9.3 ii",
            "cornfield" => "EX 9.3 iii",
            _ => "EX 9.3",
        };
        out.push(Modifier::new(format!("target in {}", t.terrain), fx.fire, rule));
    }
    if let Some(fence) = &t.fence {
        if let Some(fx) = charts.terrain.hexside_effects(fence).filter(|fx| fx.fire != 0) {
            out.push(Modifier::new(format!("target directly behind a {fence}"), fx.fire, "EX 9.3 iv"));
        }
    }
    if t.lead_cavalry {
        out.push(Modifier::new("target is cavalry", 1, "EX 9.3 v (ruling A-14d)"));
    }
    if input.firers.iter().any(|f| !f.over.is_empty()) {
        out.push(Modifier::new("Overhead Fire", -1, "EX 9.3 vi (ruling A-59)"));
    }
    // An adjacent target needs no line of sight (SR 9.1a); a target in Woods is Obscured anyway.
    let worst = input.firers.iter().map(|f| if f.range >= 2 { f.sight } else { Sight::Clear }).max();
    if worst == Some(Sight::Obscured) || t.terrain == "woods" {
        out.push(Modifier::new("LOS Obscured", -1, "EX 9.3 vii, 9.1a (ruling A-14c)"));
    }
    if t.lead_skirmish || input.firers.iter().any(|f| f.skirmish) {
        out.push(Modifier::new("target or firer in Skirmish Order", -2, "EX 9.3 viii"));
    }
    let guns: Vec<(&Firer, &Contribution)> =
        input.firers.iter().zip(contributions).filter(|(f, _)| f.ty.is_artillery()).collect();
    let gun_sp: u32 = guns.iter().map(|(f, _)| u32::from(f.sp.halves())).sum();
    let s_canister: u32 = guns
        .iter()
        .filter(|(f, c)| f.weapon == Weapon::S && c.band == RangeBand::Canister)
        .map(|(f, _)| u32::from(f.sp.halves()))
        .sum();
    if gun_sp > 0 && 2 * s_canister >= gun_sp {
        out.push(Modifier::new("half or more of the guns' SP are S firing canister", 1, "EX 9.3 ix"));
    }
    if input.flanking {
        out.push(Modifier::new("Flanking Fire", 1, "EX 9.3 x, SR 9.3c"));
    }
    out.extend(input.extra.iter().cloned());
    out
}

/// Assesses a fire before the dice (SR 9.1–9.3): eligibility of each firer and of the
/// combination, each firer's modified SP, the total and its column, the column shifts and the
/// final column.
///
/// # Errors
/// A [`FireError`] naming the unit and rule that forbid the fire: no firers, an illegal
/// combination, a Blocked line, out of range, less than ½ SP, firing over friendly units…
pub fn assess(charts: &Charts, input: &FireInput) -> Result<FireAssessment, FireError> {
    if input.firers.is_empty() {
        return Err(err("", "no firing unit", "SR 9.1"));
    }
    if let Some(e) = combination_error(input) {
        return Err(e);
    }
    let contributions = input
        .firers
        .iter()
        .map(|u| contribution(charts, input.kind, u, input.firers.len() == 1))
        .collect::<Result<Vec<_>, _>>()?;
    let total_sp: f64 = contributions.iter().map(|c| c.sp).sum();
    let initial_column = charts
        .crt
        .column_for(total_sp)
        .ok_or_else(|| err("", format!("{total_sp} SP is less than ½ SP"), "SR 9.3, 2.8"))?;
    let shifts = shifts(charts, input, &contributions);
    let net_shift = shifts.iter().map(|m| m.value).sum();
    let final_column = charts.crt.shifted(initial_column, net_shift, input.kind.defensive());
    let roll = final_column.map(|c| RollRequest {
        side: input.firers[0].side.to_string(),
        purpose: format!(
            "Fire Combat at {} on column {} (d66: coloured die tens, white die units)",
            input.target.hex,
            charts.crt.label(c).unwrap_or("?")
        ),
        rule: "SR 9.3a".to_string(),
        dice: 2,
        modifiers: Vec::new(),
    });
    Ok(FireAssessment { contributions, total_sp, initial_column, shifts, net_shift, final_column, roll })
}

/// Reads the CRT for a roll (SR 9.3a–b): the cell, and the test the Lead Unit of modified
/// Cohesion Rating `lead_cr` takes, if its rating falls in a coloured box.
#[must_use]
pub fn resolve(charts: &Charts, assessment: &FireAssessment, roll: D66, lead_cr: i32) -> FireResult {
    let Some(column) = assessment.final_column else {
        return FireResult {
            cell: "-".into(),
            test: None,
            explanation: "shifted beyond column C: the fire is ignored (SR 9.3)".into(),
        };
    };
    let cell = charts.crt.cell(column, roll).map_or_else(|| "-".to_string(), ToString::to_string);
    let test = charts.crt.result(column, roll, lead_cr);
    let label = charts.crt.label(column).unwrap_or("?");
    let explanation = match test {
        Some(s) => format!(
            "column {label}, roll {}: {cell}; Lead Unit CR {lead_cr} takes a {} Fire Combat Cohesion Test (SR 9.3b)",
            roll.value(),
            section_name(s)
        ),
        None => format!("column {label}, roll {}: {cell}; Lead Unit CR {lead_cr}: no effect (SR 9.3b)", roll.value()),
    };
    FireResult { cell, test, explanation }
}

/// Whether fires into `target` make Flanking Fire (SR 9.3c, EX 9.3 x, ruling A-14e): `entries`
/// are, for each announced fire, the hex its line of sight crosses from into the target (the last
/// hex of [`crate::los::Los::line`] before the target; the firer's hex when adjacent). Two lines
/// qualify when at least one full hexside of the target lies between the hexsides they enter by,
/// that is when their directions are neither the same nor neighbours. Directions are read on the
/// map's `grid`.
#[must_use]
pub fn flanking_fire(grid: Parity, target: Hex, entries: &[Hex]) -> bool {
    let dirs: Vec<usize> = entries.iter().filter_map(|h| grid.direction(target, *h)).map(|d| d.index()).collect();
    dirs.iter().enumerate().any(|(i, a)| {
        dirs[i + 1..].iter().any(|b| {
            let d = a.abs_diff(*b);
            d.min(6 - d) >= 2
        })
    })
}

/// The name of a Cohesion Test section.
#[must_use]
pub const fn section_name(s: Section) -> &'static str {
    match s {
        Section::CloseFight => "Close Fight",
        Section::Routine => "Routine",
        Section::Tough => "Tough",
        Section::Severe => "Severe",
    }
}
