//! [SR 4.0] The sequence of play with the Perryville insertions (digest §2): the Command
//! Decision Phase (SR 5), the Artillery Phase (SR 6), the Chit Draw Phase (SR 7: events, Wild
//! chits, A. McCook, Division and Brigade Activation chits, the activation roll of ruling A-01),
//! the activated brigade's Orders and Movement Steps (SR 8, 10) and the End Turn Phase (SR 14:
//! per-turn VP, the Buell roll and releases of EX 14.2, the Broken Track, the next turn).
//!
//! The Artillery Step offers moving or firing a battery; an Attack or Defend order, and a
//! Limited Activation, open the brigade's Fire Combat Step before its Movement Step (SR 4.0 4b,
//! ruling A-01b); a step out of a hex next to the enemy first offers the enemy Opportunity Fire
//! (SR 10.7). The fires themselves are played by [`crate::combat_step`], the retreats and Panic
//! of their tests by [`crate::retreat_step`]; an Attack order's Close Combat Step follows its
//! movement ([`crate::close_step`]); the Artillery Rally Step, a Defend or Regroup brigade's Rally
//! Step and the Broken Track's End Turn update are played by [`crate::rally_step`]. Held chits are
//! played before each draw and at End Turn ([`crate::events`]), and skirmishers and cavalry step
//! away from a moving enemy ([`crate::withdraw`]).

use caisson_hexmap::Hex;
use caisson_kernel::{Choice, Decision, LogEntry, Modifier, Pending, RollRecord, RollRequest, RuleError};

use crate::catalog::{ChitKind, Side, UnitType};
use crate::charts::{Activation, BuellModifier, FogOfWar, Order, ReleaseCount, D66};
use crate::chits;
use crate::close_step;
use crate::combat_step;
use crate::events;
use crate::movement::{self, allowance, Board};
use crate::rally_step;
use crate::retreat_step;
use crate::rules::BlindSwords;
use crate::scenario::{RuleKind, Trigger};
use crate::setup::chit_side;
use crate::solo;
use crate::special;
use crate::state::{ix, other, side_id, Activator, MoveFor, Moving, Place, RallyFor, Stage, State};
use crate::victory;
use crate::withdraw;

/// The chit-puller of a turn: the Confederate player on odd turns, the Union on even (SR 7.2).
#[must_use]
pub const fn puller(turn: u16) -> Side {
    if turn % 2 == 1 {
        Side::Confederate
    } else {
        Side::Union
    }
}

pub(crate) fn decide(side: Side, kind: &str, prompt: String, options: Vec<Choice>) -> Pending {
    Pending::Decide(Decision { side: side_id(side).into(), kind: kind.into(), prompt, options })
}

pub(crate) fn request(side: Side, purpose: String, rule: &str, dice: u8, modifiers: Vec<Modifier>) -> Pending {
    Pending::Roll(RollRequest { side: side_id(side).into(), purpose, rule: rule.into(), dice, modifiers })
}

// ---------------------------------------------------------------------------------------------
// What each stage offers (shared by `pending` and `advance`)

/// Whether any unit of a brigade is on the map or waiting at its entry hexes.
fn present(state: &State, brigade: &str) -> bool {
    state
        .units
        .iter()
        .any(|u| u.brigade.as_deref() == Some(brigade) && matches!(u.place, Place::Map(_) | Place::Waiting(_)))
}

/// The brigades a Division Activation Chit may activate (SR 7.3; EX 7.5): of its division,
/// released, in play, not yet activated this turn.
fn pick_brigades(rules: &BlindSwords, state: &State, chit: &str) -> Vec<String> {
    let cat = &rules.data().catalog;
    let Some(division) = cat.chit(chit).and_then(|c| c.command.as_deref()) else { return Vec::new() };
    state
        .brigades
        .iter()
        .filter(|b| !b.on_hold && !b.activated && present(state, &b.id))
        .filter(|b| cat.brigade(&b.id).and_then(|c| c.division.as_deref()) == Some(division))
        .map(|b| b.id.clone())
        .collect()
}

/// Whether an activation chit goes in the cup (SR 5.3; EX 7.5a): a DAC with a released brigade
/// of its division in play, a Brigade chit whose brigade is released and in play, a CIC chit.
fn eligible(rules: &BlindSwords, state: &State, chit: &str) -> bool {
    let cat = &rules.data().catalog;
    let Some(c) = cat.chit(chit) else { return false };
    let command = c.command.as_deref().unwrap_or("");
    let released = |b: &str| state.brigade(b).is_some_and(|s| !s.on_hold) && present(state, b);
    match c.kind {
        ChitKind::Division => state
            .brigades
            .iter()
            .any(|b| released(&b.id) && cat.brigade(&b.id).and_then(|x| x.division.as_deref()) == Some(command)),
        ChitKind::Brigade => released(command),
        ChitKind::Cic | ChitKind::Wild => true,
        ChitKind::Event => false,
    }
}

/// A side's event chits that may go in the cup this turn (SR 5.1-5.2).
fn event_pool(rules: &BlindSwords, state: &State, side: Side) -> Vec<String> {
    let cat = &rules.data().catalog;
    rules
        .scenario()
        .chits
        .events
        .iter()
        .filter(|e| chit_side(cat, e) == Some(side) && state.chits.out.contains(e))
        .cloned()
        .collect()
}

/// Artillery units a side may move in its Artillery Step (SR 6.1; EX 6.5e: not On Hold).
fn artillery_units(state: &State, side: Side) -> Vec<usize> {
    state
        .units
        .iter()
        .enumerate()
        .filter(|(_, u)| u.side == side && u.ty.is_artillery() && !u.acted && !u.on_hold)
        .filter(|(_, u)| free_to_move(state, &u.place))
        .map(|(i, _)| i)
        .collect()
}

/// Whether a unit in `place` may move: on the map outside the Fog of War chaos hex (EX 7.3b);
/// reinforcements move once placed (SR 10.11).
fn free_to_move(state: &State, place: &Place) -> bool {
    matches!(place, Place::Map(h) if state.chaos != Some(*h))
}

/// The units of a brigade that may still move in its Movement Step (SR 10; EX 7.3b chaos).
fn movable(state: &State, brigade: &str, moved: &[usize]) -> Vec<usize> {
    state
        .units
        .iter()
        .enumerate()
        .filter(|(i, u)| u.brigade.as_deref() == Some(brigade) && !u.ty.is_artillery() && !moved.contains(i))
        .filter(|(_, u)| {
            // EX 7.5c: Brigade Initiative moves an On Hold brigade's units on the map.
            !u.on_hold || (state.events.initiative.as_deref() == Some(brigade) && matches!(u.place, Place::Map(_)))
        })
        .filter(|(_, u)| free_to_move(state, &u.place))
        .map(|(i, _)| i)
        .collect()
}

/// Whether a brigade's Movement Step offers nothing more: no unit left that may move under
/// `order` or leave Skirmish Order (EX 15.1).
fn idle(rules: &BlindSwords, state: &State, brigade: &str, order: Order, moved: &[usize]) -> bool {
    let charts = &rules.data().charts;
    movable(state, brigade, moved).iter().all(|i| {
        let u = &state.units[*i];
        allowance(charts, u.ty, order) <= 0.0 && !u.skirmish
    })
}

/// The hexes a unit set up "within N hexes of" a hex may take (EX 16.0; ruling PO11): in the
/// radius, in play, free of the enemy and within stacking. When none fits, the radius grows one
/// hex at a time (recorded in the prompt).
fn place_hexes(rules: &BlindSwords, state: &State, unit: usize) -> (Vec<Hex>, Hex, u16) {
    let sc = rules.scenario();
    let map = &rules.data().map;
    let (center, radius) = match state.units[unit].line {
        crate::state::Line::Setup(i) => (sc.setup[i].near, sc.setup[i].within),
        crate::state::Line::Reinforcement(r) => (sc.reinforcement[r].near, sc.reinforcement[r].within),
    };
    let (Some(center), Some(radius)) = (center, radius) else { return (Vec::new(), Hex::new(0, 0), 0) };
    if let Some((hexes, d)) = special::fallback_hexes(rules, state, unit) {
        return (hexes, center, d);
    }
    let side = state.units[unit].side;
    let board = Board::new(map, state);
    for r in radius..radius + 12 {
        let hexes: Vec<Hex> = map
            .hexes()
            .filter(|h| map.distance(*h, center) <= r && sc.area.contains(*h))
            .filter(|h| board.occupant(state, *h) != Some(other(side)))
            .filter(|h| movement::stacking_fault(rules, state, &board, *h, Some(unit)).is_none())
            .collect();
        if !hexes.is_empty() {
            return (hexes, center, r);
        }
    }
    (Vec::new(), center, radius)
}

/// The Wayward Moves open to the player opposing `affected` (EX 7.3b): one unit one hex, never
/// into a prohibited or over-stacked hex, off the map, or (artillery) into engagement.
fn wayward_moves(rules: &BlindSwords, state: &State, affected: Side) -> Vec<(usize, Hex)> {
    let data = rules.data();
    let board = Board::new(&data.map, state);
    let mut out = Vec::new();
    for (i, u) in state.units.iter().enumerate().filter(|(_, u)| u.side == affected) {
        let Place::Map(from) = u.place else { continue };
        for (_, to) in data.map.neighbors(from) {
            if !data.map.contains(to)
                || !rules.scenario().area.contains(to)
                || board.occupant(state, to) == Some(other(affected))
            {
                continue;
            }
            if movement::cost(rules, u.ty, None, u.skirmish, Some(from), to).is_none()
                || movement::stacking_fault(rules, state, &board, to, Some(i)).is_some()
            {
                continue;
            }
            if u.ty.is_artillery()
                && !near_enemy(rules, state, affected, from, 2)
                && near_enemy(rules, state, affected, to, 2)
            {
                continue;
            }
            out.push((i, to));
        }
    }
    out
}

