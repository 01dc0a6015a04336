//! [SR 6.2, 9, 12.1] Fire Combat in play: the pure procedures of [`crate::fire`] and
//! [`crate::cohesion`] fed from the game state, their dice asked through [`RollRequest`]s and
//! their results written back.
//!
//! Enforced: the artillery fire of the Artillery Step (SR 6.2): each legal target offered with
//! its preview (SP, column, itemised shifts), the owner's pick of the Lead Unit among ties
//! (SR 9.2), the d66 on the CRT (SR 9.3), and the Fire Combat Cohesion Test it calls for with its
//! Break Test dice (SR 12.1, 12.6): depletion, the Battleworn flip, Morale Hits and units broken to
//! the Broken Track or eliminated. Not yet enforced: the retreats and Panic a test orders (logged
//! as such), a brigade's own Fire Combat Step, Close Combat and rally.

use caisson_hexmap::algorithms::LineStep;
use caisson_hexmap::{Hex, Hexside, TacticalTerrain};
use caisson_kernel::{Choice, Decision, Pending, RollRequest, RuleError};

use crate::catalog::{Side, UnitType};
use crate::charts::D66;
use crate::cohesion::{self, CombatUnit, FireTest, Morale, Nearby, Need, Stack, Status};
use crate::fire::{self, FireAssessment, FireInput, FireKind, Firer, Over, Target};
use crate::los;
use crate::movement::terrain_key;
use crate::rules::BlindSwords;
use crate::state::{other, side_id, Place, Stage, State};

/// The Morale Hit marker a unit carries (SR 12.5): the hits counted, or the Shaken status it set
/// up with.
fn morale_of(hits: u8, shaken: bool) -> Morale {
    match hits.max(u8::from(shaken)) {
        0 => Morale::Steady,
        1 => Morale::Shaken,
        _ => Morale::Disrupted,
    }
}

/// Whether a hex lets its units give and get Unit Support (EX 12.4 iv: the TEC's `support`).
fn hex_support(rules: &BlindSwords, hex: Hex) -> bool {
    let terrain = rules.data().map.tactical(hex).map_or("clear", terrain_key);
    rules.data().charts.terrain.hex_effects(terrain).is_none_or(|fx| fx.support)
}

/// Unit `i` of the state as combat sees it, support from outside its hex not yet judged.
pub(crate) fn bare_unit(rules: &BlindSwords, state: &State, i: usize) -> Option<CombatUnit> {
    let u = &state.units[i];
    let mut c = CombatUnit::from_catalog(rules.data().catalog.unit(&u.id)?);
    c.battleworn = u.battleworn || c.fresh.is_none();
    c.morale = morale_of(u.morale_hits, u.shaken);
    c.skirmish = u.skirmish;
    c.chaos = matches!(u.place, Place::Map(h) if state.chaos == Some(h));
    Some(c)
}

/// The units of a hex as a [`Stack`], with support from adjacent hexes judged (SR 12.4), and
/// their indexes in the state.
pub(crate) fn stack_at(rules: &BlindSwords, state: &State, hex: Hex) -> (Stack, Vec<usize>) {
    let ids: Vec<usize> = state.units_at(hex).collect();
    let around: Vec<(CombatUnit, bool)> = rules
        .data()
        .map
        .neighbors(hex)
        .flat_map(|(_, n)| state.units_at(n).map(move |j| (j, n)))
        .filter_map(|(j, n)| Some((bare_unit(rules, state, j)?, hex_support(rules, n))))
        .collect();
    let nearby: Vec<Nearby<'_>> =
        around.iter().map(|(unit, allows)| Nearby { unit, hex_allows_support: *allows }).collect();
    let allows_support = hex_support(rules, hex);
    let units = ids
        .iter()
        .filter_map(|&i| {
            let mut c = bare_unit(rules, state, i)?;
            c.nearby_support = cohesion::supported(&c, allows_support, &nearby, false);
            Some(c)
        })
        .collect();
    (Stack { units, allows_support }, ids)
}

/// The hexes a line enters its target from (the last step before the target).
fn entries(line: &[LineStep]) -> Vec<Hex> {
    match line.len().checked_sub(2).and_then(|k| line.get(k)) {
        Some(LineStep::Hex(h)) => vec![*h],
        Some(LineStep::Hexside(a, b)) => vec![*a, *b],
        None => Vec::new(),
    }
}

