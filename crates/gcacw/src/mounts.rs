//! Union Cavalry Mounts (HSN-A 5.0–5.5): the Union Cavalry Phase from Turn 10 on, with its five
//! segments — Horses Worn Out (Turn 10 only), Remount, Off-Map Removal, Unmounted and Cavalry
//! Return — and the markers they leave on the units ([`Mount`], read by [`Gcacw::unmounted`]).
//! The turns, hexes, tables and the A/B counters are the scenario's `union-cavalry-mounts` rule.

use caisson_hexmap::Hex;
use caisson_kernel::{Choice, Decision, Modifier, RollRequest};
use serde::{Deserialize, Serialize};

use crate::catalog::CounterType;
use crate::rules::Gcacw;
use crate::scenario::{RuleKind, Scenario};
use crate::sequence::{self, Phase};
use crate::state::{Mount, Stage, State};
use crate::Side;

/// The scenario data of the procedure (HSN-A 5.0–5.3; HSN Sc 9 reinforcements note).
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct MountRules {
    /// First turn of the Union Cavalry Phase, and the only turn of the Horses Worn Out Segment.
    pub from_turn: u16,
    /// Cavalry arriving as reinforcements on this turn or later is exempt (Sc 9 note).
    pub exempt_arrived_from: u16,
    /// Hexes where cavalry leaves the map and comes back (5.1 C, E).
    pub hexes: Vec<Hex>,
    /// Remount Table: this roll or more remounts (5.2).
    pub remount_at_least: i32,
    /// Unmounting Table: this modified roll or more unmounts (5.3).
    pub unmount_at_least: i32,
    /// Unmounting Table modifier for an exhausted unit.
    pub exhausted: i32,
    /// Unmounting Table modifier for a disorganized unit.
    pub disorganized: i32,
    /// Unmounting Table modifier for a demoralized unit.
    pub demoralized: i32,
    /// A-version brigades replaced by their B version when they remount (5.2).
    pub replacements: Vec<Replacement>,
}

/// An A-version counter and the B version that replaces it after a remount (HSN-A 5.2).
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Replacement {
    /// The A version.
    pub from: String,
    /// The B version.
    pub to: String,
}

/// Where the Union Cavalry Phase waits (HSN-A 5.1).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "name", rename_all = "kebab-case")]
pub enum Step {
    /// B: a remount roll for the first unit of the queue (5.2).
    Remount {
        /// Off-map units still to roll.
        queue: Vec<usize>,
    },
    /// C: the Union player takes cavalry off the map from the exit hexes.
    Removal {
        /// Units taken off in this segment, with the hex they left.
        removed: Vec<(usize, Hex)>,
    },
    /// D: an Unmounting roll for the first unit of the queue (5.3).
    Unmount {
        /// Units with a Horses Worn Out marker still to roll.
        queue: Vec<usize>,
    },
    /// E: the Union player brings cavalry back to the exit hexes.
    Return {
        /// Units brought back in this segment.
        returned: Vec<usize>,
    },
}

/// The scenario's procedure, if it has one.
#[must_use]
pub fn table_of(scenario: &Scenario) -> Option<&MountRules> {
    scenario.rules().find_map(|r| match r {
        RuleKind::UnionCavalryMounts(t) => Some(t),
        _ => None,
    })
}

fn table(rules: &Gcacw) -> Option<&MountRules> {
    table_of(rules.scenario())
}

/// The A-version counter id a B-version counter replaces after a remount (HSN-A 5.2), if any.
#[must_use]
pub fn a_version<'r>(rules: &'r Gcacw, id: &str) -> Option<&'r str> {
    table(rules)?.replacements.iter().find(|r| r.to == id).map(|r| r.from.as_str())
}

/// Whether a unit is Union cavalry by its counter (an unmounted one included).
#[must_use]
pub fn union_cavalry(rules: &Gcacw, state: &State, u: usize) -> bool {
    let c = rules.unit_counter(state, u);
    c.side == Side::Union && c.ty == CounterType::Cavalry
}

/// Whether a unit arrived late enough to be exempt from the procedure (HSN Sc 9 note).
#[must_use]
pub fn exempt(rules: &Gcacw, state: &State, u: usize) -> bool {
    table(rules)
        .is_some_and(|t| state.campaign.reinforced_on.get(&u).is_some_and(|&turn| turn >= t.exempt_arrived_from))
}

