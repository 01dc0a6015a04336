//! The Recovery Phase (GCACW 8.0), in the rule's order: (1) units at fatigue 0 may entrench
//! (9.0, 1864 Recovery procedure), build a pontoon bridge (10.1) or repair a bridge (10.3); (3) units at
//! fatigue 0 or 1 reorganize, turn back to their normal side and shed demoralization, unless
//! Demoralize-2; (4) units at fatigue 3 or 4 turn to their exhausted side; (5) every unit loses
//! three fatigue levels. Steps 2 and 6 (forage, supply) do not exist in HSN.

use caisson_hexmap::Hex;
use caisson_kernel::{Choice, Decision, RollRequest};

use crate::catalog::CounterType;
use crate::rules::Gcacw;
use crate::scenario::{Entrenchment, RuleKind};
use crate::state::{Stage, State};
use crate::{bridges, sequence, Side};

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
/// restrictions, while the counter is held), or (`entrench`) out of its entrenching (HSN Sc 3
/// Turn 1: the held units may not entrench).
fn skips_recovery(rules: &Gcacw, state: &State, u: usize, entrench: bool) -> bool {
    let counter = state.units[u].counter as usize;
    let id = rules.unit_id(state, u);
    rules.restricted(state, counter)
        && rules.scenario().rules().any(|r| {
            matches!(r, RuleKind::NoActivation { counters, no_recovery, no_entrench, .. }
                if (*no_recovery || (entrench && *no_entrench)) && counters.iter().any(|c| c == id))
        })
}

/// Whether step 1 may be done at all: not in rain, except rain brought by Late Rain (HSN Sc 2,
/// the only rain of the Basic Game; HSN-A 2.2 Late Rain event, unlike its Rain event).
fn weather_allows(rules: &Gcacw, state: &State) -> bool {
    !state.rain
        || (!state.events.rain
            && (state.events.late_rain || rules.scenario().rules().any(|r| matches!(r, RuleKind::LateRain { .. }))))
}

/// Units of a side that may entrench in step 1: on the map, fatigue 0, not demoralized, not a
/// wagon, a marker to gain, not held out of the phase, and no other activity yet.
#[must_use]
pub fn may_entrench(rules: &Gcacw, state: &State, side: Side, done: &[usize]) -> Vec<usize> {
    // HSN-A 4.0: no entrenching in winter.
    if !weather_allows(rules, state) || crate::winter::on(state) {
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
                && !skips_recovery(rules, state, u, true)
                && next_entrenchment(unit.entrenchment, rules.in_redoubt(state, u)).is_some()
        })
        .collect()
}

/// Begins the Recovery Phase: step 1 for the Union player, then the Confederate, then the rest.
pub fn begin(rules: &Gcacw, state: &mut State) {
    state.note(format!("Recovery Phase of turn {}.", state.turn), Some("GCACW 8.0"));
    step1(rules, state, Side::Union, Vec::new(), Vec::new(), false);
}

fn step1(rules: &Gcacw, state: &mut State, side: Side, done: Vec<usize>, pontoon_hexes: Vec<Hex>, repair_used: bool) {
    let stage = Stage::Recovery { side, done, pontoon_hexes, repair_used, roll: None };
    if options(rules, state, &stage).is_empty() {
        match side {
            Side::Union => step1(rules, state, Side::Confederate, Vec::new(), Vec::new(), false),
            Side::Confederate => finish(rules, state),
        }
    } else {
        state.stage = stage;
    }
}

fn options(rules: &Gcacw, state: &State, stage: &Stage) -> Vec<Choice> {
    let Stage::Recovery { side, done, pontoon_hexes, repair_used, .. } = stage else { return Vec::new() };
    let mut out = Vec::new();
    for u in may_entrench(rules, state, *side, done) {
        let Some(next) = next_entrenchment(state.units[u].entrenchment, rules.in_redoubt(state, u)) else { continue };
        let hex = state.units[u].hex.map(|h| rules.map().label(h)).unwrap_or_default();
        out.push(Choice::new(
            format!("entrench:{}", rules.unit_id(state, u)),
            format!("{} entrenches in {hex} (→ {})", rules.unit_name(state, u), next.name()),
        ));
    }
    if !weather_allows(rules, state) {
        return out;
    }
    for u in 0..state.units.len() {
        if rules.unit_side(state, u) != *side || done.contains(&u) || skips_recovery(rules, state, u, false) {
            continue;
        }
        let name = rules.unit_name(state, u);
        // HSN-A 2.2 Union Pontoon Bridge Prohibition.
        let pontoons = crate::events::pontoons_allowed(state, *side);
        for (a, b) in bridges::pontoon_sites(rules, state, u, pontoon_hexes).into_iter().filter(|_| pontoons) {
            out.push(Choice::new(
                format!("pontoon:{}:{a}-{b}", rules.unit_id(state, u)),
                format!("{name} tries to build a pontoon bridge {a}–{b} (GCACW 10.1)"),
            ));
        }
        if !repair_used {
            for (a, b) in bridges::repair_sites(rules, state, u) {
                out.push(Choice::new(
                    format!("repair:{}:{a}-{b}", rules.unit_id(state, u)),
                    format!("{name} tries to repair the bridge {a}–{b} (GCACW 10.3)"),
                ));
            }
        }
    }
    out
}

