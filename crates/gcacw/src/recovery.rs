//! The Recovery Phase (GCACW 8.0), in the rule's order: (1) units at fatigue 0 may entrench
//! (9.0, 1864 Recovery procedure) — bridges come with the bridge rules (10.0); (3) units at
//! fatigue 0 or 1 reorganize, turn back to their normal side and shed demoralization, unless
//! Demoralize-2; (4) units at fatigue 3 or 4 turn to their exhausted side; (5) every unit loses
//! three fatigue levels. Steps 2 and 6 (forage, supply) do not exist in HSN.

use caisson_kernel::{Choice, Decision};

use crate::catalog::CounterType;
use crate::rules::Gcacw;
use crate::scenario::{Entrenchment, RuleKind};
use crate::state::{Stage, State};
use crate::{sequence, Side};

/// The next marker when a unit entrenches in the Recovery Phase (GCACW 9.0, 1864): a bigger step
/// than the Entrenchment action's.
#[must_use]
pub fn next_entrenchment(now: Option<Entrenchment>, in_redoubt: bool) -> Option<Entrenchment> {
    use Entrenchment::*;
    Some(match now {
        None if in_redoubt => FortBuild1,
        None => Breastworks,
        Some(Abatis) => FortBuild1,
        Some(BreastworksBuild) => FortBuild2,
        Some(Breastworks | FortBuild1 | FortBuild2) => FortComplete,
        Some(FortComplete) => return None,
    })
}

/// Whether a scenario rule keeps this counter out of the Recovery Phase now (HSN Sc 2, 9 turn-1
/// restrictions, while the counter is held).
fn skips_recovery(rules: &Gcacw, state: &State, u: usize) -> bool {
    let counter = state.units[u].counter as usize;
    let id = rules.unit_id(state, u);
    rules.restricted(state, counter)
        && rules.scenario().rules().any(|r| {
            matches!(r, RuleKind::NoActivation { counters, no_recovery: true, .. } if counters.iter().any(|c| c == id))
        })
}

/// Units of a side that may entrench in step 1: on the map, fatigue 0, not demoralized, not a
/// wagon, a marker to gain, and not held out of the phase. Rain stops it, except rain brought by
/// Late Rain (HSN Sc 2), the only rain of the Basic Game.
#[must_use]
pub fn may_entrench(rules: &Gcacw, state: &State, side: Side, done: &[usize]) -> Vec<usize> {
    let late_rain_only = rules.scenario().rules().any(|r| matches!(r, RuleKind::LateRain { .. }));
    if state.rain && !late_rain_only {
        return Vec::new();
    }
    (0..state.units.len())
        .filter(|&u| {
            let unit = &state.units[u];
            rules.unit_side(state, u) == side
                && unit.hex.is_some()
                && unit.fatigue == 0
                && unit.demoralized == 0
                && rules.unit_type(state, u) != CounterType::Wagon
                && !done.contains(&u)
                && !skips_recovery(rules, state, u)
                && next_entrenchment(unit.entrenchment, rules.in_redoubt(state, u)).is_some()
        })
        .collect()
}

/// Begins the Recovery Phase: step 1 for the Union player, then the Confederate, then the rest.
pub fn begin(rules: &Gcacw, state: &mut State) {
    state.note(format!("Recovery Phase of turn {}.", state.turn), Some("GCACW 8.0"));
    entrench_step(rules, state, Side::Union, Vec::new());
}

fn entrench_step(rules: &Gcacw, state: &mut State, side: Side, done: Vec<usize>) {
    if may_entrench(rules, state, side, &done).is_empty() {
        match side {
            Side::Union => entrench_step(rules, state, Side::Confederate, Vec::new()),
            Side::Confederate => finish(rules, state),
        }
    } else {
        state.stage = Stage::RecoveryEntrench { side, done };
    }
}

