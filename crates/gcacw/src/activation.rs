//! The Activate Leader action (GCACW 5.2; HSN-B 5.2): a district, corps or division leader picks
//! units of his command within his command radius, rolls one Movement Allowance for all of them,
//! may transfer once to one of them, and then each unit marches (or entrenches) in turn.

use caisson_kernel::{Choice, Decision, Modifier, RollRequest};

use crate::actions;
use crate::catalog::CounterType;
use crate::charts::Mover;
use crate::march;
use crate::rules::{Board, Gcacw};
use crate::scenario::RuleKind;
use crate::state::{Activation, Intent, Stage, State};
use crate::{sequence, Side};

/// HSN-B 5.2: Schofield activates at most five infantry units and three wagon trains.
const SCHOFIELD_LIMITS: (usize, usize) = (5, 3);

/// Whether unit `u` may join leader `l`'s activation, radius aside: his command, a scenario's
/// extra activator, or (Union) a wagon train with any infantry or cavalry leader (HSN-B 2.2).
fn of_command(rules: &Gcacw, state: &State, l: usize, u: usize) -> bool {
    let lc = state.leaders[l].counter as usize;
    let uc = state.units[u].counter as usize;
    let (leader_id, unit_id) = (&rules.catalog().get(lc).id, &rules.catalog().get(uc).id);
    let exclusive = rules.scenario().rules().find_map(|r| match r {
        RuleKind::ExclusiveActivator { counter, leaders } if counter == unit_id => Some(leaders),
        _ => None,
    });
    if let Some(leaders) = exclusive {
        return leaders.contains(leader_id);
    }
    if rules.commands(state, lc, u) {
        return true;
    }
    let unit = rules.catalog().get(uc);
    if unit.ty == CounterType::Wagon && unit.side == Side::Union && rules.catalog().get(lc).side == Side::Union {
        return true;
    }
    extra_activator(rules, lc, uc)
}

/// Whether a scenario rule lets leader counter `lc` activate unit counter `uc` outside his command
/// (HSN Sc 2 and 3: Croxton with Hatch or R. Johnson).
#[must_use]
pub fn extra_activator(rules: &Gcacw, lc: usize, uc: usize) -> bool {
    let (leader_id, unit_id) = (&rules.catalog().get(lc).id, &rules.catalog().get(uc).id);
    // A remounted B-version brigade is the same unit as its A version (HSN-A 5.2; Sc 9 Croxton).
    let a_version = crate::mounts::a_version(rules, unit_id);
    rules.scenario().rules().any(|r| {
        matches!(r, RuleKind::ExtraActivator { counter, leaders, .. }
            if (counter == unit_id || Some(counter.as_str()) == a_version) && leaders.contains(leader_id))
    })
}

/// Units leader `l` may select now.
#[must_use]
pub fn candidates(rules: &Gcacw, state: &State, l: usize, board: &Board) -> Vec<usize> {
    let radius = rules.command_radius(state, l, board);
    rules
        .on_map(state)
        .filter(|&(u, h)| {
            radius.contains(&h)
                && of_command(rules, state, l, u)
                && actions::may_march(rules, state, u)
                && crate::events::march_allowed(state, u)
        })
        .map(|(u, _)| u)
        .collect()
}

/// Whether leader `l` may take an Activate Leader action (GCACW 5.2): not an army leader, on the
/// map, not held back, and with at least one unit to activate.
#[must_use]
pub fn eligible(rules: &Gcacw, state: &State, l: usize, board: &Board) -> bool {
    let c = rules.leader_counter(state, l);
    c.ty != CounterType::Army
        && rules.leader_hex(state, l).is_some()
        && !rules.restricted(state, state.leaders[l].counter as usize)
        && !candidates(rules, state, l, board).is_empty()
}

fn is_schofield(rules: &Gcacw, state: &State, l: usize) -> bool {
    rules.leader_counter(state, l).id == "schofield"
}

