//! Once-only railroad moves granted by scenario special rules (HSN Sc 1, 2 and 9: the first time
//! Moore's brigade is activated it may ride up to 43 railroad hexes and gains two fatigue levels).
//! No extended march roll applies to such a move (docs/rulings.md R23).

use caisson_hexmap::{Hex, Hexside};
use caisson_kernel::{Choice, Decision};

use crate::rules::Gcacw;
use crate::scenario::RuleKind;
use crate::state::{Stage, State};
use crate::zoc::Zoc;
use crate::{actions, sequence};

/// The parameters of the rail move a unit is entitled to now, if any: the rule has one for it and
/// the unit has never been activated.
fn entitlement<'r>(rules: &'r Gcacw, state: &State, u: usize) -> Option<(&'r RuleKind, &'r str)> {
    if state.activated_once.contains(&u) || !actions::may_act(rules, state, u) {
        return None;
    }
    let id = rules.unit_id(state, u);
    rules
        .scenario()
        .special_rule
        .iter()
        .find(|r| matches!(&r.kind, RuleKind::RailMove { counter, .. } if counter == id))
        .map(|r| (&r.kind, r.source.as_str()))
}

/// Whether a station marker can stop a railroad move of `side` in this scenario (GCACW 5.4): a
/// special rail move of one of its units whose rule forbids marked stations (HSN Sc 2 and 9),
/// Union rail movement (HSN-A 9.0) or Union rail entry (HSN Sc 9 Entry Areas). Where it cannot,
/// burning a station stops no one.
#[must_use]
pub fn stations_block_rail(rules: &Gcacw, side: crate::Side) -> bool {
    let catalog = rules.catalog();
    rules.scenario().special_rule.iter().any(|r| match &r.kind {
        RuleKind::RailMove { counter, damaged_station, .. } => {
            damaged_station == "forbidden" && catalog.index(counter).is_some_and(|c| catalog.get(c).side == side)
        }
        RuleKind::UnionRailMovement { .. } | RuleKind::UnionEntryAreas { .. } => side == crate::Side::Union,
        _ => false,
    })
}

/// Whether the unit may make its special rail move now.
#[must_use]
pub fn available(rules: &Gcacw, state: &State, u: usize) -> bool {
    entitlement(rules, state, u).is_some() && !destinations(rules, state, u).is_empty()
}

/// Hexes the rail move can end in: along railroad hexsides only, within the hex limit, never into
/// an enemy-occupied hex, never into an enemy ZOC (Sc 1 allows a Union-occupied ZOC hex), and,
/// where the rule says so, never into a hex with a station marker.
#[must_use]
pub fn destinations(rules: &Gcacw, state: &State, u: usize) -> Vec<Hex> {
    let Some((RuleKind::RailMove { max_hexes, enemy_zoc, damaged_station, .. }, _)) = entitlement(rules, state, u)
    else {
        return Vec::new();
    };
    let Some(start) = state.units[u].hex else { return Vec::new() };
    let map = rules.map();
    let side = rules.unit_side(state, u);
    let board = rules.board(state);
    let enemy = crate::state::side_index(side.enemy());
    let open = |from: Hex, to: Hex| {
        let Some(i) = map.index(to) else { return false };
        let occ = board.occupant[i];
        let zoc_ok =
            board.zoc[enemy][i] != Zoc::Normal || (enemy_zoc == "forbidden-unless-union-occupied" && occ == Some(side));
        map.hexside(from, to).contains(Hexside::RAILROAD)
            && occ != Some(side.enemy())
            && zoc_ok
            && !(damaged_station == "forbidden" && state.stations.contains_key(&to))
            && !rules.prohibited_on(side, to, state.turn)
            && rules.barred(state, u, to, false).is_none()
    };
    let mut seen = vec![false; map.index_len()];
    let mut frontier = vec![start];
    let mut out = Vec::new();
    if let Some(i) = map.index(start) {
        seen[i] = true;
    }
    for _ in 0..*max_hexes {
        let mut next = Vec::new();
        for from in frontier {
            for (_, to) in map.neighbors(from) {
                let Some(i) = map.index(to) else { continue };
                if !seen[i] && open(from, to) {
                    seen[i] = true;
                    next.push(to);
                    out.push(to);
                }
            }
        }
        frontier = next;
    }
    out.sort();
    out
}

/// The choice of where the rail move ends.
#[must_use]
pub fn decision(rules: &Gcacw, state: &State, u: usize) -> Decision {
    let name = rules.unit_name(state, u);
    let mut options: Vec<Choice> = destinations(rules, state, u)
        .into_iter()
        .map(|h| Choice::new(format!("rail:{h}"), format!("{name} rides the railroad to {}", rules.map().label(h))))
        .collect();
    options.push(Choice::new("cancel", "Do not use the rail move now"));
    let source = entitlement(rules, state, u).map_or("", |(_, s)| s);
    Decision {
        side: rules.unit_side(state, u).id().into(),
        kind: "rail-move".into(),
        prompt: format!("Where does {name}'s railroad move end? It gains 2 fatigue levels ({source})"),
        options,
    }
}