fn near_enemy(rules: &BlindSwords, state: &State, side: Side, hex: Hex, d: u16) -> bool {
    let map = &rules.data().map;
    state.units.iter().any(|u| u.side != side && matches!(u.place, Place::Map(h) if map.distance(h, hex) <= d))
}

/// The I Corps brigades A. McCook may activate (EX 7.3c): released and in play, activated or not.
fn mccook_brigades(rules: &BlindSwords, state: &State) -> Vec<String> {
    let cat = &rules.data().catalog;
    let corps = cat.chit("a-mccook").and_then(|c| c.command.clone()).unwrap_or_default();
    state
        .brigades
        .iter()
        .filter(|b| !b.on_hold && present(state, &b.id))
        .filter(|b| cat.brigade(&b.id).is_some_and(|c| c.wing == corps && c.division.is_some()))
        .map(|b| b.id.clone())
        .collect()
}

/// Union brigades Buell Commands may activate (EX 16.4e): released and in play.
fn union_brigades(state: &State) -> Vec<String> {
    state
        .brigades
        .iter()
        .filter(|b| b.side == Side::Union && !b.on_hold && present(state, &b.id))
        .map(|b| b.id.clone())
        .collect()
}

/// On Hold brigades a Buell box may release (EX 14.2b).
fn release_options(rules: &BlindSwords, state: &State, corps: &[String]) -> Vec<String> {
    let cat = &rules.data().catalog;
    state
        .brigades
        .iter()
        .filter(|b| b.side == Side::Union && b.on_hold)
        .filter(|b| cat.brigade(&b.id).is_some_and(|c| corps.contains(&c.wing)))
        .map(|b| b.id.clone())
        .collect()
}

pub(crate) fn chit_name(rules: &BlindSwords, id: &str) -> String {
    rules.data().catalog.chit(id).map_or_else(|| id.to_string(), |c| c.name.clone())
}

pub(crate) fn brigade_name(rules: &BlindSwords, id: &str) -> String {
    rules.data().catalog.brigade(id).map_or_else(|| id.to_string(), |b| b.leader.clone())
}

/// The Command Rating of an activation chit, its Casualty version's when its leader is down
/// (EX 7.3b; A. McCook has none).
fn rating(rules: &BlindSwords, state: &State, chit: &str) -> u8 {
    let cat = &rules.data().catalog;
    let wounded = state.chits.casualties.iter().any(|c| c == chit);
    let Some(c) = cat.chit(chit) else { return 0 };
    let command = c.command.as_deref().unwrap_or("");
    match c.kind {
        ChitKind::Division => cat.division(command).map_or(0, |d| if wounded { d.casualty_rating } else { d.rating }),
        ChitKind::Brigade => {
            cat.brigade(command).and_then(|b| if wounded { b.casualty_rating } else { b.activation }).unwrap_or(0)
        }
        _ => 0,
    }
}

/// The modifiers of an activation roll (EX 16.1e; EX 16.4c).
fn activation_modifiers(rules: &BlindSwords, state: &State, side: Side) -> Vec<Modifier> {
    let cat = &rules.data().catalog;
    let mut out = Vec::new();
    for r in rules.scenario().rules() {
        match &r.kind {
            RuleKind::ActivationModifier { side: s, value, turns } if *s == side && turns.contains(&state.turn) => {
                out.push(Modifier::new(r.title.clone(), i32::from(*value), format!("EX {}", r.section)));
            }
            RuleKind::DivisionChitLimit { free, penalties } if side == Side::Union => {
                let dacs = state
                    .chits
                    .cup
                    .iter()
                    .chain(&state.chits.played)
                    .filter(|c| chit_side(cat, c) == Some(Side::Union))
                    .filter(|c| cat.chit(c).is_some_and(|x| x.kind == ChitKind::Division))
                    .count();
                let worst = penalties.iter().filter(|p| usize::from(p.chits) <= dacs).max_by_key(|p| p.chits);
                if let Some(p) = worst.filter(|_| dacs > usize::from(*free)) {
                    out.push(Modifier::new(
                        format!("{dacs} Union DACs in the cup"),
                        i32::from(p.modifier),
                        format!("EX {}", r.section),
                    ));
                }
            }
            _ => {}
        }
    }
    out
}

/// Whether a scenario activates a chit without a roll this turn (EX 16.0b, 16.2c; A-41).
fn automatic(rules: &BlindSwords, state: &State, chit: &str) -> bool {
    rules.scenario().rules().any(
        |r| matches!(&r.kind, RuleKind::AutoActivation { chit: c, turns } if c == chit && turns.contains(&state.turn)),
    )
}

/// Minutes after midnight of a clock time such as `5:30 PM`.
fn minutes(clock: &str) -> Option<u32> {
    let (time, half) = clock.trim().split_once(' ')?;
    let (h, m) = time.split_once(':')?;
    let (h, m): (u32, u32) = (h.parse().ok()?, m.parse().ok()?);
    Some((h % 12 + if half == "PM" { 12 } else { 0 }) * 60 + m)
}

/// The Buell roll's modifiers that apply now (EX 14.2a).
fn buell_modifiers(rules: &BlindSwords, state: &State) -> Vec<(BuellModifier, Modifier)> {
    let track = &rules.data().charts.buell;
    let broken = |side: Side| state.broken_units().filter(|i| state.units[*i].side == side).count();
    let board = Board::new(&rules.data().map, state);
    let engaged = state.units.iter().any(|u| match u.place {
        Place::Map(h) => movement::enemy_adjacent(rules, state, &board, u.side, h),
        _ => false,
    });
    let late = minutes(rules.clock(state.turn)).is_some_and(|m| m >= 17 * 60 + 30);
    let mut out = Vec::new();
    let mut add = |id: BuellModifier, applies: bool, label: &str| {
        if applies && track.modifier(id) != 0 {
            out.push((id, Modifier::new(label, track.modifier(id), "EX 14.2a")));
        }
    };
    add(
        BuellModifier::UnionMoreBrokenAndEliminated,
        broken(Side::Union) > broken(Side::Confederate),
        "more Union units broken than Confederate",
    );
    add(BuellModifier::MccookChitOnTrack, state.chits.on_buell.is_some(), "A. McCook's chit on the Buell Marker");
    add(BuellModifier::TurnAtOrAfter530Pm, late, "5:30 PM or later");
    add(BuellModifier::NoUnitsEngaged, !engaged, "no units engaged");
    add(BuellModifier::CourierFindsBuell, state.courier, "Courier Finds Buell (Fog of War)");
    out
}

// ---------------------------------------------------------------------------------------------
// pending