/// The selection decision (step 2).
#[must_use]
pub fn select_decision(rules: &Gcacw, state: &State, l: usize, selected: &[(usize, Intent)]) -> Decision {
    let lc = rules.leader_counter(state, l);
    let mut options = Vec::new();
    let (inf, wag) = selected.iter().fold((0, 0), |(i, w), &(u, _)| match rules.unit_type(state, u) {
        CounterType::Wagon => (i, w + 1),
        _ => (i + 1, w),
    });
    for u in candidates(rules, state, l, &rules.board(state)) {
        let (id, name) = (rules.unit_id(state, u), rules.unit_name(state, u));
        if selected.iter().any(|&(s, _)| s == u) {
            options.push(Choice::new(format!("drop:{id}"), format!("Leave {name} out")));
            continue;
        }
        let ty = rules.unit_type(state, u);
        if is_schofield(rules, state, l)
            && ((ty == CounterType::Wagon && wag >= SCHOFIELD_LIMITS.1)
                || (ty != CounterType::Wagon && inf >= SCHOFIELD_LIMITS.0))
        {
            continue;
        }
        let fl = state.units[u].fatigue;
        options.push(Choice::new(format!("march:{id}"), format!("{name} will march (fatigue {fl} → {})", fl + 1)));
        if actions::may_act(rules, state, u)
            && actions::may_entrench(rules, state, u)
            && actions::next_entrenchment(state.units[u].entrenchment, false).is_some()
        {
            options.push(Choice::new(
                format!("entrench:{id}"),
                format!("{name} will entrench (fatigue {fl} → {})", fl + 1),
            ));
        }
    }
    if !selected.is_empty() {
        options.push(Choice::new("done", format!("Done: activate {} unit(s)", selected.len())));
    }
    let chosen: Vec<String> = selected.iter().map(|&(u, i)| format!("{} ({i:?})", rules.unit_name(state, u))).collect();
    Decision {
        side: lc.side.id().into(),
        kind: "activate-select".into(),
        prompt: format!(
            "{} activates: select units of his command in his radius (selected: {}) (GCACW 5.2)",
            lc.name,
            if chosen.is_empty() { "none".into() } else { chosen.join(", ") }
        ),
        options,
    }
}

/// Applies a selection option; `None` if unreadable.
pub fn choose_select(
    rules: &Gcacw,
    state: &mut State,
    l: usize,
    mut selected: Vec<(usize, Intent)>,
    option: &str,
) -> Option<()> {
    if option == "done" {
        let names: Vec<String> = selected.iter().map(|&(u, _)| rules.unit_name(state, u)).collect();
        state.note(
            format!("{} activates {}.", rules.leader_counter(state, l).name, names.join(", ")),
            Some("GCACW 5.2"),
        );
        state.activation =
            Some(Activation { leader: l, ma: None, remaining: selected, transfer_done: false, first_cavalry: None });
        state.stage = Stage::ActivateAllowance;
        return Some(());
    }
    let (verb, id) = option.split_once(':')?;
    let u = rules.unit_by_id(id)?;
    match verb {
        "drop" => selected.retain(|&(s, _)| s != u),
        "march" => selected.push((u, Intent::March)),
        "entrench" => selected.push((u, Intent::Entrench)),
        _ => return None,
    }
    state.stage = Stage::ActivateSelect { leader: l, selected };
    Some(())
}

fn leader_mover(rules: &Gcacw, state: &State, l: usize) -> Mover {
    let lc = state.leaders[l].counter as usize;
    if !rules.catalog().is_cavalry_leader(lc) {
        Mover::InfantryLeader
    } else if rules.catalog().get(lc).ty == CounterType::Division {
        Mover::CavalryDivisionLeader
    } else {
        Mover::CavalryCorpsLeader
    }
}

/// The leader's Movement Allowance roll (step 3).
#[must_use]
pub fn allowance_request(rules: &Gcacw, state: &State) -> Option<RollRequest> {
    let act = state.activation.as_ref()?;
    let c = rules.leader_counter(state, act.leader);
    let dice = rules.charts().movement_allowance(c.side, leader_mover(rules, state, act.leader));
    let mut modifiers = Vec::new();
    if dice.plus != 0 {
        modifiers.push(Modifier::new(
            format!("{} {}", c.side, crate::march::mover_words(leader_mover(rules, state, act.leader))),
            i32::from(dice.plus),
            "GCACW 5.2",
        ));
    }
    modifiers.extend(crate::arrival::bonus(rules, state, &c.id));
    Some(RollRequest {
        side: c.side.id().into(),
        purpose: format!("Movement Allowance of {}'s activation", c.name),
        rule: "GCACW 5.2".into(),
        dice: dice.dice,
        modifiers,
    })
}

