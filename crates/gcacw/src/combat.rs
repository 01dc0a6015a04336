//! Combat assessment (GCACW 7.1–7.5, 7.8, 9.0, 11.0, 12.0; HSN-B 2.2, 7.4, 9.0, 10.0; HSN-A 8.0).
//!
//! Pure functions over the rules and a state: who may attack what ([`legal_targets`]), the
//! complete reckoning of one attack before the dice ([`assess`]: both Combat values, the ratio,
//! every die-roll modifier with its section, the artillery modifier, the Combat Chart columns and
//! the odds of every reachable row), and what a pair of dice gives ([`outcome`]). Nothing here
//! changes the state: applying results, retreats and advances is the caller's.
//!
//! The artillery modifiers marked "*" and "†" depend on a separate die rolled just before the
//! combat (GCACW 7.4; the HSN Combat Example rolls a 3 for it, then 4 and 2 for the combat), so
//! [`outcome`] takes that die as well, and [`RowOdds`] are counted over the 36 die pairs times
//! the two equally likely parities (72) when it is needed.

mod flank;
mod restrictions;
mod terrain;
mod values;

use std::collections::BTreeMap;

use caisson_hexmap::{Hex, HexFeature, Hexside};
use caisson_kernel::{Modifier, RuleError};

use crate::catalog::CounterType;
use crate::charts::{self, ArtilleryModifier, CombatCells, Half, Parity};
use crate::rules::Gcacw;
use crate::scenario::RuleKind;
use crate::state::State;
use crate::Side;

pub use flank::{Flank, FlankHex};
pub use restrictions::{attack_restriction, legal_targets, unit_restriction};
pub use values::{
    artillery_override, artillery_value, attack_value, defence, fort_values, offence, redoubt_for_entrenchment,
    redoubt_for_flanks, Defence, DefendingUnit, Offence, Quarters,
};

/// What kind of attack (GCACW 7.1, 7.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AttackKind {
    /// A marching unit's attack, of one of the four types (GCACW 6.1, 7.4).
    March(charts::AttackType),
    /// An assault action (GCACW 7.1): +1, no attack type.
    Assault,
    /// An assault joined by a grand assault (GCACW 7.1): +1, the cap per attacking hex, and the
    /// extra Manpower loss at 80 or more (GCACW 7.2).
    GrandAssault,
}

/// Union forts in play (HSN-A 8.0; HSN-B 7.4: Basic Scenario 5 and the Advanced Game); empty = no
/// forts in play. [`forts_in_play`] builds it from the map and the state.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Forts {
    /// Printed fort hexes whose fort stands.
    pub undestroyed: Vec<Hex>,
    /// Fort hexes with a Fort Destroyed marker: Union redoubts from then on.
    pub destroyed: Vec<Hex>,
}

/// One attack, as declared (GCACW 7.1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attack {
    /// Attacking units (indices into `state.units`): the marching unit, or every unit of the
    /// assault and grand assault.
    pub attackers: Vec<usize>,
    /// Leaders (indices into `state.leaders`) whose Tactical value may count. In a march: leaders
    /// in the marching unit's hex (only those commanding it count, GCACW 7.4). In an assault: the
    /// active leader first; only he counts.
    pub leaders: Vec<usize>,
    /// The marching unit's hex, or the active leader's in an assault (GCACW 7.4, 7.6; A18, A19).
    pub active_hex: Hex,
    /// The hex attacked.
    pub defender_hex: Hex,
    /// March (with its type), assault or grand assault.
    pub kind: AttackKind,
    /// A Flanks Refused marker is on the defender's hex (GCACW 7.8).
    pub flanks_refused: bool,
    /// A bonus the caller has found to apply, as (label, value, rule), e.g. the HSN Hood or
    /// Forrest assault bonus (see [`hsn_assault_bonus`]). Dropped against an undestroyed fort.
    pub assault_bonus: Option<(String, i32, String)>,
    /// Union forts in play.
    pub forts: Forts,
}

impl Attack {
    /// A march attack by unit `u` from its hex (GCACW 7.1), with every leader in that hex who
    /// commands it (GCACW 7.4: he need not be attached to it).
    #[must_use]
    pub fn march(rules: &Gcacw, state: &State, u: usize, target: Hex, ty: charts::AttackType) -> Attack {
        let hex = state.units[u].hex.unwrap_or(target);
        let leaders = (0..state.leaders.len())
            .filter(|&l| {
                rules.leader_hex(state, l) == Some(hex) && rules.commands(state, state.leaders[l].counter as usize, u)
            })
            .collect();
        Attack {
            attackers: vec![u],
            leaders,
            active_hex: hex,
            defender_hex: target,
            kind: AttackKind::March(ty),
            flanks_refused: false,
            assault_bonus: None,
            forts: forts_in_play(rules, state),
        }
    }

