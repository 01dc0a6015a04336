//! [SR 12.1b, 12.2c, 12.3, EX 12.3, 2.10k] The retreats and Panic a Cohesion Test orders, in
//! play: the Lead Unit's (and a Close Combat attacker's) retreats first, then the Panic picks
//! (lowest modified CR first, the enemy player choosing among ties), each panicked unit's Morale
//! Hit with any Break Test die, then the retreats of the panicked units and of the units stacked
//! with the Lead Unit ("RA#": the greater of the two distances). Each retreat follows a legal path
//! of [`cohesion::retreat_paths`] over [`StateGround`]: the owner picks among equal ones, a unit
//! with no path fails (SR 12.3: Broken Box 3, off the map Broken Box 1, artillery and Fragile
//! units eliminated), a Chaplin crossing off a ford or bridge costs a Morale Hit that never breaks.
//!
//! A retreat is made hex by hex: each hex after the first that the unit leaves next to the enemy
//! stops it for their Opportunity Fire first ([`Stage::RetreatFire`], SR 10.7, 12.3 note); a new
//! Retreat from that fire replaces the rest of the path, the hexes left added to it (PC33).

use caisson_hexmap::Hex;
use caisson_kernel::{Choice, Decision, Pending, RuleError};

use crate::catalog::Side;
use crate::cohesion::{self, CombatUnit, Need, PanicCandidate, PanicPick, RetreatPath, RetreatPlan, Status};
use crate::combat_step::{bare_unit, stack_at};
use crate::ground::StateGround;
use crate::rules::BlindSwords;
use crate::sequence::occupy;
use crate::state::{other, side_id, Aftermath, Place, RetreatOrder, RetreatWalk, Stage, State, Then};

/// Writes a unit as combat left it back to the state: face, SP and CR, Morale Hits, and where it
/// is (SR 12.5, 12.6, 12.8).
pub fn write_back(state: &mut State, i: usize, c: &CombatUnit) {
    let face = c.face();
    let u = &mut state.units[i];
    u.battleworn = c.battleworn;
    u.sp_halves = face.sp.halves();
    u.cr = face.cr;
    u.morale_hits = c.morale.penalty();
    u.shaken = false;
    match c.status {
        Status::OnMap => {}
        Status::Broken(n) => {
            u.place = Place::Broken(n);
            u.skirmish = false;
        }
        Status::Available => {
            u.place = Place::Broken(0);
            u.skirmish = false;
        }
        Status::Eliminated => u.place = Place::Eliminated,
    }
}

/// Starts the work a test left (called once the test is written back).
pub fn start(state: &mut State, after: Aftermath) {
    state.stage = Stage::Aftermath { after };
}

/// What comes next in an aftermath.
enum Next {
    /// A retreat to make (`later`: from the after-Panic list).
    Retreat { order: RetreatOrder, later: bool, plan: RetreatPlan },
    /// The Panic pick.
    Pick(PanicPick),
    /// A panicking unit's Morale Hit, done or waiting for a Break Test die.
    Hit(usize, Result<(cohesion::Stack, usize, Option<cohesion::Retreat>, Vec<cohesion::Step>), Need>),
    /// Nothing left.
    Done,
}

fn plan(rules: &BlindSwords, state: &State, order: &RetreatOrder) -> Option<RetreatPlan> {
    let from = state.hex_of(order.unit)?;
    let ground = StateGround::new(rules, state, order.unit, order.causers.clone());
    Some(cohesion::retreat_paths(&ground, state.units[order.unit].side, from, order.hexes))
}

/// The Panic candidates now (SR 12.1b): units of the tested side in the tested hex or next to
/// it, not the Lead Unit nor already picked, with their modified CR.
fn candidates(rules: &BlindSwords, state: &State, a: &Aftermath) -> Vec<PanicCandidate> {
    let map = &rules.data().map;
    let side = other(a.by);
    let mut hexes: Vec<_> = state
        .units
        .iter()
        .enumerate()
        .filter(|(i, u)| u.side == side && *i != a.lead && !a.panicking.contains(i))
        .filter_map(|(_, u)| if let Place::Map(h) = u.place { Some(h) } else { None })
        .filter(|h| map.distance(*h, a.target) <= 1)
        .collect();
    hexes.sort();
    hexes.dedup();
    let mut out = Vec::new();
    for h in hexes {
        let (stack, ids) = stack_at(rules, state, h);
        for (k, &i) in ids.iter().enumerate() {
            if i != a.lead && !a.panicking.contains(&i) {
                out.push(PanicCandidate { unit: state.units[i].id.clone(), cr: stack.modified_cr(k).0 });
            }
        }
    }
    out
}

