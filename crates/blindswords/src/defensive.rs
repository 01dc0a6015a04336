//! [SR 11.3a-b, EX 11.3b] Before a declared Close Combat is assessed: the defender's Defensive
//! Fire from the attacked hex, Supporting Defensive Fire at half SP from his units next to an
//! attacker, and the withdrawal of attacked cavalry and horse artillery in lieu of firing.
//!
//! The defending player picks one fire or withdrawal at a time, or ends them. A fire is played by
//! [`crate::combat_step`] as a [`Volley`] (its Lead Unit, d66 on the CRT, resolved on "C" however
//! far the shifts go, its Fire Combat Cohesion Test, retreats and Panic) that returns to the Close
//! Combat. An attacker that has left its hex since the combat began (retreated, broken) is out of
//! it (SR 11.3c). A withdrawal that empties the attacked hex ends the combat: the attackers may
//! Advance After Close Combat into it (SR 11.3b).
//!
//! Rulings PC22-PC25: the target is an attacking hex and its Lead Unit is found as for any fire;
//! each unit fires once in a combat; Supporting Defensive Fire only at an attacking hex next to
//! it; where and when a unit withdraws, and the one-hex advance after it. Ruling PC36: one fire
//! may combine the attacked hex's units with supporting units of an adjacent hex (SR 11.3a,
//! 9.1e), each supporting unit at half SP; ruling PC37: a Flanking Fire may be announced at an
//! attacking hex (SR 9.3c), played by [`crate::combat_step`]'s [`Stage::FlankFire`].

use caisson_hexmap::Hex;
use caisson_kernel::{Choice, Decision, Pending, RuleError};

use crate::catalog::{Side, UnitType};
use crate::close;
use crate::cohesion::{self, Need};
use crate::combat_step::{fire_input, flank_choice, flanks, preview, stack_at, subsets, to_lead, Bonus, Offer};
use crate::fire::{self, FireKind};
use crate::retreat_step;
use crate::rules::BlindSwords;
use crate::sequence::occupy;
use crate::state::{other, side_id, CloseFight, Stage, State, Volley, Withdrawal};
use crate::withdraw;

/// One fire the defender may make: the units firing together, why, the attacking hex they fire
/// at and the preview (SP, column, itemised shifts).
pub type DefenceFire = (Vec<usize>, FireKind, Hex, String);

/// The attackers still in the combat: those still in the hex they attacked from.
#[must_use]
pub fn live(state: &State, fight: &CloseFight) -> Vec<usize> {
    fight
        .attackers
        .iter()
        .copied()
        .filter(|&i| fight.posts.iter().any(|&(j, h)| j == i && state.hex_of(i) == Some(h)))
        .collect()
}

/// The defending side of a Close Combat.
pub(crate) fn defender(state: &State, fight: &CloseFight) -> Side {
    other(attacking_side(state, fight))
}

/// Why a defensive group fires: Supporting Defensive Fire when none of it is in the attacked
/// hex, Defensive Fire otherwise (combined with Supporting Defensive Fire, ruling PC36).
pub(crate) fn group_kind(state: &State, fight: &CloseFight, group: &[usize]) -> FireKind {
    if group.iter().any(|&i| state.hex_of(i) == Some(fight.target)) {
        FireKind::Defensive
    } else {
        FireKind::SupportingDefensive
    }
}

/// The attacking hexes a Flanking Fire may be announced at (SR 9.3c, ruling PC37): two
/// defending units that may each fire alone at the hex flank it.
fn flank_targets(rules: &BlindSwords, state: &State, fires: &[DefenceFire]) -> Vec<Hex> {
    let mut out: Vec<Hex> = Vec::new();
    for (g, _, h, _) in fires.iter().filter(|(g, _, _, _)| g.len() == 1) {
        let others = fires.iter().filter(|(o, _, t, _)| t == h && o.len() == 1 && o != g);
        if !out.contains(h) && others.into_iter().any(|(o, _, _, _)| flanks(rules, state, &[g.clone(), o.clone()], *h))
        {
            out.push(*h);
        }
    }
    out
}

/// The fires the defender may still announce in a Flanking Fire at `target` (SR 9.3c, ruling
/// PC37): groups with no unit `busy` (announced already), previewed with the shift.
pub(crate) fn flank_offers(
    rules: &BlindSwords,
    state: &State,
    fight: &CloseFight,
    target: Hex,
    busy: &[usize],
) -> Vec<Offer> {
    fires_with(rules, state, fight, true)
        .into_iter()
        .filter(|(g, _, t, _)| *t == target && !g.iter().any(|i| busy.contains(i)))
        .map(|(g, _, t, shown)| (g, t, shown))
        .collect()
}

