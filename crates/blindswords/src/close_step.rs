//! [SR 11, EX 11, SR 12.2, 12.7] The Close Combat Step of an Attack-order brigade, in play.
//!
//! After its Movement Step the brigade's player declares the attacks (SR 11.2): a target hex
//! next to the brigade's units, then the attacking units one by one ([`close::check_declaration`]
//! judges each), as many attacks as wanted, or none (attacking is voluntary). The attacks are
//! resolved in the order declared (SR 11.3: the active player's order; ruling PC12): the
//! defender's Defensive Fire, Supporting Defensive Fire and cavalry withdrawal
//! ([`crate::defensive`], SR 11.3a-b), after which the attackers that left their hex are out of
//! the combat; the Assaulting Hex when the attackers stand in several hexes (SR 11.3c), the
//! defender's Lead Unit among ties (SR 9.2), the attacker's Rebel Yell! or Spontaneous Charge
//! (EX 11.3c xvii-xviii, ruling PC26), the assessment shown with every shift in the d66's
//! request, the d66 on the CRT with the cell logged (SR 11.3d-e; shifted past "C" it is a Close
//! Fight without a roll, ruling PC3), the Close Combat Cohesion Test with its Break Test dice and
//! the owners' picks (SR 12.2), the retreats and Panic through [`crate::retreat_step`], then
//! Advance After Close Combat into an emptied hex as its owner chooses (SR 12.7).

use caisson_hexmap::Hex;
use caisson_kernel::{Choice, Decision, Pending, RollRequest, RuleError};

use crate::catalog::Side;
use crate::charts::{Order, Section, D66};
use crate::close::{self, Attacker, CloseAssessment, CloseInput, Defender};
use crate::cohesion::{self, CloseTest, Need, Stack, TestOutcome};
use crate::combat_step::stack_at;
use crate::defensive;
use crate::events;
use crate::fire::section_name;
use crate::movement::{self, terrain_key, Board};
use crate::retreat_step;
use crate::rules::BlindSwords;
use crate::sequence::{after_activation, chit_name, occupy};
use crate::state::{
    other, side_id, Activator, AdvanceOffer, Aftermath, CloseFight, Declared, Place, RetreatOrder, Stage, State, Then,
};

fn decide(side: Side, kind: &str, prompt: String, options: Vec<Choice>) -> Pending {
    Pending::Decide(Decision { side: side_id(side).into(), kind: kind.into(), prompt, options })
}

fn bad(option: &str) -> RuleError {
    RuleError::NotAnOption(option.to_string())
}

/// Unit `i` as an attacker of `target` under `order` (support judged where it stands).
fn attacker(rules: &BlindSwords, state: &State, i: usize, target: Hex, order: Order) -> Option<Attacker> {
    let map = &rules.data().map;
    let hex = state.hex_of(i)?;
    let (stack, ids) = stack_at(rules, state, hex);
    let k = ids.iter().position(|j| *j == i)?;
    let c = stack.units.get(k)?;
    let u = &state.units[i];
    let brigade_hold = u.brigade.as_deref().and_then(|b| state.brigade(b)).is_some_and(|b| b.on_hold);
    Some(Attacker {
        id: u.id.clone(),
        side: u.side,
        ty: u.ty,
        hex,
        sp: c.printed_sp(),
        morale: c.morale,
        weapon: c.weapon,
        cr: stack.modified_cr(k).0,
        order,
        on_hold: u.on_hold || brigade_hold,
        chaos: c.chaos,
        skirmish: u.skirmish,
        hexside: map.hexside(hex, target).words().map(str::to_string).collect(),
        defender_higher: map.elevation(target) > map.elevation(hex),
    })
}

/// The defending hex's units as Close Combat sees them, with their state indexes and stack.
fn defenders(rules: &BlindSwords, state: &State, target: Hex) -> (Vec<Defender>, Vec<usize>, Stack) {
    let (stack, ids) = stack_at(rules, state, target);
    let d = stack
        .units
        .iter()
        .zip(&ids)
        .map(|(c, &i)| Defender {
            id: c.id.clone(),
            ty: c.ty,
            sp: c.printed_sp(),
            morale: c.morale,
            weapon: c.weapon,
            skirmish: state.units[i].skirmish,
        })
        .collect();
    (d, ids, stack)
}