fn next(rules: &BlindSwords, state: &State, a: &Aftermath) -> Next {
    if let Some(order) = a.retreats.first() {
        let plan = plan(rules, state, order).unwrap_or(RetreatPlan::Paths(Vec::new()));
        return Next::Retreat { order: order.clone(), later: false, plan };
    }
    if a.panic > 0 {
        return Next::Pick(cohesion::panic_pick(&candidates(rules, state, a), a.panic));
    }
    if let Some(&i) = a.panicking.first() {
        let Some(h) = state.hex_of(i) else { return Next::Hit(i, Ok((empty(), 0, None, Vec::new()))) };
        let (stack, ids) = stack_at(rules, state, h);
        let k = ids.iter().position(|j| *j == i).unwrap_or(0);
        let ra = a.later.iter().find(|o| o.unit == i).map(|o| o.hexes);
        let r = cohesion::apply_panic(&rules.data().charts, &stack, k, ra, &a.dice)
            .map(|(stack, steps, retreat)| (stack, k, retreat, steps));
        return Next::Hit(i, r);
    }
    if let Some(order) = a.later.first() {
        let plan = plan(rules, state, order).unwrap_or(RetreatPlan::Paths(Vec::new()));
        return Next::Retreat { order: order.clone(), later: true, plan };
    }
    Next::Done
}

fn empty() -> cohesion::Stack {
    cohesion::Stack { units: Vec::new(), allows_support: false }
}

fn path_label(path: &RetreatPath) -> String {
    let mut text = path.hexes.iter().map(ToString::to_string).collect::<Vec<_>>().join(" → ");
    if !path.exposed.is_empty() {
        let near = path.exposed.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ");
        text.push_str(&format!(" (next to the enemy in {near})"));
    }
    if path.river_crossings > 0 {
        text.push_str(&format!(" (crosses the Chaplin: {} Morale Hit)", path.river_crossings));
    }
    text
}

fn decide(side: Side, kind: &str, prompt: String, options: Vec<Choice>) -> Pending {
    Pending::Decide(Decision { side: side_id(side).into(), kind: kind.into(), prompt, options })
}

/// What an aftermath waits for: the owner's pick among equal retreat paths, the enemy's pick
/// among Panic ties, or a Break Test die; `None` when the next step needs nobody.
#[must_use]
pub fn pending(rules: &BlindSwords, state: &State) -> Option<Pending> {
    let Stage::Aftermath { after } = &state.stage else { return None };
    match next(rules, state, after) {
        Next::Retreat { order, plan: RetreatPlan::Paths(paths), .. } if paths.len() > 1 => {
            let u = &state.units[order.unit];
            let options =
                paths.iter().enumerate().map(|(k, p)| Choice::new(format!("path:{k}"), path_label(p))).collect();
            let prompt = format!("{}: retreat {} hexes ({}; SR 12.3, EX 12.3)", u.name, order.hexes, order.rule);
            Some(decide(u.side, "retreat", prompt, options))
        }
        Next::Pick(pick) if pick.choose > 0 => {
            let options = pick
                .tied
                .iter()
                .filter_map(|id| state.unit_index(id))
                .map(|i| Choice::new(format!("unit:{}", state.units[i].id), state.units[i].name.clone()))
                .collect();
            let prompt = format!("{}: pick a unit to Panic among equal ratings (SR 12.1b)", after.by);
            Some(decide(after.by, "panic", prompt, options))
        }
        Next::Hit(i, Err(Need::Roll(mut r))) => {
            r.side = side_id(state.units[i].side).into();
            Some(Pending::Roll(r))
        }
        _ => None,
    }
}

