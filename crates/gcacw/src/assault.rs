//! The Assault action (GCACW 5.3, 7.1; HSN-B 2.2, 5.2, 7.4): a district, corps or division leader
//! picks units of his command in his hex (each gains a fatigue level whatever happens), names an
//! adjacent enemy hex, and rolls for command: an unmodified 6 fails; otherwise the Assault Number is
//! his Command value less the roll (a district leader's roll is reduced by 2), and that many units
//! (at least one) attack with +1. Grand assaults come with a later change.

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
/// or less, not a wagon, not demoralized (GCACW 11.0), and of his command — Schofield and Milroy
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
        || unit.demoralized > 0
    {
        return false;
    }
    let infantry_only = leader.ty == CounterType::District;
    if rules.catalog().commands_unit(lc, unit.counter as usize) {
        return !infantry_only || ty == CounterType::Infantry;
    }
    let id = rules.unit_id(state, u);
    let extra = rules.scenario().rules().any(
        |r| matches!(r, RuleKind::ExtraActivator { counter, leaders } if counter == id && leaders.contains(&leader.id)),
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

fn candidates(rules: &Gcacw, state: &State, l: usize, selected: &[usize]) -> Vec<usize> {
    (0..state.units.len()).filter(|&u| !selected.contains(&u) && may_join(rules, state, l, u, selected)).collect()
}

/// Enemy hexes next to the leader that his selected units could attack (GCACW 7.1 restrictions).
fn targets(rules: &Gcacw, state: &State, l: usize, units: &[usize]) -> Vec<Hex> {
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
        _ => return None,
    };
    Some(Decision { side: side.id().into(), kind: kind.into(), prompt, options })
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
    sequence::log_roll(state, req, dice, format!("Assault Number {number}: up to {allowed} unit(s) attack"));
    if allowed >= selected.len() {
        begin_battle(rules, state, leader, selected, target);
    } else {
        state.stage = Stage::AssaultPick { leader, selected, target, allowed, picked: Vec::new() };
    }
}

fn begin_battle(rules: &Gcacw, state: &mut State, leader: usize, attackers: Vec<usize>, target: Hex) {
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
            mode: Mode::Assault { leader },
            dice: Vec::new(),
            results: None,
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
            state.stage = Stage::AssaultCommand { leader, selected, target };
        }
        Stage::AssaultPick { leader, selected, target, allowed, mut picked } => {
            picked.push(rules.unit_by_id(option.strip_prefix("pick:")?)?);
            if picked.len() >= allowed {
                begin_battle(rules, state, leader, picked, target);
            } else {
                state.stage = Stage::AssaultPick { leader, selected, target, allowed, picked };
            }
        }
        _ => return None,
    }
    Some(())
}
