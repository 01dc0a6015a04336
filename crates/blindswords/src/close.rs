//! [SR 11, EX 11] Close Combat: who may attack and be attacked (SR 11.1, EX 11.1, 15.4),
//! cavalry withdrawal (SR 11.3b, EX 11.3b), the Assaulting and Flanking Hexes and the initial
//! column (SR 11.3c), the column shifts (EX 11.3c i–xix and the Perryville errata of EX 2.11),
//! and the CRT result, which always calls for a Close Combat Cohesion Test (SR 11.0, 11.3e).
//!
//! Defensive Fire (SR 11.3a) is Fire Combat: build a [`crate::fire::FireInput`] with
//! [`crate::fire::FireKind::Defensive`] or `SupportingDefensive`. The test itself is
//! [`crate::cohesion::close_test`]; the advance after it [`crate::cohesion::advance_hexes`].

use std::fmt;

use caisson_hexmap::{Hex, Parity};
use caisson_kernel::protocol::{Modifier, RollRequest};

use crate::catalog::{Side, Sp, UnitType, Weapon};
use crate::charts::{Charts, Order, Section, D66};
use crate::cohesion::Morale;

/// One attacking unit, as declared (SR 11.2).
#[derive(Clone, Debug, PartialEq)]
pub struct Attacker {
    /// Unit id.
    pub id: String,
    /// Owner.
    pub side: Side,
    /// Unit type.
    pub ty: UnitType,
    /// Its hex.
    pub hex: Hex,
    /// Printed SP of the face up.
    pub sp: Sp,
    /// Morale Hit marker.
    pub morale: Morale,
    /// Weapon type.
    pub weapon: Weapon,
    /// Modified Cohesion Rating (support included, ruling A-18c).
    pub cr: i32,
    /// Its brigade's order.
    pub order: Order,
    /// On Hold (EX 7.5).
    pub on_hold: bool,
    /// In a Battlefield Chaos hex (EX 7.3b).
    pub chaos: bool,
    /// In Skirmish Order (EX 15.4).
    pub skirmish: bool,
    /// Hexside features between its hex and the defender's ("slope", "steep-slope", "river",
    /// "ford", "bridge", "stone-fence", "wood-fence").
    pub hexside: Vec<String>,
    /// Whether the defender is on the higher side of that hexside (EX 11.3c x–xi).
    pub defender_higher: bool,
}

impl Attacker {
    fn modified_sp(&self) -> f64 {
        (f64::from(self.sp.halves()) / 2.0 - f64::from(self.morale.penalty())).max(0.0)
    }
}

/// One unit of the defending hex.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Defender {
    /// Unit id.
    pub id: String,
    /// Unit type.
    pub ty: UnitType,
    /// Printed SP of the face up.
    pub sp: Sp,
    /// Morale Hit marker.
    pub morale: Morale,
    /// Weapon type.
    pub weapon: Weapon,
    /// In Skirmish Order: may not be attacked (EX 15.4).
    pub skirmish: bool,
}

impl Defender {
    fn modified_sp(&self) -> f64 {
        (f64::from(self.sp.halves()) / 2.0 - f64::from(self.morale.penalty())).max(0.0)
    }
}

/// A Close Combat after Defensive Fire: the attackers still in it.
#[derive(Clone, Debug, PartialEq)]
pub struct CloseInput {
    /// Every attacking unit that neither retreated nor broke (SR 11.3c).
    pub attackers: Vec<Attacker>,
    /// The Assaulting Hex (SR 11.3c): the hex of the attackers when there is only one.
    pub assault_hex: Hex,
    /// The defending hex.
    pub defender_hex: Hex,
    /// Its terrain as the TEC names it.
    pub terrain: String,
    /// The defending units.
    pub defenders: Vec<Defender>,
    /// The defending Lead Unit's modified Cohesion Rating (SR 9.2, 11.3e).
    pub lead_cr: i32,
    /// A Confederate "Rebel Yell!" attack (EX 11.3c xvii).
    pub rebel_yell: bool,
    /// A Union "Spontaneous Charge" attack (EX 11.3c xviii).
    pub spontaneous_charge: bool,
    /// The map grid's parity, for adjacency and the Flanking Hexes' distance (`Map::parity`).
    pub parity: Parity,
}

