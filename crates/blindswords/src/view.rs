//! What a side may see (SR 5.1, 7.3: Key Chits are picked secretly, held event chits are kept
//! face down, the cup is drawn blind): its own held chits and Key Chit, never the other side's,
//! and of the cup only how many chits it holds. The units, the tracks and the log are public
//! (the log names no secret chit: a drawn event chit is logged as "a Union event chit").

use serde_json::{json, Value};

use crate::catalog::Side;
use crate::map;
use crate::rules::BlindSwords;
use crate::sequence::puller;
use crate::state::{ix, side_id, Place, RallyFor, Stage, State};
use crate::victory;

fn chit_json(rules: &BlindSwords, id: &str) -> Value {
    let name = rules.data().catalog.chit(id).map_or(id, |c| c.name.as_str());
    json!({ "id": id, "name": name })
}

/// The view of `side` (`None`: both sides at one table, everything shown).
#[must_use]
pub fn view(rules: &BlindSwords, state: &State, side: Option<Side>) -> Value {
    let sees = |s: Side| side.is_none_or(|v| v == s);
    let units: Vec<Value> = state
        .units
        .iter()
        .map(|u| {
            let place = match u.place {
                Place::Map(h) => json!(h),
                Place::Waiting(_) => json!("entering"),
                Place::NotYet(_) => json!("not yet"),
                Place::SetUp => json!("to place"),
                Place::Broken(0) => json!("broken track: available"),
                Place::Broken(n) => json!(format!("broken track: box {n}")),
                Place::Eliminated => json!("eliminated"),
                Place::Exited => json!("exited"),
            };
            json!({
                "id": u.id, "name": u.name, "side": side_id(u.side), "type": u.ty, "brigade": u.brigade,
                "hex": place, "battleworn": u.battleworn, "sp": f64::from(u.sp_halves) / 2.0, "cr": u.cr,
                "morale_hits": u.morale_hits, "skirmish": u.skirmish, "shaken": u.shaken, "on_hold": u.on_hold,
            })
        })
        .collect();
    let mut sides = serde_json::Map::new();
    for s in Side::BOTH {
        let held = &state.chits.held[ix(s)];
        let entry = if sees(s) {
            json!({
                "held": held.iter().map(|c| chit_json(rules, c)).collect::<Vec<_>>(),
                "key": state.chits.key[ix(s)].as_deref().map(|c| chit_json(rules, c)),
                "vp": state.vp[ix(s)],
            })
        } else {
            json!({ "held_count": held.len(), "key": state.chits.key[ix(s)].as_ref().map(|_| "hidden"), "vp": state.vp[ix(s)] })
        };
        sides.insert(side_id(s).to_string(), entry);
    }
    let track = &rules.data().charts.buell;
    let score = victory::score(rules, state);
    let cat = &rules.data().catalog;
    // The brigades with their leaders (public: printed on the counters).
    let brigades: Vec<Value> = state
        .brigades
        .iter()
        .map(|b| {
            let known = cat.brigade(&b.id);
            json!({
                "id": b.id, "side": side_id(b.side), "on_hold": b.on_hold, "activated": b.activated, "order": b.order,
                "leader": known.map_or(b.id.as_str(), |k| k.leader.as_str()),
                "division": known.and_then(|k| k.division.as_deref()),
            })
        })
        .collect();
    json!({
        "system": "blind-swords",
        "scenario": state.scenario,
        "map": map::MAP_IDS[0],
        "turn": state.turn,
        "turns": rules.turns(),
        "clock": rules.clock(state.turn),
        "stage": stage_name(phase_stage(state)),
        "chit_puller": side_id(puller(state.turn)),
        "units": units,
        "brigades": brigades,
        "cup": { "count": state.chits.cup.len() },
        "played": state.chits.played.iter().map(|c| chit_json(rules, c)).collect::<Vec<_>>(),
        "casualties": state.chits.casualties,
        "fortunes_of_war": state.chits.fortunes,
        "sides": sides,
        "buell": state.buell_box.map(|b| json!({ "box": b, "name": track.boxes()[b].name })),
        "buell_track": track.boxes().iter().map(|b| b.name.as_str()).collect::<Vec<_>>(),
        "mccook_on_buell": state.chits.on_buell.is_some(),
        "chaos": state.chaos,
        "broken_track": (0..=3u8)
            .map(|n| state.units.iter().enumerate().filter(|(_, u)| u.place == Place::Broken(n)).map(|(i, _)| i).collect())
            .collect::<Vec<Vec<usize>>>(),
        "right_hook": crate::special::hook_view(rules, state, side),
        "exited": crate::special::exits(state),
        "control": state.control.iter().map(|(h, s)| json!({ "hex": h, "side": side_id(*s) })).collect::<Vec<_>>(),
        "score": { "result": score.result, "lines": score.lines },
        "log": state.log,
    })
}

