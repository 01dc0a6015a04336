//! [SR 14.2; EX 16.0-16.4] Victory: control of the victory hexes (the side that last occupied
//! each, from the scenario's control markers), the per-turn VP awards of the End Turn Phase, and
//! the end-of-game result, itemised line by line.

use caisson_hexmap::Hex;

use crate::catalog::Side;
use crate::rules::BlindSwords;
use crate::scenario::{ObjectiveCondition, Scenario, Victory};
use crate::state::{ix, other, Place, State};

/// Every hex the scenario's victory conditions look at.
#[must_use]
pub fn hexes(sc: &Scenario) -> Vec<Hex> {
    let mut out: Vec<Hex> = match &sc.victory {
        Victory::Control { hexes, .. } => hexes.clone(),
        Victory::Points { per_turn, objective, .. } => {
            per_turn.iter().map(|t| t.hex).chain(objective.iter().map(|o| o.hex)).collect()
        }
        Victory::GreatDay { union_hexes, .. } => union_hexes.clone(),
    };
    out.extend(sc.marker.iter().map(|m| m.hex));
    out.sort();
    out.dedup();
    out
}

/// The VP awarded in this End Turn Phase (SR 14.2): side, VP, and what for.
#[must_use]
pub fn per_turn(rules: &BlindSwords, state: &State) -> Vec<(Side, u32, String)> {
    let Victory::Points { per_turn, .. } = &rules.scenario().victory else { return Vec::new() };
    per_turn
        .iter()
        .filter_map(|t| state.controller(t.hex).map(|s| (s, u32::from(t.vp), format!("{} ({})", t.name, t.hex))))
        .collect()
}

/// The Union and Confederate units broken (on the Broken Track) or eliminated, counted per side.
fn losses(state: &State) -> [usize; 2] {
    let mut out = [0, 0];
    for i in state.broken_units() {
        out[ix(state.units[i].side)] += 1;
    }
    out
}

/// How the game stands by its victory conditions.
#[derive(Clone, Debug, PartialEq)]
pub struct Score {
    /// VP by side, Union first (scenarios with points).
    pub vp: [u32; 2],
    /// The result in words ("Union tactical victory", "draw"...).
    pub result: String,
    /// The winner, if any.
    pub winner: Option<Side>,
    /// Each item that counts, one line each.
    pub lines: Vec<String>,
}

/// The score now, as it would stand if the game ended (EX 16.0-16.4).
#[must_use]
pub fn score(rules: &BlindSwords, state: &State) -> Score {
    let sc = rules.scenario();
    let cat = &rules.data().catalog;
    let mut lines = Vec::new();
    match &sc.victory {
        Victory::Control { side, hexes, need, otherwise, source } => {
            let held: Vec<Hex> = hexes.iter().copied().filter(|h| state.controller(*h) == Some(*side)).collect();
            for h in hexes {
                let by = state.controller(*h).map_or("nobody".to_string(), |s| s.to_string());
                lines.push(format!("{h}: controlled by {by}"));
            }
            let winner = if held.len() >= usize::from(*need) { *side } else { *otherwise };
            lines.push(format!("{side} controls {} of {} (needs {need}; {source})", held.len(), hexes.len()));
            Score { vp: [0, 0], result: format!("{winner} victory"), winner: Some(winner), lines }
        }
        Victory::Points { objective, loss_min_cr, loss_vp, draw_below, levels, levels_source, .. } => {
            let mut vp = state.vp;
            for side in Side::BOTH {
                lines.push(format!("{side}: {} VP from per-turn hexes (SR 14.2)", state.vp[ix(side)]));
            }
            let ii_entered = state
                .units
                .iter()
                .any(|u| matches!(u.place, Place::Map(_)) && cat.unit(&u.id).is_some_and(|c| c.wing == "ii-corps"));
            for o in objective {
                let counts = match o.only_if {
                    Some(ObjectiveCondition::IiCorpsEntered) => ii_entered,
                    None => true,
                };
                if counts && state.controller(o.hex) == Some(o.side) {
                    vp[ix(o.side)] += u32::from(o.vp);
                    lines.push(format!("{}: {} VP for holding {}", o.side, o.vp, o.hex));
                }
            }
            for i in state.broken_units() {
                let u = &state.units[i];
                if cat.unit(&u.id).is_some_and(|c| c.starting().cr >= *loss_min_cr) {
                    vp[ix(other(u.side))] += u32::from(*loss_vp);
                    lines.push(format!("{}: {loss_vp} VP for {} broken", other(u.side), u.name));
                }
            }
            let (hi, lo) =
                if vp[0] >= vp[1] { (Side::Union, Side::Confederate) } else { (Side::Confederate, Side::Union) };
            let margin = vp[ix(hi)] - vp[ix(lo)];
            lines.push(format!("Union {} VP, Confederate {} VP: margin {margin} ({levels_source})", vp[0], vp[1]));
            let level = levels.iter().filter(|l| margin >= u32::from(l.margin)).max_by_key(|l| l.margin);
            match level.filter(|_| margin >= u32::from(*draw_below)) {
                Some(l) => Score { vp, result: format!("{hi} {}", l.name), winner: Some(hi), lines },
                None => Score { vp, result: "draw".into(), winner: None, lines },
            }
        }
        Victory::GreatDay { union_hexes, union_need, ratio, source, .. } => {
            let held = union_hexes.iter().filter(|h| state.controller(**h) == Some(Side::Union)).count();
            let [u_loss, c_loss] = losses(state);
            // EX 16.4g exits are not yet enforced, so no unit of either side has left the map.
            let exited = [0usize, 0];
            let union_meets = held >= usize::from(*union_need) && exited[0] > exited[1];
            // A ratio of broken units needs at least one Union unit broken to mean anything.
            let confederate_meets = u_loss > 0 && u_loss >= usize::from(*ratio) * c_loss;
            lines.push(format!(
                "Union holds {held} of {} (needs {union_need}) and must exit more units ({source})",
                union_hexes.len()
            ));
            lines.push(format!(
                "Broken or eliminated: Union {u_loss}, Confederate {c_loss} (Confederates need {ratio} to 1)"
            ));
            let (result, winner) = match (union_meets, confederate_meets) {
                (true, false) => ("Union victory".to_string(), Some(Side::Union)),
                (false, true) => ("Confederate victory".to_string(), Some(Side::Confederate)),
                _ => ("draw".to_string(), None),
            };
            Score { vp: [0, 0], result, winner, lines }
        }
    }
}