fn attacking_side(state: &State, fight: &CloseFight) -> Side {
    fight.attackers.first().map_or(Side::Union, |&i| state.units[i].side)
}

/// The hexes of the attackers still in the combat.
pub(crate) fn live_hexes(state: &State, fight: &CloseFight) -> Vec<Hex> {
    let mut hexes: Vec<Hex> = live(state, fight).into_iter().filter_map(|i| state.hex_of(i)).collect();
    hexes.sort();
    hexes.dedup();
    hexes
}

/// The defending units that may still fire, by hex, with the kind of their fire: the attacked
/// hex's (Defensive Fire) and those of the defender next to an attacker, outside the targets of
/// the step's other declared combats (Supporting Defensive Fire, SR 11.3a).
fn firers(rules: &BlindSwords, state: &State, fight: &CloseFight) -> Vec<(Hex, FireKind, Vec<usize>)> {
    let map = &rules.data().map;
    let defender = other(attacking_side(state, fight));
    let fresh = |h: Hex| -> Vec<usize> {
        state.units_at(h).filter(|i| state.units[*i].side == defender && !fight.fired.contains(i)).collect()
    };
    let mut out = vec![(fight.target, FireKind::Defensive, fresh(fight.target))];
    let mut seen = vec![fight.target];
    for a in live_hexes(state, fight) {
        for (_, n) in map.neighbors(a) {
            if seen.contains(&n) || fight.others.contains(&n) {
                continue;
            }
            seen.push(n);
            out.push((n, FireKind::SupportingDefensive, fresh(n)));
        }
    }
    out.retain(|(_, _, units)| !units.is_empty());
    out
}

/// The fires the defender may still make (SR 11.3a, 9.1e): each unit alone and each
/// combination of units sharing a hex, at each attacking hex next to them whose fire
/// [`fire::assess`] allows; and the attacked hex's units combined with supporting units of an
/// adjacent hex, at an attacking hex next to both, each supporting unit at half SP (SR 11.3a,
/// 9.1d-e, ruling PC36). Cavalry of the attacked hex does not fire when a cavalry unit attacks
/// (SR 11.3a, ruling A-19).
#[must_use]
pub fn fires(rules: &BlindSwords, state: &State, fight: &CloseFight) -> Vec<DefenceFire> {
    fires_with(rules, state, fight, false)
}

/// [`fires`], previewed with the Flanking Fire shift when `flanking` (SR 9.3c).
fn fires_with(rules: &BlindSwords, state: &State, fight: &CloseFight, flanking: bool) -> Vec<DefenceFire> {
    let map = &rules.data().map;
    let targets = live_hexes(state, fight);
    let by_cavalry = live(state, fight).iter().any(|&i| state.units[i].ty == UnitType::Cavalry);
    let hexes = firers(rules, state, fight);
    let mut groups: Vec<(Vec<usize>, FireKind, Vec<Hex>)> = Vec::new();
    for (hex, kind, units) in &hexes {
        groups.extend(subsets(units).into_iter().map(|g| (g, *kind, vec![*hex])));
    }
    if let Some((_, _, own)) = hexes.iter().find(|(h, _, _)| *h == fight.target) {
        for (hex, _, units) in
            hexes.iter().filter(|(h, _, _)| *h != fight.target && map.distance(*h, fight.target) == 1)
        {
            for left in subsets(own) {
                for right in subsets(units) {
                    let group = left.iter().chain(&right).copied().collect();
                    groups.push((group, FireKind::Defensive, vec![fight.target, *hex]));
                }
            }
        }
    }
    let bonus = Bonus::defending(fight.target, flanking);
    let mut out = Vec::new();
    for (group, kind, from) in groups {
        for &t in targets.iter().filter(|t| from.iter().all(|h| map.distance(*h, **t) == 1)) {
            let (stack, _) = stack_at(rules, state, t);
            let Some(&lead) = stack.largest().first() else { continue };
            let Some(mut input) = fire_input(rules, state, &group, kind, t, lead, bonus) else {
                continue;
            };
            for f in &mut input.firers {
                f.attacked_by_cavalry = by_cavalry && kind == FireKind::Defensive && f.hex == fight.target;
            }
            let Ok(a) = fire::assess(&rules.data().charts, &input) else { continue };
            if a.final_column.is_some() {
                out.push((group.clone(), kind, t, preview(rules, &a)));
            }
        }
    }
    out
}

