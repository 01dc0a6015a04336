//! [SR 6.4, 12.8, 13, 14.4] Rally in play: the pure procedure of [`crate::rally`] fed from the
//! game state, its Rebuild die asked through a [`RollRequest`], and the Broken Track's End Turn
//! update.
//!
//! Enforced: the Artillery Rally Step (SR 6.4: the Union, then the Confederate player, may rally
//! one battery that neither moved, fired, retreated nor was flipped in this turn's Artillery Steps
//! and is with or next to friendly infantry); the Rally Step of a brigade under Defend or Regroup
//! orders (SR 8.3, 8.5, 13.1-13.2: each eligible unit, the owner choosing, takes Recovery or
//! Rebuild once); the placement of a unit rebuilt from the "Available" box and the displacement of
//! one whose Fresh side over-stacks its hex (SR 13.2b, rulings PC19, PC20); the Broken Track
//! moving down a box at End Turn (SR 12.8a, 14.4); the Rebuild Option of SR 13.2b as the game
//! option `rebuild=on` (a unit back from the Broken Track never rebuilds to its Fresh side).

use caisson_hexmap::Hex;
use caisson_kernel::{Choice, Decision, Pending, RollRequest, RuleError};

use crate::catalog::{Side, UnitType};
use crate::charts::{Order, Rally};
use crate::cohesion::{broken_track_advance, CombatUnit, Morale, Status};
use crate::combat_step::{bare_unit, stack_at};
use crate::movement::{self, Board};
use crate::rally::{self, RallyAction, RallyCheck, RallyStep, RALLY_DISTANCE};
use crate::rules::BlindSwords;
use crate::sequence::{after_activation, occupy};
use crate::state::{side_id, Activator, Place, RallyFor, Stage, State};

/// The side that rallies in a step.
fn side_of(state: &State, for_: &RallyFor) -> Side {
    match for_ {
        RallyFor::Artillery { side } => *side,
        RallyFor::Brigade { brigade, .. } => state.brigade(brigade).map_or(Side::Union, |b| b.side),
    }
}

/// Hexes from `hex` to the nearest enemy of `side` on the map (`None`: no enemy on the map).
fn enemy_distance(rules: &BlindSwords, state: &State, side: Side, hex: Hex) -> Option<u32> {
    let d = crate::movement::enemy_distance(&rules.data().map, state, side, hex);
    (d != u16::MAX).then_some(u32::from(d))
}

/// Unit `i` as the rally procedure sees it, and whether it has Unit Support now (SR 12.4; a unit
/// in the "Available" box always has it, SR 13.2b). `None` off the map and outside that box.
fn rally_unit(rules: &BlindSwords, state: &State, i: usize) -> Option<(CombatUnit, bool)> {
    match state.units.get(i)?.place {
        Place::Map(h) => {
            let (stack, ids) = stack_at(rules, state, h);
            let k = ids.iter().position(|&j| j == i)?;
            let supported = stack.is_supported(k);
            Some((stack.units.get(k)?.clone(), supported))
        }
        Place::Broken(0) => {
            let mut c = bare_unit(rules, state, i)?;
            c.status = Status::Available;
            c.battleworn = true;
            c.morale = Morale::Steady;
            Some((c, true))
        }
        _ => None,
    }
}

/// Whether a unit of `side` in `hex` has a unit matching `friend` stacked with or next to it.
fn beside(rules: &BlindSwords, state: &State, hex: Hex, friend: impl Fn(usize) -> bool) -> bool {
    let map = &rules.data().map;
    state
        .units
        .iter()
        .enumerate()
        .any(|(j, u)| matches!(u.place, Place::Map(h) if map.distance(h, hex) <= 1) && friend(j))
}