/// Why a Close Combat may not be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CloseError {
    /// The unit at fault, or empty.
    pub unit: String,
    /// Why.
    pub reason: String,
    /// The rule.
    pub rule: &'static str,
}

impl fmt::Display for CloseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.unit.is_empty() {
            write!(f, "{} [{}]", self.reason, self.rule)
        } else {
            write!(f, "{}: {} [{}]", self.unit, self.reason, self.rule)
        }
    }
}

impl std::error::Error for CloseError {}

fn err(unit: &str, reason: impl Into<String>, rule: &'static str) -> CloseError {
    CloseError { unit: unit.to_string(), reason: reason.into(), rule }
}

/// Checks a declaration (SR 11.1, 11.2, EX 11.1, 15.4, 7.3b, 7.5): attackers adjacent to the
/// defending hex, none of them artillery, On Hold, in Battlefield Chaos or in Skirmish Order, all
/// under orders that allow Close Combat; no cavalry across a Steep Slope; no skirmisher defending.
///
/// # Errors
/// The first unit that may not take part, with the rule.
pub fn check_declaration(
    charts: &Charts,
    parity: Parity,
    attackers: &[Attacker],
    defender_hex: Hex,
    defenders: &[Defender],
) -> Result<(), CloseError> {
    if attackers.is_empty() || defenders.is_empty() {
        return Err(err("", "a Close Combat needs attackers and defenders", "SR 11.2"));
    }
    if let Some(d) = defenders.iter().find(|d| d.skirmish) {
        return Err(err(&d.id, "units in Skirmish Order are never in Close Combat", "EX 15.4"));
    }
    for a in attackers {
        let why = if parity.distance(a.hex, defender_hex) != 1 {
            Some(("not adjacent to the defending hex", "SR 11.2"))
        } else if a.ty.is_artillery() {
            Some(("artillery never initiates Close Combat", "SR 11.1"))
        } else if !charts.orders.details(a.order).close_combat {
            Some(("its brigade's order does not allow Close Combat", "SR 11.1, 8.2"))
        } else if a.on_hold {
            Some(("On Hold units do not engage in combat", "EX 7.5"))
        } else if a.chaos {
            Some(("units under Battlefield Chaos may not initiate Close Combat", "EX 7.3b"))
        } else if a.skirmish {
            Some(("units in Skirmish Order are never in Close Combat", "EX 15.4"))
        } else if a.ty == UnitType::Cavalry && a.hexside.iter().any(|h| h == "steep-slope") {
            Some(("cavalry may not Close Combat across a Steep Slope", "EX 11.1"))
        } else {
            None
        };
        if let Some((reason, rule)) = why {
            return Err(err(&a.id, reason, rule));
        }
    }
    Ok(())
}

/// Whether an attacked unit may withdraw instead of firing Defensive Fire (SR 11.3b, EX 11.3b),
/// and the Morale Hits it takes doing so: cavalry (0) and horse artillery (1), only when every
/// attacker is infantry (ruling PC5). `None`: it may not withdraw.
#[must_use]
pub fn withdrawal(defender: UnitType, attackers: &[UnitType]) -> Option<u8> {
    let all_infantry = !attackers.is_empty() && attackers.iter().all(|t| *t == UnitType::Infantry);
    match defender {
        UnitType::Cavalry if all_infantry => Some(0),
        UnitType::HorseArtillery if all_infantry => Some(1),
        _ => None,
    }
}

/// Everything known about a Close Combat before the dice.
#[derive(Clone, Debug, PartialEq)]
pub struct CloseAssessment {
    /// Modified SP of the Assaulting Hex's attackers (sets the column, SR 11.3c).
    pub assault_sp: f64,
    /// Modified SP of every attacker (for the odds, SR 11.3c).
    pub attacking_sp: f64,
    /// Modified SP of the defenders.
    pub defending_sp: f64,
    /// The initial column; `None` if the Assaulting Hex has less than ½ SP.
    pub initial_column: Option<usize>,
    /// Each column shift with its rule (negative = left).
    pub shifts: Vec<Modifier>,
    /// Their sum.
    pub net_shift: i32,
    /// The final column; `None`: below "C" (a Close Fight, ruling PC3).
    pub final_column: Option<usize>,
    /// The d66 the attacker rolls (SR 11.3d).
    pub roll: Option<RollRequest>,
}

