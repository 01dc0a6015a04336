//! The Reinforcement Phase of the Advanced Game (HSN-A 1.0): the Union Reinforcement Table and
//! entry areas (HSN-A 12.0; HSN Sc 9 Union reinforcement list and "Entry Areas"), then the
//! Confederate constant and variable reinforcements (HSN-A 13.0). Lyon's Kentucky Raid (HSN-A 2.2)
//! keeps some counters from ever arriving.
//!
//! A set is *made available* by a roll (or a random event, or its turn for a constant
//! reinforcement); its counters are then placed one decision at a time, or held back for a later
//! Reinforcement Phase (docs/rulings.md R55–R58). The Confederate arrivals of the Action Cycle are
//! `arrival`, not this module.

use std::collections::BTreeSet;

use caisson_hexmap::Hex;
use caisson_kernel::{Choice, Decision, Modifier, RollRequest};
use serde::Serialize;

use crate::catalog::{CounterType, Kind};
use crate::rules::Gcacw;
use crate::scenario::{ArrivalRow, RuleKind};
use crate::sequence::{self, Phase};
use crate::state::{side_index, Stage, State};
use crate::zoc::Zoc;
use crate::Side;

/// A set made available, and when.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Made {
    /// The arrival rows' group.
    pub group: String,
    /// Set number (0 for a row without one).
    pub set: u16,
    /// The turn it was made available.
    pub turn: u16,
}

/// What the reinforcement procedure remembers.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Progress {
    /// Sets made available, in order.
    pub made: Vec<Made>,
    /// Counters (catalog indices) placed on the map as reinforcements.
    pub placed: BTreeSet<u16>,
}

/// Whether the scenario has any reinforcement rule of this module.
#[must_use]
pub fn in_use(rules: &Gcacw) -> bool {
    rules.scenario().rules().any(|r| {
        matches!(
            r,
            RuleKind::UnionReinforcementTable { .. }
                | RuleKind::ConstantReinforcement { .. }
                | RuleKind::VariableReinforcements { .. }
        )
    })
}

/// The groups of arrival rows the reinforcement rules govern, with their side's roll if any.
fn groups(rules: &Gcacw) -> Vec<(&str, &str)> {
    rules
        .scenario()
        .special_rule
        .iter()
        .filter_map(|r| match &r.kind {
            RuleKind::UnionReinforcementTable { group, .. }
            | RuleKind::ConstantReinforcement { group }
            | RuleKind::VariableReinforcements { group, .. } => Some((group.as_str(), r.source.as_str())),
            _ => None,
        })
        .collect()
}

fn group_side(rules: &Gcacw, group: &str) -> Option<Side> {
    rules
        .scenario()
        .arrival
        .iter()
        .find(|r| r.group == group)
        .and_then(|r| rules.catalog().index(&r.counter))
        .map(|c| rules.catalog().get(c).side)
}

/// Whether Lyon's Kentucky Raid keeps this counter from ever arriving (HSN-A 2.2).
#[must_use]
pub fn excluded(rules: &Gcacw, state: &State, counter: &str) -> bool {
    state.campaign.lyon_raid
        && rules
            .scenario()
            .rules()
            .any(|r| matches!(r, RuleKind::LyonRaidExclusions { counters } if counters.iter().any(|c| c == counter)))
}

fn rows<'r>(rules: &'r Gcacw, group: &'r str) -> impl Iterator<Item = &'r ArrivalRow> {
    rules.scenario().arrival.iter().filter(move |r| r.group == group)
}

/// The sets of a group that still have a counter that may arrive, lowest first.
fn sets(rules: &Gcacw, state: &State, group: &str) -> Vec<u16> {
    let mut out: Vec<u16> =
        rows(rules, group).filter(|r| !excluded(rules, state, &r.counter)).map(|r| r.set.unwrap_or(0)).collect();
    out.sort_unstable();
    out.dedup();
    out
}