/// The facts SR 13.1 and 6.4 ask about unit `i` in this step.
fn check(rules: &BlindSwords, state: &State, for_: &RallyFor, i: usize) -> RallyCheck {
    let u = &state.units[i];
    let hex = state.hex_of(i);
    let brigade_hold = u.brigade.as_deref().and_then(|b| state.brigade(b)).is_some_and(|b| b.on_hold);
    let (in_active_brigade, beside_friends) = match (for_, hex) {
        (RallyFor::Artillery { .. }, Some(h)) => (
            false,
            beside(rules, state, h, |j| {
                j != i && state.units[j].side == u.side && state.units[j].ty == UnitType::Infantry
            }),
        ),
        (RallyFor::Brigade { brigade, .. }, h) => (
            u.brigade.as_deref() == Some(brigade.as_str()),
            h.is_some_and(|h| {
                beside(rules, state, h, |j| j != i && state.units[j].brigade.as_deref() == Some(brigade.as_str()))
            }),
        ),
        (RallyFor::Artillery { .. }, None) => (false, false),
    };
    // SR 6.4: moved or fired (`acted`), retreated (left the hex it held when the phase began), or
    // flipped to Battleworn since then.
    let start = state.artillery_start.iter().find(|(j, _, _)| *j == i);
    let used = u.acted || start.is_none_or(|(_, place, worn)| *place != u.place || (u.battleworn && !worn));
    RallyCheck {
        in_active_brigade,
        beside_friends,
        enemy_distance: hex.and_then(|h| enemy_distance(rules, state, u.side, h)),
        on_hold: u.on_hold || brigade_hold,
        used_this_phase: used,
        returned_from_broken: rules.options().rebuild && u.returned,
    }
}

/// Where a unit rebuilt from the "Available" box may be placed (SR 13.2b, ruling PC19): hexes at
/// least 3 from any enemy, within 3 of another unit of the active brigade; failing any such hex,
/// of its division; failing that, of any friendly unit; always in play and within stacking.
fn place_hexes(rules: &BlindSwords, state: &State, for_: &RallyFor, i: usize) -> Vec<Hex> {
    let RallyFor::Brigade { brigade, .. } = for_ else { return Vec::new() };
    let data = rules.data();
    let (map, area) = (&data.map, &rules.scenario().area);
    let u = &state.units[i];
    let division = data.catalog.brigade(brigade).and_then(|b| b.division.clone());
    let board = Board::new(map, state);
    let friends = |pick: &dyn Fn(&crate::state::UnitState) -> bool| -> Vec<Hex> {
        state
            .units
            .iter()
            .enumerate()
            .filter(|(j, f)| *j != i && f.side == u.side && pick(f))
            .filter_map(|(_, f)| if let Place::Map(h) = f.place { Some(h) } else { None })
            .collect()
    };
    let tiers = [
        friends(&|f| f.brigade.as_deref() == Some(brigade.as_str())),
        friends(&|f| division.is_some() && f.division == division),
        friends(&|_| true),
    ];
    for near in tiers {
        let hexes: Vec<Hex> = map
            .hexes()
            .filter(|h| area.contains(*h) && near.iter().any(|f| map.distance(*f, *h) <= 3))
            .filter(|h| enemy_distance(rules, state, u.side, *h).is_none_or(|d| d >= RALLY_DISTANCE))
            .filter(|h| board.occupant(state, *h).is_none_or(|s| s == u.side))
            .filter(|h| movement::cost(rules, u.ty, None, false, None, *h).is_some())
            .filter(|h| movement::stacking_fault(rules, state, &board, *h, Some(i)).is_none())
            .collect();
        if !hexes.is_empty() {
            return hexes;
        }
    }
    Vec::new()
}

/// Turns unit `i` to its Battleworn (`worn`) or Fresh side, as printed.
fn set_face(rules: &BlindSwords, state: &mut State, i: usize, worn: bool) {
    let Some(c) = rules.data().catalog.unit(&state.units[i].id).map(CombatUnit::from_catalog) else { return };
    let face = if worn { c.worn } else { c.fresh.unwrap_or(c.worn) };
    let u = &mut state.units[i];
    u.battleworn = worn || c.fresh.is_none();
    u.sp_halves = face.sp.halves();
    u.cr = face.cr;
}