/// What the game waits for.
#[must_use]
#[allow(clippy::too_many_lines)]
pub fn pending(rules: &BlindSwords, state: &State) -> Pending {
    let data = rules.data();
    let cat = &data.catalog;
    match &state.stage {
        Stage::Place { unit } => {
            let u = &state.units[*unit];
            let (hexes, center, r) = place_hexes(rules, state, *unit);
            let options = hexes.iter().map(|h| Choice::new(format!("hex:{h}"), format!("{} in {h}", u.name))).collect();
            let prompt = if special::fallback_hexes(rules, state, *unit).is_some() {
                format!(
                    "Place {} in a free hex within {r} hexes of Perryville: {center} is held by the enemy (EX 16.1c)",
                    u.name
                )
            } else {
                format!("Place {} within {r} hexes of {center} (EX 16.0, PO11)", u.name)
            };
            decide(u.side, "place", prompt, options)
        }
        Stage::KeyChit { side } => {
            let options = event_pool(rules, state, *side)
                .iter()
                .map(|e| Choice::new(format!("key:{e}"), chit_name(rules, e)))
                .collect();
            decide(*side, "key-chit", format!("{side}: pick your Key Chit, secretly (SR 5.1, EX 5.1)"), options)
        }
        Stage::RandomEvents { side, .. } => {
            let n = event_pool(rules, state, *side).len();
            request(
                *side,
                format!("draw a {side} event chit at random ({n} left)"),
                "SR 5.2, EX 5.2",
                chits::dice_for(n),
                vec![],
            )
        }
        Stage::Artillery { side, .. } => {
            let mut options: Vec<Choice> = artillery_units(state, *side)
                .into_iter()
                .map(|i| {
                    let u = &state.units[i];
                    let at = state.hex_of(i).map_or_else(|| "off the map".to_string(), |h| format!("in {h}"));
                    Choice::new(
                        format!("move:{}", u.id),
                        format!("Move {} {at} ({} MP)", u.name, allowance(&data.charts, u.ty, Order::Maneuver)),
                    )
                })
                .collect();
            for i in artillery_units(state, *side) {
                let u = &state.units[i];
                for (h, preview) in combat_step::artillery_fires(rules, state, i) {
                    options
                        .push(Choice::new(format!("fire:{}@{h}", u.id), format!("Fire {} at {h}: {preview}", u.name)));
                }
            }
            options.push(Choice::new("pass", "Pass"));
            decide(
                *side,
                "artillery",
                format!("{side} Artillery Step: move a battery, fire one, or pass (SR 6.1-6.3)"),
                options,
            )
        }
        Stage::Draw => {
            let n = state.chits.cup.len();
            request(puller(state.turn), format!("draw from the cup ({n} chits)"), "SR 7.3", chits::dice_for(n), vec![])
        }
        Stage::Fog => request(other(puller(state.turn)), "Fog of War".into(), "SR 7.3b, EX 7.3b", 1, vec![]),
        Stage::Chaos { affected } => {
            let mut hexes: Vec<Hex> = state
                .units
                .iter()
                .filter(|u| u.side == *affected)
                .filter_map(|u| match u.place {
                    Place::Map(h) => Some(h),
                    _ => None,
                })
                .collect();
            hexes.sort();
            hexes.dedup();
            let options = hexes
                .iter()
                .map(|h| {
                    let names: Vec<&str> = state.units_at(*h).map(|i| state.units[i].name.as_str()).collect();
                    Choice::new(format!("hex:{h}"), format!("{h}: {}", names.join(", ")))
                })
                .collect();
            decide(
                other(*affected),
                "battlefield-chaos",
                format!("{affected} Battlefield Chaos: pick a {affected} hex (EX 7.3b)"),
                options,
            )
        }
        Stage::Wayward { affected } => {
            let mut options: Vec<Choice> = wayward_moves(rules, state, *affected)
                .into_iter()
                .map(|(i, h)| {
                    let u = &state.units[i];
                    let from = state.hex_of(i).map(|f| f.to_string()).unwrap_or_default();
                    Choice::new(format!("wayward:{}:{h}", u.id), format!("{} {from} → {h}", u.name))
                })
                .collect();
            options.push(Choice::new("none", "Move nothing"));
            decide(
                other(*affected),
                "wayward-move",
                format!("Wayward {affected} Move: move one {affected} unit one hex (EX 7.3b)"),
                options,
            )
        }
        Stage::Casualty => {
            request(other(puller(state.turn)), "General Casualty Table (d66)".into(), "EX 7.3b", 2, vec![])
        }
        Stage::PickBrigade { chit, negated } => {
            let side = chit_side(cat, chit).unwrap_or(Side::Union);
            let options = pick_brigades(rules, state, chit)
                .iter()
                .map(|b| Choice::new(format!("brigade:{b}"), brigade_name(rules, b)))
                .collect();
            let prompt = if *negated {
                format!(
                    "Fortunes of War negates {}: pick the brigade marked Activated, which does nothing (SR 7.3a)",
                    chit_name(rules, chit)
                )
            } else {
                format!("{}: pick a brigade to activate (SR 7.3, A-01)", chit_name(rules, chit))
            };
            decide(side, "activate", prompt, options)
        }
        Stage::ActivationRoll { chit, brigade } => {
            let side = chit_side(cat, chit).unwrap_or(Side::Union);
            request(
                side,
                format!(
                    "activation of {} by {} (rating {})",
                    brigade_name(rules, brigade),
                    chit_name(rules, chit),
                    rating(rules, state, chit)
                ),
                "SR 7.3, A-01",
                1,
                activation_modifiers(rules, state, side),
            )
        }
        Stage::SoloOrders { .. } => solo::pending(rules, state).unwrap_or(Pending::Over),
        Stage::Mccook => {
            let mut options: Vec<Choice> = mccook_brigades(rules, state)
                .iter()
                .map(|b| Choice::new(format!("cic:{b}"), format!("Activate {} fully", brigade_name(rules, b))))
                .collect();
            if state.buell_box.is_some() {
                options.push(Choice::new("buell", "Place the chit on the Buell Marker (+1 to the Buell roll)"));
            }
            if !events::rally_targets(rules, state, Side::Union).is_empty() {
                options.push(Choice::new("rally", "Use the chit as a Rally Event: one unit recovers"));
            }
            decide(Side::Union, "cic", "A. McCook: use the chit (EX 7.3c)".into(), options)
        }
        Stage::BuellCommands => {
            let options = union_brigades(state)
                .iter()
                .map(|b| Choice::new(format!("brigade:{b}"), format!("Activate {} fully", brigade_name(rules, b))))
                .collect();
            decide(Side::Union, "activate", "Buell Commands!: activate any brigade fully (EX 16.4e)".into(), options)
        }
        Stage::Orders { brigade, .. } => {
            let side = state.brigade(brigade).map_or(Side::Union, |b| b.side);
            let options = Order::ALL
                .iter()
                .map(|o| {
                    let d = data.charts.orders.details(*o);
                    let label = match o {
                        Order::Regroup => {
                            "Regroup: no movement; rally: Recovery of every Morale Hit, or Rebuild".to_string()
                        }
                        _ => format!(
                            "{o:?}: MA infantry {}, cavalry {}{}{}",
                            d.infantry,
                            d.cavalry,
                            if d.engage { ", may engage" } else { ", may not engage" },
                            if *o == Order::Attack { ", fires, then may close" } else { "" }
                        ),
                    };
                    Choice::new(format!("order:{}", format!("{o:?}").to_lowercase()), label)
                })
                .collect();
            decide(side, "order", format!("Orders Step for {} (SR 8.1)", brigade_name(rules, brigade)), options)
        }
        Stage::Move { for_, moved, current } => move_pending(rules, state, for_, moved, current.as_ref()),
        Stage::BuellRoll => request(
            Side::Union,
            "Buell roll".into(),
            "EX 14.2a",
            1,
            buell_modifiers(rules, state).into_iter().map(|m| m.1).collect(),
        ),
        Stage::Release { corps, left } => {
            let options = release_options(rules, state, corps)
                .iter()
                .map(|b| Choice::new(format!("release:{b}"), format!("Release {}", brigade_name(rules, b))))
                .collect();
            decide(Side::Union, "release", format!("Release {left} more On Hold brigade(s) (EX 14.2b)"), options)
        }
        Stage::FireLead { .. }
        | Stage::FireRoll { .. }
        | Stage::FireTest { .. }
        | Stage::FireStep { .. }
        | Stage::FlankFire { .. }
        | Stage::WaywardFire { .. }
        | Stage::RetreatFire { .. }
        | Stage::EventFire { .. }
        | Stage::OppFire { .. } => combat_step::pending(rules, state).unwrap_or(Pending::Over),
        Stage::Aftermath { .. } => retreat_step::pending(rules, state).unwrap_or(Pending::Over),
        Stage::CloseDeclare { .. } | Stage::CloseCombat { .. } | Stage::Advance { .. } => {
            close_step::pending(rules, state).unwrap_or(Pending::Over)
        }
        Stage::HeldChits { .. }
        | Stage::RallyEvent { .. }
        | Stage::Initiative
        | Stage::Confusion { .. }
        | Stage::ConfusionRoll { .. }
        | Stage::Aggressive { .. }
        | Stage::HiddenEnemy { .. }
        | Stage::HiddenMoves { .. } => events::pending(rules, state).unwrap_or(Pending::Over),
        Stage::Withdraw { .. } => withdraw::pending(rules, state).unwrap_or(Pending::Over),
        Stage::RightHookSecret
        | Stage::RightHookReveal { .. }
        | Stage::GreatGrandfather { .. }
        | Stage::Arrive { .. }
        | Stage::Unstack { .. } => special::pending(rules, state),
        Stage::Rally { .. } | Stage::Rebuild { .. } | Stage::RallyPlace { .. } | Stage::RallyDisplace { .. } => {
            rally_step::pending(rules, state).unwrap_or(Pending::Over)
        }
        Stage::TurnStart | Stage::Command | Stage::ReleaseManeuvers | Stage::Over => Pending::Over,
    }
}

fn move_pending(
    rules: &BlindSwords,
    state: &State,
    for_: &MoveFor,
    moved: &[usize],
    current: Option<&Moving>,
) -> Pending {
    let data = rules.data();
    let (side, who) = match for_ {
        MoveFor::Artillery { side } => (*side, "Artillery Step".to_string()),
        MoveFor::Brigade { brigade, order, .. } => (
            state.brigade(brigade).map_or(Side::Union, |b| b.side),
            format!("{} ({order:?})", brigade_name(rules, brigade)),
        ),
    };
    match current {
        None => {
            let MoveFor::Brigade { brigade, order, .. } = for_ else { return Pending::Over };
            let mut options: Vec<Choice> = movable(state, brigade, moved)
                .into_iter()
                .filter(|i| allowance(&data.charts, state.units[*i].ty, *order) > 0.0)
                .map(|i| {
                    let u = &state.units[i];
                    let at = state.hex_of(i).map_or_else(|| "(to enter)".to_string(), |h| format!("in {h}"));
                    let order = special::unit_order(rules, state, for_, i).unwrap_or(*order);
                    Choice::new(
                        format!("unit:{}", u.id),
                        format!(
                            "{} {at}, MA {}",
                            u.name,
                            allowance(&data.charts, u.ty, special::unit_order(rules, state, for_, i).unwrap_or(order))
                        ),
                    )
                })
                .collect();
            for i in movable(state, brigade, moved).into_iter().filter(|i| state.units[*i].skirmish) {
                let u = &state.units[i];
                let at = state.hex_of(i).map(|h| h.to_string()).unwrap_or_default();
                options.push(Choice::new(
                    format!("unform:{}", u.id),
                    format!("{} stays in {at} for the whole order and leaves Skirmish Order (EX 15.1)", u.name),
                ));
            }
            options.push(Choice::new("done", "End the Movement Step"));
            let prompt = if *order == Order::Regroup {
                format!("{who}: no movement; a skirmisher may leave Skirmish Order (SR 8.5, EX 15.1)")
            } else {
                format!("{who} Movement Step: pick a unit to move (SR 10)")
            };
            decide(side, "move-unit", prompt, options)
        }
        Some(m) => {
            let u = &state.units[m.unit];
            let here = state.hex_of(m.unit);
            let order = special::unit_order(rules, state, for_, m.unit);
            let mut options: Vec<Choice> = movement::steps(rules, state, m.unit, m.mp, m.first(), order)
                .into_iter()
                .map(|s| {
                    let left = (m.mp - s.cost.mp).max(0.0);
                    Choice::new(
                        format!("hex:{}", s.hex),
                        format!("{}: {} MP ({}), {left} left", s.hex, s.cost.mp, s.cost.why),
                    )
                })
                .collect();
            let stop =
                here.map_or_else(|| format!("{} stays off the map", u.name), |h| format!("{} stops in {h}", u.name));
            if matches!(for_, MoveFor::Brigade { .. }) && movement::may_form(rules, state, m.unit, m.mp) {
                let entry = data.charts.terrain.movement().skirmish_entry;
                options.push(Choice::new(
                    "skirmish",
                    format!("Take up Skirmish Order: {entry} MP, {} left (EX 15.1)", m.mp - entry),
                ));
            }
            options.extend(special::exit_option(rules, state, m));
            // EX 6.5c: no stopping in a hex the battery over-stacks, unless it has no way on
            // left (never a dead end).
            if !movement::must_move_on(rules, state, m.unit) || options.is_empty() {
                options.push(Choice::new("stop", stop));
            }
            decide(side, "move", format!("{who}: move {} ({} MP left; SR 10.3)", u.name, m.mp), options)
        }
    }
}