/// Whether unit `i` may attack `target` (SR 11.1, 11.2, EX 11.1, 15.4, 7.3b, 7.5).
fn may_attack(rules: &BlindSwords, state: &State, i: usize, target: Hex, order: Order) -> bool {
    let Some(a) = attacker(rules, state, i, target, order) else { return false };
    let (d, _, _) = defenders(rules, state, target);
    let parity = rules.data().map.parity();
    state.occupant(target).is_some_and(|s| s != a.side)
        && close::check_declaration(&rules.data().charts, parity, &[a], target, &d).is_ok()
}

/// The units of the brigade not yet committed (SR 11.2: each attacks one hex).
fn free_units(state: &State, brigade: &str, declared: &[Declared], building: Option<&Declared>) -> Vec<usize> {
    let committed: Vec<usize> = declared.iter().chain(building).flat_map(|d| d.attackers.iter().copied()).collect();
    state
        .units
        .iter()
        .enumerate()
        .filter(|(i, u)| u.brigade.as_deref() == Some(brigade) && !committed.contains(i))
        .filter(|(_, u)| matches!(u.place, Place::Map(_)))
        .map(|(i, _)| i)
        .collect()
}

/// The enemy hexes a free unit of the brigade may attack, with the units that may attack each.
fn targets(rules: &BlindSwords, state: &State, brigade: &str, declared: &[Declared]) -> Vec<(Hex, Vec<usize>)> {
    let map = &rules.data().map;
    let mut out: Vec<(Hex, Vec<usize>)> = Vec::new();
    for i in free_units(state, brigade, declared, None) {
        let Some(h) = state.hex_of(i) else { continue };
        for (_, t) in map.neighbors(h) {
            if declared.iter().any(|d| d.target == t) || !may_attack(rules, state, i, t, Order::Attack) {
                continue;
            }
            match out.iter_mut().find(|(x, _)| *x == t) {
                Some((_, units)) => units.push(i),
                None => out.push((t, vec![i])),
            }
        }
    }
    out.sort_by_key(|(h, _)| *h);
    out
}

fn names(state: &State, units: impl IntoIterator<Item = usize>) -> String {
    units.into_iter().map(|i| state.units[i].name.clone()).collect::<Vec<_>>().join(", ")
}

/// The Close Combat Step of an Attack-order brigade begins (SR 4.0 Phase 4d): declarations if
/// any unit may attack, otherwise the activation ends.
pub fn begin(rules: &BlindSwords, state: &mut State, brigade: String, by: Activator) {
    if targets(rules, state, &brigade, &[]).is_empty() {
        after_activation(rules, state, &by);
    } else {
        state.stage = Stage::CloseDeclare { brigade, by, declared: Vec::new(), building: None };
    }
}

/// The Close Combat input once the Assaulting Hex is known.
fn input(rules: &BlindSwords, state: &State, fight: &CloseFight, assault: Hex) -> Option<(CloseInput, Vec<usize>)> {
    let map = &rules.data().map;
    let target = fight.target;
    let lead = fight.lead?;
    let (defenders, ids, stack) = defenders(rules, state, target);
    let k = ids.iter().position(|j| *j == lead)?;
    let attackers = fight.attackers.iter().filter_map(|&i| attacker(rules, state, i, target, Order::Attack)).collect();
    let input = CloseInput {
        attackers,
        assault_hex: assault,
        defender_hex: target,
        terrain: map.tactical(target).map_or("clear", terrain_key).to_string(),
        defenders,
        lead_cr: stack.modified_cr(k).0,
        rebel_yell: fight.charge == Some(true),
        spontaneous_charge: fight.charge == Some(true),
        parity: map.parity(),
    };
    Some((input, ids))
}

fn assessment(rules: &BlindSwords, state: &State, fight: &CloseFight) -> Option<(CloseAssessment, i32)> {
    let (input, _) = input(rules, state, fight, fight.assault?)?;
    let a = close::assess(&rules.data().charts, &input).ok()?;
    Some((a, input.lead_cr))
}

/// How a Close Combat reads before the dice: SP, column, each shift and the final column.
fn preview(rules: &BlindSwords, a: &CloseAssessment, lead_cr: i32) -> String {
    let crt = &rules.data().charts.crt;
    let shifts = if a.shifts.is_empty() {
        "no shift".to_string()
    } else {
        a.shifts.iter().map(|m| format!("{} {:+} [{}]", m.label, m.value, m.rule)).collect::<Vec<_>>().join(", ")
    };
    let start = a.initial_column.and_then(|c| crt.label(c)).unwrap_or("none");
    let end =
        a.final_column.and_then(|c| crt.label(c)).map_or("beyond C: Close Fight".to_string(), |l| format!("→ {l}"));
    format!(
        "{} SP in the Assaulting Hex ({} attacking, {} defending), column {start}, {shifts} {end}; Lead Unit CR {lead_cr}",
        a.assault_sp, a.attacking_sp, a.defending_sp
    )
}