/// The fire of battery `firer` at `target` with Lead Unit `lead` (an index into the target's
/// stack), as [`fire::assess`] wants it; `None` when the line of sight cannot be traced.
fn fire_input(rules: &BlindSwords, state: &State, firer: usize, target: Hex, lead: usize) -> Option<FireInput> {
    let map = &rules.data().map;
    let u = &state.units[firer];
    let Place::Map(from) = u.place else { return None };
    let line = los::line_of_sight(map, from, target, |h| state.units_at(h).next().is_some()).ok()?;
    let c = bare_unit(rules, state, firer)?;
    let over = line
        .over_units
        .iter()
        .map(|h| Over {
            friendly: state.occupant(*h) == Some(u.side),
            adjacent_to_target: map.distance(*h, target) == 1,
        })
        .collect();
    let brigade_hold = u.brigade.as_deref().and_then(|b| state.brigade(b)).is_some_and(|b| b.on_hold);
    let f = Firer {
        id: u.id.clone(),
        side: u.side,
        ty: u.ty,
        brigade: u.brigade.clone(),
        hex: from,
        sp: c.printed_sp(),
        morale: c.morale,
        weapon: c.weapon,
        range: u32::from(map.distance(from, target)),
        sight: line.sight,
        over,
        skirmish: u.skirmish,
        in_woods: map.tactical(from) == Some(TacticalTerrain::Woods),
        on_hold: u.on_hold || brigade_hold,
        chaos: c.chaos,
        attacked_by_cavalry: false,
    };
    let (stack, _) = stack_at(rules, state, target);
    let lead_unit = stack.units.get(lead)?;
    // EX 9.3 iv (ruling A-16): the target directly behind a fence the line of fire crosses.
    let fence = entries(&line.line).into_iter().find_map(|e| {
        let side = map.hexside(e, target);
        [Hexside::STONE_FENCE, Hexside::WOOD_FENCE].into_iter().find(|f| side.contains(*f))
    });
    let t = Target {
        hex: target,
        terrain: map.tactical(target).map_or("clear", terrain_key).to_string(),
        fence: fence.and_then(|f| f.words().next()).map(str::to_string),
        lead_cavalry: lead_unit.ty == UnitType::Cavalry,
        lead_skirmish: lead_unit.skirmish,
    };
    Some(FireInput { kind: FireKind::Artillery, firers: vec![f], target: t, flanking: false })
}

/// The assessment of a fire, if it is legal (SR 9.1-9.3).
fn assessment(rules: &BlindSwords, state: &State, firer: usize, target: Hex, lead: usize) -> Option<FireAssessment> {
    let input = fire_input(rules, state, firer, target, lead)?;
    fire::assess(&rules.data().charts, &input).ok()
}

/// The longest range of a weapon, to skip targets that cannot be in reach.
fn reach(rules: &BlindSwords, unit: &CombatUnit) -> u16 {
    let arm = if unit.ty.is_artillery() { crate::charts::Arm::Artillery } else { crate::charts::Arm::SmallArms };
    let w = rules.data().charts.weapons.weapon(arm, fire::weapon_code(unit.weapon));
    let far = w.map_or(0, |w| [w.canister, w.effective, w.long, w.extreme].into_iter().flatten().max().unwrap_or(0));
    u16::try_from(far).unwrap_or(u16::MAX)
}

/// How a fire reads before the dice: SP, column and each shift.
pub fn preview(rules: &BlindSwords, a: &FireAssessment) -> String {
    let crt = &rules.data().charts.crt;
    let shifts = if a.shifts.is_empty() {
        "no shift".to_string()
    } else {
        a.shifts.iter().map(|m| format!("{} {:+} [{}]", m.label, m.value, m.rule)).collect::<Vec<_>>().join(", ")
    };
    let end = a.final_column.and_then(|c| crt.label(c)).map_or("beyond C: ignored".to_string(), |l| format!("→ {l}"));
    format!("{} SP, column {} {shifts} {end}", a.total_sp, crt.label(a.initial_column).unwrap_or("?"))
}

/// The fires a side's battery may make in the Artillery Step (SR 6.2): each enemy hex in
/// reach whose fire [`fire::assess`] allows and that has a column to roll on, with its preview.
#[must_use]
pub fn artillery_fires(rules: &BlindSwords, state: &State, firer: usize) -> Vec<(Hex, String)> {
    let u = &state.units[firer];
    let Place::Map(from) = u.place else { return Vec::new() };
    let Some(c) = bare_unit(rules, state, firer) else { return Vec::new() };
    let far = reach(rules, &c);
    let map = &rules.data().map;
    let mut targets: Vec<Hex> = state
        .units
        .iter()
        .filter(|e| e.side != u.side)
        .filter_map(|e| if let Place::Map(h) = e.place { Some(h) } else { None })
        .filter(|h| map.distance(from, *h) <= far)
        .collect();
    targets.sort_by_key(|h| (h.col, h.row));
    targets.dedup();
    targets
        .into_iter()
        .filter_map(|h| {
            let lead = stack_at(rules, state, h).0.largest().first().copied()?;
            let a = assessment(rules, state, firer, h, lead)?;
            a.final_column?;
            Some((h, preview(rules, &a)))
        })
        .collect()
}

