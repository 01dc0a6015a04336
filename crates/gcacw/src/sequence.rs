//! Sequence of play (GCACW 3.0): Leader Transfer Phase, the Action Cycle with its initiative
//! segments (4.0), and the end of the turn. Every decision and roll of the game is routed from
//! here to the procedure that owns it.

use caisson_kernel::{Choice, Decision, Modifier, Pending, RollRecord, RollRequest, RuleError};

use crate::rules::Gcacw;
use crate::scenario::{RuleKind, Ties};
use crate::state::{side_index, Stage, State};
use crate::{actions, activation, march, transfer, Side};

/// The pending decision or roll.
pub fn pending(rules: &Gcacw, state: &State) -> Pending {
    if let Some(req) = roll_request(rules, state) {
        return Pending::Roll(req);
    }
    let decision = match &state.stage {
        Stage::Over => return Pending::Over,
        Stage::Transfers { side, done, picking } => transfer::decision(rules, state, *side, done, *picking),
        Stage::Action { side, other_passed } => {
            let mut options = actions::options(rules, state, *side);
            options.push(Choice::new("pass", "Pass"));
            let prompt = if *other_passed {
                format!("{side} may take the initiative (the other player passed): choose an action or pass")
            } else {
                format!("{side} has the initiative: choose an action, or pass")
            };
            Decision { side: side.id().to_string(), kind: "action".into(), prompt, options }
        }
        Stage::ForceMarch { march } => march::force_march_decision(rules, state, march),
        Stage::RailMove { unit } => crate::rail::decision(rules, state, *unit),
        Stage::Riders { march } => march::riders_decision(rules, state, march),
        Stage::ArrivalAction => crate::arrival::action_decision(rules, state),
        Stage::Moving { march } => march::moving_decision(rules, state, march),
        Stage::ActivateSelect { leader, selected } => activation::select_decision(rules, state, *leader, selected),
        Stage::ActivateTransfer => activation::transfer_decision(rules, state),
        Stage::ActivateNext => activation::next_decision(rules, state),
        Stage::Recovery { .. } => crate::recovery::decision(rules, state),
        Stage::AssaultSelect { .. }
        | Stage::AssaultTarget { .. }
        | Stage::AssaultPick { .. }
        | Stage::GrandOffer { .. }
        | Stage::GrandJoin { .. } => match crate::assault::decision(rules, state) {
            Some(d) => d,
            None => return Pending::Over,
        },
        Stage::CavalryRetreat { c } => match crate::cavalry::decision(rules, state, c) {
            Some(d) => d,
            None => return Pending::Over,
        },
        Stage::Battle { battle } => match crate::battle::decision(rules, state, battle) {
            Some(d) => d,
            None => return Pending::Over,
        },
        Stage::DestroyBridge { unit, .. } => crate::bridges::destroy_decision(rules, state, *unit),
        Stage::DestroyWagons { chosen } => crate::wagons::decision(rules, state, chosen),
        Stage::Reinforcement { side } => crate::reinforcement::decision(rules, state, *side),
        Stage::Enhancement { cavalry, infantry } => crate::enhancement::decision(rules, state, *cavalry, *infantry),
        Stage::RailMarch { unit } => crate::rail::rail_march_decision(rules, state, *unit),
        Stage::NightMarchChoice => crate::events::night_march_decision(),
        Stage::SwampEscape { units, .. } => match crate::swamp::decision(rules, state, units) {
            Some(d) => d,
            None => return Pending::Over,
        },
        Stage::WinterWeatherRoll | Stage::EventRoll { .. } => return Pending::Over,
        Stage::Attachment { side } => crate::substitute::decision(rules, state, *side),
        Stage::UnionCavalry { segment: step } => match crate::mounts::decision(rules, state, step) {
            Some(d) => d,
            None => return Pending::Over,
        },
        Stage::InitiativeRoll { .. }
        | Stage::MarchAllowance { .. }
        | Stage::ExtendedMarch { .. }
        | Stage::ForceMarchRoll { .. }
        | Stage::BlockhouseRoll { .. }
        | Stage::ActivateAllowance
        | Stage::AssaultCommand { .. }
        | Stage::GrandRoll { .. }
        | Stage::ArrivalRoll
        | Stage::ReinforcementRoll { .. }
        | Stage::EnhancementRoll => return Pending::Over,
    };
    Pending::Decide(decision)
}