/// The Assaulting Hex's attacking units as a stack, with their support judged in their hex, and
/// their state indexes.
fn assault_stack(rules: &BlindSwords, state: &State, fight: &CloseFight, assault: Hex) -> (Stack, Vec<usize>) {
    let (stack, ids) = stack_at(rules, state, assault);
    let mut units = Vec::new();
    let mut kept = Vec::new();
    for (k, (c, &i)) in stack.units.iter().zip(&ids).enumerate() {
        if fight.attackers.contains(&i) {
            let mut c = c.clone();
            c.nearby_support = stack.is_supported(k);
            units.push(c);
            kept.push(i);
        }
    }
    (Stack { units, allows_support: stack.allows_support }, kept)
}

/// The Close Combat Cohesion Test of the fight with the dice so far.
fn run_test(rules: &BlindSwords, state: &State, fight: &CloseFight) -> Option<Result<TestOutcome, Need>> {
    let section = fight.section?;
    let assault = fight.assault?;
    let lead = fight.lead?;
    let (target, ids) = stack_at(rules, state, fight.target);
    let (assault_units, aids) = assault_stack(rules, state, fight, assault);
    let attacking_sp = fight
        .attackers
        .iter()
        .filter_map(|&i| crate::combat_step::bare_unit(rules, state, i))
        .map(|c| c.modified_sp())
        .sum();
    let test = CloseTest {
        section,
        target,
        lead: ids.iter().position(|j| *j == lead)?,
        second: fight.second.and_then(|s| ids.iter().position(|j| *j == s)),
        assault: assault_units,
        attacker: fight.attacker.and_then(|s| aids.iter().position(|j| *j == s)),
        attacking_sp,
    };
    let (coloured, white) = (fight.dice.first().copied().unwrap_or(0), fight.dice.get(1).copied().unwrap_or(0));
    Some(cohesion::close_test(&rules.data().charts, &test, coloured, white, fight.dice.get(2..).unwrap_or(&[])))
}

fn attacking_side(state: &State, fight: &CloseFight) -> Side {
    fight.attackers.first().map_or(Side::Union, |&i| state.units[i].side)
}

/// What a Close Combat stage waits for; `None` when its next step needs nobody.
#[must_use]
pub fn pending(rules: &BlindSwords, state: &State) -> Option<Pending> {
    match &state.stage {
        Stage::CloseDeclare { brigade, declared, building, .. } => {
            let side = state.brigade(brigade).map_or(Side::Union, |b| b.side);
            Some(declare_pending(rules, state, side, brigade, declared, building.as_ref()))
        }
        Stage::CloseCombat { fight, .. } => fight_pending(rules, state, fight),
        Stage::Advance { offers, second, .. } => {
            let offer = offers.first()?;
            let side = state.units[*offer.units.first()?].side;
            if let Some(u) = *second {
                let mut options: Vec<Choice> = advance_hexes(rules, state, u, offer.into)
                    .into_iter()
                    .map(|h| Choice::new(format!("hex:{h}"), format!("{} advances on to {h}", state.units[u].name)))
                    .collect();
                options.push(Choice::new("stop", format!("{} stays in {}", state.units[u].name, offer.into)));
                let prompt = format!("{}: a second hex of advance (SR 12.7)", state.units[u].name);
                return Some(decide(side, "advance", prompt, options));
            }
            let movers = movers(rules, state, offer);
            if movers.is_empty() {
                return None;
            }
            let mut options: Vec<Choice> = movers
                .into_iter()
                .map(|i| {
                    Choice::new(
                        format!("unit:{}", state.units[i].id),
                        format!("{} advances into {}", state.units[i].name, offer.into),
                    )
                })
                .collect();
            options.push(Choice::new("done", "No (more) advance"));
            let prompt = format!(
                "{side}: Advance After Close Combat into {} (up to {} hexes; SR 12.7)",
                offer.into, offer.reach
            );
            Some(decide(side, "advance", prompt, options))
        }
        _ => None,
    }
}

