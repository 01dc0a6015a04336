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
    rules.update_releases(state, None);
    sequence::next_action_phase(rules, state);
    Some(())
}
