//! Bridges (GCACW 10.0–10.3; HSN-B 10.0): pontoon bridges built in the Recovery Phase, owned,
//! dismantled or destroyed; permanent bridges destroyed at the end of a march and repaired in the
//! Recovery Phase. HSN has no dams or ferries, allows three minor-river bridge markers a side, and
//! nobody may bridge, cross (Confederates) or destroy the Cumberland.

use std::collections::BTreeSet;

use caisson_hexmap::{Hex, Hexside, Map};
use caisson_kernel::{Choice, Decision, Modifier, RollRequest};
use serde::Serialize;

use crate::catalog::CounterType;
use crate::charts::Half;
use crate::rules::Gcacw;
use crate::state::{Stage, State};
use crate::zoc::Zoc;
use crate::{sequence, Side};

/// Minor-river bridge markers per side (HSN-B 10.0).
pub const MARKERS: usize = 3;
/// Combat value a unit needs to build, destroy or repair, and that blocks building and repairing
/// (GCACW 10.1–10.3).
pub const BRIDGE_CV: u16 = 5;

/// A hexside, its two hexes in order.
pub type Side2 = (Hex, Hex);

/// The hexside key of two hexes, whatever their order.
#[must_use]
pub fn key(a: Hex, b: Hex) -> Side2 {
    if a <= b {
        (a, b)
    } else {
        (b, a)
    }
}

/// A pontoon bridge on the map.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Pontoon {
    /// Its hexside.
    pub side: Side2,
    /// Who built it.
    pub owner: Side,
    /// Whether a road crosses it (both hexes had a route when it was built).
    pub road: bool,
}

/// What has happened to the bridges.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Bridges {
    /// Destroyed permanent bridges: each is now a ford (minor rivers).
    pub destroyed: BTreeSet<Side2>,
    /// Pontoon bridges.
    pub pontoons: Vec<Pontoon>,
    /// Hexsides where a pontoon attempt failed this turn (no new try until next turn).
    pub failed: BTreeSet<Side2>,
    /// Units that tried to destroy a bridge this turn.
    pub destroy_tried: BTreeSet<usize>,
}

/// How a river hexside may be crossed now, for movement and zones of control.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Crossing {
    /// A standing permanent bridge.
    pub bridge: bool,
    /// A ford, or a destroyed bridge, which acts as one.
    pub ford: bool,
    /// A pontoon and its owner, and whether it carries a road.
    pub pontoon: Option<(Side, bool)>,
}

impl Bridges {
    /// The crossings of a hexside.
    #[must_use]
    pub fn crossing(&self, map: &Map, a: Hex, b: Hex) -> Crossing {
        let side = map.hexside(a, b);
        let k = key(a, b);
        let destroyed = self.destroyed.contains(&k);
        Crossing {
            bridge: side.intersects(Hexside::BRIDGE | Hexside::DAM | Hexside::FERRY) && !destroyed,
            ford: side.contains(Hexside::FORD) || destroyed,
            pontoon: self.pontoons.iter().find(|p| p.side == k).map(|p| (p.owner, p.road)),
        }
    }

    fn markers_in_use(&self, side: Side) -> usize {
        self.pontoons.iter().filter(|p| p.owner == side).count()
    }
}

fn has_route(map: &Map, h: Hex) -> bool {
    map.neighbors(h).any(|(_, n)| map.hexside(h, n).intersects(Hexside::ANY_ROUTE))
}

fn enemy_cv(rules: &Gcacw, state: &State, side: Side, h: Hex) -> Half {
    rules
        .on_map(state)
        .filter(|&(u, at)| at == h && rules.unit_side(state, u) == side.enemy())
        .map(|(u, _)| rules.combat_value(state, u))
        .fold(Half::whole(0), |a, b| a + b)
}

fn strong_infantry(rules: &Gcacw, state: &State, u: usize) -> bool {
    rules.unit_type(state, u) == CounterType::Infantry && rules.combat_value(state, u) >= Half::whole(BRIDGE_CV)
}

/// Hexsides where unit `u` may try to build a pontoon in the Recovery Phase (GCACW 10.1): an
/// unbridged minor-river hexside of its hex, no enemy Combat 5+ on either side, a marker free, no
/// failed try there this turn, and no other unit of the hex trying this phase.
#[must_use]
pub fn pontoon_sites(rules: &Gcacw, state: &State, u: usize, hexes_tried: &[Hex]) -> Vec<Side2> {
    let side = rules.unit_side(state, u);
    let Some(hex) = state.units[u].hex else { return Vec::new() };
    if !strong_infantry(rules, state, u)
        || state.units[u].fatigue != 0
        || state.bridges.markers_in_use(side) >= MARKERS
        || hexes_tried.contains(&hex)
        || enemy_cv(rules, state, side, hex) >= Half::whole(BRIDGE_CV)
    {
        return Vec::new();
    }
    let map = rules.map();
    map.neighbors(hex)
        .filter(|&(_, n)| {
            let hs = map.hexside(hex, n);
            let c = state.bridges.crossing(map, hex, n);
            hs.contains(Hexside::MINOR_RIVER)
                && !c.bridge
                && c.pontoon.is_none()
                && !state.bridges.failed.contains(&key(hex, n))
                && enemy_cv(rules, state, side, n) < Half::whole(BRIDGE_CV)
        })
        .map(|(_, n)| key(hex, n))
        .collect()
}

