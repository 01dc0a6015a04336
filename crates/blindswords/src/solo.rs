//! [EX 16.0d] The solo variant: the Union player against the Liddell-bot. With the game option
//! `solo=liddell` the side of the scenario's `solo-bot` rule is run by the rules:
//! - its Division Activation Chit (Buckner) makes no activation roll: a Command Confusion roll
//!   (SR 7.3, the events table) sets the order of its brigade (Liddell) instead, once a turn,
//!   since the chit is drawn once a turn (ruling PG31);
//! - every one of its event chits goes in the cup each turn (no Key Chit, no random pick; PG33);
//! - on the turns of the scenario's `free-maneuver` rule (EX 16.0b) its unit (the 7th Arkansas)
//!   moves under a Maneuver order whatever order the roll gave the brigade (ruling PG32): that is
//!   16.0b itself, played by [`crate::special::unit_order`] in every game of the scenario.
//!
//! How the bot plays within these orders (aggressive under Attack, defensive under Defend,
//! events at the first opportunity) is the computer player's part (`caisson-ai`'s `liddell`).

use caisson_kernel::{Pending, RollRequest};

use crate::catalog::Side;
use crate::charts::Order;
use crate::rules::BlindSwords;
use crate::scenario::RuleKind;
use crate::state::{side_id, Stage, State};

/// The solo rule in force: its side, division chit and brigade, and whether all of the side's
/// events go in the cup.
struct Solo<'r> {
    side: Side,
    chit: &'r str,
    brigade: &'r str,
    all_events: bool,
}

/// The scenario's `solo-bot` rule, when the game was started with the solo option.
fn solo(rules: &BlindSwords) -> Option<Solo<'_>> {
    if !rules.options().solo {
        return None;
    }
    rules.scenario().rules().find_map(|r| match &r.kind {
        RuleKind::SoloBot { side, chit, brigade, all_events_in_cup } => {
            Some(Solo { side: *side, chit, brigade, all_events: *all_events_in_cup })
        }
        _ => None,
    })
}

/// Whether `side` puts all its event chits in the cup this turn instead of a Key Chit and a
/// random pick (EX 16.0d).
#[must_use]
pub fn all_events(rules: &BlindSwords, side: Side) -> bool {
    solo(rules).is_some_and(|s| s.side == side && s.all_events)
}

/// Whether activating `brigade` by `chit` takes the Command Confusion roll instead of the
/// activation roll and the Orders Step (EX 16.0d).
#[must_use]
pub fn orders_by_roll(rules: &BlindSwords, chit: &str, brigade: &str) -> bool {
    solo(rules).is_some_and(|s| s.chit == chit && s.brigade == brigade)
}

/// The Command Confusion roll of the solo brigade (`Stage::SoloOrders`).
#[must_use]
pub fn pending(rules: &BlindSwords, state: &State) -> Option<Pending> {
    let Stage::SoloOrders { brigade, .. } = &state.stage else { return None };
    let side = solo(rules).map_or(Side::Confederate, |s| s.side);
    let leader = rules.data().catalog.brigade(brigade).map_or(brigade.as_str(), |b| b.leader.as_str());
    Some(Pending::Roll(RollRequest {
        side: side_id(side).into(),
        purpose: format!("{leader}'s orders on the Command Confusion table"),
        rule: "EX 16.0d, SR 7.3".into(),
        dice: 1,
        modifiers: Vec::new(),
    }))
}

/// The order a Command Confusion roll gives (the events table, ruling A-10).
#[must_use]
pub fn order_of_roll(rules: &BlindSwords, die: u8) -> Option<Order> {
    rules.data().charts.events.command_confusion(die)
}