fn declare_pending(
    rules: &BlindSwords,
    state: &State,
    side: Side,
    brigade: &str,
    declared: &[Declared],
    building: Option<&Declared>,
) -> Pending {
    match building {
        None => {
            let mut options: Vec<Choice> = targets(rules, state, brigade, declared)
                .into_iter()
                .map(|(h, _)| {
                    let defenders = names(state, state.units_at(h));
                    Choice::new(format!("target:{h}"), format!("Attack {h} ({defenders})"))
                })
                .collect();
            let end = if declared.is_empty() {
                "No Close Combat (attacking is voluntary, SR 11.2)".to_string()
            } else {
                format!("Resolve the {} declared Close Combat(s)", declared.len())
            };
            options.push(Choice::new("done", end));
            decide(side, "close-declare", format!("{side}: declare Close Combats (SR 11.2)"), options)
        }
        Some(d) => {
            let mut options: Vec<Choice> = free_units(state, brigade, declared, Some(d))
                .into_iter()
                .filter(|&i| may_attack(rules, state, i, d.target, Order::Attack))
                .map(|i| {
                    let at = state.hex_of(i).map(|h| h.to_string()).unwrap_or_default();
                    Choice::new(
                        format!("unit:{}", state.units[i].id),
                        format!("{} in {at} attacks", state.units[i].name),
                    )
                })
                .collect();
            if !d.attackers.is_empty() {
                options.push(Choice::new(
                    "declare",
                    format!("Declare: {} attack {}", names(state, d.attackers.iter().copied()), d.target),
                ));
            }
            options.push(Choice::new("cancel", format!("Do not attack {}", d.target)));
            decide(side, "close-attackers", format!("{side}: the units attacking {} (SR 11.2)", d.target), options)
        }
    }
}

fn fight_pending(rules: &BlindSwords, state: &State, fight: &CloseFight) -> Option<Pending> {
    let attacker_side = attacking_side(state, fight);
    if fight.hit.is_some() || !fight.defence_over {
        return defensive::pending(rules, state, fight);
    }
    if fight.assault.is_none()
        && (defensive::live(state, fight).len() != fight.attackers.len()
            || state.units_at(fight.target).next().is_none())
    {
        return None;
    }
    let Some(assault) = fight.assault else {
        let hexes = attack_hexes(state, fight);
        if hexes.len() < 2 {
            return None;
        }
        let options =
            hexes.iter().map(|h| Choice::new(format!("assault:{h}"), format!("{h} is the Assaulting Hex"))).collect();
        let prompt = format!("{attacker_side}: pick the Assaulting Hex against {} (SR 11.3c)", fight.target);
        return Some(decide(attacker_side, "assault", prompt, options));
    };
    let defender_side = other(attacker_side);
    let Some(_) = fight.lead else {
        let (stack, ids) = stack_at(rules, state, fight.target);
        let tied = stack.largest();
        if tied.len() < 2 {
            return None;
        }
        let options = tied
            .iter()
            .filter_map(|&k| ids.get(k))
            .map(|&i| Choice::new(format!("lead:{}", state.units[i].id), state.units[i].name.clone()))
            .collect();
        return Some(decide(
            defender_side,
            "close-lead",
            format!("{defender_side}: pick the Lead Unit (SR 9.2)"),
            options,
        ));
    };
    if fight.charge.is_none() {
        if !events::asked(state, attacker_side) {
            return None;
        }
        let (a, lead_cr) = assessment(rules, state, fight)?;
        let mut options: Vec<Choice> = events::charge_chit(rules, state, attacker_side)
            .map(|c| {
                let (shift, rule) = match attacker_side {
                    Side::Confederate => ("two columns right", "EX 11.3c xvii"),
                    Side::Union => ("one column right", "EX 11.3c xviii"),
                };
                Choice::new(
                    format!("play:{c}"),
                    format!("Play {}: {shift} for this Close Combat ({rule})", chit_name(rules, &c)),
                )
            })
            .into_iter()
            .collect();
        options.push(Choice::new("none", "Play no chit"));
        let prompt = format!(
            "{attacker_side}: the Close Combat against {} reads {}; play a held chit before the dice?",
            fight.target,
            preview(rules, &a, lead_cr)
        );
        return Some(decide(attacker_side, "event", prompt, options));
    }
    if fight.section.is_none() {
        let (a, lead_cr) = assessment(rules, state, fight)?;
        let mut r: RollRequest = a.roll.clone()?;
        r.side = side_id(attacker_side).into();
        r.purpose = format!("{}: {}", r.purpose, preview(rules, &a, lead_cr));
        return Some(Pending::Roll(r));
    }
    match run_test(rules, state, fight)? {
        Ok(_) => None,
        Err(Need::Roll(mut r)) => {
            // The owner of the tested units rolls (SR 12.0, 12.6): a Break Test die names its unit's side.
            let owner = if r.side == attacker_side.to_string() { attacker_side } else { defender_side };
            r.side = side_id(owner).into();
            Some(Pending::Roll(r))
        }
        Err(Need::Choose { what, candidates, rule }) => {
            let attacker_pick = rule == "SR 12.2a";
            let (ids, picker, verb) = if attacker_pick {
                (assault_stack(rules, state, fight, assault).1, attacker_side, "attacker")
            } else {
                (stack_at(rules, state, fight.target).1, defender_side, "second")
            };
            let options = candidates
                .iter()
                .filter_map(|&k| ids.get(k))
                .map(|&i| Choice::new(format!("{verb}:{}", state.units[i].id), state.units[i].name.clone()))
                .collect();
            Some(decide(picker, "close-pick", format!("{picker}: pick {what} ({rule})"), options))
        }
    }
}

