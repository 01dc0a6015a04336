//! [EX 15.3, 15.4; SR/EX 10.8] Stepping away from an enemy that moved near: a skirmisher an
//! enemy moves next to must withdraw, hex by hex away from that enemy, until it stands in a
//! hex next to no enemy (to Broken box 1 when it cannot); cavalry or horse artillery that
//! enemy infantry or artillery comes within two hexes, then within one, of may step one hex
//! away. The owner of the unit (the player not moving) picks the hex; the interrupted stage then
//! resumes and the moving unit may go on.
//!
//! Rulings PG17-PG18: "away" means to a hex farther from the moving enemy's hex, a withdrawal is
//! not itself a move that sets off further withdrawals, and who gets the cavalry's two chances.

use caisson_hexmap::Hex;
use caisson_kernel::{Choice, Pending, RuleError};

use crate::catalog::UnitType;
use crate::movement::{self, Board};
use crate::rules::BlindSwords;
use crate::sequence::{decide, occupy};
use crate::state::{other, Place, Stage, State, Withdrawal};

/// After `unit` entered its hex from `from` (`None`: from off the map): the enemy skirmishers
/// now next to it must withdraw (EX 15.3, 15.4) and the enemy cavalry it came within two, or
/// one, hexes of may (SR 10.8; cavalry is mounted, ruling A-19). The game then waits for those
/// withdrawals before going on with the stage it is in.
pub fn after_move(rules: &BlindSwords, state: &mut State, unit: usize, from: Option<Hex>) {
    let Some(at) = state.hex_of(unit) else { return };
    let map = &rules.data().map;
    let mover = &state.units[unit];
    let triggers_cavalry = matches!(mover.ty, UnitType::Infantry | UnitType::Artillery | UnitType::HorseArtillery);
    let mut queue = Vec::new();
    for (i, u) in state.units.iter().enumerate() {
        let Place::Map(h) = u.place else { continue };
        if u.side == mover.side {
            continue;
        }
        let now = map.distance(h, at);
        if u.skirmish {
            if now == 1 {
                queue.push(Withdrawal { unit: i, from: at, must: true });
            }
            continue;
        }
        let mounted = matches!(u.ty, UnitType::Cavalry | UnitType::HorseArtillery);
        if !triggers_cavalry || !mounted || u.on_hold || state.chaos == Some(h) {
            continue;
        }
        let before = from.map_or(u16::MAX, |f| map.distance(h, f));
        if (now <= 2 && before > 2) || (now <= 1 && before > 1) {
            queue.push(Withdrawal { unit: i, from: at, must: false });
        }
    }
    if !queue.is_empty() {
        let resume = Box::new(state.stage.clone());
        state.stage = Stage::Withdraw { queue, resume };
    }
}

/// The hexes `w.unit` may step into: adjacent, farther from `w.from`, in play, free of the
/// enemy, enterable by its type and within stacking. A skirmisher takes one next to no enemy
/// when there is one (EX 15.3).
#[must_use]
pub fn hexes(rules: &BlindSwords, state: &State, w: &Withdrawal) -> Vec<Hex> {
    let data = rules.data();
    let map = &data.map;
    let Some(at) = state.hex_of(w.unit) else { return Vec::new() };
    let u = &state.units[w.unit];
    let board = Board::new(map, state);
    let legal: Vec<Hex> = map
        .neighbors(at)
        .map(|(_, n)| n)
        .filter(|n| map.contains(*n) && rules.scenario().area.contains(*n))
        .filter(|n| map.distance(*n, w.from) > map.distance(at, w.from))
        .filter(|n| board.occupant(state, *n) != Some(other(u.side)))
        .filter(|n| movement::cost(rules, u.ty, None, u.skirmish, Some(at), *n).is_some())
        .filter(|n| movement::stacking_fault(rules, state, &board, *n, Some(w.unit)).is_none())
        .collect();
    if !w.must {
        return legal;
    }
    let safe: Vec<Hex> =
        legal.iter().copied().filter(|n| !movement::enemy_adjacent(rules, state, &board, u.side, *n)).collect();
    if safe.is_empty() {
        legal
    } else {
        safe
    }
}