/// The roll the game waits for, if any, with the modifiers known before it.
#[must_use]
pub fn roll_request(rules: &Gcacw, state: &State) -> Option<RollRequest> {
    match &state.stage {
        Stage::InitiativeRoll { union } => {
            let side = if union.is_none() { Side::Union } else { Side::Confederate };
            Some(RollRequest {
                side: side.id().into(),
                purpose: format!("{side} initiative"),
                rule: "GCACW 4.2".into(),
                dice: 1,
                modifiers: Vec::new(),
            })
        }
        Stage::MarchAllowance { unit } => Some(march::allowance_request(rules, state, *unit)),
        Stage::ExtendedMarch { march } => Some(march::extended_request(rules, state, march)),
        Stage::ForceMarchRoll { march } => Some(march::force_march_request(rules, state, march)),
        Stage::BlockhouseRoll { march, ty } => crate::blockhouse::roll_request(rules, state, march, *ty),
        Stage::ActivateAllowance => activation::allowance_request(rules, state),
        Stage::ArrivalRoll => crate::arrival::roll_request(rules, state),
        Stage::ReinforcementRoll { side } => crate::reinforcement::roll_request(rules, state, *side),
        Stage::EnhancementRoll => crate::enhancement::roll_request(rules),
        Stage::Recovery { roll: Some(_), .. } => crate::recovery::roll_request(rules, state),
        Stage::Battle { battle } => crate::battle::roll_request(rules, state, battle),
        Stage::CavalryRetreat { c } => crate::cavalry::roll_request(rules, state, c),
        Stage::AssaultCommand { .. } => crate::assault::roll_request(rules, state),
        Stage::GrandRoll { .. } => crate::assault::grand_roll_request(rules, state),
        Stage::UnionCavalry { segment: step } => crate::mounts::roll_request(rules, state, step),
        Stage::DestroyBridge { unit, stayed, site: Some(site) } => {
            Some(crate::bridges::destroy_request(rules, state, *unit, *site, *stayed))
        }
        Stage::WinterWeatherRoll => crate::winter::roll_request(rules, state),
        Stage::EventRoll { roll } => Some(crate::events::roll_request(state, *roll)),
        _ => None,
    }
}

/// Applies the dice of the pending roll.
///
/// # Errors
/// No roll is pending, or the wrong number of dice.
pub fn roll(rules: &Gcacw, state: &mut State, dice: &[u8]) -> Result<(), RuleError> {
    let req = roll_request(rules, state).ok_or_else(|| RuleError::Unexpected("no die roll is pending".into()))?;
    if dice.len() != usize::from(req.dice) {
        return Err(RuleError::BadRoll(format!("{} dice needed, {} given", req.dice, dice.len())));
    }
    match state.stage.clone() {
        Stage::InitiativeRoll { union: None } => {
            log_roll(state, &req, dice, "rolled");
            state.stage = Stage::InitiativeRoll { union: Some(dice[0]) };
        }
        Stage::InitiativeRoll { union: Some(u) } => {
            let c = dice[0];
            if u == c && crate::winter::on(state) {
                // HSN-A 4.0: in winter the first tied roll ends the Action Cycle.
                log_roll(state, &req, dice, format!("tie {u}-{c} in winter: the Action Cycle ends"));
                state.note("Winter weather: a tied initiative roll ends the Action Cycle.", Some("HSN-A 4.0"));
                end_action_cycle(rules, state);
                return Ok(());
            }
            let winner = initiative_winner(rules, state, u, c);
            let why = if u == c {
                format!("tie {u}-{c} goes to the {winner} player")
            } else {
                format!("Union {u}, Confederate {c}")
            };
            log_roll(state, &req, dice, format!("{winner} wins the initiative ({why})"));
            if late_rain(rules, state, u, c) {
                crate::swamp::rain_begins(rules, state, crate::swamp::Then::Initiative(winner));
            } else {
                gain_initiative(rules, state, winner);
            }
        }
        Stage::MarchAllowance { unit } => march::apply_allowance(rules, state, unit, &req, dice),
        Stage::ExtendedMarch { march } => march::apply_extended(rules, state, march, &req, dice),
        Stage::ForceMarchRoll { march } => march::apply_force_march(rules, state, march, &req, dice),
        Stage::BlockhouseRoll { march, .. } => crate::blockhouse::apply_roll(rules, state, march, &req, dice),
        Stage::ActivateAllowance => activation::apply_allowance(rules, state, &req, dice),
        Stage::ArrivalRoll => crate::arrival::apply_roll(rules, state, &req, dice),
        Stage::ReinforcementRoll { side } => crate::reinforcement::apply_roll(rules, state, side, &req, dice),
        Stage::EnhancementRoll => crate::enhancement::apply_roll(rules, state, &req, dice),
        Stage::Recovery { roll: Some(_), .. } => crate::recovery::apply_roll(rules, state, &req, dice),
        Stage::Battle { battle } => crate::battle::apply_roll(rules, state, *battle, &req, dice),
        Stage::CavalryRetreat { c } => crate::cavalry::apply_roll(rules, state, *c, &req, dice),
        Stage::AssaultCommand { .. } => crate::assault::apply_roll(rules, state, &req, dice),
        Stage::GrandRoll { .. } => crate::assault::apply_grand_roll(rules, state, &req, dice),
        Stage::UnionCavalry { .. } => crate::mounts::apply_roll(rules, state, &req, dice),
        Stage::DestroyBridge { unit, site: Some(site), .. } => {
            crate::bridges::apply_destroy(state, unit, site, &req, dice);
            march::end_march(rules, state);
        }
        Stage::WinterWeatherRoll => crate::winter::apply_roll(rules, state, &req, dice),
        Stage::EventRoll { roll } => crate::events::apply_roll(rules, state, roll, &req, dice),
        _ => return Err(RuleError::Unexpected("no die roll is pending".into())),
    }
    Ok(())
}