// ---------------------------------------------------------------------------------------------
// choose

fn hex_arg(arg: &str) -> Result<Hex, RuleError> {
    arg.parse::<Hex>().map_err(|_| RuleError::NotAnOption(arg.to_string()))
}

/// Applies an option of the pending decision.
///
/// # Errors
/// The option cannot be read; the state is then unchanged.
pub fn choose(rules: &BlindSwords, state: &mut State, option: &str) -> Result<(), RuleError> {
    let bad = || RuleError::NotAnOption(option.to_string());
    let (verb, arg) = option.split_once(':').unwrap_or((option, ""));
    match (state.stage.clone(), verb) {
        (Stage::Place { unit }, "hex") => {
            let h = hex_arg(arg)?;
            occupy(rules, state, unit, h);
            state.to_place.retain(|u| *u != unit);
            state.note(format!("{} placed in {h}", state.units[unit].name), "EX 16.0");
            state.stage = match state.to_place.first() {
                Some(&u) => Stage::Place { unit: u },
                None => Stage::Command,
            };
        }
        (Stage::KeyChit { side }, "key") => {
            let id = arg.to_string();
            if !state.chits.out.contains(&id) {
                return Err(bad());
            }
            state.chits.out.retain(|c| *c != id);
            to_cup(state, id.clone());
            state.chits.key[ix(side)] = Some(id);
            state.note(format!("{side} puts its Key Chit in the cup"), "SR 5.1");
            state.stage = after_key(rules, side);
        }
        (Stage::Artillery { side, passes }, "pass") => {
            state.note(format!("{side} passes"), "SR 6.3");
            state.stage = Stage::Artillery { side: other(side), passes: passes + 1 };
        }
        (Stage::Artillery { side, .. }, "move") => {
            let unit = state.unit_index(arg).ok_or_else(bad)?;
            if !artillery_units(state, side).contains(&unit) {
                return Err(bad());
            }
            let mp = allowance(&rules.data().charts, state.units[unit].ty, Order::Maneuver);
            state.stage = Stage::Move {
                for_: MoveFor::Artillery { side },
                moved: Vec::new(),
                current: Some(Moving::new(unit, mp)),
            };
        }
        (Stage::Artillery { .. }, "fire") => {
            let (unit, hex) = arg.split_once('@').ok_or_else(bad)?;
            let unit = state.unit_index(unit).ok_or_else(bad)?;
            combat_step::start_fire(rules, state, unit, hex_arg(hex)?)?;
        }
        (Stage::FireLead { .. } | Stage::FireTest { .. }, _)
        | (
            Stage::FireStep { .. } | Stage::OppFire { .. } | Stage::WaywardFire { .. } | Stage::RetreatFire { .. },
            "fire",
        )
        | (
            Stage::FireStep { .. } | Stage::OppFire { .. } | Stage::WaywardFire { .. } | Stage::RetreatFire { .. },
            "flank",
        )
        | (Stage::FlankFire { .. } | Stage::EventFire { .. }, _) => combat_step::choose(rules, state, option)?,
        (Stage::FireStep { brigade, order, by, .. }, "done") => end_fire_step(rules, state, brigade, order, by),
        (Stage::OppFire { for_, moved, moving, to, .. }, "let-go") => {
            state.note(format!("{} is let go", state.units[moving.unit].name), "SR 10.7");
            step_on(rules, state, for_, moved, &moving, to);
        }
        (Stage::Aftermath { .. }, _) => retreat_step::choose(rules, state, option)?,
        (Stage::CloseDeclare { .. } | Stage::CloseCombat { .. } | Stage::Advance { .. }, _) => {
            close_step::choose(rules, state, option)?;
        }
        (
            Stage::HeldChits { .. }
            | Stage::RallyEvent { .. }
            | Stage::Initiative
            | Stage::Confusion { .. }
            | Stage::Aggressive { .. }
            | Stage::HiddenEnemy { .. }
            | Stage::HiddenMoves { .. },
            _,
        ) => events::choose(rules, state, option)?,
        (Stage::Withdraw { .. }, _) => withdraw::choose(rules, state, option)?,
        (Stage::Rally { .. } | Stage::RallyPlace { .. } | Stage::RallyDisplace { .. }, _) => {
            rally_step::choose(rules, state, option)?;
        }
        (Stage::Chaos { affected }, "hex") => {
            let h = hex_arg(arg)?;
            state.chaos = Some(h);
            state.note(
                format!("Battlefield Chaos on the {affected} units in {h}: they may not move voluntarily this turn"),
                "EX 7.3b",
            );
            state.stage = Stage::Draw;
        }
        (Stage::Wayward { .. }, "none") => {
            state.note("Wayward Move: nothing moved", "EX 7.3b");
            state.stage = Stage::Draw;
        }
        (Stage::Wayward { .. }, "wayward") => {
            let (id, hex) = arg.split_once(':').ok_or_else(bad)?;
            let unit = state.unit_index(id).ok_or_else(bad)?;
            let h = hex_arg(hex)?;
            match state.hex_of(unit) {
                Some(from) if combat_step::opportunity_due(rules, state, unit, from) => {
                    let name = &state.units[unit].name;
                    state.note(format!("Wayward Move: {name} is to move from {from} to {h}"), "EX 7.3b, SR 10.7");
                    state.stage = Stage::WaywardFire { unit, from, to: h, fired: Vec::new() };
                }
                _ => wayward_step(rules, state, unit, h),
            }
        }
        (Stage::WaywardFire { .. }, "let-go") => wayward_go(rules, state),
        (Stage::RetreatFire { .. }, "let-go") => retreat_step::resume(rules, state),
        (Stage::PickBrigade { chit, negated }, "brigade") => {
            let b = state.brigade_mut(arg).ok_or_else(bad)?;
            b.activated = true;
            let name = brigade_name(rules, arg);
            if negated {
                state.note(format!("{name} is marked Activated and does nothing (Fortunes of War)"), "SR 7.3a");
                after_activation(rules, state, &Activator::Chit { chit });
            } else if automatic(rules, state, &chit) {
                state.note(
                    format!("{} activates {name} without a roll: Full Activation", chit_name(rules, &chit)),
                    "EX 16.0b",
                );
                state.stage = Stage::Orders { brigade: arg.to_string(), by: Activator::Chit { chit } };
            } else if solo::orders_by_roll(rules, &chit, arg) {
                state.note(
                    format!("{} activates {name} without a roll (solo variant)", chit_name(rules, &chit)),
                    "EX 16.0d",
                );
                state.stage = Stage::SoloOrders { chit, brigade: arg.to_string() };
            } else {
                state.stage = Stage::ActivationRoll { chit, brigade: arg.to_string() };
            }
        }
        (Stage::Mccook, "cic") => {
            let b = state.brigade_mut(arg).ok_or_else(bad)?;
            b.activated = true;
            state.note(format!("A. McCook activates {} fully", brigade_name(rules, arg)), "EX 7.3c");
            state.stage = Stage::Orders { brigade: arg.to_string(), by: Activator::Command };
        }
        (Stage::Mccook, "rally") => {
            if events::rally_targets(rules, state, Side::Union).is_empty() {
                return Err(bad());
            }
            state.note("A. McCook is used as a Rally Event", "EX 7.3c");
            state.stage = Stage::RallyEvent { side: Side::Union };
        }
        (Stage::Mccook, "buell") => {
            state.chits.played.retain(|c| c != "a-mccook");
            state.chits.on_buell = Some("a-mccook".into());
            state.note("A. McCook's chit goes on the Buell Marker (+1 to the Buell roll)", "EX 7.3c");
            state.stage = Stage::Draw;
        }
        (Stage::BuellCommands, "brigade") => {
            state.brigade(arg).ok_or_else(bad)?;
            state.note(format!("Buell Commands!: {} is fully activated", brigade_name(rules, arg)), "EX 16.4e");
            state.stage = Stage::Orders { brigade: arg.to_string(), by: Activator::Command };
        }
        (Stage::Orders { brigade, by }, "order") => {
            let order = Order::ALL.into_iter().find(|o| format!("{o:?}").to_lowercase() == arg).ok_or_else(bad)?;
            if let Some(b) = state.brigade_mut(&brigade) {
                b.order = Some(order);
            }
            state.note(format!("{} takes a {order:?} order", brigade_name(rules, &brigade)), "SR 8.1");
            events::after_order(rules, state, brigade, by, order);
        }
        (Stage::Move { for_, moved, current: None }, "unit") => {
            let unit = state.unit_index(arg).ok_or_else(bad)?;
            if !matches!(&for_, MoveFor::Brigade { brigade, .. } if movable(state, brigade, &moved).contains(&unit)) {
                return Err(bad());
            }
            let order = special::unit_order(rules, state, &for_, unit).unwrap_or(Order::Maneuver);
            let mp = allowance(&rules.data().charts, state.units[unit].ty, order);
            if mp <= 0.0 {
                return Err(bad()); // Regroup: no movement (SR 8.5).
            }
            state.stage = Stage::Move { for_, moved, current: Some(Moving::new(unit, mp)) };
        }
        (Stage::Move { for_, .. }, "done") => finish_move(rules, state, &for_),
        (Stage::Move { for_, moved, current: Some(m) }, "hex") => {
            let h = hex_arg(arg)?;
            let order = special::unit_order(rules, state, &for_, m.unit);
            if !movement::steps(rules, state, m.unit, m.mp, m.first(), order).iter().any(|s| s.hex == h) {
                return Err(bad());
            }
            match state.hex_of(m.unit) {
                Some(from) if combat_step::opportunity_due(rules, state, m.unit, from) => {
                    let u = &state.units[m.unit];
                    state.note(format!("{} announces a move from {from} to {h}", u.name), "SR 10.7");
                    state.stage = Stage::OppFire { for_, moved, moving: m, from, to: h, fired: Vec::new() };
                }
                _ => step_on(rules, state, for_, moved, &m, h),
            }
        }
        (Stage::Move { for_: for_ @ MoveFor::Brigade { .. }, moved, current: Some(m) }, "skirmish") => {
            if !movement::may_form(rules, state, m.unit, m.mp) {
                return Err(bad());
            }
            let entry = rules.data().charts.terrain.movement().skirmish_entry;
            state.units[m.unit].skirmish = true;
            state.note(format!("{} takes up Skirmish Order ({entry} MP)", state.units[m.unit].name), "EX 15.1");
            let next = Moving { mp: m.mp - entry, formed: true, ..m };
            state.stage = Stage::Move { for_, moved, current: Some(next) };
        }
        (Stage::Move { for_: for_ @ MoveFor::Brigade { .. }, mut moved, current: None }, "unform") => {
            let MoveFor::Brigade { brigade, .. } = &for_ else { return Err(bad()) };
            let unit = state.unit_index(arg).ok_or_else(bad)?;
            if !state.units[unit].skirmish || !movable(state, brigade, &moved).contains(&unit) {
                return Err(bad());
            }
            state.units[unit].skirmish = false;
            state.note(
                format!("{} stays still for its whole order and leaves Skirmish Order", state.units[unit].name),
                "EX 15.1",
            );
            moved.push(unit);
            state.stage = Stage::Move { for_, moved, current: None };
        }
        (Stage::Move { for_, moved, current: Some(m) }, "stop") => {
            let order = special::unit_order(rules, state, &for_, m.unit);
            let way_on = !movement::steps(rules, state, m.unit, m.mp, m.first(), order).is_empty()
                || special::exit_option(rules, state, &m).is_some();
            if movement::must_move_on(rules, state, m.unit) && way_on {
                return Err(bad()); // EX 6.5c: not in a hex it over-stacks.
            }
            stop_unit(rules, state, for_, moved, &m);
        }
        (Stage::Move { for_, mut moved, current: Some(m) }, "exit") => {
            special::exit_option(rules, state, &m).ok_or_else(bad)?;
            special::exit(rules, state, m.unit);
            moved.push(m.unit);
            unit_done(rules, state, for_, moved, m.unit);
        }
        (Stage::RightHookSecret | Stage::RightHookReveal { .. } | Stage::Arrive { .. } | Stage::Unstack { .. }, _) => {
            special::choose(rules, state, option)?;
        }
        (Stage::Release { left, corps }, "release") => {
            if state.brigade(arg).is_none_or(|b| !b.on_hold) {
                return Err(bad());
            }
            release(rules, state, arg, true);
            state.stage = Stage::Release { left: left.saturating_sub(1), corps };
        }
        _ => return Err(bad()),
    }
    Ok(())
}