/// Whether unit `i` on its Fresh side over-stacks its hex (SR 13.2b).
fn fresh_over_stacks(rules: &BlindSwords, state: &State, i: usize) -> bool {
    let Some(h) = state.hex_of(i) else { return false };
    let mut fresh = state.clone();
    set_face(rules, &mut fresh, i, false);
    let board = Board::new(&rules.data().map, &fresh);
    movement::stacking_fault(rules, &fresh, &board, h, Some(i)).is_some()
}

/// Where a unit whose Fresh side over-stacks its hex may go (SR 13.2b, ruling PC20): the nearest
/// hexes, one step away first, farther from the nearest enemy than its own and within stacking on
/// its Fresh side. The unit stays Battleworn in its hex until it goes, so the state never breaks
/// stacking.
fn displace_hexes(rules: &BlindSwords, state: &State, i: usize) -> Vec<Hex> {
    let Some(from) = state.hex_of(i) else { return Vec::new() };
    let mut fresh = state.clone();
    set_face(rules, &mut fresh, i, false);
    let state = &fresh;
    let data = rules.data();
    let (map, area) = (&data.map, &rules.scenario().area);
    let u = &state.units[i];
    let board = Board::new(map, state);
    let here = enemy_distance(rules, state, u.side, from);
    let fits = |h: Hex| {
        area.contains(h)
            && board.occupant(state, h).is_none_or(|s| s == u.side)
            && here.is_none_or(|d| enemy_distance(rules, state, u.side, h).is_some_and(|e| e > d))
            && movement::cost(rules, u.ty, None, false, None, h).is_some()
            && movement::stacking_fault(rules, state, &board, h, Some(i)).is_none()
    };
    for ring in 1..=6 {
        let hexes: Vec<Hex> = map.hexes().filter(|h| map.distance(from, *h) == ring && fits(*h)).collect();
        if !hexes.is_empty() {
            return hexes;
        }
    }
    Vec::new()
}

/// The rally actions open to unit `i` in this step (a Rebuild from the "Available" box only when
/// a hex can take the unit, SR 13.2b).
fn actions(rules: &BlindSwords, state: &State, for_: &RallyFor, i: usize) -> Vec<RallyAction> {
    let Some((unit, _)) = rally_unit(rules, state, i) else { return Vec::new() };
    let step = match for_ {
        RallyFor::Artillery { .. } => RallyStep::Artillery,
        RallyFor::Brigade { order, .. } => RallyStep::Brigade(*order),
    };
    let mut out = rally::options(&rules.data().charts, step, &unit, &check(rules, state, for_, i)).unwrap_or_default();
    if unit.status == Status::Available && place_hexes(rules, state, for_, i).is_empty() {
        out.retain(|a| *a != RallyAction::Rebuild);
    }
    out
}

/// The units that may rally in this step, each with its actions.
#[must_use]
pub fn candidates(rules: &BlindSwords, state: &State, for_: &RallyFor) -> Vec<(usize, Vec<RallyAction>)> {
    let side = side_of(state, for_);
    state
        .units
        .iter()
        .enumerate()
        .filter(|(_, u)| u.side == side && matches!(u.place, Place::Map(_) | Place::Broken(0)))
        .filter(|(i, u)| match for_ {
            RallyFor::Artillery { .. } => u.ty.is_artillery(),
            RallyFor::Brigade { brigade, done, .. } => {
                !done.contains(i) && (u.ty.is_artillery() || u.brigade.as_deref() == Some(brigade.as_str()))
            }
        })
        .map(|(i, _)| (i, actions(rules, state, for_, i)))
        .filter(|(_, a)| !a.is_empty())
        .collect()
}

/// The Rebuild roll of unit `i`: the modified Battleworn rating and its request, the rating's
/// modifiers itemised in the purpose (they change the target, not the die).
fn rebuild_roll(rules: &BlindSwords, state: &State, i: usize) -> Option<(i32, RollRequest)> {
    let (unit, supported) = rally_unit(rules, state, i)?;
    let (cr, mods) = rally::rebuild_cr(&unit, supported);
    let mut r = rally::rebuild_request(&unit, cr, Vec::new());
    r.side = side_id(unit.side).into();
    let u = &state.units[i];
    let why = mods.iter().map(|m| format!(", {} {:+} [{}]", m.label, m.value, m.rule)).collect::<String>();
    r.purpose = format!("Rebuild {}: Battleworn CR {}{why} → {cr}; succeeds at or under {cr}", u.name, unit.worn.cr);
    Some((cr, r))
}