/// Whether a unit is temporarily off the map for remounts (HSN-A 5.1 C).
#[must_use]
pub fn off_map(state: &State, u: usize) -> bool {
    state.campaign.off_map.contains(&u)
}

/// The marker of the unit that remains after two Union cavalry units attach (HSN-A 5.4): Unmounted
/// if either had it; otherwise Horses Worn Out if either had it; otherwise the survivor keeps its
/// own status (ruling R67). The Attachment Phase calls this before it removes `attaching`.
pub fn merge_markers(state: &mut State, survivor: usize, attaching: usize) {
    let (Some(a), Some(b)) = (state.units.get(survivor), state.units.get(attaching)) else { return };
    let merged = match (a.mount, b.mount) {
        (Mount::Unmounted, _) | (_, Mount::Unmounted) => Mount::Unmounted,
        (Mount::WornOut, _) | (_, Mount::WornOut) => Mount::WornOut,
        (own, _) => own,
    };
    if merged != a.mount {
        state.units[survivor].mount = merged;
        if let Some(m) = merged.marker() {
            state.note(format!("The attached unit takes the {m} marker."), Some("HSN-A 5.4"));
        }
    }
}

/// Enters the Union Cavalry Phase (HSN-A 5.1): nothing before the scenario's first turn of it.
pub fn begin(rules: &Gcacw, state: &mut State) {
    let Some(t) = table(rules) else { return sequence::phase_done(rules, state, Phase::UnionCavalry) };
    if state.turn < t.from_turn {
        return sequence::phase_done(rules, state, Phase::UnionCavalry);
    }
    state.note("Union Cavalry Phase.", Some("HSN-A 5.1"));
    if state.turn == t.from_turn {
        worn_out_segment(rules, state);
    }
    let queue: Vec<usize> = state.campaign.off_map.iter().copied().filter(|&u| state.units[u].mount.marked()).collect();
    next_remount(rules, state, queue);
}

/// A: every Union cavalry unit on the map gets a Horses Worn Out marker, but those exempt by the
/// Sc 9 note and those already marked or remounted.
fn worn_out_segment(rules: &Gcacw, state: &mut State) {
    for u in 0..state.units.len() {
        if state.units[u].hex.is_none()
            || !union_cavalry(rules, state, u)
            || state.units[u].mount != Mount::Mounted
            || exempt(rules, state, u)
        {
            continue;
        }
        state.units[u].mount = Mount::WornOut;
        state.note(format!("{}: Horses Worn Out.", rules.unit_name(state, u)), Some("HSN-A 5.1 A"));
    }
}

fn next_remount(rules: &Gcacw, state: &mut State, queue: Vec<usize>) {
    if queue.is_empty() {
        removal_segment(rules, state, Vec::new());
    } else {
        state.stage = Stage::UnionCavalry { segment: Step::Remount { queue } };
    }
}

/// Union cavalry units that may leave the map now: in an exit hex, not exempt (ruling R65).
#[must_use]
pub fn removable(rules: &Gcacw, state: &State) -> Vec<usize> {
    let Some(t) = table(rules) else { return Vec::new() };
    rules
        .on_map(state)
        .filter(|&(u, h)| t.hexes.contains(&h) && union_cavalry(rules, state, u) && !exempt(rules, state, u))
        .map(|(u, _)| u)
        .collect()
}

/// Leaders still on the map who may follow a unit of their command taken off from their hex.
fn followers(rules: &Gcacw, state: &State, removed: &[(usize, Hex)]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for l in 0..state.leaders.len() {
        let Some(at) = rules.leader_hex(state, l) else { continue };
        let lc = state.leaders[l].counter as usize;
        if let Some(&(u, _)) = removed
            .iter()
            .find(|&&(u, h)| h == at && off_map(state, u) && rides(rules, lc, state.units[u].counter as usize))
        {
            out.push((l, u));
        }
    }
    out
}

/// Whether leader counter `lc` may be carried by unit counter `uc`.
fn rides(rules: &Gcacw, lc: usize, uc: usize) -> bool {
    rules.may_attach_counter(lc, uc) || crate::activation::extra_activator(rules, lc, uc)
}

fn removal_segment(rules: &Gcacw, state: &mut State, removed: Vec<(usize, Hex)>) {
    if removable(rules, state).is_empty() && followers(rules, state, &removed).is_empty() {
        unmount_segment(rules, state);
    } else {
        state.stage = Stage::UnionCavalry { segment: Step::Removal { removed } };
    }
}