/// The hexes the fight's attackers stand in.
fn attack_hexes(state: &State, fight: &CloseFight) -> Vec<Hex> {
    let mut hexes: Vec<Hex> = fight.attackers.iter().filter_map(|&i| state.hex_of(i)).collect();
    hexes.sort();
    hexes.dedup();
    hexes
}

/// Applies a choice in a Close Combat stage.
///
/// # Errors
/// The option is not offered.
pub fn choose(rules: &BlindSwords, state: &mut State, option: &str) -> Result<(), RuleError> {
    let Some(Pending::Decide(d)) = pending(rules, state) else { return Err(bad(option)) };
    if !d.options.iter().any(|c| c.id == option) {
        return Err(bad(option));
    }
    let (verb, arg) = option.split_once(':').unwrap_or((option, ""));
    let unit = state.unit_index(arg);
    match state.stage.clone() {
        Stage::CloseDeclare { brigade, by, mut declared, building } => match (building, verb) {
            (None, "target") => {
                let target: Hex = arg.parse().map_err(|_| bad(option))?;
                let building = Some(Declared { target, attackers: Vec::new(), others: Vec::new() });
                state.stage = Stage::CloseDeclare { brigade, by, declared, building };
            }
            (None, "done") => {
                for d in &declared {
                    state.note(
                        format!(
                            "{} declare a Close Combat against {}",
                            names(state, d.attackers.iter().copied()),
                            d.target
                        ),
                        "SR 11.2",
                    );
                }
                if declared.is_empty() {
                    state.note("No Close Combat", "SR 11.2");
                }
                let all: Vec<Hex> = declared.iter().map(|d| d.target).collect();
                for d in &mut declared {
                    d.others = all.iter().copied().filter(|h| *h != d.target).collect();
                }
                next_combat(rules, state, brigade, by, declared);
            }
            (Some(mut d), "unit") => {
                d.attackers.push(unit.ok_or_else(|| bad(option))?);
                state.stage = Stage::CloseDeclare { brigade, by, declared, building: Some(d) };
            }
            (Some(d), "declare") => {
                declared.push(d);
                state.stage = Stage::CloseDeclare { brigade, by, declared, building: None };
            }
            (Some(_), "cancel") => state.stage = Stage::CloseDeclare { brigade, by, declared, building: None },
            _ => return Err(bad(option)),
        },
        Stage::CloseCombat { brigade, by, queue, mut fight } => {
            match verb {
                "fire" | "flank" | "withdraw" | "hold" => {
                    return defensive::choose(rules, state, fight, option, |fight| Stage::CloseCombat {
                        brigade,
                        by,
                        queue,
                        fight,
                    });
                }
                "play" => {
                    let side = attacking_side(state, &fight);
                    if !events::play_charge(rules, state, side, fight.target) {
                        return Err(bad(option));
                    }
                    fight.charge = Some(true);
                }
                "none" => fight.charge = Some(false),
                "assault" => fight.assault = Some(arg.parse().map_err(|_| bad(option))?),
                "lead" => fight.lead = unit,
                "second" => fight.second = unit,
                "attacker" => fight.attacker = unit,
                _ => return Err(bad(option)),
            }
            state.stage = Stage::CloseCombat { brigade, by, queue, fight };
        }
        Stage::Advance { brigade, by, queue, mut offers, second } => {
            let into = offers.first().map(|o| o.into).ok_or_else(|| bad(option))?;
            let reach = offers.first().map_or(1, |o| o.reach);
            let second = match (verb, second) {
                ("unit", None) => {
                    let i = unit.ok_or_else(|| bad(option))?;
                    occupy(rules, state, i, into);
                    state.note(format!("{} advances into {into}", state.units[i].name), "SR 12.7");
                    if let Some(o) = offers.first_mut() {
                        o.units.retain(|j| *j != i);
                    }
                    (reach >= 2).then_some(i)
                }
                ("done", None) => {
                    offers.remove(0);
                    None
                }
                ("hex", Some(i)) => {
                    let h: Hex = arg.parse().map_err(|_| bad(option))?;
                    occupy(rules, state, i, h);
                    state.note(format!("{} advances on to {h}", state.units[i].name), "SR 12.7");
                    None
                }
                ("stop", Some(_)) => None,
                _ => return Err(bad(option)),
            };
            state.stage = Stage::Advance { brigade, by, queue, offers, second };
        }
        _ => return Err(bad(option)),
    }
    Ok(())
}

