//! The Union wagon trains of the campaign (HSN Sc 9 special rule "Wagons"):
//!
//! - a wagon that enters Nashville, Murfreesboro, or a Fortress Rosecrans hex whose printed fort
//!   is not destroyed, is removed at once ([`on_enter`], called from `Gcacw::relocate`);
//! - while he has the initiative the Union player may spend his Activation Segment destroying one
//!   or more wagons that are not south of the Duck River ([`options`], [`decision`], [`choose`]);
//! - every wagon still on the map when the first winter turn starts is removed
//!   ([`remove_for_winter`]).
//!
//! A removed or destroyed wagon leaves the map with its Manpower (no hex, not eliminated): these
//! removals are not Manpower losses. What the victory points need is kept in `state.flags`
//! (see the `FLAG_*` prefixes; each flag is followed by the wagon's counter id).

use caisson_hexmap::Hex;
use caisson_kernel::{Choice, Decision};

use crate::catalog::CounterType;
use crate::rules::Gcacw;
use crate::scenario::RuleKind;
use crate::state::{Stage, State};
use crate::Side;

/// Flag prefix: the wagon entered Nashville before winter (value: the turn).
pub const FLAG_NASHVILLE: &str = "sc9/wagon-nashville/";
/// Flag prefix: the wagon entered Murfreesboro or a standing Fortress Rosecrans hex before
/// winter (value: the turn).
pub const FLAG_MURFREESBORO: &str = "sc9/wagon-murfreesboro/";
/// Flag prefix: the Union player destroyed the wagon (value: its Manpower then).
pub const FLAG_DESTROYED: &str = "sc9/wagon-destroyed/";
/// Flag prefix: the wagon was removed when winter started (value: its Manpower then).
pub const FLAG_WINTER: &str = "sc9/wagon-winter/";

/// The option id of the Union action of destroying wagons.
pub const ACTION: &str = "destroy-wagons:union";

/// The hexes of the wagon rule: Nashville, Murfreesboro, Fortress Rosecrans, and its source.
type WagonRule<'a> = (&'a [Hex], &'a [Hex], &'a [Hex], &'a str);

/// The scenario's wagon rule.
fn rule(rules: &Gcacw) -> Option<WagonRule<'_>> {
    rules.scenario().special_rule.iter().find_map(|r| match &r.kind {
        RuleKind::Wagons { nashville, murfreesboro, fortress } => {
            Some((nashville.as_slice(), murfreesboro.as_slice(), fortress.as_slice(), r.source.as_str()))
        }
        _ => None,
    })
}

/// Whether unit `u` is a Union wagon train.
#[must_use]
pub fn is_wagon(rules: &Gcacw, state: &State, u: usize) -> bool {
    rules.unit_side(state, u) == Side::Union && rules.unit_counter(state, u).ty == CounterType::Wagon
}

/// Whether the printed fort in `hex` has been destroyed (flag `fort-destroyed/XXYY`, HSN-A 8.0).
#[must_use]
pub fn fort_destroyed(state: &State, hex: Hex) -> bool {
    state.flags.get(&crate::combat::fort_flag(hex)).is_some_and(|&v| v != 0)
}

fn take_off(rules: &Gcacw, state: &mut State, u: usize) {
    state.units[u].hex = None;
    state.units[u].entrenchment = None;
    let occupied: std::collections::BTreeSet<Hex> = state.units.iter().filter_map(|u| u.hex).collect();
    state.flanks_refused.retain(|h| occupied.contains(h));
    let _ = rules;
}

/// A unit has just entered `hex`: a Union wagon there is removed at once if `hex` is Nashville,
/// Murfreesboro, or a Fortress Rosecrans hex whose fort stands (HSN Sc 9 Wagons), and the entry
/// is recorded for the victory points.
pub fn on_enter(rules: &Gcacw, state: &mut State, u: usize, hex: Hex) {
    let Some((nashville, murfreesboro, fortress, source)) = rule(rules) else { return };
    if !is_wagon(rules, state, u) {
        return;
    }
    let flag = if nashville.contains(&hex) {
        FLAG_NASHVILLE
    } else if murfreesboro.contains(&hex) || (fortress.contains(&hex) && !fort_destroyed(state, hex)) {
        FLAG_MURFREESBORO
    } else {
        return;
    };
    let source = source.to_string();
    let id = rules.unit_id(state, u).to_string();
    state.flags.entry(format!("{flag}{id}")).or_insert(i32::from(state.turn));
    take_off(rules, state, u);
    state.note(
        format!("{} enters {} and is removed from the map.", rules.unit_name(state, u), rules.map().label(hex)),
        Some(&source),
    );
}