/// Logs a roll with its dice, modifiers and result.
pub fn log_roll(state: &mut State, req: &RollRequest, dice: &[u8], result: impl Into<String>) {
    let rec = RollRecord::new(req, dice, result);
    let text = format!("{}: {}", rec.purpose, rec.result);
    state.log.push(caisson_kernel::LogEntry { turn: state.turn, text, rule: Some(req.rule.clone()), roll: Some(rec) });
}

/// Applies an option of the pending decision.
///
/// # Errors
/// An option that cannot be interpreted (the kernel has already checked it was offered).
pub fn choose(rules: &Gcacw, state: &mut State, option: &str) -> Result<(), RuleError> {
    let bad = || RuleError::NotAnOption(option.to_string());
    match state.stage.clone() {
        Stage::Transfers { side, done, picking } => {
            transfer::choose(rules, state, side, done, picking, option).ok_or_else(bad)
        }
        Stage::Action { side, other_passed } => {
            if option == "pass" {
                state.note(format!("{side} passes."), Some("GCACW 4.2"));
                let other = side.enemy();
                if other_passed || !actions::any(rules, state, other) {
                    end_action_cycle(rules, state);
                } else {
                    state.stage = Stage::Action { side: other, other_passed: true };
                }
                Ok(())
            } else {
                actions::start(rules, state, side, option).ok_or_else(bad)
            }
        }
        Stage::ForceMarch { march } => march::choose_force_march(rules, state, march, option).ok_or_else(bad),
        Stage::RailMove { unit } => crate::rail::choose(rules, state, unit, option).ok_or_else(bad),
        Stage::RailMarch { unit } => crate::rail::choose_rail_march(rules, state, unit, option).ok_or_else(bad),
        Stage::Reinforcement { side } => crate::reinforcement::choose(rules, state, side, option).ok_or_else(bad),
        Stage::Enhancement { cavalry, infantry } => {
            crate::enhancement::choose(rules, state, cavalry, infantry, option).ok_or_else(bad)
        }
        Stage::Riders { march } => march::choose_riders(rules, state, march, option).ok_or_else(bad),
        Stage::ArrivalAction => {
            let side = Side::Confederate;
            actions::start(rules, state, side, option).ok_or_else(bad)
        }
        Stage::Moving { march } => march::choose_move(rules, state, march, option).ok_or_else(bad),
        Stage::ActivateSelect { leader, selected } => {
            activation::choose_select(rules, state, leader, selected, option).ok_or_else(bad)
        }
        Stage::ActivateTransfer => activation::choose_transfer(rules, state, option).ok_or_else(bad),
        Stage::ActivateNext => activation::choose_next(rules, state, option).ok_or_else(bad),
        Stage::Recovery { .. } => crate::recovery::choose(rules, state, option).ok_or_else(bad),
        Stage::Attachment { side } => crate::substitute::choose(rules, state, side, option).ok_or_else(bad),
        Stage::Battle { battle } => crate::battle::choose(rules, state, *battle, option).ok_or_else(bad),
        Stage::CavalryRetreat { c } => crate::cavalry::choose(rules, state, *c, option).ok_or_else(bad),
        Stage::UnionCavalry { .. } => crate::mounts::choose(rules, state, option).ok_or_else(bad),
        Stage::AssaultSelect { .. }
        | Stage::AssaultTarget { .. }
        | Stage::AssaultPick { .. }
        | Stage::GrandOffer { .. }
        | Stage::GrandJoin { .. } => crate::assault::choose(rules, state, option).ok_or_else(bad),
        Stage::DestroyWagons { chosen } => crate::wagons::choose(rules, state, chosen, option).ok_or_else(bad),
        Stage::DestroyBridge { unit, stayed, site: None } => {
            if option == "keep" {
                march::end_march(rules, state);
            } else {
                let site = option.strip_prefix("destroy:").and_then(crate::bridges::parse_site).ok_or_else(bad)?;
                state.stage = Stage::DestroyBridge { unit, stayed, site: Some(site) };
            }
            Ok(())
        }
        Stage::NightMarchChoice => crate::events::choose_night_march(rules, state, option).ok_or_else(bad),
        Stage::SwampEscape { units, then } => crate::swamp::choose(rules, state, &units, then, option).ok_or_else(bad),
        _ => Err(bad()),
    }
}