fn made(state: &State, group: &str, set: u16) -> Option<u16> {
    state.reinforcement.made.iter().find(|m| m.group == group && m.set == set).map(|m| m.turn)
}

/// The lowest-numbered set of a group not yet made available (a set emptied by Lyon's Kentucky
/// Raid is skipped).
#[must_use]
pub fn next_set(rules: &Gcacw, state: &State, group: &str) -> Option<u16> {
    sets(rules, state, group).into_iter().find(|&s| made(state, group, s).is_none())
}

fn first_turn(rules: &Gcacw, group: &str) -> Option<u16> {
    rows(rules, group).filter_map(|r| r.turn).min()
}

fn make_available(rules: &Gcacw, state: &mut State, group: &str, why: &str, source: &str) -> bool {
    let Some(set) = next_set(rules, state, group) else { return false };
    state.reinforcement.made.push(Made { group: group.to_string(), set, turn: state.turn });
    let names: Vec<String> = rows(rules, group)
        .filter(|r| r.set.unwrap_or(0) == set && !excluded(rules, state, &r.counter))
        .filter_map(|r| rules.catalog().index(&r.counter).map(|c| rules.catalog().get(c).name.clone()))
        .collect();
    let side = group_side(rules, group).map_or_else(String::new, |s| format!("{s} "));
    let label = if set == 0 { String::new() } else { format!(" set {set}") };
    state.note(format!("{side}reinforcement{label} ({}) is available ({why}).", names.join(", ")), Some(source));
    true
}

/// Reinforcement Phase (HSN-A 1.0): the Union part first, then the Confederate part.
pub fn begin(rules: &Gcacw, state: &mut State) {
    if !in_use(rules) {
        sequence::phase_done(rules, state, Phase::Reinforcement);
        return;
    }
    start_side(rules, state, Side::Union);
}

fn table(rules: &Gcacw, side: Side) -> Option<(&RuleKind, &str)> {
    rules.scenario().special_rule.iter().find_map(|r| match &r.kind {
        k @ (RuleKind::UnionReinforcementTable { group, .. } | RuleKind::VariableReinforcements { group, .. })
            if group_side(rules, group) == Some(side) =>
        {
            Some((k, r.source.as_str()))
        }
        _ => None,
    })
}

fn table_group(kind: &RuleKind) -> &str {
    match kind {
        RuleKind::UnionReinforcementTable { group, .. } | RuleKind::VariableReinforcements { group, .. } => group,
        _ => "",
    }
}

fn start_side(rules: &Gcacw, state: &mut State, side: Side) {
    if side == Side::Union && state.campaign.accelerated_sets > 0 {
        // HSN-A 2.2 Accelerated Union Reinforcements, owed by this turn's Random Events Phase:
        // placed now, before the table roll (docs/rulings.md R57).
        let owed = state.campaign.accelerated_sets;
        state.campaign.accelerated_sets = 0;
        if let Some((kind, source)) = table(rules, side) {
            let (group, source) = (table_group(kind).to_string(), source.to_string());
            for _ in 0..owed {
                make_available(rules, state, &group, "Accelerated Union Reinforcements, HSN-A 2.2", &source);
            }
        }
    }
    let constants: Vec<(String, String)> = rules
        .scenario()
        .special_rule
        .iter()
        .filter_map(|r| match &r.kind {
            RuleKind::ConstantReinforcement { group } if group_side(rules, group) == Some(side) => {
                Some((group.clone(), r.source.clone()))
            }
            _ => None,
        })
        .collect();
    for (group, source) in constants {
        if first_turn(rules, &group).is_some_and(|t| state.turn >= t) && next_set(rules, state, &group).is_some() {
            make_available(rules, state, &group, "its turn has come", &source);
        }
    }
    if roll_due(rules, state, side) {
        state.stage = Stage::ReinforcementRoll { side };
    } else {
        placement(rules, state, side);
    }
}