    /// An assault by leader `leader` with `units` (GCACW 7.1); `grand` if a grand assault joined
    /// (the joiners are among `units`).
    #[must_use]
    pub fn assault(rules: &Gcacw, state: &State, leader: usize, units: Vec<usize>, target: Hex, grand: bool) -> Attack {
        Attack {
            attackers: units,
            leaders: vec![leader],
            active_hex: rules.leader_hex(state, leader).unwrap_or(target),
            defender_hex: target,
            kind: if grand { AttackKind::GrandAssault } else { AttackKind::Assault },
            flanks_refused: false,
            assault_bonus: None,
            forts: forts_in_play(rules, state),
        }
    }
}

/// The key of a destroyed fort in `State::flags` (value 1): `fort-destroyed/XXYY` (HSN-A 8.0).
#[must_use]
pub fn fort_flag(hex: Hex) -> String {
    format!("{FORT_FLAG}{hex}")
}

/// What every [`fort_flag`] begins with.
const FORT_FLAG: &str = "fort-destroyed/";

/// The fort hexes with a Fort Destroyed flag ([`fort_flag`]), sorted: one walk over the flags
/// that name them, cheap enough for a computer player's every decision.
#[must_use]
pub fn destroyed_forts(state: &State) -> Vec<Hex> {
    state
        .flags
        .range::<str, _>((std::ops::Bound::Included(FORT_FLAG), std::ops::Bound::Unbounded))
        .take_while(|(k, _)| k.starts_with(FORT_FLAG))
        .filter(|&(_, &v)| v != 0)
        .filter_map(|(k, _)| k[FORT_FLAG.len()..].parse().ok())
        .collect()
}

fn forts_rule(rules: &Gcacw) -> bool {
    rules.scenario().rules().any(|r| matches!(r, RuleKind::Forts))
}

fn printed_fort(rules: &Gcacw, hex: Hex) -> bool {
    let map = rules.map();
    map.has_feature(hex, HexFeature::FortA) || map.has_feature(hex, HexFeature::FortB)
}

/// The Union forts in play now (HSN-B 7.4, HSN-A 8.0): with the scenario's `forts` rule, every
/// printed fort hex of the map (class A or B), those with a Fort Destroyed flag ([`fort_flag`])
/// among the destroyed; without it, none.
#[must_use]
pub fn forts_in_play(rules: &Gcacw, state: &State) -> Forts {
    let mut forts = Forts::default();
    if !forts_rule(rules) {
        return forts;
    }
    let destroyed = destroyed_forts(state);
    for (hex, features) in rules.map().featured_hexes() {
        if features.iter().any(|f| matches!(f, HexFeature::FortA | HexFeature::FortB)) {
            if destroyed.contains(&hex) {
                forts.destroyed.push(hex);
            } else {
                forts.undestroyed.push(hex);
            }
        }
    }
    forts.undestroyed.sort();
    forts.destroyed.sort();
    forts
}

/// Whether an undestroyed Union fort stands in `hex` now (HSN-A 8.0): cheaper than
/// [`forts_in_play`] for one hex. Confederate units may not enter or retreat into it.
#[must_use]
pub fn undestroyed_fort(rules: &Gcacw, state: &State, hex: Hex) -> bool {
    printed_fort(rules, hex) && forts_rule(rules) && state.flags.get(&fort_flag(hex)).is_none_or(|&v| v == 0)
}

/// The fort an attack destroys, if any (HSN-A 8.0 How Union Forts Are Destroyed): a Confederate
/// attack on an undestroyed fort hex whose Union result has an "r" or "R". The caller records it
/// with `state.flags.insert(fort_flag(hex), 1)` before the retreat, even when no unit defends.
#[must_use]
pub fn fort_destroyed(assessment: &Assessment, attack: &Attack, outcome: &Outcome) -> Option<Hex> {
    let hex = attack.defender_hex;
    (assessment.attacker_side == Side::Confederate
        && attack.forts.undestroyed.contains(&hex)
        && (outcome.cells.defender.retreat || outcome.cells.defender.rout))
        .then_some(hex)
}

/// Whether rivers are unfordable now by a scenario rule (HSN Sc 7 Turn 3; GCACW 12.0): no unit
/// crosses a river at a ford or a destroyed bridge (a destroyed bridge is a ford, GCACW 10.2), no
/// attack or retreat crosses one and no ZOC extends across one. Combat and retreats read it here;
/// movement and zones of control must read it too (as they read rain for fords).
#[must_use]
pub fn unfordable(rules: &Gcacw, state: &State) -> bool {
    rules.scenario().rules().any(|r| matches!(r, RuleKind::Unfordable { turns } if turns.contains(&state.turn)))
}

