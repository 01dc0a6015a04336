//! [SR 7.1, 7.3, 14.1; EX 5.2, 6.5e, 7.3c, 7.5c] Playing held chits: the held-chit play before
//! each draw and in the End Turn Phase (the Union player first, then in turn until both decline
//! in succession), and the Unique Events of `data/blind-swords/events.toml` whose moment the game
//! now reaches:
//! - Rally (and A. McCook used as a Rally Event): a Recovery of every Morale Hit of one unit at
//!   least three hexes from the enemy, or of On Hold artillery anywhere; no Rebuild (ruling PC40);
//! - Brigade Initiative: a Full Activation of one Union brigade on the map, On Hold or not;
//! - Command Confusion: after an enemy brigade receives its order, a die on the Command Confusion
//!   table gives its new order (SR 7.3 example);
//! - Aggressive Leader: a Confederate Limited Activation becomes Full;
//! - Hidden Enemy (once, EX 5.2): the Confederate brigade starting its Movement Step may not move
//!   adjacent to a Union unit in that step, and first Union infantry and cavalry within two hexes
//!   of it may each step one hex towards it, ending Engaged;
//! - Firefight, Sharpshooters and Firing on Friends: a fire, picked and played out by
//!   [`crate::combat_step`] (`event_fires`, [`Stage::EventFire`], rulings PC34, PC35);
//! - Rebel Yell! and Spontaneous Charge: played by the attacker of a Close Combat of his side,
//!   before its dice, for its column shift (EX 11.3c xvii-xviii; ruling PC26), asked by
//!   [`crate::close_step`].
//!
//! A. McCook is used when drawn, never held (PG14); Brigade Initiative, PG15.

use caisson_hexmap::Hex;
use caisson_kernel::{Choice, Pending, RuleError};

use crate::catalog::{Side, UnitType};
use crate::charts::Order;
use crate::movement::{self, Board};
use crate::rules::BlindSwords;
use crate::sequence::{brigade_name, chit_name, decide, occupy, request, start_order};
use crate::setup::chit_side;
use crate::state::{ix, other, Activator, MoveFor, Place, Stage, State};
use crate::withdraw;

/// The Unique Event id (`events.toml`) of a chit, by its printed name.
fn event_of<'r>(rules: &'r BlindSwords, chit: &str) -> Option<&'r str> {
    let name = rules.data().catalog.chit(chit).map(|c| c.name.as_str())?;
    rules.data().charts.events.by_name(name).map(|e| e.id.as_str())
}

/// The chit of `side`'s hand that carries `event`, if it holds one.
fn held(rules: &BlindSwords, state: &State, side: Side, event: &str) -> Option<String> {
    state.chits.held[ix(side)].iter().find(|c| event_of(rules, c) == Some(event)).cloned()
}

/// Takes a chit out of its holder's hand: discarded, or out of the game if used once (EX 5.2).
fn spend(rules: &BlindSwords, state: &mut State, side: Side, chit: &str) {
    state.chits.held[ix(side)].retain(|c| c != chit);
    if rules.data().catalog.chit(chit).is_some_and(|c| c.one_use) {
        state.chits.removed.push(chit.to_string());
    } else {
        state.chits.played.push(chit.to_string());
    }
}

/// The units a Rally event of `side` may recover (events.toml; SR 13.1, EX 6.5e): on the map with
/// Morale Hits, at least three hexes from the enemy or On Hold artillery anywhere, and not in
/// the Battlefield Chaos hex (EX 7.3b: no friendly event there).
#[must_use]
pub fn rally_targets(rules: &BlindSwords, state: &State, side: Side) -> Vec<usize> {
    let far = u16::try_from(crate::rally::RALLY_DISTANCE).unwrap_or(u16::MAX);
    state
        .units
        .iter()
        .enumerate()
        .filter(|(_, u)| u.side == side && (u.morale_hits > 0 || u.shaken))
        .filter(|(_, u)| match u.place {
            Place::Map(h) => {
                state.chaos != Some(h)
                    && ((u.ty.is_artillery() && u.on_hold)
                        || crate::movement::enemy_distance(&rules.data().map, state, side, h) >= far)
            }
            _ => false,
        })
        .map(|(i, _)| i)
        .collect()
}

