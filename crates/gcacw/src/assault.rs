//! The Assault action (GCACW 5.3, 7.1; HSN-B 2.2, 5.2, 7.4): a district, corps or division leader
//! picks units of his command in his hex (each gains a fatigue level whatever happens), names an
//! adjacent enemy hex, and rolls for command: an unmodified 6 fails; otherwise the Assault Number is
//! his Command value less the roll (a district leader's roll is reduced by 2), and that many units
//! (at least one) attack with +1. An army or district leader within the active leader's radius may
//! then try a grand assault, bringing units from hexes next to the target.

use caisson_hexmap::Hex;
use caisson_kernel::{Choice, Decision, Modifier, RollRequest};

use crate::battle::{Battle, Mode, Step};
use crate::catalog::CounterType;
use crate::combat;
use crate::rules::Gcacw;
use crate::scenario::RuleKind;
use crate::state::{Stage, State};
use crate::{actions, sequence, Side};

/// Whether a unit may join leader `l`'s assault (GCACW 7.1; HSN-B 2.2, 7.4): in his hex, fatigue 3
/// or less, not a wagon, and of his command (a demoralized unit may, GCACW 11.0) — Schofield and Milroy
/// bring infantry only; Forrest may add one infantry division or up to two infantry brigades
/// stacked with him; a scenario may name extra leaders for a unit.
fn may_join(rules: &Gcacw, state: &State, l: usize, u: usize, selected: &[usize]) -> bool {
    let unit = &state.units[u];
    let lc = state.leaders[l].counter as usize;
    let leader = rules.catalog().get(lc);
    let ty = rules.unit_type(state, u);
    if unit.hex.is_none()
        || unit.hex != rules.leader_hex(state, l)
        || rules.unit_side(state, u) != leader.side
        || !actions::may_act(rules, state, u)
        || ty == CounterType::Wagon
    {
        return false;
    }
    let infantry_only = leader.ty == CounterType::District;
    if rules.commands(state, lc, u) {
        return !infantry_only || ty == CounterType::Infantry;
    }
    let id = rules.unit_id(state, u);
    let extra = rules.scenario().rules().any(
        |r| matches!(r, RuleKind::ExtraActivator { counter, leaders, assault: true } if counter == id && leaders.contains(&leader.id)),
    );
    if extra {
        return true;
    }
    if leader.id == "forrest" && ty == CounterType::Infantry {
        // HSN-B 7.4: one infantry division, or up to two infantry brigades.
        let infantry: Vec<&str> = selected
            .iter()
            .filter(|&&s| rules.unit_type(state, s) == CounterType::Infantry)
            .map(|&s| rules.unit_counter(state, s).size.as_str())
            .collect();
        let size = rules.unit_counter(state, u).size.as_str();
        return match size {
            "division" => infantry.is_empty(),
            _ => infantry.len() < 2 && !infantry.contains(&"division"),
        };
    }
    false
}

/// The units that may still join leader `l`'s assault, `selected` being those already in.
#[must_use]
pub fn candidates(rules: &Gcacw, state: &State, l: usize, selected: &[usize]) -> Vec<usize> {
    (0..state.units.len()).filter(|&u| !selected.contains(&u) && may_join(rules, state, l, u, selected)).collect()
}

/// Enemy hexes next to the leader that his selected units could attack (GCACW 7.1 restrictions).
#[must_use]
pub fn targets(rules: &Gcacw, state: &State, l: usize, units: &[usize]) -> Vec<Hex> {
    let Some(hex) = rules.leader_hex(state, l) else { return Vec::new() };
    let mut out: Vec<Hex> = units
        .iter()
        .flat_map(|&u| combat::legal_targets(rules, state, u, hex, true, &combat::Forts::default()))
        .collect();
    out.sort();
    out.dedup();
    out
}

/// Whether leader `l` may take an Assault action now.
#[must_use]
pub fn eligible(rules: &Gcacw, state: &State, l: usize) -> bool {
    let c = rules.leader_counter(state, l);
    if !matches!(c.ty, CounterType::District | CounterType::Corps | CounterType::Division)
        || rules.restricted(state, state.leaders[l].counter as usize)
    {
        return false;
    }
    let units = candidates(rules, state, l, &[]);
    !units.is_empty() && !targets(rules, state, l, &units).is_empty()
}