/// Who wins an initiative roll: the higher die; a tie by the Army Initiative level where the
/// scenario has one (HSN-A 3.0), else by the scenario's tie rule (GCACW 4.2 default: Confederate).
#[must_use]
pub fn initiative_winner(rules: &Gcacw, state: &State, union: u8, confederate: u8) -> Side {
    if union > confederate {
        return Side::Union;
    }
    if confederate > union {
        return Side::Confederate;
    }
    if crate::events::army_initiative_start(rules).is_some() {
        return crate::events::tie_winner(state.campaign.army_initiative, union);
    }
    match rules.scenario().initiative.ties {
        Ties::Confederate => Side::Confederate,
        Ties::Union => Side::Union,
        Ties::Split if union <= 3 => Side::Union,
        Ties::Split => Side::Confederate,
    }
}

/// Whether Late Rain is armed this turn: the scenario rule from its first turn (HSN Sc 2), or a
/// Late Rain random event (HSN-A 2.2).
fn late_rain_armed(rules: &Gcacw, state: &State) -> Option<&'static str> {
    if state.events.late_rain {
        return Some("HSN-A 2.2 Late Rain; GCACW 12.0");
    }
    rules
        .scenario()
        .rules()
        .any(|r| matches!(r, RuleKind::LateRain { from_turn } if state.turn >= *from_turn))
        .then_some("HSN Sc 2 Late Rain; GCACW 12.0")
}

/// Late Rain (HSN Sc 2; HSN-A 2.2): double 1s start rain for the rest of the turn, once both
/// players have gained the initiative this turn. Returns whether rain began.
fn late_rain(rules: &Gcacw, state: &mut State, union: u8, confederate: u8) -> bool {
    if let Some(source) = late_rain_armed(rules, state) {
        if union == 1 && confederate == 1 && state.gained == [true, true] && !state.rain {
            state.rain = true;
            state.note("Double 1s: Late Rain — rain rules apply for the rest of the turn.", Some(source));
            return true;
        }
    }
    false
}

/// The winner of the initiative roll takes the initiative, or passes it on when it has nothing
/// to do (GCACW 4.2).
pub(crate) fn gain_initiative(rules: &Gcacw, state: &mut State, side: Side) {
    state.gained[side_index(side)] = true;
    if !actions::any(rules, state, side) {
        state.note(format!("{side} has no eligible unit and must pass."), Some("GCACW 4.2"));
        let other = side.enemy();
        if !actions::any(rules, state, other) {
            end_action_cycle(rules, state);
        } else {
            state.stage = Stage::Action { side: other, other_passed: true };
        }
    } else {
        state.stage = Stage::Action { side, other_passed: false };
    }
}