/// Whether fords are closed now: rain (GCACW 12.0) or a scenario's unfordable rivers.
pub(crate) fn fords_closed(rules: &Gcacw, state: &State) -> bool {
    state.rain || unfordable(rules, state)
}

/// Whether a river hexside between `a` and `b` may be crossed only at a ford (or destroyed
/// bridge) that is closed now, so nothing crosses it and no ZOC extends across it (GCACW 12.0).
pub(crate) fn closed_ford(rules: &Gcacw, state: &State, a: Hex, b: Hex) -> bool {
    let map = rules.map();
    if !map.hexside(a, b).intersects(Hexside::RIVER) || !fords_closed(rules, state) {
        return false;
    }
    let c = state.bridges.crossing(map, a, b);
    c.ford && !c.bridge && c.pontoon.is_none()
}

/// The unit and the replacement counter (catalog index) when Cleburne dies (HSN-A 6.0): the
/// scenario has the `death-of-cleburne` rule, its division is among the attackers (in a march
/// attack, an assault or a grand assault; not when defending) and the two unmodified combat
/// dice are equal.
#[must_use]
pub fn death_of_cleburne(
    rules: &Gcacw,
    state: &State,
    attackers: &[usize],
    outcome: &Outcome,
) -> Option<(usize, usize)> {
    if !outcome.equal_dice {
        return None;
    }
    rules.scenario().rules().find_map(|r| {
        let RuleKind::DeathOfCleburne { counter, replacement } = r else { return None };
        let u = attackers.iter().copied().find(|&u| rules.unit_id(state, u) == counter.as_str())?;
        Some((u, rules.catalog().index(replacement)?))
    })
}

/// Whether Cleburne dies in this combat (HSN-A 6.0); see [`death_of_cleburne`]. On `true` the
/// caller replaces his division's counter by the replacement (Smith-A: Tactical 3 attacking and
/// defending, everything else the same).
#[must_use]
pub fn cleburne_dies(rules: &Gcacw, state: &State, attackers: &[usize], outcome: &Outcome) -> bool {
    death_of_cleburne(rules, state, attackers, outcome).is_some()
}

/// One row of the Combat Chart the dice can reach, with its odds (GCACW 7.5).
#[derive(Clone, Debug, PartialEq)]
pub struct RowOdds {
    /// The row read (the differential held to the chart's first and last rows).
    pub row: i32,
    /// Lowest and highest differential that read this row.
    pub differentials: (i32, i32),
    /// Outcomes giving it, out of [`RowOdds::out_of`].
    pub ways: u32,
    /// 36 (two dice), or 72 when a parity die settles the artillery modifier (each die pair
    /// with an even and an odd parity die, equally likely).
    pub out_of: u32,
    /// `ways / out_of`.
    pub probability: f64,
    /// Both results and columns.
    pub cells: CombatCells,
}

/// Everything about an attack that is known before the combat dice (GCACW 7.2–7.5).
#[derive(Clone, Debug, PartialEq)]
pub struct Assessment {
    /// The attacking side.
    pub attacker_side: Side,
    /// The defending units.
    pub defenders: Vec<usize>,
    /// Attacker's Combat total (GCACW 7.2, 11.0), capped per attacking hex.
    pub attacker_cv: Half,
    /// Defender's Combat total before entrenchment, without a fort's value: the Combat Chart
    /// column (GCACW 7.5; HSN-A 8.0).
    pub defender_cv: Half,
    /// Defender's Combat total with entrenchment (and a fort), capped: the ratio (GCACW 7.2, 7.4,
    /// 9.0). Quarter points are possible (a ½ under ×1.5), hence [`Quarters`].
    pub defender_cv_entrenched: Quarters,
    /// The Ratio Chart line, e.g. "1-1" (GCACW 7.4).
    pub ratio: String,
    /// Attacker's Artillery total.
    pub attacker_artillery: u16,
    /// Defender's Artillery total with entrenchment, rounded up (GCACW 7.4, 9.0).
    pub defender_artillery: u16,
    /// Artillery Value Differential.
    pub artillery_differential: i32,
    /// The artillery modifier to the attacker's roll after the special cases (GCACW 7.4; HSN-B
    /// 7.4). Not in `attacker_modifiers`: a parity die may settle it ([`outcome`]).
    pub artillery: ArtilleryModifier,
    /// How the artillery modifier was read, in words.
    pub artillery_label: String,
    /// Every other modifier to the attacker's roll, with its section: ratio, tactical, attack
    /// type or assault, flank bonus or Flanks Refused +1, caller's assault bonus, rain.
    pub attacker_modifiers: Vec<Modifier>,
    /// Every modifier to the defender's roll: hexside, hill, mountain, ridge, Demoralize-2.
    pub defender_modifiers: Vec<Modifier>,
    /// The flank procedure in detail.
    pub flank: Flank,
    /// The attacker's Combat Chart column.
    pub attacker_column: String,
    /// The defender's Combat Chart column.
    pub defender_column: String,
    /// Extra Manpower loss for a grand assault of 80 or more (GCACW 7.2).
    pub extra_attacker_loss: u8,
    /// Every reachable row, lowest first.
    pub rows: Vec<RowOdds>,
    /// Things the caller should know (a bonus dropped, a leader not counted, a cap applied).
    pub notes: Vec<String>,
}