/// The withdrawals open to the attacked hex's units that have not fired (SR 11.3b, EX 11.3b,
/// ruling PC5: only cavalry and horse artillery, only when every attacker is infantry): each hex
/// next to it farther from every attacker, enterable, free of the enemy and within stacking
/// (ruling PC25), with the Morale Hits it costs.
#[must_use]
pub fn withdrawals(rules: &BlindSwords, state: &State, fight: &CloseFight) -> Vec<(usize, Hex, u8)> {
    let attackers = live(state, fight);
    let types: Vec<UnitType> = attackers.iter().map(|&i| state.units[i].ty).collect();
    let hexes = live_hexes(state, fight);
    let mut out = Vec::new();
    for i in state.units_at(fight.target) {
        let u = &state.units[i];
        if fight.fired.contains(&i) || u.on_hold || state.chaos == Some(fight.target) {
            continue;
        }
        let Some(hits) = close::withdrawal(u.ty, &types) else { continue };
        let mut open: Option<Vec<Hex>> = None;
        for &from in &hexes {
            let here = withdraw::hexes(rules, state, &Withdrawal { unit: i, from, must: false });
            open = Some(match open {
                None => here,
                Some(v) => v.into_iter().filter(|h| here.contains(h)).collect(),
            });
        }
        out.extend(open.unwrap_or_default().into_iter().map(|h| (i, h, hits)));
    }
    out
}

fn names(state: &State, units: &[usize]) -> String {
    units.iter().map(|&i| state.units[i].name.as_str()).collect::<Vec<_>>().join(" + ")
}

fn fire_id(state: &State, group: &[usize], target: Hex) -> String {
    let ids: Vec<&str> = group.iter().map(|&i| state.units[i].id.as_str()).collect();
    format!("fire:{}@{target}", ids.join("+"))
}

/// The name of a defensive fire: a group of two hexes is Defensive Fire combined with
/// Supporting Defensive Fire (SR 11.3a).
fn kind_name(state: &State, group: &[usize], kind: FireKind) -> &'static str {
    let first = group.first().and_then(|&i| state.hex_of(i));
    if matches!(kind, FireKind::SupportingDefensive) {
        "Supporting Defensive Fire"
    } else if group.iter().any(|&i| state.hex_of(i) != first) {
        "Defensive Fire with Supporting Defensive Fire"
    } else {
        "Defensive Fire"
    }
}

/// The Morale Hit of a withdrawing horse artillery unit, with the Break Test dice so far.
fn hit_outcome(rules: &BlindSwords, state: &State, fight: &CloseFight) -> Option<Result<(), Need>> {
    let unit = fight.hit?;
    let hex = state.hex_of(unit)?;
    let (stack, ids) = stack_at(rules, state, hex);
    let k = ids.iter().position(|&j| j == unit)?;
    Some(cohesion::morale_hits(&rules.data().charts, &stack, k, 1, true, &fight.dice).map(|_| ()))
}

/// What the defence waits for: the withdrawing horse artillery's Break Test die, or the
/// defender's next fire or withdrawal; `None` when nothing is left to offer.
#[must_use]
pub fn pending(rules: &BlindSwords, state: &State, fight: &CloseFight) -> Option<Pending> {
    let defender = other(attacking_side(state, fight));
    if fight.hit.is_some() {
        return match hit_outcome(rules, state, fight)? {
            Err(Need::Roll(mut r)) => {
                r.side = side_id(defender).into();
                Some(Pending::Roll(r))
            }
            _ => None,
        };
    }
    if fight.defence_over || state.units_at(fight.target).next().is_none() {
        return None;
    }
    let offered = fires(rules, state, fight);
    let flank = flank_targets(rules, state, &offered);
    let mut options: Vec<Choice> = offered
        .into_iter()
        .map(|(group, kind, t, shown)| {
            let label = format!("{} {} at {t}: {shown}", names(state, &group), kind_name(state, &group, kind));
            Choice::new(fire_id(state, &group, t), label)
        })
        .collect();
    options.extend(flank.into_iter().map(flank_choice));
    for (i, h, hits) in withdrawals(rules, state, fight) {
        let cost = if hits > 0 { format!(", taking {hits} Morale Hit (EX 11.3b)") } else { String::new() };
        let label = format!("{} withdraws to {h} instead of firing{cost}", state.units[i].name);
        options.push(Choice::new(format!("withdraw:{}@{h}", state.units[i].id), label));
    }
    if options.is_empty() {
        return None;
    }
    options.push(Choice::new("hold", "No more Defensive Fire: the Close Combat goes on"));
    let prompt = format!(
        "{defender}: Defensive Fire against the attack on {} (SR 11.3a), Supporting Defensive Fire at half SP, or cavalry withdrawal (SR 11.3b)",
        fight.target
    );
    Some(Pending::Decide(Decision { side: side_id(defender).into(), kind: "defensive-fire".into(), prompt, options }))
}