fn unmount_segment(rules: &Gcacw, state: &mut State) {
    let queue: Vec<usize> = rules
        .on_map(state)
        .filter(|&(u, _)| union_cavalry(rules, state, u) && state.units[u].mount == Mount::WornOut)
        .map(|(u, _)| u)
        .collect();
    next_unmount(rules, state, queue);
}

fn next_unmount(rules: &Gcacw, state: &mut State, queue: Vec<usize>) {
    if queue.is_empty() {
        return_segment(rules, state, Vec::new());
    } else {
        state.stage = Stage::UnionCavalry { segment: Step::Unmount { queue } };
    }
}

/// Hexes where an off-map unit may come back: the exit hexes not held by the enemy.
#[must_use]
pub fn return_hexes(rules: &Gcacw, state: &State) -> Vec<Hex> {
    let Some(t) = table(rules) else { return Vec::new() };
    t.hexes.iter().copied().filter(|&h| rules.occupant(state, h) != Some(Side::Confederate)).collect()
}

fn return_segment(rules: &Gcacw, state: &mut State, returned: Vec<usize>) {
    let stage = Stage::UnionCavalry { segment: Step::Return { returned } };
    if return_options(rules, state, &stage).is_empty() {
        sequence::phase_done(rules, state, Phase::UnionCavalry);
    } else {
        state.stage = stage;
    }
}

fn return_options(rules: &Gcacw, state: &State, stage: &Stage) -> Vec<Choice> {
    let Stage::UnionCavalry { segment: Step::Return { returned } } = stage else { return Vec::new() };
    let mut out = Vec::new();
    let hexes = return_hexes(rules, state);
    for &u in &state.campaign.off_map {
        for &h in &hexes {
            let status = state.units[u].mount.marker().map(|m| format!(" ({m})")).unwrap_or_default();
            out.push(Choice::new(
                format!("return:{}:{h}", rules.unit_id(state, u)),
                format!("{}{status} comes back to {} (HSN-A 5.1 E)", rules.unit_name(state, u), rules.map().label(h)),
            ));
        }
    }
    // A leader off the map may come back with any unit of his command brought back this segment.
    for l in 0..state.leaders.len() {
        let Some(w) = state.leaders[l].with else { continue };
        if !off_map(state, w) {
            continue;
        }
        let lc = state.leaders[l].counter as usize;
        for &u in returned {
            if state.units[u].hex.is_some() && rides(rules, lc, state.units[u].counter as usize) {
                out.push(Choice::new(
                    format!("leader-return:{}:{}", rules.catalog().get(lc).id, rules.unit_id(state, u)),
                    format!("{} comes back with {}", rules.catalog().get(lc).name, rules.unit_name(state, u)),
                ));
            }
        }
    }
    out
}

/// The roll the phase waits for, if any.
#[must_use]
pub fn roll_request(rules: &Gcacw, state: &State, step: &Step) -> Option<RollRequest> {
    let t = table(rules)?;
    match step {
        Step::Remount { queue } => {
            let &u = queue.first()?;
            Some(RollRequest {
                side: Side::Union.id().into(),
                purpose: format!("Remount Table for {}", rules.unit_name(state, u)),
                rule: "HSN-A 5.2".into(),
                dice: 1,
                modifiers: Vec::new(),
            })
        }
        Step::Unmount { queue } => {
            let &u = queue.first()?;
            let unit = &state.units[u];
            let mut modifiers = Vec::new();
            if unit.exhausted {
                modifiers.push(Modifier::new("exhausted", t.exhausted, "HSN-A 5.3"));
            }
            if !unit.organized {
                modifiers.push(Modifier::new("disorganized", t.disorganized, "HSN-A 5.3"));
            }
            if unit.demoralized > 0 {
                modifiers.push(Modifier::new("demoralized", t.demoralized, "HSN-A 5.3"));
            }
            Some(RollRequest {
                side: Side::Union.id().into(),
                purpose: format!("Unmounting Table for {}", rules.unit_name(state, u)),
                rule: "HSN-A 5.3".into(),
                dice: 1,
                modifiers,
            })
        }
        Step::Removal { .. } | Step::Return { .. } => None,
    }
}