/// The one odds shift of EX 11.3c i–vi (ruling A-18: modified SP, thresholds inclusive).
#[must_use]
pub fn odds_shift(attacking: f64, defending: f64) -> Option<Modifier> {
    let rows: [(bool, i32, &str, &'static str); 6] = [
        (attacking >= 3.0 * defending, 3, "3:1 odds", "EX 11.3c i"),
        (attacking >= 2.0 * defending, 2, "2:1 odds", "EX 11.3c ii"),
        (attacking >= 1.5 * defending, 1, "3:2 odds", "EX 11.3c iii"),
        (defending >= 3.0 * attacking, -3, "1:3 odds", "EX 11.3c vi"),
        (defending >= 2.0 * attacking, -2, "1:2 odds", "EX 11.3c v"),
        (defending >= 1.5 * attacking, -1, "2:3 odds", "EX 11.3c iv"),
    ];
    rows.into_iter().find(|r| r.0).map(|(_, v, label, rule)| Modifier::new(label, v, rule))
}

fn half_or_more(part: u32, whole: u32) -> bool {
    whole > 0 && 2 * part >= whole
}

/// The column shifts of EX 11.3c (and the EX 2.11 errata for Perryville), each with its rule.
/// Only the Assaulting Hex's units count, except for the odds (SR 11.3c); hexside features are
/// judged against the Assaulting Hex too (ruling A-17).
#[must_use]
pub fn shifts(charts: &Charts, input: &CloseInput) -> Vec<Modifier> {
    let assault: Vec<&Attacker> = input.attackers.iter().filter(|a| a.hex == input.assault_hex).collect();
    let attacking: f64 = input.attackers.iter().map(Attacker::modified_sp).sum();
    let defending: f64 = input.defenders.iter().map(Defender::modified_sp).sum();
    let mut out = Vec::new();
    out.extend(odds_shift(attacking, defending));
    let printed = |sp: Sp| u32::from(sp.halves());
    let def_sp: u32 = input.defenders.iter().map(|d| printed(d.sp)).sum();
    let def_guns: u32 = input.defenders.iter().filter(|d| d.ty.is_artillery()).map(|d| printed(d.sp)).sum();
    if half_or_more(def_guns, def_sp) {
        out.push(Modifier::new("half or more of the defending SP are artillery", 4, "EX 11.3c vii"));
    }
    if let Some(best) = assault.iter().map(|a| a.cr).max() {
        if best > input.lead_cr {
            out.push(Modifier::new("best attacker's CR above the Lead Unit's", 1, "EX 11.3c viii"));
        } else if input.lead_cr > best {
            out.push(Modifier::new("Lead Unit's CR above the best attacker's", -1, "EX 11.3c ix"));
        }
    }
    let mut features: Vec<(&str, bool)> = Vec::new();
    for a in &assault {
        for h in &a.hexside {
            if !features.iter().any(|(f, _)| f == h) {
                features.push((h.as_str(), a.defender_higher));
            }
        }
    }
    // A ford or bridge does not cancel the river's shift (EX 11.3c xii): one shift for the Chaplin.
    let mut river_done = false;
    for (f, higher) in features {
        let Some(fx) = charts.terrain.hexside_effects(f).filter(|fx| fx.close_combat != 0) else { continue };
        let (label, rule) = match f {
            "slope" if higher => ("defender above a Slope", "EX 11.3c x"),
            "steep-slope" if higher => ("defender above a Steep Slope", "EX 11.3c xi"),
            "slope" | "steep-slope" => continue,
            "river" | "ford" | "bridge" if river_done => continue,
            "river" | "ford" | "bridge" => {
                river_done = true;
                ("defender across the Chaplin River", "EX 11.3c xii")
            }
            "stone-fence" | "wood-fence" => ("defender across a fence", "EX 11.3c xiii"),
            _ => ("defender across a hexside feature", "EX 11.3c"),
        };
        out.push(Modifier::new(label, fx.close_combat, rule));
    }
    if assault.iter().any(|a| a.ty == UnitType::Cavalry) && input.defenders.iter().any(|d| d.ty == UnitType::Infantry) {
        out.push(Modifier::new("cavalry attacking a hex with infantry", -1, "EX 11.3c xiv, 10.10"));
    }
    let att_sp: u32 = assault.iter().map(|a| printed(a.sp)).sum();
    let att_s: u32 = assault.iter().filter(|a| a.weapon == Weapon::S).map(|a| printed(a.sp)).sum();
    if half_or_more(att_s, att_sp) {
        out.push(Modifier::new("half or more of the attacking SP are S", 1, "EX 11.3c xv"));
    }
    let def_s: u32 = input.defenders.iter().filter(|d| d.weapon == Weapon::S).map(|d| printed(d.sp)).sum();
    if half_or_more(def_s, def_sp) {
        out.push(Modifier::new("half or more of the defending SP are S", -1, "EX 11.3c xvi"));
    }
    let side = input.attackers.first().map(|a| a.side);
    if input.rebel_yell && side == Some(Side::Confederate) {
        out.push(Modifier::new("Rebel Yell!", 2, "EX 11.3c xvii"));
    }
    if input.spontaneous_charge && side == Some(Side::Union) {
        out.push(Modifier::new("Spontaneous Charge", 1, "EX 11.3c xviii"));
    }
    let mut flanks: Vec<Hex> = Vec::new();
    for a in &input.attackers {
        if a.hex != input.assault_hex && !flanks.contains(&a.hex) {
            flanks.push(a.hex);
        }
    }
    if flanks.len() >= 2 || flanks.iter().any(|h| input.parity.distance(*h, input.assault_hex) >= 2) {
        out.push(Modifier::new("Flanking Attack", 2, "EX 11.3c xix"));
    }
    if let Some(fx) = charts.terrain.hex_effects(&input.terrain).filter(|fx| fx.close_combat != 0) {
        out.push(Modifier::new(format!("defender in {}", input.terrain), fx.close_combat, "EX 2.11 errata, 2.10c"));
    }
    out
}

/// Assesses a Close Combat before the dice (SR 11.3c): the Assaulting Hex's SP and column, the
/// shifts, the final column and the d66 to roll.
///
/// # Errors
/// A declaration [`check_declaration`] refuses, or an Assaulting Hex holding no attacker.
pub fn assess(charts: &Charts, input: &CloseInput) -> Result<CloseAssessment, CloseError> {
    check_declaration(charts, input.parity, &input.attackers, input.defender_hex, &input.defenders)?;
    if !input.attackers.iter().any(|a| a.hex == input.assault_hex) {
        return Err(err("", format!("no attacker in the Assaulting Hex {}", input.assault_hex), "SR 11.3c"));
    }
    let assault_sp: f64 =
        input.attackers.iter().filter(|a| a.hex == input.assault_hex).map(Attacker::modified_sp).sum();
    let attacking_sp: f64 = input.attackers.iter().map(Attacker::modified_sp).sum();
    let defending_sp: f64 = input.defenders.iter().map(Defender::modified_sp).sum();
    let initial_column = charts.crt.column_for(assault_sp);
    let shifts = shifts(charts, input);
    let net_shift = shifts.iter().map(|m| m.value).sum();
    let final_column = initial_column.and_then(|c| charts.crt.shifted(c, net_shift, false));
    let side = input.attackers[0].side.to_string();
    let column = final_column.and_then(|c| charts.crt.label(c)).unwrap_or("none: Close Fight");
    let roll = Some(RollRequest {
        side,
        purpose: format!("Close Combat against {} on column {column}", input.defender_hex),
        rule: "SR 11.3d".to_string(),
        dice: 2,
        modifiers: Vec::new(),
    })
    .filter(|_| final_column.is_some());
    Ok(CloseAssessment {
        assault_sp,
        attacking_sp,
        defending_sp,
        initial_column,
        shifts,
        net_shift,
        final_column,
        roll,
    })
}

/// The Close Combat Cohesion Test a roll calls for (SR 11.0, 11.3e): the box the defending Lead
/// Unit's modified rating falls in, else a Close Fight; with no column (shifted below "C") it is
/// a Close Fight without a roll (ruling PC3).
#[must_use]
pub fn resolve(charts: &Charts, assessment: &CloseAssessment, roll: Option<D66>, lead_cr: i32) -> Section {
    match (assessment.final_column, roll) {
        (Some(c), Some(r)) => charts.crt.close_result(c, r, lead_cr).unwrap_or(Section::CloseFight),
        _ => Section::CloseFight,
    }
}