/// The stage that names the phase: a fire in progress other than a battery's belongs to the
/// stage it returns to (a brigade's Fire Combat Step, or the movement it interrupts).
fn phase_stage(state: &State) -> &Stage {
    state.volley.as_ref().map_or(&state.stage, |v| &v.then)
}

/// The stage's name, for front ends.
#[must_use]
pub fn stage_name(stage: &Stage) -> &'static str {
    match stage {
        Stage::Place { .. } => "set-up",
        Stage::TurnStart | Stage::Command | Stage::KeyChit { .. } | Stage::RandomEvents { .. } => "command-decision",
        Stage::Artillery { .. } | Stage::FireLead { .. } | Stage::FireRoll { .. } | Stage::FireTest { .. } => {
            "artillery"
        }
        Stage::Draw
        | Stage::Fog
        | Stage::Chaos { .. }
        | Stage::Wayward { .. }
        | Stage::WaywardFire { .. }
        | Stage::Casualty
        | Stage::PickBrigade { .. }
        | Stage::ActivationRoll { .. }
        | Stage::SoloOrders { .. }
        | Stage::Mccook
        | Stage::BuellCommands
        | Stage::HeldChits { .. }
        | Stage::RallyEvent { .. }
        | Stage::EventFire { .. }
        | Stage::Initiative
        | Stage::Aggressive { .. } => "chit-draw",
        Stage::Confusion { .. } | Stage::ConfusionRoll { .. } => "orders",
        Stage::HiddenEnemy { .. } | Stage::HiddenMoves { .. } | Stage::Withdraw { .. } => "movement",
        Stage::Orders { .. } => "orders",
        Stage::FireStep { .. } => "fire-combat",
        Stage::FlankFire { back, .. } => stage_name(back),
        Stage::Move { .. } | Stage::OppFire { .. } => "movement",
        Stage::Aftermath { .. } | Stage::RetreatFire { .. } => "retreat",
        Stage::CloseDeclare { .. } | Stage::CloseCombat { .. } | Stage::Advance { .. } => "close-combat",
        Stage::BuellRoll | Stage::Release { .. } | Stage::ReleaseManeuvers | Stage::RightHookReveal { .. } => {
            "end-turn"
        }
        Stage::RightHookSecret => "set-up",
        Stage::Arrive { .. } | Stage::Unstack { .. } => "reinforcements",
        Stage::GreatGrandfather { .. } => "broken-track",
        Stage::Rally { for_ }
        | Stage::Rebuild { for_, .. }
        | Stage::RallyPlace { for_, .. }
        | Stage::RallyDisplace { for_, .. } => match for_ {
            RallyFor::Artillery { .. } => "artillery",
            RallyFor::Brigade { .. } => "rally",
        },
        Stage::Over => "over",
    }
}

/// A plain-text status screen.
#[must_use]
pub fn summary(rules: &BlindSwords, state: &State) -> String {
    let sc = rules.scenario();
    let mut out = format!(
        "{} — turn {}/{} ({}), {}; cup {} chits; VP Union {} Confederate {}\n",
        sc.name,
        state.turn,
        rules.turns(),
        rules.clock(state.turn),
        stage_name(phase_stage(state)),
        state.chits.cup.len(),
        state.vp[0],
        state.vp[1]
    );
    for side in Side::BOTH {
        let on_map: Vec<String> = state
            .units
            .iter()
            .filter(|u| u.side == side)
            .filter_map(|u| match u.place {
                Place::Map(h) => Some(format!("{} {h}", u.name)),
                _ => None,
            })
            .collect();
        out.push_str(&format!("{side}: {}\n", on_map.join(", ")));
    }
    out
}