/// The HSN assault bonus for this leader now (HSN-B 7.4): Forrest's always; Hood's for the first
/// Confederate infantry corps leader to assault with him this turn.
#[must_use]
pub fn bonus(rules: &Gcacw, state: &State, l: usize) -> Option<(String, i32, String)> {
    combat::hsn_assault_bonus(rules, state, l, state.hood_corps)
}

/// The decision of the Assault stages.
#[must_use]
pub fn decision(rules: &Gcacw, state: &State) -> Option<Decision> {
    let (side, kind, prompt, options) = match &state.stage {
        Stage::AssaultSelect { leader, selected } => {
            let name = &rules.leader_counter(state, *leader).name;
            let mut options: Vec<Choice> = candidates(rules, state, *leader, selected)
                .into_iter()
                .map(|u| {
                    Choice::new(
                        format!("add:{}", rules.unit_id(state, u)),
                        format!(
                            "{} joins (fatigue {} → {})",
                            rules.unit_name(state, u),
                            state.units[u].fatigue,
                            state.units[u].fatigue + 1
                        ),
                    )
                })
                .collect();
            options.extend(selected.iter().map(|&u| {
                Choice::new(
                    format!("drop:{}", rules.unit_id(state, u)),
                    format!("Leave {} out", rules.unit_name(state, u)),
                )
            }));
            if !selected.is_empty() && !targets(rules, state, *leader, selected).is_empty() {
                options.push(Choice::new("done", format!("Done: {} unit(s) gain a fatigue level", selected.len())));
            }
            (
                rules.leader_counter(state, *leader).side,
                "assault-select",
                format!("{name} assaults: choose the units (GCACW 7.1)"),
                options,
            )
        }
        Stage::AssaultTarget { leader, selected } => {
            let options = targets(rules, state, *leader, selected)
                .into_iter()
                .map(|h| Choice::new(format!("target:{h}"), format!("Assault {}", rules.map().label(h))))
                .collect();
            (
                rules.leader_counter(state, *leader).side,
                "assault-target",
                "Which hex is assaulted? (GCACW 7.1)".to_string(),
                options,
            )
        }
        Stage::AssaultPick { leader, selected, target, allowed, picked } => {
            let options = selected
                .iter()
                .filter(|u| !picked.contains(u))
                .map(|&u| {
                    Choice::new(
                        format!("pick:{}", rules.unit_id(state, u)),
                        format!("{} attacks", rules.unit_name(state, u)),
                    )
                })
                .collect();
            (
                rules.leader_counter(state, *leader).side,
                "assault-pick",
                format!(
                    "Assault Number allows {allowed} of the units to attack {} ({} chosen)",
                    rules.map().label(*target),
                    picked.len()
                ),
                options,
            )
        }
        Stage::GrandOffer { leader, attackers, target } => {
            let mut options: Vec<Choice> = grand_leaders(rules, state, *leader, attackers, *target)
                .into_iter()
                .map(|g| {
                    let c = rules.leader_counter(state, g);
                    Choice::new(
                        format!("grand:{}", c.id),
                        format!("Try a grand assault under {} (Command {})", c.name, c.command_value.unwrap_or(0)),
                    )
                })
                .collect();
            options.push(Choice::new("no-grand", "No grand assault"));
            (
                rules.leader_counter(state, *leader).side,
                "grand-offer",
                "Attempt a grand assault? (GCACW 7.1)".to_string(),
                options,
            )
        }
        Stage::GrandJoin { leader, attackers, target, by, number, joined } => {
            let hexes: Vec<Hex> = joined.iter().filter_map(|&u| state.units[u].hex).collect();
            let mut distinct = hexes.clone();
            distinct.sort();
            distinct.dedup();
            let mut options: Vec<Choice> = joiners(rules, state, *by, attackers, *target)
                .into_iter()
                .filter(|u| !joined.contains(u))
                .filter(|&u| state.units[u].hex.is_some_and(|h| distinct.contains(&h) || distinct.len() < *number))
                .map(|u| {
                    let at = state.units[u].hex.map(|h| h.to_string()).unwrap_or_default();
                    Choice::new(
                        format!("join:{}", rules.unit_id(state, u)),
                        format!("{} joins from {at}", rules.unit_name(state, u)),
                    )
                })
                .collect();
            if !joined.is_empty() {
                options.push(Choice::new("done", format!("Done: {} unit(s) join the grand assault", joined.len())));
            }
            (
                rules.leader_counter(state, *leader).side,
                "grand-join",
                format!("Grand Assault Number {number}: choose units in up to {number} hex(es) next to {target} (GCACW 7.1)"),
                options,
            )
        }
        _ => return None,
    };
    Some(Decision { side: side.id().into(), kind: kind.into(), prompt, options })
}