fn where_is(state: &State, i: usize) -> String {
    state.hex_of(i).map_or_else(|| "in the Available box".to_string(), |h| format!("in {h}"))
}

fn label(rules: &BlindSwords, state: &State, i: usize, action: RallyAction) -> String {
    let u = &state.units[i];
    let at = where_is(state, i);
    let morale = rally_unit(rules, state, i).map_or(Morale::Steady, |(c, _)| c.morale);
    match action {
        RallyAction::Recovery(Rally::One) => {
            format!("{} {at}: Recovery, one Morale Hit off ({morale} → {}) (SR 13.2a)", u.name, morale.recover_one())
        }
        RallyAction::Recovery(_) => {
            format!("{} {at}: Recovery, every Morale Hit off ({morale} → none) (SR 13.2a)", u.name)
        }
        RallyAction::Rebuild => {
            let cr = rebuild_roll(rules, state, i).map_or(0, |(cr, _)| cr);
            let what = if state.hex_of(i).is_some() {
                "flips it to its Fresh side"
            } else {
                "puts it back on the map, Battleworn"
            };
            format!("{} {at}: Rebuild, a die at or under {cr} {what} (SR 13.2b)", u.name)
        }
    }
}

fn decide(side: Side, kind: &str, prompt: String, options: Vec<Choice>) -> Pending {
    Pending::Decide(Decision { side: side_id(side).into(), kind: kind.into(), prompt, options })
}

fn hex_options(state: &State, i: usize, hexes: &[Hex]) -> Vec<Choice> {
    hexes.iter().map(|h| Choice::new(format!("hex:{h}"), format!("{} to {h}", state.units[i].name))).collect()
}

/// What a rally stage waits for.
#[must_use]
pub fn pending(rules: &BlindSwords, state: &State) -> Option<Pending> {
    match &state.stage {
        Stage::Rally { for_ } => {
            let side = side_of(state, for_);
            let mut options: Vec<Choice> = Vec::new();
            for (i, acts) in candidates(rules, state, for_) {
                let id = &state.units[i].id;
                for a in acts {
                    let verb = if a == RallyAction::Rebuild { "rebuild" } else { "recover" };
                    options.push(Choice::new(format!("{verb}:{id}"), label(rules, state, i, a)));
                }
            }
            let (kind, prompt, end) = match for_ {
                RallyFor::Artillery { .. } => (
                    "artillery-rally",
                    format!("{side} Artillery Rally Step: rally one battery, or none (SR 6.4)"),
                    Choice::new("pass", "No battery rallies"),
                ),
                RallyFor::Brigade { brigade, order, .. } => (
                    "rally",
                    format!(
                        "Rally Step of {} ({order:?}): each eligible unit may rally once (SR 13.1-13.2)",
                        rules.data().catalog.brigade(brigade).map_or(brigade.as_str(), |b| b.leader.as_str())
                    ),
                    Choice::new("done", "End the Rally Step"),
                ),
            };
            options.push(end);
            Some(decide(side, kind, prompt, options))
        }
        Stage::Rebuild { unit, .. } => rebuild_roll(rules, state, *unit).map(|(_, r)| Pending::Roll(r)),
        Stage::RallyPlace { for_, unit } => {
            let u = &state.units[*unit];
            let options = hex_options(state, *unit, &place_hexes(rules, state, for_, *unit));
            let prompt = format!(
                "Place the rebuilt {}: at least 3 hexes from the enemy, within 3 of its brigade (else division, else any friend) (SR 13.2b)",
                u.name
            );
            Some(decide(u.side, "rally-place", prompt, options))
        }
        Stage::RallyDisplace { unit, .. } => {
            let u = &state.units[*unit];
            let options = hex_options(state, *unit, &displace_hexes(rules, state, *unit));
            let prompt =
                format!("{} over-stacks its hex on its Fresh side: move it away from the enemy (SR 13.2b)", u.name);
            Some(decide(u.side, "rally-displace", prompt, options))
        }
        _ => None,
    }
}