/// Applies a remount or unmounting roll.
pub fn apply_roll(rules: &Gcacw, state: &mut State, req: &RollRequest, dice: &[u8]) {
    let Some(t) = table(rules).cloned() else { return };
    let Stage::UnionCavalry { segment: step } = state.stage.clone() else { return };
    let total = sequence::total(dice, &req.modifiers);
    match step {
        Step::Remount { mut queue } => {
            if queue.is_empty() {
                return removal_segment(rules, state, Vec::new());
            }
            let u = queue.remove(0);
            if total >= t.remount_at_least {
                sequence::log_roll(state, req, dice, format!("{total}: Remounted"));
                state.units[u].mount = Mount::Remounted;
                let before = rules.unit_name(state, u);
                let a = rules.unit_id(state, u).to_string();
                if let Some(b) = t.replacements.iter().find(|r| r.from == a).and_then(|r| rules.catalog().index(&r.to))
                {
                    state.units[u].counter = b as u16;
                    state.note(
                        format!("{before} is replaced by {}, keeping its status.", rules.unit_name(state, u)),
                        Some("HSN-A 5.2"),
                    );
                }
                state.note(
                    format!("{}: the Unmounted marker is removed for good.", rules.unit_name(state, u)),
                    Some("HSN-A 5.2"),
                );
            } else {
                sequence::log_roll(state, req, dice, format!("{total}: no effect"));
            }
            next_remount(rules, state, queue);
        }
        Step::Unmount { mut queue } => {
            if queue.is_empty() {
                return return_segment(rules, state, Vec::new());
            }
            let u = queue.remove(0);
            if total >= t.unmount_at_least {
                sequence::log_roll(state, req, dice, format!("{total}: Unmounted"));
                state.units[u].mount = Mount::Unmounted;
                state.note(
                    format!("{} is unmounted: it fights and moves as infantry (HSN-A 5.5).", rules.unit_name(state, u)),
                    Some("HSN-A 5.3"),
                );
            } else {
                sequence::log_roll(state, req, dice, format!("{total}: no effect, Horses Worn Out stays"));
            }
            next_unmount(rules, state, queue);
        }
        Step::Removal { .. } | Step::Return { .. } => {}
    }
}

/// The decision of the Off-Map Removal or Cavalry Return segment.
#[must_use]
pub fn decision(rules: &Gcacw, state: &State, step: &Step) -> Option<Decision> {
    match step {
        Step::Removal { removed } => {
            let mut options = Vec::new();
            for u in removable(rules, state) {
                let hex = state.units[u].hex.map(|h| rules.map().label(h)).unwrap_or_default();
                options.push(Choice::new(
                    format!("off:{}", rules.unit_id(state, u)),
                    format!("{} leaves the map from {hex} for remounts (HSN-A 5.1 C)", rules.unit_name(state, u)),
                ));
            }
            for (l, u) in followers(rules, state, removed) {
                let lc = rules.leader_counter(state, l);
                options.push(Choice::new(
                    format!("leader-off:{}:{}", lc.id, rules.unit_id(state, u)),
                    format!("{} goes off the map with {}", lc.name, rules.unit_name(state, u)),
                ));
            }
            options.push(Choice::new("done", "No more cavalry leaves the map"));
            Some(Decision {
                side: Side::Union.id().into(),
                kind: "cavalry-off-map".into(),
                prompt: "Union Cavalry Phase, Off-Map Removal: cavalry in the exit hexes may leave the map to \
                         seek remounts (HSN-A 5.1 C)"
                    .into(),
                options,
            })
        }
        Step::Return { .. } => {
            let mut options = return_options(rules, state, &state.stage);
            options.push(Choice::new("done", "No more cavalry comes back"));
            Some(Decision {
                side: Side::Union.id().into(),
                kind: "cavalry-return".into(),
                prompt: "Union Cavalry Phase, Cavalry Return: off-map cavalry may come back to the exit hexes \
                         (HSN-A 5.1 E)"
                    .into(),
                options,
            })
        }
        Step::Remount { .. } | Step::Unmount { .. } => None,
    }
}