/// Carries out a brigade's order: Regroup ends the activation, any other order starts the
/// Movement Step (SR 8.1-8.5).
pub(crate) fn start_order(rules: &BlindSwords, state: &mut State, brigade: String, by: Activator, order: Order) {
    // SR 10.11: a Full Activation places the brigade's waiting reinforcements.
    let after = special::After::Order { brigade: brigade.clone(), order, by: by.clone() };
    if let Some(stage) = special::arrive(rules, state, Some(&brigade), &after) {
        state.stage = stage;
        return;
    }
    if order == Order::Regroup {
        // SR 10.11: reinforcements frozen over-stacked leave their entry hex at once.
        if let Some(stage) = special::unstack(rules, state, &after) {
            state.stage = stage;
            return;
        }
        state.note("Regroup: no movement, the Rally Step follows", "SR 8.5");
        // EX 15.1: its skirmishers stay still for this whole order and may leave Skirmish Order;
        // the Rally Step follows that Movement Step.
        // EX 16.0b's unit moves under a Maneuver order first.
        if let Some(free) = special::free_maneuver_move(rules, state, &brigade, &by) {
            state.stage = free;
        } else if movable(state, &brigade, &[]).iter().any(|i| state.units[*i].skirmish) {
            let for_ = MoveFor::Brigade { brigade, order, by };
            state.stage = Stage::Move { for_, moved: Vec::new(), current: None };
        } else {
            rally_step::begin(rules, state, brigade, order, by);
        }
    } else if rules.data().charts.orders.details(order).fire {
        // SR 4.0 4b: the brigade's Fire Combat Step comes before its Movement Step.
        state.stage = Stage::FireStep { brigade, order: Some(order), by, fired: Vec::new() };
    } else {
        begin_movement(state, brigade, order, by);
    }
}

/// Puts a unit in a hex; infantry or foot artillery takes control of a victory hex (EX 16.0
/// preamble: the last side to have such a unit there controls it).
pub(crate) fn occupy(rules: &BlindSwords, state: &mut State, unit: usize, hex: Hex) {
    state.units[unit].place = Place::Map(hex);
    let side = state.units[unit].side;
    let controls = matches!(state.units[unit].ty, UnitType::Infantry | UnitType::Artillery);
    if controls && rules.victory_hexes().contains(&hex) {
        state.control.retain(|(h, _)| *h != hex);
        state.control.push((hex, side));
        state.control.sort();
    }
}

fn to_cup(state: &mut State, chit: String) {
    state.chits.cup.push(chit);
    state.chits.cup.sort();
}

fn after_key(rules: &BlindSwords, side: Side) -> Stage {
    let first = rules.scenario().first_player;
    if side == first {
        Stage::KeyChit { side: other(first) }
    } else {
        Stage::RandomEvents { side: first, left: rules.scenario().chits.random }
    }
}

/// A unit's move ends: the next unit of the brigade, or the end of the artillery's move.
pub(crate) fn stop_unit(rules: &BlindSwords, state: &mut State, for_: MoveFor, mut moved: Vec<usize>, m: &Moving) {
    let u = &state.units[m.unit];
    let text = match state.hex_of(m.unit) {
        Some(h) if m.steps > 0 => format!("{} moves to {h}", u.name),
        Some(h) => format!("{} stays in {h}", u.name),
        None => format!("{} stays off the map", u.name),
    };
    state.note(text, "SR 10");
    moved.push(m.unit);
    unit_done(rules, state, for_, moved, m.unit);
}

/// A unit's move is over: the next unit of the brigade, or the next Artillery Step.
fn unit_done(rules: &BlindSwords, state: &mut State, for_: MoveFor, moved: Vec<usize>, unit: usize) {
    if let MoveFor::Artillery { .. } = for_ {
        state.units[unit].acted = true;
        finish_move(rules, state, &for_);
    } else {
        state.stage = Stage::Move { for_, moved, current: None };
    }
}

/// The moving unit enters `to`, if it still may (SR 10.3; after Opportunity Fire its state may
/// have changed), else its move ends where it is.
fn step_on(rules: &BlindSwords, state: &mut State, for_: MoveFor, moved: Vec<usize>, m: &Moving, to: Hex) {
    let order = special::unit_order(rules, state, &for_, m.unit);
    let step = movement::steps(rules, state, m.unit, m.mp, m.first(), order).into_iter().find(|s| s.hex == to);
    let Some(step) = step else {
        stop_unit(rules, state, for_, moved, m);
        return;
    };
    let from = state.hex_of(m.unit);
    special::entering(state, m.unit);
    occupy(rules, state, m.unit, to);
    let mp = (m.mp - step.cost.mp).max(0.0);
    let next = Moving { mp, steps: m.steps + 1, ..m.clone() };
    state.stage = Stage::Move { for_, moved, current: Some(next) };
    check_hold_triggers(rules, state, m.unit);
    withdraw::after_move(rules, state, m.unit, from);
}

/// A Wayward Move made (EX 7.3b): the unit one hex, then the next draw.
fn wayward_step(rules: &BlindSwords, state: &mut State, unit: usize, h: Hex) {
    let start = state.hex_of(unit);
    let from = start.map(|f| f.to_string()).unwrap_or_default();
    occupy(rules, state, unit, h);
    state.note(format!("Wayward Move: {} from {from} to {h}", state.units[unit].name), "EX 7.3b");
    state.stage = Stage::Draw;
    withdraw::after_move(rules, state, unit, start);
}

/// The Opportunity Fire at a Wayward Move is over and the unit was not retreated: the move is
/// made if it is still legal (EX 7.3b), else nothing moves.
fn wayward_go(rules: &BlindSwords, state: &mut State) {
    let Stage::WaywardFire { unit, to, .. } = state.stage.clone() else { return };
    if wayward_moves(rules, state, state.units[unit].side).contains(&(unit, to)) {
        wayward_step(rules, state, unit, to);
    } else {
        state.note(format!("Wayward Move: {} can no longer move to {to}", state.units[unit].name), "EX 7.3b");
        state.stage = Stage::Draw;
    }
}