/// The step-1 decision: which units entrench.
#[must_use]
pub fn decision(rules: &Gcacw, state: &State, side: Side, done: &[usize]) -> Decision {
    let mut options: Vec<Choice> = may_entrench(rules, state, side, done)
        .into_iter()
        .filter_map(|u| {
            let next = next_entrenchment(state.units[u].entrenchment, rules.in_redoubt(state, u))?;
            let hex = state.units[u].hex.map(|h| rules.map().label(h)).unwrap_or_default();
            Some(Choice::new(
                format!("entrench:{}", rules.unit_id(state, u)),
                format!("{} entrenches in {hex} (→ {})", rules.unit_name(state, u), next.name()),
            ))
        })
        .collect();
    options.push(Choice::new("done", "No more entrenching"));
    Decision {
        side: side.id().into(),
        kind: "recovery-entrench".into(),
        prompt: format!("{side} Recovery Phase: units at fatigue 0 may entrench (GCACW 8.0 step 1, 9.0)"),
        options,
    }
}

/// Applies a step-1 option; `None` if unreadable.
pub fn choose(rules: &Gcacw, state: &mut State, side: Side, mut done: Vec<usize>, option: &str) -> Option<()> {
    if option == "done" {
        match side {
            Side::Union => entrench_step(rules, state, Side::Confederate, Vec::new()),
            Side::Confederate => finish(rules, state),
        }
        return Some(());
    }
    let u = rules.unit_by_id(option.strip_prefix("entrench:")?)?;
    if !may_entrench(rules, state, side, &done).contains(&u) {
        return None;
    }
    let next = next_entrenchment(state.units[u].entrenchment, rules.in_redoubt(state, u))?;
    state.units[u].entrenchment = Some(next);
    let hex = state.units[u].hex.map(|h| rules.map().label(h)).unwrap_or_default();
    state.note(format!("{} entrenches in {hex}: {}.", rules.unit_name(state, u), next.name()), Some("GCACW 9.0"));
    done.push(u);
    entrench_step(rules, state, side, done);
    Some(())
}

/// Steps 3–5, then the next turn.
fn finish(rules: &Gcacw, state: &mut State) {
    let keep_disorganized = |state: &State, u: usize| {
        let id = rules.unit_id(state, u);
        rules.scenario().rules().any(|r| {
            matches!(r, RuleKind::KeepDisorganized { counters, turns }
                if turns.contains(&state.turn) && counters.iter().any(|c| c == id))
        })
    };
    for u in 0..state.units.len() {
        if state.units[u].hex.is_none() {
            continue;
        }
        if skips_recovery(rules, state, u) {
            state.note(format!("{} does not recover this turn (scenario rule).", rules.unit_name(state, u)), None);
            continue;
        }
        let keep = keep_disorganized(state, u);
        let unit = &mut state.units[u];
        let mut changes = Vec::new();
        // Step 3: fatigue 0 or 1.
        if unit.fatigue <= 1 {
            let d2 = unit.demoralized == 2;
            if !unit.organized && !d2 && !keep {
                unit.organized = true;
                changes.push("reorganizes".to_string());
            }
            if unit.exhausted && !d2 {
                unit.exhausted = false;
                changes.push("returns to its normal side".to_string());
            }
            if unit.demoralized > 0 {
                unit.demoralized -= 1;
                changes.push(if unit.demoralized == 0 {
                    "is no longer demoralized".to_string()
                } else {
                    "recovers to Demoralize-1".to_string()
                });
            }
        }
        // Step 4: fatigue 3 or 4.
        if unit.fatigue >= 3 && !unit.exhausted {
            unit.exhausted = true;
            changes.push("turns to its exhausted side".to_string());
        }
        // Step 5.
        if unit.fatigue > 0 {
            let before = unit.fatigue;
            unit.fatigue = unit.fatigue.saturating_sub(3);
            changes.push(format!("fatigue {before} → {}", unit.fatigue));
        }
        if !changes.is_empty() {
            let text = format!("{}: {}.", rules.unit_name(state, u), changes.join(", "));
            state.note(text, Some("GCACW 8.0"));
        }
    }
    sequence::next_turn(rules, state);
}