fn bad(option: &str) -> RuleError {
    RuleError::NotAnOption(option.to_string())
}

/// Applies the owner's pick of a retreat path or the enemy's pick of a panicking unit.
///
/// # Errors
/// The option is not offered.
pub fn choose(rules: &BlindSwords, state: &mut State, option: &str) -> Result<(), RuleError> {
    let Stage::Aftermath { after } = state.stage.clone() else { return Err(bad(option)) };
    let (verb, arg) = option.split_once(':').ok_or_else(|| bad(option))?;
    match (next(rules, state, &after), verb) {
        (Next::Retreat { order, later, plan: RetreatPlan::Paths(paths) }, "path") if paths.len() > 1 => {
            let k: usize = arg.parse().map_err(|_| bad(option))?;
            let path = paths.get(k).ok_or_else(|| bad(option))?;
            retreat(rules, state, after, &order, later, path);
        }
        (Next::Pick(pick), "unit") if pick.choose > 0 && pick.tied.iter().any(|t| t == arg) => {
            let mut after = after;
            let picked: Vec<usize> =
                pick.forced.iter().map(String::as_str).chain([arg]).filter_map(|id| state.unit_index(id)).collect();
            after.panic = after.panic.saturating_sub(u8::try_from(picked.len()).unwrap_or(u8::MAX));
            for &i in &picked {
                state.note(format!("{} must Panic", state.units[i].name), "SR 12.1b");
            }
            after.panicking.extend(picked);
            state.stage = Stage::Aftermath { after };
        }
        _ => return Err(bad(option)),
    }
    Ok(())
}

/// Takes a Break Test die for a panicking unit; returns the text to log with it.
#[must_use]
pub fn roll(state: &mut State, dice: &[u8]) -> String {
    let Stage::Aftermath { after } = &mut state.stage else { return String::new() };
    after.dice.extend_from_slice(dice);
    let name = after.panicking.first().map(|&i| state.units[i].name.clone()).unwrap_or_default();
    format!("Break Test die for {name}: {}", dice.first().copied().unwrap_or(0))
}

/// Does the next step of an aftermath that needs nobody; `false` when it waits for a choice or
/// a die (or the game is not in an aftermath).
pub fn step(rules: &BlindSwords, state: &mut State) -> bool {
    let Stage::Aftermath { after } = state.stage.clone() else { return false };
    let mut after = after;
    match next(rules, state, &after) {
        Next::Retreat { order, later, plan } => match plan {
            RetreatPlan::Paths(paths) if paths.len() > 1 => return false,
            _ if state.hex_of(order.unit).is_none() => {
                drop_order(&mut after, later);
                state.stage = Stage::Aftermath { after };
            }
            RetreatPlan::Paths(paths) => match paths.first() {
                Some(p) => retreat(rules, state, after, &order, later, p),
                None => fail(rules, state, after, &order, later, false),
            },
            RetreatPlan::OffMap { from } => {
                if crate::special::retreat_exit(rules, state, order.unit, &from) {
                    after.done.push((order.unit, order.hexes));
                    drop_order(&mut after, later);
                    state.stage = Stage::Aftermath { after };
                } else {
                    fail(rules, state, after, &order, later, true);
                }
            }
            RetreatPlan::Blocked => fail(rules, state, after, &order, later, false),
        },
        Next::Pick(pick) => {
            if pick.choose > 0 {
                return false;
            }
            if pick.forced.is_empty() {
                state.note("No unit is eligible to Panic (modified CR 2 or less)", "SR 12.1b");
            }
            let picked: Vec<usize> = pick.forced.iter().filter_map(|id| state.unit_index(id)).collect();
            for &i in &picked {
                state.note(format!("{} must Panic", state.units[i].name), "SR 12.1b");
            }
            after.panicking.extend(picked);
            after.panic = 0;
            state.stage = Stage::Aftermath { after };
        }
        Next::Hit(i, Err(_)) if state.hex_of(i).is_some() => return false,
        Next::Hit(i, result) => {
            after.panicking.retain(|j| *j != i);
            after.dice.clear();
            if let Ok((stack, k, retreat, steps)) = result {
                for s in &steps {
                    state.note(format!("{}: {}", state.units[i].name, s.what), s.rule);
                }
                if let Some(u) = stack.units.get(k) {
                    write_back(state, i, u);
                }
                after.later.retain(|o| o.unit != i);
                if let Some(r) = retreat {
                    let causers = after.causers.clone();
                    after.later.push(RetreatOrder { unit: i, hexes: r.hexes, rule: r.rule.to_string(), causers });
                }
            }
            state.stage = Stage::Aftermath { after };
        }
        Next::Done => finish(rules, state, after),
    }
    true
}