/// Applies the leader's allowance roll.
pub fn apply_allowance(rules: &Gcacw, state: &mut State, req: &RollRequest, dice: &[u8]) {
    let infantry_leader = state
        .activation
        .as_ref()
        .is_some_and(|a| !rules.catalog().is_cavalry_leader(state.leaders[a.leader].counter as usize));
    let min = if infantry_leader { rules.opening_min_die(state, CounterType::Infantry) } else { None };
    let (used, raised) = sequence::minimum_die(dice, min);
    // HSN-A 2.2 Night March: the leader's roll counts as at least the night minimum.
    let (used, night) = crate::events::night_minimum(rules, state, &used, !infantry_leader);
    let ma = sequence::total(&used, &req.modifiers).max(0) as u8;
    let raised = raised.or(night).map(|n| format!("{n}: ")).unwrap_or_default();
    sequence::log_roll(state, req, dice, format!("{raised}Movement Allowance {ma} for every unit of the activation"));
    if let Some(act) = state.activation.as_mut() {
        act.ma = Some(ma);
    }
    if transfer_targets(rules, state).is_empty() {
        state.stage = Stage::ActivateNext;
        advance(rules, state);
    } else {
        state.stage = Stage::ActivateTransfer;
    }
}

fn transfer_targets(rules: &Gcacw, state: &State) -> Vec<usize> {
    let Some(act) = state.activation.as_ref() else {
        return Vec::new();
    };
    if rules.pinned(state, act.leader).is_some() {
        return Vec::new();
    }
    let lc = state.leaders[act.leader].counter as usize;
    act.remaining
        .iter()
        .map(|&(u, _)| u)
        .filter(|&u| Some(u) != state.leaders[act.leader].with && rules.may_attach(state, lc, u))
        .collect()
}

/// Army and district leaders in the active leader's hex who may transfer with him to unit `u`
/// (GCACW 5.2 step 5): never with a cavalry leader, and only to a unit they may be attached to.
fn companions(rules: &Gcacw, state: &State, u: usize) -> Vec<usize> {
    let Some(act) = state.activation.as_ref() else { return Vec::new() };
    let active = state.leaders[act.leader].counter as usize;
    if rules.catalog().is_cavalry_leader(active) {
        return Vec::new();
    }
    let here = rules.leader_hex(state, act.leader);
    (0..state.leaders.len())
        .filter(|&a| a != act.leader && here.is_some() && rules.leader_hex(state, a) == here)
        .filter(|&a| matches!(rules.leader_counter(state, a).ty, CounterType::Army | CounterType::District))
        .filter(|&a| rules.may_attach(state, state.leaders[a].counter as usize, u))
        .collect()
}

/// The leader's one transfer (step 5).
#[must_use]
pub fn transfer_decision(rules: &Gcacw, state: &State) -> Decision {
    let l = state.activation.as_ref().map_or(0, |a| a.leader);
    let name = &rules.leader_counter(state, l).name;
    let mut options = Vec::new();
    for u in transfer_targets(rules, state) {
        let (uid, uname) = (rules.unit_id(state, u), rules.unit_name(state, u));
        options.push(Choice::new(format!("transfer:{uid}"), format!("{name} transfers to {uname}")));
        for a in companions(rules, state, u) {
            let c = rules.leader_counter(state, a);
            options.push(Choice::new(
                format!("transfer:{uid}:{}", c.id),
                format!("{name} transfers to {uname}, and {} goes with him", c.name),
            ));
        }
    }
    options.push(Choice::new("stay", format!("{name} stays with his unit")));
    Decision {
        side: rules.leader_counter(state, l).side.id().into(),
        kind: "activate-transfer".into(),
        prompt: format!("{name} may transfer once to a selected unit before they march (GCACW 5.2)"),
        options,
    }
}

/// Applies the transfer decision; `None` if unreadable.
pub fn choose_transfer(rules: &Gcacw, state: &mut State, option: &str) -> Option<()> {
    let l = state.activation.as_ref()?.leader;
    if let Some(rest) = option.strip_prefix("transfer:") {
        let (id, with) = match rest.split_once(':') {
            Some((id, with)) => (id, Some(rules.leader_by_id(with)?)),
            None => (rest, None),
        };
        let u = rules.unit_by_id(id)?;
        if with.is_some_and(|a| !companions(rules, state, u).contains(&a)) {
            return None;
        }
        state.leaders[l].with = Some(u);
        state.note(
            format!("{} transfers to {}.", rules.leader_counter(state, l).name, rules.unit_name(state, u)),
            Some("GCACW 5.2"),
        );
        if let Some(a) = with {
            state.leaders[a].with = Some(u);
            state.note(format!("{} goes with him.", rules.leader_counter(state, a).name), Some("GCACW 5.2"));
        }
    } else if option != "stay" {
        return None;
    }
    if let Some(a) = state.activation.as_mut() {
        a.transfer_done = true;
    }
    state.stage = Stage::ActivateNext;
    advance(rules, state);
    Some(())
}

