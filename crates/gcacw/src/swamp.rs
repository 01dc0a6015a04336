//! Rain in the provisional swamps (GCACW 12.0, Rain Effects). When rain begins — a Rain event,
//! or Late Rain's double 1s — each unit standing in a provisional swamp hex that no road, pike or
//! railroad enters gains a Fatigue Level, is disorganized, and must leave at once for an adjacent
//! hex of its owner's choice. The hex may not hold the enemy nor be a swamp (provisional swamps
//! are swamps while it rains), may not lie across a major or minor river except by a bridge or a
//! ferry, and may be in an enemy ZOC only when every other candidate is. A unit with nowhere to
//! go is eliminated, and its loss scores (ruling R94).

use caisson_hexmap::{Hex, Hexside, Terrain};
use caisson_kernel::{Choice, Decision};

use crate::rules::Gcacw;
use crate::state::{side_index, LossCause, Stage, State};
use crate::zoc::Zoc;
use crate::Side;

const RULE: &str = "GCACW 12.0";

/// Where play goes once the last unit has left the swamps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Then {
    /// The Random Events Phase ends (a Rain event).
    EventsDone,
    /// The side that won the initiative roll gains it (Late Rain).
    Initiative(Side),
}

/// Whether a road, pike or railroad enters `hex` (the swamp's way out, GCACW 6.1).
fn on_route(rules: &Gcacw, hex: Hex) -> bool {
    let map = rules.map();
    map.neighbors(hex).any(|(_, n)| map.hexside(hex, n).intersects(Hexside::ROAD_PIKE_RR))
}

/// The units caught by the rain: on the map in a provisional swamp hex off the roads.
fn caught(rules: &Gcacw, state: &State) -> Vec<usize> {
    rules
        .on_map(state)
        .filter(|&(_, h)| rules.map().terrain(h) == Some(Terrain::ProvisionalSwamp) && !on_route(rules, h))
        .map(|(u, _)| u)
        .collect()
}

/// The hexes unit `u` may move to, each with whether it is in an enemy ZOC: only the ZOC-free
/// ones when there are any.
pub fn exits(rules: &Gcacw, state: &State, u: usize) -> Vec<(Hex, bool)> {
    let Some(from) = state.units[u].hex else { return Vec::new() };
    let map = rules.map();
    let side = rules.unit_side(state, u);
    let board = rules.board(state);
    let enemy_zoc = &board.zoc[side_index(side.enemy())];
    let mut out: Vec<(Hex, bool)> = map
        .neighbors(from)
        .filter_map(|(_, to)| {
            let i = map.index(to)?;
            let terrain = map.terrain(to)?;
            if matches!(terrain, Terrain::Water | Terrain::Swamp | Terrain::ProvisionalSwamp)
                || board.occupant[i] == Some(side.enemy())
                || rules.prohibited_on(side, to, state.turn)
            {
                return None;
            }
            let hexside = map.hexside(from, to);
            if hexside.contains(Hexside::ALL_WATER) {
                return None;
            }
            if hexside.intersects(Hexside::RIVER) {
                let c = state.bridges.crossing(map, from, to);
                let pontoon = c.pontoon.is_some_and(|(owner, _)| owner == side);
                if !(c.bridge || pontoon || hexside.contains(Hexside::FERRY)) {
                    return None;
                }
            }
            Some((to, enemy_zoc.get(i).is_some_and(|z| *z != Zoc::None)))
        })
        .collect();
    if out.iter().any(|&(_, zoc)| !zoc) {
        out.retain(|&(_, zoc)| !zoc);
    }
    out
}

/// Rain has begun: every caught unit gains a Fatigue Level and is disorganized, then they leave
/// the swamps one by one; play goes on to `then` when none is left.
pub fn rain_begins(rules: &Gcacw, state: &mut State, then: Then) {
    let units = caught(rules, state);
    for &u in &units {
        let unit = &mut state.units[u];
        unit.fatigue = (unit.fatigue + 1).min(4);
        unit.organized = false;
        let fatigue = unit.fatigue;
        state.note(
            format!(
                "{} is caught in a provisional swamp by the rain: Fatigue Level {fatigue}, disorganized, and it must move out.",
                rules.unit_name(state, u)
            ),
            Some(RULE),
        );
    }
    next(rules, state, units, then);
}

/// Eliminates the units at the head of the list that have nowhere to go, then waits for the
/// owner of the first one that has, or goes on to `then`.
fn next(rules: &Gcacw, state: &mut State, mut units: Vec<usize>, then: Then) {
    while let Some(&u) = units.first() {
        if !exits(rules, state, u).is_empty() {
            state.stage = Stage::SwampEscape { units, then };
            return;
        }
        units.remove(0);
        let left = state.units[u].manpower;
        rules.lose_manpower(state, u, left, LossCause::RainSwamp, "no hex to leave the swamp for", RULE);
    }
    match then {
        Then::EventsDone => crate::sequence::phase_done(rules, state, crate::sequence::Phase::RandomEvents),
        Then::Initiative(side) => crate::sequence::gain_initiative(rules, state, side),
    }
}

/// The owner's choice of hex for the first unit of the list.
#[must_use]
pub fn decision(rules: &Gcacw, state: &State, units: &[usize]) -> Option<Decision> {
    let &u = units.first()?;
    let options = exits(rules, state, u)
        .into_iter()
        .map(|(hex, zoc)| {
            let terrain = rules.map().terrain(hex).map_or_else(String::new, |t| format!(" ({t})"));
            let zoc = if zoc { ", in an enemy ZOC: no other hex is free of one" } else { "" };
            Choice::new(format!("hex:{hex}"), format!("Move to {hex}{terrain}{zoc}"))
        })
        .collect();
    Some(Decision {
        side: rules.unit_side(state, u).id().into(),
        kind: "swamp-escape".into(),
        prompt: format!(
            "{} must leave the flooded swamp ({RULE}): choose the hex it moves to",
            rules.unit_name(state, u)
        ),
        options,
    })
}

/// Moves the first unit to the chosen hex; `None` for an option that is not offered.
pub fn choose(rules: &Gcacw, state: &mut State, units: &[usize], then: Then, option: &str) -> Option<()> {
    let (&u, rest) = units.split_first()?;
    let hex: Hex = option.strip_prefix("hex:")?.parse().ok()?;
    if !exits(rules, state, u).iter().any(|&(h, _)| h == hex) {
        return None;
    }
    let from = state.units[u].hex?;
    state.units[u].hex = Some(hex);
    crate::rules::tidy_flanks(state);
    state.note(format!("{} leaves the swamp at {from} for {hex}.", rules.unit_name(state, u)), Some(RULE));
    next(rules, state, rest.to_vec(), then);
    Some(())
}