impl Assessment {
    /// Sum of `attacker_modifiers` (the artillery modifier not included).
    #[must_use]
    pub fn attacker_total(&self) -> i32 {
        self.attacker_modifiers.iter().map(|m| m.value).sum()
    }

    /// Sum of `defender_modifiers`.
    #[must_use]
    pub fn defender_total(&self) -> i32 {
        self.defender_modifiers.iter().map(|m| m.value).sum()
    }

    /// The attacker's modifiers with the artillery one added, for a roll request: settled by
    /// `parity_die` when it needs one (left out if that die is not known yet).
    #[must_use]
    pub fn attacker_roll_modifiers(&self, parity_die: Option<u8>) -> Vec<Modifier> {
        let mut out = self.attacker_modifiers.clone();
        let value = match (self.artillery.needs_roll(), parity_die) {
            (false, _) => Some(self.artillery.value),
            (true, Some(d)) => Some(self.artillery.resolve(d)),
            (true, None) => None,
        };
        if let Some(v) = value {
            if v != 0 || self.artillery != ArtilleryModifier::NE {
                out.push(Modifier::new(self.artillery_label.clone(), i32::from(v), "GCACW 7.4"));
            }
        }
        out
    }

    /// Probability that the defender's result includes a retreat or rout.
    #[must_use]
    pub fn retreat_chance(&self) -> f64 {
        self.rows.iter().filter(|r| r.cells.defender.retreat || r.cells.defender.rout).map(|r| r.probability).sum()
    }
}

/// What a pair of combat dice does (GCACW 7.4, 7.5).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The attacker's die.
    pub attacker_die: u8,
    /// The defender's die.
    pub defender_die: u8,
    /// The parity die of a "*" or "†" artillery modifier, if one was needed.
    pub parity_die: Option<u8>,
    /// The artillery modifier applied.
    pub artillery: i32,
    /// The attacker's modified roll.
    pub attacker_roll: i32,
    /// The defender's modified roll.
    pub defender_roll: i32,
    /// Attacker's modified roll minus defender's.
    pub differential: i32,
    /// Both results, columns and the row read.
    pub cells: CombatCells,
    /// Extra Manpower loss for the attacker (grand assault of 80 or more, GCACW 7.2). Ruling: it
    /// raises a loss number only where the attacker's result has one.
    pub extra_attacker_loss: u8,
    /// The two unmodified dice are equal (HSN-A 6.0 Death of Cleburne, when his division attacks).
    pub equal_dice: bool,
}

/// The HSN assault bonuses (HSN-B 7.4) for an assault by `leader`, if one applies: Forrest's +1
/// in any assault he makes; Hood's +1 when a Confederate infantry corps leader assaults with Hood
/// in his hex, if no other corps leader has had Hood's bonus this turn (`hood_corps_this_turn`:
/// the corps leader who first got it this turn). The caller decides that the assault succeeded;
/// [`assess`] drops the bonus against an undestroyed fort.
#[must_use]
pub fn hsn_assault_bonus(
    rules: &Gcacw,
    state: &State,
    leader: usize,
    hood_corps_this_turn: Option<usize>,
) -> Option<(String, i32, String)> {
    if rules.leader_by_id("forrest") == Some(leader) {
        return Some(("Forrest Assault Bonus".into(), 1, "HSN-B 7.4".into()));
    }
    let lc = state.leaders[leader].counter as usize;
    let c = rules.catalog().get(lc);
    if c.side != Side::Confederate || c.ty != CounterType::Corps || rules.catalog().is_cavalry_leader(lc) {
        return None;
    }
    let hood = rules.leader_by_id("hood")?;
    let here = rules.leader_hex(state, leader)?;
    if rules.leader_hex(state, hood) != Some(here) || hood_corps_this_turn.is_some_and(|l| l != leader) {
        return None;
    }
    Some((format!("Hood Assault Bonus (Hood with {})", c.name), 1, "HSN-B 7.4".into()))
}