/// Applies the defender's choice (`fire:…`, `flank:<hex>`, `withdraw:<unit>@<hex>` or `hold`, already checked
/// against [`pending`]); the stage to go back to is `Stage::CloseCombat` with `fight` in it,
/// built by `back`.
///
/// # Errors
/// An option this module does not know.
pub fn choose(
    rules: &BlindSwords,
    state: &mut State,
    mut fight: CloseFight,
    option: &str,
    back: impl FnOnce(CloseFight) -> Stage,
) -> Result<(), RuleError> {
    let bad = || RuleError::NotAnOption(option.to_string());
    let (verb, arg) = option.split_once(':').unwrap_or((option, ""));
    match verb {
        "fire" => {
            let (ids, hex) = arg.split_once('@').ok_or_else(bad)?;
            let target: Hex = hex.parse().map_err(|_| bad())?;
            let group: Vec<usize> =
                ids.split('+').map(|id| state.unit_index(id)).collect::<Option<_>>().ok_or_else(bad)?;
            let (&first, kind) = fires(rules, state, &fight)
                .into_iter()
                .find(|(g, _, t, _)| *g == group && *t == target)
                .and_then(|(_, kind, _, _)| Some((group.first()?, kind)))
                .ok_or_else(bad)?;
            fight.fired.extend(&group);
            let verb = if group.len() == 1 { "fires" } else { "fire" };
            state.note(
                format!("{} {verb} {} at {target}", names(state, &group), kind_name(state, &group, kind)),
                "SR 11.3a",
            );
            state.volley = Some(Volley { firers: group, kind, then: back(fight) });
            to_lead(rules, state, first, target, None);
        }
        "flank" => {
            let target: Hex = arg.parse().map_err(|_| bad())?;
            if !flank_targets(rules, state, &fires(rules, state, &fight)).contains(&target) {
                return Err(bad());
            }
            state.note(format!("Flanking Fire announced at {target}"), "SR 9.3c");
            let back = Box::new(back(fight));
            state.stage = Stage::FlankFire { back, target, announced: Vec::new(), resolving: false };
        }
        "withdraw" => {
            let (id, hex) = arg.split_once('@').ok_or_else(bad)?;
            let unit = state.unit_index(id).ok_or_else(bad)?;
            let h: Hex = hex.parse().map_err(|_| bad())?;
            let (_, _, hits) = withdrawals(rules, state, &fight)
                .into_iter()
                .find(|(i, x, _)| *i == unit && *x == h)
                .ok_or_else(bad)?;
            occupy(rules, state, unit, h);
            state.note(
                format!("{} withdraws from {} to {h} before the Close Combat", state.units[unit].name, fight.target),
                "SR 11.3b",
            );
            fight.fired.push(unit);
            if hits > 0 {
                fight.hit = Some(unit);
                fight.dice.clear();
            }
            state.stage = back(fight);
        }
        "hold" => {
            state.note(format!("Defensive Fire against the attack on {} is over", fight.target), "SR 11.3a");
            fight.defence_over = true;
            state.stage = back(fight);
        }
        _ => return Err(bad()),
    }
    Ok(())
}

/// Applies a withdrawing horse artillery unit's Morale Hit once its dice are in (EX 11.3b,
/// SR 12.5): `false` when it still waits for a Break Test die.
pub fn apply_hit(rules: &BlindSwords, state: &mut State, fight: &mut CloseFight) -> bool {
    let Some(unit) = fight.hit else { return false };
    let Some(hex) = state.hex_of(unit) else {
        fight.hit = None;
        return true;
    };
    let (stack, ids) = stack_at(rules, state, hex);
    let Some(k) = ids.iter().position(|&j| j == unit) else { return false };
    let Ok((after, steps)) = cohesion::morale_hits(&rules.data().charts, &stack, k, 1, true, &fight.dice) else {
        return false;
    };
    for s in &steps {
        state.note(format!("{}: {}", state.units[unit].name, s.what), s.rule);
    }
    if let Some(c) = after.units.get(k) {
        retreat_step::write_back(state, unit, c);
    }
    fight.hit = None;
    fight.dice.clear();
    true
}
