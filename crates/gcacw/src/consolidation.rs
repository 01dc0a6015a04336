//! Union Consolidation (HSN Sc 2): instead of an action, the player with the initiative may fold
//! brigades and regiments stacked with their parent division back into it.

use caisson_kernel::Choice;
use serde::Deserialize;

use crate::rules::Gcacw;
use crate::scenario::RuleKind;
use crate::state::{Loss, LossCause, State};
use crate::{sequence, Side};

/// A division and the smaller units that may merge into it.
#[derive(Clone, Debug, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct Group {
    /// The division's counter id.
    pub division: String,
    /// The counters that may merge into it.
    pub parts: Vec<String>,
}

fn rule(rules: &Gcacw, side: Side) -> Option<(&[Group], u8, &str)> {
    rules.scenario().special_rule.iter().find_map(|r| match &r.kind {
        RuleKind::Consolidation { side: s, max_manpower, groups } if *s == side => {
            Some((groups.as_slice(), *max_manpower, r.source.as_str()))
        }
        _ => None,
    })
}

/// The division and the parts stacked with it that may merge now.
fn mergeable(rules: &Gcacw, state: &State, group: &Group) -> Option<(usize, Vec<usize>)> {
    let d = rules.unit_by_id(&group.division)?;
    let hex = state.units[d].hex?;
    let parts: Vec<usize> =
        group.parts.iter().filter_map(|p| rules.unit_by_id(p)).filter(|&p| state.units[p].hex == Some(hex)).collect();
    (!parts.is_empty()).then_some((d, parts))
}

/// Consolidation options for a side.
#[must_use]
pub fn options(rules: &Gcacw, state: &State, side: Side) -> Vec<Choice> {
    let Some((groups, max, _)) = rule(rules, side) else { return Vec::new() };
    groups
        .iter()
        .filter_map(|g| mergeable(rules, state, g))
        .map(|(d, parts)| {
            let names: Vec<String> = parts.iter().map(|&p| rules.unit_name(state, p)).collect();
            let total: u16 =
                std::iter::once(d).chain(parts.iter().copied()).map(|u| u16::from(state.units[u].manpower)).sum();
            Choice::new(
                format!("consolidate:{}", rules.unit_id(state, d)),
                format!(
                    "Consolidate {} into {} (Manpower {})",
                    names.join(", "),
                    rules.unit_name(state, d),
                    total.min(u16::from(max))
                ),
            )
        })
        .collect()
}

/// Merges the stacked parts into the division; `None` if the option cannot be read.
/// The new marker takes the side (organized or not) of the largest unit; on a tie, organized if
/// any of the largest is (docs/rulings.md R26).
pub fn apply(rules: &Gcacw, state: &mut State, side: Side, division_id: &str) -> Option<()> {
    let (groups, max, source) = rule(rules, side)?;
    let group = groups.iter().find(|g| g.division == division_id)?;
    let (d, parts) = mergeable(rules, state, group)?;
    let all: Vec<usize> = std::iter::once(d).chain(parts.iter().copied()).collect();
    let total: u16 = all.iter().map(|&u| u16::from(state.units[u].manpower)).sum();
    let largest = all.iter().map(|&u| state.units[u].manpower).max().unwrap_or(0);
    let organized = all.iter().any(|&u| state.units[u].manpower == largest && state.units[u].organized);
    let source = source.to_string();
    for &p in &parts {
        state.units[p].hex = None;
        state.units[p].manpower = 0;
        for l in 0..state.leaders.len() {
            if state.leaders[l].with == Some(p) {
                state.leaders[l].with = Some(d);
            }
        }
    }
    state.units[d].manpower = u8::try_from(total.min(u16::from(max))).unwrap_or(max);
    state.units[d].organized = organized;
    if total > u16::from(max) {
        // The Manpower over the maximum is gone: the ledger keeps it, so Manpower is conserved.
        let amount = u8::try_from(total - u16::from(max)).unwrap_or(u8::MAX);
        state.losses.push(Loss { turn: state.turn, unit: d, amount, cause: LossCause::Consolidation });
    }
    let names: Vec<String> = parts.iter().map(|&p| rules.unit_name(state, p)).collect();
    state.note(
        format!(
            "{} consolidates into {}: Manpower {}{}.",
            names.join(", "),
            rules.unit_name(state, d),
            state.units[d].manpower,
            if organized { "" } else { ", disorganized" }
        ),
        Some(&source),
    );
    sequence::next_action_phase(rules, state);
    Some(())
}