/// Applies dice in a Close Combat (already checked against the pending request); returns the
/// text to log with them.
#[must_use]
pub fn roll(rules: &BlindSwords, state: &mut State, dice: &[u8]) -> String {
    let Stage::CloseCombat { brigade, by, queue, mut fight } = state.stage.clone() else { return String::new() };
    let text = if let Some(u) = fight.hit {
        fight.dice.extend_from_slice(dice);
        format!("Break Test die for {}: {}", state.units[u].name, dice[0])
    } else if fight.section.is_none() {
        let Some((a, lead_cr)) = assessment(rules, state, &fight) else { return String::new() };
        let Some(d) = D66::new(dice[0], dice.get(1).copied().unwrap_or(0)) else { return String::new() };
        let crt = &rules.data().charts.crt;
        let section = close::resolve(&rules.data().charts, &a, Some(d), lead_cr);
        fight.section = Some(section);
        let column = a.final_column.and_then(|c| crt.label(c)).unwrap_or("?");
        let cell = a.final_column.and_then(|c| crt.cell(c, d)).map_or_else(|| "-".to_string(), ToString::to_string);
        format!(
            "Close Combat against {}: column {column}, roll {}: {cell}; Lead Unit CR {lead_cr}: a {} Close Combat Cohesion Test (SR 11.3e)",
            fight.target,
            d.value(),
            section_name(section)
        )
    } else {
        let first = fight.dice.is_empty();
        fight.dice.extend_from_slice(dice);
        if first {
            format!(
                "Close Combat Cohesion Test at {}: coloured {}, white {}",
                fight.target,
                dice[0],
                dice.get(1).copied().unwrap_or(0)
            )
        } else {
            format!("Break Test die: {}", dice[0])
        }
    };
    state.stage = Stage::CloseCombat { brigade, by, queue, fight };
    text
}

/// Does the next step of a Close Combat stage that needs nobody; `false` when it waits for a
/// choice or a die.
pub fn step(rules: &BlindSwords, state: &mut State) -> bool {
    if pending(rules, state).is_some() {
        return false;
    }
    match state.stage.clone() {
        Stage::CloseCombat { brigade, by, queue, mut fight } => {
            if fight.hit.is_some() {
                if !defensive::apply_hit(rules, state, &mut fight) {
                    return false;
                }
                state.stage = Stage::CloseCombat { brigade, by, queue, fight };
                return true;
            }
            if !fight.defence_over {
                fight.defence_over = true;
                state.stage = Stage::CloseCombat { brigade, by, queue, fight };
                return true;
            }
            if fight.assault.is_none() && after_defence(rules, state, &brigade, &by, &queue, &mut fight) {
                return true;
            }
            let found = if fight.assault.is_none() {
                fight.assault = attack_hexes(state, &fight).first().copied();
                fight.assault.is_some()
            } else if fight.lead.is_none() {
                let (stack, ids) = stack_at(rules, state, fight.target);
                fight.lead = stack.largest().first().and_then(|&k| ids.get(k)).copied();
                fight.lead.is_some()
            } else if fight.charge.is_none() {
                fight.charge = Some(false);
                true
            } else if fight.section.is_none() {
                let text =
                    format!("Close Combat against {}: beyond column C, a Close Fight without a roll", fight.target);
                state.note(text, "SR 11.0, ruling PC3");
                fight.section = Some(Section::CloseFight);
                true
            } else {
                return finish_test(rules, state, brigade, by, queue, &fight);
            };
            if found {
                state.stage = Stage::CloseCombat { brigade, by, queue, fight };
            } else {
                let text = format!("The Close Combat against {} has no attacker or defender left", fight.target);
                state.note(text, "SR 11.3c");
                next_combat(rules, state, brigade, by, queue);
            }
            true
        }
        Stage::Advance { brigade, by, queue, mut offers, .. } => {
            if !offers.is_empty() {
                offers.remove(0);
            }
            if offers.is_empty() {
                next_combat(rules, state, brigade, by, queue);
            } else {
                state.stage = Stage::Advance { brigade, by, queue, offers, second: None };
            }
            true
        }
        _ => false,
    }
}