/// Applies the rail move; `None` if unreadable.
pub fn choose(rules: &Gcacw, state: &mut State, u: usize, option: &str) -> Option<()> {
    let side = rules.unit_side(state, u);
    if option == "cancel" {
        state.stage = Stage::Action { side, other_passed: false };
        return Some(());
    }
    let to: Hex = option.strip_prefix("rail:")?.parse().ok()?;
    let (kind, source) = entitlement(rules, state, u)?;
    let RuleKind::RailMove { fatigue, .. } = kind else { return None };
    let (fatigue, source) = (*fatigue, source.to_string());
    state.activated_once.insert(u);
    rules.relocate(state, u, to);
    state.units[u].fatigue = (state.units[u].fatigue + fatigue).min(4);
    state.note(
        format!(
            "{} rides the railroad to {}; fatigue now {}.",
            rules.unit_name(state, u),
            rules.map().label(to),
            state.units[u].fatigue
        ),
        Some(&source),
    );
    sequence::next_action_phase(rules, state);
    Some(())
}

/// The Union rail moves of the turn (HSN-A 9.0): the infantry Manpower moved and the units that
/// have moved by rail. Kept for one turn: a record of an earlier turn counts as empty.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct RailUse {
    /// The turn of the record.
    pub turn: u16,
    /// Infantry Manpower moved by rail this turn.
    pub manpower: u8,
    /// Units that have moved by rail this turn.
    pub units: std::collections::BTreeSet<usize>,
}

/// The parameters of Union railroad movement (HSN-A 9.0), if the scenario has it.
struct General<'a> {
    railroad: &'a str,
    max_fatigue: u8,
    fatigue: u8,
    limit: u8,
    source: &'a str,
}

fn general(rules: &Gcacw) -> Option<General<'_>> {
    rules.scenario().special_rule.iter().find_map(|r| match &r.kind {
        RuleKind::UnionRailMovement { railroad, max_fatigue, fatigue, manpower_per_turn } => Some(General {
            railroad,
            max_fatigue: *max_fatigue,
            fatigue: *fatigue,
            limit: *manpower_per_turn,
            source: &r.source,
        }),
        _ => None,
    })
}

/// Fatigue Levels a Union rail move gains (HSN-A 9.0), where the scenario has it.
#[must_use]
pub fn rail_march_fatigue(rules: &Gcacw) -> u8 {
    general(rules).map_or(0, |g| g.fatigue)
}

/// Hexes reachable from `from` along the named railroad's hexsides, entering no hex occupied by
/// `side`'s enemy or in its ZOC (even one `side` holds), no hex with a station marker, no hex
/// closed to `side`, and crossing no destroyed bridge (a pontoon does not help) — HSN-A 9.0 and
/// the Sc 9 Entry Areas. `from` itself is not checked and not listed.
#[must_use]
pub fn line_reach(rules: &Gcacw, state: &State, side: crate::Side, railroad: &str, from: Hex) -> Vec<Hex> {
    let map = rules.map();
    let board = rules.board(state);
    let enemy = crate::state::side_index(side.enemy());
    let line = map.named_hexsides(railroad);
    let clear = |h: Hex| {
        map.index(h).is_some_and(|i| {
            board.occupant[i] != Some(side.enemy())
                && board.zoc[enemy][i] == Zoc::None
                && !state.stations.contains_key(&h)
                && !rules.prohibited(side, h)
        })
    };
    let mut seen = std::collections::BTreeSet::from([from]);
    let mut frontier = vec![from];
    let mut out = Vec::new();
    while let Some(h) = frontier.pop() {
        for &(a, b) in line {
            let next = if a == h {
                b
            } else if b == h {
                a
            } else {
                continue;
            };
            let open = map.hexside(h, next).contains(Hexside::RAILROAD)
                && !state.bridges.destroyed.contains(&crate::bridges::key(h, next))
                && clear(next);
            if open && seen.insert(next) {
                frontier.push(next);
                out.push(next);
            }
        }
    }
    out.sort();
    out
}

/// Whether a hex is on the named railroad.
fn on_line(rules: &Gcacw, railroad: &str, hex: Hex) -> bool {
    rules.map().named_hexsides(railroad).iter().any(|&(a, b)| a == hex || b == hex)
}

fn used(state: &State) -> (u8, bool) {
    let fresh = state.rail_used.turn == state.turn;
    (if fresh { state.rail_used.manpower } else { 0 }, fresh)
}