/// Wagons the Union player may destroy now: on the map and not south of the Duck River.
#[must_use]
pub fn destroyable(rules: &Gcacw, state: &State) -> Vec<usize> {
    if rule(rules).is_none() {
        return Vec::new();
    }
    rules.on_map(state).filter(|&(u, h)| is_wagon(rules, state, u) && !rules.south_of_duck(h)).map(|(u, _)| u).collect()
}

/// The action option of destroying wagons, for the Union player with the initiative.
#[must_use]
pub fn options(rules: &Gcacw, state: &State, side: Side) -> Vec<Choice> {
    if side != Side::Union || destroyable(rules, state).is_empty() {
        return Vec::new();
    }
    vec![Choice::new(ACTION, "Destroy one or more wagon trains (spends this Activation Segment; HSN Sc 9 Wagons)")]
}

/// Starts the action: the Union player picks the wagons.
pub fn start(state: &mut State) {
    state.note("Union: destroys wagon trains.", Some("HSN Sc 9 Wagons"));
    state.stage = Stage::DestroyWagons { chosen: Vec::new() };
}

/// The choice of wagons to destroy, one at a time; done once at least one is picked.
#[must_use]
pub fn decision(rules: &Gcacw, state: &State, chosen: &[usize]) -> Decision {
    let mut options: Vec<Choice> = destroyable(rules, state)
        .into_iter()
        .filter(|u| !chosen.contains(u))
        .map(|u| {
            let hex = state.units[u].hex.map(|h| rules.map().label(h)).unwrap_or_default();
            Choice::new(
                format!("wagon:{}", rules.unit_id(state, u)),
                format!("Destroy {} in {hex} (Manpower {})", rules.unit_name(state, u), state.units[u].manpower),
            )
        })
        .collect();
    if !chosen.is_empty() {
        let names: Vec<String> = chosen.iter().map(|&u| rules.unit_name(state, u)).collect();
        options.push(Choice::new("done", format!("Destroy {}", names.join(", "))));
    }
    Decision {
        side: Side::Union.id().into(),
        kind: "destroy-wagons".into(),
        prompt: "Choose the wagon trains to destroy (not south of the Duck River; HSN Sc 9 Wagons)".into(),
        options,
    }
}

/// Applies a choice; `None` if unreadable.
pub fn choose(rules: &Gcacw, state: &mut State, mut chosen: Vec<usize>, option: &str) -> Option<()> {
    if option == "done" {
        if chosen.is_empty() {
            return None;
        }
        let source = rule(rules)?.3.to_string();
        for u in chosen {
            if state.units[u].hex.is_none() {
                continue;
            }
            remove_scoring(rules, state, u, FLAG_DESTROYED, &source, |name, mp| {
                format!("The Union player destroys {name} (Manpower {mp}).")
            });
        }
        crate::sequence::next_action_phase(rules, state);
        return Some(());
    }
    let u = rules.unit_by_id(option.strip_prefix("wagon:")?)?;
    if chosen.contains(&u) || !destroyable(rules, state).contains(&u) {
        return None;
    }
    chosen.push(u);
    state.stage = Stage::DestroyWagons { chosen };
    Some(())
}

/// Winter starts (HSN-A 4.0): every Union wagon still on the map is removed, its Manpower then
/// recorded for the victory points (HSN Sc 9 Wagons). Does nothing without the scenario's wagon
/// rule. The winter procedure calls this when the first winter turn starts.
pub fn remove_for_winter(rules: &Gcacw, state: &mut State) {
    let Some((_, _, _, source)) = rule(rules) else { return };
    let source = source.to_string();
    let wagons: Vec<usize> = rules.on_map(state).filter(|&(u, _)| is_wagon(rules, state, u)).map(|(u, _)| u).collect();
    for u in wagons {
        remove_scoring(rules, state, u, FLAG_WINTER, &source, |name, mp| {
            format!("Winter begins: {name} is removed from the map (Manpower {mp}).")
        });
    }
}

/// Takes wagon `u` off the map, recording its Manpower at that moment under `flag` for the
/// victory points, and logs why.
fn remove_scoring(
    rules: &Gcacw,
    state: &mut State,
    u: usize,
    flag: &str,
    source: &str,
    text: impl FnOnce(&str, u8) -> String,
) {
    let mp = state.units[u].manpower;
    let id = rules.unit_id(state, u).to_string();
    let name = rules.unit_name(state, u).to_string();
    state.flags.insert(format!("{flag}{id}"), i32::from(mp));
    take_off(rules, state, u);
    state.note(text(&name, mp), Some(source));
}

/// Whether wagon `u` has left the map under this rule (entered a city, destroyed, or removed at
/// winter).
#[must_use]
pub fn removed(rules: &Gcacw, state: &State, u: usize) -> bool {
    let id = rules.unit_id(state, u);
    [FLAG_NASHVILLE, FLAG_MURFREESBORO, FLAG_DESTROYED, FLAG_WINTER]
        .iter()
        .any(|p| state.flags.contains_key(&format!("{p}{id}")))
}