/// The Union brigades Brigade Initiative may activate (EX 7.5c): any with a unit on the map.
fn initiative_brigades(state: &State) -> Vec<String> {
    state
        .brigades
        .iter()
        .filter(|b| b.side == Side::Union)
        .filter(|b| state.units.iter().any(|u| u.brigade.as_ref() == Some(&b.id) && matches!(u.place, Place::Map(_))))
        .map(|b| b.id.clone())
        .collect()
}

/// The Hidden Enemy steps open to the Union (events.toml): an infantry or cavalry unit on the map,
/// not On Hold, a skirmisher or in the Battlefield Chaos hex, within two hexes of a unit of
/// `brigade`, into an adjacent hex nearer that brigade and next to a Confederate unit, free of
/// the enemy, enterable and within stacking.
#[must_use]
pub fn hidden_steps(rules: &BlindSwords, state: &State, brigade: &str, moved: &[usize]) -> Vec<(usize, Hex)> {
    let data = rules.data();
    let map = &data.map;
    let targets: Vec<Hex> = state
        .units
        .iter()
        .filter(|u| u.brigade.as_deref() == Some(brigade))
        .filter_map(|u| match u.place {
            Place::Map(h) => Some(h),
            _ => None,
        })
        .collect();
    let near = |h: Hex| targets.iter().map(|t| map.distance(*t, h)).min().unwrap_or(u16::MAX);
    let board = Board::new(map, state);
    let mut out = Vec::new();
    for (i, u) in state.units.iter().enumerate() {
        let Place::Map(h) = u.place else { continue };
        if u.side != Side::Union
            || !matches!(u.ty, UnitType::Infantry | UnitType::Cavalry)
            || u.on_hold
            || u.skirmish
            || state.chaos == Some(h)
            || moved.contains(&i)
            || near(h) > 2
        {
            continue;
        }
        for (_, n) in map.neighbors(h) {
            if map.contains(n)
                && rules.scenario().area.contains(n)
                && near(n) < near(h)
                && board.occupant(state, n) != Some(Side::Confederate)
                && movement::enemy_adjacent(rules, state, &board, Side::Union, n)
                && movement::cost(rules, u.ty, None, false, Some(h), n).is_some()
                && movement::stacking_fault(rules, state, &board, n, Some(i)).is_none()
            {
                out.push((i, n));
            }
        }
    }
    out
}

/// The held chits `side` may play now, before a draw or in the End Turn Phase (SR 7.1, 14.1).
#[must_use]
pub fn playable_now(rules: &BlindSwords, state: &State, side: Side) -> Vec<String> {
    state.chits.held[ix(side)]
        .iter()
        .filter(|c| match event_of(rules, c) {
            Some("rally") => !rally_targets(rules, state, side).is_empty(),
            Some("brigade-initiative") => side == Side::Union && !initiative_brigades(state).is_empty(),
            Some(e @ ("firefight" | "sharpshooters" | "firing-on-friends")) => {
                !crate::combat_step::event_fires(rules, state, side, e).is_empty()
            }
            _ => false,
        })
        .cloned()
        .collect()
}

/// Whether a side is asked about its held chits: whenever it holds any. How many chits a side
/// holds is public, which of them is not, so being asked, or not, tells the opponent nothing
/// more (ruling PG19).
pub(crate) fn asked(state: &State, side: Side) -> bool {
    !state.chits.held[ix(side)].is_empty()
}

/// Whether the held-chit play opens before this draw: either side holds a chit.
#[must_use]
pub fn window_open(state: &State) -> bool {
    Side::BOTH.into_iter().any(|s| asked(state, s))
}