fn bad(option: &str) -> RuleError {
    RuleError::NotAnOption(option.to_string())
}

/// Applies the owner's choice in a rally stage.
///
/// # Errors
/// The option is not offered; the state is then unchanged.
pub fn choose(rules: &BlindSwords, state: &mut State, option: &str) -> Result<(), RuleError> {
    let Some(Pending::Decide(d)) = pending(rules, state) else { return Err(bad(option)) };
    if !d.options.iter().any(|c| c.id == option) {
        return Err(bad(option));
    }
    let (verb, arg) = option.split_once(':').unwrap_or((option, ""));
    match (state.stage.clone(), verb) {
        (Stage::Rally { for_ }, "pass" | "done") => finish(rules, state, &for_),
        (Stage::Rally { for_ }, "recover") => {
            let i = state.unit_index(arg).ok_or_else(|| bad(option))?;
            let rally = actions(rules, state, &for_, i)
                .into_iter()
                .find_map(|a| if let RallyAction::Recovery(r) = a { Some(r) } else { None })
                .ok_or_else(|| bad(option))?;
            let (unit, _) = rally_unit(rules, state, i).ok_or_else(|| bad(option))?;
            let after = rally::recover(&unit, rally).morale;
            let u = &mut state.units[i];
            u.morale_hits = after.penalty();
            u.shaken = false;
            let text = format!("{} recovers: {} → {after}", u.name, unit.morale);
            state.note(text, if matches!(for_, RallyFor::Artillery { .. }) { "SR 6.4, 13.2a" } else { "SR 13.2a" });
            rallied(rules, state, for_, i);
        }
        (Stage::Rally { for_ }, "rebuild") => {
            let i = state.unit_index(arg).ok_or_else(|| bad(option))?;
            state.stage = Stage::Rebuild { for_, unit: i };
        }
        (Stage::RallyPlace { for_, unit }, "hex") => {
            let h: Hex = arg.parse().map_err(|_| bad(option))?;
            occupy(rules, state, unit, h);
            state.units[unit].returned = true;
            state.note(format!("{} returns to the map in {h}, Battleworn", state.units[unit].name), "SR 12.8b, 13.2b");
            rallied(rules, state, for_, unit);
        }
        (Stage::RallyDisplace { for_, unit }, "hex") => {
            let h: Hex = arg.parse().map_err(|_| bad(option))?;
            occupy(rules, state, unit, h);
            set_face(rules, state, unit, false);
            state.note(
                format!("{} displaces to {h} on its Fresh side, to keep within stacking", state.units[unit].name),
                "SR 13.2b",
            );
            rallied(rules, state, for_, unit);
        }
        _ => return Err(bad(option)),
    }
    Ok(())
}