/// Destroyed permanent bridges unit `u` may try to repair (GCACW 10.3).
#[must_use]
pub fn repair_sites(rules: &Gcacw, state: &State, u: usize) -> Vec<Side2> {
    let side = rules.unit_side(state, u);
    let Some(hex) = state.units[u].hex else { return Vec::new() };
    if !strong_infantry(rules, state, u) || state.units[u].fatigue != 0 {
        return Vec::new();
    }
    state
        .bridges
        .destroyed
        .iter()
        .copied()
        .filter(|&(a, b)| a == hex || b == hex)
        .filter(|&(a, b)| {
            enemy_cv(rules, state, side, a) < Half::whole(BRIDGE_CV)
                && enemy_cv(rules, state, side, b) < Half::whole(BRIDGE_CV)
        })
        .collect()
}

/// The modifiers of a pontoon roll (GCACW 10.1): routes in neither, one or both hexes.
#[must_use]
pub fn pontoon_request(rules: &Gcacw, side: Side, site: Side2) -> RollRequest {
    let map = rules.map();
    let (a, b) = site;
    let routes = usize::from(has_route(map, a)) + usize::from(has_route(map, b));
    let ford = state_free_ford(map, a, b);
    let mut modifiers = Vec::new();
    match routes {
        2 if !ford => modifiers.push(Modifier::new("no ford, routes in both hexes", 1, "GCACW 10.1")),
        1 => modifiers.push(Modifier::new("a route in only one hex", 2, "GCACW 10.1")),
        0 => modifiers.push(Modifier::new("no route in either hex", 3, "GCACW 10.1")),
        _ => {}
    }
    RollRequest {
        side: side.id().into(),
        purpose: format!("pontoon bridge {a}–{b} (built on 5 or less)"),
        rule: "GCACW 10.1".into(),
        dice: 1,
        modifiers,
    }
}

fn state_free_ford(map: &Map, a: Hex, b: Hex) -> bool {
    map.hexside(a, b).contains(Hexside::FORD)
}

/// Resolves a pontoon roll: 5 or less builds it.
pub fn apply_pontoon(rules: &Gcacw, state: &mut State, side: Side, site: Side2, req: &RollRequest, dice: &[u8]) {
    let total = sequence::total(dice, &req.modifiers);
    let map = rules.map();
    if total <= 5 {
        let road = has_route(map, site.0) && has_route(map, site.1);
        state.bridges.pontoons.push(Pontoon { side: site, owner: side, road });
        sequence::log_roll(state, req, dice, format!("built{}", if road { ", with a road across" } else { "" }));
    } else {
        state.bridges.failed.insert(site);
        sequence::log_roll(state, req, dice, "not built; no new try on this hexside until next turn");
    }
}

/// The repair roll (GCACW 10.3): 3 or less.
#[must_use]
pub fn repair_request(side: Side, site: Side2) -> RollRequest {
    RollRequest {
        side: side.id().into(),
        purpose: format!("repair of the bridge {}–{} (repaired on 3 or less)", site.0, site.1),
        rule: "GCACW 10.3".into(),
        dice: 1,
        modifiers: Vec::new(),
    }
}

/// Resolves a repair roll.
pub fn apply_repair(state: &mut State, site: Side2, req: &RollRequest, dice: &[u8]) {
    let total = sequence::total(dice, &req.modifiers);
    if total <= 3 {
        state.bridges.destroyed.remove(&site);
        sequence::log_roll(state, req, dice, "repaired");
    } else {
        sequence::log_roll(state, req, dice, "not repaired");
    }
}

/// Permanent bridges unit `u` may try to destroy at the end of its march (GCACW 10.2): infantry
/// with Combat 5+, one try a turn, no enemy unit in either hex, neither hex in an unoccupied enemy
/// ZOC (restricted too), and never the Cumberland's (HSN-B 10.0).
#[must_use]
pub fn destroy_sites(rules: &Gcacw, state: &State, u: usize) -> Vec<Side2> {
    let side = rules.unit_side(state, u);
    let Some(hex) = state.units[u].hex else { return Vec::new() };
    if !strong_infantry(rules, state, u) || state.bridges.destroy_tried.contains(&u) {
        return Vec::new();
    }
    let map = rules.map();
    let zoc = rules.zoc_of(state, side.enemy());
    let blocked = |h: Hex| {
        let occ = rules.occupant(state, h);
        occ == Some(side.enemy()) || (map.index(h).is_some_and(|i| zoc[i] != Zoc::None) && occ != Some(side))
    };
    map.neighbors(hex)
        .filter(|&(_, n)| {
            let hs = map.hexside(hex, n);
            hs.contains(Hexside::BRIDGE)
                && hs.contains(Hexside::MINOR_RIVER)
                && !state.bridges.destroyed.contains(&key(hex, n))
                && !blocked(hex)
                && !blocked(n)
        })
        .map(|(_, n)| key(hex, n))
        .collect()
}