fn play_option(rules: &BlindSwords, chit: &str, what: &str) -> Choice {
    Choice::new(format!("play:{chit}"), format!("Play {} now: {what}", chit_name(rules, chit)))
}

/// What the event stages wait for.
#[must_use]
pub fn pending(rules: &BlindSwords, state: &State) -> Option<Pending> {
    let cat = &rules.data().catalog;
    Some(match &state.stage {
        Stage::HeldChits { side, .. } => {
            let mut options: Vec<Choice> = playable_now(rules, state, *side)
                .iter()
                .map(|c| {
                    let what = rules
                        .data()
                        .charts
                        .events
                        .by_name(&chit_name(rules, c))
                        .map_or_else(String::new, |e| e.effect.clone());
                    play_option(rules, c, &what)
                })
                .collect();
            options.push(Choice::new("none", "Play no chit"));
            let prompt = if state.chits.cup.is_empty() {
                format!("{side}: Final Held Chit Play (SR 14.1)")
            } else {
                format!("{side}: play a held chit before the next draw? (SR 7.1)")
            };
            decide(*side, "held-chit", prompt, options)
        }
        Stage::RallyEvent { side } => {
            let options = rally_targets(rules, state, *side)
                .into_iter()
                .map(|i| {
                    let u = &state.units[i];
                    let at = state.hex_of(i).map(|h| h.to_string()).unwrap_or_default();
                    Choice::new(
                        format!("rally:{}", u.id),
                        format!("{} in {at}: Recovery of all its Morale Hits ({})", u.name, u.morale_hits),
                    )
                })
                .collect();
            decide(*side, "rally", format!("{side} Rally: pick the unit to recover (SR 13.2a, EX 6.5e)"), options)
        }
        Stage::Initiative => {
            let options = initiative_brigades(state)
                .iter()
                .map(|b| {
                    let hold = if state.brigade(b).is_some_and(|s| s.on_hold) { ", staying On Hold" } else { "" };
                    Choice::new(format!("brigade:{b}"), format!("Activate {} fully{hold}", brigade_name(rules, b)))
                })
                .collect();
            decide(
                Side::Union,
                "activate",
                "Brigade Initiative: activate a brigade on the map (EX 7.5c)".into(),
                options,
            )
        }
        Stage::Confusion { brigade, order, .. } => {
            let side = other(state.brigade(brigade).map_or(Side::Union, |b| b.side));
            let name = brigade_name(rules, brigade);
            let mut options: Vec<Choice> = held(rules, state, side, "command-confusion")
                .map(|chit| play_option(rules, &chit, &format!("roll a die for {name}'s new order")))
                .into_iter()
                .collect();
            options.push(Choice::new("none", format!("Let the {order:?} order stand")));
            decide(side, "event", format!("{name} takes a {order:?} order: play a held chit? (SR 7.3)"), options)
        }
        Stage::ConfusionRoll { brigade, .. } => {
            let side = other(state.brigade(brigade).map_or(Side::Union, |b| b.side));
            request(
                side,
                format!("Command Confusion: the new order of {}", brigade_name(rules, brigade)),
                "SR 7.3",
                1,
                vec![],
            )
        }
        Stage::Aggressive { chit, brigade } => {
            let side = chit_side(cat, chit).unwrap_or(Side::Confederate);
            let mut options: Vec<Choice> = held(rules, state, side, "aggressive-leader")
                .map(|event| play_option(rules, &event, "the activation becomes Full"))
                .into_iter()
                .collect();
            options.push(Choice::new("none", "Keep the Limited Activation"));
            decide(
                side,
                "event",
                format!("{}: Limited Activation; play a held chit?", brigade_name(rules, brigade)),
                options,
            )
        }
        Stage::HiddenMoves { for_: MoveFor::Brigade { brigade, .. }, moved } => {
            let mut options: Vec<Choice> = hidden_steps(rules, state, brigade, moved)
                .into_iter()
                .map(|(i, h)| {
                    let u = &state.units[i];
                    let from = state.hex_of(i).map(|f| f.to_string()).unwrap_or_default();
                    Choice::new(format!("step:{}:{h}", u.id), format!("{} {from} → {h}", u.name))
                })
                .collect();
            options.push(Choice::new("done", "No more steps"));
            decide(
                Side::Union,
                "hidden-enemy",
                format!(
                    "Hidden Enemy: Union units within two hexes of {} may each step one hex towards it, ending Engaged",
                    brigade_name(rules, brigade)
                ),
                options,
            )
        }
        Stage::HiddenEnemy { for_: MoveFor::Brigade { brigade, .. } } => {
            let name = brigade_name(rules, brigade);
            let mut options: Vec<Choice> = held(rules, state, Side::Union, "hidden-enemy")
                .map(|chit| {
                    play_option(
                        rules,
                        &chit,
                        &format!("{name} may not move adjacent to a Union unit this step (once a game, EX 5.2)"),
                    )
                })
                .into_iter()
                .collect();
            options.push(Choice::new("none", "Play no chit"));
            decide(Side::Union, "event", format!("{name} begins its Movement Step: play a held chit?"), options)
        }
        _ => return None,
    })
}