/// The grand assault roll (GCACW 7.1): never modified in HSN.
#[must_use]
pub fn grand_roll_request(rules: &Gcacw, state: &State) -> Option<RollRequest> {
    let Stage::GrandRoll { by, .. } = &state.stage else { return None };
    let c = rules.leader_counter(state, *by);
    Some(RollRequest {
        side: c.side.id().into(),
        purpose: format!("grand assault under {} (Command {})", c.name, c.command_value.unwrap_or(0)),
        rule: "GCACW 7.1".into(),
        dice: 1,
        modifiers: Vec::new(),
    })
}

/// Applies the grand assault roll: 6 or a number of 0 or less, none; otherwise it must happen.
pub fn apply_grand_roll(rules: &Gcacw, state: &mut State, req: &RollRequest, dice: &[u8]) {
    let Stage::GrandRoll { leader, attackers, target, by } = state.stage.clone() else { return };
    let roll = dice.first().copied().unwrap_or(6);
    let number = i32::from(rules.leader_counter(state, by).command_value.unwrap_or(0)) - i32::from(roll);
    if roll >= 6 || number <= 0 {
        sequence::log_roll(state, req, dice, format!("Grand Assault Number {number}: no grand assault"));
        begin_battle(rules, state, leader, attackers, target, false);
        return;
    }
    sequence::log_roll(state, req, dice, format!("Grand Assault Number {number}: the grand assault must take place"));
    let number = usize::try_from(number).unwrap_or(1);
    state.stage = Stage::GrandJoin { leader, attackers, target, by, number, joined: Vec::new() };
}

/// The command roll (GCACW 7.1 step 5).
#[must_use]
pub fn roll_request(rules: &Gcacw, state: &State) -> Option<RollRequest> {
    let Stage::AssaultCommand { leader, .. } = &state.stage else { return None };
    let c = rules.leader_counter(state, *leader);
    let modifiers = if c.ty == CounterType::District {
        vec![Modifier::new("district leader", -2, "GCACW 7.1 (docs/rulings.md R27)")]
    } else {
        Vec::new()
    };
    Some(RollRequest {
        side: c.side.id().into(),
        purpose: format!("{}'s assault command roll (Command {})", c.name, c.command_value.unwrap_or(0)),
        rule: "GCACW 7.1".into(),
        dice: 1,
        modifiers,
    })
}

/// Applies the command roll.
pub fn apply_roll(rules: &Gcacw, state: &mut State, req: &RollRequest, dice: &[u8]) {
    let Stage::AssaultCommand { leader, selected, target } = state.stage.clone() else { return };
    let command = i32::from(rules.leader_counter(state, leader).command_value.unwrap_or(0));
    let raw = dice.first().copied().unwrap_or(6);
    let number = command - sequence::total(dice, &req.modifiers);
    if raw == 6 || number < 0 {
        let why = if raw == 6 { "an unmodified 6".to_string() } else { format!("Assault Number {number}") };
        sequence::log_roll(state, req, dice, format!("{why}: the assault does not take place"));
        sequence::next_action_phase(rules, state);
        return;
    }
    let allowed = usize::try_from(number.max(1)).unwrap_or(1);
    let side = rules.leader_counter(state, leader).side;
    if rules.occupant(state, target) != Some(side.enemy()) {
        // The cavalry retreated and left the hex empty: no combat; the units may advance (7.7).
        sequence::log_roll(
            state,
            req,
            dice,
            format!("Assault Number {number}: the hex is empty; the units may advance"),
        );
        state.stage = Stage::Battle {
            battle: Box::new(Battle {
                attacker: side,
                attackers: selected,
                target,
                defenders: Vec::new(),
                mode: Mode::Assault { leader, grand: false },
                dice: Vec::new(),
                results: Some(("-".into(), "a".into())),
                extra_loss: 0,
                step: Step::Advance { reattached: Vec::new() },
            }),
        };
        return;
    }
    sequence::log_roll(state, req, dice, format!("Assault Number {number}: up to {allowed} unit(s) attack"));
    if allowed >= selected.len() {
        after_command(rules, state, leader, selected, target);
    } else {
        state.stage = Stage::AssaultPick { leader, selected, target, allowed, picked: Vec::new() };
    }
}