/// Where a Union rail move of this unit may end now (HSN-A 9.0): undamaged stations of the line
/// reached along it. Empty when the unit may not move by rail: not Union infantry, above the
/// fatigue limit, not in an undamaged station of the line, in an enemy ZOC, already moved by rail
/// this turn, or over the turn's Manpower limit.
#[must_use]
pub fn rail_march_destinations(rules: &Gcacw, state: &State, u: usize) -> Vec<Hex> {
    let Some(g) = general(rules) else { return Vec::new() };
    let unit = &state.units[u];
    let Some(start) = unit.hex else { return Vec::new() };
    let side = rules.unit_side(state, u);
    let (manpower, fresh) = used(state);
    if side != crate::Side::Union
        || rules.unit_type(state, u) != crate::catalog::CounterType::Infantry
        || !actions::may_act(rules, state, u)
        || unit.fatigue > g.max_fatigue
        || !rules.is_station(start)
        || state.stations.contains_key(&start)
        || !on_line(rules, g.railroad, start)
        || (fresh && state.rail_used.units.contains(&u))
        || u16::from(manpower) + u16::from(unit.manpower) > u16::from(g.limit)
    {
        return Vec::new();
    }
    let board = rules.board(state);
    let enemy = crate::state::side_index(side.enemy());
    if rules.map().index(start).is_none_or(|i| board.zoc[enemy][i] != Zoc::None) {
        return Vec::new();
    }
    line_reach(rules, state, side, g.railroad, start).into_iter().filter(|&h| rules.is_station(h)).collect()
}

/// Leaders with the unit who could stay behind on another unit of the hex.
fn may_stay(rules: &Gcacw, state: &State, u: usize) -> bool {
    let Some(hex) = state.units[u].hex else { return false };
    let mut leaders = (0..state.leaders.len()).filter(|&l| state.leaders[l].with == Some(u)).peekable();
    leaders.peek().is_some()
        && leaders.all(|l| {
            let lc = state.leaders[l].counter as usize;
            rules
                .on_map(state)
                .any(|(v, h)| v != u && h == hex && rules.may_attach_counter(lc, state.units[v].counter as usize))
        })
}

/// The choice of where a Union rail move ends.
#[must_use]
pub fn rail_march_decision(rules: &Gcacw, state: &State, u: usize) -> Decision {
    let name = rules.unit_name(state, u);
    let stay = may_stay(rules, state, u);
    let mut options = Vec::new();
    for h in rail_march_destinations(rules, state, u) {
        let label = rules.map().label(h);
        options.push(Choice::new(format!("rail:{h}"), format!("{name} rides the railroad to {label}")));
        if stay {
            options.push(Choice::new(
                format!("rail-alone:{h}"),
                format!("{name} rides the railroad to {label}, its leaders staying behind"),
            ));
        }
    }
    options.push(Choice::new("cancel", "Do not move by rail now"));
    let g = general(rules);
    let (fatigue, source) = g.as_ref().map_or((0, ""), |g| (g.fatigue, g.source));
    Decision {
        side: rules.unit_side(state, u).id().into(),
        kind: "rail-march".into(),
        prompt: format!("Where does {name}'s rail move end? It gains {fatigue} Fatigue Levels ({source})"),
        options,
    }
}

/// Applies a Union rail move; `None` if unreadable or not open.
pub fn choose_rail_march(rules: &Gcacw, state: &mut State, u: usize, option: &str) -> Option<()> {
    let side = rules.unit_side(state, u);
    if option == "cancel" {
        state.stage = Stage::Action { side, other_passed: false };
        return Some(());
    }
    let (alone, hex) = match option.strip_prefix("rail-alone:") {
        Some(h) => (true, h),
        None => (false, option.strip_prefix("rail:")?),
    };
    let to: Hex = hex.parse().ok()?;
    if !rail_march_destinations(rules, state, u).contains(&to) || (alone && !may_stay(rules, state, u)) {
        return None;
    }
    let g = general(rules)?;
    let (fatigue, source) = (g.fatigue, g.source.to_string());
    let from = state.units[u].hex?;
    if alone {
        for l in 0..state.leaders.len() {
            if state.leaders[l].with != Some(u) {
                continue;
            }
            let lc = state.leaders[l].counter as usize;
            let carrier = rules
                .on_map(state)
                .find(|&(v, h)| v != u && h == from && rules.may_attach_counter(lc, state.units[v].counter as usize))
                .map(|(v, _)| v);
            state.leaders[l].with = carrier.or(Some(u));
        }
    }
    let (manpower, fresh) = used(state);
    if !fresh {
        state.rail_used = RailUse { turn: state.turn, manpower: 0, units: Default::default() };
    }
    state.rail_used.manpower = manpower + state.units[u].manpower;
    state.rail_used.units.insert(u);
    state.activated_once.insert(u);
    rules.relocate(state, u, to);
    state.units[u].fatigue = (state.units[u].fatigue + fatigue).min(4);
    state.note(
        format!(
            "{} rides the railroad from {} to {}; fatigue now {} ({} of the turn's rail Manpower used).",
            rules.unit_name(state, u),
            rules.map().label(from),
            rules.map().label(to),
            state.units[u].fatigue,
            state.rail_used.manpower
        ),
        Some(&source),
    );
    sequence::next_action_phase(rules, state);
    Some(())
}