/// Starts the next declared Close Combat, or ends the activation.
fn next_combat(rules: &BlindSwords, state: &mut State, brigade: String, by: Activator, mut queue: Vec<Declared>) {
    loop {
        if queue.is_empty() {
            after_activation(rules, state, &by);
            return;
        }
        let d = queue.remove(0);
        let defender = state.occupant(d.target);
        let map = &rules.data().map;
        let attackers: Vec<usize> = d
            .attackers
            .iter()
            .copied()
            .filter(|&i| state.hex_of(i).is_some_and(|h| map.distance(h, d.target) == 1))
            .filter(|&i| defender.is_some_and(|s| s != state.units[i].side))
            .collect();
        if attackers.is_empty() {
            state.note(format!("The Close Combat against {} has no attacker or defender left", d.target), "SR 11.3c");
            continue;
        }
        let posts = attackers.iter().filter_map(|&i| Some((i, state.hex_of(i)?))).collect();
        let fight = CloseFight {
            target: d.target,
            attackers,
            assault: None,
            lead: None,
            section: None,
            second: None,
            attacker: None,
            dice: Vec::new(),
            posts,
            others: d.others,
            fired: Vec::new(),
            defence_over: false,
            hit: None,
            charge: None,
        };
        state.stage = Stage::CloseCombat { brigade, by, queue, fight };
        return;
    }
}

/// After Defensive Fire (SR 11.3a-c): the attackers that left their hex drop out of the combat;
/// a defending hex emptied by withdrawal ends it, the attackers left may advance one hex into it
/// (SR 11.3b, ruling PC25). `true` when the stage changed.
fn after_defence(
    rules: &BlindSwords,
    state: &mut State,
    brigade: &str,
    by: &Activator,
    queue: &[Declared],
    fight: &mut CloseFight,
) -> bool {
    let live = defensive::live(state, fight);
    let out: Vec<usize> = fight.attackers.iter().copied().filter(|i| !live.contains(i)).collect();
    let empty = state.units_at(fight.target).next().is_none();
    if out.is_empty() && !empty {
        return false;
    }
    for &i in &out {
        state.note(
            format!("{} retreated or broke under Defensive Fire: out of the Close Combat", state.units[i].name),
            "SR 11.3a, 11.3c",
        );
    }
    fight.attackers = live;
    if !empty {
        state.stage = Stage::CloseCombat {
            brigade: brigade.to_string(),
            by: by.clone(),
            queue: queue.to_vec(),
            fight: fight.clone(),
        };
        return true;
    }
    state.note(format!("{} was emptied by withdrawal: no Close Combat", fight.target), "SR 11.3b");
    if fight.attackers.is_empty() {
        next_combat(rules, state, brigade.to_string(), by.clone(), queue.to_vec());
    } else {
        let offer = AdvanceOffer { into: fight.target, units: fight.attackers.clone(), reach: 1 };
        state.stage = Stage::Advance {
            brigade: brigade.to_string(),
            by: by.clone(),
            queue: queue.to_vec(),
            offers: vec![offer],
            second: None,
        };
    }
    true
}