/// The withdrawal decision.
#[must_use]
pub fn pending(rules: &BlindSwords, state: &State) -> Option<Pending> {
    let Stage::Withdraw { queue, .. } = &state.stage else { return None };
    let w = queue.first()?;
    let u = &state.units[w.unit];
    let at = state.hex_of(w.unit)?;
    let mut options: Vec<Choice> = hexes(rules, state, w)
        .into_iter()
        .map(|h| Choice::new(format!("hex:{h}"), format!("{} {at} → {h}", u.name)))
        .collect();
    let prompt = if w.must {
        format!("Skirmish screen: {} in {at} withdraws away from the enemy in {} (EX 15.3, 15.4)", u.name, w.from)
    } else {
        options.push(Choice::new("stay", format!("{} stays in {at}", u.name)));
        format!("Cavalry withdrawal: {} in {at} may step one hex away from the enemy in {} (SR 10.8)", u.name, w.from)
    };
    Some(decide(u.side, "withdraw", prompt, options))
}

/// The first unit of the queue is done: the next, or back to the interrupted stage.
fn pop(state: &mut State) {
    let Stage::Withdraw { queue, resume } = &mut state.stage else { return };
    queue.remove(0);
    if queue.is_empty() {
        state.stage = (**resume).clone();
    }
}

/// Applies a withdrawal choice.
///
/// # Errors
/// The option is not offered; the state is then unchanged.
pub fn choose(rules: &BlindSwords, state: &mut State, option: &str) -> Result<(), RuleError> {
    let bad = || RuleError::NotAnOption(option.to_string());
    let Stage::Withdraw { queue, .. } = &state.stage else { return Err(bad()) };
    let w = queue.first().cloned().ok_or_else(bad)?;
    let (verb, arg) = option.split_once(':').unwrap_or((option, ""));
    match verb {
        "stay" if !w.must => {
            state.note(format!("{} stays", state.units[w.unit].name), "SR 10.8");
            pop(state);
        }
        "hex" => {
            let h: Hex = arg.parse().map_err(|_| bad())?;
            if !hexes(rules, state, &w).contains(&h) {
                return Err(bad());
            }
            occupy(rules, state, w.unit, h);
            let rule = if w.must { "EX 15.3" } else { "SR 10.8" };
            state.note(format!("{} withdraws to {h}", state.units[w.unit].name), rule);
            let board = Board::new(&rules.data().map, state);
            let side = state.units[w.unit].side;
            if !w.must || !movement::enemy_adjacent(rules, state, &board, side, h) {
                pop(state);
            }
        }
        _ => return Err(bad()),
    }
    Ok(())
}

/// A withdrawal that needs nobody: a unit off the map or a skirmisher already clear of the enemy
/// is done; cavalry with nowhere to go stays; a skirmisher with nowhere to go is broken
/// (EX 15.3: Broken box 1, its Skirmish marker removed, EX 15.1). `true` when the stage changed.
pub fn advance(rules: &BlindSwords, state: &mut State) -> bool {
    let Stage::Withdraw { queue, .. } = &state.stage else { return false };
    let Some(w) = queue.first().cloned() else {
        return false;
    };
    let Some(at) = state.hex_of(w.unit) else {
        pop(state);
        return true;
    };
    let board = Board::new(&rules.data().map, state);
    if w.must && !movement::enemy_adjacent(rules, state, &board, state.units[w.unit].side, at) {
        pop(state);
        return true;
    }
    if !hexes(rules, state, &w).is_empty() {
        return false;
    }
    if w.must {
        let u = &mut state.units[w.unit];
        u.place = Place::Broken(1);
        u.skirmish = false;
        let text = format!("{} cannot withdraw from {at} and goes to Broken box 1", state.units[w.unit].name);
        state.note(text, "EX 15.3");
    }
    pop(state);
    true
}