/// The stages that need nobody: a side with nothing to play declines; the held-chit play ends
/// when both have declined in succession. `true` when the stage changed.
pub fn advance(rules: &BlindSwords, state: &mut State) -> bool {
    match state.stage.clone() {
        Stage::HeldChits { passes, .. } if passes >= 2 => {
            state.events.asked = true;
            state.stage = Stage::Draw;
        }
        Stage::HeldChits { side, passes } if !asked(state, side) => {
            state.stage = Stage::HeldChits { side: other(side), passes: passes + 1 };
        }
        Stage::RallyEvent { side } if rally_targets(rules, state, side).is_empty() => state.stage = Stage::Draw,
        Stage::Initiative if initiative_brigades(state).is_empty() => state.stage = Stage::Draw,
        Stage::HiddenMoves { for_: for_ @ MoveFor::Brigade { .. }, moved } => {
            let MoveFor::Brigade { brigade, .. } = &for_ else { return false };
            if !hidden_steps(rules, state, brigade, &moved).is_empty() {
                return false;
            }
            state.stage = Stage::Move { for_, moved: Vec::new(), current: None };
        }
        _ => return false,
    }
    true
}

/// Applies an option of an event stage.
///
/// # Errors
/// The option is not offered; the state is then unchanged.
pub fn choose(rules: &BlindSwords, state: &mut State, option: &str) -> Result<(), RuleError> {
    let bad = || RuleError::NotAnOption(option.to_string());
    let (verb, arg) = option.split_once(':').unwrap_or((option, ""));
    match (state.stage.clone(), verb) {
        (Stage::HeldChits { side, passes }, "none") => {
            state.stage = Stage::HeldChits { side: other(side), passes: passes + 1 };
        }
        (Stage::HeldChits { side, .. }, "play") => {
            if !playable_now(rules, state, side).iter().any(|c| c == arg) {
                return Err(bad());
            }
            let event = event_of(rules, arg).unwrap_or_default().to_string();
            spend(rules, state, side, arg);
            state.note(format!("{side} plays {}", chit_name(rules, arg)), "SR 7.1");
            state.events.next = Some(other(side));
            state.events.asked = false;
            state.stage = match event.as_str() {
                "rally" => Stage::RallyEvent { side },
                "firefight" | "sharpshooters" | "firing-on-friends" => {
                    Stage::EventFire { side, event, resolved: false }
                }
                _ => Stage::Initiative,
            };
        }
        (Stage::RallyEvent { side }, "rally") => {
            let unit =
                state.unit_index(arg).filter(|i| rally_targets(rules, state, side).contains(i)).ok_or_else(bad)?;
            let u = &mut state.units[unit];
            let hits = u.morale_hits;
            u.morale_hits = 0;
            u.shaken = false;
            let text = format!("Rally: {} recovers, {hits} Morale Hit(s) off", u.name);
            state.note(text, "SR 13.2a, EX 6.5e");
            state.stage = Stage::Draw;
        }
        (Stage::Initiative, "brigade") => {
            if !initiative_brigades(state).iter().any(|b| b == arg) {
                return Err(bad());
            }
            let b = state.brigade_mut(arg).ok_or_else(bad)?;
            if !b.on_hold {
                b.activated = true;
            }
            state.events.initiative = Some(arg.to_string());
            state.note(format!("Brigade Initiative: {} is fully activated", brigade_name(rules, arg)), "EX 7.5c");
            state.stage = Stage::Orders { brigade: arg.to_string(), by: Activator::Command };
        }
        (Stage::Confusion { brigade, by, order }, v) => {
            let side = other(state.brigade(&brigade).map_or(Side::Union, |b| b.side));
            match v {
                "play" if held(rules, state, side, "command-confusion").as_deref() == Some(arg) => {
                    spend(rules, state, side, arg);
                    state
                        .note(format!("{side} plays Command Confusion on {}", brigade_name(rules, &brigade)), "SR 7.3");
                    state.stage = Stage::ConfusionRoll { brigade, by };
                }
                "none" => start_order(rules, state, brigade, by, order),
                _ => return Err(bad()),
            }
        }
        (Stage::Aggressive { chit, brigade }, v) => {
            let side = chit_side(&rules.data().catalog, &chit).unwrap_or(Side::Confederate);
            match v {
                "play" if held(rules, state, side, "aggressive-leader").as_deref() == Some(arg) => {
                    spend(rules, state, side, arg);
                    state.note(
                        format!("Aggressive Leader: {} has a Full Activation", brigade_name(rules, &brigade)),
                        "SR 7.3",
                    );
                    state.stage = Stage::Orders { brigade, by: Activator::Chit { chit } };
                }
                "none" => crate::sequence::limited_fire(state, brigade, chit),
                _ => return Err(bad()),
            }
        }
        (Stage::HiddenEnemy { for_ }, v) => {
            let MoveFor::Brigade { brigade, .. } = &for_ else { return Err(bad()) };
            match v {
                "play" if held(rules, state, Side::Union, "hidden-enemy").as_deref() == Some(arg) => {
                    spend(rules, state, Side::Union, arg);
                    state.note(
                        format!(
                            "Union plays Hidden Enemy: {} may not move adjacent to a Union unit this step",
                            brigade_name(rules, brigade)
                        ),
                        "EX 5.2",
                    );
                    state.events.hidden = Some(brigade.clone());
                    state.stage = Stage::HiddenMoves { for_, moved: Vec::new() };
                }
                "none" => state.stage = Stage::Move { for_, moved: Vec::new(), current: None },
                _ => return Err(bad()),
            }
        }
        (Stage::HiddenMoves { for_, .. }, "done") => {
            state.stage = Stage::Move { for_, moved: Vec::new(), current: None };
        }
        (Stage::HiddenMoves { for_, mut moved }, "step") => {
            let MoveFor::Brigade { brigade, .. } = &for_ else { return Err(bad()) };
            let (id, hex) = arg.split_once(':').ok_or_else(bad)?;
            let unit = state.unit_index(id).ok_or_else(bad)?;
            let h: Hex = hex.parse().map_err(|_| bad())?;
            if !hidden_steps(rules, state, brigade, &moved).contains(&(unit, h)) {
                return Err(bad());
            }
            let from = state.hex_of(unit);
            occupy(rules, state, unit, h);
            state.note(format!("Hidden Enemy: {} steps to {h}", state.units[unit].name), "EX 5.2");
            moved.push(unit);
            state.stage = Stage::HiddenMoves { for_, moved };
            withdraw::after_move(rules, state, unit, from);
        }
        _ => return Err(bad()),
    }
    Ok(())
}