fn side_of(rules: &Gcacw, state: &State, attack: &Attack) -> Side {
    if let Some(&u) = attack.attackers.first() {
        return rules.unit_side(state, u);
    }
    if let Some(&l) = attack.leaders.first() {
        return rules.leader_counter(state, l).side;
    }
    rules.occupant(state, attack.defender_hex).map_or(Side::Confederate, Side::enemy)
}

/// Tactical modifier (GCACW 7.4; HSN-B 2.2; HSN-A 8.0): the attacker's highest Tactical value
/// minus the defender's. Attacker: in a march, the marching unit and the leaders in its hex who
/// command it; in an assault, only the active leader, except that HSN-B 2.2 makes Cleburne's
/// printed attacking 4 count when his division is brought into an assault or grand assault
/// (ruling: a unit with a split attack/defence value counts in an assault). Defender: every unit
/// and leader in the hex, with its defending value.
///
/// `notes`: where to say what did not count, when words are wanted ([`assess`]); without them
/// the label is left empty too ([`reckon`]).
fn tactical(
    rules: &Gcacw,
    state: &State,
    attack: &Attack,
    side: Side,
    mut notes: Option<&mut Vec<String>>,
) -> Modifier {
    let cat = rules.catalog();
    let words = notes.is_some();
    // The highest value, and who has it (named only when words are wanted).
    let mut best: Option<(u8, String)> = None;
    let mut consider = |v: Option<u8>, name: &dyn Fn() -> String| {
        if let Some(v) = v {
            if best.as_ref().is_none_or(|(b, _)| v > *b) {
                best = Some((v, if words { name() } else { String::new() }));
            }
        }
    };
    match attack.kind {
        AttackKind::March(_) => {
            for &u in &attack.attackers {
                consider(crate::substitute::tactical(rules, state, u), &|| rules.unit_name(state, u));
            }
            for &l in &attack.leaders {
                let lc = state.leaders[l].counter as usize;
                let counts = attack.attackers.iter().any(|&u| {
                    state.units[u].hex.is_some()
                        && rules.leader_hex(state, l) == state.units[u].hex
                        && rules.commands(state, lc, u)
                });
                let c = cat.get(lc);
                if counts {
                    consider(c.tactical, &|| c.name.clone());
                } else if let Some(notes) = notes.as_deref_mut() {
                    notes.push(format!("{} is not stacked with a subordinate attacking unit: his Tactical value does not count (GCACW 7.4).", c.name));
                }
            }
        }
        AttackKind::Assault | AttackKind::GrandAssault => {
            if let Some(&l) = attack.leaders.first() {
                let c = rules.leader_counter(state, l);
                consider(c.tactical, &|| c.name.clone());
            }
            for &u in &attack.attackers {
                let c = rules.unit_counter(state, u);
                if c.tactical_defense.is_some() {
                    consider(c.tactical, &|| c.name.clone());
                }
            }
            if let Some(notes) = notes.filter(|_| attack.leaders.len() > 1) {
                notes.push("In an assault only the active leader's Tactical value counts (GCACW 7.4).".into());
            }
        }
    }
    let (att, att_name) = best.unwrap_or((0, "none".into()));
    let dh = attack.defender_hex;
    let mut dbest: Option<(u8, String)> = None;
    let mut dconsider = |v: Option<u8>, name: &dyn Fn() -> String| {
        if let Some(v) = v {
            if dbest.as_ref().is_none_or(|(b, _)| v > *b) {
                dbest = Some((v, if words { name() } else { String::new() }));
            }
        }
    };
    for (u, h) in rules.on_map(state) {
        if h == dh && rules.unit_side(state, u) == side.enemy() {
            dconsider(crate::substitute::tactical_defense(rules, state, u), &|| rules.unit_name(state, u));
        }
    }
    for l in 0..state.leaders.len() {
        if rules.leader_hex(state, l) == Some(dh) && rules.leader_counter(state, l).side == side.enemy() {
            let c = rules.leader_counter(state, l);
            dconsider(c.tactical_defense.or(c.tactical), &|| c.name.clone());
        }
    }
    let (def, def_name) = dbest.unwrap_or((0, "none".into()));
    let value = i32::from(att) - i32::from(def);
    let label = if words { format!("Tactical: {att_name} {att} − {def_name} {def}") } else { String::new() };
    if side == Side::Confederate && fort_values(rules, &attack.forts, dh).is_some() {
        let empty = rules.occupant(state, dh).is_none();
        if value > 0 || empty {
            let label =
                if words { format!("{label}: never in the Confederates' favour against a fort") } else { label };
            return Modifier::new(label, 0, "HSN-A 8.0");
        }
    }
    Modifier::new(label, value, "GCACW 7.4")
}