/// Applies the Rebuild die (already checked against the pending request); returns the text to log
/// with it.
#[must_use]
pub fn roll(rules: &BlindSwords, state: &mut State, dice: &[u8]) -> String {
    let Stage::Rebuild { for_, unit: i } = state.stage.clone() else { return String::new() };
    let Some((unit, supported)) = rally_unit(rules, state, i) else { return String::new() };
    let (cr, _) = rally::rebuild_cr(&unit, supported);
    let die = dice.first().copied().unwrap_or(0);
    let (after, ok) = rally::rebuild(&unit, cr, die);
    let name = state.units[i].name.clone();
    if !ok {
        rallied(rules, state, for_, i);
        return format!("Rebuild {name}: {die} against {cr}: fails, no change");
    }
    if unit.status == Status::Available {
        let face = after.face();
        let u = &mut state.units[i];
        u.battleworn = true;
        u.sp_halves = face.sp.halves();
        u.cr = face.cr;
        u.morale_hits = 0;
        u.shaken = false;
        state.stage = Stage::RallyPlace { for_, unit: i };
        return format!(
            "Rebuild {name}: {die} against {cr}: succeeds, it leaves the Available box on its Battleworn side"
        );
    }
    let text = format!("Rebuild {name}: {die} against {cr}: succeeds");
    if !fresh_over_stacks(rules, state, i) {
        set_face(rules, state, i, false);
        rallied(rules, state, for_, i);
        format!("{text}, flipped to its Fresh side")
    } else if displace_hexes(rules, state, i).is_empty() {
        // Ruling PC20: nowhere to go, the unit stays on its Battleworn side.
        rallied(rules, state, for_, i);
        format!(
            "{text}, but its Fresh side over-stacks its hex and no hex can take it: it stays Battleworn (ruling PC20)"
        )
    } else {
        state.stage = Stage::RallyDisplace { for_, unit: i };
        format!("{text}; its Fresh side over-stacks its hex, so it must move away")
    }
}

/// Unit `i` has rallied: the Artillery Rally Step passes to the next side (one battery each,
/// SR 6.4); a Rally Step goes on with the brigade's other units (SR 13.2).
fn rallied(rules: &BlindSwords, state: &mut State, for_: RallyFor, i: usize) {
    match for_ {
        RallyFor::Artillery { .. } => finish(rules, state, &for_),
        RallyFor::Brigade { brigade, order, by, mut done } => {
            done.push(i);
            state.stage = Stage::Rally { for_: RallyFor::Brigade { brigade, order, by, done } };
        }
    }
}

/// The end of a rally step: the Confederate pick after the Union's, then the Chit Draw Phase
/// (SR 6.4, 4.0); after a brigade's Rally Step, what follows its activation.
pub fn finish(rules: &BlindSwords, state: &mut State, for_: &RallyFor) {
    match for_ {
        RallyFor::Artillery { side: Side::Union } => {
            state.stage = Stage::Rally { for_: RallyFor::Artillery { side: Side::Confederate } };
        }
        RallyFor::Artillery { side: Side::Confederate } => {
            state.note("Artillery Phase ends", "SR 6.4");
            state.stage = Stage::Draw;
        }
        RallyFor::Brigade { by, .. } => after_activation(rules, state, by),
    }
}

/// The Rally Step of a brigade after its activation (SR 4.0 4e, 13): under Defend or Regroup
/// orders; under any other order the activation ends.
pub fn begin(rules: &BlindSwords, state: &mut State, brigade: String, order: Order, by: Activator) {
    if rules.data().charts.orders.details(order).rally == Rally::None {
        after_activation(rules, state, &by);
    } else {
        state.stage = Stage::Rally { for_: RallyFor::Brigade { brigade, order, by, done: Vec::new() } };
    }
}

/// Each battery's place and face as the Artillery Phase begins, for the SR 6.4 conditions.
pub fn mark_artillery(state: &mut State) {
    state.artillery_start = state
        .units
        .iter()
        .enumerate()
        .filter(|(_, u)| u.ty.is_artillery())
        .map(|(i, u)| (i, u.place, u.battleworn))
        .collect();
}

/// The End Turn update of the Broken Track (SR 12.8a, 14.4): box 1 to "Available", 2 to 1, 3 to
/// 2; the "Available" box stays.
pub fn update_broken_track(state: &mut State) {
    let mut moved = Vec::new();
    for n in 1..=3u8 {
        for i in 0..state.units.len() {
            if state.units[i].place != Place::Broken(n) {
                continue;
            }
            let to = match broken_track_advance(Status::Broken(n)) {
                Status::Broken(m) => m,
                _ => 0,
            };
            state.units[i].place = Place::Broken(to);
            let dest = if to == 0 { "the Available box".to_string() } else { format!("box {to}") };
            moved.push(format!("{} from box {n} to {dest}", state.units[i].name));
        }
    }
    if !moved.is_empty() {
        state.note(format!("Broken Track: {}", moved.join(", ")), "SR 12.8a, 14.4");
    }
}
