//! The Victory Point Phase of the campaign (HSN Sc 9 victory conditions; the phase follows the
//! Union Cavalry Phase, HSN-A 1.0): first the Automatic Victory check, then the awards earned in
//! this phase by Confederate occupation and proximity to Nashville, each recorded for the turn
//! in `state.flags` as `sc9/vp/<award id>/<turn>` (its VP), so that the final score can itemise
//! them turn by turn ([`crate::victory`] sums them).
//!
//! Nashville is 5706/5707 for every proximity award (the award texts print 5705/5706; digest
//! ruling A1).

use caisson_hexmap::Hex;

use crate::catalog::CounterType;
use crate::rules::Gcacw;
use crate::scenario::RuleKind;
use crate::sequence::{self, Phase};
use crate::state::{Stage, State};
use crate::Side;

/// Flag prefix of the per-phase awards: `sc9/vp/<award id>/<turn, two digits>` → VP.
pub const FLAG_VP: &str = "sc9/vp/";
/// Flag: the turn of the VP Phase that ended the game in an automatic victory.
pub const FLAG_AUTOMATIC: &str = "sc9/automatic-victory";

/// Columbia.
pub const COLUMBIA: Hex = Hex::new(17, 15);
/// Franklin.
pub const FRANKLIN: Hex = Hex::new(40, 10);
/// Murfreesboro.
pub const MURFREESBORO: Hex = Hex::new(52, 32);
/// The Fortress Rosecrans hex whose fort must be destroyed for the Murfreesboro awards.
pub const MURFREESBORO_FORT: Hex = Hex::new(52, 31);
/// Nashville's city hexes (digest ruling A1).
pub const NASHVILLE: [Hex; 2] = [Hex::new(57, 6), Hex::new(57, 7)];

/// Award ids recorded in the VP Phase, in the scenario file's order.
pub const PHASE_AWARDS: [&str; 8] = [
    "columbia",
    "franklin",
    "murfreesboro-first",
    "murfreesboro-later",
    "murfreesboro-last-turn",
    "nashville-adjacent",
    "nashville-two-three-hexes",
    "nashville-first-approach",
];

/// Whether the scenario has a VP Phase.
#[must_use]
pub fn in_play(rules: &Gcacw) -> bool {
    rules.scenario().rules().any(|r| matches!(r, RuleKind::VictoryPointPhase))
}

/// The flag of an award recorded on a turn.
#[must_use]
pub fn flag(id: &str, turn: u16) -> String {
    format!("{FLAG_VP}{id}/{turn:02}")
}

/// Whether unit `u` is an undemoralized Confederate infantry unit on the map, of one of `sizes`.
fn counts(rules: &Gcacw, state: &State, u: usize, sizes: &[&str]) -> bool {
    let c = rules.unit_counter(state, u);
    c.side == Side::Confederate
        && rules.unit_type(state, u) == CounterType::Infantry
        && sizes.contains(&c.size.as_str())
        && state.units[u].demoralized == 0
        && state.units[u].hex.is_some()
}

/// Undemoralized Confederate infantry divisions or brigades in `hex`.
#[must_use]
pub fn holders(rules: &Gcacw, state: &State, hex: Hex) -> Vec<usize> {
    rules
        .on_map(state)
        .filter(|&(u, h)| h == hex && counts(rules, state, u, &["division", "brigade"]))
        .map(|(u, _)| u)
        .collect()
}

/// Undemoralized Confederate infantry divisions and their distance to Nashville.
fn divisions_near_nashville(rules: &Gcacw, state: &State) -> Vec<(usize, u16)> {
    rules
        .on_map(state)
        .filter(|&(u, _)| counts(rules, state, u, &["division"]))
        .map(|(u, h)| (u, NASHVILLE.iter().map(|n| n.distance(h)).min().unwrap_or(u16::MAX)))
        .collect()
}