fn drop_order(after: &mut Aftermath, later: bool) {
    let list = if later { &mut after.later } else { &mut after.retreats };
    if !list.is_empty() {
        list.remove(0);
    }
}

/// Moves a unit along its retreat path (SR 12.3), with the Chaplin's Morale Hits (EX 2.10k).
fn retreat(
    rules: &BlindSwords,
    state: &mut State,
    mut after: Aftermath,
    order: &RetreatOrder,
    later: bool,
    path: &RetreatPath,
) {
    let Some(origin) = state.hex_of(order.unit) else {
        drop_order(&mut after, later);
        state.stage = Stage::Aftermath { after };
        return;
    };
    lift_chaos(state, origin);
    let walk = RetreatWalk {
        after,
        order: order.clone(),
        later,
        origin,
        hexes: path.hexes.clone(),
        step: 0,
        river_crossings: path.river_crossings,
        label: path_label(path),
        outer: None,
    };
    walk_on(rules, state, walk);
}

/// Moves a retreating unit on along its path, stopping before it leaves a hex next to the
/// enemy other than the first (SR 10.7, 12.3 note) for their Opportunity Fire.
fn walk_on(rules: &BlindSwords, state: &mut State, mut walk: RetreatWalk) {
    let i = walk.order.unit;
    while let Some(&next) = walk.hexes.get(walk.step) {
        if let Some(here) = state.hex_of(i).filter(|_| walk.step > 0) {
            if crate::combat_step::opportunity_due(rules, state, i, here) {
                state.note(
                    format!(
                        "{} is to retreat out of {here}, next to the enemy: Opportunity Fire first",
                        state.units[i].name
                    ),
                    "SR 10.7, 12.3",
                );
                walk.outer = state.volley.take().map(Box::new);
                state.stage = Stage::RetreatFire { walk, fired: Vec::new() };
                return;
            }
        }
        occupy(rules, state, i, next);
        walk.step += 1;
    }
    arrive(rules, state, walk);
}

/// The hexes where a retreat stands paused for Opportunity Fire, the fires it set aside
/// included: a unit may pass through a hex it may not end its retreat in (SR 12.3).
#[must_use]
pub fn paused_in(state: &State) -> Vec<Hex> {
    fn walk_hexes(stage: &Stage, out: &mut Vec<Hex>) {
        if let Stage::RetreatFire { walk, .. } = stage {
            out.extend(walk.step.checked_sub(1).and_then(|k| walk.hexes.get(k)));
            if let Some(v) = &walk.outer {
                walk_hexes(&v.then, out);
            }
        }
    }
    let mut out = Vec::new();
    walk_hexes(&state.stage, &mut out);
    if let Some(v) = &state.volley {
        walk_hexes(&v.then, &mut out);
    }
    out
}

/// The retreat goes on after the Opportunity Fire of a [`Stage::RetreatFire`]: the fire set
/// aside comes back and the unit takes its next step.
pub fn resume(rules: &BlindSwords, state: &mut State) {
    let Stage::RetreatFire { mut walk, .. } = state.stage.clone() else { return };
    state.volley = walk.outer.take().map(|v| *v);
    if let Some(&next) = walk.hexes.get(walk.step) {
        occupy(rules, state, walk.order.unit, next);
        walk.step += 1;
    }
    walk_on(rules, state, walk);
}