/// Which unit goes next (steps 6–8).
#[must_use]
pub fn next_decision(rules: &Gcacw, state: &State) -> Decision {
    let act = state.activation.as_ref();
    let options = act
        .map(|a| {
            a.remaining
                .iter()
                .map(|&(u, i)| {
                    Choice::new(
                        format!("next:{}", rules.unit_id(state, u)),
                        format!(
                            "{} {}s next",
                            rules.unit_name(state, u),
                            if i == Intent::March { "marche" } else { "entrenche" }
                        ),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    let side = act.map_or(Side::Union, |a| rules.leader_counter(state, a.leader).side);
    Decision {
        side: side.id().into(),
        kind: "activate-next".into(),
        prompt: "Which activated unit goes next? (GCACW 5.2)".into(),
        options,
    }
}

/// Applies the choice of the next unit; `None` if unreadable.
pub fn choose_next(rules: &Gcacw, state: &mut State, option: &str) -> Option<()> {
    let u = rules.unit_by_id(option.strip_prefix("next:")?)?;
    start_unit(rules, state, u)
}

fn start_unit(rules: &Gcacw, state: &mut State, u: usize) -> Option<()> {
    let cavalry = rules.unit_type(state, u) == CounterType::Cavalry;
    let act = state.activation.as_mut()?;
    let pos = act.remaining.iter().position(|&(x, _)| x == u)?;
    let (_, intent) = act.remaining.remove(pos);
    if intent == Intent::March && cavalry && act.first_cavalry.is_none() {
        act.first_cavalry = Some(u);
    }
    let leader = act.leader;
    let mut ma = act.ma.unwrap_or(0);
    state.activated_once.insert(u);
    if rules.unmounted(state, u) {
        ma = ma.div_ceil(2);
        state
            .note(format!("{}: unmounted, half the allowance, {ma} MP.", rules.unit_name(state, u)), Some("HSN-A 5.5"));
    } else if rules.unit_type(state, u) == CounterType::Wagon
        && rules.catalog().is_cavalry_leader(state.leaders[leader].counter as usize)
    {
        ma = ma.div_ceil(2);
        state.note(
            format!(
                "{}: a wagon with a cavalry leader moves at half the allowance, {ma} MP.",
                rules.unit_name(state, u)
            ),
            Some("HSN-B 2.2"),
        );
    }
    let (changed, why) = crate::events::ma_change(rules, state, u, ma);
    if let Some(why) = why {
        ma = changed;
        state.note(format!("{}: {why}.", rules.unit_name(state, u)), Some("HSN-A 2.2"));
    }
    if let Some((min, source)) = march::minimum_ma(rules, state, u, true) {
        if ma < min {
            ma = min;
            state.note(
                format!("{}: Movement Allowance raised to the scenario minimum {min}.", rules.unit_name(state, u)),
                Some(&source),
            );
        }
    }
    march::activated_unit(rules, state, u, intent, ma);
    Some(())
}

/// After a unit of the activation has finished: the next unit, or the end of the action.
pub fn after_unit(rules: &Gcacw, state: &mut State) {
    state.stage = Stage::ActivateNext;
    advance(rules, state);
}

/// Goes on with the activation: skips units eliminated meanwhile, runs the only remaining unit
/// without asking, and ends the action when none is left.
fn advance(rules: &Gcacw, state: &mut State) {
    if let Some(a) = state.activation.as_mut() {
        let units = &state.units;
        a.remaining.retain(|&(u, _)| units[u].hex.is_some());
    }
    let remaining: Vec<usize> =
        state.activation.as_ref().map(|a| a.remaining.iter().map(|&(u, _)| u).collect()).unwrap_or_default();
    match remaining.as_slice() {
        [] => {
            state.activation = None;
            sequence::next_action_phase(rules, state);
        }
        [only] => {
            let _ = start_unit(rules, state, *only);
        }
        _ => {}
    }
}