/// Whether the side rolls for reinforcements now: it has a table, its first turn has come, and
/// some set is still to be made available.
#[must_use]
pub fn roll_due(rules: &Gcacw, state: &State, side: Side) -> bool {
    let Some((kind, _)) = table(rules, side) else { return false };
    let group = table_group(kind);
    first_turn(rules, group).is_some_and(|t| state.turn >= t) && next_set(rules, state, group).is_some()
}

/// The reinforcement roll of a side, with its itemised modifiers.
#[must_use]
pub fn roll_request(rules: &Gcacw, state: &State, side: Side) -> Option<RollRequest> {
    let (kind, source) = table(rules, side)?;
    let mut modifiers = Vec::new();
    if let RuleKind::UnionReinforcementTable { group, modifiers: by_turn, late_set, late_modifier, .. } = kind {
        for m in by_turn.iter().filter(|m| m.turn == state.turn && m.value != 0) {
            modifiers.push(Modifier::new(format!("Turn {}", m.turn), m.value, source));
        }
        if made(state, group, *late_set).is_some_and(|t| t < state.turn) {
            modifiers.push(Modifier::new(
                format!("set {late_set} made available in an earlier turn"),
                *late_modifier,
                source,
            ));
        }
    }
    Some(RollRequest {
        side: side.id().into(),
        purpose: format!("{side} reinforcements"),
        rule: source.to_string(),
        dice: 1,
        modifiers,
    })
}

/// Applies the reinforcement roll: the sets it makes available, then their placement.
pub fn apply_roll(rules: &Gcacw, state: &mut State, side: Side, req: &RollRequest, dice: &[u8]) {
    let Some((kind, source)) = table(rules, side) else {
        placement(rules, state, side);
        return;
    };
    let total = sequence::total(dice, &req.modifiers);
    let count = match kind {
        RuleKind::UnionReinforcementTable { results, .. } => {
            crate::arrival::lookup(results, total).map_or(0, |r| r.sets)
        }
        RuleKind::VariableReinforcements { success, .. } => u8::from(dice.first().is_some_and(|d| success.contains(d))),
        _ => 0,
    };
    let (group, source) = (table_group(kind).to_string(), source.to_string());
    let left = sets(rules, state, &group).into_iter().filter(|&s| made(state, &group, s).is_none()).count();
    let count = usize::from(count).min(left);
    sequence::log_roll(state, req, dice, format!("{count} reinforcement set(s)"));
    for _ in 0..count {
        make_available(rules, state, &group, &format!("reinforcement roll of {total}"), &source);
    }
    placement(rules, state, side);
}

fn placement(rules: &Gcacw, state: &mut State, side: Side) {
    let waiting = pending(rules, state, side);
    if !waiting.is_empty() && !placements(rules, state, side).is_empty() {
        state.stage = Stage::Reinforcement { side };
        return;
    }
    if !waiting.is_empty() {
        let names: Vec<String> = waiting.iter().map(|&(c, _)| rules.catalog().get(c).name.clone()).collect();
        state.note(
            format!("{side} reinforcements with nowhere to be placed are held back: {}.", names.join(", ")),
            Some("HSN-A 12.0, 13.0"),
        );
    }
    after_side(rules, state, side);
}

fn after_side(rules: &Gcacw, state: &mut State, side: Side) {
    match side {
        Side::Union => start_side(rules, state, Side::Confederate),
        Side::Confederate => sequence::phase_done(rules, state, Phase::Reinforcement),
    }
}

/// Counters made available and not yet placed, with their rows: units first.
fn pending<'r>(rules: &'r Gcacw, state: &State, side: Side) -> Vec<(usize, &'r ArrivalRow)> {
    let mut out = Vec::new();
    for (group, _) in groups(rules) {
        if group_side(rules, group) != Some(side) {
            continue;
        }
        for row in rows(rules, group) {
            let Some(c) = rules.catalog().index(&row.counter) else { continue };
            let set = row.set.unwrap_or(0);
            let gone = rules.unit_by_id(&row.counter).is_some_and(|u| {
                state.units[u].hex.is_some()
                    || state.units[u].eliminated
                    || state.campaign.exited.contains(&u)
                    || state.campaign.off_map.contains(&u)
            });
            if made(state, group, set).is_some()
                && !excluded(rules, state, &row.counter)
                && !state.reinforcement.placed.contains(&(c as u16))
                && !gone
            {
                out.push((c, row));
            }
        }
    }
    out.sort_by_key(|(c, row)| (rules.catalog().get(*c).kind == Kind::Leader, row.set));
    out
}