/// Begins the Action Cycle (GCACW 4.0): a scenario's arrival roll first, where it has one.
pub fn begin_action_cycle(rules: &Gcacw, state: &mut State) {
    state.note("Action Cycle begins.", Some("GCACW 4.0"));
    if crate::arrival::roll_due(rules, state) {
        state.stage = Stage::ArrivalRoll;
    } else {
        next_action_phase(rules, state);
    }
}

/// Begins the next Action Phase (GCACW 4.1): automatic initiatives first, then the dice — or no
/// dice when only one side has an eligible unit (4.2), or the end of the cycle when neither has
/// (4.4).
pub fn next_action_phase(rules: &Gcacw, state: &mut State) {
    state.activation = None;
    state.arriving = None;
    let eligible = [actions::any(rules, state, Side::Union), actions::any(rules, state, Side::Confederate)];
    state.automatic_action = !state.automatic.is_empty();
    if !state.automatic.is_empty() {
        let side = state.automatic.remove(0);
        state.note(
            format!("{side} wins this initiative automatically (scenario rule)."),
            Some(&rules.scenario().initiative.source),
        );
        gain_initiative(rules, state, side);
        return;
    }
    let rolls_anyway = late_rain_armed(rules, state).is_some();
    match eligible {
        [false, false] => end_action_cycle(rules, state),
        [true, false] | [false, true] if !rolls_anyway => {
            let side = if eligible[0] { Side::Union } else { Side::Confederate };
            state.note(
                format!("Only the {side} player has an eligible unit: he has the initiative without a roll."),
                Some("GCACW 4.2"),
            );
            gain_initiative(rules, state, side);
        }
        _ => state.stage = Stage::InitiativeRoll { union: None },
    }
}

/// Ends the Action Cycle (GCACW 4.4) and goes on to the Recovery Phase (8.0).
pub fn end_action_cycle(rules: &Gcacw, state: &mut State) {
    state.note("The Action Cycle ends.", Some("GCACW 4.4"));
    state.activation = None;
    phase_done(rules, state, Phase::ActionCycle);
}

/// The phases of a turn in order: the Basic Game's Leader Transfer Phase, Action Cycle and
/// Recovery Phase (GCACW 3.0), with the phases an Advanced Game adds around them (HSN-A 1.0).
/// A phase a scenario does not use passes straight on to the next one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    /// Winter Weather Phase (HSN-A 4.0).
    WinterWeather,
    /// Random Events Phase (HSN-A 2.0).
    RandomEvents,
    /// Union Manpower Enhancement Phase (HSN-A 11.0).
    ManpowerEnhancement,
    /// Reinforcement Phase (HSN-A 12.0, 13.0).
    Reinforcement,
    /// Leader Transfer Phase (GCACW 6.3).
    LeaderTransfer,
    /// Attachment Phase (HSN-A 7.2).
    Attachment,
    /// Action Cycle (GCACW 4.0).
    ActionCycle,
    /// Recovery Phase (GCACW 8.0).
    Recovery,
    /// Union Cavalry Phase (HSN-A 5.0).
    UnionCavalry,
    /// Victory Point Phase (HSN Sc 9 victory conditions).
    VictoryPoints,
    /// Turn Indication Phase (GCACW 3.0).
    TurnIndication,
}

impl Phase {
    /// Every phase, in the order of the turn.
    pub const ALL: [Phase; 11] = [
        Phase::WinterWeather,
        Phase::RandomEvents,
        Phase::ManpowerEnhancement,
        Phase::Reinforcement,
        Phase::LeaderTransfer,
        Phase::Attachment,
        Phase::ActionCycle,
        Phase::Recovery,
        Phase::UnionCavalry,
        Phase::VictoryPoints,
        Phase::TurnIndication,
    ];

    /// The phase after this one in the same turn.
    #[must_use]
    pub fn next(self) -> Option<Phase> {
        Phase::ALL.iter().position(|&p| p == self).and_then(|i| Phase::ALL.get(i + 1)).copied()
    }
}