/// The Fire Combat Step is over: the Movement Step under the brigade's order (SR 4.0 4c), or,
/// after a Limited Activation, the end of the activation (ruling A-01b).
fn end_fire_step(rules: &BlindSwords, state: &mut State, brigade: String, order: Option<Order>, by: Activator) {
    match order {
        Some(order) => begin_movement(state, brigade, order, by),
        None => match special::free_maneuver_move(rules, state, &brigade, &by) {
            Some(free) => state.stage = free,
            None => after_activation(rules, state, &by),
        },
    }
}

/// A Limited Activation: the brigade's units may fire as under a Defend order, then the
/// activation ends (ruling A-01b).
pub(crate) fn limited_fire(state: &mut State, brigade: String, chit: String) {
    state.stage = Stage::FireStep { brigade, order: None, by: Activator::Chit { chit }, fired: Vec::new() };
}

/// A brigade's Movement Step begins (SR 4.0 4c): the Union may first play Hidden Enemy
/// ([`events::movement_start`]).
fn begin_movement(state: &mut State, brigade: String, order: Order, by: Activator) {
    state.stage = events::movement_start(state, MoveFor::Brigade { brigade, order, by });
}

pub(crate) fn finish_move(rules: &BlindSwords, state: &mut State, for_: &MoveFor) {
    // SR 10.11: reinforcements still over-stacked after their first move leave the entry hex.
    if let MoveFor::Brigade { .. } = for_ {
        if let Some(stage) = special::unstack(rules, state, &special::After::Movement { for_: for_.clone() }) {
            state.stage = stage;
            return;
        }
    }
    match for_ {
        MoveFor::Artillery { side } => state.stage = Stage::Artillery { side: other(*side), passes: 0 },
        // SR 4.0 Phase 4d: an Attack order's Close Combat Step follows its movement.
        MoveFor::Brigade { brigade, order: Order::Attack, by } => {
            close_step::begin(rules, state, brigade.clone(), by.clone());
        }
        MoveFor::Brigade { brigade, order, by } => rally_step::begin(rules, state, brigade.clone(), *order, by.clone()),
    }
}

/// After a brigade's activation: a DAC goes back in the cup while its division has brigades
/// left to activate (SR 7.3a); then the next draw, or the next released brigade (EX 14.2b).
pub(crate) fn after_activation(rules: &BlindSwords, state: &mut State, by: &Activator) {
    state.events.initiative = None;
    state.events.hidden = None;
    match by {
        Activator::Chit { chit } => {
            let dac = rules.data().catalog.chit(chit).is_some_and(|c| c.kind == ChitKind::Division);
            if dac && !pick_brigades(rules, state, chit).is_empty() && state.chits.played.contains(chit) {
                state.chits.played.retain(|c| c != chit);
                to_cup(state, chit.clone());
                state.note(format!("{} goes back in the cup", chit_name(rules, chit)), "SR 7.3a");
            }
            state.stage = Stage::Draw;
        }
        Activator::Command => state.stage = Stage::Draw,
        Activator::Release => state.stage = Stage::ReleaseManeuvers,
    }
}

/// Releases an On Hold brigade (EX 7.5b, 14.2b), with the On Hold units of its division.
pub(crate) fn release(rules: &BlindSwords, state: &mut State, brigade: &str, maneuver: bool) {
    let division = rules.data().catalog.brigade(brigade).and_then(|b| b.division.clone());
    if let Some(b) = state.brigade_mut(brigade) {
        b.on_hold = false;
    }
    for u in &mut state.units {
        if u.brigade.as_deref() == Some(brigade)
            || (u.brigade.is_none() && u.division.is_some() && u.division == division)
        {
            u.on_hold = false;
        }
    }
    state.note(format!("{} is released", brigade_name(rules, brigade)), "EX 7.5b");
    if maneuver {
        state.maneuvers.push(brigade.to_string());
    }
    arrivals(rules, state);
}

/// EX 16.1b: brigades On Hold until a Union unit comes near a hex or near Perryville.
fn check_hold_triggers(rules: &BlindSwords, state: &mut State, unit: usize) {
    let Some(hex) = state.hex_of(unit) else { return };
    if state.units[unit].side != Side::Union {
        return;
    }
    let map = &rules.data().map;
    for r in rules.scenario().rules() {
        if let RuleKind::OnHoldTrigger { brigades, union_near, union_within, town_within } = &r.kind {
            let waiting: Vec<String> =
                brigades.iter().filter(|b| state.brigade(b).is_some_and(|s| s.on_hold)).cloned().collect();
            if !waiting.is_empty()
                && (map.distance(hex, *union_near) <= *union_within
                    || rules.towns().iter().any(|t| map.distance(*t, hex) <= *town_within))
            {
                for b in waiting {
                    release(rules, state, &b, false);
                }
            }
        }
    }
}

/// Reinforcements whose turn or trigger has come become able to enter (SR 10.11; EX 16).
fn arrivals(rules: &BlindSwords, state: &mut State) {
    let sc = rules.scenario();
    let cat = &rules.data().catalog;
    let ii_released =
        state.brigades.iter().any(|b| !b.on_hold && cat.brigade(&b.id).is_some_and(|c| c.wing == "ii-corps"));
    let ii_entered = state
        .units
        .iter()
        .any(|u| matches!(u.place, Place::Map(_)) && cat.unit(&u.id).is_some_and(|c| c.wing == "ii-corps"));
    for (r, line) in sc.reinforcement.iter().enumerate() {
        let due = line.turn.is_none_or(|t| t <= state.turn);
        let ready = due
            && match line.trigger {
                Trigger::Turn => line.turn.is_some(),
                Trigger::Released => true,
                Trigger::IiCorpsReleased => ii_released,
                Trigger::IiCorpsEnters => ii_entered,
            };
        // A line of several brigades released one by one (EX 14.2b) brings each in on its release.
        let released = |u: &crate::state::UnitState| {
            line.trigger != Trigger::Released
                || u.brigade.as_deref().is_none_or(|b| state.brigade(b).is_none_or(|s| !s.on_hold))
        };
        let arriving: Vec<usize> = state
            .units
            .iter()
            .enumerate()
            .filter(|(_, u)| u.place == Place::NotYet(r) && released(u))
            .map(|(i, _)| i)
            .collect();
        if !ready || arriving.is_empty() || state.special.skipped.contains(&r) {
            continue;
        }
        let side = state.units[arriving[0]].side;
        match special::arrival(rules, state, r, side) {
            special::Arrival::Never => {
                state.special.skipped.push(r);
                let near = line.near.map(|h| h.to_string()).unwrap_or_default();
                state.note(
                    format!("{near} is held by the enemy and no hex near Perryville is free: these reinforcements never enter"),
                    "EX 16.1c",
                );
                continue;
            }
            special::Arrival::Fallback => state.special.fallback.push(r),
            special::Arrival::Near => {}
        }
        for &i in &arriving {
            if line.near.is_some() && line.within.is_some() {
                state.units[i].place = Place::SetUp;
                state.to_place.push(i);
            } else {
                state.units[i].place = Place::Waiting(r);
            }
        }
        for c in &line.chits {
            if !state.chits.in_play.contains(c) {
                state.chits.in_play.push(c.clone());
            }
        }
        let names: Vec<&str> = arriving.iter().map(|i| state.units[*i].name.as_str()).collect();
        let text = format!("Reinforcements may enter: {}", names.join(", "));
        state.note(text, "SR 10.11");
    }
}

// ---------------------------------------------------------------------------------------------
// roll