/// The held chit `side` may play in a Close Combat it makes, before the dice (EX 11.3c xvii,
/// xviii): Rebel Yell! for the Confederates, Spontaneous Charge for the Union.
#[must_use]
pub fn charge_chit(rules: &BlindSwords, state: &State, side: Side) -> Option<String> {
    let event = match side {
        Side::Confederate => "rebel-yell",
        Side::Union => "spontaneous-charge",
    };
    held(rules, state, side, event)
}

/// Plays `side`'s [`charge_chit`] for the Close Combat against `target`; `false` when it holds
/// none.
pub fn play_charge(rules: &BlindSwords, state: &mut State, side: Side, target: Hex) -> bool {
    let Some(chit) = charge_chit(rules, state, side) else { return false };
    spend(rules, state, side, &chit);
    let (name, rule) = match side {
        Side::Confederate => ("a Rebel Yell! attack, two columns right", "EX 11.3c xvii"),
        Side::Union => ("a Spontaneous Charge attack, one column right", "EX 11.3c xviii"),
    };
    state.note(format!("{side} plays {}: the Close Combat against {target} is {name}", chit_name(rules, &chit)), rule);
    true
}

/// After a brigade receives its order: the other side may play Command Confusion (SR 7.3), else
/// the order is carried out.
pub fn after_order(rules: &BlindSwords, state: &mut State, brigade: String, by: Activator, order: Order) {
    let side = other(state.brigade(&brigade).map_or(Side::Union, |b| b.side));
    if asked(state, side) {
        state.stage = Stage::Confusion { brigade, by, order };
    } else {
        start_order(rules, state, brigade, by, order);
    }
}