/// Enters `phase`: its module either sets the stage it waits in, or finishes at once and calls
/// [`phase_done`], which enters the next phase.
pub fn enter(rules: &Gcacw, state: &mut State, phase: Phase) {
    state.phase = phase;
    match phase {
        Phase::LeaderTransfer => leader_transfer_phase(rules, state),
        Phase::ActionCycle => begin_action_cycle(rules, state),
        Phase::Recovery => crate::recovery::begin(rules, state),
        Phase::VictoryPoints if crate::vp_phase::in_play(rules) => crate::vp_phase::begin(rules, state),
        Phase::Attachment => crate::substitute::begin_phase(rules, state),
        Phase::UnionCavalry => crate::mounts::begin(rules, state),
        Phase::TurnIndication => next_turn(rules, state),
        Phase::WinterWeather => crate::winter::begin(rules, state),
        Phase::RandomEvents => crate::events::begin(rules, state),
        Phase::ManpowerEnhancement => crate::enhancement::begin(rules, state),
        Phase::Reinforcement => crate::reinforcement::begin(rules, state),
        // Phases of the Advanced Game that this scenario does not use.
        Phase::VictoryPoints => phase_done(rules, state, phase),
    }
}

/// A phase has finished: enters the next one.
pub fn phase_done(rules: &Gcacw, state: &mut State, phase: Phase) {
    if let Some(next) = phase.next() {
        enter(rules, state, next);
    }
}

/// Turn Indication Phase (GCACW 3.0): the next turn, or the end of the game after the last.
fn next_turn(rules: &Gcacw, state: &mut State) {
    crate::victory::observe(rules, state);
    if state.turn >= rules.scenario().turns {
        state.note("The last turn is over: the game ends.", Some("GCACW 3.0"));
        let score = crate::victory::score(rules, state);
        let source = rules.scenario().victory.source.clone();
        for item in &score.items {
            state.note(format!("{:+} VP — {} ({})", item.vp, item.text, item.detail), Some(&source));
        }
        state.note(format!("{} VP total: {} — {}.", score.side, score.total, score.level), Some(&source));
        state.stage = Stage::Over;
        return;
    }
    state.turn += 1;
    start_turn(rules, state);
}

/// Begins a turn: clears the markers of the last one and enters its first phase.
pub fn start_turn(rules: &Gcacw, state: &mut State) {
    state.rain = false;
    state.bridges.failed.clear();
    state.hood_corps = None;
    state.bridges.destroy_tried.clear();
    state.gained = [false; 2];
    state.events.new_turn();
    if state.turn > 1 {
        state.automatic.clear();
    }
    state.note(format!("Turn {} begins.", state.turn), Some("GCACW 3.0"));
    enter(rules, state, Phase::ALL[0]);
}

/// Leader Transfer Phase, Union first (GCACW 3.0, 6.3), unless the scenario skips it this turn.
fn leader_transfer_phase(rules: &Gcacw, state: &mut State) {
    let skip = rules
        .scenario()
        .special_rule
        .iter()
        .find(|r| matches!(&r.kind, RuleKind::SkipTransfers { turns } if turns.contains(&state.turn)));
    match skip {
        Some(r) => {
            let source = r.source.clone();
            state.note("No Leader Transfer Phase this turn.", Some(&source));
            phase_done(rules, state, Phase::LeaderTransfer);
        }
        None => {
            state.note("Leader Transfer Phase.", Some("GCACW 3.0"));
            transfer::begin(rules, state, Side::Union);
        }
    }
}

/// Dice under a scenario's minimum die count as that minimum (HSN Sc 4 Turn 1). Returns the
/// dice to use and, if any was raised, a note for the log.
#[must_use]
pub fn minimum_die(dice: &[u8], min: Option<(u8, &str)>) -> (Vec<u8>, Option<String>) {
    let Some((min, source)) = min else { return (dice.to_vec(), None) };
    let raised: Vec<u8> = dice.iter().map(|&d| d.max(min)).collect();
    let note = (raised != dice).then(|| format!("dice below {min} count as {min} ({source})"));
    (raised, note)
}

/// The modifiers of a roll, summed.
#[must_use]
pub fn total(dice: &[u8], modifiers: &[Modifier]) -> i32 {
    dice.iter().map(|&d| i32::from(d)).sum::<i32>() + modifiers.iter().map(|m| m.value).sum::<i32>()
}