/// Applies an option of the Off-Map Removal or Cavalry Return segment; `None` if unreadable.
pub fn choose(rules: &Gcacw, state: &mut State, option: &str) -> Option<()> {
    let Stage::UnionCavalry { segment: step } = state.stage.clone() else { return None };
    match step {
        Step::Removal { mut removed } => {
            if option == "done" {
                unmount_segment(rules, state);
                return Some(());
            }
            let (verb, rest) = option.split_once(':')?;
            match verb {
                "off" => {
                    let u = rules.unit_by_id(rest)?;
                    if !removable(rules, state).contains(&u) {
                        return None;
                    }
                    let from = state.units[u].hex?;
                    take_off(rules, state, u);
                    removed.push((u, from));
                }
                "leader-off" => {
                    let (lid, uid) = rest.split_once(':')?;
                    let (l, u) = (rules.leader_by_id(lid)?, rules.unit_by_id(uid)?);
                    if !followers(rules, state, &removed).contains(&(l, u)) {
                        return None;
                    }
                    state.leaders[l].with = Some(u);
                    state.note(
                        format!(
                            "{} goes off the map with {}.",
                            rules.leader_counter(state, l).name,
                            rules.unit_name(state, u)
                        ),
                        Some("HSN-A 5.1 C"),
                    );
                }
                _ => return None,
            }
            removal_segment(rules, state, removed);
            Some(())
        }
        Step::Return { mut returned } => {
            if option == "done" {
                sequence::phase_done(rules, state, Phase::UnionCavalry);
                return Some(());
            }
            let (verb, rest) = option.split_once(':')?;
            let (a, b) = rest.split_once(':')?;
            match verb {
                "return" => {
                    let u = rules.unit_by_id(a)?;
                    let hex: Hex = b.parse().ok()?;
                    if !off_map(state, u) || !return_hexes(rules, state).contains(&hex) {
                        return None;
                    }
                    state.campaign.off_map.remove(&u);
                    rules.relocate(state, u, hex);
                    let status = state.units[u].mount.marker().map(|m| format!(", {m}")).unwrap_or_default();
                    state.note(
                        format!("{} comes back to {}{status}.", rules.unit_name(state, u), rules.map().label(hex)),
                        Some("HSN-A 5.1 E"),
                    );
                    returned.push(u);
                }
                "leader-return" => {
                    let (l, u) = (rules.leader_by_id(a)?, rules.unit_by_id(b)?);
                    let ok = state.leaders[l].with.is_some_and(|w| off_map(state, w))
                        && returned.contains(&u)
                        && state.units[u].hex.is_some()
                        && rides(rules, state.leaders[l].counter as usize, state.units[u].counter as usize);
                    if !ok {
                        return None;
                    }
                    state.leaders[l].with = Some(u);
                    state.note(
                        format!(
                            "{} comes back with {}.",
                            rules.leader_counter(state, l).name,
                            rules.unit_name(state, u)
                        ),
                        Some("HSN-A 5.1 E"),
                    );
                }
                _ => return None,
            }
            return_segment(rules, state, returned);
            Some(())
        }
        Step::Remount { .. } | Step::Unmount { .. } => None,
    }
}

/// Takes a unit off the map (HSN-A 5.1 C): its marker turns to Unmounted, it keeps its status,
/// and a leader it carries stays with another unit he may ride in the hex, or else goes with it.
fn take_off(rules: &Gcacw, state: &mut State, u: usize) {
    let Some(from) = state.units[u].hex else { return };
    state.units[u].hex = None;
    state.units[u].entrenchment = None;
    crate::rules::tidy_flanks(state);
    state.campaign.off_map.insert(u);
    let mut text =
        format!("{} leaves the map from {} to seek remounts", rules.unit_name(state, u), rules.map().label(from));
    if state.units[u].mount.marked() && state.units[u].mount != Mount::Unmounted {
        state.units[u].mount = Mount::Unmounted;
        text.push_str(": its marker turns to Unmounted");
    }
    state.note(format!("{text}."), Some("HSN-A 5.1 C"));
    for l in 0..state.leaders.len() {
        if state.leaders[l].with != Some(u) {
            continue;
        }
        let lc = state.leaders[l].counter as usize;
        let stay = rules
            .on_map(state)
            .find(|&(v, h)| h == from && rides(rules, lc, state.units[v].counter as usize))
            .map(|(v, _)| v);
        let name = rules.catalog().get(lc).name.clone();
        match stay {
            Some(v) => {
                state.leaders[l].with = Some(v);
                state.note(
                    format!("{name} stays in {} with {}.", rules.map().label(from), rules.unit_name(state, v)),
                    Some("HSN-A 5.1 C"),
                );
            }
            None => state.note(
                format!("{name} goes with {}: no unit of his command is left in the hex.", rules.unit_name(state, u)),
                Some("HSN-A 5.1 C"),
            ),
        }
    }
}