/// The artillery modifier and how it was read (GCACW 7.4 Artillery Modifier Summary and special
/// cases; HSN-B 7.4 forts). The "printed" defender total of the special cases leaves out
/// entrenchment but counts demoralized units as 0 (GCACW 11.0) and a fort's intrinsic value.
fn artillery(
    rules: &Gcacw,
    state: &State,
    attack: &Attack,
    side: Side,
    att: u16,
    defence: &Defence,
) -> (ArtilleryModifier, i32, String) {
    let diff = i32::from(att) - i32::from(defence.artillery);
    let map = rules.map();
    let Some(t) = map.terrain(attack.defender_hex) else {
        return (ArtilleryModifier::NE, diff, "Artillery: no terrain".into());
    };
    let t = rules.charts().effective_terrain(t, state.rain);
    let read = rules.charts().artillery(diff, t);
    let mut label = format!(
        "Artillery {att} − {} = {}, {t}: {read}",
        defence.artillery,
        if diff > 0 { format!("+{diff}") } else { diff.to_string() }
    );
    let mut m = read;
    let map_cell = |m: ArtilleryModifier, f: &dyn Fn(i8) -> i8| {
        let (value, otherwise) = (f(m.value), f(m.otherwise));
        if value == 0 && otherwise == 0 {
            ArtilleryModifier::NE
        } else {
            ArtilleryModifier { value, only_on: if value == otherwise { None } else { m.only_on }, otherwise }
        }
    };
    if att == 0 && defence.artillery == 0 {
        m = ArtilleryModifier::NE;
        label.push_str("; neither side has artillery: no modifier");
    } else if defence.artillery == 0 && m.value < 0 {
        m = map_cell(m, &|v| v.max(0));
        label.push_str("; the defender has no artillery: NE");
    } else if defence.artillery_printed == 1 && m.value == -2 {
        m = map_cell(m, &|v| if v == -2 { -1 } else { v });
        label.push_str("; the defender's printed total is 1: −2 becomes −1");
    } else if defence.artillery_printed == 2 && m.value == -3 {
        m = map_cell(m, &|v| if v == -3 { -2 } else { v });
        label.push_str("; the defender's printed total is 2: −3 becomes −2");
    }
    if side == Side::Confederate && defence.fort.is_some() && m.value > 0 {
        m = map_cell(m, &|v| if v > 0 { 0 } else { v });
        label.push_str("; against an undestroyed fort a Confederate +1 or +2 is NE (HSN-B 7.4)");
    }
    if m.needs_roll() {
        label.push_str(&format!(
            " (parity die: {} on {}, {} otherwise)",
            m.value,
            if m.only_on == Some(Parity::Even) { "even" } else { "odd" },
            m.otherwise
        ));
    }
    (m, diff, label)
}

/// Assesses an attack (GCACW 7.2–7.5): values, ratio, every modifier, columns and odds. Reads
/// the state as it is at the moment of combat; nothing is changed.
#[must_use]
pub fn assess(rules: &Gcacw, state: &State, attack: &Attack) -> Assessment {
    assess_with(rules, state, attack, true)
}

/// [`assess`] without the words: every number is the same, but the modifiers' labels, the notes
/// and the flank procedure's reasons are left empty. For a computer player, which weighs many
/// attacks it will not show.
#[must_use]
pub fn reckon(rules: &Gcacw, state: &State, attack: &Attack) -> Assessment {
    assess_with(rules, state, attack, false)
}