/// Applies the dice of the pending roll.
///
/// # Errors
/// Nothing waits for a roll, or the dice are not what it asked; the state is then unchanged.
pub fn roll(rules: &BlindSwords, state: &mut State, dice: &[u8]) -> Result<(), RuleError> {
    let Pending::Roll(req) = pending(rules, state) else {
        return Err(RuleError::Unexpected("no roll is pending".into()));
    };
    if dice.len() != usize::from(req.dice) || dice.iter().any(|d| !(1..=6).contains(d)) {
        return Err(RuleError::BadRoll(format!("{} dice of 1-6 wanted, got {dice:?}", req.dice)));
    }
    let cat = &rules.data().catalog;
    let shown = dice.iter().map(u8::to_string).collect::<Vec<_>>().join(" ");
    let log = |state: &mut State, text: String| {
        let record = RollRecord::new(&req, dice, text.clone());
        state.log.push(LogEntry { turn: state.turn, text, rule: Some(req.rule.clone()), roll: Some(record) });
    };
    match state.stage.clone() {
        Stage::RandomEvents { side, left } => {
            let pool = event_pool(rules, state, side);
            match chits::pick(pool.len(), dice) {
                None => log(
                    state,
                    format!(
                        "{side} event draw ({} chits): dice {shown} fall beyond an even share: roll again",
                        pool.len()
                    ),
                ),
                Some(i) => {
                    let id = pool[i].clone();
                    state.chits.out.retain(|c| *c != id);
                    to_cup(state, id);
                    log(
                        state,
                        format!("{side} adds an event chit drawn face down ({} chits): dice {shown}", pool.len()),
                    );
                    state.stage = Stage::RandomEvents { side, left: left.saturating_sub(1) };
                }
            }
        }
        Stage::Draw => {
            let n = state.chits.cup.len();
            match chits::pick(n, dice) {
                None => log(
                    state,
                    format!("draw from the cup ({n} chits): dice {shown} fall beyond an even share: roll again"),
                ),
                Some(i) => {
                    let chit = state.chits.cup.remove(i);
                    state.events.asked = false;
                    state.events.next = None;
                    for k in &mut state.chits.key {
                        if k.as_deref() == Some(chit.as_str()) {
                            *k = None;
                        }
                    }
                    let secret = cat.chit(&chit).is_some_and(|c| c.kind == ChitKind::Event) && !state.chits.fortunes;
                    let what = if secret {
                        format!("a {} event chit", chit_side(cat, &chit).map_or("?".to_string(), |s| s.to_string()))
                    } else {
                        chit_name(rules, &chit)
                    };
                    log(state, format!("draw from the cup ({n} chits): dice {shown} → {what}"));
                    drawn(rules, state, chit);
                }
            }
        }
        Stage::Fog => {
            let result = rules.data().charts.fog_of_war.result(dice[0], &rules.scenario().section);
            log(
                state,
                format!(
                    "Fog of War: {} → {}",
                    dice[0],
                    result.map_or_else(|| "no result".to_string(), |r| format!("{r:?}"))
                ),
            );
            state.stage = match result {
                Some(FogOfWar::UnionBattlefieldChaos) => Stage::Chaos { affected: Side::Union },
                Some(FogOfWar::ConfederateBattlefieldChaos) => Stage::Chaos { affected: Side::Confederate },
                Some(FogOfWar::WaywardUnionMove) => Stage::Wayward { affected: Side::Union },
                Some(FogOfWar::WaywardConfederateMove) => Stage::Wayward { affected: Side::Confederate },
                Some(FogOfWar::PossibleGeneralCasualty) => Stage::Casualty,
                Some(FogOfWar::CourierToBuell) => {
                    state.courier = true;
                    Stage::Draw
                }
                Some(FogOfWar::BuellCommands) => Stage::BuellCommands,
                Some(FogOfWar::NoEffect) | None => Stage::Draw,
            };
        }
        Stage::Casualty => {
            let general = D66::new(dice[0], dice[1]).and_then(|r| rules.data().charts.general_casualty.general(r));
            match general {
                Some(g) => {
                    let g = g.to_string();
                    let name = chit_name(rules, &g);
                    if state.chits.casualties.contains(&g) {
                        state.chits.casualties.retain(|c| *c != g);
                        log(state, format!("General Casualty Table {shown}: {name} returns; his normal chit is back"));
                    } else {
                        state.chits.casualties.push(g);
                        log(
                            state,
                            format!("General Casualty Table {shown}: {name} falls; his Casualty chit replaces him"),
                        );
                    }
                }
                None => log(state, format!("General Casualty Table {shown}: no casualty")),
            }
            state.stage = Stage::Draw;
        }
        Stage::ActivationRoll { chit, brigade } => {
            let side = chit_side(cat, &chit).unwrap_or(Side::Union);
            let modifier: i32 = activation_modifiers(rules, state, side).iter().map(|m| m.value).sum();
            let r = rating(rules, state, &chit);
            match rules.data().charts.activation.roll(dice[0], modifier, r) {
                Activation::Full => {
                    log(state, format!("{}: {} against {r}: Full Activation", brigade_name(rules, &brigade), dice[0]));
                    state.stage = Stage::Orders { brigade, by: Activator::Chit { chit } };
                }
                Activation::Limited => {
                    log(
                        state,
                        format!(
                            "{}: {} against {r}: Limited Activation, no order; its only action is fire (ruling A-01b)",
                            brigade_name(rules, &brigade),
                            dice[0]
                        ),
                    );
                    if !events::offer_aggressive(rules, state, &chit, &brigade) {
                        limited_fire(state, brigade, chit);
                    }
                }
            }
        }
        Stage::SoloOrders { chit, brigade } => {
            let order = solo::order_of_roll(rules, dice[0]).unwrap_or(Order::Regroup);
            log(
                state,
                format!("Command Confusion {}: {}'s order is {order:?}", dice[0], brigade_name(rules, &brigade)),
            );
            // The Orders Step applies the order as if the player had given it (SR 8.1); under
            // Regroup the 7th Arkansas still moves on turn 1 (EX 16.0b, [`special::unit_order`]).
            state.stage = Stage::Orders { brigade, by: Activator::Chit { chit } };
            choose(rules, state, &format!("order:{}", format!("{order:?}").to_lowercase()))?;
        }
        Stage::BuellRoll => {
            let applying: Vec<BuellModifier> = buell_modifiers(rules, state).into_iter().map(|m| m.0).collect();
            let track = &rules.data().charts.buell;
            let at = state.buell_box.unwrap_or(0);
            if track.moves(dice[0], &applying) && at + 1 < track.boxes().len() {
                let next = &track.boxes()[at + 1];
                state.buell_box = Some(at + 1);
                log(state, format!("Buell roll {}: the Buell Marker moves to \"{}\"", dice[0], next.name));
                match next.count {
                    ReleaseCount::All => {
                        let all: Vec<String> = state
                            .brigades
                            .iter()
                            .filter(|b| b.side == Side::Union && b.on_hold)
                            .map(|b| b.id.clone())
                            .collect();
                        for b in all {
                            release(rules, state, &b, true);
                        }
                        state.stage = Stage::ReleaseManeuvers;
                    }
                    ReleaseCount::Some(n) => state.stage = Stage::Release { left: n, corps: next.corps.clone() },
                }
            } else {
                log(state, format!("Buell roll {}: the Buell Marker stays", dice[0]));
                state.stage = Stage::ReleaseManeuvers;
            }
            special::after_buell(rules, state);
        }
        Stage::ConfusionRoll { .. } => {
            let (order, text) =
                events::confusion(rules, state, dice[0]).ok_or_else(|| RuleError::BadRoll(shown.clone()))?;
            log(state, text);
            events::apply_confusion(rules, state, order);
        }
        Stage::GreatGrandfather { .. } => return special::roll(rules, state, dice),
        Stage::FireRoll { .. } | Stage::FireTest { .. } => {
            let text = combat_step::roll(rules, state, dice);
            log(state, text);
            combat_step::finish_test(rules, state);
        }
        Stage::Aftermath { .. } => {
            let text = retreat_step::roll(state, dice);
            log(state, text);
        }
        Stage::CloseCombat { .. } => {
            let text = close_step::roll(rules, state, dice);
            log(state, text);
        }
        Stage::Rebuild { .. } => {
            let text = rally_step::roll(rules, state, dice);
            log(state, text);
        }
        _ => return Err(RuleError::Unexpected("no roll is pending".into())),
    }
    Ok(())
}