fn entry_rule(rules: &Gcacw) -> Option<(&str, Hex, &str)> {
    rules.scenario().special_rule.iter().find_map(|r| match &r.kind {
        RuleKind::UnionEntryAreas { railroad, rail_to } => Some((railroad.as_str(), *rail_to, r.source.as_str())),
        _ => None,
    })
}

/// Whether a railroad path along `railroad` joins `from` to `to` without entering a damaged or
/// destroyed station, a hex in the ZOC of `side`'s enemy (even one `side` occupies) or occupied by
/// the enemy, and without crossing a destroyed bridge (HSN Sc 9 Entry Areas; HSN-A 9.0). `from`
/// must be clear too.
#[must_use]
pub fn rail_path(rules: &Gcacw, state: &State, side: Side, railroad: &str, from: Hex, to: Hex) -> bool {
    let map = rules.map();
    let board = rules.board(state);
    let clear = map.index(from).is_some_and(|i| {
        board.occupant[i] != Some(side.enemy())
            && board.zoc[side_index(side.enemy())][i] == Zoc::None
            && !state.stations.contains_key(&from)
    });
    clear && (from == to || crate::rail::line_reach(rules, state, side, railroad, from).contains(&to))
}

/// Whether the set of a row brings a leader who may go with this unit.
fn set_has_leader(rules: &Gcacw, row: &ArrivalRow, unit_counter: usize) -> bool {
    rows(rules, &row.group).filter(|r| r.set == row.set).any(|r| {
        rules
            .catalog()
            .index(&r.counter)
            .is_some_and(|c| rules.catalog().get(c).kind == Kind::Leader && rules.may_attach_counter(c, unit_counter))
    })
}