/// [`assess`], with the explanations only when `words`.
fn assess_with(rules: &Gcacw, state: &State, attack: &Attack, words: bool) -> Assessment {
    // An explanation, built only when wanted.
    let say = |text: &dyn Fn() -> String| if words { text() } else { String::new() };
    let side = side_of(rules, state, attack);
    let dh = attack.defender_hex;
    let mut notes = Vec::new();
    let off = offence(rules, state, &attack.attackers);
    for (h, v) in off.capped.iter().filter(|_| words) {
        notes.push(format!(
            "The attackers in {h} total {v}; only {} counts (GCACW 7.2 Maximum Values).",
            rules.charts().maximum_values(charts::MaxSituation::Attacking)
        ));
    }
    let def = defence(rules, state, dh, side, &attack.forts);
    for u in attack.attackers.iter().copied().chain(def.units.iter().map(|d| d.unit)).filter(|_| words) {
        if let Some((v, source)) = artillery_override(rules, state, u) {
            notes.push(format!("{} has Artillery {v} in this scenario ({source}).", rules.unit_name(state, u)));
        }
    }
    if words && def.cv_uncapped > def.cv_entrenched {
        notes.push(format!(
            "The defenders total {}; only {} counts (GCACW 7.2 Maximum Values).",
            def.cv_uncapped, def.cv_entrenched
        ));
    }
    // Both in quarter points, so the ratio is exact (Charts::ratio only compares proportions).
    let att_q = u16::try_from(Quarters::from_half(off.cv).quarters()).unwrap_or(u16::MAX);
    let def_q = u16::try_from(def.cv_entrenched.quarters()).unwrap_or(u16::MAX);
    let (ratio, ratio_mod) = rules.charts().ratio(Half::from_halves(att_q), Half::from_halves(def_q));
    let mut mods = Vec::new();
    match attack.kind {
        AttackKind::March(t) => {
            let row = rules.charts().attack_type(t);
            let name = match t {
                charts::AttackType::ColumnOfRoute => "Column-of-route attack",
                charts::AttackType::Hasty => "Hasty attack",
                charts::AttackType::Normal => "Normal attack",
                charts::AttackType::Prepared => "Prepared attack",
            };
            mods.push(Modifier::new(name, i32::from(row.drm), "GCACW 7.4"));
        }
        AttackKind::Assault | AttackKind::GrandAssault => mods.push(Modifier::new("Assault", 1, "GCACW 7.4")),
    }
    mods.push(Modifier::new(
        say(&|| format!("Ratio {ratio} ({} to {})", off.cv, def.cv_entrenched)),
        i32::from(ratio_mod),
        "GCACW 7.4",
    ));
    mods.push(tactical(rules, state, attack, side, words.then_some(&mut notes)));
    let cavalry_attack = match attack.kind {
        AttackKind::March(_) => {
            attack.attackers.first().is_some_and(|&u| rules.unit_type(state, u) == CounterType::Cavalry)
        }
        _ => attack
            .leaders
            .first()
            .is_some_and(|&l| rules.catalog().is_cavalry_leader(state.leaders[l].counter as usize)),
    };
    let cav_cv: Half =
        def.units.iter().filter(|d| rules.unit_type(state, d.unit) == CounterType::Cavalry).map(|d| d.cv).sum();
    let against_fort = side == Side::Confederate && def.fort.is_some();
    let fl = flank::flank(
        rules,
        state,
        &flank::FlankInput {
            attacker: side,
            defender_hex: dh,
            defender_cv: def.cv_entrenched,
            cavalry_attack,
            cavalry_defence: u32::from(cav_cv.halves()) * 2 > u32::from(def.cv.halves()),
            flanks_refused: attack.flanks_refused,
            redoubt: !def.units.is_empty() && redoubt_for_flanks(rules, &attack.forts, side.enemy(), dh),
            against_fort,
            forts: &attack.forts,
            words,
        },
    );
    if fl.basic > 0 {
        let label = say(&|| {
            let hexes: Vec<String> = fl.covered_hexes().iter().map(ToString::to_string).collect();
            let mut label = format!(
                "Flank attack: {} covered hexes ({}); basic +{}, final +{}",
                fl.covered,
                hexes.join(", "),
                fl.basic,
                fl.final_bonus
            );
            for a in &fl.adjustments {
                label.push_str("; ");
                label.push_str(a);
            }
            label
        });
        mods.push(Modifier::new(label, fl.bonus, "GCACW 7.4"));
    }
    if fl.refused_bonus > 0 {
        mods.push(Modifier::new("Non-flank attack on a hex with Flanks Refused", fl.refused_bonus, "GCACW 7.8"));
    }
    if let Some((label, value, rule)) = &attack.assault_bonus {
        if def.fort.is_some() {
            notes.push(format!("{label} does not apply against an undestroyed Union fort (HSN-B 7.4, HSN-A 8.0)."));
        } else {
            mods.push(Modifier::new(label.clone(), *value, rule.clone()));
        }
    }
    if state.rain {
        mods.push(Modifier::new("Rain", -1, "GCACW 12.0"));
    }
    if crate::winter::on(state) {
        mods.push(Modifier::new("Winter weather: attacker", -2, "HSN-A 4.0"));
    }
    let (art, art_diff, art_label) = artillery(rules, state, attack, side, off.artillery, &def);
    let several = {
        let mut hexes: Vec<Option<Hex>> = attack.attackers.iter().map(|&u| state.units[u].hex).collect();
        hexes.sort();
        hexes.dedup();
        hexes.len() > 1
    };
    let dmods = terrain::defender_modifiers(rules, state, attack.active_hex, dh, &def, several);
    let extra =
        if attack.kind == AttackKind::GrandAssault { rules.charts().grand_assault_extra_loss(off.cv) } else { 0 };
    let am: i32 = mods.iter().map(|m| m.value).sum();
    let dm: i32 = dmods.iter().map(|m| m.value).sum();
    let rows = odds(rules, am, dm, art, def.cv, off.cv);
    let head = rules.charts().combat(0, def.cv, off.cv);
    Assessment {
        attacker_side: side,
        defenders: def.units.iter().map(|d| d.unit).collect(),
        attacker_cv: off.cv,
        defender_cv: def.cv,
        defender_cv_entrenched: def.cv_entrenched,
        ratio,
        attacker_artillery: off.artillery,
        defender_artillery: def.artillery,
        artillery_differential: art_diff,
        artillery: art,
        artillery_label: art_label,
        attacker_modifiers: mods,
        defender_modifiers: dmods,
        flank: fl,
        attacker_column: head.attacker_column,
        defender_column: head.defender_column,
        extra_attacker_loss: extra,
        rows,
        notes,
    }
}