fn decide(side: Side, kind: &str, prompt: String, options: Vec<Choice>) -> Pending {
    Pending::Decide(Decision { side: side_id(side).into(), kind: kind.into(), prompt, options })
}

fn need_pending(side: Side, need: Need, stack: &Stack, kind: &str) -> Pending {
    match need {
        Need::Roll(r) => Pending::Roll(r),
        Need::Choose { what, candidates, rule } => {
            let options = candidates
                .iter()
                .filter_map(|&i| stack.units.get(i).map(|u| Choice::new(format!("unit:{i}"), u.id.clone())))
                .collect();
            decide(side, kind, format!("{side}: pick {what} ({rule})"), options)
        }
    }
}

/// The Fire Combat Cohesion Test of a [`Stage::FireTest`], with the dice given so far; `None`
/// in any other stage.
fn run_test(rules: &BlindSwords, state: &State) -> Option<Result<cohesion::TestOutcome, Need>> {
    let Stage::FireTest { target, lead, column, roll, second, dice, .. } = &state.stage else { return None };
    let charts = &rules.data().charts;
    let (stack, _) = stack_at(rules, state, *target);
    let (cr, _) = stack.modified_cr(*lead);
    let section = D66::from_value(*roll).and_then(|r| charts.crt.result(*column, r, cr))?;
    let test = FireTest { section, target: stack, lead: *lead, opportunity: false, second: *second };
    let (coloured, white) = (dice.first().copied().unwrap_or(0), dice.get(1).copied().unwrap_or(0));
    Some(cohesion::fire_test(charts, &test, coloured, white, dice.get(2..).unwrap_or(&[])))
}

/// What a fire stage waits for.
#[must_use]
pub fn pending(rules: &BlindSwords, state: &State) -> Option<Pending> {
    match &state.stage {
        Stage::FireLead { firer, target } => {
            let (stack, _) = stack_at(rules, state, *target);
            let owner = other(state.units[*firer].side);
            let need = Need::Choose { what: "the Lead Unit".into(), candidates: stack.largest(), rule: "SR 9.2" };
            Some(need_pending(owner, need, &stack, "fire-lead"))
        }
        Stage::FireRoll { firer, target, lead } => {
            let a = assessment(rules, state, *firer, *target, *lead)?;
            let shown = preview(rules, &a);
            let mut r: RollRequest = a.roll?;
            r.side = side_id(state.units[*firer].side).into();
            r.purpose = format!("{}: {shown}", r.purpose);
            Some(Pending::Roll(r))
        }
        Stage::FireTest { target, lead, .. } => {
            let need = run_test(rules, state)?.err()?;
            let (stack, _) = stack_at(rules, state, *target);
            let owner = stack.units.get(*lead).map_or(Side::Union, |u| u.side);
            Some(match need {
                Need::Roll(mut r) => {
                    r.side = side_id(owner).into();
                    Pending::Roll(r)
                }
                n => need_pending(owner, n, &stack, "fire-second"),
            })
        }
        _ => None,
    }
}

fn bad(what: &str) -> RuleError {
    RuleError::NotAnOption(format!("not a legal {what}"))
}

/// Starts the fire of battery `firer` at `target` (the "fire" choice of the Artillery Step).
///
/// # Errors
/// The fire is not among [`artillery_fires`].
pub fn start_fire(rules: &BlindSwords, state: &mut State, firer: usize, target: Hex) -> Result<(), RuleError> {
    if !artillery_fires(rules, state, firer).iter().any(|(h, _)| *h == target) {
        return Err(bad("artillery target"));
    }
    let (stack, _) = stack_at(rules, state, target);
    let largest = stack.largest();
    let name = state.units[firer].name.clone();
    state.note(format!("{name} fires at {target}"), "SR 6.2, 9.0");
    state.stage = match largest.as_slice() {
        [one] => Stage::FireRoll { firer, target, lead: *one },
        _ => Stage::FireLead { firer, target },
    };
    Ok(())
}

