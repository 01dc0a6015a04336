//! [SR 13] Rally: who may rally (SR 13.1, EX 6.5), Recovery of Morale Hits by order (SR 13.2a),
//! Rebuilding on a die roll against the Battleworn modified rating (SR 13.2b), and the Artillery
//! Rally Step (SR 6.4, ruling A-26). Where a rebuilt unit is placed (SR 13.2b) is map work left to
//! the caller; [`rebuild`] says whether it succeeds and what it becomes.

use std::fmt;

use caisson_kernel::protocol::{Modifier, RollRequest};

use crate::charts::{Charts, Order, Rally};
use crate::cohesion::{CombatUnit, Morale, Status};

/// Where the rally happens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RallyStep {
    /// The Rally Step of the active brigade, under its order (SR 13.0).
    Brigade(Order),
    /// The Artillery Rally Step: one battery per player (SR 6.4).
    Artillery,
}

/// The facts about a unit that rallying asks about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RallyCheck {
    /// Infantry or cavalry: it belongs to the active brigade (SR 13.1).
    pub in_active_brigade: bool,
    /// Artillery: stacked with or adjacent to a unit of the active brigade (SR 13.1), or in the
    /// Artillery Rally Step, to a friendly infantry unit (SR 6.4).
    pub beside_friends: bool,
    /// Hexes to the nearest enemy unit (`None`: none on the map). SR 13.1 asks for 3 or more.
    pub enemy_distance: Option<u32>,
    /// On Hold (EX 6.5: On Hold artillery rallies only through the Rally event; ruling A-57b for
    /// the rest).
    pub on_hold: bool,
    /// Artillery Rally Step: the battery moved, fired, retreated or was flipped in this turn's
    /// Artillery Steps (SR 6.4).
    pub used_this_phase: bool,
    /// The optional Rebuild rule of SR 13.2b: the unit came back from the Broken Track, so it
    /// never rebuilds to its Fresh side.
    pub returned_from_broken: bool,
}

/// A rally action open to a unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RallyAction {
    /// Remove Morale Hits: one under Defend, all under Regroup (SR 13.2a).
    Recovery(Rally),
    /// Roll to flip to Fresh, or to come back from the "Available" box (SR 13.2b).
    Rebuild,
}

/// Why a unit may not rally.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RallyError {
    /// Why.
    pub reason: String,
    /// The rule.
    pub rule: &'static str,
}

impl fmt::Display for RallyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} [{}]", self.reason, self.rule)
    }
}

impl std::error::Error for RallyError {}

fn no(reason: impl Into<String>, rule: &'static str) -> RallyError {
    RallyError { reason: reason.into(), rule }
}

/// The minimum distance from the enemy to rally (SR 13.1: the rallying unit's hex counted, the
/// enemy's not, which is the hex distance).
pub const RALLY_DISTANCE: u32 = 3;

/// The rally actions open to `unit` (SR 13.1, 13.2, 6.4): empty-handed when it has nothing to
/// recover and nothing to rebuild.
///
/// # Errors
/// The rule that makes the unit ineligible.
pub fn options(
    charts: &Charts,
    step: RallyStep,
    unit: &CombatUnit,
    check: &RallyCheck,
) -> Result<Vec<RallyAction>, RallyError> {
    let arty = unit.ty.is_artillery();
    let available = unit.status == Status::Available;
    if !matches!(unit.status, Status::OnMap | Status::Available) {
        return Err(no("only units on the map or in the Available box rally", "SR 13.1, 12.8b"));
    }
    if check.on_hold {
        return Err(no("On Hold units rally only through the Rally event", "EX 6.5, 7.5"));
    }
    let rally = match step {
        RallyStep::Brigade(order) => {
            let rally = charts.orders.details(order).rally;
            if rally == Rally::None {
                return Err(no(format!("a brigade under {order:?} orders does not rally"), "SR 13.1, 8.2-8.5"));
            }
            if arty && !check.beside_friends {
                return Err(no("artillery must be with or next to a unit of the active brigade", "SR 13.1"));
            }
            if !arty && !check.in_active_brigade {
                return Err(no("the unit is not of the active brigade", "SR 13.1"));
            }
            if !available && check.enemy_distance.is_some_and(|d| d < RALLY_DISTANCE) {
                return Err(no("the unit is within two hexes of an enemy unit", "SR 13.1"));
            }
            rally
        }
        RallyStep::Artillery => {
            if !arty {
                return Err(no("only artillery rallies in the Artillery Rally Step", "SR 6.4"));
            }
            if !check.beside_friends || check.used_this_phase {
                return Err(no(
                    "the battery must not have moved, fired, retreated or flipped, and be with or next to friendly infantry",
                    "SR 6.4",
                ));
            }
            // Ruling A-26: Recovery here removes every Morale Hit; no distance from the enemy.
            Rally::Full
        }
    };
    let mut out = Vec::new();
    if unit.morale != Morale::Steady && !available {
        out.push(RallyAction::Recovery(rally));
    }
    let may_rebuild = rally == Rally::Full && (!arty || step == RallyStep::Artillery);
    let worn = unit.battleworn && !unit.fragile() && !check.returned_from_broken;
    if may_rebuild && (available || (worn && unit.status == Status::OnMap)) {
        out.push(RallyAction::Rebuild);
    }
    Ok(out)
}