/// What a drawn chit does (SR 7.3, 7.3a-b; EX 7.3c-e).
fn drawn(rules: &BlindSwords, state: &mut State, chit: String) {
    let cat = &rules.data().catalog;
    let Some(c) = cat.chit(&chit) else { return };
    let kind = c.kind;
    if state.chits.fortunes {
        state.chits.fortunes = false;
        state.chits.played.push(chit.clone());
        if kind == ChitKind::Division {
            state.stage = Stage::PickBrigade { chit, negated: true };
        } else {
            state.note(format!("{} is negated by Fortunes of War", chit_name(rules, &chit)), "SR 7.3a");
            state.stage = Stage::Draw;
        }
        return;
    }
    match kind {
        ChitKind::Event => {
            let side = chit_side(cat, &chit).unwrap_or(Side::Union);
            state.chits.held[ix(side)].push(chit);
            state.note(format!("{side} holds the event chit"), "SR 7.3");
            state.stage = Stage::Draw;
        }
        ChitKind::Wild if chit == "fog-of-war" => {
            state.chits.played.push(chit);
            state.stage = Stage::Fog;
        }
        ChitKind::Wild => {
            state.chits.played.push(chit);
            state.chits.fortunes = true;
            state.note("Fortunes of War: the next chit drawn is negated", "SR 7.3a");
            state.stage = Stage::Draw;
        }
        ChitKind::Cic => {
            state.chits.played.push(chit);
            state.stage = Stage::Mccook;
        }
        ChitKind::Division => {
            state.chits.played.push(chit.clone());
            state.stage = Stage::PickBrigade { chit, negated: false };
        }
        ChitKind::Brigade => {
            state.chits.played.push(chit.clone());
            let brigade = c.command.clone().unwrap_or_default();
            let ok = state.brigade(&brigade).is_some_and(|b| !b.on_hold && !b.activated) && present(state, &brigade);
            if !ok {
                state.note(format!("{} has no brigade to activate", chit_name(rules, &chit)), "SR 7.3");
                state.stage = Stage::Draw;
            } else {
                if let Some(b) = state.brigade_mut(&brigade) {
                    b.activated = true;
                }
                state.stage = if automatic(rules, state, &chit) {
                    Stage::Orders { brigade, by: Activator::Chit { chit } }
                } else {
                    Stage::ActivationRoll { chit, brigade }
                };
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// advance: the steps that need nobody

/// Runs the steps that need no decision nor roll until the game waits for one.
pub fn advance(rules: &BlindSwords, state: &mut State) {
    for _ in 0..10_000 {
        if special::interrupt(rules, state) {
            return;
        }
        if events::advance(rules, state) || withdraw::advance(rules, state) {
            continue;
        }
        let next = match &state.stage {
            Stage::TurnStart => {
                if let Some(s) = special::before_turn(rules, state) {
                    state.stage = s;
                    return;
                }
                turn_start(rules, state);
                continue;
            }
            Stage::Place { .. } if state.to_place.is_empty() => Stage::Command,
            Stage::Command => {
                state.chits.key = [None, None];
                Stage::KeyChit { side: rules.scenario().first_player }
            }
            Stage::KeyChit { side } if solo::all_events(rules, *side) => {
                let side = *side;
                for e in event_pool(rules, state, side) {
                    state.chits.out.retain(|c| *c != e);
                    to_cup(state, e);
                }
                state.note(format!("{side}: every event chit goes in the cup (solo variant)"), "EX 16.0d");
                after_key(rules, side)
            }
            Stage::KeyChit { side } if event_pool(rules, state, *side).is_empty() => after_key(rules, *side),
            Stage::RandomEvents { side, left } if *left == 0 || event_pool(rules, state, *side).is_empty() => {
                let first = rules.scenario().first_player;
                if *side == first {
                    Stage::RandomEvents { side: other(first), left: rules.scenario().chits.random }
                } else {
                    fill_cup(rules, state);
                    artillery_phase(rules, state)
                }
            }
            Stage::Artillery { passes, .. } if *passes >= 2 => {
                state.note("The Artillery Steps end", "SR 6.3");
                special::unstack(rules, state, &special::After::ArtilleryEnd)
                    .unwrap_or(Stage::Rally { for_: RallyFor::Artillery { side: Side::Union } })
            }
            Stage::Rally { for_ } if rally_step::candidates(rules, state, for_).is_empty() => {
                let for_ = for_.clone();
                rally_step::finish(rules, state, &for_);
                continue;
            }
            Stage::Artillery { side, passes } if artillery_units(state, *side).is_empty() => {
                Stage::Artillery { side: other(*side), passes: passes + 1 }
            }
            Stage::Draw if !state.events.asked => {
                if events::window_open(state) {
                    Stage::HeldChits { side: state.events.next.unwrap_or(Side::Union), passes: 0 }
                } else {
                    state.events.asked = true;
                    continue;
                }
            }
            Stage::Draw if state.chits.cup.is_empty() => {
                end_turn(rules, state);
                continue;
            }
            Stage::Chaos { affected }
                if !state.units.iter().any(|u| u.side == *affected && matches!(u.place, Place::Map(_))) =>
            {
                Stage::Draw
            }
            Stage::Wayward { affected } if wayward_moves(rules, state, *affected).is_empty() => Stage::Draw,
            Stage::PickBrigade { chit, .. } if pick_brigades(rules, state, chit).is_empty() => {
                state.note(format!("{} has no brigade to activate", chit_name(rules, chit)), "SR 7.3");
                Stage::Draw
            }
            Stage::Mccook
                if mccook_brigades(rules, state).is_empty()
                    && state.buell_box.is_none()
                    && events::rally_targets(rules, state, Side::Union).is_empty() =>
            {
                Stage::Draw
            }
            Stage::BuellCommands if union_brigades(state).is_empty() => Stage::Draw,
            Stage::Move { for_: for_ @ MoveFor::Brigade { brigade, order, .. }, moved, current: None }
                if idle(rules, state, brigade, *order, moved) =>
            {
                let for_ = for_.clone();
                finish_move(rules, state, &for_);
                continue;
            }
            Stage::Move { for_, moved, current: Some(m) }
                if movement::steps(
                    rules,
                    state,
                    m.unit,
                    m.mp,
                    m.first(),
                    special::unit_order(rules, state, for_, m.unit),
                )
                .is_empty()
                    && special::exit_option(rules, state, m).is_none() =>
            {
                let (for_, moved, m) = (for_.clone(), moved.clone(), m.clone());
                stop_unit(rules, state, for_, moved, &m);
                continue;
            }
            Stage::Aftermath { .. } => {
                if retreat_step::step(rules, state) {
                    continue;
                }
                return;
            }
            Stage::CloseDeclare { .. } | Stage::CloseCombat { .. } | Stage::Advance { .. } => {
                if close_step::step(rules, state) {
                    continue;
                }
                return;
            }
            Stage::EventFire { resolved: true, .. } => Stage::Draw,
            Stage::EventFire { side, event, .. } if combat_step::event_fires(rules, state, *side, event).is_empty() => {
                Stage::Draw
            }
            Stage::RetreatFire { .. } if combat_step::opportunity_fires(rules, state).is_empty() => {
                retreat_step::resume(rules, state);
                continue;
            }
            Stage::WaywardFire { .. } if combat_step::opportunity_fires(rules, state).is_empty() => {
                wayward_go(rules, state);
                continue;
            }
            Stage::FlankFire { resolving: true, .. } => {
                if combat_step::flank_next(rules, state) {
                    continue;
                }
                return;
            }
            Stage::FireStep { brigade, order, by, .. } if combat_step::brigade_fires(rules, state).is_empty() => {
                let (brigade, order, by) = (brigade.clone(), *order, by.clone());
                end_fire_step(rules, state, brigade, order, by);
                continue;
            }
            Stage::OppFire { for_, moved, moving, to, .. }
                if combat_step::opportunity_fires(rules, state).is_empty() =>
            {
                let (for_, moved, moving, to) = (for_.clone(), moved.clone(), moving.clone(), *to);
                step_on(rules, state, for_, moved, &moving, to);
                continue;
            }
            Stage::Release { left, corps } if *left == 0 || release_options(rules, state, corps).is_empty() => {
                Stage::ReleaseManeuvers
            }
            Stage::ReleaseManeuvers => {
                if state.maneuvers.is_empty() {
                    finish_turn(rules, state);
                    continue;
                }
                let brigade = state.maneuvers.remove(0);
                state.note(format!("{} takes its Maneuver activation", brigade_name(rules, &brigade)), "EX 14.2b");
                start_order(rules, state, brigade, Activator::Release, Order::Maneuver);
                continue;
            }
            _ => return,
        };
        state.stage = next;
    }
}

fn turn_start(rules: &BlindSwords, state: &mut State) {
    state.chaos = None;
    state.courier = false;
    let turn = state.turn;
    state.note(format!("Turn {turn}, {}", rules.clock(turn)), "SR 4.0");
    special::turn_begins(state);
    for r in rules.scenario().rules() {
        if let RuleKind::TimedRelease { brigades, turn: t } = &r.kind {
            if *t == turn {
                let held: Vec<&String> =
                    brigades.iter().filter(|b| state.brigade(b).is_some_and(|s| s.on_hold)).collect();
                for b in held {
                    release(rules, state, b, false);
                }
            }
        }
    }
    arrivals(rules, state);
    state.stage = match state.to_place.first() {
        Some(&u) => Stage::Place { unit: u },
        None => Stage::Command,
    };
}

/// SR 5.3: the eligible activation chits and both Wild chits go in the cup.
fn fill_cup(rules: &BlindSwords, state: &mut State) {
    let chits: Vec<String> = state
        .chits
        .in_play
        .iter()
        .filter(|c| state.chits.out.contains(c) && eligible(rules, state, c))
        .cloned()
        .collect();
    for c in chits {
        state.chits.out.retain(|x| *x != c);
        to_cup(state, c);
    }
    let n = state.chits.cup.len();
    state.note(format!("The cup holds {n} chits"), "SR 5.3");
}

fn artillery_phase(rules: &BlindSwords, state: &mut State) -> Stage {
    let none = rules
        .scenario()
        .rules()
        .any(|r| matches!(&r.kind, RuleKind::NoArtilleryPhase { turns } if turns.contains(&state.turn)));
    for u in &mut state.units {
        u.acted = false;
    }
    rally_step::mark_artillery(state);
    if none {
        state.note("No Artillery Phase this turn", "EX 16.0b");
        Stage::Draw
    } else {
        // SR 10.11: released batteries waiting off the map are placed as the phase starts.
        special::arrive(rules, state, None, &special::After::Artillery)
            .unwrap_or(Stage::Artillery { side: rules.scenario().first_player, passes: 0 })
    }
}

/// SR 14.1-14.2, EX 14.2a: held chits go back, per-turn VP, then the Buell roll.
fn end_turn(rules: &BlindSwords, state: &mut State) {
    for side in Side::BOTH {
        let held = std::mem::take(&mut state.chits.held[ix(side)]);
        state.chits.out.extend(held);
    }
    state.chits.key = [None, None];
    state.events = crate::state::EventState::default();
    for (side, vp, what) in victory::per_turn(rules, state) {
        state.vp[ix(side)] += vp;
        special::awarded(state, side, vp);
        state.note(format!("{side} scores {vp} VP for {what}"), "SR 14.2");
    }
    if special::sudden_death(rules, state).is_some() {
        game_over(rules, state);
        return;
    }
    let track = &rules.data().charts.buell;
    state.stage = match state.buell_box {
        Some(b) if b + 1 < track.boxes().len() => Stage::BuellRoll,
        _ => Stage::ReleaseManeuvers,
    };
    if state.stage == Stage::ReleaseManeuvers {
        special::after_buell(rules, state);
    }
}

/// SR 14.3-14.5: reset the activation markers, move the Broken Track down a box, gather the chits, and
/// go to the next turn or end the game.
fn finish_turn(rules: &BlindSwords, state: &mut State) {
    for b in &mut state.brigades {
        b.activated = false;
        b.order = None;
    }
    rally_step::update_broken_track(state);
    let played = std::mem::take(&mut state.chits.played);
    state.chits.out.extend(played);
    if let Some(c) = state.chits.on_buell.take() {
        state.chits.out.push(c);
    }
    state.chits.fortunes = false;
    state.chits.out.sort();
    if state.turn >= rules.turns() {
        game_over(rules, state);
    } else {
        state.turn += 1;
        state.stage = Stage::TurnStart;
    }
}

/// The game ends: the score, itemised, goes in the log.
fn game_over(rules: &BlindSwords, state: &mut State) {
    state.stage = Stage::Over;
    let score = victory::score(rules, state);
    for line in &score.lines {
        state.note(line.clone(), "EX 16");
    }
    state.note(format!("The game is over: {}", score.result), "SR 14.5");
}