/// The step-1 decision.
#[must_use]
pub fn decision(rules: &Gcacw, state: &State) -> Decision {
    let side = match &state.stage {
        Stage::Recovery { side, .. } => *side,
        _ => Side::Union,
    };
    let mut options = options(rules, state, &state.stage);
    options.push(Choice::new("done", "Nothing more in this step"));
    Decision {
        side: side.id().into(),
        kind: "recovery".into(),
        prompt: format!(
            "{side} Recovery Phase: units at fatigue 0 may entrench, build a pontoon bridge or repair a bridge (GCACW 8.0 step 1)"
        ),
        options,
    }
}

/// The bridge roll waiting in step 1, if any.
#[must_use]
pub fn roll_request(rules: &Gcacw, state: &State) -> Option<RollRequest> {
    let Stage::Recovery { side, roll: Some((_, site, repair)), .. } = &state.stage else { return None };
    Some(if *repair { bridges::repair_request(*side, *site) } else { bridges::pontoon_request(rules, *side, *site) })
}

/// Resolves the bridge roll of step 1.
pub fn apply_roll(rules: &Gcacw, state: &mut State, req: &RollRequest, dice: &[u8]) {
    let Stage::Recovery { side, done, pontoon_hexes, repair_used, roll: Some((_, site, repair)) } = state.stage.clone()
    else {
        return;
    };
    if repair {
        bridges::apply_repair(state, site, req, dice);
    } else {
        bridges::apply_pontoon(rules, state, side, site, req, dice);
    }
    step1(rules, state, side, done, pontoon_hexes, repair_used);
}

/// Applies a step-1 option; `None` if unreadable.
pub fn choose(rules: &Gcacw, state: &mut State, option: &str) -> Option<()> {
    let Stage::Recovery { side, mut done, mut pontoon_hexes, mut repair_used, roll: None } = state.stage.clone() else {
        return None;
    };
    if option == "done" {
        match side {
            Side::Union => step1(rules, state, Side::Confederate, Vec::new(), Vec::new(), false),
            Side::Confederate => finish(rules, state),
        }
        return Some(());
    }
    let (verb, rest) = option.split_once(':')?;
    let (id, site) = match rest.split_once(':') {
        Some((id, site)) => (id, bridges::parse_site(site)),
        None => (rest, None),
    };
    let u = rules.unit_by_id(id)?;
    done.push(u);
    match (verb, site) {
        ("entrench", None) => {
            let next = next_entrenchment(state.units[u].entrenchment, rules.in_redoubt(state, u))?;
            state.units[u].entrenchment = Some(next);
            let hex = state.units[u].hex.map(|h| rules.map().label(h)).unwrap_or_default();
            state.note(
                format!("{} entrenches in {hex}: {}.", rules.unit_name(state, u), next.name()),
                Some("GCACW 9.0"),
            );
            step1(rules, state, side, done, pontoon_hexes, repair_used);
        }
        ("pontoon", Some(site)) => {
            pontoon_hexes.extend(state.units[u].hex);
            state.stage = Stage::Recovery { side, done, pontoon_hexes, repair_used, roll: Some((u, site, false)) };
        }
        ("repair", Some(site)) => {
            repair_used = true;
            state.stage = Stage::Recovery { side, done, pontoon_hexes, repair_used, roll: Some((u, site, true)) };
        }
        _ => return None,
    }
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
        // Union cavalry off the map for remounts recovers as if on it (HSN-A 5.1 C).
        if state.units[u].hex.is_none() && !crate::mounts::off_map(state, u) {
            continue;
        }
        if skips_recovery(rules, state, u, false) {
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
    sequence::phase_done(rules, state, sequence::Phase::Recovery);
}