/// Recovery (SR 13.2a): one Morale Hit off under Defend ([`Rally::One`]), all under Regroup or in
/// the Artillery Rally Step ([`Rally::Full`]).
#[must_use]
pub fn recover(unit: &CombatUnit, rally: Rally) -> CombatUnit {
    let mut u = unit.clone();
    u.morale = match rally {
        Rally::None => u.morale,
        Rally::One => u.morale.recover_one(),
        Rally::Full => Morale::Steady,
    };
    u
}

/// The roll a Rebuild needs: one die at or under `cr`, the Battleworn face's modified rating
/// (a unit in the Available box counts as supported, SR 12.4a iii).
#[must_use]
pub fn rebuild_request(unit: &CombatUnit, cr: i32, modifiers: Vec<Modifier>) -> RollRequest {
    RollRequest {
        side: unit.side.to_string(),
        purpose: format!("Rebuild {} (succeeds at or under CR {cr})", unit.id),
        rule: "SR 13.2b".to_string(),
        dice: 1,
        modifiers,
    }
}

/// The Battleworn modified rating a Rebuild rolls against (SR 13.2b): printed Battleworn CR less
/// the Morale Hit penalty and 1 if unsupported, kept within 0–6; `supported` is ignored in the
/// Available box, where the unit is always supported (SR 12.4a iii).
#[must_use]
pub fn rebuild_cr(unit: &CombatUnit, supported: bool) -> (i32, Vec<Modifier>) {
    let mut mods = Vec::new();
    if unit.morale != Morale::Steady && unit.status == Status::OnMap {
        mods.push(Modifier::new(unit.morale.to_string(), -i32::from(unit.morale.penalty()), "SR 12.5"));
    }
    if !supported && unit.status != Status::Available {
        mods.push(Modifier::new("unsupported", -1, "SR 12.4b"));
    }
    let cr = i32::from(unit.worn.cr) + mods.iter().map(|m| m.value).sum::<i32>();
    (cr.clamp(0, i32::from(crate::charts::MAX_CR)), mods)
}

/// A Rebuild roll (SR 13.2b): at or under `cr` it succeeds: a unit on the map flips to Fresh, a
/// unit in the Available box comes back on its Battleworn side (the caller places it at least 3
/// hexes from the enemy and within 3 of its brigade, division or any friend). Above, or a roll
/// that is not a die face, nothing changes. Returns the unit after the roll and whether it succeeded.
#[must_use]
pub fn rebuild(unit: &CombatUnit, cr: i32, roll: u8) -> (CombatUnit, bool) {
    let mut u = unit.clone();
    let ok = (1..=6).contains(&roll) && i32::from(roll) <= cr;
    if ok {
        if u.status == Status::Available {
            u.status = Status::OnMap;
            u.battleworn = true;
            u.morale = Morale::Steady;
        } else {
            u.battleworn = false;
        }
    }
    (u, ok)
}