/// Army and district leaders who may attempt a grand assault now (GCACW 7.1; HSN-B 2.2): within
/// the active leader's command radius (a district leader who assaults may himself), the active
/// leader no cavalry leader, at least 3 Combat committed, and an eligible hex with a unit to join.
fn grand_leaders(rules: &Gcacw, state: &State, leader: usize, attackers: &[usize], target: Hex) -> Vec<usize> {
    let lc = state.leaders[leader].counter as usize;
    // HSN-A 2.2 Grant Relieves Thomas: no Union grand assaults for the turns rolled.
    if !crate::events::grand_assault_allowed(state, rules.catalog().get(lc).side) {
        return Vec::new();
    }
    let committed = attackers
        .iter()
        .map(|&u| combat::attack_value(rules, state, u))
        .fold(crate::charts::Half::whole(0), |a, b| a + b);
    if rules.catalog().is_cavalry_leader(lc) || committed < crate::charts::Half::whole(3) {
        return Vec::new();
    }
    let side = rules.leader_counter(state, leader).side;
    let radius = rules.command_radius(state, leader, &rules.board(state));
    (0..state.leaders.len())
        .filter(|&g| {
            let c = rules.leader_counter(state, g);
            c.side == side
                && matches!(c.ty, CounterType::Army | CounterType::District)
                && (g == leader || rules.leader_hex(state, g).is_some_and(|h| radius.contains(&h)))
                && !joiners(rules, state, g, attackers, target).is_empty()
        })
        .collect()
}

/// Units that may join a grand assault led by `by` (GCACW 7.1 step 3; 11.0; HSN-B 2.2): next to the
/// target (the assault hex included), not chosen in step 1, fatigue 3 or less, able to attack it,
/// not demoralized, not a wagon; Schofield and Milroy only their districts' infantry.
fn joiners(rules: &Gcacw, state: &State, by: usize, attackers: &[usize], target: Hex) -> Vec<usize> {
    let bc = state.leaders[by].counter as usize;
    let district = rules.catalog().get(bc).ty == CounterType::District;
    let side = rules.catalog().get(bc).side;
    rules
        .on_map(state)
        .filter(|&(u, h)| {
            h.distance(target) == 1
                && rules.unit_side(state, u) == side
                && !attackers.contains(&u)
                && state.units[u].demoralized == 0
                && rules.unit_type(state, u) != CounterType::Wagon
                && actions::may_act(rules, state, u)
                && (!district || (rules.unit_type(state, u) == CounterType::Infantry && rules.commands(state, bc, u)))
                && combat::legal_targets(rules, state, u, h, true, &combat::Forts::default()).contains(&target)
        })
        .map(|(u, _)| u)
        .collect()
}

/// After the assault's own units are known: a grand assault may be tried (step 6), or the combat
/// begins.
fn after_command(rules: &Gcacw, state: &mut State, leader: usize, attackers: Vec<usize>, target: Hex) {
    if grand_leaders(rules, state, leader, &attackers, target).is_empty() {
        begin_battle(rules, state, leader, attackers, target, false);
    } else {
        state.stage = Stage::GrandOffer { leader, attackers, target };
    }
}