/// The destruction roll (GCACW 10.2): 2 or less destroys; −1 if neither hex is in an enemy ZOC,
/// −1 if the unit stayed in the hex all march without moving or attacking.
#[must_use]
pub fn destroy_request(rules: &Gcacw, state: &State, u: usize, site: Side2, stayed: bool) -> RollRequest {
    let side = rules.unit_side(state, u);
    let zoc = rules.zoc_of(state, side.enemy());
    let map = rules.map();
    let free = [site.0, site.1].iter().all(|&h| map.index(h).is_some_and(|i| zoc[i] == Zoc::None));
    let mut modifiers = Vec::new();
    if free {
        modifiers.push(Modifier::new("neither hex in an enemy ZOC", -1, "GCACW 10.2"));
    }
    if stayed {
        modifiers.push(Modifier::new("stayed by the bridge all march", -1, "GCACW 10.2"));
    }
    RollRequest {
        side: side.id().into(),
        purpose: format!("{} destroys the bridge {}–{} (2 or less)", rules.unit_name(state, u), site.0, site.1),
        rule: "GCACW 10.2".into(),
        dice: 1,
        modifiers,
    }
}

/// Resolves a destruction roll: a destroyed minor-river bridge becomes a ford.
pub fn apply_destroy(state: &mut State, u: usize, site: Side2, req: &RollRequest, dice: &[u8]) {
    state.bridges.destroy_tried.insert(u);
    if sequence::total(dice, &req.modifiers) <= 2 {
        state.bridges.destroyed.insert(site);
        sequence::log_roll(state, req, dice, "destroyed: the hexside is now a ford");
    } else {
        sequence::log_roll(state, req, dice, "the bridge stands");
    }
}

/// Removes enemy pontoons from the hexes where a unit of Combat 5+ has just ended a march,
/// retreat or advance, or stands at the end of the Attachment Phase (GCACW 10.2).
pub fn overrun(rules: &Gcacw, state: &mut State, u: usize) {
    let Some(hex) = state.units[u].hex else { return };
    if rules.combat_value(state, u) < Half::whole(BRIDGE_CV) {
        return;
    }
    let side = rules.unit_side(state, u);
    let before = state.bridges.pontoons.len();
    state.bridges.pontoons.retain(|p| p.owner == side || (p.side.0 != hex && p.side.1 != hex));
    if state.bridges.pontoons.len() < before {
        let name = rules.unit_name(state, u);
        state.note(format!("{name} reaches an enemy pontoon bridge at {hex}: it is destroyed."), Some("GCACW 10.2"));
    }
}

/// [`overrun`] for every unit of a stack.
pub fn overrun_all(rules: &Gcacw, state: &mut State, units: &[usize]) {
    for &u in units {
        overrun(rules, state, u);
    }
}

/// The end-of-march decision to try to destroy a bridge.
#[must_use]
pub fn destroy_decision(rules: &Gcacw, state: &State, u: usize) -> Decision {
    let name = rules.unit_name(state, u);
    let mut options: Vec<Choice> = destroy_sites(rules, state, u)
        .into_iter()
        .map(|(a, b)| Choice::new(format!("destroy:{a}-{b}"), format!("{name} tries to destroy the bridge {a}–{b}")))
        .collect();
    options.push(Choice::new("keep", "Leave the bridge standing"));
    Decision {
        side: rules.unit_side(state, u).id().into(),
        kind: "destroy-bridge".into(),
        prompt: format!("{name} ends its march by a bridge (GCACW 10.2)"),
        options,
    }
}

/// Reads a hexside written `XXYY-XXYY`.
#[must_use]
pub fn parse_site(s: &str) -> Option<Side2> {
    let (a, b) = s.split_once('-')?;
    Some(key(a.parse().ok()?, b.parse().ok()?))
}

/// Starts the end-of-march bridge step for unit `u`, if it has a bridge to destroy; returns
/// whether the game now waits for that decision.
pub fn offer_destroy(rules: &Gcacw, state: &mut State, u: usize, stayed: bool) -> bool {
    if destroy_sites(rules, state, u).is_empty() {
        return false;
    }
    state.stage = Stage::DestroyBridge { unit: u, stayed, site: None };
    true
}