/// Applies an owner's choice in a fire stage.
///
/// # Errors
/// The option is not offered.
pub fn choose(rules: &BlindSwords, state: &mut State, option: &str) -> Result<(), RuleError> {
    let Some(Pending::Decide(d)) = pending(rules, state) else { return Err(bad("choice")) };
    if !d.options.iter().any(|c| c.id == option) {
        return Err(bad("choice"));
    }
    let pick: usize = option.strip_prefix("unit:").and_then(|s| s.parse().ok()).ok_or_else(|| bad("choice"))?;
    match state.stage.clone() {
        Stage::FireLead { firer, target } => state.stage = Stage::FireRoll { firer, target, lead: pick },
        Stage::FireTest { firer, target, lead, column, roll, dice, .. } => {
            state.stage = Stage::FireTest { firer, target, lead, column, roll, second: Some(pick), dice };
            finish_test(rules, state);
        }
        _ => return Err(bad("choice")),
    }
    Ok(())
}

/// Applies dice in a fire stage (already checked against the pending request); returns the text
/// to log with them.
#[must_use]
pub fn roll(rules: &BlindSwords, state: &mut State, dice: &[u8]) -> String {
    let charts = &rules.data().charts;
    match state.stage.clone() {
        Stage::FireRoll { firer, target, lead } => {
            let Some(a) = assessment(rules, state, firer, target, lead) else { return String::new() };
            let (stack, _) = stack_at(rules, state, target);
            let (cr, _) = stack.modified_cr(lead);
            let d = D66::new(dice[0], dice.get(1).copied().unwrap_or(0));
            let Some((d, column)) = d.zip(a.final_column) else { return String::new() };
            let result = fire::resolve(charts, &a, d, cr);
            let lead_id = stack.units.get(lead).map_or_else(String::new, |u| u.id.clone());
            let text =
                format!("{} fires at {target} (Lead Unit {lead_id}): {}", state.units[firer].name, result.explanation);
            if result.test.is_some() {
                state.stage =
                    Stage::FireTest { firer, target, lead, column, roll: d.value(), second: None, dice: Vec::new() };
            } else {
                fired(state, firer);
            }
            text
        }
        Stage::FireTest { firer, target, lead, column, roll, second, dice: mut so_far } => {
            let first = so_far.is_empty();
            so_far.extend_from_slice(dice);
            state.stage = Stage::FireTest { firer, target, lead, column, roll, second, dice: so_far };
            let text = if first {
                format!(
                    "Fire Combat Cohesion Test at {target}: coloured {}, white {}",
                    dice[0],
                    dice.get(1).unwrap_or(&0)
                )
            } else {
                format!("Break Test die at {target}: {}", dice[0])
            };
            text
        }
        _ => String::new(),
    }
}

/// Ends a Fire Combat Cohesion Test once it needs no more dice or choices (called after the
/// dice are logged), writing the outcome back to the state (SR 12.1, 12.5, 12.6, 12.8).
pub fn finish_test(rules: &BlindSwords, state: &mut State) {
    let Stage::FireTest { firer, target, .. } = state.stage.clone() else { return };
    let Some(Ok(outcome)) = run_test(rules, state) else { return };
    let (_, ids) = stack_at(rules, state, target);
    state.note(
        format!("Cohesion Test at {target}: Depletion \"{}\", Skedaddle \"{}\"", outcome.depletion, outcome.skedaddle),
        "SR 12.1",
    );
    for step in &outcome.steps {
        let name = state.unit_index(&step.unit).map_or_else(|| step.unit.clone(), |i| state.units[i].name.clone());
        state.note(format!("{name}: {}", step.what), step.rule);
    }
    for (c, &i) in outcome.target.units.iter().zip(&ids) {
        let face = c.face();
        let u = &mut state.units[i];
        u.battleworn = c.battleworn;
        u.sp_halves = face.sp.halves();
        u.cr = face.cr;
        u.morale_hits = c.morale.penalty();
        u.shaken = false;
        match c.status {
            Status::OnMap => {}
            Status::Broken(n) => u.place = Place::Broken(n),
            Status::Available => u.place = Place::Broken(0),
            Status::Eliminated => u.place = Place::Eliminated,
        }
    }
    for r in &outcome.retreats {
        state.note(format!("{} should retreat {} hexes: retreats are not yet enforced", r.unit, r.hexes), r.rule);
    }
    if outcome.panic > 0 {
        state.note(format!("{} units should Panic: Panic is not yet enforced", outcome.panic), "SR 12.1");
    }
    fired(state, firer);
}

/// The battery has fired: the other side's Artillery Step (SR 6.3).
fn fired(state: &mut State, firer: usize) {
    state.units[firer].acted = true;
    let side = state.units[firer].side;
    state.stage = Stage::Artillery { side: other(side), passes: 0 };
}