/// The Opportunity Fire of a [`Stage::RetreatFire`] retreated or broke the unit: its new retreat
/// (already made) replaces the rest of this one, which is over.
pub fn cut(state: &mut State) {
    let Stage::RetreatFire { mut walk, .. } = state.stage.clone() else { return };
    state.volley = walk.outer.take().map(|v| *v);
    let name = state.units[walk.order.unit].name.clone();
    state.note(format!("{name}'s retreat from {} ends in the new one", walk.origin), "SR 12.3");
    let mut after = walk.after;
    after.done.push((walk.order.unit, walk.order.hexes));
    drop_order(&mut after, walk.later);
    state.stage = Stage::Aftermath { after };
}

/// The end of a retreat's path, with the Chaplin's Morale Hits (EX 2.10k).
fn arrive(rules: &BlindSwords, state: &mut State, walk: RetreatWalk) {
    let RetreatWalk { mut after, order, later, origin, river_crossings, label, outer, .. } = walk;
    state.volley = outer.map(|v| *v).or_else(|| state.volley.take());
    let i = order.unit;
    let name = state.units[i].name.clone();
    state.note(format!("{name} retreats {} hexes from {origin}: {label}", order.hexes), "SR 12.3");
    if river_crossings > 0 {
        if let Some(h) = state.hex_of(i) {
            let (stack, ids) = stack_at(rules, state, h);
            let k = ids.iter().position(|j| *j == i).unwrap_or(0);
            if let Ok((stack, steps)) =
                cohesion::morale_hits(&rules.data().charts, &stack, k, river_crossings, false, &[])
            {
                for s in &steps {
                    state.note(format!("{name}: {} (crossed the Chaplin)", s.what), "EX 2.10k");
                }
                if let Some(u) = stack.units.get(k) {
                    write_back(state, i, u);
                }
            }
        }
    }
    after.done.push((i, order.hexes));
    drop_order(&mut after, later);
    state.stage = Stage::Aftermath { after };
}

/// The Fog of War chit placed by Battlefield Chaos leaves `hex` when a unit under it retreats
/// (EX 7.3b; ruling PC38: any Retreat result carried out, a failed one included).
fn lift_chaos(state: &mut State, hex: Hex) {
    if state.chaos == Some(hex) {
        state.chaos = None;
        state
            .note(format!("A unit under the Battlefield Chaos chit in {hex} retreats: the chit is removed"), "EX 7.3b");
    }
}

/// A unit with no legal retreat (SR 12.3, EX 12.3).
fn fail(
    rules: &BlindSwords,
    state: &mut State,
    mut after: Aftermath,
    order: &RetreatOrder,
    later: bool,
    off_map: bool,
) {
    let i = order.unit;
    if let Some(h) = state.hex_of(i) {
        lift_chaos(state, h);
    }
    if let Some(mut c) = bare_unit(rules, state, i) {
        // A scenario whose play area is part of the map names the box of a unit that would
        // have to leave it (EX 16.0c: Broken Box 3, ruling A-55).
        let restricted = rules.scenario().area.retreat_blocked_box.filter(|_| off_map);
        c.status = match (cohesion::failed_retreat(&c, off_map && restricted.is_none()), restricted) {
            (Status::Broken(_), Some(n)) => Status::Broken(n),
            (status, _) => status,
        };
        if c.status != Status::Eliminated {
            c.battleworn = true;
            c.morale = cohesion::Morale::Steady;
        }
        let name = state.units[i].name.clone();
        let (what, rule) = match (c.status, off_map, restricted) {
            (Status::Eliminated, _, _) => ("cannot retreat: eliminated (artillery or Fragile)".to_string(), "SR 12.3"),
            (_, true, Some(n)) => (format!("cannot retreat inside the scenario's area: Broken Box {n}"), "EX 16.0c"),
            (_, true, None) => ("retreats off the map: Broken Box 1".to_string(), "EX 12.3"),
            _ => ("cannot retreat: Broken Box 3".to_string(), "SR 12.3"),
        };
        state.note(format!("{name} {what}"), rule);
        write_back(state, i, &c);
    }
    after.done.push((i, 0));
    drop_order(&mut after, later);
    state.stage = Stage::Aftermath { after };
}

fn finish(rules: &BlindSwords, state: &mut State, after: Aftermath) {
    match after.then {
        Then::Fire { firer, retreating } => crate::combat_step::fired(rules, state, firer, &retreating),
        Then::Close { .. } => crate::close_step::after_test(rules, state, after),
    }
}