/// The Automatic Victory condition met now, if any: (the unit, its hex, the rule's result, source).
#[must_use]
pub fn automatic(rules: &Gcacw, state: &State) -> Option<(usize, Hex, String, String)> {
    rules.scenario().special_rule.iter().find_map(|r| match &r.kind {
        RuleKind::AutomaticVictory { side, hexes, result } => rules
            .on_map(state)
            .find(|&(u, h)| {
                let c = rules.unit_counter(state, u);
                hexes.contains(&h)
                    && c.side == *side
                    && rules.unit_type(state, u) == CounterType::Infantry
                    && c.size == "division"
                    && state.units[u].demoralized == 0
            })
            .map(|(u, h)| (u, h, result.clone(), r.source.clone())),
        _ => None,
    })
}

/// The awards earned in this VP Phase, with what earned them: (award id, what).
#[must_use]
pub fn earned(rules: &Gcacw, state: &State) -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    let names = |us: &[usize]| us.iter().map(|&u| rules.unit_name(state, u)).collect::<Vec<_>>().join(", ");
    let held = holders(rules, state, COLUMBIA);
    if !held.is_empty() {
        out.push(("columbia", format!("{} in Columbia", names(&held))));
    }
    let held = holders(rules, state, FRANKLIN);
    if !held.is_empty() {
        out.push(("franklin", format!("{} in Franklin", names(&held))));
    }
    let held = holders(rules, state, MURFREESBORO);
    if !held.is_empty() && crate::wagons::fort_destroyed(state, MURFREESBORO_FORT) {
        let what = format!("{} in Murfreesboro, the fort in 5231 destroyed", names(&held));
        let before = state.flags.keys().any(|k| {
            k.starts_with(&format!("{FLAG_VP}murfreesboro-first/"))
                || k.starts_with(&format!("{FLAG_VP}murfreesboro-later/"))
        });
        out.push((if before { "murfreesboro-later" } else { "murfreesboro-first" }, what.clone()));
        if state.turn >= rules.scenario().turns {
            out.push(("murfreesboro-last-turn", what));
        }
    }
    let near = divisions_near_nashville(rules, state);
    let adjacent: Vec<usize> = near.iter().filter(|(_, d)| *d == 1).map(|&(u, _)| u).collect();
    let two_three: Vec<usize> = near.iter().filter(|(_, d)| (2..=3).contains(d)).map(|&(u, _)| u).collect();
    let within: Vec<usize> = near.iter().filter(|(_, d)| *d <= 3).map(|&(u, _)| u).collect();
    if !adjacent.is_empty() {
        out.push(("nashville-adjacent", format!("{} next to Nashville", names(&adjacent))));
    } else if two_three.len() >= 3 {
        out.push(("nashville-two-three-hexes", format!("{} 2–3 hexes from Nashville", names(&two_three))));
    }
    let first_done = state.flags.keys().any(|k| k.starts_with(&format!("{FLAG_VP}nashville-first-approach/")));
    if within.len() >= 3 && !first_done {
        out.push(("nashville-first-approach", format!("{} within 3 hexes of Nashville", names(&within))));
    }
    out
}

/// Begins the VP Phase: an automatic victory ends the game at once; otherwise the awards of the
/// phase are recorded and the turn goes on.
pub fn begin(rules: &Gcacw, state: &mut State) {
    let source = rules.scenario().victory.source.clone();
    state.note(format!("Victory Point Phase of Turn {}.", state.turn), Some(&source));
    if let Some((u, hex, result, rule)) = automatic(rules, state) {
        state.flags.insert(FLAG_AUTOMATIC.to_string(), i32::from(state.turn));
        state.note(
            format!(
                "{} (undemoralized infantry division) occupies {} in the VP Phase: the game ends at once in a {result}.",
                rules.unit_name(state, u),
                rules.map().label(hex)
            ),
            Some(&rule),
        );
        let score = crate::victory::score(rules, state);
        for item in &score.items {
            state.note(format!("{:+} VP — {} ({})", item.vp, item.text, item.detail), Some(&source));
        }
        state.note(format!("{} VP total: {} — {}.", score.side, score.total, score.level), Some(&source));
        state.stage = Stage::Over;
        return;
    }
    for (id, what) in earned(rules, state) {
        let Some(award) = rules.scenario().victory.award.iter().find(|a| a.id == id) else { continue };
        let vp = award.vp;
        state.flags.insert(flag(id, state.turn), vp.round() as i32);
        state.note(format!("{vp:+} VP ({id}): {what}."), Some(&source));
    }
    sequence::phase_done(rules, state, Phase::VictoryPoints);
}
