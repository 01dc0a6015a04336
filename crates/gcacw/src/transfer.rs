//! Leader Transfer Phase (GCACW 6.3): each leader may move to a unit he may be attached to,
//! along a path of at most ten hexes that enters no enemy-occupied hex (terrain and enemy ZOC do
//! not matter). The Union player transfers first.

use caisson_hexmap::algorithms;
use caisson_kernel::{Choice, Decision};

use crate::rules::{Board, Gcacw};
use crate::state::{Stage, State};
use crate::{sequence, Side};

/// Longest transfer path, in hexes (GCACW 6.3).
pub const TRANSFER_HEXES: u16 = 10;

/// Units a leader may transfer to: within the path limit, not his current unit.
#[must_use]
pub fn targets(rules: &Gcacw, state: &State, board: &Board, l: usize, max_hexes: u16) -> Vec<usize> {
    let Some(start) = rules.leader_hex(state, l) else {
        return Vec::new();
    };
    let map = rules.map();
    let side = rules.leader_counter(state, l).side;
    let lc = state.leaders[l].counter as usize;
    let mut reach = vec![false; map.index_len()];
    // HSN-A 8.0: a Confederate leader never transfers into or through a standing Union fort.
    let forts =
        if side == Side::Confederate { crate::combat::forts_in_play(rules, state).undestroyed } else { Vec::new() };
    let open = |h| map.index(h).is_some_and(|i| board.occupant[i] != Some(side.enemy())) && !forts.contains(&h);
    for (h, _) in algorithms::within(map, start, max_hexes, open) {
        if let Some(i) = map.index(h) {
            reach[i] = true;
        }
    }
    rules
        .on_map(state)
        .filter(|&(u, h)| {
            Some(u) != state.leaders[l].with && map.index(h).is_some_and(|i| reach[i]) && rules.may_attach(state, lc, u)
        })
        .map(|(u, _)| u)
        .collect()
}

fn can_transfer(rules: &Gcacw, state: &State, board: &Board, l: usize, done: &[usize]) -> bool {
    !done.contains(&l)
        && !rules.transfer_barred(state, state.leaders[l].counter as usize)
        && rules.pinned(state, l).is_none()
        && !targets(rules, state, board, l, TRANSFER_HEXES).is_empty()
}

/// Starts a side's transfers, skipping a side with nothing to transfer.
pub fn begin(rules: &Gcacw, state: &mut State, side: Side) {
    let board = rules.board(state);
    let any = (0..state.leaders.len())
        .any(|l| rules.leader_counter(state, l).side == side && can_transfer(rules, state, &board, l, &[]));
    if any {
        state.stage = Stage::Transfers { side, done: Vec::new(), picking: None };
    } else {
        finish(rules, state, side);
    }
}

fn finish(rules: &Gcacw, state: &mut State, side: Side) {
    match side {
        Side::Union => begin(rules, state, Side::Confederate),
        Side::Confederate => sequence::phase_done(rules, state, sequence::Phase::LeaderTransfer),
    }
}

/// The decision of the Transfers stage.
#[must_use]
pub fn decision(rules: &Gcacw, state: &State, side: Side, done: &[usize], picking: Option<usize>) -> Decision {
    if let Some(l) = picking {
        let name = &rules.leader_counter(state, l).name;
        let mut options: Vec<Choice> = targets(rules, state, &rules.board(state), l, TRANSFER_HEXES)
            .into_iter()
            .map(|u| {
                let hex = state.units[u].hex.map(|h| rules.map().label(h)).unwrap_or_default();
                Choice::new(
                    format!("to:{}", rules.unit_id(state, u)),
                    format!("{name} joins {} in {hex}", rules.unit_name(state, u)),
                )
            })
            .collect();
        options.push(Choice::new("cancel", "Keep him where he is"));
        return Decision {
            side: side.id().into(),
            kind: "transfer".into(),
            prompt: format!("Leader Transfer Phase: where does {name} go? (GCACW 6.3)"),
            options,
        };
    }
    let board = rules.board(state);
    let mut options: Vec<Choice> = (0..state.leaders.len())
        .filter(|&l| rules.leader_counter(state, l).side == side && can_transfer(rules, state, &board, l, done))
        .map(|l| {
            let c = rules.leader_counter(state, l);
            let hex = rules.leader_hex(state, l).map(|h| rules.map().label(h)).unwrap_or_default();
            Choice::new(format!("transfer:{}", c.id), format!("Transfer {} (now in {hex})", c.name))
        })
        .collect();
    options.push(Choice::new("done", "End transfers"));
    Decision {
        side: side.id().into(),
        kind: "transfer".into(),
        prompt: format!("{side} Leader Transfer Phase: transfer a leader, or end (GCACW 6.3)"),
        options,
    }
}

/// Applies a transfer-phase option; `None` if it cannot be read.
pub fn choose(
    rules: &Gcacw,
    state: &mut State,
    side: Side,
    mut done: Vec<usize>,
    picking: Option<usize>,
    option: &str,
) -> Option<()> {
    match (picking, option) {
        (None, "done") => finish(rules, state, side),
        (None, _) => {
            let l = rules.leader_by_id(option.strip_prefix("transfer:")?)?;
            state.stage = Stage::Transfers { side, done, picking: Some(l) };
        }
        (Some(_), "cancel") => state.stage = Stage::Transfers { side, done, picking: None },
        (Some(l), _) => {
            let u = rules.unit_by_id(option.strip_prefix("to:")?)?;
            state.leaders[l].with = Some(u);
            let name = rules.leader_counter(state, l).name.clone();
            let hex = state.units[u].hex.map(|h| rules.map().label(h)).unwrap_or_default();
            state.note(format!("{name} transfers to {} in {hex}.", rules.unit_name(state, u)), Some("GCACW 6.3"));
            done.push(l);
            let board = rules.board(state);
            let more = (0..state.leaders.len())
                .any(|x| rules.leader_counter(state, x).side == side && can_transfer(rules, state, &board, x, &done));
            if more {
                state.stage = Stage::Transfers { side, done, picking: None };
            } else {
                finish(rules, state, side);
            }
        }
    }
    Some(())
}