/// The Command Confusion die: the brigade's new order (SR 7.3; `events.toml`), with the text to
/// log. `None` for a die that is not 1-6.
#[must_use]
pub fn confusion(rules: &BlindSwords, state: &State, die: u8) -> Option<(Order, String)> {
    let Stage::ConfusionRoll { brigade, .. } = &state.stage else { return None };
    let order = rules.data().charts.events.command_confusion(die)?;
    Some((order, format!("Command Confusion {die}: {} takes a {order:?} order", brigade_name(rules, brigade))))
}

/// Gives the brigade its new order and carries it out.
pub fn apply_confusion(rules: &BlindSwords, state: &mut State, order: Order) {
    let Stage::ConfusionRoll { brigade, by } = state.stage.clone() else { return };
    if let Some(b) = state.brigade_mut(&brigade) {
        b.order = Some(order);
    }
    start_order(rules, state, brigade, by, order);
}

/// After a Limited Activation of a Confederate brigade: Aggressive Leader may be played (the
/// Confederate player is asked whenever he holds a chit, PG19). `true` when the game now waits
/// for that choice.
pub fn offer_aggressive(rules: &BlindSwords, state: &mut State, chit: &str, brigade: &str) -> bool {
    let side = chit_side(&rules.data().catalog, chit).unwrap_or(Side::Union);
    if side != Side::Confederate || !asked(state, side) {
        return false;
    }
    state.stage = Stage::Aggressive { chit: chit.to_string(), brigade: brigade.to_string() };
    true
}

/// The stage a Movement Step starts with: before a Confederate brigade moves, the Union player's
/// choice to play Hidden Enemy (asked whenever he holds a chit, PG19).
#[must_use]
pub fn movement_start(state: &State, for_: MoveFor) -> Stage {
    let confederate = match &for_ {
        MoveFor::Brigade { brigade, .. } => state.brigade(brigade).is_some_and(|b| b.side == Side::Confederate),
        MoveFor::Artillery { .. } => false,
    };
    if confederate && asked(state, Side::Union) {
        Stage::HiddenEnemy { for_ }
    } else {
        Stage::Move { for_, moved: Vec::new(), current: None }
    }
}