/// The artillery values a roll may take, each with its weight out of 2.
fn artillery_cases(art: ArtilleryModifier) -> Vec<(i32, u32)> {
    if art.needs_roll() {
        vec![(i32::from(art.value), 1), (i32::from(art.otherwise), 1)]
    } else {
        vec![(i32::from(art.value), 2)]
    }
}

/// The chance of each Combat Chart row (GCACW 7.4, 7.5). Only the difference of the two dice
/// matters, so each difference (−5 to +5, in 6 − |difference| of the 36 pairs) reads the chart
/// once.
fn odds(rules: &Gcacw, am: i32, dm: i32, art: ArtilleryModifier, def_cv: Half, att_cv: Half) -> Vec<RowOdds> {
    let cases = artillery_cases(art);
    let out_of = if art.needs_roll() { 72 } else { 36 };
    let mut rows: BTreeMap<i32, RowOdds> = BTreeMap::new();
    for dice in -5..=5_i32 {
        let pairs = 6 - dice.unsigned_abs();
        for &(v, w) in &cases {
            let ways = pairs * if out_of == 72 { w } else { w / 2 };
            let diff = dice + am + v - dm;
            // Many differentials read the same row: its cells are read once.
            let row = rules.charts().combat_row(diff);
            let e = rows.entry(row).or_insert_with(|| RowOdds {
                row,
                differentials: (diff, diff),
                ways: 0,
                out_of,
                probability: 0.0,
                cells: rules.charts().combat(diff, def_cv, att_cv),
            });
            e.ways += ways;
            e.differentials = (e.differentials.0.min(diff), e.differentials.1.max(diff));
        }
    }
    rows.into_values()
        .map(|mut r| {
            r.probability = f64::from(r.ways) / f64::from(r.out_of);
            r
        })
        .collect()
}

/// What the combat dice give (GCACW 7.4, 7.5): both modified rolls, the differential, the row and
/// both results. `parity_die` settles a "*" or "†" artillery modifier (a separate die rolled just
/// before combat, GCACW 7.4); it is ignored when the modifier needs none.
///
/// # Errors
/// A die outside 1–6, or a missing parity die when the artillery modifier needs one.
pub fn outcome(
    a: &Assessment,
    attacker_die: u8,
    defender_die: u8,
    parity_die: Option<u8>,
) -> Result<Outcome, RuleError> {
    let check = |d: u8| if (1..=6).contains(&d) { Ok(()) } else { Err(RuleError::BadRoll(format!("die {d}"))) };
    check(attacker_die)?;
    check(defender_die)?;
    let (art, parity) = if a.artillery.needs_roll() {
        let p = parity_die.ok_or_else(|| {
            RuleError::BadRoll(format!("the artillery modifier {} needs a parity die (GCACW 7.4)", a.artillery))
        })?;
        check(p)?;
        (i32::from(a.artillery.resolve(p)), Some(p))
    } else {
        (i32::from(a.artillery.value), None)
    };
    let attacker_roll = i32::from(attacker_die) + a.attacker_total() + art;
    let defender_roll = i32::from(defender_die) + a.defender_total();
    let differential = attacker_roll - defender_roll;
    let row =
        a.rows.iter().find(|r| (r.differentials.0..=r.differentials.1).contains(&differential)).ok_or_else(|| {
            RuleError::Unexpected(format!("differential {differential} is not among the assessed rows"))
        })?;
    Ok(Outcome {
        attacker_die,
        defender_die,
        parity_die: parity,
        artillery: art,
        attacker_roll,
        defender_roll,
        differential,
        cells: row.cells.clone(),
        extra_attacker_loss: if row.cells.attacker.loss > 0 { a.extra_attacker_loss } else { 0 },
        equal_dice: attacker_die == defender_die,
    })
}