fn begin_battle(rules: &Gcacw, state: &mut State, leader: usize, attackers: Vec<usize>, target: Hex, grand: bool) {
    if let Some((label, _, _)) = bonus(rules, state, leader) {
        if label.starts_with("Hood") {
            state.hood_corps = Some(leader);
        }
    }
    crate::battle::lone_attacker_lifts_flanks(rules, state, &attackers);
    let defenders = rules.on_map(state).filter(|&(_, h)| h == target).map(|(v, _)| v).collect();
    let attacker = rules.leader_counter(state, leader).side;
    state.stage = Stage::Battle {
        battle: Box::new(Battle {
            attacker,
            attackers,
            target,
            defenders,
            mode: Mode::Assault { leader, grand },
            dice: Vec::new(),
            results: None,
            extra_loss: 0,
            step: Step::Confirm,
        }),
    };
}

/// Starts an assault by leader `l`.
pub fn start(rules: &Gcacw, state: &mut State, side: Side, l: usize) {
    state.note(format!("{side}: {} assaults.", rules.leader_counter(state, l).name), Some("GCACW 5.3"));
    state.stage = Stage::AssaultSelect { leader: l, selected: Vec::new() };
}

/// Applies an option of the Assault stages; `None` if unreadable.
pub fn choose(rules: &Gcacw, state: &mut State, option: &str) -> Option<()> {
    match state.stage.clone() {
        Stage::AssaultSelect { leader, mut selected } => {
            if option == "done" {
                for &u in &selected {
                    state.units[u].fatigue = (state.units[u].fatigue + 1).min(4);
                    state.activated_once.insert(u);
                }
                let names: Vec<String> = selected.iter().map(|&u| rules.unit_name(state, u)).collect();
                state.note(format!("{} gain a fatigue level for the assault.", names.join(", ")), Some("GCACW 7.1"));
                state.stage = Stage::AssaultTarget { leader, selected };
                return Some(());
            }
            let (verb, id) = option.split_once(':')?;
            let u = rules.unit_by_id(id)?;
            match verb {
                "add" => selected.push(u),
                "drop" => selected.retain(|&s| s != u),
                _ => return None,
            }
            state.stage = Stage::AssaultSelect { leader, selected };
        }
        Stage::AssaultTarget { leader, selected } => {
            let target: Hex = option.strip_prefix("target:")?.parse().ok()?;
            state.note(format!("The assault is aimed at {}.", rules.map().label(target)), Some("GCACW 7.1"));
            if !crate::cavalry::offer_against_assault(rules, state, leader, selected.clone(), target) {
                state.stage = Stage::AssaultCommand { leader, selected, target };
            }
        }
        Stage::GrandOffer { leader, attackers, target } => {
            if option == "no-grand" {
                begin_battle(rules, state, leader, attackers, target, false);
            } else {
                let by = rules.leader_by_id(option.strip_prefix("grand:")?)?;
                state.stage = Stage::GrandRoll { leader, attackers, target, by };
            }
        }
        Stage::GrandJoin { leader, mut attackers, target, by, number, mut joined } => {
            if option == "done" {
                for &u in &joined {
                    state.units[u].fatigue = (state.units[u].fatigue + 1).min(4);
                    state.activated_once.insert(u);
                }
                let names: Vec<String> = joined.iter().map(|&u| rules.unit_name(state, u)).collect();
                state.note(
                    format!("{} join the grand assault, each gaining a fatigue level.", names.join(", ")),
                    Some("GCACW 7.1"),
                );
                attackers.extend(joined);
                begin_battle(rules, state, leader, attackers, target, true);
            } else {
                joined.push(rules.unit_by_id(option.strip_prefix("join:")?)?);
                state.stage = Stage::GrandJoin { leader, attackers, target, by, number, joined };
            }
        }
        Stage::AssaultPick { leader, selected, target, allowed, mut picked } => {
            picked.push(rules.unit_by_id(option.strip_prefix("pick:")?)?);
            if picked.len() >= allowed {
                after_command(rules, state, leader, picked, target);
            } else {
                state.stage = Stage::AssaultPick { leader, selected, target, allowed, picked };
            }
        }
        _ => return None,
    }
    Some(())
}