/// Writes the test's outcome back and hands its retreats and Panic to [`retreat_step`].
fn finish_test(
    rules: &BlindSwords,
    state: &mut State,
    brigade: String,
    by: Activator,
    queue: Vec<Declared>,
    fight: &CloseFight,
) -> bool {
    let Some(Ok(outcome)) = run_test(rules, state, fight) else { return false };
    let Some(assault) = fight.assault else { return false };
    let hexes = attack_hexes(state, fight);
    let (_, ids) = stack_at(rules, state, fight.target);
    let (_, aids) = assault_stack(rules, state, fight, assault);
    state.note(
        format!(
            "Close Combat Cohesion Test at {}: Depletion \"{}\", Skedaddle \"{}\"",
            fight.target, outcome.depletion, outcome.skedaddle
        ),
        "SR 12.2",
    );
    for s in &outcome.steps {
        let name = state.unit_index(&s.unit).map_or_else(|| s.unit.clone(), |i| state.units[i].name.clone());
        state.note(format!("{name}: {}", s.what), s.rule);
    }
    for (c, &i) in outcome.target.units.iter().zip(&ids) {
        retreat_step::write_back(state, i, c);
    }
    if let Some(a) = &outcome.attackers {
        for (c, &i) in a.units.iter().zip(&aids) {
            retreat_step::write_back(state, i, c);
        }
    }
    let lead = fight.lead.unwrap_or(usize::MAX);
    let mut retreats = Vec::new();
    let mut later = Vec::new();
    for r in &outcome.retreats {
        let Some(unit) = state.unit_index(&r.unit) else { continue };
        let attacker = aids.contains(&unit);
        let causers = if attacker { ids.clone() } else { fight.attackers.clone() };
        let order = RetreatOrder { unit, hexes: r.hexes, rule: r.rule.to_string(), causers };
        // SR 12.2 note: the Lead Unit's results first, the units stacked with it after the Panic.
        if attacker || unit == lead {
            retreats.push(order);
        } else {
            later.push(order);
        }
    }
    let after = Aftermath {
        by: attacking_side(state, fight),
        causers: fight.attackers.clone(),
        target: fight.target,
        lead,
        retreats,
        panic: outcome.panic,
        panicking: Vec::new(),
        dice: Vec::new(),
        later,
        done: Vec::new(),
        then: Then::Close {
            brigade,
            by,
            queue,
            target: fight.target,
            attackers: fight.attackers.clone(),
            hexes,
            defenders: ids,
        },
    };
    retreat_step::start(state, after);
    true
}

/// Whether a unit broke or was eliminated.
fn gone(state: &State, i: usize) -> bool {
    matches!(state.units[i].place, Place::Broken(_) | Place::Eliminated)
}

/// After a Close Combat's test and its retreats: the advances it allows (SR 12.7: the attackers
/// into the emptied defending hex, the defenders into an emptied attacking hex), then the next
/// declared combat.
pub fn after_test(rules: &BlindSwords, state: &mut State, after: Aftermath) {
    let Then::Close { brigade, by, queue, target, attackers, hexes, defenders } = after.then else { return };
    let longest = |units: &[usize]| after.done.iter().filter(|(u, _)| units.contains(u)).map(|(_, n)| *n).max();
    let mut offers = Vec::new();
    let left: Vec<usize> = attackers.iter().copied().filter(|&i| state.hex_of(i).is_some()).collect();
    if state.units_at(target).next().is_none() && !left.is_empty() {
        let broke = defenders.iter().any(|&i| gone(state, i));
        let reach = cohesion::advance_hexes(longest(&defenders).unwrap_or(0), broke);
        offers.push(AdvanceOffer { into: target, units: left, reach });
    }
    let held: Vec<usize> = defenders.iter().copied().filter(|&i| state.hex_of(i) == Some(target)).collect();
    if !held.is_empty() {
        let broke = attackers.iter().any(|&i| gone(state, i));
        let reach = cohesion::advance_hexes(longest(&attackers).unwrap_or(0), broke);
        for h in hexes.into_iter().filter(|h| state.units_at(*h).next().is_none()) {
            offers.push(AdvanceOffer { into: h, units: held.clone(), reach });
        }
    }
    if offers.is_empty() {
        next_combat(rules, state, brigade, by, queue);
    } else {
        state.stage = Stage::Advance { brigade, by, queue, offers, second: None };
    }
}

/// The units of an offer that may still enter its hex (SR 12.7: up to the stacking limit).
fn movers(rules: &BlindSwords, state: &State, offer: &AdvanceOffer) -> Vec<usize> {
    let board = Board::new(&rules.data().map, state);
    offer
        .units
        .iter()
        .copied()
        .filter(|&i| state.hex_of(i).is_some_and(|h| h != offer.into))
        .filter(|&i| state.occupant(offer.into).is_none_or(|s| s == state.units[i].side))
        .filter(|&i| movement::stacking_fault(rules, state, &board, offer.into, Some(i)).is_none())
        .collect()
}

/// The hexes next to `into` a unit may advance on to (SR 12.7: any legal hex).
fn advance_hexes(rules: &BlindSwords, state: &State, unit: usize, into: Hex) -> Vec<Hex> {
    let map = &rules.data().map;
    let board = Board::new(map, state);
    let u = &state.units[unit];
    map.neighbors(into)
        .map(|(_, n)| n)
        .filter(|n| rules.scenario().area.contains(*n))
        .filter(|n| state.occupant(*n).is_none_or(|s| s == u.side))
        .filter(|n| movement::cost(rules, u.ty, None, u.skirmish, Some(into), *n).is_some())
        .filter(|n| movement::stacking_fault(rules, state, &board, *n, Some(unit)).is_none())
        .collect()
}