/// Where a unit of a row may be placed now.
fn unit_hexes(rules: &Gcacw, state: &State, side: Side, c: usize, row: &ArrivalRow) -> Vec<Hex> {
    let open = |h: Hex| {
        rules.map().contains(h) && rules.occupant(state, h) != Some(side.enemy()) && !rules.prohibited(side, h)
    };
    let mut out: Vec<Hex> = row.entry.iter().flat_map(|r| r.hexes()).filter(|&h| open(h)).collect();
    if side == Side::Union && rules.catalog().get(c).ty == CounterType::Infantry && set_has_leader(rules, row, c) {
        if let Some((railroad, to, _)) = entry_rule(rules) {
            for h in row.alternative_entry.iter().flat_map(|r| r.hexes()) {
                if open(h) && rail_path(rules, state, side, railroad, h, to) {
                    out.push(h);
                }
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// Units that arrived this turn that a leader counter may be placed on.
fn carriers(rules: &Gcacw, state: &State, leader_counter: usize) -> Vec<usize> {
    state
        .campaign
        .reinforced_on
        .iter()
        .filter(|&(&u, &t)| t == state.turn && state.units.get(u).is_some_and(|x| x.hex.is_some()))
        .map(|(&u, _)| u)
        .filter(|&u| rules.may_attach_counter(leader_counter, state.units[u].counter as usize))
        .collect()
}

/// Every placement open now, as (counter, hex).
fn placements(rules: &Gcacw, state: &State, side: Side) -> Vec<(usize, Hex)> {
    let mut out = Vec::new();
    for (c, row) in pending(rules, state, side) {
        match rules.catalog().get(c).kind {
            Kind::Unit => out.extend(unit_hexes(rules, state, side, c, row).into_iter().map(|h| (c, h))),
            Kind::Leader => {
                let mut hexes: Vec<Hex> =
                    carriers(rules, state, c).into_iter().filter_map(|u| state.units[u].hex).collect();
                hexes.sort();
                hexes.dedup();
                out.extend(hexes.into_iter().map(|h| (c, h)));
            }
        }
    }
    out
}

fn source_of(rules: &Gcacw, row: &ArrivalRow) -> String {
    groups(rules).into_iter().find(|(g, _)| *g == row.group).map_or_else(String::new, |(_, s)| s.to_string())
}

/// The placement decision.
#[must_use]
pub fn decision(rules: &Gcacw, state: &State, side: Side) -> Decision {
    let sets: std::collections::BTreeMap<usize, Option<u16>> =
        pending(rules, state, side).into_iter().map(|(c, r)| (c, r.set)).collect();
    let mut options: Vec<Choice> = placements(rules, state, side)
        .into_iter()
        .map(|(c, h)| {
            let counter = rules.catalog().get(c);
            let set = sets.get(&c).copied().flatten().map_or_else(String::new, |s| format!(" (set {s})"));
            let with = if counter.kind == Kind::Leader { " with the units arrived there" } else { "" };
            Choice::new(
                format!("place:{}:{h}", counter.id),
                format!("Place {}{set} in {}{with}", counter.name, rules.map().label(h)),
            )
        })
        .collect();
    options.push(Choice::new("hold", "Hold the remaining reinforcements back for a later Reinforcement Phase"));
    Decision {
        side: side.id().into(),
        kind: "reinforcement".into(),
        prompt: format!("{side} reinforcements: place them one at a time, or hold the rest back"),
        options,
    }
}

/// Applies a placement decision; `None` if the option cannot be read or is not open.
pub fn choose(rules: &Gcacw, state: &mut State, side: Side, option: &str) -> Option<()> {
    if option == "hold" {
        let names: Vec<String> =
            pending(rules, state, side).iter().map(|&(c, _)| rules.catalog().get(c).name.clone()).collect();
        state.note(
            format!("{side} holds back reinforcements for a later phase: {}.", names.join(", ")),
            Some("HSN-A 12.0, 13.0"),
        );
        after_side(rules, state, side);
        return Some(());
    }
    let rest = option.strip_prefix("place:")?;
    let (id, hex) = rest.rsplit_once(':')?;
    let hex: Hex = hex.parse().ok()?;
    let c = rules.catalog().index(id)?;
    if !placements(rules, state, side).contains(&(c, hex)) {
        return None;
    }
    let row = pending(rules, state, side).into_iter().find(|&(x, _)| x == c)?.1;
    let source = source_of(rules, row);
    let name = rules.catalog().get(c).name.clone();
    match rules.catalog().get(c).kind {
        Kind::Unit => {
            let u = rules.unit_by_id(id)?;
            let rail = !row.entry.iter().any(|r| r.hexes().any(|h| h == hex));
            rules.relocate(state, u, hex);
            let unit = &mut state.units[u];
            unit.fatigue = 0;
            unit.organized = true;
            unit.exhausted = false;
            unit.demoralized = 0;
            state.campaign.reinforced_on.insert(u, state.turn);
            let how = if rail { " by the railroad (no fatigue, outside the rail limit)" } else { "" };
            state.note(
                format!("{name} arrives in {}{how}: normal side, organized, Fatigue Level 0.", rules.map().label(hex)),
                Some(&source),
            );
        }
        Kind::Leader => {
            let carrier = carriers(rules, state, c).into_iter().find(|&u| state.units[u].hex == Some(hex))?;
            let l = rules.leader_by_id(id)?;
            state.leaders[l].with = Some(carrier);
            state.note(
                format!("{name} arrives in {} with {}.", rules.map().label(hex), rules.unit_name(state, carrier)),
                Some(&source),
            );
        }
    }
    state.reinforcement.placed.insert(c as u16);
    placement(rules, state, side);
    Some(())
}
